"""Exact scoring tests for every species of Forest Shuffle: Smoky Mountains.

Every expected value was worked out by hand from /work/shared/reference/rules.md (§1.6 scoring,
§5 Smoky Mountains) and from each card's rule as written in cards/smoky_mountains/*.yaml (the
DSL is described in docs/dsl.md). Where the card data marks a fact `provisional` (a tree's own
river counts as a river; mice and squirrels are not pawed animals; ...) the test follows what
the data says. The hand computation is written next to each assertion.

Forests are dicts written to tmp_path as JSON forest files and scored with
``grove.api.score_file``. A named river is `river: creek` with slots top_1, top_2, bottom_1,
bottom_2 (water cards only); a stand-alone universal river is `universal_river: true`; a tree
with a universal river beneath it is `tree: hemlock, river: true` with the slots top, left,
right, bottom_1, bottom_2 (the two bottom slots take water cards only). Halves and symbols were
checked against ``grove cards smoky_mountains --json``; a forest holding a card that scores by
tree symbol (Basswood, Buckeye, Virginia Opossum, Turkey) names the symbol of every card with
several symbols on its side.
"""

from __future__ import annotations

import pytest
from scoring_helpers import C, P, cats, each, player, pts, score_doc, total

from grove import api


def score(tmp_path, *players):
    return score_doc(tmp_path, "smoky_mountains", [], players)




















def cat_row(trees=0, rivers=0, top=0, bottom=0, left=0, right=0, cave=0):
    return {"trees": trees, "rivers": rivers, "top": top, "bottom": bottom, "left": left,
            "right": right, "cave": cave}





def tree(species, **slots):
    return {"tree": species, **slots}


def rtree(species, **slots):
    """A tree with a universal river beneath it."""
    return {"tree": species, "river": True, **slots}


def river(species, **slots):
    return {"river": species, **slots}


def ur(**slots):
    return {"universal_river": True, **slots}


def check_sums(res):
    for p in res["players"]:
        assert sum(p["by_category"].values()) == p["total"]
        assert sum(c["points"] for c in p["cards"]) + p["by_category"]["cave"] == p["total"]


# ---------------------------------------------------------------------------------------------
# Squirrels and fireflies
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("forest,expected", [
    ([tree("yellow_birch", left="red_squirrel")], 5),
    ([tree("yellow_birch", left="red_squirrel", right="gray_squirrel")], 10),
    ([tree("yellow_birch", left="red_squirrel", right="gray_squirrel",
           top="flying_squirrel")], 20),
    ([tree("yellow_birch", left="red_squirrel", right="gray_squirrel",
           top="flying_squirrel", bottom="eastern_chipmunk")], 40),
    # a set of 4 (40) + a set of 1 (5)
    ([tree("yellow_birch", left="red_squirrel", right="gray_squirrel",
           top="flying_squirrel", bottom="eastern_chipmunk"),
      tree("yellow_birch", left="red_squirrel")], 45),
    # two sets of 1
    ([tree("yellow_birch", left="red_squirrel"), tree("yellow_birch", left="red_squirrel")], 10),
    # two sets of 2: 10 + 10
    ([tree("yellow_birch", left="red_squirrel", bottom="eastern_chipmunk"),
      tree("yellow_birch", left="red_squirrel", bottom="eastern_chipmunk")], 20),
])
def test_squirrel_sets(tmp_path, forest, expected):
    res = score(tmp_path, P("Solo", forest))
    sq = ("red_squirrel", "gray_squirrel", "flying_squirrel", "eastern_chipmunk")
    got = sum(c["points"] for c in player(res)["cards"] if c["card"] in sq)
    assert got == expected
    assert total(res) == len(forest) + expected   # Yellow Birches 1 each


def test_wintergreen_three_per_squirrel(tmp_path):
    res = score(tmp_path, P("Solo", [
        tree("yellow_birch", left="red_squirrel", right="gray_squirrel", bottom="wintergreen"),
        tree("yellow_birch", top="flying_squirrel"),
    ]))
    # 3 squirrels (3 species: 20); wintergreen 3 x 3
    assert pts(res, "wintergreen") == 9
    assert total(res) == 2 + 20 + 9


@pytest.mark.parametrize("n,each_pts", [(1, 3), (2, 6), (3, 9), (4, 12)])
def test_synchronous_firefly_three_per_firefly(tmp_path, n, each_pts):
    hosts = [tree("yellow_birch"), tree("yellow_birch")]
    for i in range(n):
        hosts[i // 2]["left" if i % 2 == 0 else "right"] = "synchronous_firefly"
    res = score(tmp_path, P("Solo", hosts))
    assert each(res, "synchronous_firefly") == [each_pts] * n
    assert sum(each(res, "synchronous_firefly")) == {1: 3, 2: 12, 3: 27, 4: 48}[n]
    assert total(res) == 2 + n * each_pts


# ---------------------------------------------------------------------------------------------
# Insects
# ---------------------------------------------------------------------------------------------

def test_insects_crickets_weevil_wasps_skipper_darter_otter(tmp_path):
    res = score(tmp_path, P("Solo", [
        tree("yellow_birch", top=["thermometer_cricket"] * 3, bottom="skipper_caterpillar",
             left="weevil_wasp", right="synchronous_firefly"),
        rtree("hemlock", top="caddisfly", bottom_1="greenside_darter",
              bottom_2="brown_water_scorpion", left="weevil_wasp", right="river_otter"),
        tree("yellow_birch", bottom="six_spotted_tiger_beetle", left="weevil_wasp"),
        tree("yellow_birch", right="weevil_wasp"),
    ]))
    # insects: 3 crickets, skipper, 4 weevil wasps, firefly, caddisfly, scorpion, beetle = 12
    assert each(res, "thermometer_cricket") == [12, 12, 12]
    assert pts(res, "skipper_caterpillar") == 10    # >= 3 insect species
    assert each(res, "weevil_wasp") == [10, 10, 10, 0]   # another insect at its tree / alone
    assert pts(res, "synchronous_firefly") == 3
    assert pts(res, "caddisfly") == 2
    assert pts(res, "greenside_darter") == 36       # 3 x 12
    assert pts(res, "brown_water_scorpion") == 2
    assert pts(res, "river_otter") == 26            # 2 x 1 fish + 2 x 12 insects + 0
    assert pts(res, "six_spotted_tiger_beetle") == 5
    assert pts(res, "hemlock") == 5
    assert cats(res) == cat_row(trees=8, top=38, bottom=53, left=30, right=29)
    assert total(res) == 158
    check_sums(res)


def test_weevil_wasp_pair_counts_each_other(tmp_path):
    res = score(tmp_path, P("Solo", [tree("yellow_birch", left="weevil_wasp",
                                          right="weevil_wasp")]))
    assert each(res, "weevil_wasp") == [10, 10]
    assert total(res) == 21


def test_skipper_caterpillar_needs_three_insect_species(tmp_path):
    res = score(tmp_path, P("Solo", [
        tree("yellow_birch", bottom="skipper_caterpillar", top=["thermometer_cricket"] * 2),
    ]))
    # 2 insect species (3 insects): skipper 0; crickets 3 each
    assert pts(res, "skipper_caterpillar") == 0
    assert each(res, "thermometer_cricket") == [3, 3]
    assert total(res) == 7


# ---------------------------------------------------------------------------------------------
# Rivers and fish
# ---------------------------------------------------------------------------------------------

def test_rivers_fish_and_water_cards(tmp_path):
    res = score(tmp_path, P("Solo", [
        river("creek", top_1="water_starwort", top_2="great_blue_heron",
              bottom_1="brook_trout", bottom_2="yellow_bullhead"),
        river("waterfall", top_1="bald_eagle", bottom_1=["yellow_perch", "smallmouth_bass"],
              bottom_2="yellow_perch"),
        ur(top_1="caddisfly", bottom_1="eastern_hellbender"),
        rtree("black_gum", left="beaver", right="mink", bottom_1="greenside_darter"),
        tree("black_gum"),
        river("river_bend"),
    ], cave=3))
    # rivers: creek, waterfall, universal river, Black Gum's river, river bend = 5
    # fish: trout, bullhead, 2 perch, bass, darter = 6
    assert pts(res, "creek") == 6                   # 1 x 6 fish
    assert pts(res, "waterfall") == 0 and pts(res, "river_bend") == 0
    assert each(res, "black_gum") == [5, 5]         # 1 x 5 rivers
    assert pts(res, "eastern_hellbender") == 10     # 2 x 5
    assert pts(res, "water_starwort") == 11         # 5 rivers + 6 fish
    assert pts(res, "great_blue_heron") == 12       # 2 x 6
    assert pts(res, "bald_eagle") == 30             # >= 5 fish
    # rivers without a fish below: the universal river (a hellbender below), river bend
    assert pts(res, "brook_trout") == 6
    assert pts(res, "yellow_bullhead") == 0
    assert each(res, "yellow_perch") == [2, 2]
    assert pts(res, "smallmouth_bass") == 15        # 5 fish species
    assert pts(res, "greenside_darter") == 3        # 1 insect (caddisfly)
    assert pts(res, "caddisfly") == 2
    assert pts(res, "mink") == 5
    assert pts(res, "beaver") == 3                  # 3 cave cards
    assert cats(res) == cat_row(trees=10, rivers=6, top=55, bottom=38, left=3, right=5, cave=3)
    assert total(res) == 120
    check_sums(res)


def test_brook_trout_counts_rivers_without_fish_below(tmp_path):
    res = score(tmp_path, P("Solo", [
        river("creek", bottom_1="brook_trout"),     # a fish below: not counted
        ur(),                                        # counted
        ur(bottom_1="eastern_hellbender"),           # an amphibian below: counted
        rtree("hemlock", bottom_1="yellow_perch"),   # a fish below its river: not counted
    ]))
    assert pts(res, "brook_trout") == 6             # 3 x 2
    assert pts(res, "creek") == 2                   # trout + perch
    assert pts(res, "eastern_hellbender") == 8      # 2 x 4 rivers (the Hemlock's included)
    assert pts(res, "yellow_perch") == 2
    assert cats(res) == cat_row(trees=5, rivers=2, bottom=16)
    assert total(res) == 23


def test_brook_trout_counts_a_trees_river_without_fish_below(tmp_path):
    res = score(tmp_path, P("Solo", [
        river("creek", bottom_1="brook_trout"),     # a fish below: not counted
        rtree("black_gum"),                          # nothing below its river: counted
    ]))
    assert pts(res, "black_gum") == 2               # creek + its own river: counted here
    assert pts(res, "brook_trout") == 3             # 3 x 1 river without a fish below
    assert total(res) == 2 + 1 + 3


def test_bald_eagle_with_four_fish(tmp_path):
    res = score(tmp_path, P("Solo", [
        river("waterfall", top_1="bald_eagle", bottom_1=["yellow_perch", "yellow_perch"],
              bottom_2=["yellow_perch", "yellow_perch"]),
    ]))
    assert pts(res, "bald_eagle") == 10             # 4 fish
    assert total(res) == 10 + 8


def test_black_bear_thirty_with_two_fish_at_its_tree(tmp_path):
    res = score(tmp_path, P("Solo", [
        rtree("hemlock", left="black_bear", bottom_1="yellow_perch",
              bottom_2="smallmouth_bass"),
        tree("yellow_birch", right="black_bear"),
        rtree("hemlock", left="black_bear", bottom_1="yellow_perch"),
        river("creek", bottom_1="smallmouth_bass", bottom_2="yellow_perch"),
    ]))
    # 2 fish at the first Hemlock: 30; no fish at the Birch: 10; 1 fish: 10
    assert each(res, "black_bear") == [30, 10, 10]
    # bass 3 x 2 fish species; perch 2 each; creek 1 x 5 fish
    assert each(res, "smallmouth_bass") == [6, 6]
    assert each(res, "yellow_perch") == [2, 2, 2]
    assert pts(res, "creek") == 5
    assert cats(res) == cat_row(trees=11, rivers=5, bottom=18, left=40, right=10)
    assert total(res) == 84


def test_black_bear_fish_on_another_host_do_not_count(tmp_path):
    res = score(tmp_path, P("Solo", [
        rtree("hemlock", left="black_bear"),
        river("creek", bottom_1="yellow_perch", bottom_2="smallmouth_bass"),
    ]))
    assert pts(res, "black_bear") == 10
    assert total(res) == 5 + 10 + 2 + 2 + 6


# ---------------------------------------------------------------------------------------------
# Host rules: Spotted Skunk, Hickory, Basswood, Virginia Opossum, Turkey, Buckeye
# ---------------------------------------------------------------------------------------------

def test_spotted_skunk_only_species_at_host_river_ignored(tmp_path):
    res = score(tmp_path, P("Solo", [
        rtree("hemlock", left="spotted_skunk"),
        tree("yellow_birch", left="spotted_skunk", right="masked_shrew"),
    ]))
    assert pts(res, "spotted_skunk", host=0) == 10  # the river beneath is ignored
    assert pts(res, "spotted_skunk", host=1) == 0   # a shrew at its tree
    assert cats(res) == cat_row(trees=6, left=10, right=3)
    assert total(res) == 19


def test_spotted_skunk_with_a_card_below_the_river(tmp_path):
    res = score(tmp_path, P("Solo", [rtree("hemlock", right="spotted_skunk",
                                           bottom_1="yellow_perch")]))
    assert pts(res, "spotted_skunk") == 0           # a perch at its tree
    assert total(res) == 7


def test_two_spotted_skunks_are_one_species(tmp_path):
    res = score(tmp_path, P("Solo", [tree("yellow_birch", left="spotted_skunk",
                                          right="spotted_skunk")]))
    assert each(res, "spotted_skunk") == [10, 10]
    assert total(res) == 21


def test_hickory_counts_attached_cards_incl_river(tmp_path):
    res = score(tmp_path, P("Solo", [
        rtree("hickory", top="scarlet_tanager", left="masked_shrew", bottom_1="yellow_perch"),
        tree("hickory", top="scarlet_tanager", bottom="blue_mistflower"),
        rtree("hickory"),
    ]))
    # river + tanager + shrew + perch = 4 -> 8; 2 -> 4; the river alone -> 2
    assert each(res, "hickory") == [8, 4, 2]
    assert cats(res) == cat_row(trees=14, top=4, bottom=4, left=3)
    assert total(res) == 25


def test_basswood_opossum_turkey_buckeye_symbols(tmp_path):
    res = score(tmp_path, P("Solo", [
        rtree("basswood", top=C("virginia_opossum", "hemlock"),
              left=C("red_squirrel", "basswood"), right=C("gray_squirrel", "basswood"),
              bottom_1=C("brook_trout", "basswood"), bottom_2=C("largeleaf_pondweed", "basswood")),
        tree("buckeye", left=C("turkey", "hemlock"), right=C("raccoon", "buckeye"),
             top=C("wood_thrush", "buckeye"), bottom=C("solomons_seal", "buckeye")),
        tree("hemlock", top=C("virginia_opossum", "birch"), bottom=C("blue_mistflower", "fir"),
             left=C("masked_shrew", "birch"), right=C("masked_shrew", "fir")),
    ]))
    # Basswood symbols at its host: the tree, 2 squirrels, trout, pondweed = 5 (river: none)
    assert pts(res, "basswood") == 10
    # opossum at the Basswood: basswood + hemlock (itself) = 2 symbols
    assert pts(res, "virginia_opossum", host=0) == 4
    # opossum at the Hemlock: hemlock, birch (itself, shrew), fir (mistflower, shrew) = 3
    assert pts(res, "virginia_opossum", host=2) == 6
    # Buckeye symbols: the Buckeye, raccoon, wood thrush, Solomon's seal = 4
    assert pts(res, "buckeye") == 4
    # Hemlock symbols: opossum at the Basswood, the turkey itself, the Hemlock tree = 3
    assert pts(res, "turkey") == 6
    assert pts(res, "brook_trout") == 0             # its only river has a fish (itself) below
    assert pts(res, "largeleaf_pondweed") == 2
    assert pts(res, "solomons_seal") == 0           # no amphibians
    assert pts(res, "raccoon") == 0 and pts(res, "wood_thrush") == 0
    assert pts(res, "blue_mistflower") == 2
    assert each(res, "masked_shrew") == [3, 3]
    assert pts(res, "red_squirrel") + pts(res, "gray_squirrel") == 10   # set of 2
    assert cats(res)["trees"] == 19
    assert cats(res)["top"] == 10
    assert cats(res)["bottom"] == 4
    assert cats(res)["left"] + cats(res)["right"] == 6 + 3 + 3 + 10
    assert total(res) == 55
    check_sums(res)


def test_turkey_and_buckeye_count_the_whole_forest(tmp_path):
    res = score(tmp_path, P("Solo", [
        tree("buckeye", right=C("turkey", "buckeye"), bottom=C("eastern_chipmunk", "buckeye")),
        tree("buckeye", left=C("red_squirrel", "buckeye")),
        tree("yellow_birch", right=C("gray_squirrel", "buckeye")),
    ]))
    # Buckeye symbols: 2 Buckeyes, turkey, chipmunk, red squirrel, gray squirrel = 6
    assert each(res, "buckeye") == [6, 6]
    assert pts(res, "turkey") == 12                 # 2 x 6
    # squirrels: 3 species = 20
    assert total(res) == 12 + 1 + 12 + 20


# ---------------------------------------------------------------------------------------------
# Birds, trees, amphibians and plants
# ---------------------------------------------------------------------------------------------

def test_birds_trees_amphibians_plants(tmp_path):
    res = score(tmp_path, P("Solo", [
        tree("fraser_fir", top="peregrine_falcon", left="bobcat",
             right="chestnut_sided_warbler", bottom="wood_frog"),
        tree("silver_maple", top="ruby_throated_hummingbird", left="pileated_woodpecker",
             right="virgins_bower", bottom="blue_mistflower"),
        tree("silver_maple", top="scarlet_tanager", left="yellow_bellied_sapsucker",
             right="white_tailed_deer", bottom="imitator_salamander"),
        tree("silver_maple", top="tufted_titmouse", left="elk", bottom="common_box_turtle"),
        tree("yellow_birch", top="rockcap_fern", bottom="solomons_seal"),
        tree("black_gum"),
        tree("hemlock", top="wood_thrush"),
    ]))
    # 7 trees of 5 species; birds: falcon, warbler, hummingbird, woodpecker, tanager,
    # sapsucker, titmouse, thrush = 8; plants: bower, mistflower, fern, seal = 4;
    # amphibians: wood frog, salamander, box turtle = 3 (3 species)
    assert pts(res, "fraser_fir") == 7
    assert each(res, "silver_maple") == [5, 5, 5]
    assert pts(res, "yellow_birch") == 1
    assert pts(res, "black_gum") == 0               # no rivers
    assert pts(res, "hemlock") == 5
    assert pts(res, "peregrine_falcon") == 8
    assert pts(res, "ruby_throated_hummingbird") == 11   # 4 plants + 7 trees
    assert pts(res, "scarlet_tanager") == 2
    assert pts(res, "tufted_titmouse") == 0 and pts(res, "wood_thrush") == 0
    assert pts(res, "rockcap_fern") == 4
    assert pts(res, "wood_frog") == 7
    assert pts(res, "blue_mistflower") == 2
    assert pts(res, "imitator_salamander") == 10
    assert pts(res, "common_box_turtle") == 5
    assert pts(res, "solomons_seal") == 18          # 6 x 3
    assert pts(res, "bobcat") == 30                 # >= 5 birds
    assert pts(res, "pileated_woodpecker") == 8
    assert pts(res, "yellow_bellied_sapsucker") == 2
    assert pts(res, "elk") == 30                    # 5 tree species
    assert pts(res, "chestnut_sided_warbler") == 5
    assert pts(res, "virgins_bower") == 16          # 2 x 8
    assert pts(res, "white_tailed_deer") == 14      # 2 x 7
    assert cats(res) == cat_row(trees=28, top=25, bottom=42, left=70, right=35)
    assert total(res) == 200
    check_sums(res)


def test_conditions_below_threshold(tmp_path):
    res = score(tmp_path, P("Solo", [
        tree("silver_maple", left="bobcat", right="coyote", top="scarlet_tanager",
             bottom="imitator_salamander"),
        tree("silver_maple", left="elk", right="long_tailed_weasel"),
        tree("yellow_birch", right="masked_shrew"),
    ]))
    # 1 bird, 3 pawed (bobcat, coyote, weasel), 1 mouse, 2 tree species, 1 amphibian, 2 maples
    assert pts(res, "bobcat") == 10
    assert pts(res, "coyote") == 10
    assert pts(res, "elk") == 10
    assert pts(res, "long_tailed_weasel") == 0
    assert pts(res, "imitator_salamander") == 0
    assert each(res, "silver_maple") == [0, 0]
    assert total(res) == 1 + 10 + 10 + 2 + 10 + 3


def test_mice_pawed_and_cave(tmp_path):
    res = score(tmp_path, P("Solo", [
        tree("yellow_birch", top="long_eared_owl", left="long_tailed_weasel",
             right="masked_shrew", bottom="wintergreen"),
        tree("yellow_birch", left="rock_vole", right="short_tailed_shrew", top="flying_squirrel"),
        tree("yellow_birch", left="coyote", right="white_footed_mouse",
             bottom="eastern_chipmunk"),
        tree("yellow_birch", left="gray_fox", right="raccoon"),
        tree("yellow_birch", left="black_bear", right="coyote"),
    ], cave=2))
    # mice: masked shrew, rock vole, short-tailed shrew, white-footed mouse = 4
    # pawed (mice and squirrels are not): weasel, 2 coyotes, gray fox, raccoon, bear = 6
    assert pts(res, "long_eared_owl") == 8
    assert pts(res, "long_tailed_weasel") == 10
    assert pts(res, "masked_shrew") == 3
    assert pts(res, "wintergreen") == 6             # 2 squirrels
    assert pts(res, "rock_vole") == 4               # 4 mice + 0 insects
    assert pts(res, "short_tailed_shrew") == 5
    assert pts(res, "flying_squirrel") + pts(res, "eastern_chipmunk") == 10
    assert each(res, "coyote") == [30, 30]
    assert pts(res, "white_footed_mouse") == 4
    assert pts(res, "gray_fox") == 6
    assert pts(res, "raccoon") == 0
    assert pts(res, "black_bear") == 10
    assert cats(res)["trees"] == 5
    assert cats(res)["top"] + cats(res)["bottom"] == 8 + 6 + 10
    assert cats(res)["left"] == 10 + 4 + 30 + 6 + 10
    assert cats(res)["right"] == 3 + 5 + 4 + 0 + 30
    assert cats(res)["cave"] == 2
    assert total(res) == 133


# ---------------------------------------------------------------------------------------------
# Scorepad and a whole game
# ---------------------------------------------------------------------------------------------

def test_scorepad_rows_include_rivers(tmp_path):
    res = score(tmp_path, P("Solo", [river("creek", bottom_1="yellow_perch"),
                                     tree("hemlock")], cave=1))
    assert list(cats(res)) == ["trees", "rivers", "top", "bottom", "left", "right", "cave"]
    assert cats(res) == cat_row(trees=5, rivers=1, bottom=2, cave=1)
    assert total(res) == 9


def test_two_players_single_winner(tmp_path):
    res = score(tmp_path,
                P("Ana", [rtree("hemlock", left="black_bear", bottom_1="yellow_perch",
                                bottom_2="yellow_perch")], cave=1),
                P("Ben", [tree("hemlock", left="chestnut_sided_warbler"),
                          tree("yellow_birch", left="coyote")], cave=14))
    # Ana: hemlock 5 + bear 30 + perch 4 + cave 1 = 40
    # Ben: hemlock 5 + birch 1 + warbler 5 + coyote 10 + cave 14 = 35
    assert total(res, "Ana") == 40
    assert total(res, "Ben") == 35
    assert res["winners"] == ["Ana"]
    check_sums(res)


# ---------------------------------------------------------------------------------------------
# Coverage
# ---------------------------------------------------------------------------------------------

COVERED = {
    # trees and rivers
    "basswood", "black_gum", "buckeye", "fraser_fir", "hemlock", "hickory", "silver_maple",
    "yellow_birch", "creek", "river_bend", "waterfall",
    # top
    "bald_eagle", "caddisfly", "flying_squirrel", "great_blue_heron", "long_eared_owl",
    "peregrine_falcon", "rockcap_fern", "ruby_throated_hummingbird", "scarlet_tanager",
    "thermometer_cricket", "tufted_titmouse", "virginia_opossum", "water_starwort",
    "wood_thrush",
    # bottom
    "blue_mistflower", "brook_trout", "brown_water_scorpion", "common_box_turtle",
    "eastern_chipmunk", "eastern_hellbender", "greenside_darter", "imitator_salamander",
    "largeleaf_pondweed", "six_spotted_tiger_beetle", "skipper_caterpillar", "smallmouth_bass",
    "solomons_seal", "wintergreen", "wood_frog", "yellow_bullhead", "yellow_perch",
    # left / right
    "beaver", "black_bear", "bobcat", "chestnut_sided_warbler", "coyote", "elk", "gray_fox",
    "gray_squirrel", "long_tailed_weasel", "masked_shrew", "mink", "pileated_woodpecker",
    "raccoon", "red_squirrel", "river_otter", "rock_vole", "short_tailed_shrew",
    "spotted_skunk", "synchronous_firefly", "turkey", "virgins_bower", "weevil_wasp",
    "white_footed_mouse", "white_tailed_deer", "yellow_bellied_sapsucker",
}


def test_every_smoky_species_is_covered():
    ids = {row["id"] for row in api.cards("smoky_mountains", [])}
    assert len(ids) == 67
    assert ids == COVERED
