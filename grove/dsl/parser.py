"""Text -> AST for every rules field, with syntax errors turned into diagnostics.

The Lark parser is built once per process (LALR, contextual lexer, `propagate_positions`) and
shared by all fields through one start rule per field. Spans are computed relative to the rule
text and then moved to where the text sits in its YAML file, so a caret lands under the word.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from importlib import resources

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from grove.dsl import ast, phrasings
from grove.dsl.diagnostics import Diagnostic, DiagnosticError, Span, error

_START = {  # a start rule for each of `ast.FIELDS`
    "score": "score_rule",
    "effect": "effect_rule",
    "bonus": "effect_rule",
    "trigger": "trigger_rule",
    "placement": "placement_rule",
    "modifier": "modifier_rule",
}

# Common mistakes, keyed by the hint they deserve. Lark matches a failing text to the example
# that fails in the same parser state, so one example stands for a whole family of slips.
_EXAMPLES: dict[str, dict[str, list[str]]] = {
    "score_rule": {
        "write the points as a bare number: `2 per bird`, not `2 points per bird`": [
            "2 points per bird",
            "5 points",
        ],
        "a count is missing after `per`: `2 per bird`": ["2 per", "2 per + 1"],
        "put the points first: `10 if count beech >= 4`": ["if count beech >= 4 10"],
        "separate table values with commas: `table [1, 3, 6]`": ["table [1 3] by bird"],
        "a comparison is one of >=, >, <=, <, ==": [
            "10 if count beech => 4",
            "10 if count beech = 4",
        ],
        "in a comparison write `count`: `10 if count beech >= 4`": ["10 if beech >= 4"],
        "write `sets of distinct FILTER table [...]`": ["sets of butterfly table [0, 3]"],
        "join score terms with `+`": ["1 per tree 1 per plant", "1 per tree and 1 per plant"],
    },
    "effect_rule": {
        "separate actions with `;`: `draw 1; again`": ["draw 1, again", "draw 1 again"],
        "write how many as digits: `draw 1`": ["draw one", "draw"],
        "a freely played card keeps its effect with `using its effect`": [
            "free play bat with effect"
        ],
        "name both zones: `move all from clearing to cave`": [
            "move all to cave",
            "move all from clearing",
        ],
        "a condition is followed by `:` and one action: `if count bat >= 1: again`": [
            "if count bat >= 1 again"
        ],
    },
    "trigger_rule": {
        "a trigger reads `whenever you play FILTER: ACTION`": [
            "whenever play tree: draw 1",
            "when you play tree: draw 1",
        ],
        "put `:` between the trigger and its action: `whenever you play tree: draw 1`": [
            "whenever you play tree draw 1"
        ],
    },
    "placement_rule": {
        "write `share slot with any number of SPECIES`": ["share slot with european_hare"],
        "separate placement rules with `;`": ["only on moor, at most 1 per host"],
    },
    "modifier_rule": {
        "write `host counts as 1 more tree for SPECIES, SPECIES`": [
            "host counts as 1 tree for linden"
        ],
    },
}

_TOKEN_WORDS = {
    "INT": "a number",
    "NAME": "a name",
    "CMP": "a comparison (>=, >, <=, <, ==)",
    "$END": "the end of the rule",
}


GRAMMAR = ("grove.dsl", "grammar.lark")  # the package and file of the rules' grammar


def lark_options() -> dict[str, object]:
    """How the rules' `lalr` parser is built from `GRAMMAR`."""
    return {"lexer": "contextual", "start": list(dict.fromkeys(_START.values())),
            "propagate_positions": True, "maybe_placeholders": False}


@cache
def _lark() -> Lark:
    """The rules' parser, its tables built here. The compiler hands `parse_rule` the same parser
    with its tables from the on-disk cache (grove/compiler/lark_tables.py), which this room,
    below the compiler, cannot read."""
    grammar = resources.files(GRAMMAR[0]).joinpath(GRAMMAR[1]).read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", **lark_options())


def _describe(term: str, lark: Lark) -> str:
    if term in _TOKEN_WORDS:
        return _TOKEN_WORDS[term]
    try:
        pattern = lark.get_terminal(term).pattern
    except KeyError:
        return term.lower()
    if pattern.type == "str":
        return f"`{pattern.value}`"
    return term.lower()


def _nearest_keyword(exc: Exception, expected: list[str], lark: Lark) -> str | None:
    """"did you mean `draw`?" where the word the parser stopped at is a keyword misspelt
    (`drwa 1`, `2 pr insect`): the nearest of the keywords it could take there."""
    import difflib

    token = str(getattr(exc, "token", "") or "")
    if not token.isalpha() or getattr(exc.token, "type", "") == "$END":  # type: ignore[attr-defined]
        return None
    keywords = {d.strip("`"): d for d in (_describe(t, lark) for t in expected)
                if d.startswith("`")}
    near = difflib.get_close_matches(token, [k for k in keywords if k.isalpha()], n=1,
                                     cutoff=0.6)
    return f"did you mean {keywords[near[0]]}?" if near else None


def _shift(span: Span, line: int, col: int) -> Span:
    """`span`, relative to a rule text, moved to where the text starts in its file.

    Every line of a multi-line rule text (a `|` block scalar) lost the same block indentation,
    so the starting column applies to every line, not only to the first (`Span.shifted`).
    """
    return Span(
        span.file,
        line + span.line - 1,
        col + span.col - 1,
        None if span.end_line is None else line + span.end_line - 1,
        None if span.end_col is None else col + span.end_col - 1,
    )


class _Build(Transformer):
    """Lark tree -> AST nodes; every node gets its span moved into the YAML file."""

    def __init__(self, file: str, line: int, col: int):
        super().__init__()
        self._file, self._line, self._col = file, line, col

    def _span(self, meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self._file, self._line, self._col)
        return _shift(Span(self._file, meta.line, meta.column, meta.end_line, meta.end_column),
                      self._line, self._col)

    def _tok(self, tok: Token) -> Span:
        return _shift(Span(self._file, tok.line, tok.column, tok.end_line, tok.end_column),
                      self._line, self._col)

    def _name(self, tok: Token) -> ast.Name:
        return ast.Name(str(tok), self._tok(tok))

    # -- start rules
    @v_args(meta=True)
    def score_rule(self, meta, terms):
        return ast.ScoreRule(tuple(terms), self._span(meta))

    @v_args(meta=True)
    def effect_rule(self, meta, children):
        return ast.EffectRule(children[0], self._span(meta))

    def actions(self, children):
        return tuple(children)

    @v_args(meta=True)
    def trigger_rule(self, meta, children):
        next_turn = optional = False
        verb, filt, where, actions = "play", None, (None, None), ()
        for child in children:
            if child == "next_turn":
                next_turn = True
            elif child == "may":
                optional = True
            elif isinstance(child, tuple) and child and child[0] in ("bottom", "top"):
                where = child
            elif isinstance(child, tuple):
                actions = child
            elif isinstance(child, str):
                verb = child
            else:
                filt = child
        return ast.TriggerRule(
            verb, filt, where[0], where[1], actions, next_turn, optional, self._span(meta)
        )

    def next_turn(self, _):
        return "next_turn"

    def may(self, _):
        return "may"

    def verb(self, children):
        return str(children[0])

    def where_below(self, children):
        return ("bottom", children[0])

    def where_atop(self, children):
        return ("top", children[0])

    @v_args(meta=True)
    def placement_rule(self, meta, stmts):
        return ast.PlacementRule(tuple(stmts), self._span(meta))

    @v_args(meta=True)
    def modifier_rule(self, meta, stmts):
        return ast.ModifierRule(tuple(stmts), self._span(meta))

    # -- score terms
    @v_args(meta=True)
    def flat(self, meta, c):
        return ast.Flat(int(c[0]), self._span(meta))

    @v_args(meta=True)
    def per(self, meta, c):
        return ast.Per(int(c[0]), c[1], self._span(meta))

    @v_args(meta=True)
    def conditional(self, meta, c):
        otherwise = int(c[2]) if len(c) > 2 else 0
        return ast.Conditional(int(c[0]), c[1], otherwise, self._span(meta))

    @v_args(meta=True)
    def per_copy_table(self, meta, c):
        return ast.PerCopyTable(c[0], c[1], self._span(meta))

    @v_args(meta=True)
    def total_table(self, meta, c):
        return ast.TotalTable(c[0], c[1], self._span(meta))

    @v_args(meta=True)
    def sets(self, meta, c):
        return ast.Sets(c[0], c[1], self._span(meta))

    def int_list(self, c):
        return tuple(int(x) for x in c)

    # -- counts
    @v_args(meta=True)
    def count_cards(self, meta, c):
        return ast.CountCards(c[0], c[1] if len(c) > 1 else ast.FOREST, self._span(meta))

    @v_args(meta=True)
    def count_species(self, meta, c):
        return ast.CountSpecies(c[0], c[1] if len(c) > 1 else ast.FOREST, self._span(meta))

    @v_args(meta=True)
    def count_symbols(self, meta, c):
        return ast.CountSymbols(c[0] if c else ast.FOREST, self._span(meta))

    @v_args(meta=True)
    def count_full_hosts(self, meta, c):
        return ast.CountFullHosts(c[0], self._span(meta))

    @v_args(meta=True)
    def count_hosts_without(self, meta, c):
        return ast.CountHostsWithout(c[0], c[1], self._span(meta))

    @v_args(meta=True)
    def scope_attached(self, meta, _):
        return ast.Scope("attached", None, self._span(meta))

    @v_args(meta=True)
    def scope_at_host(self, meta, _):
        return ast.Scope("at_host", None, self._span(meta))

    @v_args(meta=True)
    def scope_below(self, meta, c):
        return ast.Scope("below", c[0], self._span(meta))

    @v_args(meta=True)
    def scope_atop(self, meta, c):
        return ast.Scope("atop", c[0], self._span(meta))

    @v_args(meta=True)
    def scope_cave(self, meta, _):
        return ast.Scope("cave", None, self._span(meta))

    # -- conditions
    @v_args(meta=True)
    def cond_compare(self, meta, c):
        return ast.Compare(c[0], str(c[1]), int(c[2]), self._span(meta))

    @v_args(meta=True)
    def cond_most(self, meta, c):
        return ast.Most(c[0], self._span(meta))

    @v_args(meta=True)
    def cond_host_is(self, meta, c):
        return ast.HostIs(c[0], self._span(meta))

    @v_args(meta=True)
    def cond_host_has(self, meta, c):
        n = int(c[0]) if len(c) > 1 else 1
        return ast.HostHas(n, c[-1], None, self._span(meta))

    @v_args(meta=True)
    def cond_kind_host_has(self, meta, c):
        n = int(c[1]) if len(c) > 2 else 1
        return ast.HostHas(n, c[-1], c[0], self._span(meta))

    @v_args(meta=True)
    def cond_alone(self, meta, c):
        return ast.Alone(c[0] if c else None, self._span(meta))

    @v_args(meta=True)
    def cond_self_full(self, meta, _):
        return ast.SelfFull(self._span(meta))

    @v_args(meta=True)
    def cond_host_full(self, meta, _):
        return ast.HostFull(self._span(meta))

    @v_args(meta=True)
    def cond_sharing(self, meta, c):
        return ast.Sharing(c[0], self._span(meta))

    @v_args(meta=True)
    def cond_only_species(self, meta, _):
        return ast.OnlySpecies(self._span(meta))

    # -- filters
    @v_args(meta=True)
    def f_or(self, meta, c):
        return c[0] if len(c) == 1 else ast.FOr(tuple(c), self._span(meta))

    @v_args(meta=True)
    def f_all(self, meta, c):
        items = [x for x in c if not isinstance(x, Token)]
        return items[0] if len(items) == 1 else ast.FAnd(tuple(items), self._span(meta))

    @v_args(meta=True)
    def f_negate(self, meta, c):
        return ast.FNot(c[0], self._span(meta))

    @v_args(meta=True)
    def f_card(self, meta, _):
        return ast.FCard(self._span(meta))

    @v_args(meta=True)
    def f_name(self, meta, c):
        return ast.FName(self._name(c[0]), self._span(meta))

    @v_args(meta=True)
    def f_symbol(self, meta, c):
        return ast.FSymbol(self._name(c[0]), self._span(meta))

    @v_args(meta=True)
    def f_own_symbol(self, meta, _):
        return ast.FOwnSymbol(self._span(meta))

    @v_args(meta=True)
    def f_other(self, meta, _):
        return ast.FOther(self._span(meta))

    # -- actions
    @v_args(meta=True)
    def a_draw(self, meta, c):
        return ast.Draw(int(c[0]), c[1] if len(c) > 1 else None, self._span(meta))

    @v_args(meta=True)
    def a_draw_split(self, meta, c):
        return ast.DrawSplit(int(c[0]), int(c[1]), self._span(meta))

    @v_args(meta=True)
    def a_take(self, meta, c):
        return ast.Take(c[0], c[1] if len(c) > 1 else None, self._span(meta))

    @v_args(meta=True)
    def a_move(self, meta, c):
        amount = c[0]
        rest = c[1:]
        filt = None
        if rest and not isinstance(rest[0], str):
            filt, rest = rest[0], rest[1:]
        source, target = rest[0], rest[1]
        return ast.Move(amount, filt, source, target, len(rest) > 2, self._span(meta))

    def zone(self, c):
        return str(c[0])

    def draw_as_many(self, _):
        return "draw_as_many"

    def using_effect(self, _):
        return "using_effect"

    @v_args(meta=True)
    def a_again(self, meta, _):
        return ast.Again(self._span(meta))

    @v_args(meta=True)
    def a_if(self, meta, c):
        return ast.IfAction(c[0], c[1], self._span(meta))

    @v_args(meta=True)
    def a_free_play(self, meta, c):
        with_effect = bool(c) and c[-1] == "using_effect"
        if with_effect:
            c = c[:-1]
        amount = c[0] if len(c) > 1 else ast.Amount("n", 1, None, self._span(meta))
        return ast.FreePlay(amount, c[-1], with_effect, self._span(meta))

    @v_args(meta=True)
    def a_rummage(self, meta, c):
        return ast.Rummage(c[0], int(c[1]) if len(c) > 1 else 0, self._span(meta))

    @v_args(meta=True)
    def a_play_as(self, meta, c):
        filt = c[1] if len(c) > 2 else None
        return ast.PlayAs(c[0], filt, self._name(c[-1]), self._span(meta))

    @v_args(meta=True)
    def a_play_paying(self, meta, _):
        return ast.PlayPaying(self._span(meta))

    @v_args(meta=True)
    def amt_n(self, meta, c):
        return ast.Amount("n", int(c[0]), None, self._span(meta))

    @v_args(meta=True)
    def amt_up_to(self, meta, c):
        return ast.Amount("up_to", int(c[0]), None, self._span(meta))

    @v_args(meta=True)
    def amt_any(self, meta, _):
        return ast.Amount("any", 0, None, self._span(meta))

    @v_args(meta=True)
    def amt_all(self, meta, _):
        return ast.Amount("all", 0, None, self._span(meta))

    @v_args(meta=True)
    def amt_per(self, meta, c):
        return ast.Amount("per", int(c[0]), c[1], self._span(meta))

    # -- placement
    @v_args(meta=True)
    def p_share(self, meta, c):
        return ast.Share(c[0], c[1], self._span(meta))

    @v_args(meta=True)
    def p_lets(self, meta, c):
        return ast.Lets(c[0], c[1], c[2], self._span(meta))

    @v_args(meta=True)
    def p_lets_join(self, meta, c):
        return ast.Lets(c[0], c[1], c[2], self._span(meta), joins=True)

    def slot_named(self, c):
        return self._name(c[0])

    def slot_any(self, _):
        return None

    @v_args(meta=True)
    def p_only_on(self, meta, c):
        return ast.OnlyOn(c[0], self._span(meta))

    @v_args(meta=True)
    def p_not_on(self, meta, c):
        return ast.NotOn(c[0], self._span(meta))

    @v_args(meta=True)
    def p_joining(self, meta, c):
        return ast.Joining(c[0], self._span(meta))

    @v_args(meta=True)
    def p_max_per_host(self, meta, c):
        return ast.MaxPerHost(int(c[0]), self._span(meta))

    @v_args(meta=True)
    def p_slot_override(self, meta, c):
        return ast.SlotOverride(self._name(c[0]), int(c[1]), c[2], self._span(meta))

    # -- modifiers
    @v_args(meta=True)
    def m_counts_as(self, meta, c):
        return ast.CountsAs(
            int(c[0]), self._name(c[1]), tuple(self._name(t) for t in c[2:]), self._span(meta)
        )

    @v_args(meta=True)
    def m_double_below(self, meta, c):
        return ast.DoubleBelow(c[0], self._span(meta))


def _offset(text: str, line: int, col: int) -> int:
    """(line, col) from 1 in `text` as an index into it."""
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[:line - 1]) + col - 1


def _syntax_diagnostic(
    exc: UnexpectedInput, text: str, start: str, file: str, line: int, col: int, lark: Lark
) -> Diagnostic:
    at_line = getattr(exc, "line", 1) or 1
    at_col = getattr(exc, "column", 1) or 1
    eof = isinstance(exc, UnexpectedEOF) or (
        isinstance(exc, UnexpectedToken) and exc.token.type == "$END"
    )
    if eof or at_line < 1:
        lines = text.rstrip().split("\n")
        at_line, at_col = len(lines), len(lines[-1].rstrip()) + 1
    width = 1
    if isinstance(exc, UnexpectedToken) and exc.token.type != "$END":
        width = max(1, len(str(exc.token)))
    span = _shift(Span(file, at_line, at_col, at_line, at_col + width), line, col)

    if isinstance(exc, UnexpectedCharacters):
        # lines as Lark counts them, at "\n" only (splitlines() also splits at U+2028)
        ch = text.split("\n")[at_line - 1][at_col - 1] if text else ""
        hint = None
        if ch.isupper():
            hint = "names and keywords are lower case: `european_hare`, `bird`"
        elif ch == "-":
            hint = "names use underscores, not hyphens: `great_spotted_woodpecker`"
        elif ch in "=!":
            hint = "a comparison is one of >=, >, <=, <, =="
        elif ch in "\"'":
            hint = "write the rule without quotes inside it"
        message = f"unexpected character {ch!r}"
        return error("DSL-SYNTAX", span, message, hint)

    expected = sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or [])
    words = ", ".join(_describe(t, lark) for t in expected[:8])
    if isinstance(exc, UnexpectedToken) and exc.token.type != "$END":
        message = f"unexpected {str(exc.token)!r}"
    else:
        message = "the rule ends too early"
    if words:
        message += f"; expected {words}"
    hint = _nearest_keyword(exc, expected, lark) or phrasings.hint(
        start, text, _offset(text, at_line, at_col))
    try:
        hint = hint or exc.match_examples(
            lambda t: lark.parse(t, start=start), _EXAMPLES.get(start, {}), use_accepts=True
        )
    except Exception:  # noqa: BLE001 - a hint is a courtesy; never let it mask the error
        hint = None
    return error("DSL-SYNTAX", span, message, hint)


# The longest shipped rule has under 200 characters and one level of parentheses. Parsing is
# linear, but the tree is transformed, checked and compiled by recursion, so a rule nested a few
# hundred levels deep ends in RecursionError: both limits are checked before anything recurses.
MAX_RULE_CHARS = 2000
MAX_RULE_DEPTH = 16


def _check_limits(field: str, text: str, file: str, line: int, col: int) -> Diagnostic | None:
    """DSL-TOO-LONG or DSL-TOO-DEEP for a rule beyond the limits, at the place it crosses them.

    Depth counts open parentheses and the `not`s before a point (each `not` nests the filter after
    it), which is never less than the depth of the tree the parser would build."""
    if len(text) > MAX_RULE_CHARS:
        return error("DSL-TOO-LONG", Span(file, line, col),
                     f"the {field} rule has {len(text)} characters; at most {MAX_RULE_CHARS} "
                     "are read", "split the card's rules, or write the rule shorter")
    depth = 0
    for m in _NESTING.finditer(text):
        depth += -1 if m.group() == ")" else 1
        if depth > MAX_RULE_DEPTH:
            before = text[:m.start()]
            at_line = before.count("\n") + 1
            at_col = m.start() - (before.rfind("\n") + 1) + 1
            span = _shift(Span(file, at_line, at_col, at_line, at_col + len(m.group())), line, col)
            return error("DSL-TOO-DEEP", span,
                         f"the {field} rule nests deeper than {MAX_RULE_DEPTH} levels "
                         "(parentheses and `not`)", "write the rule with fewer parentheses")
    return None


_NESTING = re.compile(r"[()]|\bnot\b")


@lru_cache(maxsize=4096)
def parse_rule(field: str, text: str, file: str = "<rule>", line: int = 1, col: int = 1,
               lark: Lark | None = None) -> ast.Rule:
    """Parse one field's text; raise `DiagnosticError` with a DSL-SYNTAX diagnostic if it fails.

    `line` and `col` say where `text` starts in `file`, so spans point into the YAML source;
    `lark` is the rules' parser where the caller has it (the compiler's, its tables cached),
    else this room's `_lark()`. Kept by those (the tree is frozen): the language server checks
    an edition again at every keystroke, and a keystroke changes one rule, if any.
    """
    if field not in _START:
        raise ValueError(f"unknown rules field {field!r}")
    start = _START[field]
    if not text.strip():
        raise DiagnosticError(
            [error("DSL-EMPTY", Span(file, line, col), f"the {field} rule is empty",
                   "remove the field, or write `score: 0` for a card that scores nothing")]
        )
    limit = _check_limits(field, text, file, line, col)
    if limit is not None:
        raise DiagnosticError([limit])
    lark = lark or _lark()
    try:
        tree = lark.parse(text, start=start)
    except UnexpectedInput as exc:
        raise DiagnosticError([_syntax_diagnostic(exc, text, start, file, line, col, lark)]
                              ) from None
    return _Build(file, line, col).transform(tree)
