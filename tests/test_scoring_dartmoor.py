"""Exact scoring tests for every species of Forest Shuffle: Dartmoor.

Every expected value was worked out by hand from /work/shared/reference/rules.md (§1.6 scoring,
§4 Dartmoor) and from each card's rule as written in cards/dartmoor/*.yaml (the DSL is described
in docs/dsl.md). Where the card data marks a fact `provisional` (mice are pawed animals,
dragonflies are insects, Blanket Bog doubles only plants, Ash counts Black Alder symbols, Rivulet
Goat Willow symbols, Common Pheasant trees + shrubs, ...) the test follows what the data says.
The hand computation is written next to each assertion.

Forests are dicts written to tmp_path as JSON forest files and scored with
``grove.api.score_file``. Moors are written `moor: <species>` with the slots top_1, top_2,
bottom_1, bottom_2; a universal moor is `universal_moor: true`. Halves and symbols were checked
against ``grove cards dartmoor --json``; a forest holding a card that scores by tree symbol
(Ash, Rivulet, Roe Deer) names the symbol of every card with several symbols on its side.
"""

from __future__ import annotations

import pytest
from scoring_helpers import C, P, cats, each, pts, score_doc, total

from grove import api


def score(tmp_path, *players):
    return score_doc(tmp_path, "dartmoor", [], players)




















def cat_row(trees=0, moors=0, top=0, bottom=0, left=0, right=0, cave=0):
    return {"trees": trees, "moors": moors, "top": top, "bottom": bottom, "left": left,
            "right": right, "cave": cave}





UM = {"universal_moor": True}


def um(**slots):
    return {"universal_moor": True, **slots}


def moor(species, symbol=None, **slots):
    d = {"moor": species, **slots}
    if symbol:
        d["symbol"] = symbol
    return d


def tree(species, **slots):
    return {"tree": species, **slots}


def check_sums(res):
    for p in res["players"]:
        assert sum(p["by_category"].values()) == p["total"]
        assert sum(c["points"] for c in p["cards"]) + p["by_category"]["cave"] == p["total"]


# ---------------------------------------------------------------------------------------------
# Dragonflies and Water Soldiers
# ---------------------------------------------------------------------------------------------

DRAGONFLIES = ["beautiful_demoiselle", "emerald_damselfly", "keeled_skimmer",
               "small_red_damselfly", "southern_damselfly"]


@pytest.mark.parametrize("flies,expected", [
    (DRAGONFLIES[:1], 0),                        # 1 species: 0
    (DRAGONFLIES[:2], 5),                        # 2 different: 5
    (DRAGONFLIES[:3], 10),
    (DRAGONFLIES[:4], 15),
    (DRAGONFLIES, 30),                           # all 5: 30
    (DRAGONFLIES[:1] * 2, 0),                    # two sets of one: 0 + 0
    (DRAGONFLIES + DRAGONFLIES[:2], 35),         # set of 5 (30) + set of 2 (5)
    (DRAGONFLIES[:3] + DRAGONFLIES[:3], 20),     # two sets of 3: 10 + 10
])
def test_dragonfly_sets(tmp_path, flies, expected):
    # one dragonfly atop each tree: Moor Birches (1 point each), the 7th on a Black Alder (5)
    hosts = [tree("moor_birch", top=f) for f in flies[:6]]
    hosts += [tree("black_alder", top=f) for f in flies[6:]]
    res = score(tmp_path, P("Solo", hosts))
    tree_pts = min(len(flies), 6) + 5 * max(0, len(flies) - 6)
    assert sum(pts(res, f) for f in set(flies)) == expected
    assert cats(res) == cat_row(trees=tree_pts, top=expected)
    assert total(res) == tree_pts + expected


def test_water_soldiers_stack_dragonflies_and_score_two_each(tmp_path):
    res = score(tmp_path, P("Solo", [
        tree("moor_birch", top=["beautiful_demoiselle", "emerald_damselfly", "keeled_skimmer"],
             bottom="water_soldiers"),
        tree("moor_birch", top="small_red_damselfly"),
    ]))
    # 4 different dragonflies = 15; Water Soldiers 2 x 4 dragonflies = 8; trees 2
    assert pts(res, "water_soldiers") == 8
    assert cats(res) == cat_row(trees=2, top=15, bottom=8)
    assert total(res) == 25


def test_common_moorhen_curlew_valley_mire_heather_count_insects(tmp_path):
    res = score(tmp_path, P("Solo", [
        moor("valley_mire", top_1="curlew", top_2="common_moorhen", bottom_1="heather",
             bottom_2="blue_ground_beetle"),
        tree("moor_birch", top="beautiful_demoiselle", left="lake_fly"),
        tree("moor_birch", top="emerald_damselfly", right="gnat"),
    ]))
    # insects: beetle, 2 dragonflies (dragonflies are insects), Lake Fly, Gnat = 5
    assert pts(res, "curlew") == 10              # >= 5 insects
    assert pts(res, "valley_mire") == 10         # 2 x 5
    assert pts(res, "heather") == 5              # 1 x 5
    assert pts(res, "common_moorhen") == 4       # 2 x 2 dragonflies
    assert pts(res, "blue_ground_beetle") == 2   # cards below hosts: heather, beetle
    assert pts(res, "lake_fly") == 0 and pts(res, "gnat") == 0   # no bats
    # top: curlew 10 + moorhen 4 + dragonfly set of 2 = 5
    assert cats(res) == cat_row(trees=2, moors=10, top=19, bottom=7)
    assert total(res) == 38


def test_curlew_with_four_insects_scores_three(tmp_path):
    res = score(tmp_path, P("Solo", [
        moor("valley_mire", top_1="curlew", top_2="common_moorhen", bottom_1="heather",
             bottom_2="blue_ground_beetle"),
        tree("moor_birch", top="beautiful_demoiselle", left="lake_fly"),
        tree("moor_birch", top="emerald_damselfly"),
    ]))
    # insects 4: curlew 3, valley mire 8, heather 4, moorhen 4, set 5, beetle 2, trees 2
    assert pts(res, "curlew") == 3
    assert pts(res, "valley_mire") == 8
    assert pts(res, "heather") == 4
    assert cats(res) == cat_row(trees=2, moors=8, top=12, bottom=6)
    assert total(res) == 28


# ---------------------------------------------------------------------------------------------
# Rabbits and the Badger
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_black_rabbits_score_n_squared_in_own_slots(tmp_path, n):
    sides = [("left", i // 2) if i % 2 == 0 else ("right", i // 2) for i in range(n)]
    hosts = [tree("moor_birch") for _ in range((n + 1) // 2)]
    for side, h in sides:
        hosts[h][side] = "dartmoor_black_rabbit"
    res = score(tmp_path, P("Solo", hosts))
    assert each(res, "dartmoor_black_rabbit") == [n] * n   # each 1 per rabbit
    assert total(res) == len(hosts) + n * n


def test_badger_lets_rabbits_stack_and_counts_pawed(tmp_path):
    res = score(tmp_path, P("Solo", [
        tree("moor_birch", left="dartmoor_badger", right=["dartmoor_black_rabbit"] * 4),
        tree("moor_birch", left="dartmoor_black_rabbit"),
    ]))
    # 5 rabbits: 5 each = 25; badger 2 x 6 pawed (itself + 5 rabbits) = 12
    assert each(res, "dartmoor_black_rabbit") == [5] * 5
    assert pts(res, "dartmoor_badger") == 12
    assert cats(res) == cat_row(trees=2, left=12 + 5, right=20)
    assert total(res) == 39


# ---------------------------------------------------------------------------------------------
# Moors
# ---------------------------------------------------------------------------------------------

def test_blanket_bog_doubles_plants_below_it(tmp_path):
    res = score(tmp_path, P("Solo", [
        moor("blanket_bog", top_1="grey_heron", top_2="beautiful_demoiselle",
             bottom_1="adders_tongue", bottom_2="heather"),
        moor("blanket_bog", bottom_1="otter", bottom_2="common_lizard"),
        tree("moor_birch", bottom="adders_tongue"),
    ]))
    assert pts(res, "adders_tongue", host=0) == 6   # 3 doubled
    assert pts(res, "heather") == 2                 # 1 insect (the dragonfly), doubled
    assert pts(res, "grey_heron") == 8              # above the bog: not doubled
    assert pts(res, "beautiful_demoiselle") == 0    # a set of one
    assert pts(res, "otter") == 3                   # 3 x 1 amphibian; not a plant: not doubled
    assert pts(res, "common_lizard") == 5           # 1 amphibian species; not doubled
    assert pts(res, "adders_tongue", host=2) == 3   # below a tree: not doubled
    assert each(res, "blanket_bog") == [0, 0]
    assert cats(res) == cat_row(trees=1, top=8, bottom=6 + 2 + 3 + 5 + 3)
    assert total(res) == 28


def test_moor_counts_include_universal_moors(tmp_path):
    res = score(tmp_path, P("Solo", [
        moor("wet_woodland"),
        um(top_1="wheatear", bottom_1="meadowsweet"),
        um(),
        moor("blanket_bog", bottom_1="meadowsweet"),
        tree("goat_willow", top="wheatear", bottom="meadowsweet"),
        tree("goat_willow"),
    ]))
    # moors: Wet Woodland, 2 universal moors, Blanket Bog = 4
    assert pts(res, "wet_woodland") == 8            # 2 x 4, itself included
    assert each(res, "goat_willow") == [4, 4]       # 1 x 4
    assert pts(res, "wheatear", host=1) == 5        # in a (universal) moor
    assert pts(res, "wheatear", host=4) == 0        # on a tree
    assert pts(res, "meadowsweet", host=1) == 5     # in a moor
    assert pts(res, "meadowsweet", host=3) == 10    # in a moor, below Blanket Bog: doubled
    assert pts(res, "meadowsweet", host=4) == 0     # below a tree
    assert cats(res) == cat_row(trees=8, moors=8, top=5, bottom=15)
    assert total(res) == 36


@pytest.mark.parametrize("n,expected", [(1, 5), (2, 15), (3, 25)])
def test_warty_newt_total_table(tmp_path, n, expected):
    hosts = [um(bottom_1="warty_newt") for _ in range(n)]
    res = score(tmp_path, P("Solo", hosts))
    assert pts(res, "warty_newt") == expected   # once for the forest
    assert cats(res) == cat_row(bottom=expected)
    assert total(res) == expected


def test_amphibians_lowland_heath_moor_frog_bog_asphodel(tmp_path):
    res = score(tmp_path, P("Solo", [
        moor("lowland_heath", bottom_1="grass_snake", bottom_2="moor_frog"),
        um(bottom_1="warty_newt", bottom_2="warty_newt"),
        um(bottom_1="warty_newt", bottom_2="bog_asphodel"),
        um(), um(),
        tree("moor_birch", bottom="adder", left="field_vole"),
        tree("moor_birch", bottom="common_lizard"),
        tree("moor_birch", bottom="otter"),
    ]))
    # amphibians: snake, frog, 3 newts, adder, lizard = 7 (5 species); moors 5; mice 1
    assert pts(res, "lowland_heath") == 14          # 2 x 7
    assert pts(res, "grass_snake") == 5
    assert pts(res, "moor_frog") == 8               # >= 5 moors
    assert pts(res, "warty_newt") == 25             # 3 newts
    assert pts(res, "bog_asphodel") == 5            # 1 x 5 moors
    assert pts(res, "adder") == 8                   # 7 amphibians + 1 mouse
    assert pts(res, "common_lizard") == 15          # >= 3 amphibian species
    assert pts(res, "otter") == 21                  # 3 x 7
    assert pts(res, "field_vole") == 1
    assert cats(res) == cat_row(trees=3, moors=14, bottom=5 + 8 + 25 + 5 + 8 + 15 + 21, left=1)
    assert total(res) == 105


def test_moor_frog_needs_five_moors(tmp_path):
    res = score(tmp_path, P("Solo", [um(bottom_1="moor_frog"), um(), um(), um()]))
    assert pts(res, "moor_frog") == 0               # 4 moors
    assert total(res) == 0


def test_godwit_and_pony_most_moors_ties_count(tmp_path):
    res = score(tmp_path,
                P("A", [um(top_1="black_tailed_godwit"), um(),
                        tree("moor_birch", left="dartmoor_pony")]),
                P("B", [um(top_1="black_tailed_godwit"), um(),
                        tree("moor_birch", right="dartmoor_pony")]),
                P("C", [um(top_1="black_tailed_godwit"),
                        tree("moor_birch", left="dartmoor_pony")], cave=1))
    # A and B 2 moors each (tie = most), C 1 moor
    assert pts(res, "black_tailed_godwit", "A") == 10
    assert pts(res, "black_tailed_godwit", "B") == 10
    assert pts(res, "black_tailed_godwit", "C") == 0
    assert pts(res, "dartmoor_pony", "A") == 15
    assert pts(res, "dartmoor_pony", "B") == 15
    assert pts(res, "dartmoor_pony", "C") == 5
    assert cats(res, "A") == cat_row(trees=1, top=10, left=15)
    assert cats(res, "B") == cat_row(trees=1, top=10, right=15)
    assert cats(res, "C") == cat_row(trees=1, left=5, cave=1)
    assert total(res, "A") == total(res, "B") == 26 and total(res, "C") == 7
    assert sorted(res["winners"]) == ["A", "B"]


def test_godwit_and_pony_fewer_moors_than_an_opponent(tmp_path):
    res = score(tmp_path,
                P("A", [moor("warrens"), um(top_1="black_tailed_godwit"),
                        tree("moor_birch", left="dartmoor_pony")]),
                P("B", [um(), um(), um()]))
    # A 2 moors < B 3 moors: godwit 0, pony 5; warrens 0 (the pony is cloven, not pawed)
    assert pts(res, "black_tailed_godwit", "A") == 0
    assert pts(res, "dartmoor_pony", "A") == 5
    assert pts(res, "warrens", "A") == 0
    assert total(res, "A") == 6 and total(res, "B") == 0


def test_fountainhead_tor_and_shrubs_score_nothing(tmp_path):
    res = score(tmp_path, P("Solo", [
        moor("fountainhead", top_1="grey_heron"),
        moor("tor"),
        {"shrub": "common_hazel"},
        {"shrub": "elderberry", "left": "treecreeper"},
    ]))
    assert pts(res, "fountainhead") == 0 and pts(res, "tor") == 0
    assert pts(res, "common_hazel") == 0 and pts(res, "elderberry") == 0
    assert pts(res, "grey_heron") == 8 and pts(res, "treecreeper") == 5
    assert cats(res) == cat_row(top=8, left=5)
    assert total(res) == 13


# ---------------------------------------------------------------------------------------------
# Birds
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("forest,pipit,tot", [
    # 1 bird species (the pipit): 1; tree 1
    ([tree("moor_birch", top="meadow_pipit")], 1, 2),
    # 2 species: 3; treecreeper 5
    ([tree("moor_birch", top="meadow_pipit", left="treecreeper")], 3, 9),
    # 2 pipits + treecreeper = still 2 species: each pipit 3
    ([tree("moor_birch", top="meadow_pipit", left="treecreeper"),
      tree("moor_birch", top="meadow_pipit")], 6, 2 + 6 + 5),
    # 4 species (pipit, treecreeper, capercaillie, buzzard): 6; caper 0 plants, buzzard 0 mice
    ([tree("moor_birch", top="meadow_pipit", left="treecreeper", right="capercaillie"),
      tree("moor_birch", top="buzzard")], 6, 2 + 6 + 5),
    # 5 species (+ barn owl, 0 bats): still 6
    ([tree("moor_birch", top="meadow_pipit", left="treecreeper", right="capercaillie"),
      tree("moor_birch", top="buzzard"), tree("moor_birch", top="barn_owl")], 6, 3 + 6 + 5),
    # 6 species (+ pheasant: 3 trees + 0 shrubs = 3): 10
    ([tree("moor_birch", top="meadow_pipit", left="treecreeper", right="capercaillie"),
      tree("moor_birch", top="buzzard"),
      tree("moor_birch", top="barn_owl", left="common_pheasant")], 10, 3 + 10 + 5 + 3),
])
def test_meadow_pipit_table(tmp_path, forest, pipit, tot):
    res = score(tmp_path, P("Solo", forest))
    assert pts(res, "meadow_pipit") == pipit
    assert total(res) == tot


def test_crab_apple_full_nuthatch_host_full_cuckoo_joins_a_bird(tmp_path):
    res = score(tmp_path, P("Solo", [
        tree("crab_apple", top="buzzard", bottom="adders_tongue", left="treecreeper",
             right="field_vole"),
        tree("crab_apple", top=["barn_owl", "cuckoo"], bottom="heather", left="nuthatch",
             right="treecreeper"),
        tree("crab_apple", left="nuthatch"),
        {"shrub": "common_hazel", "top": "wheatear", "bottom": "otter", "left": "nuthatch",
         "right": "shrew"},
    ]))
    assert each(res, "crab_apple") == [8, 8, 0]     # full, full, 1 of 4 slots
    assert each(res, "nuthatch") == [10, 0, 10]     # host full (tree, -, shrub)
    assert pts(res, "cuckoo") == 7
    assert pts(res, "buzzard") == 4                 # 2 x 2 mice (field vole, shrew)
    assert pts(res, "field_vole") == 2              # 1 x 2 mice
    assert pts(res, "shrew") == 1
    assert pts(res, "barn_owl") == 0                # no bats
    assert pts(res, "heather") == 0                 # no insects
    assert pts(res, "otter") == 0                   # no amphibians
    assert pts(res, "wheatear") == 0                # not in a moor
    assert each(res, "treecreeper") == [5, 5]
    assert pts(res, "common_hazel") == 0
    assert cats(res) == cat_row(trees=16, top=11, bottom=3, left=25, right=8)
    assert total(res) == 63


def test_bats_need_three_species_barn_owl_lake_fly_gnat(tmp_path):
    res = score(tmp_path, P("Solo", [
        tree("moor_birch", top="barn_owl", left="alcathoe_bat", right="brandts_bat"),
        tree("moor_birch", left="common_noctule", right="lake_fly"),
        tree("moor_birch", left="gnat", right="daubentons_bat"),
        tree("moor_birch", left="serotine_bat"),
    ]))
    # 5 bats, 5 species: each 5; barn owl 3 x 5; Lake Fly, Gnat 1 x 5
    for bat in ("alcathoe_bat", "brandts_bat", "common_noctule", "daubentons_bat",
                "serotine_bat"):
        assert pts(res, bat) == 5
    assert pts(res, "barn_owl") == 15
    assert pts(res, "lake_fly") == 5 and pts(res, "gnat") == 5
    assert cats(res) == cat_row(trees=4, top=15, left=20, right=15)
    assert total(res) == 54


def test_two_bat_species_score_nothing(tmp_path):
    res = score(tmp_path, P("Solo", [
        tree("moor_birch", left="alcathoe_bat", right="brandts_bat"),
        tree("moor_birch", left="alcathoe_bat"),
    ]))
    assert each(res, "alcathoe_bat") == [0, 0]
    assert pts(res, "brandts_bat") == 0
    assert total(res) == 2


# ---------------------------------------------------------------------------------------------
# Trees, shrubs and symbols
# ---------------------------------------------------------------------------------------------

def test_ash_rivulet_roe_deer_count_symbols(tmp_path):
    res = score(tmp_path, P("Solo", [
        tree("ash", bottom=C("adders_tongue", "ash"), left=C("roe_deer", "ash"),
             right=C("field_vole", "ash")),
        tree("black_alder", top=C("buzzard", "black_alder"),
             bottom=C("heather", "black_alder")),
        moor("rivulet", "goat_willow", top_1=C("grey_heron", "goat_willow"),
             bottom_1=C("meadowsweet", "goat_willow")),
        tree("goat_willow"),
    ]))
    # Black Alder symbols: the Black Alder, Buzzard, Heather = 3; plants: Adder's Tongue,
    # Heather, Meadowsweet = 3 -> Ash 6
    assert pts(res, "ash") == 6
    # Goat Willow symbols: Rivulet, Grey Heron, Meadowsweet, the Goat Willow = 4 -> 8
    assert pts(res, "rivulet") == 8
    # Ash symbols: Ash tree, Adder's Tongue, Roe Deer itself, Field Vole = 4 -> 12
    assert pts(res, "roe_deer") == 12
    assert pts(res, "goat_willow") == 1             # 1 moor
    assert pts(res, "black_alder") == 5
    assert pts(res, "buzzard") == 2                 # 1 mouse
    assert pts(res, "heather") == 0
    assert pts(res, "meadowsweet") == 5
    assert pts(res, "grey_heron") == 8
    assert cats(res) == cat_row(trees=12, moors=8, top=10, bottom=8, left=12, right=1)
    assert total(res) == 51


def test_roe_deer_on_other_symbol(tmp_path):
    res = score(tmp_path, P("Solo", [
        tree("moor_birch", left=C("roe_deer", "moor_birch")),
        tree("moor_birch", bottom=C("heather", "moor_birch"), left=C("shrew", "moor_birch")),
        tree("ash", right=C("field_vole", "ash")),
    ]))
    # Moor Birch symbols: 2 trees, Roe Deer, Shrew, Heather = 5 -> 15
    assert pts(res, "roe_deer") == 15
    # Ash: 0 Black Alder symbols + 1 plant = 1
    assert pts(res, "ash") == 1
    assert total(res) == 1 + 1 + 1 + 15 + 1 + 0 + 2


def test_sessile_oak_pheasant_blue_ground_beetle_royal_fern(tmp_path):
    res = score(tmp_path, P("Solo", [
        tree("sessile_oak", bottom="blue_ground_beetle"),
        tree("moor_birch"),
        {"shrub": "elderberry", "bottom": "adders_tongue", "left": "common_pheasant"},
        {"shrub": "common_hazel"},
        um(bottom_1="heather", bottom_2="royal_fern"),
    ]))
    # 2 trees + 2 shrubs (the universal moor is neither)
    assert pts(res, "sessile_oak") == 4
    assert pts(res, "common_pheasant") == 4
    # cards below trees/shrubs/moors: beetle, adder's tongue, heather, royal fern = 4
    assert pts(res, "blue_ground_beetle") == 4
    assert pts(res, "heather") == 1                 # 1 insect (the beetle)
    assert pts(res, "royal_fern") == 6              # 3 plant species
    assert pts(res, "adders_tongue") == 3
    assert cats(res) == cat_row(trees=5, bottom=14, left=4)
    assert total(res) == 23


def test_plants_orchid_royal_fern_capercaillie_blueberry(tmp_path):
    res = score(tmp_path, P("Solo", [
        tree("moor_birch", bottom="greater_butterfly_orchid", left="capercaillie"),
        tree("moor_birch", bottom="royal_fern"),
        tree("moor_birch", bottom="adders_tongue"),
        tree("moor_birch", bottom="heather"),
        tree("moor_birch", bottom="blueberry"),
    ]))
    # 5 plant species
    assert pts(res, "greater_butterfly_orchid") == 15
    assert pts(res, "royal_fern") == 10
    assert pts(res, "capercaillie") == 5            # 5 plants
    assert pts(res, "blueberry") == 2               # 1 bird species
    assert pts(res, "heather") == 0
    assert cats(res) == cat_row(trees=5, bottom=15 + 10 + 3 + 0 + 2, left=5)
    assert total(res) == 40


def test_orchid_with_four_plant_species(tmp_path):
    res = score(tmp_path, P("Solo", [
        tree("moor_birch", bottom="greater_butterfly_orchid"),
        tree("moor_birch", bottom="royal_fern"),
        tree("moor_birch", bottom="adders_tongue"),
        tree("moor_birch", bottom="adders_tongue"),
        tree("moor_birch", bottom="heather"),
    ]))
    # 4 plant species (5 plants)
    assert pts(res, "greater_butterfly_orchid") == 3
    assert pts(res, "royal_fern") == 8
    assert total(res) == 5 + 3 + 8 + 6 + 0


def test_common_lizard_with_fewer_than_three_amphibian_species(tmp_path):
    res = score(tmp_path, P("Solo", [
        tree("moor_birch", bottom="common_lizard"),
        tree("moor_birch", bottom="adder"),
        tree("moor_birch", bottom="common_lizard"),
    ]))
    # 2 amphibian species: lizards 5 each; adder 3 amphibians + 0 mice
    assert each(res, "common_lizard") == [5, 5]
    assert pts(res, "adder") == 3
    assert total(res) == 3 + 13


def test_pawed_cloven_mice_and_beaver(tmp_path):
    res = score(tmp_path, P("Solo", [
        moor("warrens"),
        moor("rhos_pasture"),
        tree("moor_birch", left="dartmoor_sheep", right="dartmoor_sheep", bottom="beaver"),
        tree("moor_birch", left="wood_mouse", right="field_vole", top="buzzard"),
        tree("moor_birch", left="dartmoor_badger", right="shrew"),
    ], cave=4))
    # pawed: beaver, wood mouse, field vole, badger, shrew = 5 (mice are pawed);
    # cloven: 2 sheep; mice: wood mouse, field vole, shrew = 3
    assert pts(res, "warrens") == 10
    assert pts(res, "rhos_pasture") == 4
    assert each(res, "dartmoor_sheep") == [4, 4]
    assert pts(res, "beaver") == 4                  # 4 cave cards
    assert pts(res, "wood_mouse") == 3
    assert pts(res, "field_vole") == 3
    assert pts(res, "buzzard") == 6
    assert pts(res, "dartmoor_badger") == 10
    assert pts(res, "shrew") == 1
    assert cats(res) == cat_row(trees=3, moors=14, top=6, bottom=4, left=17, right=8, cave=4)
    assert total(res) == 56
    check_sums(res)


def test_black_alder_moor_birch_treecreeper_flat(tmp_path):
    res = score(tmp_path, P("Solo", [tree("black_alder", right="treecreeper"),
                                     tree("moor_birch")], cave=2))
    assert pts(res, "black_alder") == 5 and pts(res, "moor_birch") == 1
    assert cats(res) == cat_row(trees=6, right=5, cave=2)
    assert total(res) == 13


# ---------------------------------------------------------------------------------------------
# Scorepad and a whole game
# ---------------------------------------------------------------------------------------------

def test_scorepad_rows_include_moors(tmp_path):
    res = score(tmp_path, P("Solo", [moor("wet_woodland"), tree("moor_birch")], cave=1))
    assert list(cats(res)) == ["trees", "moors", "top", "bottom", "left", "right", "cave"]
    assert cats(res) == cat_row(trees=1, moors=2, cave=1)
    assert res["edition"] == "dartmoor"


def test_two_players_whole_forests(tmp_path):
    ana = [
        moor("wet_woodland", top_1="grey_heron", bottom_1="meadowsweet"),
        um(top_1="black_tailed_godwit"),
        tree("goat_willow", left="dartmoor_pony", top="wheatear"),
    ]
    ben = [um(), tree("black_alder", left="treecreeper")]
    res = score(tmp_path, P("Ana", ana, cave=2), P("Ben", ben, cave=3))
    # Ana: 2 moors (Ben 1): wet woodland 4, godwit 10, pony 15, goat willow 2, heron 8,
    # meadowsweet 5, wheatear on a tree 0, cave 2
    assert cats(res, "Ana") == cat_row(trees=2, moors=4, top=18, bottom=5, left=15, cave=2)
    assert total(res, "Ana") == 46
    # Ben: black alder 5, treecreeper 5, cave 3
    assert total(res, "Ben") == 13
    assert res["winners"] == ["Ana"]
    check_sums(res)


# ---------------------------------------------------------------------------------------------
# Coverage
# ---------------------------------------------------------------------------------------------

COVERED = {
    # trees and shrubs
    "ash", "black_alder", "crab_apple", "goat_willow", "moor_birch", "sessile_oak",
    "common_hazel", "elderberry",
    # moors
    "blanket_bog", "fountainhead", "lowland_heath", "rhos_pasture", "rivulet", "tor",
    "valley_mire", "warrens", "wet_woodland",
    # top
    "barn_owl", "beautiful_demoiselle", "emerald_damselfly", "keeled_skimmer",
    "small_red_damselfly", "southern_damselfly", "black_tailed_godwit", "buzzard",
    "common_moorhen", "cuckoo", "curlew", "grey_heron", "meadow_pipit", "wheatear",
    # bottom
    "adder", "adders_tongue", "beaver", "blue_ground_beetle", "blueberry", "bog_asphodel",
    "common_lizard", "grass_snake", "greater_butterfly_orchid", "heather", "meadowsweet",
    "moor_frog", "otter", "royal_fern", "warty_newt", "water_soldiers",
    # left / right
    "alcathoe_bat", "brandts_bat", "common_noctule", "daubentons_bat", "serotine_bat",
    "capercaillie", "common_pheasant", "dartmoor_badger", "dartmoor_black_rabbit",
    "dartmoor_pony", "dartmoor_sheep", "field_vole", "gnat", "lake_fly", "nuthatch",
    "roe_deer", "shrew", "treecreeper", "wood_mouse",
}


def test_every_dartmoor_species_is_covered():
    ids = {row["id"] for row in api.cards("dartmoor", []) if row["kind"] != "cave"}
    assert len(ids) == 66  # the five drafted caves are tested in test_standalone_editions
    assert ids == COVERED
