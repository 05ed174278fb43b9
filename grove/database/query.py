"""Queries over the card database: text -> a small AST -> a test each row passes or fails.

`grove find`, `grove.api.find` (and through it the language server and the terminal game) all
come here. The grammar is `query.lark` (Lark, as the rules language is); a query that does not
parse, names a term grove does not know, or gives a term a value it cannot take is refused with
a diagnostic whose span points into the query (the file is `query`), a stable code and a hint,
never with a traceback: `show` prints it with a caret under the mistake.

Every term is one entry of `TERMS`, which docs/find.md lists and the tests walk, so a term cannot
be added without its documentation and its test.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from grove.dsl.diagnostics import Diagnostic, DiagnosticError, Span, error, format_text

QUERY = "query"  # the file name a query's diagnostics carry
MAX_LENGTH = 1000  # characters; the longest useful query is a line
MAX_DEPTH = 32  # parentheses and negations nested in one another
SYNTAX_HINT = ("a query is terms such as `type:bird cost<=1`, joined by `or`, turned round by "
               "`-` or `not`, grouped with parentheses (docs/find.md)")
NUMBER_OPS = ("=", "!=", "<", "<=", ">", ">=", ":")
WORD_OPS = (":", "=", "!=")

Row = dict[str, Any]
Test = Callable[[Row], bool]


# ---- the AST -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Term:
    key: str  # as written
    op: str
    value: str  # quotes removed
    span: Span  # the whole term
    key_span: Span
    value_span: Span


@dataclass(frozen=True)
class Bare:
    value: str
    span: Span
    exact: bool = False  # `!"Red Fox"`: the whole name


@dataclass(frozen=True)
class Not:
    item: Node
    span: Span


@dataclass(frozen=True)
class AllOf:
    items: tuple[Node, ...]
    span: Span


@dataclass(frozen=True)
class AnyOf:
    items: tuple[Node, ...]
    span: Span


Node = Term | Bare | Not | AllOf | AnyOf


# ---- the terms -----------------------------------------------------------------------------
@dataclass(frozen=True)
class TermSpec:
    """One term of the language: its name, short names, what its value is (`word`: one of the
    database's names; `number`; `text`: a part of a text; the operators follow from it), an
    example (docs/find.md shows it, and a test asks it) and what it means."""

    name: str
    aliases: tuple[str, ...]
    value: str  # "word" | "number" | "text"
    example: str
    meaning: str

    @property
    def ops(self) -> tuple[str, ...]:
        return NUMBER_OPS if self.value == "number" else WORD_OPS


TERMS: tuple[TermSpec, ...] = (
    TermSpec("type", ("t",), "word", "type:bird",
             "the species has the type or group (what `grove cards` lists as its types)"),
    TermSpec("kind", ("k",), "word", "kind:tree", "the species is of the kind (tree, dweller, ...)"),
    TermSpec("symbol", ("sym",), "word", "symbol:linden",
             "the species shows the tree symbol: its own (a tree's) or that of one of its halves"),
    TermSpec("side", (), "word", "side:top", "a half of the species sits on that side"),
    TermSpec("edition", ("e", "set"), "word", "edition:alpine", "the species is the edition's"),
    TermSpec("cost", ("c",), "number", "cost<=1", "what the species costs to play"),
    TermSpec("copies", (), "number", "copies>=3", "how many halves of the species the deck holds"),
    TermSpec("name", ("n",), "text", "name:fuchs",
             "a part of the species' name in any language (only `--lang`'s when given)"),
    TermSpec("text", ("x",), "text", "text:draw", "a part of the rules text in `--lang`"),
    TermSpec("rule", ("r",), "text", 'rule:"per hare"', "a part of a rule as written"),
    TermSpec("reads", (), "word", "reads:hare",
             "a rule counts the type, group, species or tree symbol (the compiler's reading)"),
    TermSpec("is", (), "word", "is:split",
             "the species is water, split (its cards have halves) or provisional"),
)
FLAGS = {"water": "the species is a water card"}
IS = {"water": "water", "split": "sides", "provisional": "provisional"}  # is:WORD -> the row's field
_BY_NAME = {n: t for t in TERMS for n in (t.name, *t.aliases)}


# ---- parsing -------------------------------------------------------------------------------
@cache
def _lark() -> Any:
    """The parser, its tables from the on-disk cache: building them anew costs a warm
    `grove find` more than everything else it does."""
    from grove.compiler import lark_tables

    return lark_tables.parser("grove.database", "query.lark", lexer="contextual",
                              propagate_positions=True, maybe_placeholders=False)


def _span(line: int, col: int, end_line: int | None = None, end_col: int | None = None) -> Span:
    return Span(QUERY, line, col, end_line or line, end_col or col + 1)


def _tok_span(tok: Any) -> Span:
    return _span(tok.line, tok.column, tok.end_line, tok.end_column)


def _unquote(tok: Any) -> str:
    s = str(tok)
    if tok.type == "EXACT":
        s = s[1:]
        return s[1:-1] if s[:1] in "\"'" else s
    return s[1:-1] if tok.type == "STRING" else s


def _build(tree: Any) -> Node | None:
    """Lark's tree -> the AST, without recursion, refusing a query nested deeper than
    MAX_DEPTH (USAGE-QUERY-LIMIT): the tests a query compiles into call one another as deep."""
    from lark import Token, Tree

    if not tree.children:
        return None
    done: dict[int, Node] = {}
    stack: list[tuple[Any, int, bool]] = [(tree.children[0], 0, False)]
    while stack:
        node, depth, ready = stack.pop()
        if not ready:
            if depth > MAX_DEPTH:
                meta = node.meta
                raise DiagnosticError([error(
                    "USAGE-QUERY-LIMIT", _span(meta.line, meta.column, meta.end_line,
                                               meta.end_column),
                    f"the query nests more than {MAX_DEPTH} levels deep",
                    "fewer parentheses and negations say the same")])
            stack.append((node, depth, True))
            stack.extend((c, depth + 1, False) for c in node.children if isinstance(c, Tree))
            continue
        kids = [done[id(c)] for c in node.children if isinstance(c, Tree)]
        meta = node.meta
        span = _span(meta.line, meta.column, meta.end_line, meta.end_column)
        toks = [c for c in node.children if isinstance(c, Token)]
        match node.data:
            case "compare":
                key, op, value = toks
                out: Node = Term(str(key), str(op), _unquote(value), span, _tok_span(key),
                                 _tok_span(value))
            case "bare":
                if toks[0].type == "WORD" and str(toks[0]).lower() in _KEYWORDS:
                    raise DiagnosticError([_keyword_alone(toks[0])])
                out = Bare(_unquote(toks[0]), span)
            case "exact":
                out = Bare(_unquote(toks[0]), span, exact=True)
            case "negate":
                out = Not(kids[0], span)
            case "group":
                out = kids[0]
            case "conj":
                out = AllOf(tuple(kids), span)
            case "disj":
                out = AnyOf(tuple(kids), span)
            case other:  # the grammar has no other rule
                raise AssertionError(other)
        done[id(node)] = out
    return done[id(tree.children[0])]


_KEYWORDS = ("or", "and", "not")


def _keyword_alone(tok: Any) -> Diagnostic:
    """`or` or `and` where a term should be (at the start), or `not` with nothing after it: the
    lexer reads the keyword as a word there, so the parser cannot say it."""
    word = str(tok).lower()
    if word == "not":
        return error("USAGE-QUERY-SYNTAX", _tok_span(tok), "`not` needs a term after it",
                     "not water, -water; quote a name that is the word: name:\"not\"")
    return error("USAGE-QUERY-SYNTAX", _tok_span(tok), f"`{word}` needs a term on each side",
                 f"type:bird {word} type:insect; quote a name that is the word: name:\"{word}\"")


def _open_paren(text: str) -> int | None:
    """The 0-based offset of the first `(` left open (quotes skipped), or None."""
    opened: list[int] = []
    quote = None
    for i, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "(":
            opened.append(i)
        elif ch == ")" and opened:
            opened.pop()
    return opened[0] if opened else None


def _position(text: str, offset: int) -> tuple[int, int]:
    """(line, col), 1-based, of a 0-based offset."""
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


_WORDS = {"_OR": "`or`", "_AND": "`and`", "_NOT": "`not`", "MINUS": "`-`", "OP": "an operator",
          "LPAR": "`(`", "RPAR": "`)`", "WORD": "a word", "VALUE": "a value",
          "STRING": "a quoted text", "$END": "the end of the query"}


def _syntax(text: str, exc: Exception) -> Diagnostic:
    """A Lark error as a diagnostic: the caret where the query went wrong, and the hint that
    fits what came there."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

    assert isinstance(exc, UnexpectedInput)
    line, col = getattr(exc, "line", 1), getattr(exc, "column", 1)
    if not isinstance(line, int) or line < 1:  # the end of the text
        line, col = _position(text, len(text))
    width = 1
    tok = getattr(exc, "token", None)
    got = tok.type if tok is not None else "$END"
    expected = set(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
    if isinstance(exc, UnexpectedCharacters):
        ch = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else ""
        if ch in "\"'":
            return error("USAGE-QUERY-SYNTAX", _span(line, col), "a quote is not closed",
                         f"close it: name:{ch}red fox{ch}")
        if ch == "!":
            return error("USAGE-QUERY-SYNTAX", _span(line, col), "`!` needs a name after it",
                         'a whole name follows it: !"Red Fox", !fuchs')
        if ch in ":<>=":
            return error("USAGE-QUERY-SYNTAX", _span(line, col),
                         f"`{ch}` where a term should start",
                         "a term starts with its name: type:bird, cost<=1")
        return error("USAGE-QUERY-SYNTAX", _span(line, col), f"unexpected `{ch}`", SYNTAX_HINT)
    if isinstance(exc, UnexpectedToken) and tok is not None and got != "$END":
        width = max(1, len(str(tok)))
        line, col = tok.line, tok.column
    where = _span(line, col, line, col + width)
    said = _WORDS.get(got, f"`{tok}`")
    if got == "$END" and ("VALUE" in expected or "STRING" in expected) and "WORD" not in expected:
        return error("USAGE-QUERY-SYNTAX", where, "a value is missing after the operator",
                     "give the term its value: type:bird, cost<=1")
    at = _open_paren(text) if got == "$END" else None
    if at is not None:  # the caret under the `(` left open
        where = _span(*_position(text, at))
        opened = ""
        if at > 0 and text[at - 1] not in " \t\n(-":  # `rule:symbol(oak)`: meant as a value
            return error("USAGE-QUERY-SYNTAX", where, f"a parenthesis is not closed{opened}",
                         'a value that holds parentheses is quoted: rule:"symbol(oak)"')
        return error("USAGE-QUERY-SYNTAX", where, f"a parenthesis is not closed{opened}",
                     "close it with `)`: (type:bird or type:insect) cost<=1")
    if got == "RPAR":
        return error("USAGE-QUERY-SYNTAX", where, "this `)` closes nothing, or closes an empty group",
                     "put a term inside: (type:bird or type:insect)")
    if got in ("_OR", "_AND"):
        word = said.strip("`")
        return error("USAGE-QUERY-SYNTAX", where, f"{said} needs a term on each side",
                     f"type:bird {word} type:insect")
    if got == "$END":
        if not text.strip():
            return error("USAGE-QUERY-SYNTAX", where, "the query is empty",
                         "ask for something: type:bird, cost<=1, water")
        return error("USAGE-QUERY-SYNTAX", where, "the query ends where a term should follow",
                     "`or`, `and`, `-` and `not` need a term after them: -water, type:bird or water")
    if got == "VALUE" and str(tok)[:1] == "!" and str(tok)[1:2] != "=":
        return error("USAGE-QUERY-SYNTAX", where, "`!` needs a name after it",
                     'a whole name follows it: !"Red Fox", !fuchs')
    if got == "OP" or (got == "VALUE" and str(tok)[:1] in ":<>=!"):
        return error("USAGE-QUERY-SYNTAX", where, f"`{tok}` where a term should start",
                     "one operator per term, after its name: cost<=1, type:bird")
    return error("USAGE-QUERY-SYNTAX", where, f"unexpected {said}", SYNTAX_HINT)


# A plain term as query.lark reads it: WORD, or WORD OP VALUE, with no quote or parenthesis
_PLAIN_TERM = re.compile(r"""([^\s()"'\-:<>=!][^\s()"':<>=!]*)(?:((?>!=|<=|>=|:|=|<|>))([^\s()"']+))?""")


def plain_terms(text: str) -> Node | None:
    """The AST of a query of plain terms side by side (`type:bird cost<=1`, `water`), read
    without Lark, whose import costs a warm `grove find` a third of its time; None for any
    other query (a keyword, `-`, `!`, a quote, a parenthesis, a line break, a mistake), which
    the grammar reads. Spans are Lark's: 1-based columns, the end one past the last."""
    if not text.strip(" ") or any(ch.isspace() and ch != " " for ch in text):
        return None
    terms: list[Node] = []
    col = 1
    for chunk in text.split(" "):
        if chunk:
            m = _PLAIN_TERM.fullmatch(chunk)
            if m is None or chunk.lower() in _KEYWORDS:
                return None
            key, op, value = m.groups()
            end = col + len(chunk)
            if op is None:
                terms.append(Bare(key, _span(1, col, 1, end)))
            else:
                terms.append(Term(key, op, value, _span(1, col, 1, end),
                                  _span(1, col, 1, col + len(key)),
                                  _span(1, end - len(value), 1, end)))
        col += len(chunk) + 1
    if len(terms) == 1:
        return terms[0]
    first, last = terms[0].span, terms[-1].span
    return AllOf(tuple(terms), _span(1, first.col, 1, last.end_col))


def parse(text: str) -> Node:
    """A query's AST; `DiagnosticError` (USAGE-QUERY-SYNTAX, USAGE-QUERY-LIMIT) if it has none."""
    if len(text) > MAX_LENGTH:
        raise DiagnosticError([error(
            "USAGE-QUERY-LIMIT", _span(1, 1), f"the query has {len(text)} characters; grove "
            f"reads at most {MAX_LENGTH}", "ask in shorter words, or several queries")])
    node = plain_terms(text)
    return node if node is not None else by_grammar(text)


def by_grammar(text: str) -> Node:
    """A query's AST as query.lark reads it: every query `plain_terms` does not take."""
    from lark.exceptions import UnexpectedInput

    try:
        tree = _lark().parse(text)
    except UnexpectedInput as exc:
        raise DiagnosticError([_syntax(text, exc)]) from None
    node = _build(tree)
    if node is None:
        raise DiagnosticError([error("USAGE-QUERY-SYNTAX", _span(1, 1), "the query is empty",
                                     "ask for something: type:bird, cost<=1, water")])
    return node


# ---- what the database holds ---------------------------------------------------------------
@dataclass(frozen=True)
class Vocabulary:
    """Every word a `word` term may take, from the rows searched: a value none of them has is
    almost always a slip, and gets a hint instead of an empty answer."""

    words: dict[str, frozenset[str]]
    editions: tuple[str, ...]
    # the words of every edition on the path, asked only for a word the editions searched lack:
    # `-type:fish --edition base` is a question with an answer (every base species), not a slip
    wider: Callable[[], Vocabulary] | None = None

    @classmethod
    def of(cls, rows: Iterable[Row], editions: Sequence[str]) -> Vocabulary:
        from grove.compiler.model import SIDES

        words: dict[str, set[str]] = {t.name: set() for t in TERMS if t.value == "word"}
        words["side"] |= set(SIDES)
        words["is"] |= set(IS)
        words["edition"] |= set(editions)
        for r in rows:
            words["type"] |= set(r["types"])
            words["kind"].add(r["kind"])
            words["symbol"] |= _symbols(r)
            words["side"] |= set(r["sides"])
            words["edition"].add(r["edition"])
            words["reads"] |= {r["id"], r["key"]}
            words["reads"] |= {t.partition(":")[2] for t in r["reads"]}
            words["reads"] |= {t.rpartition(":")[2] for t in r["reads"]}
        words["reads"] |= words["type"] | words["symbol"] | words["kind"]
        return cls({k: frozenset(v) for k, v in words.items()}, tuple(editions))


def _symbols(r: Row) -> set[str]:
    out = {s for side in r["symbols"].values() for s in side}
    return out | ({r["symbol"]} if r["symbol"] else set())


# ---- compiling a query ---------------------------------------------------------------------
def _suggest(word: str, pool: Iterable[str]) -> str | None:
    found = difflib.get_close_matches(word.lower(), sorted(pool), n=1, cutoff=0.6)
    return found[0] if found else None


def _listing(pool: Iterable[str], most: int = 12) -> str:
    items = sorted(pool)
    more = f", ... ({len(items) - most} more)" if len(items) > most else ""
    return ", ".join(items[:most]) + more


_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u02bc": "'", "\u2032": "'",
                              "`": "'", "\u00b4": "'"})


@lru_cache(maxsize=1 << 14)  # the names of every edition, asked again by each query
def fold(text: str) -> str:
    """A name as people type it: case, accents (composed or not) and the apostrophe's shapes do
    not count, so `gamse` finds Gämse and `savi's` Savi\u2019s; the export's `folded` column holds
    the same (docs/export.md)."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_APOSTROPHES))
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return unicodedata.normalize("NFC", bare).casefold()



def _compare(op: str, a: int, b: int) -> bool:
    match op:
        case "=" | ":":
            return a == b
        case "!=":
            return a != b
        case "<":
            return a < b
        case "<=":
            return a <= b
        case ">":
            return a > b
    return a >= b


def reads(tokens: Iterable[str], name: str) -> bool:
    """Whether a species' readings (`database.reads`: "tag:hare", "species:base:red_fox",
    "symbol:oak") name `name`: a type, group or host, a tree symbol, or a species by id or key."""
    for t in tokens:
        kind, _, key = t.partition(":")
        if key == name or (kind == "species" and key.rpartition(":")[2] == name):
            return True
    return False


def _word_test(spec: TermSpec, value: str) -> Test:
    match spec.name:
        case "type":
            return lambda r: value in r["types"]
        case "kind":
            return lambda r: r["kind"] == value
        case "symbol":
            return lambda r: value in _symbols(r)
        case "side":
            return lambda r: value in r["sides"]
        case "edition":
            return lambda r: r["edition"] == value
        case "reads":
            return lambda r: reads(r["reads"], value)
        case "is":
            fld = IS[value]
            return lambda r: bool(r[fld])
    raise AssertionError(spec.name)


def _names(r: Row, lang_given: bool) -> Iterable[str]:
    """The names a name search looks in: `--lang`'s alone when given, else every language's
    and the id."""
    if lang_given:
        return (r["name"],)
    return (r["id"], *(n for n in r["names"].values() if n))


def _text_test(spec: TermSpec, value: str, lang_given: bool) -> Test:
    part = fold(value)
    match spec.name:
        case "name":
            return lambda r: any(part in fold(n) for n in _names(r, lang_given))
        case "text":
            return lambda r: any(part in fold(t) for t in r["text"].values())
        case "rule":
            return lambda r: any(part in fold(t) for t in r["rules"].values())
    raise AssertionError(spec.name)


_INT = re.compile(r"[0-9]{1,9}")


class _Compiler:
    def __init__(self, vocab: Vocabulary, lang_given: bool):
        self.vocab = vocab
        self.lang_given = lang_given
        self.found: list[Diagnostic] = []

    def node(self, n: Node) -> Test:
        match n:
            case Term():
                return self.term(n)
            case Bare(value=v, exact=True, span=sp):
                if not v.strip():
                    self.found.append(error("USAGE-QUERY-VALUE", sp, "`!` needs a name",
                                            'a whole name: !"Red Fox", !fuchs'))
                whole, given = fold(v), self.lang_given
                return lambda r: any(whole == fold(n) for n in _names(r, given))
            case Bare(value=v, span=sp):
                if v.lower() in FLAGS:
                    return lambda r: bool(r["water"])
                return self.term(Term("name", ":", v, sp, sp, sp))
            case Not(item=i):
                inner = self.node(i)
                return lambda r: not inner(r)
            case AllOf(items=items):
                tests = [self.node(i) for i in items]
                half = self._half(items)
                if half is not None:
                    tests.append(half)
                return lambda r: all(t(r) for t in tests)
            case AnyOf(items=items):
                tests = [self.node(i) for i in items]
                return lambda r: any(t(r) for t in tests)
        raise AssertionError(n)

    def term(self, t: Term) -> Test:
        spec = _BY_NAME.get(t.key.lower())
        if spec is None:
            near = _suggest(t.key, _BY_NAME)
            self.found.append(error(
                "USAGE-QUERY-TERM", t.key_span, f"no term '{t.key}'",
                (f"did you mean `{near}{t.op}{t.value}`? " if near else "")
                + f"terms: {', '.join(s.name for s in TERMS)}, and the word "
                f"{', '.join(FLAGS)} (docs/find.md)"))
            return lambda r: False
        if t.op not in spec.ops:
            self.found.append(error(
                "USAGE-QUERY-OPERATOR", t.span, f"{spec.name} does not take `{t.op}`",
                f"{spec.name} takes {' '.join(spec.ops)}: {spec.example}"))
            return lambda r: False
        negate = t.op == "!="
        if spec.value == "number":
            if not _INT.fullmatch(t.value):
                self.found.append(error(
                    "USAGE-QUERY-VALUE", t.value_span,
                    f"{spec.name} compares with a whole number, not '{t.value}'",
                    f"for example {spec.example}"))
                return lambda r: False
            n, op, fld = int(t.value), t.op, spec.name
            return lambda r: _compare(op, r[fld], n)
        if not t.value:
            self.found.append(error("USAGE-QUERY-VALUE", t.value_span,
                                    f"{spec.name} needs a value", f"for example {spec.example}"))
            return lambda r: False
        test = (_text_test(spec, t.value, self.lang_given) if spec.value == "text"
                else self._word(spec, t))
        return (lambda r: not test(r)) if negate else test

    def _half(self, items: Sequence[Node]) -> Test | None:
        """`side:left symbol:oak` side by side ask for one half: a left half showing oak, not a
        left half and some half showing oak. None when the terms do not stand together."""
        def said(key: str) -> list[str]:
            return [i.value.lower() for i in items if isinstance(i, Term) and i.op in (":", "=")
                    and _BY_NAME.get(i.key.lower()) is _BY_NAME[key]]

        sides, symbols = said("side"), said("symbol")
        if not sides or not symbols:
            return None
        return lambda r: all(any(sym in r["symbols"].get(side, ()) for sym in symbols)
                             for side in sides)

    def _word(self, spec: TermSpec, t: Term) -> Test:
        pool = self.vocab.words[spec.name]
        value = t.value if t.value in pool else t.value.lower()
        if value not in pool and self.vocab.wider is not None:
            wide = self.vocab.wider().words[spec.name]
            if t.value in wide or t.value.lower() in wide:  # another edition's: no row has it
                return lambda r: False
            pool = pool | wide  # the hint may name another edition's word
        if value not in pool:
            near = _suggest(value, pool)
            searched = ", ".join(self.vocab.editions)
            self.found.append(error(
                "USAGE-QUERY-VALUE", t.value_span,
                f"no {spec.name} '{t.value}' in the editions searched ({searched})",
                (f"did you mean `{spec.name}{t.op}{near}`? " if near else "")
                + f"{spec.name}: {_listing(pool)}"))
            return lambda r: False
        return _word_test(spec, value)


def compile_query(node: Node, vocab: Vocabulary, lang_given: bool = False) -> Test:
    """A test each row passes or fails; `DiagnosticError` with every term that cannot be
    asked (USAGE-QUERY-TERM, -OPERATOR, -VALUE)."""
    c = _Compiler(vocab, lang_given)
    test = c.node(node)
    if c.found:
        raise DiagnosticError(c.found)
    return test


def search(text: str, rows: Sequence[Row], editions: Sequence[str], lang_given: bool = False,
           wider: Callable[[], Vocabulary] | None = None) -> list[Row]:
    """The rows a query matches, in their order; `wider` is the vocabulary of every edition on
    the path, for a search narrowed to some (see `Vocabulary.wider`)."""
    vocab = Vocabulary.of(rows, editions)
    test = compile_query(parse(text), Vocabulary(vocab.words, vocab.editions, wider), lang_given)
    return [r for r in rows if test(r)]


def shown(diagnostics: Iterable[Diagnostic], text: str) -> str:
    """Diagnostics of a query as text, each with the query's line and a caret under the
    mistake (the printer of grove/dsl/diagnostics.py, given the query as the source it points into)."""
    return "\n".join(format_text(d, {QUERY: text.split("\n")}) for d in diagnostics)
