"""A third edition that lives only under tests/ scores with no engine change.

It brings a host kind no shipped edition has (a pond with three water slots, one taking two
cards), its own type and tree symbols and scorepad rows: if any of that were written into the
engine, this edition could not load, be checked, or score.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from grove import api, forest_file
from grove.compiler.search_path import search_path
from grove.dsl.diagnostics import DiagnosticError
from grove.engine import placement, scoring

MEADOW = Path(__file__).parent / "editions"


@pytest.fixture(scope="module")
def roots():
    return search_path([MEADOW])


def _forest(tmp_path, body: str) -> Path:
    f = tmp_path / "forest.yaml"
    f.write_text("edition: meadow\nplayers:\n" + body)
    return f


def test_meadow_lints_clean():
    assert [d for d in api.lint([str(MEADOW / "meadow")]) if d.severity != "info"] == []


def test_meadow_scores(tmp_path, roots):
    f = MEADOW / "forests" / "meadow.yaml"
    ff = forest_file.read(f, roots)
    assert placement.check_forests(ff.cardset, list(ff.forests), list(ff.positions)) == []
    ana, ben = scoring.score_forests(ff.cardset, list(ff.forests))
    # pond: 2 per frog (heron, 2 reed frogs, dragonet are frogs) = 8; heron: no reed at its pond = 0
    # reed frogs share a slot: 3 each; willow: 2 attached; dragonet: 1 pond; bulrush: 1 plant x2
    assert ana.by_category == {"trees": 2, "ponds": 8, "top": 1, "bottom": 8, "cave": 2}
    assert ana.total == 21 and ben.total == 0


def test_meadow_rejects_dry_card_in_pond(tmp_path, roots):
    f = _forest(tmp_path, """\
  - name: Ana
    forest:
      - pond: lily_pond
        north: dragonet
""")
    ff = forest_file.read(f, roots)
    found = placement.check_forests(ff.cardset, list(ff.forests), list(ff.positions))
    assert [d.code for d in found] == ["FOREST-WATER"]
    assert "Ana, host 1 (lily_pond), slot north" in found[0].message


def test_meadow_rejects_water_card_on_tree(tmp_path, roots):
    f = _forest(tmp_path, """\
  - name: Ana
    forest:
      - tree: willow
        bottom: reed_frog
""")
    ff = forest_file.read(f, roots)
    assert [d.code for d in placement.check_forests(ff.cardset, list(ff.forests), list(ff.positions))] == [
        "FOREST-WATER"]


def test_meadow_only_on_pond(tmp_path, roots):
    f = _forest(tmp_path, """\
  - name: Ana
    forest:
      - tree: willow
        top: heron
""")
    ff = forest_file.read(f, roots)
    codes = [d.code for d in placement.check_forests(ff.cardset, list(ff.forests), list(ff.positions))]
    assert "FOREST-WATER" in codes or "FOREST-PLACEMENT" in codes


def test_meadow_unknown_to_shipped_roots(tmp_path):
    f = _forest(tmp_path, "  - name: Ana\n    forest: []\n")
    with pytest.raises(DiagnosticError) as exc:
        forest_file.read(f)
    assert exc.value.diagnostics[0].code == "FOREST-EDITION"
