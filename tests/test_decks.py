"""Deck composition of the classic box against the reference, card for card."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from grove.compiler import cardset as cs
from grove.compiler.search_path import shipped_cards_dir

# a copy of the reference's per-species tree-symbol counts (facts, not code), kept with the tests
REFERENCE = Path(__file__).parent / "fixtures"

_SLOT = {"T": "top", "B": "bottom", "L": "left", "R": "right", "tree": None}
_BOX = {"basic": "base", "alpine": "alpine", "edge": "woodland_edge"}


def _snake(name: str) -> str:
    name = re.sub(r"\s*\(.*\)", "", name)
    return re.sub(r"[^a-z0-9]+", "_", name.lower().replace("'", "")).strip("_")


def _edition_deck(classic, edition: str):
    return [c for c in classic.deck if c.halves and c.halves[0][0].startswith(edition + ":")]


@pytest.mark.parametrize(
    ("edition", "total", "by_kind"),
    [
        ("base", 158, {"single": 66, "top/bottom": 48, "left/right": 44}),
        ("alpine", 36, {"single": 14, "top/bottom": 12, "left/right": 10}),
        ("woodland_edge", 36, {"single": 12, "top/bottom": 12, "left/right": 12}),
    ],
)
def test_deck_totals(classic, edition, total, by_kind):
    deck = _edition_deck(classic, edition)
    assert len(deck) == total
    kinds = Counter(
        "single" if len(c.halves) == 1 else "/".join(h[1] for h in c.halves) for c in deck
    )
    assert dict(kinds) == by_kind


def test_base_has_three_winter_cards(base):
    assert base.setup.winter_cards == 3


def test_species_counts(classic):
    per = Counter(s.edition for s in classic.species.values())
    assert per == {"base": 57, "alpine": 17, "woodland_edge": 19}


def test_symbol_distribution_matches_reference(classic):
    ref = json.loads((REFERENCE / "bga_symbol_distribution.json").read_text())
    expected: Counter = Counter()
    for key, symbols in ref.items():
        box, name, slot = key.split("|")
        ed = _BOX[box]
        sp = _snake(name)
        if sp == "wild_boar" and ed == "woodland_edge":
            sp = "female_wild_boar"
        if sp == "steinbock":
            sp = "steinbock"
        for sym, n in symbols.items():
            expected[(f"{ed}:{sp}", _SLOT[slot], _snake(sym))] += n
    got: Counter = Counter()
    for card in classic.deck:
        for key, side, sym in card.halves:
            got[(key, side, sym)] += 1
    assert got == expected


def test_every_species_names_four_languages(classic):
    for s in classic.species.values():
        for lang in ("en", "de", "it", "th"):
            assert s.names.get(lang), (s.key, lang)
    for sym in classic.symbols:
        for lang in ("en", "de", "it", "th"):
            assert sym.names.get(lang), (sym.id, lang)


def test_copies_equal_deck_halves(classic):
    halves = Counter(key for card in classic.deck for key, _, _ in card.halves)
    for s in classic.species.values():
        assert halves[s.key] == s.copies, s.key


def test_card_files_declare_their_schema():
    for path in sorted(shipped_cards_dir().glob("*/*.yaml")):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        kind = {"edition.yaml": "edition", "deck.yaml": "deck"}.get(path.name, "cardset")
        assert first == f"# yaml-language-server: $schema=../../schema/{kind}.schema.json", path


@pytest.mark.parametrize(("expansions", "counts"), [
    ((), [30, 20, 10, 0]),
    (("alpine",), [55, 40, 25, 10]),
    (("woodland_edge",), [55, 40, 25, 10]),
    (("alpine", "woodland_edge"), [90, 60, 45, 30]),
])
def test_removal_table(expansions, counts):
    """Each combination's row comes from the editions in play: the expansions carry theirs."""
    s = cs.build("base", expansions).setup
    assert [s.removed_for(frozenset(expansions), n) for n in (2, 3, 4, 5)] == counts
