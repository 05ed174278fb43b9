"""Forest files as players write them: a list under a side's name fills that side's slots.

A moor, a river and a tree with a river have two numbered slots on a side; players write what
lies there as `bottom: [a, b]`, as the cards lie, so the reader must take that (and give the same
scores as the numbered form), refuse what cannot fit with a diagnostic at the key, and records
must write the same shorthand while still replaying records written with numbered slots.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from grove import api
from grove.compiler import cardset as cs
from grove.dsl.diagnostics import DiagnosticError
from grove.engine import record as rec
from grove.engine import runner


def score(tmp_path: Path, text: str) -> dict:
    path = tmp_path / "forest.yaml"
    path.write_text(text, encoding="utf-8")
    return api.score_file(str(path))


def codes(tmp_path: Path, text: str) -> list[tuple[int, int, str]]:
    with pytest.raises(DiagnosticError) as exc:
        score(tmp_path, text)
    return [(d.span.line, d.span.col, d.code) for d in exc.value.diagnostics if d.span]


SMOKY = """edition: smoky_mountains
players:
  - name: Ana
    forest:
      - tree: hickory
        river: true
        {tree_bottom}
      - universal_river: true
        {river_bottom}
"""
MOOR = """edition: dartmoor
players:
  - name: Ana
    forest:
      - moor: valley_mire
        symbol: goat_willow
        {top}
        bottom_1: water_soldiers
"""


@pytest.mark.parametrize(("short", "explicit"), [
    (SMOKY.format(tree_bottom="bottom: [smallmouth_bass, yellow_perch]",
                  river_bottom="bottom: [brook_trout]"),
     SMOKY.format(tree_bottom="bottom_1: smallmouth_bass\n        bottom_2: yellow_perch",
                  river_bottom="bottom_1: brook_trout")),
    (MOOR.format(top="top: [grey_heron]"), MOOR.format(top="top_1: grey_heron")),
    (MOOR.format(top="top: grey_heron"), MOOR.format(top="top_1: grey_heron")),
    (MOOR.format(top="top: [[emerald_damselfly, southern_damselfly], grey_heron]"),
     MOOR.format(top="top_1: [emerald_damselfly, southern_damselfly]\n        top_2: grey_heron")),
])
def test_a_side_list_scores_as_its_numbered_slots(tmp_path, short, explicit):
    got = score(tmp_path, short)
    want = score(tmp_path, explicit)
    assert got == want
    assert {c["slot"] for c in got["players"][0]["cards"]} - {"tree", "moor", "tree_with_river",
                                                             "beneath", "universal_river"} <= {
        "top_1", "top_2", "bottom_1", "bottom_2"}


@pytest.mark.parametrize(("top", "where"), [
    ("top: [curlew, emerald_damselfly, southern_damselfly]", (7, 9)),  # three for two slots
    ("top: [curlew]\n        top_1: grey_heron", (8, 9)),  # top_1 twice
])
def test_a_side_list_that_does_not_fit(tmp_path, top, where):
    assert codes(tmp_path, MOOR.format(top=top)) == [(*where, "FOREST-SIDE-LIST")]


def test_nested_list_under_one_slot_and_unknown_side(tmp_path):
    text = """edition: base
players:
  - name: Ana
    forest:
      - tree: oak
        left: [[european_hare, european_hare]]
        middle: red_fox
"""
    assert codes(tmp_path, text) == [(6, 9, "FOREST-SIDE-LIST"), (7, 9, "FOREST-UNKNOWN-SLOT")]


def test_placement_diagnostics_point_at_the_list_item(tmp_path):
    text = SMOKY.format(tree_bottom="bottom: [smallmouth_bass, flying_squirrel]",
                        river_bottom="bottom: [brook_trout]")
    assert codes(tmp_path, text) == [(7, 35, "FOREST-WRONG-SIDE")]  # flying_squirrel: top only


@pytest.mark.parametrize(("edition", "seed"), [("dartmoor", 4), ("smoky_mountains", 5)])
def test_records_write_the_shorthand_and_old_records_replay(tmp_path, edition, seed):
    cset = cs.build(edition)
    out = io.StringIO()
    runner.play(cset, ["greedy", "random", "greedy"], seed, record=out)
    lines = out.getvalue().splitlines()
    end = json.loads(lines[-1])
    entries = [e for p in end["forest"]["players"] for e in p["forest"]]
    two_slot_sides = [e for e in entries if "tree" not in e or e.get("river") is True]
    assert any(side in e for e in two_slot_sides for side in ("top", "bottom")), (
        "no side list in the final forests: pick another seed")
    for e in entries:  # a numbered id only where a list cannot say it: bottom_2 after a gap
        numbered = [k for k in e if k.endswith(("_1", "_2")) and k[:-2] in ("top", "bottom")]
        assert all(k.endswith("_2") and k[:-2] not in e for k in numbered), e
    path = tmp_path / "game.jsonl"
    path.write_text(out.getvalue(), encoding="utf-8")
    assert runner.replay(cset, rec.read(path))[1] == []
    assert [p["total"] for p in api.score_file(str(path))["players"]] == [
        s["total"] for s in end["scores"]]
    # the same game as a record from before the shorthand: numbered slot ids in the end line
    game, _ = runner.replay(cset, rec.read(path))
    end["forest"] = runner.end_line(game, runner.final_scores(game), False)["forest"]
    assert end["forest"] != json.loads(lines[-1])["forest"]
    old = tmp_path / "old.jsonl"
    old.write_text("\n".join([*lines[:-1], json.dumps(end)]) + "\n", encoding="utf-8")
    assert runner.replay(cset, rec.read(old))[1] == []
