"""DSL rules -> rule-book text in English, German, Italian and Thai.

Every phrase pattern is one message of the gettext catalogs under `grove/printouts/catalogs/<lang>/
LC_MESSAGES/grove.po`, read with Babel at runtime and addressed by its `msgctxt`; the number
forms come from Babel's CLDR plural rules (`Locale.plural_form`), never from code here.

Two kinds of word, kept apart. The catalogs hold the language: phrases, and in `lexicon.*`
contexts only the nouns of the language itself, keyed with a leading `@` (`@card`, `@species`,
`@symbol`, `@default`). Everything an edition's own nouns need comes from the card data, beside
their `names`: `plural`, `article` (the article class: grammatical gender, or a/an in English)
and `classifier` (Thai ตัว, ต้น ...), each a `{lang: value}` map on a type symbol, group, host or
species. So an author's card set outside grove carries all of its words in its own folder.

A noun whose word is missing still renders, with an English name or a gender-free wording, and
the gap is recorded as a `Gap` that names the noun and where it is declared;
`translation_findings` lists every gap of a card set with the card that needs it, and
`printouts.text_lint` turns them into TEXT-MISSING-TRANSLATION warnings for `grove lint`.
`NODE_PHRASES` says which msgctxts each DSL node type renders through, so a node without a
phrase is found before a card uses it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from grove.compiler.model import HostKind, Symbol, scorepad_names
from grove.dsl import ast
from grove.dsl.diagnostics import Span
from grove.printouts import cases, glossary
from grove.printouts.phrases import Catalog, catalog_path, load_catalog

LANGS = ("en", "de", "it", "th")
FIELDS = ("effect", "bonus", "trigger", "placement", "modifier", "score")
_MANY = 2  # a representative count for "several" (any number of, all)


def _msg_text(cat: Catalog, msg: Any, n: int | None) -> str | None:
    if msg is None:
        return None
    if msg.pluralizable:
        forms = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        idx = cat.form_index(1 if n is None else n)
        return forms[idx] if idx < len(forms) and forms[idx] else None
    return msg.string or None


def catalog_gaps(lang: str, reference: str = "en") -> list[Gap]:
    """Phrases of the reference catalog that `lang` lacks, leaves empty, or words differently."""
    ref, cat = load_catalog(reference), load_catalog(lang)
    out = []
    for ctxt, rmsg in ref.phrases.items():
        if "|" in ctxt:  # article-class variants belong to one language only
            continue
        msg = cat.phrases.get(ctxt)
        problem = None
        if msg is None:
            problem = "is missing"
        elif msg.id != rmsg.id:
            problem = "translates another msgid"
        elif msg.pluralizable:
            forms = msg.string if isinstance(msg.string, tuple) else (msg.string,)
            if len(forms) != len(cat.order) or not all(forms):
                problem = f"needs {len(cat.order)} plural forms"
        elif not msg.string:
            problem = "is untranslated"
        if problem:
            out.append(Gap(lang, "catalog", ctxt, problem))
    return out


def catalog_problems(lang: str, reference: str = "en") -> list[str]:
    return [str(g) for g in catalog_gaps(lang, reference)]


# ---- what a language lacks -----------------------------------------------------------------
_GAP_TEXT = {
    "phrase": "phrase {key}",
    "placeholder": "phrase {key} has a bad placeholder",
    "node": "no phrase for DSL node {key}",
    "article": "article class of {key}",
    "classifier": "classifier of {key}",
    "plural": "plural of {key}",
    "species_word": "one word for a species of {key}",
    "name": "name of {key}",
    "unresolved": "name {key} resolves to nothing",
    "tree_symbol": "tree symbol {key}",
    "scope": "scope {key}",
    "catalog": "phrase {key!r} {detail}",
    "no_catalog": "no catalog {key}",
}
LEXICON_CONTEXT = {"article": "lexicon.article", "classifier": "lexicon.classifier",
                   "plural": "lexicon.plural"}


@dataclass(frozen=True)
class Gap:
    """One piece of text a language lacks, kept structured so a lint can say which catalog and
    msgctxt, or which field of which noun in which card file, to add; `str()` is the short form
    tests read. Two nouns of one id (the type symbol and the host `tree`, or `tree` in two
    editions) are two gaps, since each carries its own words."""

    lang: str
    kind: str  # a key of _GAP_TEXT
    key: str  # msgctxt of a phrase, id of a noun, or what a name belongs to
    detail: str = ""
    noun: str = ""  # for a word of the card data: what lacks it ("type symbol 'bird'")
    decl: Span | None = None  # ... and where that noun is declared

    def __str__(self) -> str:
        return _GAP_TEXT[self.kind].format(key=self.key, detail=self.detail)

    @property
    def msgctxt(self) -> str | None:
        """The catalog context to add, or None where the gap is in the card data."""
        if self.decl is not None:
            return None
        if self.kind in LEXICON_CONTEXT:
            return LEXICON_CONTEXT[self.kind]
        if self.kind in ("phrase", "placeholder", "catalog"):
            return self.key
        return None


def noun_label(noun: Any) -> str:
    """How a hint names a noun of the card data: "type symbol 'bird'", "host 'tree'"."""
    if isinstance(noun, Symbol):
        return f"group '{noun.id}'" if noun.kind == "group" else f"{noun.kind} symbol '{noun.id}'"
    if isinstance(noun, HostKind):
        return f"host '{noun.id}'"
    return f"species '{noun.id}'"


def article_classes(lang: str) -> tuple[str, ...]:
    """The article classes a language's catalog knows: the `<class>` of its `art.<kind>|<class>`
    phrases, and its default class."""
    cat = load_catalog(lang)
    found = {c.split("|", 1)[1] for c in cat.phrases if c.startswith("art.") and "|" in c}
    default = cat.lexicon.get(("lexicon.article", "@default"))
    return tuple(sorted(found | ({default} if default else set())))


class NoPhrase(TypeError):
    """A rule node the renderer has no phrase for (a DSL change the printouts have not caught
    up with), or a phrase even the English catalog lacks: raised, not papered over, so tests
    and the lint see it."""

    def __init__(self, gap: Gap):
        self.gap = gap
        super().__init__(str(gap))


# ---- noun phrases --------------------------------------------------------------------------
@dataclass
class NP:
    """A noun phrase: its text for a count `n`, its key (a noun id, or an `@` key of the
    catalog), the Thai classifier, and `lexeme`, the symbol, host or species of the card data
    whose `article` it takes (None for the language's own nouns); `items` for an `or` of
    several phrases. A noun with a qualifier after it ("card with the Oak symbol") also keeps
    the bare noun in `head` and the qualifier in `post`, so a language can put a count word
    between them (Thai: การ์ดแต่ละใบที่มี...)."""

    forms: Callable[[int], str]
    key: str | None
    clf: str
    items: tuple[NP, ...] = ()
    head: NP | None = None
    post: str = ""
    lexeme: Any = None

    def split(self) -> tuple[NP, str]:
        """The bare noun and what follows it; the whole phrase and "" if nothing does."""
        return (self.head, self.post) if self.head is not None else (self, "")


_PLACEHOLDER = re.compile(r"%\((\w+)\)")
# placeholders any phrase may use for the card the rule is on -> the `pron.<kind>` phrases
_PRONOUNS = {"it": "nom", "it_dat": "dat", "its_m_acc": "its_m_acc"}


def _fill(text: str, kw: dict[str, Any]) -> str:
    """`text % kw`, where a value may be a function computed only if the text asks for it: a
    plural nobody prints must not be reported missing. A placeholder may ask for a case of a
    value (`%(host_acc)s`, `cases.py`)."""
    used = set(_PLACEHOLDER.findall(text))
    values = {k: (v() if callable(v) else v) for k, v in kw.items() if k in used}
    for k in used:
        asked = cases.case_key(k, kw)
        if asked is not None:
            v = kw[asked[0]]
            values[k] = cases.case_of(v() if callable(v) else v, asked[1])
    return text % values


class Renderer:
    def __init__(self, cardset: Any, lang: str, species: Any = None):
        self.cs = cardset
        self.lang = lang
        self.species = species
        self.cat = load_catalog(lang)
        self.en = load_catalog("en")
        self.gaps: list[Gap] = []
        self.lower = self.t("style.lowercase_names") == "yes"
        self.card_symbols = {e.card_symbol for e in cardset.editions if e.card_symbol}
        self.uses_classifiers = any(c == "lexicon.classifier" for c, _ in self.cat.lexicon)
        self.placing: tuple[Any, ...] = ()  # the placement rule being rendered, if one is

    # -- catalog access
    def _miss(self, kind: str, key: str) -> None:
        gap = Gap(self.lang, kind, key)
        if gap not in self.gaps:
            self.gaps.append(gap)

    @property
    def misses(self) -> list[str]:
        return [str(g) for g in self.gaps]

    def t(self, ctxt: str, n: int | None = None, **kw: Any) -> str:
        if n is not None:
            kw.setdefault("n", n)
        for key, kind in _PRONOUNS.items():  # computed only where a phrase says "it"
            kw.setdefault(key, lambda kind=kind: self.pronoun(kind))
        text = _msg_text(self.cat, self.cat.phrases.get(ctxt), n)
        if text is None:
            self._miss("phrase", ctxt)
            text = _msg_text(self.en, self.en.phrases.get(ctxt), n)
            if text is None:
                raise NoPhrase(Gap("en", "phrase", ctxt))
        try:
            return _fill(text, kw)
        except (KeyError, ValueError, TypeError):
            self._miss("placeholder", ctxt)
            return _fill(_msg_text(self.en, self.en.phrases[ctxt], n), kw)

    def pronoun(self, kind: str) -> str:
        """The pronoun for the card the rule is printed on, agreeing with the species' own
        article class (German: "wenn er auf einer Buche sitzt" for der Buchfink, "es" for das
        Eichhörnchen). The catalog's `pron.<kind>|<class>` phrases hold the words; without a
        species the plain `pron.<kind>` (the card itself) is used. A species whose language
        needs the class but whose data lacks it is a gap at that species."""
        cls = self.word(self.species, "article") if self.species is not None else None
        if cls:
            text = self.opt(f"pron.{kind}|{cls}")
            if text is not None:
                return text
        elif self.species is not None and any(c.startswith(f"pron.{kind}|")
                                              for c in self.cat.phrases):
            self._noun_miss("article", self.species)
        return self.opt(f"pron.{kind}") or ""

    def opt(self, ctxt: str, **kw: Any) -> str | None:
        text = _msg_text(self.cat, self.cat.phrases.get(ctxt), None)
        return None if text is None else _fill(text, kw)

    def lex(self, ctxt: str, key: str) -> str | None:
        """A noun of the language itself (`@card`, `@default` ...) from the catalog."""
        return self.cat.lexicon.get((ctxt, key))

    def word(self, noun: Any, field: str) -> str | None:
        """The noun's `plural`, `article` or `classifier` in this language, from the card data."""
        return (getattr(noun, field, None) or {}).get(self.lang) or None

    def _noun_miss(self, kind: str, noun: Any) -> None:
        gap = Gap(self.lang, kind, noun.id, noun=noun_label(noun), decl=noun.span)
        if gap not in self.gaps:
            self.gaps.append(gap)

    # -- names from the data
    def _name(self, names: Any, what: str) -> str:
        text = names.get(self.lang) if names else None
        if not text:
            self._miss("name", what)
            text = (names.get("en") if names else None) or what.replace("_", " ")
        return text

    def _plural(self, plural: Any) -> str | None:
        if self.cat.single_form:
            return None
        return (plural.get(self.lang) if plural else None) or None

    def _low(self, text: str) -> str:
        return text.lower() if self.lower else text

    def resolve(self, name: str) -> tuple[str, Any]:
        cs = self.cs
        if ":" in name:
            sp = cs.species.get(name)
            return ("species", sp) if sp else ("unknown", name)
        for sym in cs.symbols:
            if sym.kind == "group" and sym.id == name:
                return "group", sym
        sp = cs.species_named(name)
        if sp is not None:
            return "species", sp
        for sym in cs.symbols:
            if sym.kind == "type" and sym.id == name:
                return "type", sym
        if name in cs.hosts:
            return "host", cs.hosts[name]
        return "unknown", name

    def general_classifier(self, key: str) -> str:
        """The classifier of a noun of the language (`@card`, `@species`, `@symbol`)."""
        if not self.uses_classifiers:
            return ""
        c = self.lex("lexicon.classifier", key)
        if c:
            return c
        self._miss("classifier", key)
        return self.lex("lexicon.classifier", "@card") or ""

    def _nouns(self, noun_id: str) -> Iterable[Any]:
        """The symbols and hosts of the card set with that id, whose words a species or host
        may borrow (a bird species counts with its type symbol's classifier)."""
        yield from (s for s in self.cs.symbols if s.id == noun_id)
        host = self.cs.hosts.get(noun_id)
        if host is not None:
            yield host

    def classifier(self, noun: Any, fallbacks: Iterable[str] = ()) -> str:
        """The noun's own classifier, else the first of the nouns named by `fallbacks` (its
        types, tags, kind) that has one; missing, the card's classifier and a gap."""
        if not self.uses_classifiers:
            return ""
        c = self.word(noun, "classifier")
        if c:
            return c
        for k in fallbacks:
            for other in self._nouns(k):
                c = self.word(other, "classifier")
                if c:
                    return c
        self._noun_miss("classifier", noun)
        return self.lex("lexicon.classifier", "@card") or ""

    def _species_plural(self, sp: Any, sg: str) -> str | None:
        if self.cat.single_form:
            return sg
        found = self.word(sp, "plural")
        if found:
            return found
        for sym in self.cs.symbols:  # "Beech" the species, "Beech" the tree symbol
            if sym.names.get(self.lang) == sg and sym.plural and sym.plural.get(self.lang):
                return sym.plural[self.lang]
        return None

    def _simple(self, sg: str, pl: str | None, clf: str, noun: Any) -> NP:
        def forms(n: int) -> str:
            if self.cat.is_one(n) or self.cat.single_form:
                return sg
            if pl:
                return pl
            self._noun_miss("plural", noun)  # reported only where a plural is needed
            return self.t("noun.species_cards", n=n, name=sg)

        return NP(forms, noun.id, clf, lexeme=noun)

    def card_np(self) -> NP:
        return NP(lambda n: self.t("noun.card", n=n), "@card", self.general_classifier("@card"))

    def qualified(self, np: NP, ctxt: str, **kw: Any) -> NP:
        whole = NP(lambda n: self.t(ctxt, noun=np.forms(n), **kw), np.key, np.clf,
                   lexeme=np.lexeme)
        probe = self.t(ctxt, noun="\x00", **kw)
        if not probe.startswith("\x00") or probe.count("\x00") != 1:
            return whole  # the qualifier comes first, or wraps the noun: keep it whole
        head, post = np.split()
        return NP(whole.forms, np.key, np.clf, head=head, post=post + probe[1:],
                  lexeme=np.lexeme)

    def host_np(self, host: Any) -> NP:
        """A host as a noun; its plural is its own, else that of the type symbol of its id; in
        the singular with the case forms its data gives (`cases.py`)."""
        sg = cases.declined(self._name(host.names, f"host {host.id}"), host.cases.get(self.lang),
                            self._low)
        pl = self._plural(host.plural)
        for sym in self.cs.symbols:
            if not pl and sym.kind == "type" and sym.id == host.id:
                pl = self._plural(sym.plural)
        pl = self._low(pl) if pl else (sg if self.cat.single_form else None)
        return self._simple(sg, pl, self.classifier(host, host.types), host)

    def symbol_np(self, sym: Any) -> NP:
        """A type or group symbol as a noun ("bird"); a card symbol (Alps) as "card with the
        Alps symbol", since it names a set of cards, not an animal or plant; so too a type
        whose name is no noun in this language (Italian Zampa: "carta zampa", as the overview
        says "carte albero")."""
        if sym.id in self.card_symbols:
            symbol = self._name(sym.names, f"symbol {sym.id}")
            return self.qualified(self.card_np(), "qual.symbol", symbol=symbol)
        if self.lang in sym.named_by_symbol:
            symbol = self._low(self._name(sym.names, f"symbol {sym.id}"))
            return self.qualified(self.card_np(), "qual.by_symbol", symbol=symbol)
        sg = self._low(self._name(sym.names, f"symbol {sym.id}"))
        pl = self._plural(sym.plural)
        pl = self._low(pl) if pl else (sg if self.cat.single_form else None)
        return self._simple(sg, pl, self.classifier(sym, sym.implies), sym)

    def name_np(self, name: str) -> NP:
        kind, obj = self.resolve(name)
        if kind in ("group", "type"):
            return self.symbol_np(obj)
        if kind == "species":
            sg = self._name(obj.names, f"species {obj.key}")
            pl = self._species_plural(obj, sg)
            clf = self.classifier(obj, (*obj.types, *sorted(obj.tags), obj.kind))
            return self._simple(sg, pl, clf, obj)
        if kind == "host":
            return self.host_np(obj)
        self._miss("unresolved", name)
        text = name.replace("_", " ")
        return NP(lambda n: text, name, self.general_classifier("@card"))

    def tree_symbol(self, sid: str) -> str:
        sym = self.cs.symbol(sid)
        if sym is None:
            self._miss("tree_symbol", sid)
            return sid.replace("_", " ")
        return self._name(sym.names, f"symbol {sid}")

    # -- lists
    def _join(self, parts: list[str], ctxt: str, sep: str = "join.list") -> str:
        parts = [p for p in parts if p]
        if not parts:
            return ""
        out = parts[-1]
        pair = self.opt(f"{ctxt}|pair", a=parts[0], b=out) if len(parts) == 2 else None
        if pair is not None:  # two joined otherwise than the last of three (Thai: no space)
            return pair
        if len(parts) > 1:
            head = parts[0]
            for p in parts[1:-1]:
                head = self.t(sep, a=head, b=p)
            out = self.t(ctxt, a=head, b=parts[-1])
        return out

    def join_or(self, parts: list[str]) -> str:
        return self._join(parts, "join.or")

    def join_numbers(self, numbers: Iterable[int]) -> str:
        return self._join([str(n) for n in numbers], "join.num_or", "join.num_list")

    def join_and(self, parts: list[str]) -> str:
        return self._join(parts, "join.and")

    # -- filters
    def _is_symbolish(self, f: ast.Filter) -> str | None:
        if isinstance(f, ast.FSymbol):
            return self.tree_symbol(f.name.text)
        if isinstance(f, ast.FName):
            kind, obj = self.resolve(f.name.text)
            if kind == "type" and obj.id in self.card_symbols:
                return self._name(obj.names, f"symbol {obj.id}")
        return None

    def filter_np(self, f: ast.Filter | None) -> NP:
        if f is None or isinstance(f, ast.FCard):
            return self.card_np()
        if isinstance(f, ast.FName):
            return self.name_np(f.name.text)
        if isinstance(f, ast.FSymbol):
            return self.qualified(self.card_np(), "qual.symbol", symbol=self.tree_symbol(f.name.text))
        if isinstance(f, ast.FOwnSymbol):
            return self.qualified(self.card_np(), "qual.own_symbol")
        if isinstance(f, ast.FOther):
            return self.qualified(self.card_np(), "qual.other")
        if isinstance(f, ast.FNot):
            return self._qualify(self.card_np(), f)
        if isinstance(f, ast.FOr):
            symbols = [self._is_symbolish(i) for i in f.items]
            if all(symbols):
                return self.qualified(self.card_np(), "qual.symbol",
                                      symbol=self.join_or([s for s in symbols if s]))
            subs = tuple(self.filter_np(i) for i in f.items)
            clfs = {s.clf for s in subs}
            clf = clfs.pop() if len(clfs) == 1 else self.general_classifier("@card")
            return NP(lambda n: self.join_or([s.forms(n) for s in subs]), subs[0].key, clf, subs,
                      lexeme=subs[0].lexeme)
        if isinstance(f, ast.FAnd):
            head_i = next((i for i, x in enumerate(f.items)
                           if isinstance(x, (ast.FName, ast.FOr)) and not self._is_symbolish(x)),
                          None)
            np = self.filter_np(f.items[head_i]) if head_i is not None else self.card_np()
            for i, x in enumerate(f.items):
                if i != head_i and not isinstance(x, ast.FCard):
                    np = self._qualify(np, x)
            return np
        raise NoPhrase(Gap(self.lang, "node", type(f).__name__))

    def _qualify(self, np: NP, f: ast.Filter) -> NP:
        symbol = self._is_symbolish(f)
        if symbol:
            return self.qualified(np, "qual.symbol", symbol=symbol)
        if isinstance(f, ast.FOwnSymbol):
            return self.qualified(np, "qual.own_symbol")
        if isinstance(f, ast.FOther):
            return self.qualified(np, "qual.other")
        if isinstance(f, ast.FNot):
            x = self.filter_np(f.item)
            return self.qualified(np, "qual.not", sg=x.forms(1), plural=lambda: x.forms(_MANY),
                                  a=self.art(x, "indef.nom"))
        x = self.filter_np(f)
        return self.qualified(np, "qual.also", sg=x.forms(1), a=self.art(x, "indef.nom"))

    # -- articles
    def _own_article(self, np: NP) -> str | None:
        """The article class the noun itself gives: from the card data for an edition's noun,
        from the catalog for a noun of the language (`@card`)."""
        if np.lexeme is not None:
            return self.word(np.lexeme, "article")
        if np.key and np.key.startswith("@"):
            return self.lex("lexicon.article", np.key)
        return None

    def article_class(self, np: NP) -> str | None:
        return self._own_article(np) or self.lex("lexicon.article", "@default")

    def _needs_class(self, kind: str) -> bool:
        return any(c.startswith(f"art.{kind}|") for c in self.cat.phrases)

    def _determiner(self, np: NP, kind: str) -> str:
        """The article of `kind` this noun takes, with the noun left out: two nouns whose
        determiners read the same share one ("am selben Baum oder Strauch")."""
        return self.art(NP(lambda n: "\x00" if n == 1 else "\x01", np.key, np.clf,
                           lexeme=np.lexeme), kind)

    def art(self, np: NP, kind: str) -> str:
        """The noun phrase with an article (or other determiner) of `kind`: indef.nom, indef.acc,
        indef.dat, another, all, this, same_host, the_plural."""
        if np.items:
            join = self.join_and if kind == "all" else self.join_or
            if len({self._determiner(i, kind) for i in np.items}) > 1:
                return join([self.art(i, kind) for i in np.items])
            subs = np.items
            joined = NP(lambda n: join([s.forms(n) for s in subs]), subs[0].key, np.clf,
                        lexeme=subs[0].lexeme)
            return self.art(joined, kind)
        kw = {"noun": np.forms(1), "plural": lambda: np.forms(_MANY), "clf": np.clf}
        explicit = self._own_article(np)
        cls = explicit or self.lex("lexicon.article", "@default")
        if cls:
            text = self.opt(f"art.{kind}|{cls}", **kw)
            if text is not None:
                return text
        if self._needs_class(kind) and not explicit and cls is None:
            if np.lexeme is not None:
                self._noun_miss("article", np.lexeme)
            else:
                self._miss("article", str(np.key))
        return self.t(f"art.{kind}", **kw)

    def indef(self, np: NP, case: str) -> str:
        """The noun with its indefinite article in `case`, knowing the others: a sentence asks
        for the one its verb takes (German „an %(a_acc)s angelegt", where English says "on
        %(a)s")."""
        return cases.Declined(self.art(np, f"indef.{case}"),
                              {c: self.art(np, f"indef.{c}") for c in ("nom", "acc", "dat")})

    # -- hosts
    def playable_hosts(self) -> list[NP]:
        """The hosts a card can sit on, as a reader names them: a tree with a river beneath is
        still a tree, so it is not listed beside "tree"."""
        hosts = [h for h in self.cs.hosts.values()
                 if h.from_kind and not h.face_down and h.play != "with_tree"]
        hosts = self._allowed(self._reachable(hosts))
        return [self.host_np(h) for h in hosts] or [self.card_np()]

    def _reachable(self, hosts: list[Any]) -> list[Any]:
        """The hosts with a slot on a side the card's halves go to: a left or right half never
        lies at a moor, whose slots are above and below (issue 44: "at the same tree, shrub or
        moor" on Dartmoor's badger and nuthatch)."""
        sides = set(getattr(self.species, "sides", None) or ())
        kept = [h for h in hosts if any(s.side in sides for s in h.slots)] if sides else hosts
        return kept or hosts

    @staticmethod
    def _names_host(f: ast.Filter, host: Any) -> bool | None:
        """Whether a filter names the host (by its id or a type it counts as); None where a
        filter says something else (a tree symbol, a species) and so decides nothing."""
        if isinstance(f, ast.FName):
            return f.name.text == host.id or f.name.text in host.types
        if isinstance(f, ast.FOr):
            found = [Renderer._names_host(i, host) for i in f.items]
            return None if None in found else any(found)
        return None

    def _allowed(self, hosts: list[Any]) -> list[Any]:
        """The hosts the placement rule being rendered lets the card sit on: "at most 1 copy
        per tree, shrub or moor" beside "may not be played on a moor" contradicted itself, so
        the rule's own `not on` and `only on` narrow the hosts its other sentences name."""
        for s in self.placing:
            if isinstance(s, ast.NotOn):
                hosts = [h for h in hosts if self._names_host(s.filter, h) is not True]
            elif isinstance(s, ast.OnlyOn):
                kept = [h for h in hosts if self._names_host(s.filter, h) is not False]
                hosts = kept or hosts
        return hosts

    def hosts_phrase(self) -> str:
        return self.join_or([h.forms(1) for h in self.playable_hosts()])

    def same_host(self) -> str:
        hosts = self.playable_hosts()
        np = hosts[0] if len(hosts) == 1 else NP(lambda n: "", None, "", tuple(hosts))
        return self.art(np, "same_host")

    def own_host(self) -> NP | None:
        """The host this card is, when the card is itself a host (a tree, a shrub)."""
        if self.species is None:
            return None
        h = self.cs.host_for_kind(self.species.kind)
        return self.host_np(h) if h is not None else None

    # -- counts
    def scope_suffix(self, scope: ast.Scope) -> str:
        k = scope.kind
        if k == "forest":
            return ""
        if k == "attached":
            own = self.own_host()
            if own is not None:
                return self.t("scope.attached.self", this=self.art(own, "this"))
            return self.t("scope.attached", same=self.same_host())
        if k == "at_host":
            own = self.own_host()
            if own is not None:
                return self.t("scope.at_host.self", this=self.art(own, "this"))
            return self.t("scope.at_host", same=self.same_host())
        if k in ("below", "atop"):
            return self.t(f"scope.{k}", a=self.art(self.filter_np(scope.hosts), "indef.dat"))
        if k == "cave":
            return self.t("scope.cave")
        self._miss("scope", k)
        return ""

    def each(self, c: ast.Count) -> str:
        if isinstance(c, ast.CountCards):
            np = self.filter_np(c.filter)
            head, post = np.split()
            return self.t("each.cards", noun=head.forms(1), scope=post + self.scope_suffix(c.scope),
                          clf=np.clf)
        if isinstance(c, ast.CountSpecies):
            np = self.filter_np(c.filter)
            return self.t("each.species", noun=np.forms(1), plural=lambda: np.forms(_MANY),
                          scope=self.scope_suffix(c.scope))
        if isinstance(c, ast.CountSymbols):
            return self.t("each.symbols", scope=self.scope_suffix(c.scope))
        if isinstance(c, ast.CountFullHosts):
            np = self.filter_np(c.hosts)
            return self.t("each.full", noun=np.forms(1), clf=np.clf)
        if isinstance(c, ast.CountHostsWithout):
            np, what = self.filter_np(c.hosts), self.filter_np(c.filter)
            return self.t("each.without", noun=np.forms(1), what=lambda: what.forms(_MANY),
                          clf=np.clf)
        raise NoPhrase(Gap(self.lang, "node", type(c).__name__))

    def qty(self, c: ast.Count, n: int, count_text: str, op: str | None) -> str:
        def q(clf: str) -> str:
            return self.t(f"op.{op}" if op else "op.list", count=count_text, clf=clf)

        if isinstance(c, ast.CountCards):
            np = self.filter_np(c.filter)
            head, post = np.split()
            return self.t("qty.cards", q=q(np.clf), noun=head.forms(n),
                          scope=post + self.scope_suffix(c.scope))
        if isinstance(c, ast.CountSpecies):
            np = self.filter_np(c.filter)
            return self.t("qty.species", n=n, q=q(self.general_classifier("@species")),
                          noun=np.forms(1),
                          plural=lambda: np.forms(_MANY), scope=self.scope_suffix(c.scope))
        if isinstance(c, ast.CountSymbols):
            return self.t("qty.symbols", n=n, q=q(self.general_classifier("@symbol")),
                          scope=self.scope_suffix(c.scope))
        if isinstance(c, ast.CountFullHosts):
            np = self.filter_np(c.hosts)
            return self.t("qty.full", q=q(np.clf), noun=np.forms(n))
        if isinstance(c, ast.CountHostsWithout):
            np, what = self.filter_np(c.hosts), self.filter_np(c.filter)
            return self.t("qty.without", q=q(np.clf), noun=np.forms(n),
                          what=lambda: what.forms(_MANY))
        raise NoPhrase(Gap(self.lang, "node", type(c).__name__))

    def most(self, c: ast.Count) -> str:
        if isinstance(c, ast.CountCards):
            np = self.filter_np(c.filter)
            return self.t("most.cards", what=lambda: np.forms(_MANY),
                          scope=self.scope_suffix(c.scope))
        if isinstance(c, ast.CountSpecies):
            np = self.filter_np(c.filter)
            return self.t("most.species", noun=np.forms(1), plural=lambda: np.forms(_MANY),
                          scope=self.scope_suffix(c.scope))
        if isinstance(c, ast.CountSymbols):
            return self.t("most.symbols", scope=self.scope_suffix(c.scope))
        if isinstance(c, ast.CountFullHosts):
            np = self.filter_np(c.hosts)
            return self.t("most.full", noun=np.forms(1), plural=lambda: np.forms(_MANY))
        if isinstance(c, ast.CountHostsWithout):
            np, what = self.filter_np(c.hosts), self.filter_np(c.filter)
            return self.t("most.without", noun=np.forms(1), plural=lambda: np.forms(_MANY),
                          what=lambda: what.forms(_MANY))
        raise NoPhrase(Gap(self.lang, "node", type(c).__name__))

    # -- conditions
    def cond(self, c: ast.Condition) -> str:
        if isinstance(c, ast.Compare):
            what = self.qty(c.count, c.value, str(c.value), c.op)
            scope = getattr(c.count, "scope", ast.FOREST)
            if scope.kind in ("forest", "cave"):
                return self.t("cond.have", what=what)
            return self.t("cond.there", n=c.value, what=what)
        if isinstance(c, ast.Most):
            return self.most(c.count)
        if isinstance(c, ast.HostIs):
            a = self.art(self.filter_np(c.filter), "indef.dat")
            top = self.species is not None and tuple(self.species.sides) == ("top",)
            return self.t("cond.host_is.top" if top else "cond.host_is", a=a)
        if isinstance(c, ast.HostHas):
            np = self.filter_np(c.filter)
            same = self.same_host() if c.host is None else self.art(self.filter_np(c.host),
                                                                     "same_host")
            return self.t("cond.host_has", n=c.n, a=self.art(np, "indef.nom"),
                          noun=np.forms(c.n), same=same, clf=np.clf)
        if isinstance(c, ast.Alone):
            if c.except_ is None:
                return self.t("cond.alone", same=self.same_host())
            return self.t("cond.alone_except", what=self.filter_np(c.except_).forms(_MANY),
                          same=self.same_host())
        if isinstance(c, ast.SelfFull):
            own = self.own_host()
            if own is not None:
                return self.t("cond.self_full.self", this=self.art(own, "this"))
            return self.t("cond.self_full")
        if isinstance(c, ast.HostFull):
            return self.t("cond.host_full", hosts=self.hosts_phrase(), same=self.same_host())
        if isinstance(c, ast.Sharing):
            # the Common Toad shares its slot with *another* Common Toad, not with "a" toad
            kind = "another.dat" if self._names_own_species(c.filter) else "indef.dat"
            return self.t("cond.sharing", a=self.art(self.filter_np(c.filter), kind))
        if isinstance(c, ast.OnlySpecies):
            return self.t("cond.only_species", same=self.same_host())
        raise NoPhrase(Gap(self.lang, "node", type(c).__name__))

    def _names_own_species(self, f: ast.Filter) -> bool:
        if self.species is None or not isinstance(f, ast.FName):
            return False
        kind, obj = self.resolve(f.name.text)
        return kind == "species" and obj is self.species

    # -- score
    def per_species(self, term: ast.Per) -> str | None:
        """"Points per different bird species" where a language says it with one word for
        "bird species" (German: "für jede verschiedene Vogelart", where the general phrase read
        "pro verschiedener Art deiner Vögel"): the catalog's `score.per|species` phrase with the
        noun's `species_word` from the card data. None where the language has no such phrase,
        or the count is not a plain noun of the card data; a noun without its word is a gap."""
        c = term.count
        variant = "score.per|species"
        if not isinstance(c, ast.CountSpecies) or variant not in self.cat.phrases:
            return None
        np = self.filter_np(c.filter)
        if np.items or np.head is not None or not isinstance(np.lexeme, Symbol):
            return None
        word = self.word(np.lexeme, "species_word")
        if word is None:
            self._noun_miss("species_word", np.lexeme)
            return None
        return self.t(variant, n=term.k, points=term.k, kind=word,
                      scope=self.scope_suffix(c.scope))

    def points(self, p: int) -> str:
        return self.t("score.points", n=p, points=p)

    def term(self, term: ast.ScoreTerm) -> str:
        if isinstance(term, ast.Flat):
            return self.points(term.points)
        if isinstance(term, ast.Per):
            per_species = self.per_species(term)
            if per_species is not None:
                return per_species
            return self.t("score.per", n=term.k, points=term.k, what=self.each(term.count))
        if isinstance(term, ast.Conditional):
            cond = self.cond(term.cond)
            if term.otherwise:
                return self.t("score.if_else", then=self.points(term.then), cond=cond,
                              otherwise=self.points(term.otherwise))
            return self.t("score.if", then=self.points(term.then), cond=cond)
        if isinstance(term, (ast.PerCopyTable, ast.TotalTable)):
            values = self.join_numbers(term.values)
            sizes = self.join_numbers(range(1, len(term.values) + 1))
            counted = self.qty(term.count, len(term.values), sizes, None)
            ctxt = "score.table" if isinstance(term, ast.PerCopyTable) else "score.total_table"
            return self.t(ctxt, n=term.values[-1], values=values, counted=counted)
        if isinstance(term, ast.Sets):
            np = self.filter_np(term.filter)
            values = self.join_numbers(term.values)
            sizes = self.join_numbers(range(1, len(term.values) + 1))
            return self.t("score.sets", n=term.values[-1], values=values, sizes=sizes,
                          noun=np.forms(1), plural=lambda: np.forms(_MANY))
        raise NoPhrase(Gap(self.lang, "node", type(term).__name__))

    # -- actions
    def amount(self, a: ast.Amount, f: ast.Filter | None) -> str:
        np = self.filter_np(f)
        if a.kind == "n":  # `a`: where a language says "a plant" rather than "1 plant"
            return self.t("amount.n", n=a.n, noun=np.forms(a.n), clf=np.clf,
                          a=lambda: self.art(np, "indef.acc"))
        if a.kind == "up_to":
            return self.t("amount.up_to", n=a.n, noun=np.forms(a.n), clf=np.clf)
        if a.kind == "any":
            return self.t("amount.any", noun=np.forms(1), plural=lambda: np.forms(_MANY),
                          clf=np.clf)
        if a.kind == "all":
            return self.art(np, "all")
        if a.kind == "per":
            assert a.per is not None
            return self.t("amount.per", n=a.n, noun=np.forms(a.n), clf=np.clf,
                          what=self.each(a.per))
        raise NoPhrase(Gap(self.lang, "node", f"Amount({a.kind})"))

    def amount_apart(self, a: ast.Amount, f: ast.Filter | None) -> dict[str, Any]:
        """`count` and `per`, the two parts of "1 card per moor", for a language that puts
        other words between them (Italian: "metti una carta dal mazzo nella tua grotta per
        ogni brughiera", where "per ogni brughiera dal mazzo" read as moors from the deck)."""
        if a.kind != "per" or a.per is None:
            return {"count": lambda: self.amount(a, f), "per": ""}
        plain = ast.Amount("n", a.n)
        per = a.per
        return {"count": lambda: self.amount(plain, f),
                "per": lambda: self.t("amount.per_apart", what=self.each(per))}

    @staticmethod
    def amount_number(a: ast.Amount) -> int:
        return a.n if a.kind in ("n", "up_to") else _MANY

    def action(self, a: ast.Action, inf: bool = False) -> str:
        def c(name: str) -> str:
            return f"action.{name}@inf" if inf else f"action.{name}"

        if isinstance(a, ast.Draw):
            if a.per is None:
                return self.t(c("draw"), n=a.n)
            return self.t(c("draw_per"), n=a.n, what=self.each(a.per))
        if isinstance(a, ast.DrawSplit):
            return self.t(c("draw_split"), n=a.n, k=a.to_cave)
        if isinstance(a, ast.Take):
            return self.t(c("take"), amount=self.amount(a.amount, a.filter))
        if isinstance(a, ast.Move):
            moved = self.t(c(f"move.to_{a.target}"), amount=self.amount(a.amount, a.filter),
                           **{"from": self.t(f"zone.from.{a.source}")},
                           **self.amount_apart(a.amount, a.filter))
            return self.t(c("draw_as_many"), move=moved) if a.draw_as_many else moved
        if isinstance(a, ast.Again):
            return self.t(c("again"))
        if isinstance(a, ast.IfAction):
            return self.t(c("if"), cond=self.cond(a.cond), action=self.action(a.action, inf))
        if isinstance(a, ast.FreePlay):
            return self.t(c("free_play_effect" if a.with_effect else "free_play"),
                          amount=self.amount(a.amount, a.filter))
        if isinstance(a, ast.Rummage):
            np = self.filter_np(a.filter)
            return self.t(c("rummage_reveal" if a.reveal else "rummage"), n=a.reveal,
                          a=self.art(np, "indef.acc"), noun=np.forms(1), clf=np.clf)
        if isinstance(a, ast.PlayAs):
            host = self.cs.hosts.get(a.host.text)
            hnp = self.host_np(host) if host is not None else self.name_np(a.host.text)
            num = self.amount_number(a.amount)
            return self.t(c("play_as"), n=num, amount=self.amount(a.amount, a.filter),
                          host_a=self.art(hnp, "indef.nom"), host=hnp.forms(num))
        if isinstance(a, ast.PlayPaying):
            return self.t(c("play_paying"))
        raise NoPhrase(Gap(self.lang, "node", type(a).__name__))

    def actions(self, actions: tuple[ast.Action, ...], inf: bool = False) -> str:
        parts = [self.action(a, inf) for a in actions]
        out = parts[0] if parts else ""
        for p in parts[1:]:
            out = self.t("join.then", a=out, b=p)
        return out

    # -- placement and modifiers
    def placement(self, s: ast.PlacementStmt) -> str:
        if isinstance(s, ast.Share):
            np = self.filter_np(s.filter)
            if s.amount.kind == "n":
                return self.t("place.share", n=s.amount.n, another=self.art(np, "another"),
                              noun=np.forms(s.amount.n), clf=np.clf)
            return self.t("place.share.amount", amount=self.amount(s.amount, s.filter))
        if isinstance(s, ast.Lets):
            # `join`: into a slot whatever already lies there; `share`: beside their own kind
            ctxt = "place.lets.join" if getattr(s, "joins", False) else "place.lets"
            kw = {"amount": self.amount(s.amount, s.filter), "hosts": self.hosts_phrase(),
                  "same": self.same_host()}
            if s.slot is None:
                return self.t(f"{ctxt}.any_slot", **kw)
            return self.t(ctxt, slot=self.slot("acc", s.slot.text), **kw)
        if isinstance(s, ast.OnlyOn):
            return self.t("place.only_on", a=self.indef(self.filter_np(s.filter), "dat"))
        if isinstance(s, ast.NotOn):
            return self.t("place.not_on", a=self.indef(self.filter_np(s.filter), "dat"))
        if isinstance(s, ast.Joining):
            return self.t("place.joining", a=self.art(self.filter_np(s.filter), "indef.nom"))
        if isinstance(s, ast.MaxPerHost):
            return self.t("place.max_per_host", n=s.n, hosts=self.hosts_phrase())
        if isinstance(s, ast.SlotOverride):
            np = self.filter_np(s.filter)
            kw = {"slot": self.slot("nom", s.side.text), "n": s.capacity,
                  "noun": np.forms(s.capacity), "clf": np.clf}
            own = self.own_host()
            host = self.cs.host_for_kind(self.species.kind) if own is not None else None
            if host is not None and sum(sl.side == s.side.text for sl in host.slots) > 1:
                # a river's two bottom slots: the side, not "the bottom slot" (issue 44)
                kw["slot"] = self.opt(f"slot.side.{s.side.text}") or kw["slot"]
            if own is not None:
                return self.t("place.slot_override.self", this=self.art(own, "this"), **kw)
            return self.t("place.slot_override", same=self.same_host(), **kw)
        raise NoPhrase(Gap(self.lang, "node", type(s).__name__))

    def slot(self, case: str, slot_id: str) -> str:
        text = self.opt(f"slot.{case}.{slot_id}")
        if text is None:
            self._miss("phrase", f"slot.{case}.{slot_id}")
            return slot_id.replace("_", " ")
        return text

    def modifier(self, s: ast.ModifierStmt) -> str:
        if isinstance(s, ast.CountsAs):
            np = self.name_np(s.what.text)
            cards = self.join_and([self.name_np(x.text).forms(1) for x in s.for_])
            return self.t("mod.counts_as", n=s.n, noun=np.forms(s.n), cards=cards, clf=np.clf)
        if isinstance(s, ast.DoubleBelow):
            what = self.art(self.filter_np(s.filter), "the_plural")
            own = self.own_host()
            if own is not None:
                return self.t("mod.double_below.self", what=what, this=self.art(own, "this"))
            return self.t("mod.double_below", what=what)
        raise NoPhrase(Gap(self.lang, "node", type(s).__name__))

    # -- whole rules
    def rule(self, rule: ast.Rule) -> str:
        if isinstance(rule, ast.ScoreRule):
            parts = [self.term(t) for t in rule.terms]
            out = parts[0]
            for p in parts[1:]:
                out = self.t("join.terms", a=out, b=p)
            return cases.capitalised(out)
        if isinstance(rule, ast.EffectRule):
            return cases.capitalised(self.actions(rule.actions))
        if isinstance(rule, ast.TriggerRule):
            acts = self.actions(rule.actions, inf=rule.optional)
            if rule.optional:
                acts = self.t("trigger.may", actions=acts)
            a = self.art(self.filter_np(rule.filter), "indef.acc")
            if rule.verb == "play":
                out = self.t("trigger.play", a=a, actions=acts)
            elif rule.where_side in ("bottom", "top"):
                h = self.art(self.filter_np(rule.where_hosts), "indef.acc")
                out = self.t(f"trigger.place.{rule.where_side}", a=a, h=h, actions=acts)
            else:
                out = self.t("trigger.place", a=a, actions=acts)
            if rule.next_turn:
                out = self.t("trigger.next_turn", rule=out, Rule=cases.capitalised(out))
            return cases.capitalised(out)
        if isinstance(rule, ast.PlacementRule):
            self.placing = rule.stmts
            try:
                return self._sentences([self.placement(s) for s in rule.stmts])
            finally:
                self.placing = ()
        if isinstance(rule, ast.ModifierRule):
            return self._sentences([self.modifier(s) for s in rule.stmts])
        raise NoPhrase(Gap(self.lang, "node", type(rule).__name__))

    def _sentences(self, parts: list[str]) -> str:
        out = cases.capitalised(parts[0]) if parts else ""
        for p in parts[1:]:
            out = self.t("join.sentences", a=out, b=cases.capitalised(p))
        return out


# ---- public API ----------------------------------------------------------------------------
def render(rule_ast: ast.Rule, field: str, cardset: Any, lang: str, species: Any = None) -> str:
    """The rule-book text of one rule. `species` (the card the rule is on) lets the wording say
    "atop" for a top-slot card and "this tree" for a tree's own slots."""
    del field  # every rule node says what it is; kept for the caller's symmetry
    text = Renderer(cardset, lang, species).rule(rule_ast)
    root = getattr(cardset, "root", None)
    return glossary.in_edition(text, lang, root.id) if root is not None else text


def _rules_of(species: Any) -> dict[str, ast.Rule]:
    out = {}
    for f in FIELDS:
        program = getattr(species, f, None)
        if program is not None:
            out[f] = program.rule
    return out


def card_text(species: Any, cardset: Any, lang: str) -> dict[str, str]:
    """field -> rendered text, in printing order (the water requirement, effect, bonus,
    trigger, placement, modifier, score). The water requirement is no rule of the DSL but a
    mark below the card's cost (seed 002: "some split cards show the water requirement below
    their cost"), so every text of such a card says it first."""
    out = {"water": water_text(cardset, lang)} if getattr(species, "water", False) else {}
    out.update({f: render(r, f, cardset, lang, species) for f, r in _rules_of(species).items()})
    return out


def water_text(cardset: Any, lang: str) -> str:
    """Where a card with the water requirement may go: the hosts with a slot that takes it,
    face-down ones aside (they count as one of those: Smoky Mountains' universal river is a
    river), "only at a tree with river or a river"."""
    r = Renderer(cardset, lang)
    hosts = [h for h in cardset.hosts.values()
             if not h.face_down and any(s.water for s in h.slots)]
    beneath = {t for h in hosts if h.play == "with_tree" for t in h.types}

    def named(h: Any) -> str:
        # a host that also lies beneath a tree here is told apart as lying on its own, where
        # the language says it so (`water.where|alone`; seeds 002, 003: "stand-alone rivers",
        # "แม่น้ำที่วางแยกเดี่ยว"), not "a tree with a river or a river"
        np = r.host_np(h)
        noun = r.art(np, "indef.acc")
        alone = (r.opt("water.where|alone", host=noun, noun=np.forms(1)) if h.id in beneath
                 else None)
        return alone or noun

    where = r.join_or([named(h) for h in hosts])
    text = _msg_text(r.cat, r.cat.phrases.get("water.where"), None) or "%(hosts)s"
    return cases.capitalised(text % {"hosts": where})


def _played_hosts(cardset: Any, host_ids: Iterable[str]) -> list[Any]:
    """The hosts of `host_ids` as a player chooses among them: a tree with a river beneath is
    still a tree, so it goes unnamed beside the tree it is played as."""
    hosts = [cardset.hosts[h] for h in host_ids]
    return [h for h in hosts if not (h.play == "with_tree" and any(
        b.from_kind == h.from_kind and b.play is None for b in hosts))]


def host_choice(cardset: Any, lang: str, host_ids: Iterable[str]) -> str:
    """"a Tree or a Sapling" (German "einen Baum oder einen Setzling"): hosts as the object of
    "whenever you play ...", each with its own indefinite article and its name as a sentence
    of the language writes it (issue 44: a player writes "when you play a tree", not "a Tree")."""
    r = Renderer(cardset, lang)
    return r.join_or([r.art(r.host_np(h), "indef.acc") for h in _played_hosts(cardset, host_ids)])


def types_counted(cardset: Any, lang: str, type_ids: Iterable[str]
                  ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The types a face-down card counts as, as the end of "it counts as ...": bare ("tree",
    German "Baum", Italian "albero"), and with the indefinite article a language's catalog may
    want there ("a tree"); each names them as a sentence of the language writes them (issue 44:
    "it counts as River" read as no English player writes)."""
    r = Renderer(cardset, lang)
    nps = [r.symbol_np(sym) for t in type_ids if (sym := cardset.symbol(t)) is not None]
    return tuple(np.forms(1) for np in nps), tuple(r.art(np, "indef.nom") for np in nps)


def host_plurals(cardset: Any, lang: str, host_ids: Iterable[str], cap: bool = True) -> str:
    """"Trees, saplings and shrubs": hosts named in the plural, as a scorepad row beside "Top
    halves" is (Smoky Mountains' trees with a river are among its "Trees"); `cap=False` for
    the middle of a sentence ("one of your trees, saplings and shrubs")."""
    r = Renderer(cardset, lang)
    text = r.join_and([r.host_np(h).forms(_MANY) for h in _played_hosts(cardset, host_ids)])
    return cases.capitalised(text) if cap else text


def field_label(field: str, lang: str) -> str:
    cat = load_catalog(lang)
    return _msg_text(cat, cat.phrases.get(f"field.{field}"), None) or field


def render_gaps(rule_ast: ast.Rule, cardset: Any, lang: str, species: Any = None
                ) -> tuple[str, list[Gap]]:
    """The text and every gap met while rendering it (phrases, names, lexicon entries)."""
    r = Renderer(cardset, lang, species)
    text = r.rule(rule_ast)
    return text, list(r.gaps)


def render_checked(rule_ast: ast.Rule, cardset: Any, lang: str, species: Any = None
                   ) -> tuple[str, list[str]]:
    """The text and what was missing to render it, in short words."""
    text, gaps = render_gaps(rule_ast, cardset, lang, species)
    return text, [str(g) for g in gaps]


# ---- which phrases each DSL node needs -----------------------------------------------------
_ACTION = ("action.",)
_MOVE_TARGETS = ("cave", "hand", "clearing", "deck", "removed")
_ZONES = ("deck", "hand", "clearing", "cave", "removed")
DATA_NODES = frozenset({"Name", "FName"})  # their words are names from the card data
NODE_PHRASES: dict[str, tuple[str, ...]] = {
    # filters
    "Name": (), "FName": (), "FCard": ("noun.card",), "FSymbol": ("qual.symbol",),
    "FOwnSymbol": ("qual.own_symbol",), "FOther": ("qual.other",), "FAnd": ("qual.also",),
    "FOr": ("join.or",), "FNot": ("qual.not",),
    # counts and where they count
    "Scope": ("scope.attached", "scope.attached.self", "scope.at_host", "scope.at_host.self",
              "scope.below", "scope.atop", "scope.cave"),
    "CountCards": ("each.cards", "qty.cards", "most.cards"),
    "CountSpecies": ("each.species", "qty.species", "most.species"),
    "CountSymbols": ("each.symbols", "qty.symbols", "most.symbols"),
    "CountFullHosts": ("each.full", "qty.full", "most.full"),
    "CountHostsWithout": ("each.without", "qty.without", "most.without"),
    # conditions
    "Compare": ("cond.have", "cond.there", "op.>=", "op.>", "op.<=", "op.<", "op.=="),
    "Most": ("most.cards", "most.species", "most.symbols", "most.full", "most.without"),
    "HostIs": ("cond.host_is", "cond.host_is.top"),
    "HostHas": ("cond.host_has", "art.same_host"),
    "Alone": ("cond.alone", "cond.alone_except"),
    "SelfFull": ("cond.self_full", "cond.self_full.self"),
    "HostFull": ("cond.host_full",),
    "Sharing": ("cond.sharing", "art.another.dat"),
    "OnlySpecies": ("cond.only_species",),
    # score
    "Flat": ("score.points",), "Per": ("score.per",),
    "Conditional": ("score.if", "score.if_else"),
    "PerCopyTable": ("score.table", "op.list", "join.num_or"),
    "TotalTable": ("score.total_table", "op.list", "join.num_or"),
    "Sets": ("score.sets", "join.num_or"),
    "ScoreRule": ("join.terms",),
    # actions
    "Amount": ("amount.n", "amount.up_to", "amount.any", "art.all", "amount.per",
               "amount.per_apart"),
    "Draw": ("action.draw", "action.draw_per"),
    "DrawSplit": ("action.draw_split",),
    "Take": ("action.take",),
    "Move": (*(f"action.move.to_{t}" for t in _MOVE_TARGETS),
             *(f"zone.from.{z}" for z in _ZONES), "action.draw_as_many"),
    "Again": ("action.again",),
    "IfAction": ("action.if",),
    "FreePlay": ("action.free_play", "action.free_play_effect"),
    "Rummage": ("action.rummage", "action.rummage_reveal"),
    "PlayAs": ("action.play_as",),
    "PlayPaying": ("action.play_paying",),
    "EffectRule": ("join.then",),
    "TriggerRule": ("trigger.play", "trigger.place", "trigger.place.bottom", "trigger.place.top",
                    "trigger.may", "trigger.next_turn"),
    # placement and modifiers
    "Share": ("place.share", "place.share.amount"),
    "Lets": ("place.lets", "place.lets.any_slot", "place.lets.join", "place.lets.join.any_slot"),
    "OnlyOn": ("place.only_on",), "NotOn": ("place.not_on",), "Joining": ("place.joining",),
    "MaxPerHost": ("place.max_per_host",),
    "SlotOverride": ("place.slot_override", "place.slot_override.self"),
    "PlacementRule": ("join.sentences",),
    "CountsAs": ("mod.counts_as",),
    "DoubleBelow": ("mod.double_below", "mod.double_below.self"),
    "ModifierRule": ("join.sentences",),
}


def node_types(rule_ast: ast.Rule) -> set[str]:
    """The DSL node types a rule is built from."""
    return {type(n).__name__ for n in ast.walk(rule_ast)}


def phrase_contexts(node_type: str) -> tuple[str, ...]:
    """The msgctxts a node type renders through; an action has an infinitive twin (after
    "you may") for each."""
    out: list[str] = []
    for ctxt in NODE_PHRASES.get(node_type, ()):
        out.append(ctxt)
        if ctxt.startswith(_ACTION):
            out.append(f"{ctxt}@inf")
    return tuple(out)


def node_gaps(types: Iterable[str], lang: str) -> list[Gap]:
    """Node types with no phrase table entry, or whose phrases `lang` lacks."""
    cat = load_catalog(lang)
    out = []
    for t in sorted(types):
        if t not in NODE_PHRASES:
            out.append(Gap(lang, "node", t))
        for ctxt in phrase_contexts(t):
            if _msg_text(cat, cat.phrases.get(ctxt), 1) is None:
                out.append(Gap(lang, "phrase", ctxt))
    return out


# ---- every gap of a card set ---------------------------------------------------------------
@dataclass(frozen=True)
class Finding:
    """A gap and what needs it: a rule ("base:oak.score"), a name, a symbol or a host, with the
    span in the card data where there is one."""

    gap: Gap
    where: str
    span: Span | None


def _noun_gaps(r: Renderer, np_of: Callable[[], NP]) -> list[Gap]:
    """What a noun lacks to be used anywhere: its name, plural, article class, classifier.
    Checked for every host and type symbol, used by a rule or not, since a new rule or a
    sheet may use any of them."""
    r.gaps.clear()
    np = np_of()
    np.forms(_MANY)
    r.art(np, "indef.nom")
    return list(r.gaps)


def _species_findings(cardset: Any, lang: str) -> list[Finding]:
    out = []
    for sp in cardset.species.values():
        if not sp.names.get(lang):
            out.append(Finding(Gap(lang, "name", f"species {sp.key}"), sp.key, sp.span))
        for f, rule in _rules_of(sp).items():
            rt = sp.rule_texts.get(f)
            span = rt.span if rt is not None else sp.span
            try:
                _, gaps = render_gaps(rule, cardset, lang, sp)
            except NoPhrase as exc:
                gaps = [exc.gap]
            out.extend(Finding(g, f"{sp.key}.{f}", span) for g in gaps)
    return out


def _noun_findings(cardset: Any, lang: str) -> list[Finding]:
    r = Renderer(cardset, lang)
    out = []
    for sym in cardset.symbols:
        if not sym.names.get(lang):
            out.append(Finding(Gap(lang, "name", f"symbol {sym.id}"), f"symbol {sym.id}",
                               sym.span))
        if sym.kind != "tree" and sym.id not in r.card_symbols:
            out.extend(Finding(g, f"symbol {sym.id}", sym.span)
                       for g in _noun_gaps(r, lambda s=sym: r.symbol_np(s)))
    for h in cardset.hosts.values():
        out.extend(Finding(g, f"host {h.id}", h.span)
                   for g in _noun_gaps(r, lambda h=h: r.host_np(h)))
    return out


def _scorepad_findings(cardset: Any, lang: str) -> list[Finding]:
    """Scorepad rows without a name in `lang`, at the edition.yaml that lists the row."""
    names = scorepad_names(cardset.editions)
    out = []
    for row in cardset.scorepad:
        if (names.get(row) or {}).get(lang):
            continue
        ed = next((e for e in cardset.editions if row in e.scorepad), cardset.root)
        gap = Gap(lang, "name", f"scorepad row {row}", noun=f"scorepad row '{row}'",
                  decl=ed.span)
        out.append(Finding(gap, f"scorepad row {row}", ed.span))
    return out


def _node_places(cardset: Any) -> dict[str, tuple[str, Span | None]]:
    """Each DSL node type the card set's rules use, with the first rule that uses it."""
    first: dict[str, tuple[str, Span | None]] = {}
    for sp in cardset.species.values():
        for f, rule in _rules_of(sp).items():
            rt = sp.rule_texts.get(f)
            for t in node_types(rule):
                first.setdefault(t, (f"{sp.key}.{f}", rt.span if rt is not None else sp.span))
    return first


def _node_findings(places: dict[str, tuple[str, Span | None]], lang: str) -> list[Finding]:
    out = []
    for t, (where, span) in places.items():
        out.extend(Finding(g, where, span) for g in node_gaps([t], lang))
    return out


def translation_findings(cardset: Any, langs: Iterable[str] | None = None) -> list[Finding]:
    """Every gap of the card set in each language: catalog phrases, phrases of the DSL nodes
    its cards use, names in the card data (scorepad rows included), the words of every host and
    type symbol (article class, classifier, plural), and what rendering each rule needs (the
    same words of species and groups)."""
    out: list[Finding] = []
    places = _node_places(cardset)
    for lang in tuple(langs) if langs is not None else LANGS:
        if not catalog_path(lang).is_file():
            out.append(Finding(Gap(lang, "no_catalog", str(catalog_path(lang))), "catalog",
                               None))
            continue
        out.extend(Finding(g, "catalog", None) for g in catalog_gaps(lang))
        out.extend(_node_findings(places, lang))
        out.extend(_species_findings(cardset, lang))
        out.extend(_noun_findings(cardset, lang))
        out.extend(_scorepad_findings(cardset, lang))
    return list(dict.fromkeys(out))


def missing_translations(cardset: Any, langs: Iterable[str] | None = None
                         ) -> list[tuple[str, str, str]]:
    """(where, lang, what) for every gap of `translation_findings`."""
    found = translation_findings(cardset, langs)
    return list(dict.fromkeys((f.where, f.gap.lang, str(f.gap)) for f in found))
