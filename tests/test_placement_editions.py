"""Placement rules of Dartmoor and Smoky Mountains: every illegal forest is refused.

Each test writes a forest file that breaks one rule (rules.md §4.5, §5.4 and the cards'
`placement` fields) and checks that ``grove.api.score_file`` raises ``DiagnosticError`` with the
right code, and that the message names the player, the host (its number and kind) and the slot.
Legal counterparts are scored to show the rule does not over-reject.
"""

from __future__ import annotations

import json
from itertools import count

import pytest

from grove import api
from grove.dsl.diagnostics import DiagnosticError

_ids = count()


def P(name, forest, cave=0):  # noqa: N802
    return {"name": name, "cave": cave, "forest": forest}


def _write(tmp_path, edition, players):
    doc = {"edition": edition, "with": [], "players": list(players)}
    path = tmp_path / f"{edition}_{next(_ids)}.json"
    path.write_text(json.dumps(doc, indent=1))
    return path


def score(tmp_path, edition, *players):
    return api.score_file(str(_write(tmp_path, edition, players)))


def rejects(tmp_path, edition, forest, code, host, kind, slot, name="Ana"):
    """Score an illegal one-player forest; return the diagnostic with `code`."""
    path = _write(tmp_path, edition, [P(name, forest)])
    with pytest.raises(DiagnosticError) as exc:
        api.score_file(str(path))
    diags = exc.value.diagnostics
    found = [d for d in diags if d.code == code]
    assert found, f"expected {code}, got {[(d.code, d.message) for d in diags]}"
    d = found[0]
    assert name in d.message
    assert f"host {host} ({kind})" in d.message
    assert f"slot {slot}" in d.message
    return d


def total(res, name=None):
    ps = res["players"]
    return (ps[0] if name is None else next(p for p in ps if p["name"] == name))["total"]


DM, SM = "dartmoor", "smoky_mountains"


# ---------------------------------------------------------------------------------------------
# Smoky Mountains: water requirement
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("slot,card", [
    ("bottom", "brook_trout"), ("top", "great_blue_heron"), ("left", "beaver"),
    ("right", "mink"), ("top", "caddisfly"), ("bottom", "yellow_perch"),
])
def test_water_card_on_a_tree_without_river(tmp_path, slot, card):
    d = rejects(tmp_path, SM, [{"tree": "yellow_birch"}, {"tree": "hemlock", slot: card}],
                "FOREST-WATER", 2, "hemlock", slot)
    assert card in d.message


@pytest.mark.parametrize("host,slot,card", [
    ({"river": "creek"}, "bottom_1", "blue_mistflower"),
    ({"river": "waterfall"}, "top_2", "scarlet_tanager"),
    ({"universal_river": True}, "top_1", "thermometer_cricket"),
    ({"universal_river": True}, "bottom_2", "solomons_seal"),
    ({"tree": "hemlock", "river": True}, "bottom_1", "blue_mistflower"),
    ({"tree": "hemlock", "river": True}, "bottom_2", "eastern_chipmunk"),
])
def test_dry_card_in_a_river_or_below_a_trees_river(tmp_path, host, slot, card):
    kind = host.get("river") if isinstance(host.get("river"), str) else (
        "universal_river" if "universal_river" in host else "hemlock")
    d = rejects(tmp_path, SM, [dict(host, **{slot: card})], "FOREST-WATER", 1, kind, slot)
    assert card in d.message


def test_tree_with_river_takes_any_card_at_top_left_right(tmp_path):
    res = score(tmp_path, SM, P("Ana", [
        {"tree": "hemlock", "river": True, "top": "great_blue_heron", "left": "masked_shrew",
         "right": "mink", "bottom_1": "yellow_perch"},
        {"tree": "hemlock", "river": True, "top": "scarlet_tanager", "left": "beaver"},
    ]))
    # hemlocks 10; heron 2 x 1 fish; shrew 3; mink 5; perch 2; tanager 2; beaver 0 cave
    assert total(res) == 10 + 2 + 3 + 5 + 2 + 2


def test_water_starwort_never_on_a_tree(tmp_path):
    d = rejects(tmp_path, SM, [{"tree": "hemlock", "river": True, "top": "water_starwort"}],
                "FOREST-PLACEMENT", 1, "hemlock", "top")
    assert "water_starwort" in d.message
    # in a river it is fine: 1 river + 0 fish
    assert total(score(tmp_path, SM, P("Ana", [{"river": "creek",
                                                "top_1": "water_starwort"}]))) == 1


def test_water_starwort_on_a_dry_tree(tmp_path):
    path = _write(tmp_path, SM, [P("Ana", [{"tree": "hemlock", "top": "water_starwort"}])])
    with pytest.raises(DiagnosticError) as exc:
        api.score_file(str(path))
    codes = {d.code for d in exc.value.diagnostics}
    assert codes & {"FOREST-WATER", "FOREST-PLACEMENT"}
    assert all("Ana, host 1 (hemlock), slot top" in d.message for d in exc.value.diagnostics)


# ---------------------------------------------------------------------------------------------
# No left/right slots on moors and rivers
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition,host,slot,card", [
    (DM, {"moor": "warrens"}, "left", "treecreeper"),
    (DM, {"universal_moor": True}, "right", "dartmoor_black_rabbit"),
    (DM, {"moor": "blanket_bog"}, "top_3", "grey_heron"),   # top: [...] fills top_1, top_2
    (SM, {"river": "creek"}, "right", "mink"),
    (SM, {"universal_river": True}, "left", "beaver"),
])
def test_left_right_on_a_moor_or_river_is_an_unknown_slot(tmp_path, edition, host, slot, card):
    path = _write(tmp_path, edition, [P("Ana", [dict(host, **{slot: card})])])
    with pytest.raises(DiagnosticError) as exc:
        api.score_file(str(path))
    d = next(d for d in exc.value.diagnostics if d.code == "FOREST-UNKNOWN-SLOT")
    kind = next(k for k in host if k != "symbol")
    assert f"a {kind} has no slot '{slot}'" in d.message
    # the diagnostic points at the slot key of that entry in the file
    line = path.read_text().splitlines()[d.span.line - 1]
    assert f'"{slot}"' in line


def test_unknown_slot_message_names_player_and_host(tmp_path):
    path = _write(tmp_path, DM, [P("Ana", [{"tree": "moor_birch"},
                                           {"moor": "warrens", "left": "treecreeper"}])])
    with pytest.raises(DiagnosticError) as exc:
        api.score_file(str(path))
    d = next(d for d in exc.value.diagnostics if d.code == "FOREST-UNKNOWN-SLOT")
    assert "Ana" in d.message and "host 2" in d.message and "left" in d.message


def test_river_true_on_a_dartmoor_tree_is_an_unknown_host(tmp_path):
    path = _write(tmp_path, DM, [P("Ana", [{"tree": "moor_birch", "river": True}])])
    with pytest.raises(DiagnosticError) as exc:
        api.score_file(str(path))
    d = next(d for d in exc.value.diagnostics if d.code == "FOREST-UNKNOWN-HOST")
    assert "river" in d.message
    line = path.read_text().splitlines()[d.span.line - 1]
    assert '"river"' in line


# ---------------------------------------------------------------------------------------------
# Dartmoor: moor-only species, Cuckoo
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("host,slot,card", [
    ({"tree": "moor_birch"}, "top", "black_tailed_godwit"),
    ({"tree": "moor_birch"}, "top", "common_moorhen"),
    ({"tree": "moor_birch"}, "top", "curlew"),
    ({"tree": "ash"}, "top", "grey_heron"),
    ({"tree": "moor_birch"}, "bottom", "bog_asphodel"),
    ({"tree": "moor_birch"}, "bottom", "grass_snake"),
    ({"tree": "moor_birch"}, "bottom", "moor_frog"),
    ({"shrub": "elderberry"}, "bottom", "warty_newt"),
])
def test_moor_only_species_on_a_tree_or_shrub(tmp_path, host, slot, card):
    kind = host.get("tree") or host.get("shrub")
    d = rejects(tmp_path, DM, [dict(host, **{slot: card})], "FOREST-PLACEMENT", 1, kind, slot)
    assert card in d.message


def test_moor_only_species_in_moors_are_legal(tmp_path):
    res = score(tmp_path, DM, P("Ana", [
        {"moor": "warrens", "top_1": "grey_heron", "top_2": "curlew",
         "bottom_1": "grass_snake", "bottom_2": "bog_asphodel"},
        {"universal_moor": True, "top_1": "black_tailed_godwit", "top_2": "common_moorhen",
         "bottom_1": "moor_frog", "bottom_2": "warty_newt"},
    ]))
    # warrens 0 pawed; heron 8; curlew 3; snake 5; asphodel 2 moors; godwit 10 (alone);
    # moorhen 0; frog 0 (2 moors); newt 5
    assert total(res) == 8 + 3 + 5 + 2 + 10 + 5


def test_cuckoo_may_not_go_in_a_moor(tmp_path):
    d = rejects(tmp_path, DM, [{"moor": "warrens", "top_1": ["grey_heron", "cuckoo"]}],
                "FOREST-PLACEMENT", 1, "warrens", "top_1")
    assert "cuckoo" in d.message
    rejects(tmp_path, DM, [{"universal_moor": True, "top_2": ["grey_heron", "cuckoo"]}],
            "FOREST-PLACEMENT", 1, "universal_moor", "top_2")


def test_cuckoo_must_join_a_bird(tmp_path):
    d = rejects(tmp_path, DM, [{"tree": "moor_birch"}, {"tree": "moor_birch", "top": "cuckoo"}],
                "FOREST-PLACEMENT", 2, "moor_birch", "top")
    assert "cuckoo" in d.message
    # joining a dragonfly (not a bird) is refused too
    rejects(tmp_path, DM, [{"tree": "moor_birch", "top": ["beautiful_demoiselle", "cuckoo"]}],
            "FOREST-PLACEMENT", 1, "moor_birch", "top")


def test_at_most_one_cuckoo_per_tree(tmp_path):
    rejects(tmp_path, DM, [{"tree": "moor_birch", "top": ["barn_owl", "cuckoo", "cuckoo"]}],
            "FOREST-PLACEMENT", 1, "moor_birch", "top")


def test_cuckoo_joining_a_bird_on_a_tree_is_legal(tmp_path):
    res = score(tmp_path, DM, P("Ana", [{"tree": "moor_birch", "top": ["buzzard", "cuckoo"]}]))
    assert total(res) == 1 + 0 + 7


# ---------------------------------------------------------------------------------------------
# Smoky Mountains: Waterfall
# ---------------------------------------------------------------------------------------------

def test_waterfall_takes_at_most_four_fish(tmp_path):
    d = rejects(tmp_path, SM, [{"river": "waterfall",
                                "bottom_1": ["yellow_perch", "yellow_perch", "yellow_perch"],
                                "bottom_2": ["smallmouth_bass", "smallmouth_bass"]}],
                "FOREST-SLOT-FULL", 1, "waterfall", "bottom_1")
    assert "4" in d.message


def test_waterfall_takes_no_other_species_below(tmp_path):
    d = rejects(tmp_path, SM, [{"river": "waterfall", "bottom_1": "yellow_perch",
                                "bottom_2": "eastern_hellbender"}],
                "FOREST-PLACEMENT", 1, "waterfall", "bottom_2")
    assert "waterfall" in d.message.split(":", 1)[1]   # the rule that refuses it


def test_waterfall_four_fish_legal_and_top_unchanged(tmp_path):
    res = score(tmp_path, SM, P("Ana", [{
        "river": "waterfall", "top_1": "caddisfly",
        "bottom_1": ["yellow_perch", "yellow_perch"],
        "bottom_2": ["smallmouth_bass", "greenside_darter"]}]))
    # perch 2+2; bass 3 x 3 fish species; darter 3 x 1 insect; caddisfly 2
    assert total(res) == 4 + 9 + 3 + 2


def test_other_rivers_hold_one_card_per_slot(tmp_path):
    rejects(tmp_path, SM, [{"river": "creek", "bottom_1": ["yellow_perch", "yellow_perch"]}],
            "FOREST-SLOT-FULL", 1, "creek", "bottom_1")


# ---------------------------------------------------------------------------------------------
# Stacking: rabbits and badgers, dragonflies and Water Soldiers, Thermometer Crickets
# ---------------------------------------------------------------------------------------------

def test_rabbits_do_not_stack_without_a_badger(tmp_path):
    d = rejects(tmp_path, DM,
                [{"tree": "moor_birch", "left": ["dartmoor_black_rabbit"] * 2}],
                "FOREST-SLOT-FULL", 1, "moor_birch", "left")
    assert "2" in d.message


def test_badger_on_another_tree_does_not_let_rabbits_stack(tmp_path):
    rejects(tmp_path, DM,
            [{"tree": "moor_birch", "left": "dartmoor_badger"},
             {"tree": "moor_birch", "right": ["dartmoor_black_rabbit"] * 3}],
            "FOREST-SLOT-FULL", 2, "moor_birch", "right")


def test_rabbits_stack_with_a_badger_at_the_tree(tmp_path):
    res = score(tmp_path, DM, P("Ana", [
        {"tree": "moor_birch", "left": "dartmoor_badger",
         "right": ["dartmoor_black_rabbit"] * 3},
    ]))
    # 3 rabbits 3 each; badger 2 x 4 pawed; tree 1
    assert total(res) == 9 + 8 + 1


def test_rabbits_join_any_occupied_slot_at_a_badger_tree(tmp_path):
    res = score(tmp_path, DM, P("Ana", [
        {"tree": "moor_birch", "left": ["dartmoor_badger", "dartmoor_black_rabbit"],
         "right": ["field_vole", "dartmoor_black_rabbit"]},
    ]))
    # 2 rabbits 2 each; badger 2 x 4 pawed (a vole is a mouse, a pawed animal); vole 1; tree 1
    assert total(res) == 4 + 8 + 1 + 1


def test_other_species_do_not_join_a_rabbit_stack(tmp_path):
    rejects(tmp_path, DM,
            [{"tree": "moor_birch", "left": "dartmoor_badger",
              "right": ["dartmoor_black_rabbit", "field_vole"]}],
            "FOREST-SLOT-FULL", 1, "moor_birch", "right")


def test_dragonflies_do_not_stack_without_water_soldiers(tmp_path):
    rejects(tmp_path, DM,
            [{"tree": "moor_birch", "top": ["beautiful_demoiselle", "emerald_damselfly"]}],
            "FOREST-SLOT-FULL", 1, "moor_birch", "top")


def test_water_soldiers_on_another_tree_do_not_help(tmp_path):
    rejects(tmp_path, DM,
            [{"tree": "moor_birch", "bottom": "water_soldiers"},
             {"tree": "moor_birch", "top": ["beautiful_demoiselle", "emerald_damselfly"]}],
            "FOREST-SLOT-FULL", 2, "moor_birch", "top")


def test_water_soldiers_let_only_dragonflies_stack(tmp_path):
    rejects(tmp_path, DM,
            [{"tree": "moor_birch", "bottom": "water_soldiers",
              "top": ["beautiful_demoiselle", "barn_owl"]}],
            "FOREST-SLOT-FULL", 1, "moor_birch", "top")


def test_dragonflies_stack_with_water_soldiers(tmp_path):
    res = score(tmp_path, DM, P("Ana", [
        {"tree": "moor_birch", "bottom": "water_soldiers",
         "top": ["beautiful_demoiselle", "emerald_damselfly", "beautiful_demoiselle"]},
    ]))
    # sets: {demoiselle, emerald} 5 + {demoiselle} 0; water soldiers 2 x 3; tree 1
    assert total(res) == 5 + 6 + 1


def test_thermometer_crickets_stack(tmp_path):
    res = score(tmp_path, SM, P("Ana", [
        {"tree": "yellow_birch", "top": ["thermometer_cricket"] * 4},
    ]))
    assert total(res) == 1 + 4 * 4


def test_other_cards_do_not_join_crickets(tmp_path):
    rejects(tmp_path, SM,
            [{"tree": "yellow_birch", "top": ["thermometer_cricket", "scarlet_tanager"]}],
            "FOREST-SLOT-FULL", 1, "yellow_birch", "top")
    rejects(tmp_path, SM,
            [{"tree": "yellow_birch", "top": ["scarlet_tanager", "thermometer_cricket"]}],
            "FOREST-SLOT-FULL", 1, "yellow_birch", "top")


def test_other_top_cards_do_not_stack_in_smoky(tmp_path):
    rejects(tmp_path, SM,
            [{"tree": "yellow_birch", "left": ["synchronous_firefly", "synchronous_firefly"]}],
            "FOREST-SLOT-FULL", 1, "yellow_birch", "left")
