"""Rule-book text from the DSL: every node type in four languages, for every card set; reviewed
golden strings; plural forms chosen by Babel's CLDR rules; missing translations as lint
findings (TEXT-MISSING-TRANSLATION)."""

from __future__ import annotations

import dataclasses
import re
from functools import cache
from pathlib import Path

import pytest
from babel.core import Locale
from click.testing import CliRunner
from ruamel.yaml import YAML

from grove import api
from grove.cli import main
from grove.compiler import cardset as cs
from grove.compiler.search_path import search_path
from grove.compiler.universe import load_universe
from grove.dsl import ast
from grove.dsl.parser import parse_rule
from grove.printouts import rules_text as rt
from grove.printouts import text_lint

GOLDEN = Path(__file__).parent / "golden"
CORPUS = Path(__file__).parent / "corpus" / "editions"
LANGS = rt.LANGS
RAW_ID = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")  # a snake_case id leaking into the text


def _card_sets() -> list[tuple[str, tuple[str, ...]]]:
    """Every shipped edition alone and in every combination its base names."""
    universe = load_universe()
    found = (c for e in sorted(universe.editions) for c in text_lint.combinations(universe, e))
    return list(dict.fromkeys(found))


CARD_SETS = _card_sets()


def _id(card_set: tuple[str, tuple[str, ...]]) -> str:
    return "+".join((card_set[0], *card_set[1]))


@cache
def _built(card_set: tuple[str, tuple[str, ...]]) -> cs.CardSet:
    return cs.build(*card_set)


def _node_types(node, out: set[str]) -> set[str]:
    if dataclasses.is_dataclass(node) and not isinstance(node, type):
        if type(node).__module__ == ast.__name__:
            out.add(type(node).__name__)
        for f in dataclasses.fields(node):
            _node_types(getattr(node, f.name), out)
    elif isinstance(node, tuple):
        for x in node:
            _node_types(x, out)
    return out


def _assert_clean(text: str, misses: list[str], where: str) -> None:
    assert text.strip(), where
    assert "%(" not in text and "{" not in text and "}" not in text, (where, text)
    assert "\x00" not in text and "\x01" not in text, (where, text)
    assert not RAW_ID.search(text), (where, text)
    assert not misses, (where, misses)


# ---- (a) every node type used by the cards, in every language ------------------------------
def test_card_sets_cover_every_edition_and_combination():
    ids = {_id(c) for c in CARD_SETS}
    assert ids == {"base", "base+alpine", "base+woodland_edge", "base+alpine+woodland_edge",
                   "dartmoor", "smoky_mountains"}


def test_catalogs_complete():
    for lang in LANGS:
        assert rt.catalog_problems(lang) == [], lang


@pytest.mark.parametrize("card_set", CARD_SETS, ids=_id)
def test_no_missing_translations(card_set):
    assert rt.missing_translations(_built(card_set)) == []


def test_every_node_type_has_a_phrase_table_entry():
    every = {n for n, v in vars(ast).items() if isinstance(v, type)
             and dataclasses.is_dataclass(v) and v.__module__ == ast.__name__}
    assert every == set(rt.NODE_PHRASES)
    for node, contexts in rt.NODE_PHRASES.items():
        assert contexts or node in rt.DATA_NODES, node  # only names come from the card data


def test_every_node_type_used_by_any_card_has_its_phrases_in_every_language():
    used: dict[str, str] = {}
    for card_set in CARD_SETS:
        for sp in _built(card_set).species.values():
            for field in rt.FIELDS:
                program = getattr(sp, field)
                if program is not None:
                    for t in _node_types(program.rule, set()):
                        used.setdefault(t, f"{sp.key}.{field}")
    assert len(used) >= 35, sorted(used)
    for lang in LANGS:
        assert rt.node_gaps(used, lang) == [], lang
        cat = rt.load_catalog(lang)
        for t in used:
            for ctxt in rt.phrase_contexts(t):
                assert ctxt in cat.phrases, (lang, t, used[t], ctxt)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("card_set", CARD_SETS, ids=_id)
def test_every_card_rule_renders(card_set, lang):
    cset = _built(card_set)
    for sp in cset.species.values():
        for field in rt.FIELDS:
            program = getattr(sp, field)
            if program is None:
                continue
            text, misses = rt.render_checked(program.rule, cset, lang, sp)
            _assert_clean(text, misses, f"{sp.key}.{field} [{lang}]")
            if lang != "en":  # a translated text is never the English one
                en, _ = rt.render_checked(program.rule, cset, "en", sp)
                assert text != en, (sp.key, field, lang, text)


# Rules for the node types no card of base/alpine/woodland_edge uses yet.
EXTRA = [
    ("score", "1 per bird attached"),
    ("score", "2 per card at host"),
    ("score", "1 per card atop beech"),
    ("score", "3 if count bird at host >= 2"),
    ("score", "2 per distinct symbols at host"),
    ("score", "4 if distinct symbols at host >= 3"),
    ("score", "2 per tree without mushroom below"),
    ("score", "5 if count tree without mushroom below >= 2"),
    ("score", "5 if count full tree > 1"),
    ("score", "3 if most distinct bird species else 1"),
    ("score", "6 if alone except bat"),
    ("score", "8 if full"),
    ("score", "10 if host full"),
    ("score", "5 if only species at host"),
    ("score", "4 if host has 2 bat"),
    ("score", "1 per not tree"),
    ("score", "1 per bird and other"),
    ("score", "1 per bird and symbol(oak)"),
    ("score", "2 if count bird <= 3"),
    ("score", "2 if count bird < 3"),
    ("score", "2 if count bird == 3"),
    ("score", "table [1, 2] by bird"),
    ("effect", "draw 2 and put 1 in cave"),
    ("effect", "rummage bird reveal 3"),
    ("effect", "rummage plant"),
    ("effect", "play 1 as sapling"),
    ("effect", "move 1 per bird from deck to cave"),
    ("effect", "move up to 2 bird from hand to clearing"),
    ("effect", "move all from cave to hand"),
    ("effect", "move 1 from clearing to deck"),
    ("effect", "free play bat using its effect"),
    ("effect", "take up to 2 bird or plant from clearing"),
    ("trigger", "whenever you place bird: draw 1"),
    ("placement", "only on shrub"),
    ("placement", "only joining bird; at most 1 per host; not on tree"),
    ("placement", "bottom holds up to 4 insect only"),
    ("placement", "lets any number of bat share any slot at host"),
    ("placement", "lets any number of bat join any slot at host"),
    ("placement", "lets up to 2 bat join top at host"),
    ("placement", "share slot with 2 bat"),
    ("modifier", "double points of plant below"),
]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("field,source", EXTRA)
def test_other_node_types_render(classic, lang, field, source):
    rule = parse_rule(field, source)
    for sp in (None, classic.species["base:oak"], classic.species["base:chaffinch"]):
        text, misses = rt.render_checked(rule, classic, lang, sp)
        _assert_clean(text, misses, f"{source!r} [{lang}]")


def test_extra_rules_cover_every_node_type(classic):
    used: set[str] = set()
    for sp in classic.species.values():
        for field in rt.FIELDS:
            program = getattr(sp, field)
            if program is not None:
                used |= _node_types(program.rule, set())
    for field, source in EXTRA:
        used |= _node_types(parse_rule(field, source), set())
    every = {n for n, v in vars(ast).items() if isinstance(v, type) and dataclasses.is_dataclass(v)
             and v.__module__ == ast.__name__}
    assert every - used == set()


def test_missing_phrase_and_lexicon_are_reported(classic):
    rule = parse_rule("score", "1 per no_such_name")
    _, misses = rt.render_checked(rule, classic, "de")
    assert misses == ["name no_such_name resolves to nothing"]
    rule = parse_rule("placement", "only on shrub; bottom holds up to 2 bird only")
    r = rt.Renderer(_without_article(classic, "shrub", "de"), "de")
    assert "Darf nur an Strauch angelegt werden" in r.rule(rule)
    assert "article class of shrub" in r.misses
    assert r.gaps[0].noun == "type symbol 'shrub'"
    assert Path(r.gaps[0].decl.file).parts[-2:] == ("woodland_edge", "edition.yaml")


def _without_article(cset: cs.CardSet, symbol_id: str, lang: str) -> cs.CardSet:
    """The card set with one type symbol's article class in one language left out."""
    def strip(sym):
        if sym.id != symbol_id or sym.kind != "type":
            return sym
        article = {k: v for k, v in sym.article.items() if k != lang}
        return dataclasses.replace(sym, article=article)
    return dataclasses.replace(cset, symbols=tuple(strip(s) for s in cset.symbols))


# ---- (b) reviewed golden texts ------------------------------------------------------------
GOLDEN_SETS = {  # golden file stem -> the card set its cards are rendered in
    "rules_text": ("base", ("alpine", "woodland_edge")),
    "rules_text_dartmoor": ("dartmoor", ()),
    "rules_text_smoky_mountains": ("smoky_mountains", ()),
}


def _golden(stem: str, lang: str) -> dict:
    return YAML(typ="safe").load((GOLDEN / f"{stem}_{lang}.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("stem", GOLDEN_SETS)
def test_golden(stem, lang):
    cset = _built(GOLDEN_SETS[stem])
    expected = _golden(stem, lang)
    assert len(expected) >= (20 if stem == "rules_text" else 10)
    for key, fields in expected.items():
        assert rt.card_text(cset.species[key], cset, lang) == fields, key


@pytest.mark.parametrize("lang,expected", [
    ("en", "2 points per European Hare"),
    ("de", "2 Punkte pro Feldhase"),
    ("it", "2 punti per ogni Lepre"),
    ("th", "2 คะแนนต่อกระต่ายป่ายุโรปแต่ละตัว"),
])
def test_issue_example(classic, lang, expected):
    assert rt.render(parse_rule("score", "2 per european_hare"), "score", classic, lang) == expected


def test_issue_wordings(classic):
    sp = classic.species
    assert rt.card_text(sp["base:chaffinch"], classic, "en")["score"] == \
        "5 points if it sits atop a Beech"
    assert rt.card_text(sp["base:oak"], classic, "en")["score"] == \
        "10 points if you have at least 8 different tree species"
    assert rt.card_text(sp["base:brown_bear"], classic, "en")["bonus"] == \
        "Draw 1 card, then take another turn"
    assert rt.card_text(sp["base:chanterelle"], classic, "en")["trigger"] == \
        "From your next turn on, whenever you play a tree, you may draw 1 card"


# ---- (c) plural forms from CLDR -------------------------------------------------------------
PLURALS = {
    "en": ("1 point", "2 points", "Draw 1 card", "Draw 2 cards", "1 point per bird"),
    "de": ("1 Punkt", "2 Punkte", "Ziehe 1 Karte", "Ziehe 2 Karten", "1 Punkt pro Vogel"),
    "it": ("1 punto", "2 punti", "Pesca 1 carta", "Pesca 2 carte", "1 punto per ogni uccello"),
    "th": ("1 คะแนน", "2 คะแนน", "จั่วการ์ด 1 ใบ", "จั่วการ์ด 2 ใบ", "1 คะแนนต่อนกแต่ละตัว"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_plural_one_and_two(classic, lang):
    one, two, draw1, draw2, per1 = PLURALS[lang]
    r = lambda f, s: rt.render(parse_rule(f, s), f, classic, lang)  # noqa: E731
    assert r("score", "1") == one
    assert r("score", "2") == two
    assert r("effect", "draw 1") == draw1
    assert r("effect", "draw 2") == draw2
    assert r("score", "1 per bird") == per1


@pytest.mark.parametrize("lang,one,two", [
    ("en", "if you have at least 1 bird", "if you have at least 2 birds"),
    ("de", "wenn du mindestens 1 Vogel hast", "wenn du mindestens 2 Vögel hast"),
    ("it", "se hai almeno 1 uccello", "se hai almeno 2 uccelli"),
    ("th", "ถ้าคุณมีนกอย่างน้อย 1 ตัว", "ถ้าคุณมีนกอย่างน้อย 2 ตัว"),
])
def test_plural_of_data_names(classic, lang, one, two):
    r = lambda s: rt.render(parse_rule("score", s), "score", classic, lang)  # noqa: E731
    assert one in r("5 if count bird >= 1")
    assert two in r("5 if count bird >= 2")


def test_plural_index_follows_babel():
    for lang in LANGS:
        cat = rt.load_catalog(lang)
        rule = Locale.parse(lang).plural_form
        assert cat.plural_rule is rule or cat.plural_rule.rules == rule.rules
        assert len(cat.order) == max(1, len(rule.tags) + 1)
    assert rt.load_catalog("th").single_form
    assert rt.load_catalog("it").form_index(1_000_000) == 1  # CLDR "many"


# ---- the CLI ------------------------------------------------------------------------------
def test_cli_cards_lang_prints_text():
    r = CliRunner().invoke(main, ["cards", "base", "--lang", "de"], catch_exceptions=False)
    assert r.exit_code == 0
    assert "Feldhase [base:european_hare]" in r.output
    assert "Punkte: 1 Punkt pro Hase" in r.output
    r = CliRunner().invoke(main, ["cards", "base"], catch_exceptions=False)
    assert "score: 1 per hare" in r.output


# ---- (d) missing translations as lint findings (TEXT-MISSING-TRANSLATION) -------------------
REPO = Path(__file__).resolve().parent.parent
TEXT_CASE = CORPUS / "text_missing_classifier" / "edition"


def test_shipped_editions_have_no_text_findings():
    assert text_lint.lint(search_path(), load_universe().editions) == []


def test_edition_lacking_a_thai_classifier_gives_exactly_that_warning(monkeypatch):
    monkeypatch.chdir(REPO)
    diags = api.lint([str(TEXT_CASE.relative_to(REPO))])
    assert [(d.code, str(d.severity), Path(d.span.file).name, d.span.line, d.span.col)
            for d in diags] == [("TEXT-MISSING-TRANSLATION", "warning", "species.yaml", 18, 12)]
    assert diags[0].message == ("missing th translation: no classifier for 'test_lichen' "
                                "(needed by corpus_text_gap:test_fern.score)")
    assert diags[0].hint == ("add 'th: <classifier>' to 'classifier' of species 'test_lichen' in "
                             f"{TEXT_CASE.relative_to(REPO)}/species.yaml (line 19)")


def test_text_warning_fails_only_strict_lint(monkeypatch):
    monkeypatch.chdir(REPO)
    target = str(TEXT_CASE.relative_to(REPO))
    plain = CliRunner().invoke(main, ["lint", target])
    strict = CliRunner().invoke(main, ["lint", target, "--strict"])
    assert plain.exit_code == 0 and strict.exit_code == 1
    assert "Traceback" not in plain.output + strict.output
    assert "TEXT-MISSING-TRANSLATION" in strict.output


def test_missing_lexicon_entry_points_at_the_first_card_that_needs_it():
    cset = _without_article(_built(("dartmoor", ())), "moor", "de")
    found = text_lint.diagnostics(rt.translation_findings(cset, ["de"]))
    assert len(found) == 1
    d = found[0]
    assert d.message.startswith("missing de translation: no article class (grammatical gender) "
                                "for 'moor' (needed by dartmoor:")
    assert Path(d.span.file).name != "edition.yaml"  # a card, not the symbol's declaration
    assert d.hint.startswith("add 'de: <f|m|n>' to 'article' of type symbol 'moor' in ")
    assert "cards/dartmoor/edition.yaml (line " in d.hint and "catalogs" not in d.hint


def test_missing_phrase_is_a_catalog_finding():
    cset = _built(("dartmoor", ()))
    try:
        rt.load_catalog("it").phrases.pop("cond.host_is")
        found = rt.translation_findings(cset, ["it"])
    finally:
        rt.load_catalog.cache_clear()
    assert {str(f.gap) for f in found} == {"phrase 'cond.host_is' is missing",
                                           "phrase cond.host_is"}
    diags = text_lint.diagnostics(found)
    assert all('msgctxt "cond.host_is"' in d.hint for d in diags)


def test_a_node_without_a_phrase_is_a_finding_not_a_crash(monkeypatch):
    @dataclasses.dataclass(frozen=True)
    class Teleport:  # a DSL node the printouts have never heard of
        pass

    cset = _built(("dartmoor", ()))
    tor = cset.species["dartmoor:tor"]
    rule = ast.EffectRule((Teleport(),))
    monkeypatch.setattr(rt, "_rules_of", lambda sp: {"effect": rule} if sp is tor else {})
    found = rt.translation_findings(cset, ["en"])
    assert [(str(f.gap), f.where) for f in found] == [
        ("no phrase for DSL node Teleport", "dartmoor:tor.effect")]
