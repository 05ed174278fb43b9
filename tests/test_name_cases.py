"""A name in a language's grammatical cases (issue 44, the third reading): the German overview
(seed 000) says „universeller Fluss", declined „als universellen Fluss"; grove said
„Universalfluss", a word chosen because it reads in every case. The edition data gives the
forms (`cases:`, `beneath_cases:`), a sentence asks for the one it needs (`%(host_acc)s`,
`{host_acc}`), and a name without forms answers every case with itself."""

from __future__ import annotations

import dataclasses
import re
from types import MappingProxyType

import pytest

from grove.card_words import CardWords
from grove.compiler import cardset as cs
from grove.printouts import case_lint, cases
from grove.printouts import rules_text as rt
from grove.printouts.sheets.content import build_sheet
from grove.printouts.sheets.templates import render_sheet


@pytest.fixture(scope="module")
def smoky():
    return cs.build("smoky_mountains", ())


def test_a_card_says_the_overviews_word_in_the_accusative(smoky):
    heron = rt.card_text(smoky.species["smoky_mountains:great_blue_heron"], smoky, "de")
    assert heron["bonus"] == "Spiele 1 Karte verdeckt aus deiner Hand als universellen Fluss"


def test_the_sheet_says_it_in_every_case_and_never_universalfluss(smoky):
    text = re.sub(r"\s+", " ", render_sheet(build_sheet(smoky, "de")))
    assert "Universalfluss" not in text and "Universalflüsse" not in text
    assert ("Spielst du einen Baum aus, darfst du eine weitere Karte aus deiner Hand verdeckt "
            "als universellen Fluss darunterlegen; sie zählt als Fluss.") in text
    assert "<b>Universeller Fluss</b>:" in text  # a list item starts with a capital
    assert "Bäume, Flüsse und universelle Flüsse" in text


def test_the_screen_and_the_log_ask_for_the_accusative(smoky):
    words = CardWords(smoky, "de")
    river = words.host_name("universal_river")
    assert words.words("do.face_down", card="Köcherfliege", host=river) == \
        "Köcherfliege verdeckt als universellen Fluss spielen"
    assert words.words("do.host", card="Gelb-Birke", host=words.host_name("tree")) == \
        "Gelb-Birke als neuen Baum spielen"
    assert CardWords(smoky, "en").words("do.face_down", card="x", host=river) == \
        "play x face down as a universeller Fluss"  # English asks for no case: the name


def test_a_name_without_forms_answers_every_case_with_itself(smoky):
    """An author's set without `cases:` renders as before: `%(host_acc)s` is the name."""
    plain = dataclasses.replace(smoky.hosts["universal_river"], cases=MappingProxyType({}))
    r = rt.Renderer(smoky, "de")
    assert r.host_np(plain).forms(1) == "universeller Fluss"
    assert r.t("action.play_as", 1, amount="1 Karte", host=r.host_np(plain).forms(1),
               host_a="") == "spiele 1 Karte verdeckt aus deiner Hand als universeller Fluss"
    assert cases.with_cases({"host": "Baum"})["host_dat"] == "Baum"
    assert cases.declined("Baum", None) == "Baum" and not isinstance(
        cases.declined("Baum", {}), cases.Declined)


def test_lint_finds_forms_no_sentence_prints(smoky):
    edition = smoky.editions[0]
    assert case_lint.findings([edition]) == []  # the shipped forms are all asked for
    river = next(h for h in edition.hosts if h.id == "universal_river")
    odd = dataclasses.replace(river, cases=MappingProxyType({
        "nl": MappingProxyType({"acc": "x"}), "it": MappingProxyType({"dat": "y"})}))
    found = case_lint.findings([dataclasses.replace(edition, hosts=(odd,))])
    assert [(d.code, str(d.severity)) for d in found] == [
        ("TEXT-CASE-NO-NAME", "warning"), ("TEXT-CASE-UNUSED", "info")]
    assert "'names' has no nl name" in found[0].message
    assert "no it sentence asks for the dat form" in found[1].message
