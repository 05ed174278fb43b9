"""Exact scoring tests for every species of base, Alpine and Woodland Edge.

Every expected value below was worked out by hand from /work/shared/reference/rules.md
(§1.6 scoring, §2 base cards incl. §2.5 clarifications, §3 Alpine / Woodland Edge); the hand
computation is written next to each assertion. Forests are built as dicts, written to tmp_path
as JSON forest files and scored through the public API ``grove.api.score_file``.

Card halves/symbols used were checked against the deck lists (``grove cards ... --json``), so
every forest is legal: sides exist, copies are available, and forests holding a card that scores
by tree symbol (Roe Deer, Chamois, Bison) name the symbol of every multi-symbol card.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scoring_helpers import C, P, cats, each, player, pts, score_doc, total

from grove import api
from grove.dsl.diagnostics import DiagnosticError

EXPANSIONS = {
    "base": [],
    "alpine": ["alpine"],
    "edge": ["woodland_edge"],
    "both": ["alpine", "woodland_edge"],
}






def score(tmp_path, *players, with_="base"):
    return score_doc(tmp_path, "base", EXPANSIONS[with_], players)




















def cat_row(trees=0, top=0, bottom=0, left=0, right=0, cave=0):
    return {"trees": trees, "top": top, "bottom": bottom, "left": left, "right": right,
            "cave": cave}





SAPLING = {"sapling": True}


# ---------------------------------------------------------------------------------------------
# Trees (base)
# ---------------------------------------------------------------------------------------------

def test_linden_majority_ties_count_as_most_and_shared_victory(tmp_path):
    # A and B 3 Lindens each (tie = most) -> 3 each = 9; C has 1 -> 1. C cave 2 -> 3.
    res = score(tmp_path,
                P("A", [{"tree": "linden"}] * 3),
                P("B", [{"tree": "linden"}] * 3),
                P("C", [{"tree": "linden"}], cave=2))
    assert each(res, "linden", "A") == [3, 3, 3]
    assert each(res, "linden", "B") == [3, 3, 3]
    assert each(res, "linden", "C") == [1]
    assert total(res, "A") == total(res, "B") == 9
    assert cats(res, "C") == cat_row(trees=1, cave=2)
    assert total(res, "C") == 3
    assert sorted(res["winners"]) == ["A", "B"]


def test_linden_fewer_than_opponent_scores_1(tmp_path):
    res = score(tmp_path, P("A", [{"tree": "linden"}]),
                P("B", [{"tree": "linden"}, {"tree": "linden"}]))
    assert each(res, "linden", "A") == [1]
    assert each(res, "linden", "B") == [3, 3]
    assert res["winners"] == ["B"]


def test_linden_alone_in_game_is_most(tmp_path):
    res = score(tmp_path, P("Solo", [{"tree": "linden"}, {"tree": "linden"}]))
    assert total(res) == 6


def test_carpenter_bee_helps_linden_majority(tmp_path):
    # A: 2 Lindens + bee at a Linden = 3 Lindens, ties B's 3 -> A 3+3, B 3+3+3.
    res = score(tmp_path,
                P("A", [{"tree": "linden", "left": "violet_carpenter_bee"}, {"tree": "linden"}]),
                P("B", [{"tree": "linden"}] * 3))
    assert each(res, "linden", "A") == [3, 3]
    assert pts(res, "violet_carpenter_bee", "A") == 0
    assert each(res, "linden", "B") == [3, 3, 3]
    assert total(res, "A") == 6 and total(res, "B") == 9


EIGHT_SPECIES = [
    {"tree": "oak", "top": "red_squirrel"},
    {"tree": "oak"},
    {"tree": "linden"},
    {"tree": "silver_fir"},
    {"tree": "birch", "bottom": "wild_strawberries"},
    {"tree": "beech"},
    {"tree": "sycamore"},
    {"tree": "douglas_fir"},
    {"tree": "horse_chestnut"},
]


def test_oak_and_wild_strawberries_with_eight_species(tmp_path):
    res = score(tmp_path, P("Solo", EIGHT_SPECIES))
    assert each(res, "oak") == [10, 10]          # 8 species
    assert pts(res, "wild_strawberries") == 10   # 8 species
    assert pts(res, "red_squirrel") == 5         # atop an Oak
    assert pts(res, "linden") == 3               # nobody has more
    assert pts(res, "silver_fir") == 0           # nothing attached
    assert pts(res, "birch") == 1
    assert pts(res, "beech") == 0                # 1 < 4
    assert pts(res, "sycamore") == 9             # 9 trees incl. itself
    assert pts(res, "douglas_fir") == 5
    assert pts(res, "horse_chestnut") == 1       # 1²
    # trees 20+3+0+1+0+9+5+1 = 39
    assert cats(res) == cat_row(trees=39, top=5, bottom=10)
    assert total(res) == 54


def test_oak_seven_species_and_a_sapling_scores_nothing(tmp_path):
    forest = EIGHT_SPECIES[:-1] + [SAPLING]  # horse chestnut replaced by a sapling
    res = score(tmp_path, P("Solo", forest))
    assert each(res, "oak") == [0, 0]
    assert pts(res, "wild_strawberries") == 0
    assert pts(res, "sycamore") == 9             # sapling counts as a tree
    # trees: 0+0+3+0+1+0+9+5 = 18; top squirrel 5
    assert total(res) == 23


def test_carpenter_bee_neither_doubles_oak_nor_counts_for_sycamore(tmp_path):
    forest = [dict(h) for h in EIGHT_SPECIES]
    forest[1]["left"] = "violet_carpenter_bee"   # bee at the second Oak
    res = score(tmp_path, P("Solo", forest))
    assert each(res, "oak") == [10, 10]
    assert pts(res, "sycamore") == 9             # bees do not count for Sycamore
    assert pts(res, "violet_carpenter_bee") == 0
    assert total(res) == 54


def test_silver_fir_two_per_attached_card(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "silver_fir", "top": "tawny_owl", "bottom": "pond_turtle",
         "left": "european_hare", "right": ["european_hare", "european_hare"]},
        {"tree": "silver_fir"},
    ]))
    assert pts(res, "silver_fir", host=0) == 10  # 5 attached cards
    assert pts(res, "silver_fir", host=1) == 0
    assert each(res, "european_hare") == [3, 3, 3]
    assert cats(res) == cat_row(trees=10, top=5, bottom=5, left=3, right=6)
    assert total(res) == 29


def test_birch_and_douglas_fir(tmp_path):
    res = score(tmp_path, P("Solo", [{"tree": "birch"}, {"tree": "birch"},
                                     {"tree": "douglas_fir"}]))
    assert each(res, "birch") == [1, 1]
    assert pts(res, "douglas_fir") == 5
    assert total(res) == 7


def test_beech_needs_four(tmp_path):
    res = score(tmp_path, P("A", [{"tree": "beech"}] * 4), P("B", [{"tree": "beech"}] * 3))
    assert each(res, "beech", "A") == [5, 5, 5, 5]
    assert each(res, "beech", "B") == [0, 0, 0]
    assert res["winners"] == ["A"]


def test_carpenter_bee_three_beeches_count_as_four(tmp_path):
    res = score(tmp_path, P("Solo", [{"tree": "beech", "left": "violet_carpenter_bee"},
                                     {"tree": "beech"}, {"tree": "beech"}]))
    assert each(res, "beech") == [5, 5, 5]
    assert pts(res, "violet_carpenter_bee") == 0
    assert total(res) == 15


def test_sycamore_counts_saplings(tmp_path):
    res = score(tmp_path, P("Solo", [{"tree": "sycamore"}, SAPLING, SAPLING, {"tree": "birch"}]))
    assert pts(res, "sycamore") == 4
    assert total(res) == 5


def test_sycamore_ignores_carpenter_bee(tmp_path):
    res = score(tmp_path, P("Solo", [{"tree": "sycamore", "left": "violet_carpenter_bee"},
                                     {"tree": "birch"}]))
    assert pts(res, "sycamore") == 2
    assert total(res) == 3


@pytest.mark.parametrize("n,expected", [(1, 1), (3, 9), (6, 36), (7, 49), (8, 49)])
def test_horse_chestnut_square_capped_at_49(tmp_path, n, expected):
    res = score(tmp_path, P("Solo", [{"tree": "horse_chestnut"}] * n))
    assert pts(res, "horse_chestnut") == expected
    assert cats(res)["trees"] == expected


def test_carpenter_bees_two_horse_chestnuts_count_as_four(tmp_path):
    res = score(tmp_path, P("Solo", [{"tree": "horse_chestnut", "left": "violet_carpenter_bee"},
                                     {"tree": "horse_chestnut", "right": "violet_carpenter_bee"}]))
    assert pts(res, "horse_chestnut") == 16
    assert pts(res, "violet_carpenter_bee") == 0
    assert total(res) == 16


# ---------------------------------------------------------------------------------------------
# Left/right dwellers (base)
# ---------------------------------------------------------------------------------------------

def test_european_hares_score_n_squared_sharing_slots(tmp_path):
    res = score(tmp_path, P("Solo", [{"tree": "birch",
                                      "left": ["european_hare", "european_hare"],
                                      "right": ["european_hare", "european_hare"]}]))
    assert each(res, "european_hare") == [4, 4, 4, 4]
    assert cats(res) == cat_row(trees=1, left=8, right=8)
    assert total(res) == 17


def test_red_fox_two_per_hare(tmp_path):
    res = score(tmp_path, P("Solo", [{"tree": "birch",
                                      "left": ["european_hare"] * 3, "right": "red_fox"}]))
    assert each(res, "european_hare") == [3, 3, 3]
    assert pts(res, "red_fox") == 6
    assert total(res) == 16


def test_mountain_hare_counts_as_hare_for_hares_and_fox(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "european_hare", "right": "european_hare"},
        {"tree": "birch", "left": "mountain_hare", "right": "red_fox"},
    ]), with_="alpine")
    # 3 hares: each 3; fox 2*3
    assert each(res, "european_hare") == [3, 3]
    assert pts(res, "mountain_hare") == 3
    assert pts(res, "red_fox") == 6
    assert cats(res) == cat_row(trees=2, left=6, right=9)
    assert total(res) == 17


def test_mountain_hares_do_not_share_a_slot(tmp_path):
    with pytest.raises(DiagnosticError):
        score(tmp_path, P("Solo", [{"tree": "birch",
                                    "left": ["mountain_hare", "mountain_hare"]}]),
              with_="alpine")


def test_badger_raccoon_brown_bear(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "european_badger", "right": "raccoon"},
        {"tree": "birch", "left": "brown_bear"},
    ]))
    assert pts(res, "european_badger") == 2
    assert pts(res, "raccoon") == 0
    assert pts(res, "brown_bear") == 0
    assert total(res) == 4


def test_beech_marten_fully_occupied_trees_and_saplings(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "top": "tawny_owl", "bottom": "pond_turtle",
         "left": "beech_marten", "right": "european_badger"},                    # full
        {"sapling": True, "top": "eurasian_jay", "bottom": "pond_turtle",
         "left": "european_badger", "right": "squeaker"},                        # full
        {"tree": "douglas_fir", "top": "tawny_owl", "bottom": "mole",
         "left": "european_badger"},                                             # 3 of 4
    ]))
    assert pts(res, "beech_marten") == 10
    # trees 1+0+5; top 5+3+5; bottom 5+5+0; left 10+2+2; right 2+1
    assert cats(res) == cat_row(trees=6, top=13, bottom=10, left=14, right=3)
    assert total(res) == 46


def test_fat_dormouse_needs_bat_at_same_tree(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "european_fat_dormouse", "right": "greater_horseshoe_bat"},
        {"tree": "birch", "left": "barbastelle_bat", "right": "european_fat_dormouse"},
        {"tree": "birch", "left": "european_fat_dormouse"},
    ]))
    assert pts(res, "european_fat_dormouse", host=0) == 15
    assert pts(res, "european_fat_dormouse", host=1) == 15
    assert pts(res, "european_fat_dormouse", host=2) == 0
    assert pts(res, "greater_horseshoe_bat") == 0 and pts(res, "barbastelle_bat") == 0
    assert cats(res) == cat_row(trees=3, left=15, right=15)
    assert total(res) == 33


def test_lynx_needs_a_roe_deer(tmp_path):
    res = score(tmp_path,
                P("A", [{"tree": "birch", "left": C("lynx", "horse_chestnut")}]),
                P("B", [{"tree": "birch", "left": C("lynx", "douglas_fir"),
                         "right": C("roe_deer", "birch")}]))
    assert pts(res, "lynx", "A") == 0
    assert pts(res, "lynx", "B") == 10
    assert pts(res, "roe_deer", "B") == 6        # birch tree + itself
    assert total(res, "A") == 1 and total(res, "B") == 17


def test_roe_deer_three_per_card_with_its_symbol(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "beech", "top": C("chaffinch", "beech"), "left": C("european_hare", "beech"),
         "right": C("roe_deer", "beech")},
        {"tree": "birch", "top": C("tawny_owl", "beech"), "bottom": C("hedgehog", "beech")},
        {"sapling": True, "top": C("goshawk", "oak")},
    ]))
    # beech symbols: beech tree, chaffinch, hare, roe deer, owl, hedgehog = 6 (sapling has none)
    assert pts(res, "roe_deer") == 18
    assert pts(res, "chaffinch") == 5
    assert pts(res, "goshawk") == 9              # 3 birds
    assert pts(res, "hedgehog") == 0
    assert cats(res) == cat_row(trees=1, top=19, left=1, right=18)
    assert total(res) == 39


def test_wolf_red_deer_fallow_deer(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "wolf", "right": "red_deer"},
        {"tree": "birch", "left": "fallow_deer"},
    ]))
    assert pts(res, "wolf") == 10                # 2 deer
    assert pts(res, "red_deer") == 2             # 2 trees, 0 plants
    assert pts(res, "fallow_deer") == 6          # 2 cloven-hoofed (deer are cloven)
    assert total(res) == 20


def test_wild_boar_needs_squeaker(tmp_path):
    res = score(tmp_path,
                P("A", [{"tree": "birch", "left": "wild_boar", "right": "squeaker"}]),
                P("B", [{"tree": "birch", "left": "wild_boar"}]))
    assert pts(res, "wild_boar", "A") == 10
    assert pts(res, "squeaker", "A") == 1
    assert pts(res, "wild_boar", "B") == 0
    assert total(res, "A") == 12 and total(res, "B") == 1


def test_fallow_deer_counts_all_cloven(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "fallow_deer", "right": "wild_boar"},
        {"tree": "birch", "right": "squeaker"},
    ]))
    assert pts(res, "fallow_deer") == 9          # fallow, boar, squeaker
    assert pts(res, "wild_boar") == 10
    assert total(res) == 22


def test_red_deer_counts_saplings_and_plants_not_bees(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "red_deer", "bottom": "moss"},
        {"sapling": True, "bottom": "blackberries", "right": "violet_carpenter_bee"},
    ]))
    assert pts(res, "red_deer") == 4             # 2 trees (sapling incl.) + 2 plants
    assert pts(res, "moss") == 0                 # 2 trees + 1 bee < 10
    assert pts(res, "blackberries") == 4         # 2 plants
    assert total(res) == 9


def test_bats_three_species_and_gnat(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "barbastelle_bat", "right": "bechsteins_bat"},
        {"tree": "birch", "left": "brown_long_eared_bat", "right": "gnat"},
    ]))
    assert pts(res, "barbastelle_bat") == 5
    assert pts(res, "bechsteins_bat") == 5
    assert pts(res, "brown_long_eared_bat") == 5
    assert pts(res, "gnat") == 3
    assert cats(res) == cat_row(trees=2, left=10, right=8)
    assert total(res) == 20


def test_bats_two_species_score_nothing(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "barbastelle_bat", "right": "greater_horseshoe_bat"},
        {"tree": "birch", "left": "barbastelle_bat"},
    ]))
    assert each(res, "barbastelle_bat") == [0, 0]
    assert pts(res, "greater_horseshoe_bat") == 0
    assert total(res) == 2


def test_greater_horseshoe_bat_in_a_three_species_set(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "bechsteins_bat", "right": "greater_horseshoe_bat"},
        {"tree": "birch", "left": "brown_long_eared_bat", "right": "greater_horseshoe_bat"},
    ]))
    assert each(res, "greater_horseshoe_bat") == [5, 5]
    assert total(res) == 2 + 20


def test_tree_frog_five_per_gnat(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "bottom": "tree_frog", "left": "gnat"},
        {"tree": "birch", "right": "gnat"},
    ]))
    assert pts(res, "tree_frog") == 10
    assert each(res, "gnat") == [0, 0]          # no bats
    assert total(res) == 12


# ---------------------------------------------------------------------------------------------
# Top dwellers (base)
# ---------------------------------------------------------------------------------------------

def test_goshawk_tawny_owl_jay(tmp_path):
    res = score(tmp_path, P("Solo", [{"tree": "birch", "top": "goshawk"},
                                     {"tree": "birch", "top": "tawny_owl"},
                                     {"tree": "birch", "top": "eurasian_jay"}]))
    assert pts(res, "goshawk") == 9
    assert pts(res, "tawny_owl") == 5
    assert pts(res, "eurasian_jay") == 3
    assert cats(res) == cat_row(trees=3, top=17)
    assert total(res) == 20


def test_great_spotted_woodpecker_majority_counts_saplings(tmp_path):
    res = score(tmp_path,
                P("A", [{"tree": "birch", "top": "great_spotted_woodpecker"}, SAPLING]),
                P("B", [{"tree": "birch", "top": "great_spotted_woodpecker"}, {"tree": "linden"}]),
                P("C", [{"tree": "birch", "top": "great_spotted_woodpecker"}]))
    assert pts(res, "great_spotted_woodpecker", "A") == 10   # 2 trees, tie = most
    assert pts(res, "great_spotted_woodpecker", "B") == 10
    assert pts(res, "great_spotted_woodpecker", "C") == 0
    assert total(res, "A") == 11
    assert total(res, "B") == 14                              # + Linden 3
    assert total(res, "C") == 1
    assert res["winners"] == ["B"]


def test_great_spotted_woodpecker_counts_carpenter_bee(tmp_path):
    res = score(tmp_path,
                P("A", [{"tree": "birch", "top": "great_spotted_woodpecker",
                         "left": "violet_carpenter_bee"}, {"tree": "birch"}]),
                P("B", [{"tree": "birch"}] * 3))
    assert pts(res, "great_spotted_woodpecker", "A") == 10   # 2 trees + bee = 3 = B
    assert total(res, "A") == 12 and total(res, "B") == 3


def test_great_spotted_woodpecker_loses_to_more_trees(tmp_path):
    res = score(tmp_path,
                P("A", [{"tree": "birch", "top": "great_spotted_woodpecker",
                         "left": "violet_carpenter_bee"}, {"tree": "birch"}]),
                P("B", [{"tree": "birch"}] * 4))
    assert pts(res, "great_spotted_woodpecker", "A") == 0
    assert total(res, "A") == 2


def test_chaffinch_and_red_squirrel_need_their_tree(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "top": "chaffinch"}, {"tree": "beech", "top": "chaffinch"},
        {"tree": "oak", "top": "red_squirrel"}, {"tree": "birch", "top": "red_squirrel"},
        {"sapling": True, "top": "red_squirrel"},
    ]))
    assert pts(res, "chaffinch", host=0) == 0
    assert pts(res, "chaffinch", host=1) == 5
    assert pts(res, "red_squirrel", host=2) == 5
    assert pts(res, "red_squirrel", host=3) == 0
    assert pts(res, "red_squirrel", host=4) == 0
    # trees: birch 1 + beech 0 + oak 0 + birch 1
    assert total(res) == 2 + 10


def test_bullfinch_two_per_insect(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "top": "bullfinch", "bottom": "stag_beetle", "left": "gnat"},
        {"tree": "birch", "top": "peacock_butterfly"},
    ]))
    assert pts(res, "bullfinch") == 6            # stag beetle, gnat, butterfly
    assert pts(res, "stag_beetle") == 0          # no pawed animals
    assert pts(res, "peacock_butterfly") == 0    # set of 1
    assert total(res) == 8


def _butterflies(*species):
    return [{"tree": "birch", "top": s} for s in species]


def test_butterflies_layered_sets_two_peacock_one_emperor(tmp_path):
    res = score(tmp_path, P("Solo", _butterflies("peacock_butterfly", "peacock_butterfly",
                                                 "purple_emperor")))
    # sets {peacock, emperor} = 3 and {peacock} = 0
    assert pts(res, "peacock_butterfly") + pts(res, "purple_emperor") == 3
    assert cats(res) == cat_row(trees=3, top=3)
    assert total(res) == 6


def test_butterflies_all_five_base_species_plus_a_second_layer(tmp_path):
    bs = ["silver_washed_fritillary", "purple_emperor", "camberwell_beauty",
          "large_tortoiseshell", "peacock_butterfly"]
    res = score(tmp_path, P("Solo", _butterflies(*bs, "peacock_butterfly", "purple_emperor")))
    # {5 species} = 20, {peacock, emperor} = 3
    assert sum(pts(res, b) for b in bs) == 23
    assert cats(res)["top"] == 23
    assert total(res) == 30


def test_butterflies_seven_species_with_both_expansions(tmp_path):
    bs = ["silver_washed_fritillary", "purple_emperor", "camberwell_beauty",
          "large_tortoiseshell", "peacock_butterfly", "phoebus_apollo", "map_butterfly"]
    res = score(tmp_path, P("Solo", _butterflies(*bs)), with_="both")
    assert sum(pts(res, b) for b in bs) == 55
    assert total(res) == 62


def test_hedgehog_two_per_butterfly(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "top": "peacock_butterfly", "bottom": "hedgehog"},
        {"tree": "birch", "top": "purple_emperor"},
    ]))
    assert pts(res, "hedgehog") == 4
    assert pts(res, "peacock_butterfly") + pts(res, "purple_emperor") == 3
    assert total(res) == 9


# ---------------------------------------------------------------------------------------------
# Bottom dwellers (base)
# ---------------------------------------------------------------------------------------------

def test_moss_ten_trees_with_saplings(tmp_path):
    res = score(tmp_path, P("Solo", [{"tree": "birch", "bottom": "moss"}] + [SAPLING] * 9))
    assert pts(res, "moss") == 10
    assert total(res) == 11


def test_moss_nine_trees_and_a_carpenter_bee(tmp_path):
    forest = [{"tree": "birch", "bottom": "moss", "left": "violet_carpenter_bee"}]
    forest += [SAPLING] * 4 + [{"tree": "birch"}] * 4
    res = score(tmp_path, P("Solo", forest))
    assert pts(res, "moss") == 10                # 9 trees + 1 bee
    assert total(res) == 15


def test_moss_nine_trees_scores_nothing(tmp_path):
    res = score(tmp_path, P("Solo", [{"tree": "birch", "bottom": "moss"}] + [SAPLING] * 8))
    assert pts(res, "moss") == 0
    assert total(res) == 1


def test_wood_ant_counts_bottom_slots_of_trees_and_saplings(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "bottom": "wood_ant"},
        {"sapling": True, "bottom": ["common_toad", "common_toad"]},
        {"tree": "linden", "bottom": "pond_turtle", "top": "tawny_owl"},
    ]))
    assert pts(res, "wood_ant") == 8             # ant, toad, toad, turtle
    assert each(res, "common_toad") == [5, 5]
    # trees 1+3; top 5; bottom 8+10+5
    assert cats(res) == cat_row(trees=4, top=5, bottom=23)
    assert total(res) == 32


def test_fire_salamander_one_and_two(tmp_path):
    res = score(tmp_path,
                P("A", [{"tree": "birch", "bottom": "fire_salamander"}]),
                P("B", [{"tree": "birch", "bottom": "fire_salamander"},
                        {"tree": "birch", "bottom": "fire_salamander"}]))
    assert pts(res, "fire_salamander", "A") == 5
    assert pts(res, "fire_salamander", "B") == 15
    assert total(res, "B") == 17


def test_fire_salamander_three(tmp_path):
    res = score(tmp_path, P("Solo", [{"tree": "birch", "bottom": "fire_salamander"}] * 3))
    assert pts(res, "fire_salamander") == 25
    assert cats(res) == cat_row(trees=3, bottom=25)


def test_fireflies_one_and_three(tmp_path):
    res = score(tmp_path,
                P("A", [{"tree": "birch", "bottom": "fireflies"}]),
                P("B", [{"tree": "birch", "bottom": "fireflies"}] * 3))
    assert pts(res, "fireflies", "A") == 0
    assert pts(res, "fireflies", "B") == 15


@pytest.mark.parametrize("n,expected", [(2, 10), (4, 20)])
def test_fireflies_two_and_four(tmp_path, n, expected):
    res = score(tmp_path, P("Solo", [{"tree": "birch", "bottom": "fireflies"}] * n))
    assert pts(res, "fireflies") == expected
    assert total(res) == n + expected


def test_pond_turtle_and_common_toad_pairs(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "bottom": "common_toad"},
        {"tree": "birch", "bottom": ["common_toad", "common_toad"]},
        {"tree": "birch", "bottom": "pond_turtle"},
    ]))
    assert pts(res, "common_toad", host=0) == 0  # lone toad
    assert each(res, "common_toad")[1:] == [5, 5]
    assert pts(res, "pond_turtle") == 5
    assert total(res) == 3 + 10 + 5


def test_three_toads_cannot_share(tmp_path):
    with pytest.raises(DiagnosticError):
        score(tmp_path, P("Solo", [{"tree": "birch", "bottom": ["common_toad"] * 3}]))


def test_stag_beetle_one_per_pawed(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "bottom": "stag_beetle", "left": "european_hare", "right": "red_fox"},
        {"tree": "birch", "top": "red_squirrel"},
    ]))
    assert pts(res, "stag_beetle") == 3          # hare, fox, squirrel
    assert pts(res, "european_hare") == 1
    assert pts(res, "red_fox") == 2
    assert pts(res, "red_squirrel") == 0
    assert total(res) == 8


def test_tree_ferns_six_per_amphibian(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "bottom": "tree_ferns"},
        {"tree": "birch", "bottom": "pond_turtle"},
        {"tree": "birch", "bottom": "fire_salamander"},
        {"tree": "birch", "bottom": "common_toad"},
    ]))
    assert pts(res, "tree_ferns") == 18
    assert total(res) == 18 + 5 + 5 + 0 + 4


def test_blackberries_two_per_plant(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "bottom": "blackberries"},
        {"tree": "birch", "bottom": "moss"},
        {"tree": "birch", "bottom": "tree_ferns"},
    ]))
    assert pts(res, "blackberries") == 6
    assert pts(res, "moss") == 0 and pts(res, "tree_ferns") == 0
    assert total(res) == 9


def test_mole_and_mushrooms_score_nothing(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "bottom": b}
        for b in ["mole", "chanterelle", "fly_agaric", "parasol_mushroom", "penny_bun"]]))
    for b in ["mole", "chanterelle", "fly_agaric", "parasol_mushroom", "penny_bun"]:
        assert pts(res, b) == 0
    assert total(res) == 5


# ---------------------------------------------------------------------------------------------
# Alpine
# ---------------------------------------------------------------------------------------------

def test_larch_stone_pine_raven_edelweiss_steinbock(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "european_larch"},
        {"tree": "stone_pine", "top": "common_raven", "bottom": "edelweiss"},
        {"tree": "birch", "left": "steinbock"},
    ]), with_="alpine")
    assert pts(res, "european_larch") == 3
    assert pts(res, "stone_pine") == 5           # larch, pine, raven, edelweiss, steinbock
    assert pts(res, "common_raven") == 5
    assert pts(res, "edelweiss") == 3
    assert pts(res, "steinbock") == 10
    assert cats(res) == cat_row(trees=9, top=5, bottom=3, left=10)
    assert total(res) == 27


def test_alpine_marmot_three_per_different_plant_species(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "alpine_marmot", "bottom": "moss"},
        {"tree": "birch", "bottom": "moss"},
        {"tree": "birch", "bottom": "blackberries"},
        {"tree": "european_larch", "bottom": "edelweiss"},
    ]), with_="alpine")
    assert pts(res, "alpine_marmot") == 9        # moss, blackberries, edelweiss
    assert pts(res, "blackberries") == 8         # 4 plants
    assert total(res) == 9 + 8 + 3 + 3 + 3


def test_chamois_three_per_card_with_its_symbol(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "stone_pine", "right": C("chamois", "stone_pine"),
         "top": C("phoebus_apollo", "stone_pine"), "bottom": C("black_trumpet", "stone_pine")},
        {"tree": "european_larch", "left": C("steinbock", "european_larch")},
    ]), with_="alpine")
    # stone pine symbols: tree, chamois, phoebus, black trumpet
    assert pts(res, "chamois") == 12
    assert pts(res, "stone_pine") == 6           # 6 Alps cards
    assert pts(res, "black_trumpet") == 0
    assert pts(res, "phoebus_apollo") == 0       # set of 1
    assert cats(res) == cat_row(trees=9, left=10, right=12)
    assert total(res) == 31


def test_capercaillie_and_gentian(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "capercaillie", "bottom": "moss"},
        {"tree": "birch", "bottom": "gentian"},
    ]), with_="alpine")
    assert pts(res, "capercaillie") == 2
    assert pts(res, "gentian") == 0
    assert total(res) == 4


def test_gentian_three_per_butterfly(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "bottom": "gentian", "top": "peacock_butterfly"},
        {"tree": "birch", "top": "phoebus_apollo"},
    ]), with_="alpine")
    assert pts(res, "gentian") == 6
    assert pts(res, "peacock_butterfly") + pts(res, "phoebus_apollo") == 3
    assert total(res) == 11


def test_golden_eagle_pawed_and_amphibians(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "top": "golden_eagle", "left": "european_hare",
         "bottom": "pond_turtle"},
        {"tree": "birch", "bottom": "alpine_newt"},
    ]), with_="alpine")
    assert pts(res, "golden_eagle") == 3         # 1 pawed + 2 amphibians
    assert pts(res, "alpine_newt") == 0          # no insects
    assert total(res) == 3 + 1 + 5 + 0 + 2


def test_bearded_vulture_one_per_cave_card(tmp_path):
    res = score(tmp_path, P("Solo", [{"tree": "birch", "top": "bearded_vulture"}], cave=4),
                with_="alpine")
    assert pts(res, "bearded_vulture") == 4
    assert cats(res) == cat_row(trees=1, top=4, cave=4)
    assert total(res) == 9


def test_blueberry_two_per_different_bird_species(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "bottom": "blueberry", "top": "tawny_owl"},
        {"tree": "birch", "top": "tawny_owl"},
        {"tree": "birch", "top": "goshawk", "left": "capercaillie"},
    ]), with_="alpine")
    assert pts(res, "blueberry") == 6            # owl, goshawk, capercaillie
    assert pts(res, "goshawk") == 12             # 4 birds
    assert pts(res, "capercaillie") == 1         # 1 plant
    assert total(res) == 6 + 10 + 12 + 1 + 3


def test_alpine_newt_two_per_insect(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "bottom": "alpine_newt", "left": "gnat"},
        {"tree": "birch", "top": "peacock_butterfly"},
    ]), with_="alpine")
    assert pts(res, "alpine_newt") == 4
    assert total(res) == 6


def test_bats_with_expansion_species(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "savis_pipistrelle", "right": "common_pipistrelle"},
        {"tree": "birch", "left": "barbastelle_bat", "right": "crane_fly"},
    ]), with_="both")
    assert pts(res, "savis_pipistrelle") == 5
    assert pts(res, "common_pipistrelle") == 5
    assert pts(res, "barbastelle_bat") == 5
    assert pts(res, "crane_fly") == 3
    assert total(res) == 20


def test_savis_pipistrelle_two_species_nothing(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "savis_pipistrelle", "right": "gnat"},
        {"tree": "birch", "left": "bechsteins_bat"},
    ]), with_="alpine")
    assert pts(res, "savis_pipistrelle") == 0
    assert pts(res, "bechsteins_bat") == 0
    assert pts(res, "gnat") == 2
    assert total(res) == 4


# ---------------------------------------------------------------------------------------------
# Woodland Edge
# ---------------------------------------------------------------------------------------------

def test_female_wild_boar_ten_per_squeaker_of_both_editions(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "female_wild_boar", "right": "base:squeaker"},
        {"tree": "birch", "right": "woodland_edge:squeaker"},
    ]), with_="edge")
    assert pts(res, "female_wild_boar") == 20
    assert sum(c["points"] for c in player(res)["cards"] if c["card"].endswith("squeaker")) == 2
    assert total(res) == 24


def test_wild_boar_counts_woodland_edge_squeaker(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "wild_boar", "right": "woodland_edge:squeaker"},
    ]), with_="edge")
    assert pts(res, "wild_boar") == 10
    assert total(res) == 12


def test_bee_swarm_counts_plants_not_shrubs(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "bee_swarm", "bottom": "digitalis"},
        {"tree": "birch", "bottom": "moss"},
        {"shrub": "elderberry", "symbol": "linden"},
    ]), with_="edge")
    assert pts(res, "bee_swarm") == 2
    assert pts(res, "digitalis") == 3            # 2 plant species
    assert pts(res, "elderberry") == 0
    assert total(res) == 7


def test_european_bison_oak_or_beech_symbols(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "oak", "left": C("european_bison", "oak"), "top": C("red_squirrel", "oak")},
        {"tree": "beech", "top": C("chaffinch", "beech")},
        {"tree": "birch", "top": C("tawny_owl", "birch")},
        {"shrub": "common_hazel", "symbol": "beech"},
    ]), with_="edge")
    # oak, bison, squirrel, beech, chaffinch, hazel(beech) = 6
    assert pts(res, "european_bison") == 12
    assert pts(res, "common_hazel") == 0
    assert cats(res) == cat_row(trees=1, top=15, left=12)
    assert total(res) == 28


def test_european_wildcat_one_per_woodland_edge_card(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "right": "european_wildcat", "top": "map_butterfly"},
        {"shrub": "blackthorn", "symbol": "douglas_fir"},
    ]), with_="edge")
    assert pts(res, "european_wildcat") == 3     # wildcat, map butterfly, blackthorn
    assert pts(res, "map_butterfly") == 0
    assert pts(res, "blackthorn") == 0
    assert total(res) == 4


def test_crane_fly_one_per_bat(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "crane_fly", "right": "common_pipistrelle"},
        {"tree": "birch", "left": "barbastelle_bat"},
    ]), with_="edge")
    assert pts(res, "crane_fly") == 2
    assert pts(res, "common_pipistrelle") == 0   # only 2 bat species
    assert total(res) == 4


def test_european_polecat_alone(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "european_polecat"},
        {"tree": "birch", "right": "european_polecat", "top": "tawny_owl"},
        {"shrub": "elderberry", "symbol": "oak", "right": "european_polecat"},
    ]), with_="edge")
    assert pts(res, "european_polecat", host=0) == 10
    assert pts(res, "european_polecat", host=1) == 0
    assert pts(res, "european_polecat", host=2) == 10
    assert cats(res) == cat_row(trees=2, top=5, left=10, right=10)
    assert total(res) == 27


def test_shrubs_are_not_trees_for_sycamore_and_wood_ant(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "sycamore"},
        {"shrub": "elderberry", "symbol": "linden"},
        {"shrub": "common_hazel", "symbol": "oak", "bottom": "digitalis"},
        {"shrub": "blackthorn", "symbol": "birch"},
        {"sapling": True, "bottom": "wood_ant"},
    ]), with_="edge")
    assert pts(res, "sycamore") == 2             # sycamore + sapling
    assert pts(res, "wood_ant") == 2             # digitalis below a shrub not counted
    assert pts(res, "digitalis") == 1
    for s in ("elderberry", "common_hazel", "blackthorn"):
        assert pts(res, s) == 0
    assert cats(res) == cat_row(trees=2, bottom=3)
    assert total(res) == 5


def test_shrubs_do_not_count_for_woodpecker(tmp_path):
    res = score(tmp_path,
                P("A", [{"tree": "birch", "top": "great_spotted_woodpecker"},
                        {"shrub": "elderberry", "symbol": "linden"},
                        {"shrub": "blackthorn", "symbol": "birch"}]),
                P("B", [{"tree": "birch"}, {"tree": "birch"}]), with_="edge")
    assert pts(res, "great_spotted_woodpecker", "A") == 0
    assert total(res, "A") == 1


def test_beech_marten_ignores_full_shrub(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "left": "beech_marten"},
        {"shrub": "elderberry", "symbol": "birch", "top": "eurasian_magpie",
         "bottom": "water_vole", "left": "base:squeaker", "right": "european_badger"},
    ]), with_="edge")
    assert pts(res, "beech_marten") == 0
    assert pts(res, "eurasian_magpie") == 3
    assert pts(res, "water_vole") == 0
    assert total(res) == 1 + 3 + 1 + 2


def test_moss_ignores_shrubs(tmp_path):
    forest = ([{"tree": "birch", "bottom": "moss"}] + [SAPLING] * 8
              + [{"shrub": "elderberry", "symbol": "linden"}])
    res = score(tmp_path, P("Solo", forest), with_="edge")
    assert pts(res, "moss") == 0                 # 9 trees; the shrub is not a tree
    assert total(res) == 1


def test_nightingale_on_a_shrub(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"shrub": "blackthorn", "symbol": "sycamore", "top": "nightingale"},
        {"tree": "birch", "top": "nightingale"},
    ]), with_="edge")
    assert pts(res, "nightingale", host=0) == 5
    assert pts(res, "nightingale", host=1) == 0
    assert total(res) == 6


def test_barn_owl_three_per_bat(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "top": "barn_owl", "left": "barbastelle_bat",
         "right": "common_pipistrelle"},
    ]), with_="edge")
    assert pts(res, "barn_owl") == 6
    assert total(res) == 7


def test_digitalis_each_by_distinct_plant_species(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "bottom": "digitalis"},
        {"tree": "birch", "bottom": "digitalis"},
        {"tree": "birch", "bottom": "moss"},
        {"tree": "birch", "bottom": "blackberries"},
    ]), with_="edge")
    assert each(res, "digitalis") == [6, 6]      # 3 species
    assert pts(res, "blackberries") == 8         # 4 plants
    assert total(res) == 24


def test_digitalis_caps_at_fifteen(tmp_path):
    plants = ["digitalis", "moss", "blackberries", "tree_ferns", "wild_strawberries",
              "stinging_nettle"]
    res = score(tmp_path, P("Solo", [{"tree": "birch", "bottom": b} for b in plants]),
                with_="edge")
    assert pts(res, "digitalis") == 15           # 6 species -> 5+ column
    assert pts(res, "blackberries") == 12
    for b in ("moss", "tree_ferns", "wild_strawberries", "stinging_nettle"):
        assert pts(res, b) == 0
    assert total(res) == 6 + 15 + 12


def test_stinging_nettle_lets_butterflies_share_top(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "bottom": "stinging_nettle",
         "top": ["peacock_butterfly", "purple_emperor", "map_butterfly"]},
        {"tree": "birch", "top": "peacock_butterfly"},
    ]), with_="edge")
    assert pts(res, "stinging_nettle") == 8      # 4 butterflies
    bs = ["peacock_butterfly", "purple_emperor", "map_butterfly"]
    assert sum(pts(res, b) for b in bs) == 6     # {peacock, emperor, map}=6, {peacock}=0
    assert cats(res) == cat_row(trees=2, top=6, bottom=8)
    assert total(res) == 16


def test_butterflies_cannot_share_without_nettle(tmp_path):
    with pytest.raises(DiagnosticError):
        score(tmp_path, P("Solo", [
            {"tree": "birch", "top": ["peacock_butterfly", "purple_emperor"]}]), with_="edge")


def test_great_green_bush_cricket_one_per_insect(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "bottom": "great_green_bush_cricket", "left": "gnat",
         "top": "peacock_butterfly"},
    ]), with_="edge")
    assert pts(res, "great_green_bush_cricket") == 3
    assert total(res) == 4


# ---------------------------------------------------------------------------------------------
# Whole forests: scorepad rows and winners
# ---------------------------------------------------------------------------------------------

ANA = [
    {"tree": "oak", "top": "red_squirrel", "left": "european_hare",
     "right": ["european_hare", "european_hare"], "bottom": "common_toad"},
    {"tree": "linden", "top": "peacock_butterfly", "left": "red_fox",
     "bottom": ["common_toad", "common_toad"]},
    {"tree": "linden", "top": "purple_emperor"},
    {"sapling": True, "top": "camberwell_beauty", "bottom": "moss"},
]
BEN = [
    {"tree": "beech", "top": "chaffinch", "left": "barbastelle_bat", "right": "bechsteins_bat"},
    {"tree": "beech", "left": "brown_long_eared_bat", "right": "european_fat_dormouse"},
    {"tree": "beech", "top": "goshawk"},
    {"tree": "beech", "bottom": "wood_ant"},
]
CLEO = ([{"tree": "douglas_fir"}] * 7 + [{"tree": "birch"}] * 4
        + [{"tree": "horse_chestnut"}] * 5)


def test_whole_forest_categories_and_shared_victory(tmp_path):
    res = score(tmp_path, P("Ana", ANA, cave=3), P("Ben", BEN, cave=5), P("Cleo", CLEO, cave=4))
    assert res["edition"] == "base" and res["with"] == []
    # Ana: lindens 3+3 (most), oak 0 (2 species); squirrel 5 + butterflies 3 species 6;
    # lone toad 0, pair 10, moss 0; hares 3 each (left 3, right 6), fox 6.
    assert cats(res, "Ana") == cat_row(trees=6, top=11, bottom=10, left=9, right=6, cave=3)
    assert total(res, "Ana") == 45
    # Ben: 4 beeches 20; chaffinch 5, goshawk 2 birds 6; wood ant 2; bats 3 species 5 each,
    # dormouse with a bat at its beech 15.
    assert cats(res, "Ben") == cat_row(trees=20, top=11, bottom=2, left=10, right=20, cave=5)
    assert total(res, "Ben") == 68
    # Cleo: 7 douglas 35 + 4 birches 4 + 5 horse chestnuts 25 = 64, cave 4.
    assert cats(res, "Cleo") == cat_row(trees=64, cave=4)
    assert total(res, "Cleo") == 68
    assert sorted(res["winners"]) == ["Ben", "Cleo"]
    # totals equal the sum of the scorepad rows and of the per-card points
    for p in res["players"]:
        assert sum(p["by_category"].values()) == p["total"]
        assert sum(c["points"] for c in p["cards"]) + p["by_category"]["cave"] == p["total"]


def test_whole_forest_single_winner(tmp_path):
    res = score(tmp_path, P("Ana", ANA, cave=3), P("Ben", BEN, cave=5))
    assert res["winners"] == ["Ben"]
    assert [p["total"] for p in res["players"]] == [45, 68]


def test_more_copies_than_deck_is_illegal(tmp_path):
    with pytest.raises(DiagnosticError):
        score(tmp_path, P("Solo", [{"tree": "linden"}] * 10))


# ---------------------------------------------------------------------------------------------
# Coverage: every species of base, Alpine and Woodland Edge is scored above.
# ---------------------------------------------------------------------------------------------

COVERED = {
    "base": {
        "linden", "oak", "silver_fir", "birch", "beech", "sycamore", "douglas_fir",
        "horse_chestnut", "european_hare", "red_fox", "european_badger", "raccoon",
        "brown_bear", "beech_marten", "european_fat_dormouse", "lynx", "wolf", "wild_boar",
        "squeaker", "roe_deer", "red_deer", "fallow_deer", "barbastelle_bat", "bechsteins_bat",
        "brown_long_eared_bat", "greater_horseshoe_bat", "gnat", "violet_carpenter_bee",
        "goshawk", "great_spotted_woodpecker", "chaffinch", "tawny_owl", "eurasian_jay",
        "bullfinch", "red_squirrel", "silver_washed_fritillary", "purple_emperor",
        "camberwell_beauty", "large_tortoiseshell", "peacock_butterfly", "moss", "wood_ant",
        "fire_salamander", "pond_turtle", "tree_frog", "common_toad", "stag_beetle",
        "tree_ferns", "wild_strawberries", "blackberries", "hedgehog", "mole", "fireflies",
        "chanterelle", "fly_agaric", "parasol_mushroom", "penny_bun",
    },
    "alpine": {
        "european_larch", "stone_pine", "alpine_marmot", "chamois", "capercaillie",
        "mountain_hare", "steinbock", "savis_pipistrelle", "phoebus_apollo", "golden_eagle",
        "bearded_vulture", "common_raven", "black_trumpet", "edelweiss", "blueberry",
        "alpine_newt", "gentian",
    },
    "woodland_edge": {
        "female_wild_boar", "bee_swarm", "european_bison", "european_wildcat",
        "common_pipistrelle", "squeaker", "crane_fly", "european_polecat", "elderberry",
        "common_hazel", "blackthorn", "map_butterfly", "eurasian_magpie", "nightingale",
        "barn_owl", "digitalis", "stinging_nettle", "great_green_bush_cricket", "water_vole",
    },
}


@pytest.mark.parametrize("edition,n", [("base", 57), ("alpine", 17), ("woodland_edge", 19)])
def test_every_species_is_covered(edition, n):
    ids = {row["id"] for row in api.cards(edition, [])}
    assert len(ids) == n
    assert ids == COVERED[edition]


# ---------------------------------------------------------------------------------------------
# More subtle cases
# ---------------------------------------------------------------------------------------------

def test_opponent_carpenter_bees_beat_woodpecker(tmp_path):
    res = score(tmp_path,
                P("A", [{"tree": "birch", "top": "great_spotted_woodpecker"},
                        {"tree": "birch"}, {"tree": "birch"}]),
                P("B", [{"tree": "birch", "left": "violet_carpenter_bee"},
                        {"tree": "birch", "right": "violet_carpenter_bee"}]))
    assert pts(res, "great_spotted_woodpecker", "A") == 0    # 3 < 2 trees + 2 bees
    assert total(res, "A") == 3 and total(res, "B") == 2


def test_opponent_carpenter_bee_wins_linden_majority(tmp_path):
    res = score(tmp_path,
                P("A", [{"tree": "linden"}, {"tree": "linden"}]),
                P("B", [{"tree": "linden", "left": "violet_carpenter_bee"}, {"tree": "linden"}]))
    assert each(res, "linden", "A") == [1, 1]                # B counts 3 > 2
    assert each(res, "linden", "B") == [3, 3]


def test_carpenter_bee_on_four_beeches_still_five_each(tmp_path):
    res = score(tmp_path, P("Solo", [{"tree": "beech", "left": "violet_carpenter_bee"}]
                            + [{"tree": "beech"}] * 3))
    assert each(res, "beech") == [5, 5, 5, 5]
    assert total(res) == 20


def test_carpenter_bee_horse_chestnut_still_capped(tmp_path):
    res = score(tmp_path, P("Solo", [{"tree": "horse_chestnut", "left": "violet_carpenter_bee"}]
                            + [{"tree": "horse_chestnut"}] * 6))
    assert pts(res, "horse_chestnut") == 49      # counts 8 -> capped at 49
    assert total(res) == 49


def test_carpenter_bee_on_a_shrub_does_not_count_for_moss(tmp_path):
    forest = ([{"tree": "birch", "bottom": "moss"}] + [SAPLING] * 8
              + [{"shrub": "elderberry", "symbol": "linden", "left": "violet_carpenter_bee"}])
    res = score(tmp_path, P("Solo", forest), with_="edge")
    assert pts(res, "moss") == 0                 # 9 trees; a bee on a shrub adds no tree
    assert total(res) == 1


def test_tree_ferns_count_alpine_newt(tmp_path):
    res = score(tmp_path, P("Solo", [{"tree": "birch", "bottom": "tree_ferns"},
                                     {"tree": "birch", "bottom": "alpine_newt"}]), with_="alpine")
    assert pts(res, "tree_ferns") == 6
    assert total(res) == 8


def test_oak_counts_alpine_tree_species(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "oak"}, {"tree": "linden"}, {"tree": "birch", "bottom": "wild_strawberries"},
        {"tree": "beech"}, {"tree": "sycamore"}, {"tree": "douglas_fir"},
        {"tree": "european_larch"}, {"tree": "stone_pine"},
    ]), with_="alpine")
    assert pts(res, "oak") == 10
    assert pts(res, "wild_strawberries") == 10
    assert pts(res, "sycamore") == 8
    assert pts(res, "stone_pine") == 2           # larch + itself
    assert total(res) == 10 + 3 + 1 + 0 + 8 + 5 + 3 + 2 + 10


def test_oak_shrub_is_not_a_tree_species(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "oak"}, {"tree": "linden"}, {"tree": "birch"}, {"tree": "beech"},
        {"tree": "sycamore"}, {"tree": "douglas_fir"}, {"tree": "horse_chestnut"},
        {"shrub": "elderberry", "symbol": "oak"},
    ]), with_="edge")
    assert pts(res, "oak") == 0                  # 7 tree species
    assert pts(res, "sycamore") == 7
    assert total(res) == 0 + 3 + 1 + 0 + 7 + 5 + 1


def test_stinging_nettle_on_a_shrub(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"shrub": "blackthorn", "symbol": "birch", "bottom": "stinging_nettle",
         "top": ["peacock_butterfly", "large_tortoiseshell"]},
    ]), with_="edge")
    assert pts(res, "stinging_nettle") == 4
    assert pts(res, "peacock_butterfly") + pts(res, "large_tortoiseshell") == 3
    assert total(res) == 7


def test_silver_fir_counts_butterflies_sharing_nettle_slot(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "silver_fir", "bottom": "stinging_nettle",
         "top": ["peacock_butterfly", "purple_emperor"]},
    ]), with_="edge")
    assert pts(res, "silver_fir") == 6           # 3 attached cards
    assert total(res) == 6 + 4 + 3


@pytest.mark.parametrize("plants,expected", [
    (["digitalis"], 1),
    (["digitalis", "moss"], 3),
    (["digitalis", "moss", "blackberries", "tree_ferns"], 10),
    (["digitalis", "moss", "blackberries", "tree_ferns", "wild_strawberries"], 15),
])
def test_digitalis_table(tmp_path, plants, expected):
    res = score(tmp_path, P("Solo", [{"tree": "birch", "bottom": b} for b in plants]),
                with_="edge")
    assert pts(res, "digitalis") == expected


def test_beech_marten_shared_slot_does_not_make_a_tree_full(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "top": "tawny_owl", "bottom": "pond_turtle",
         "left": ["european_hare", "european_hare"]},
        {"tree": "birch", "right": "beech_marten"},
    ]))
    assert pts(res, "beech_marten") == 0
    assert total(res) == 2 + 5 + 5 + 4


@pytest.mark.parametrize("bs,expected", [
    (["peacock_butterfly", "purple_emperor", "camberwell_beauty", "large_tortoiseshell"], 12),
    (["peacock_butterfly", "purple_emperor", "camberwell_beauty", "large_tortoiseshell",
      "silver_washed_fritillary", "phoebus_apollo"], 35),
])
def test_butterfly_set_values(tmp_path, bs, expected):
    res = score(tmp_path, P("Solo", _butterflies(*bs)), with_="alpine")
    assert sum(pts(res, b) for b in bs) == expected
    assert total(res) == expected + len(bs)


def test_roe_deer_counts_shrub_colour(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "right": C("roe_deer", "birch")},
        {"shrub": "elderberry", "symbol": "birch"},
        {"shrub": "blackthorn", "symbol": "birch"},
        {"shrub": "common_hazel", "symbol": "oak"},
    ]), with_="edge")
    assert pts(res, "roe_deer") == 12            # birch, roe deer, elderberry, blackthorn
    assert total(res) == 13


def test_roe_deer_forest_needs_symbols(tmp_path):
    with pytest.raises(DiagnosticError):
        score(tmp_path, P("Solo", [{"tree": "birch", "right": C("roe_deer", "birch"),
                                    "top": "tawny_owl"}]))


def test_female_wild_boar_without_squeaker(tmp_path):
    res = score(tmp_path, P("Solo", [{"tree": "birch", "left": "female_wild_boar"}]),
                with_="edge")
    assert pts(res, "female_wild_boar") == 0


def test_polecat_alone_on_a_sapling(tmp_path):
    res = score(tmp_path, P("Solo", [{"sapling": True, "left": "european_polecat"}]),
                with_="edge")
    assert pts(res, "european_polecat") == 10
    assert total(res) == 10


def test_blueberry_counts_expansion_birds(tmp_path):
    res = score(tmp_path, P("Solo", [
        {"tree": "birch", "bottom": "blueberry", "top": "golden_eagle"},
        {"tree": "birch", "top": "common_raven"},
        {"tree": "birch", "top": "nightingale"},
    ]), with_="both")
    assert pts(res, "blueberry") == 6
    assert pts(res, "golden_eagle") == 0
    assert pts(res, "nightingale") == 0
    assert total(res) == 6 + 0 + 5 + 0 + 3


def test_example_file_by_hand():
    example = Path(__file__).resolve().parents[1] / "grove" / "examples" / "base_three_players.yaml"
    res = api.score_file(str(example))
    # Ana as in the whole-forest test: 45.
    assert total(res, "Ana") == 45
    # Ben: 20 + (5 + 6) + 2 + 10 + 20 + cave 5
    assert cats(res, "Ben") == cat_row(trees=20, top=11, bottom=2, left=10, right=20, cave=5)
    # Cleo: silver fir 4 attached 8, 2 horse chestnuts 4, linden 1 (Ana has 2);
    # owl 5; tree ferns 0; badger 2; wolf 5 (1 deer); roe deer 3 x (2 chestnuts, ferns,
    # badger, itself) = 15; lynx 10.
    assert cats(res, "Cleo") == cat_row(trees=13, top=5, bottom=0, left=2, right=30)
    assert total(res, "Cleo") == 50
    assert res["winners"] == ["Ben"]
