"""DSL rules -> rule-book text in English, German, Italian and Thai.

Every phrase pattern is one message of the gettext catalogs under `printouts/catalogs/<lang>/
LC_MESSAGES/grove.po`, read with Babel at runtime and addressed by its `msgctxt`; the number
forms come from Babel's CLDR plural rules (`Locale.plural_form`), never from code here. Card,
symbol and host names come from the edition data (`names`, `plural`).

What the data does not say, the catalogs say per language, in `lexicon.*` contexts: the article
class (grammatical gender, or `an` in English) of a noun, a Thai classifier (ตัว, ต้น, ใบ …), the
plural of a species name. A noun whose lexicon entry is missing still renders, with a
gender-free wording, and the gap is reported by `missing_translations` (for a later lint).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from babel.core import Locale
from babel.messages.pofile import read_po

from dsl import ast

LANGS = ("en", "de", "it", "th")
FIELDS = ("effect", "bonus", "trigger", "placement", "modifier", "score")
CATALOG_DIR = Path(__file__).parent / "catalogs"
_CATEGORIES = ("zero", "one", "two", "few", "many", "other")
_MANY = 2  # a representative count for "several" (any number of, all)


# ---- catalogs ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Catalog:
    lang: str
    phrases: dict[str, Any]  # msgctxt -> babel Message
    lexicon: dict[tuple[str, str], str]  # (msgctxt, msgid) -> msgstr
    plural_rule: Any  # babel.plural.PluralRule
    order: tuple[str, ...]  # plural categories in gettext index order

    def form_index(self, n: int) -> int:
        return self.order.index(self.plural_rule(n))

    def is_one(self, n: int) -> bool:
        return self.plural_rule(n) == "one"

    @property
    def single_form(self) -> bool:
        return not self.plural_rule.tags


def catalog_path(lang: str) -> Path:
    return CATALOG_DIR / lang / "LC_MESSAGES" / "grove.po"


@cache
def load_catalog(lang: str) -> Catalog:
    path = catalog_path(lang)
    with open(path, "rb") as fh:
        cat = read_po(fh, locale=lang, domain="grove")
    rule = Locale.parse(lang).plural_form
    order = tuple(c for c in _CATEGORIES if c in rule.tags or c == "other")
    phrases: dict[str, Any] = {}
    lexicon: dict[tuple[str, str], str] = {}
    for msg in cat:
        if not msg.id:
            continue
        ctxt = msg.context or ""
        if ctxt.startswith("lexicon."):
            if msg.string:
                lexicon[(ctxt, msg.id)] = msg.string
        else:
            phrases[ctxt] = msg
    return Catalog(lang, phrases, lexicon, rule, order)


def available_languages() -> tuple[str, ...]:
    return tuple(sorted(p.name for p in CATALOG_DIR.iterdir() if catalog_path(p.name).is_file()))


def _msg_text(cat: Catalog, msg: Any, n: int | None) -> str | None:
    if msg is None:
        return None
    if msg.pluralizable:
        forms = msg.string if isinstance(msg.string, tuple) else (msg.string,)
        idx = cat.form_index(1 if n is None else n)
        return forms[idx] if idx < len(forms) and forms[idx] else None
    return msg.string or None


def catalog_problems(lang: str, reference: str = "en") -> list[str]:
    """Phrases of the reference catalog that `lang` lacks, leaves empty, or words differently."""
    ref, cat = load_catalog(reference), load_catalog(lang)
    out = []
    for ctxt, rmsg in ref.phrases.items():
        if "|" in ctxt:  # article-class variants belong to one language only
            continue
        msg = cat.phrases.get(ctxt)
        if msg is None:
            out.append(f"phrase {ctxt!r} is missing")
        elif msg.id != rmsg.id:
            out.append(f"phrase {ctxt!r} translates another msgid")
        elif msg.pluralizable:
            forms = msg.string if isinstance(msg.string, tuple) else (msg.string,)
            if len(forms) != len(cat.order) or not all(forms):
                out.append(f"phrase {ctxt!r} needs {len(cat.order)} plural forms")
        elif not msg.string:
            out.append(f"phrase {ctxt!r} is untranslated")
    return out


# ---- noun phrases --------------------------------------------------------------------------
@dataclass
class NP:
    """A noun phrase: its text for a count `n`, the lexicon key for its article class and the
    Thai classifier; `items` for an `or` of several phrases."""

    forms: Callable[[int], str]
    key: str | None
    clf: str
    items: tuple[NP, ...] = ()


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class Renderer:
    def __init__(self, cardset: Any, lang: str, species: Any = None):
        self.cs = cardset
        self.lang = lang
        self.species = species
        self.cat = load_catalog(lang)
        self.en = load_catalog("en")
        self.misses: list[str] = []
        self.lower = self.t("style.lowercase_names") == "yes"
        self.card_symbols = {e.card_symbol for e in cardset.editions if e.card_symbol}
        self.uses_classifiers = any(c == "lexicon.classifier" for c, _ in self.cat.lexicon)

    # -- catalog access
    def _miss(self, what: str) -> None:
        if what not in self.misses:
            self.misses.append(what)

    def t(self, ctxt: str, n: int | None = None, **kw: Any) -> str:
        if n is not None:
            kw.setdefault("n", n)
        text = _msg_text(self.cat, self.cat.phrases.get(ctxt), n)
        if text is None:
            self._miss(f"phrase {ctxt}")
            text = _msg_text(self.en, self.en.phrases.get(ctxt), n)
            if text is None:
                raise KeyError(f"no message {ctxt!r} in the English catalog")
        try:
            return text % kw
        except (KeyError, ValueError, TypeError):
            self._miss(f"phrase {ctxt} has a bad placeholder")
            return _msg_text(self.en, self.en.phrases[ctxt], n) % kw

    def opt(self, ctxt: str, **kw: Any) -> str | None:
        text = _msg_text(self.cat, self.cat.phrases.get(ctxt), None)
        return None if text is None else text % kw

    def lex(self, ctxt: str, key: str) -> str | None:
        return self.cat.lexicon.get((ctxt, key))

    # -- names from the data
    def _name(self, names: Any, what: str) -> str:
        text = names.get(self.lang) if names else None
        if not text:
            self._miss(f"name of {what}")
            text = (names.get("en") if names else None) or what.replace("_", " ")
        return text

    def _plural(self, plural: Any, what: str) -> str | None:
        if self.cat.single_form:
            return None
        text = plural.get(self.lang) if plural else None
        return text or self.lex("lexicon.plural", what)

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

    def classifier(self, key: str, fallbacks: Iterable[str] = ()) -> str:
        if not self.uses_classifiers:
            return ""
        for k in (key, *fallbacks):
            c = self.lex("lexicon.classifier", k)
            if c:
                return c
        self._miss(f"classifier of {key}")
        return self.lex("lexicon.classifier", "@card") or ""

    def _species_plural(self, sp: Any, sg: str) -> str | None:
        if self.cat.single_form:
            return sg
        found = self.lex("lexicon.plural", sp.id)
        if found:
            return found
        for sym in self.cs.symbols:  # "Beech" the species, "Beech" the tree symbol
            if sym.names.get(self.lang) == sg and sym.plural and sym.plural.get(self.lang):
                return sym.plural[self.lang]
        return None

    def _simple(self, sg: str, pl: str | None, key: str, clf: str, what: str) -> NP:
        def forms(n: int) -> str:
            if self.cat.is_one(n) or self.cat.single_form:
                return sg
            if pl:
                return pl
            self._miss(f"plural of {what}")  # reported only where a plural is needed
            return self.t("noun.species_cards", n=n, name=sg)

        return NP(forms, key, clf)

    def card_np(self) -> NP:
        return NP(lambda n: self.t("noun.card", n=n), "@card", self.classifier("@card"))

    def qualified(self, np: NP, ctxt: str, **kw: Any) -> NP:
        return NP(lambda n: self.t(ctxt, noun=np.forms(n), **kw), np.key, np.clf)

    def host_np(self, host: Any) -> NP:
        sg = self._low(self._name(host.names, f"host {host.id}"))
        pl = None
        for sym in self.cs.symbols:
            if sym.kind == "type" and sym.id == host.id:
                pl = self._plural(sym.plural, host.id)
        pl = pl or self._plural(None, host.id)
        pl = self._low(pl) if pl else (sg if self.cat.single_form else None)
        return self._simple(sg, pl, host.id, self.classifier(host.id, host.types), host.id)

    def name_np(self, name: str) -> NP:
        kind, obj = self.resolve(name)
        if kind in ("group", "type"):
            if obj.id in self.card_symbols:
                symbol = self._name(obj.names, f"symbol {obj.id}")
                return self.qualified(self.card_np(), "qual.symbol", symbol=symbol)
            sg = self._low(self._name(obj.names, f"symbol {obj.id}"))
            pl = self._plural(obj.plural, obj.id)
            pl = self._low(pl) if pl else (sg if self.cat.single_form else None)
            return self._simple(sg, pl, obj.id, self.classifier(obj.id, obj.implies), obj.id)
        if kind == "species":
            sg = self._name(obj.names, f"species {obj.key}")
            pl = self._species_plural(obj, sg)
            clf = self.classifier(obj.id, (*obj.types, *sorted(obj.tags), obj.kind))
            return self._simple(sg, pl, obj.id, clf, obj.id)
        if kind == "host":
            return self.host_np(obj)
        self._miss(f"name {name} resolves to nothing")
        text = name.replace("_", " ")
        return NP(lambda n: text, name, self.classifier("@card"))

    def tree_symbol(self, sid: str) -> str:
        sym = self.cs.symbol(sid)
        if sym is None:
            self._miss(f"tree symbol {sid}")
            return sid.replace("_", " ")
        return self._name(sym.names, f"symbol {sid}")

    # -- lists
    def _join(self, parts: list[str], ctxt: str, sep: str = "join.list") -> str:
        parts = [p for p in parts if p]
        if not parts:
            return ""
        out = parts[-1]
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
            clf = clfs.pop() if len(clfs) == 1 else self.classifier("@card")
            return NP(lambda n: self.join_or([s.forms(n) for s in subs]), subs[0].key, clf, subs)
        if isinstance(f, ast.FAnd):
            head_i = next((i for i, x in enumerate(f.items)
                           if isinstance(x, (ast.FName, ast.FOr)) and not self._is_symbolish(x)),
                          None)
            np = self.filter_np(f.items[head_i]) if head_i is not None else self.card_np()
            for i, x in enumerate(f.items):
                if i != head_i and not isinstance(x, ast.FCard):
                    np = self._qualify(np, x)
            return np
        raise TypeError(f"unknown filter {f!r}")

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
            return self.qualified(np, "qual.not", sg=x.forms(1), plural=x.forms(_MANY))
        x = self.filter_np(f)
        return self.qualified(np, "qual.also", sg=x.forms(1), a=self.art(x, "indef.nom"))

    # -- articles
    def article_class(self, key: str | None) -> str | None:
        if key is None:
            return None
        return self.lex("lexicon.article", key) or self.lex("lexicon.article", "@default")

    def _needs_class(self, kind: str) -> bool:
        return any(c.startswith(f"art.{kind}|") for c in self.cat.phrases)

    def art(self, np: NP, kind: str) -> str:
        """The noun phrase with an article (or other determiner) of `kind`: indef.nom, indef.acc,
        indef.dat, another, all, this, same_host."""
        if np.items:
            classes = {self.article_class(i.key) for i in np.items}
            if len(classes) != 1 and kind != "all":
                return self.join_or([self.art(i, kind) for i in np.items])
            subs = np.items
            joined = NP(lambda n: (self.join_and if kind == "all" else self.join_or)(
                [s.forms(n) for s in subs]), subs[0].key, np.clf)
            return self.art(joined, kind)
        kw = {"noun": np.forms(1), "plural": np.forms(_MANY), "clf": np.clf}
        explicit = self.lex("lexicon.article", np.key) if np.key else None
        cls = explicit or self.lex("lexicon.article", "@default")
        if cls:
            text = self.opt(f"art.{kind}|{cls}", **kw)
            if text is not None:
                return text
        if self._needs_class(kind) and not explicit and cls is None:
            self._miss(f"article class of {np.key}")
        return self.t(f"art.{kind}", **kw)

    # -- hosts
    def playable_hosts(self) -> list[NP]:
        hosts = [h for h in self.cs.hosts.values() if h.from_kind and not h.face_down]
        return [self.host_np(h) for h in hosts] or [self.card_np()]

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
            return self.t("scope.at_host", same=self.same_host())
        if k in ("below", "atop"):
            return self.t(f"scope.{k}", a=self.art(self.filter_np(scope.hosts), "indef.dat"))
        if k == "cave":
            return self.t("scope.cave")
        self._miss(f"scope {k}")
        return ""

    def each(self, c: ast.Count) -> str:
        if isinstance(c, ast.CountCards):
            np = self.filter_np(c.filter)
            return self.t("each.cards", noun=np.forms(1) + self.scope_suffix(c.scope), clf=np.clf)
        if isinstance(c, ast.CountSpecies):
            np = self.filter_np(c.filter)
            return self.t("each.species", noun=np.forms(1), plural=np.forms(_MANY),
                          scope=self.scope_suffix(c.scope))
        if isinstance(c, ast.CountSymbols):
            return self.t("each.symbols", scope=self.scope_suffix(c.scope))
        if isinstance(c, ast.CountFullHosts):
            np = self.filter_np(c.hosts)
            return self.t("each.full", noun=np.forms(1), clf=np.clf)
        if isinstance(c, ast.CountHostsWithout):
            np, what = self.filter_np(c.hosts), self.filter_np(c.filter)
            return self.t("each.without", noun=np.forms(1), what=what.forms(_MANY), clf=np.clf)
        raise TypeError(f"unknown count {c!r}")

    def qty(self, c: ast.Count, n: int, count_text: str, op: str | None) -> str:
        def q(clf: str) -> str:
            return self.t(f"op.{op}" if op else "op.list", count=count_text, clf=clf)

        if isinstance(c, ast.CountCards):
            np = self.filter_np(c.filter)
            return self.t("qty.cards", q=q(np.clf), noun=np.forms(n) + self.scope_suffix(c.scope))
        if isinstance(c, ast.CountSpecies):
            np = self.filter_np(c.filter)
            return self.t("qty.species", n=n, q=q(self.classifier("@species")), noun=np.forms(1),
                          plural=np.forms(_MANY), scope=self.scope_suffix(c.scope))
        if isinstance(c, ast.CountSymbols):
            return self.t("qty.symbols", n=n, q=q(self.classifier("@symbol")),
                          scope=self.scope_suffix(c.scope))
        if isinstance(c, ast.CountFullHosts):
            np = self.filter_np(c.hosts)
            return self.t("qty.full", q=q(np.clf), noun=np.forms(n))
        if isinstance(c, ast.CountHostsWithout):
            np, what = self.filter_np(c.hosts), self.filter_np(c.filter)
            return self.t("qty.without", q=q(np.clf), noun=np.forms(n), what=what.forms(_MANY))
        raise TypeError(f"unknown count {c!r}")

    def most(self, c: ast.Count) -> str:
        if isinstance(c, ast.CountCards):
            np = self.filter_np(c.filter)
            return self.t("most.cards", what=np.forms(_MANY) + self.scope_suffix(c.scope))
        if isinstance(c, ast.CountSpecies):
            np = self.filter_np(c.filter)
            return self.t("most.species", noun=np.forms(1), plural=np.forms(_MANY),
                          scope=self.scope_suffix(c.scope))
        if isinstance(c, ast.CountSymbols):
            return self.t("most.symbols", scope=self.scope_suffix(c.scope))
        if isinstance(c, ast.CountFullHosts):
            np = self.filter_np(c.hosts)
            return self.t("most.full", noun=np.forms(1), plural=np.forms(_MANY))
        if isinstance(c, ast.CountHostsWithout):
            np, what = self.filter_np(c.hosts), self.filter_np(c.filter)
            return self.t("most.without", noun=np.forms(1), plural=np.forms(_MANY),
                          what=what.forms(_MANY))
        raise TypeError(f"unknown count {c!r}")

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
            return self.t("cond.host_has", n=c.n, a=self.art(np, "indef.nom"),
                          noun=np.forms(c.n), same=self.same_host(), clf=np.clf)
        if isinstance(c, ast.Alone):
            if c.except_ is None:
                return self.t("cond.alone", same=self.same_host())
            return self.t("cond.alone_except", what=self.filter_np(c.except_).forms(_MANY),
                          same=self.same_host())
        if isinstance(c, ast.SelfFull):
            return self.t("cond.self_full")
        if isinstance(c, ast.HostFull):
            return self.t("cond.host_full", hosts=self.hosts_phrase(), same=self.same_host())
        if isinstance(c, ast.Sharing):
            return self.t("cond.sharing", a=self.art(self.filter_np(c.filter), "indef.dat"))
        if isinstance(c, ast.OnlySpecies):
            return self.t("cond.only_species", same=self.same_host())
        raise TypeError(f"unknown condition {c!r}")

    # -- score
    def points(self, p: int) -> str:
        return self.t("score.points", n=p, points=p)

    def term(self, term: ast.ScoreTerm) -> str:
        if isinstance(term, ast.Flat):
            return self.points(term.points)
        if isinstance(term, ast.Per):
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
                          noun=np.forms(1), plural=np.forms(_MANY))
        raise TypeError(f"unknown score term {term!r}")

    # -- actions
    def amount(self, a: ast.Amount, f: ast.Filter | None) -> str:
        np = self.filter_np(f)
        if a.kind == "n":
            return self.t("amount.n", n=a.n, noun=np.forms(a.n), clf=np.clf)
        if a.kind == "up_to":
            return self.t("amount.up_to", n=a.n, noun=np.forms(a.n), clf=np.clf)
        if a.kind == "any":
            return self.t("amount.any", noun=np.forms(1), plural=np.forms(_MANY), clf=np.clf)
        if a.kind == "all":
            return self.art(np, "all")
        if a.kind == "per":
            assert a.per is not None
            return self.t("amount.per", n=a.n, noun=np.forms(a.n), clf=np.clf,
                          what=self.each(a.per))
        raise TypeError(f"unknown amount {a!r}")

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
                           **{"from": self.t(f"zone.from.{a.source}")})
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
        raise TypeError(f"unknown action {a!r}")

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
            amount = self.amount(s.amount, s.filter)
            if s.slot is None:
                return self.t("place.lets.any_slot", amount=amount, hosts=self.hosts_phrase(),
                              same=self.same_host())
            return self.t("place.lets", amount=amount, slot=self.slot("acc", s.slot.text),
                          hosts=self.hosts_phrase(), same=self.same_host())
        if isinstance(s, ast.OnlyOn):
            return self.t("place.only_on", a=self.art(self.filter_np(s.filter), "indef.dat"))
        if isinstance(s, ast.NotOn):
            return self.t("place.not_on", a=self.art(self.filter_np(s.filter), "indef.dat"))
        if isinstance(s, ast.Joining):
            return self.t("place.joining", a=self.art(self.filter_np(s.filter), "indef.nom"))
        if isinstance(s, ast.MaxPerHost):
            return self.t("place.max_per_host", n=s.n, hosts=self.hosts_phrase())
        if isinstance(s, ast.SlotOverride):
            np = self.filter_np(s.filter)
            return self.t("place.slot_override", slot=self.slot("nom", s.side.text),
                          same=self.same_host(), n=s.capacity, noun=np.forms(s.capacity),
                          clf=np.clf)
        raise TypeError(f"unknown placement statement {s!r}")

    def slot(self, case: str, slot_id: str) -> str:
        text = self.opt(f"slot.{case}.{slot_id}")
        if text is None:
            self._miss(f"phrase slot.{case}.{slot_id}")
            return slot_id.replace("_", " ")
        return text

    def modifier(self, s: ast.ModifierStmt) -> str:
        if isinstance(s, ast.CountsAs):
            np = self.name_np(s.what.text)
            cards = self.join_and([self.name_np(x.text).forms(1) for x in s.for_])
            return self.t("mod.counts_as", n=s.n, noun=np.forms(s.n), cards=cards, clf=np.clf)
        if isinstance(s, ast.DoubleBelow):
            what = self.filter_np(s.filter).forms(_MANY)
            own = self.own_host()
            if own is not None:
                return self.t("mod.double_below.self", what=what, this=self.art(own, "this"))
            return self.t("mod.double_below", what=what)
        raise TypeError(f"unknown modifier {s!r}")

    # -- whole rules
    def rule(self, rule: ast.Rule) -> str:
        if isinstance(rule, ast.ScoreRule):
            parts = [self.term(t) for t in rule.terms]
            out = parts[0]
            for p in parts[1:]:
                out = self.t("join.terms", a=out, b=p)
            return _cap(out)
        if isinstance(rule, ast.EffectRule):
            return _cap(self.actions(rule.actions))
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
                out = self.t("trigger.next_turn", rule=out, Rule=_cap(out))
            return _cap(out)
        if isinstance(rule, ast.PlacementRule):
            return self._sentences([self.placement(s) for s in rule.stmts])
        if isinstance(rule, ast.ModifierRule):
            return self._sentences([self.modifier(s) for s in rule.stmts])
        raise TypeError(f"unknown rule {rule!r}")

    def _sentences(self, parts: list[str]) -> str:
        out = _cap(parts[0]) if parts else ""
        for p in parts[1:]:
            out = self.t("join.sentences", a=out, b=_cap(p))
        return out


# ---- public API ----------------------------------------------------------------------------
def render(rule_ast: ast.Rule, field: str, cardset: Any, lang: str, species: Any = None) -> str:
    """The rule-book text of one rule. `species` (the card the rule is on) lets the wording say
    "atop" for a top-slot card and "this tree" for a tree's own slots."""
    del field  # every rule node says what it is; kept for the caller's symmetry
    return Renderer(cardset, lang, species).rule(rule_ast)


def _rules_of(species: Any) -> dict[str, ast.Rule]:
    out = {}
    for f in FIELDS:
        program = getattr(species, f, None)
        if program is not None:
            out[f] = program.rule
    return out


def card_text(species: Any, cardset: Any, lang: str) -> dict[str, str]:
    """field -> rendered text, in printing order (effect, bonus, trigger, placement, modifier,
    score)."""
    return {f: render(r, f, cardset, lang, species) for f, r in _rules_of(species).items()}


def field_label(field: str, lang: str) -> str:
    cat = load_catalog(lang)
    return _msg_text(cat, cat.phrases.get(f"field.{field}"), None) or field


def render_checked(rule_ast: ast.Rule, cardset: Any, lang: str, species: Any = None
                   ) -> tuple[str, list[str]]:
    """The text and what was missing to render it (phrases, names, lexicon entries)."""
    r = Renderer(cardset, lang, species)
    text = r.rule(rule_ast)
    return text, r.misses


def missing_translations(cardset: Any, langs: Iterable[str] | None = None
                         ) -> list[tuple[str, str, str]]:
    """(where, lang, what) for every gap: catalog phrases, names in the card data, lexicon
    entries (article class, classifier, plural) that some rule of the card set needs."""
    langs = tuple(langs) if langs is not None else LANGS
    out: list[tuple[str, str, str]] = []
    for lang in langs:
        if not catalog_path(lang).is_file():
            out.append(("catalog", lang, f"no catalog {catalog_path(lang)}"))
            continue
        out.extend(("catalog", lang, p) for p in catalog_problems(lang))
        for sp in cardset.species.values():
            if not sp.names.get(lang):
                out.append((sp.key, lang, f"name of species {sp.key}"))
            for f, rule in _rules_of(sp).items():
                _, misses = render_checked(rule, cardset, lang, sp)
                out.extend((f"{sp.key}.{f}", lang, m) for m in misses)
        for sym in cardset.symbols:
            if not sym.names.get(lang):
                out.append((f"symbol {sym.id}", lang, "name"))
            if sym.kind != "tree" and not (sym.plural and sym.plural.get(lang)) \
                    and not load_catalog(lang).single_form:
                out.append((f"symbol {sym.id}", lang, "plural"))
        for h in cardset.hosts.values():
            if not h.names.get(lang):
                out.append((f"host {h.id}", lang, "name"))
    return list(dict.fromkeys(out))
