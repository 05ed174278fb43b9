"""The overviews' words (issue 44, grove/printouts/glossary.yaml): every text a player reads in a
language (the sheets, the card texts, the terminal, `grove print`, the game log, and the names in
the card data) uses the glossary's term, never a word it lists to avoid, and the terms taken
from an overview are the overview's own words."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from grove.printouts import glossary
from grove.printouts.phrases import CATALOG_DIR

LANGS = ("en", "de", "it", "th")
SEEDS = Path("/work/shared/seeds")
CARDS = Path(__file__).parents[1] / "grove" / "cards"
SEED_FILES = {"000": "000_", "001": "001_", "002": "002_", "003": "003_", "004": "004_"}


def _catalog_texts(lang: str) -> list[tuple[str, str]]:
    """(where, text) for every translated text of every catalog of the language."""
    out = []
    for path in sorted((CATALOG_DIR / lang / "LC_MESSAGES").glob("*.po")):
        with open(path, "rb") as fh:
            cat = read_po(fh, locale=lang)
        for msg in cat:
            if not msg.id:
                continue
            strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
            out += [(f"{path.name} {msg.context or ''} {msg.id!r}", s) for s in strings if s]
    return out


def _card_texts(lang: str) -> list[tuple[str, str]]:
    """(where, line) for every line of the card data that names something in the language."""
    return [(f"{p.relative_to(CARDS)}:{i}", line)
            for p in sorted(CARDS.glob("*/*.yaml"))
            for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
            if f"{lang}:" in line]


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_uses_the_glossary_term(lang):
    found = [(where, key, word) for where, text in _catalog_texts(lang) + _card_texts(lang)
             for key, word in glossary.avoided_in(text, lang)]
    assert found == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_glossary_holds_every_term_in_every_language(lang):
    assert set(glossary.glossary(lang)) == set(glossary.glossary("en"))


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the rules overviews are not on this machine")
@pytest.mark.parametrize("lang", LANGS)
def test_a_term_taken_from_an_overview_is_in_that_overview(lang):
    """The word an entry says it took from an overview appears there (case aside), so the
    glossary cannot drift from its sources."""
    missing = []
    for t in glossary.glossary(lang).values():
        if t.source == "none":
            continue
        seed = next(SEEDS.glob(SEED_FILES[t.source] + "*.txt"))
        text = seed.read_text(encoding="utf-8").lower()
        words = [t.quote or t.use]
        missing += [(t.key, w) for w in words if w.lower() not in text]
    assert missing == []


@pytest.mark.parametrize("edition", ["base", "dartmoor", "smoky_mountains"])
@pytest.mark.parametrize("lang", LANGS)
def test_edition_title_is_the_glossary_title(edition, lang):
    from grove.compiler import cardset as cs

    title = cs.build(edition, ()).root.names[lang]
    assert title.startswith(glossary.term(lang, "title"))


def test_an_edition_may_use_its_own_word():
    assert glossary.term("de", "tree_symbol") == "Baumsymbol"
    assert glossary.term("de", "tree_symbol", "dartmoor") == "Blattsymbol"


def test_dartmoor_says_blattsymbol_where_the_others_say_baumsymbol():
    """The Dartmoor overview's „Blattsymbol" on its sheet and its cards; the shared catalogs
    keep „Baumsymbol" for the base game and Smoky Mountains, whose overview says so."""
    from grove.compiler import cardset as cs
    from grove.printouts import rules_text as rt
    from grove.printouts.sheets.content import build_sheet
    from grove.printouts.sheets.templates import render_sheet

    dartmoor, base = cs.build("dartmoor", ()), cs.build("base", ())
    sheet = render_sheet(build_sheet(dartmoor, "de"))
    assert "Blattsymbol" in sheet and "Baumsymbol" not in sheet
    assert "Baumsymbol" in render_sheet(build_sheet(base, "de"))
    assert rt.card_text(dartmoor.species["dartmoor:roe_deer"], dartmoor, "de")["score"] == \
        "3 Punkte pro Karte mit demselben Blattsymbol wie diese Karte"
