"""Dartmoor and Smoky Mountains: deck composition, drafted caves, and no edition in the code."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from grove import api
from grove.compiler import cardset as cs
from grove.dsl.diagnostics import DiagnosticError
from grove.engine.game import Game
from grove.engine.players import RandomPlayer

ROOT = Path(__file__).resolve().parents[1]


def _kinds(cset):
    out: Counter = Counter()
    for card in cset.deck:
        if len(card.halves) == 1:
            out[cset.species[card.halves[0][0]].kind] += 1
        else:
            out["/".join(h[1] for h in card.halves)] += 1
    return out


def test_dartmoor_components():
    d = cs.build("dartmoor")
    assert _kinds(d) == {"tree": 36, "shrub": 8, "moor": 27, "top/bottom": 56, "left/right": 45}
    assert len(d.deck) + d.setup.winter_cards + d.setup.caves == 180
    per_kind = Counter(s.kind for s in d.species.values())
    assert per_kind == {"tree": 6, "shrub": 2, "moor": 9, "dweller": 49, "cave": 5}
    assert sum(1 for s in d.species.values() if s.kind != "cave") == 66


def test_smoky_components():
    s = cs.build("smoky_mountains")
    assert _kinds(s) == {"tree": 56, "river": 9, "top/bottom": 58, "left/right": 49}
    assert len(s.deck) + s.setup.winter_cards + s.setup.caves == 180
    assert len(s.species) == 67


@pytest.mark.parametrize(("edition", "ref"), [("dartmoor", "dartmoor_species.json"),
                                              ("smoky_mountains", "smoky_species.json")])
def test_copies_per_species_match_reference(edition, ref):
    path = ROOT.parent / "shared" / "reference" / "data" / ref
    if not path.is_file():
        pytest.skip("reference data is not laid beside the clone")
    data = json.loads(path.read_text())
    rows = data if isinstance(data, list) else data.get("species", [])
    expected = {}
    for r in rows:
        name = r.get("name") or r.get("en")
        n = r.get("count") or r.get("copies")
        if name and n:
            sid = re.sub(r"[^a-z0-9]+", "_", re.sub(r"['’]", "", name.lower())).strip("_")
            expected[sid] = int(n)
    got = {s.id: s.copies for s in cs.build(edition).species.values() if s.kind != "cave"}
    matched = {k: got[k] for k in expected if k in got}
    assert len(matched) >= 0.9 * len(got), "species ids no longer line up with the reference"
    assert matched == {k: expected[k] for k in matched}


def _forest(tmp_path, players):
    f = tmp_path / "f.json"
    f.write_text(json.dumps({"edition": "dartmoor", "players": players}))
    return str(f)


def test_cave_card_scores_in_cave_row(tmp_path):
    res = api.score_file(_forest(tmp_path, [
        {"name": "Ana", "cave": 2, "cave_card": "cave_4", "forest": [{"tree": "moor_birch"}]},
        {"name": "Ben", "cave_card": "cave_5",
         "forest": [{"moor": "wet_woodland"}, {"universal_moor": True}]},
    ]))
    ana, ben = res["players"]
    assert ana["by_category"]["cave"] == 2 + 5
    assert ben["by_category"]["cave"] == 2  # 1 per moor, two moors (one universal)


def test_cave_card_must_be_a_cave_and_unique(tmp_path):
    with pytest.raises(DiagnosticError) as exc:
        api.score_file(_forest(tmp_path, [{"name": "A", "cave_card": "cave_9", "forest": []}]))
    assert exc.value.diagnostics[0].code == "FOREST-UNKNOWN-CARD"
    with pytest.raises(DiagnosticError) as exc:
        api.score_file(_forest(tmp_path, [{"name": "A", "cave_card": "cave_1", "forest": []},
                                          {"name": "B", "cave_card": "cave_1", "forest": []}]))
    assert exc.value.diagnostics[0].code == "FOREST-COPIES"


def test_caves_are_drafted_in_reverse_turn_order_and_resolved():
    d = cs.build("dartmoor")
    game = Game(d, ["A", "B", "C"], 5)
    seen = []
    while game.decision is not None and game.decision.kind == "cave":
        seen.append(game.decision.player)
        opts = game.legal_actions()
        assert len(opts) == 3 - len(seen) + 1
        pick = "cave cave_3" if "cave cave_3" in opts else opts[0]
        game.apply(pick)
    rnd = RandomPlayer(0)
    while game.decision is not None and game.decision.kind != "turn":
        game.apply(rnd.choose(game.seats[game.decision.player], game.decision))
    assert seen == [2, 1, 0]
    cards = [p.cave_card.id for p in game.players]
    assert len(set(cards)) == 3
    holder = next((p for p in game.players if p.cave_card.id == "cave_3"), None)
    if holder is not None:  # drew 3 and put 3 into the clearing
        assert len(holder.hand) == 6
        assert len(game.clearing) >= 3


def test_no_edition_or_card_named_in_code():
    names = set()
    for cset in (cs.build("dartmoor"), cs.build("smoky_mountains")):
        names |= {s.id for s in cset.species.values()}
        names |= {h for h in cset.hosts if h not in ("tree", "shrub")}
        names |= {e.id for e in cset.editions}
    # words of the forest-file format itself (DESIGN: `river: true` under a tree) are not names
    schema = json.loads((ROOT / "grove" / "schema" / "forest.schema.json").read_text())
    names -= set(schema["$defs"]["host"]["properties"])
    pattern = re.compile(r"[\"']([a-z_]+)[\"']")
    for folder in ("compiler", "dsl", "engine"):
        for py in (ROOT / folder).glob("*.py"):
            literals = set(pattern.findall(py.read_text()))
            assert not literals & names, f"{py.name} names {sorted(literals & names)}"
