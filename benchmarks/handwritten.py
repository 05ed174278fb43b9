"""Forest Shuffle scoring written by hand: base game, Alpine and Woodland Edge.

The yardstick for the compiled rules. One plain function per species, `f(card, view) -> points`,
over the same read-only `Forest` the compiled rules read, and the per-forest set and total
rules (butterflies, fireflies, fire salamanders, horse chestnuts) scored once per forest. Written
from the rules (rules.md §2-3), not from the cards' DSL text: species are named by key, the
type counters of the view (`tag_count`) answer "per bird" and the like, and everything else is
counted directly.
"""

from __future__ import annotations

from collections.abc import Callable

from grove.forest.host import Host, Placed
from grove.forest.model import Forest

ROWS = ("trees", "top", "bottom", "left", "right", "cave")
CAVE_POINTS = 1

# ---- species keys ---------------------------------------------------------------------------
LINDEN, OAK, SILVER_FIR, BIRCH = "base:linden", "base:oak", "base:silver_fir", "base:birch"
BEECH, SYCAMORE, DOUGLAS_FIR = "base:beech", "base:sycamore", "base:douglas_fir"
HORSE_CHESTNUT = "base:horse_chestnut"
LARCH, STONE_PINE = "alpine:european_larch", "alpine:stone_pine"
TREE_SPECIES = (LINDEN, OAK, SILVER_FIR, BIRCH, BEECH, SYCAMORE, DOUGLAS_FIR, HORSE_CHESTNUT,
                LARCH, STONE_PINE)

CARPENTER_BEE = "base:violet_carpenter_bee"
EUROPEAN_HARE, MOUNTAIN_HARE = "base:european_hare", "alpine:mountain_hare"
SQUEAKERS = ("base:squeaker", "woodland_edge:squeaker")
ROE_DEER, GNAT, TOAD = "base:roe_deer", "base:gnat", "base:common_toad"
FIREFLIES, FIRE_SALAMANDER = "base:fireflies", "base:fire_salamander"

BATS = ("base:barbastelle_bat", "base:bechsteins_bat", "base:brown_long_eared_bat",
        "base:greater_horseshoe_bat", "alpine:savis_pipistrelle", "woodland_edge:common_pipistrelle")
BUTTERFLIES = ("base:silver_washed_fritillary", "base:purple_emperor", "base:camberwell_beauty",
               "base:large_tortoiseshell", "base:peacock_butterfly", "alpine:phoebus_apollo",
               "woodland_edge:map_butterfly")
PLANTS = ("base:moss", "base:tree_ferns", "base:wild_strawberries", "base:blackberries",
          "alpine:edelweiss", "alpine:blueberry", "alpine:gentian", "woodland_edge:digitalis",
          "woodland_edge:stinging_nettle")
BIRDS = ("base:goshawk", "base:great_spotted_woodpecker", "base:chaffinch", "base:tawny_owl",
         "base:eurasian_jay", "base:bullfinch", "alpine:capercaillie", "alpine:golden_eagle",
         "alpine:bearded_vulture", "alpine:common_raven", "woodland_edge:eurasian_magpie",
         "woodland_edge:nightingale", "woodland_edge:barn_owl")

BUTTERFLY_SETS = (0, 3, 6, 12, 20, 35, 55, 80)
FIREFLY_TOTAL = (0, 10, 15, 20)
SALAMANDER_TOTAL = (5, 15, 25)
CHESTNUT_TOTAL = (1, 4, 9, 16, 25, 36, 49)
DIGITALIS = (1, 3, 6, 10, 15)


# ---- helpers --------------------------------------------------------------------------------
def _capped(table: tuple[int, ...], n: int) -> int:
    """The table's value for n (1-based), the last value for anything larger, 0 for none."""
    if n <= 0:
        return 0
    return table[n - 1] if n <= len(table) else table[-1]


def _is_tree(host: Host) -> bool:
    """Trees and saplings are trees; shrubs are not."""
    return host.kind.id != "shrub"


def _distinct(view: Forest, keys: tuple[str, ...]) -> int:
    sc = view.species_count
    return sum(1 for k in keys if sc.get(k))


def _trees(view: Forest) -> int:
    return view.tag_count.get("tree", 0)


def _bees_at(view: Forest, host_ok: Callable[[Host], bool]) -> int:
    """Carpenter Bees whose host tree passes `host_ok`: each makes its tree count once more."""
    if not view.species_count.get(CARPENTER_BEE):
        return 0
    n = 0
    for c in view.cards:
        if c.key == CARPENTER_BEE and _is_tree(c.host) and host_ok(c.host):
            n += 1
    return n


def _trees_with_bees(view: Forest) -> int:
    return _trees(view) + _bees_at(view, lambda h: True)


def _species_with_bees(view: Forest, key: str) -> int:
    return view.species_count.get(key, 0) + _bees_at(view, lambda h: h.card.key == key)


def _hares(view: Forest) -> int:
    sc = view.species_count
    return sc.get(EUROPEAN_HARE, 0) + sc.get(MOUNTAIN_HARE, 0)


def _squeakers(view: Forest) -> int:
    sc = view.species_count
    return sc.get(SQUEAKERS[0], 0) + sc.get(SQUEAKERS[1], 0)


def _own_symbol(card: Placed, view: Forest) -> int:
    return view.symbol_count.get(card.symbol, 0) if card.symbol else 0


def _bats_score(card: Placed, view: Forest) -> int:
    return 5 if _distinct(view, BATS) >= 3 else 0


def _zero(card: Placed, view: Forest) -> int:
    return 0


def _host_key(card: Placed) -> str | None:
    return card.host.card.key


# ---- trees and shrubs -----------------------------------------------------------------------
def linden(card: Placed, view: Forest) -> int:
    mine = _species_with_bees(view, LINDEN)
    if all(mine >= _species_with_bees(o, LINDEN) for o in view.others):
        return 3
    return 1


def oak(card: Placed, view: Forest) -> int:
    return 10 if _distinct(view, TREE_SPECIES) >= 8 else 0


def silver_fir(card: Placed, view: Forest) -> int:
    return 2 * len(card.host.attached())


def birch(card: Placed, view: Forest) -> int:
    return 1


def beech(card: Placed, view: Forest) -> int:
    return 5 if _species_with_bees(view, BEECH) >= 4 else 0


def sycamore(card: Placed, view: Forest) -> int:
    return _trees(view)


def douglas_fir(card: Placed, view: Forest) -> int:
    return 5


def european_larch(card: Placed, view: Forest) -> int:
    return 3


def stone_pine(card: Placed, view: Forest) -> int:
    return view.tag_count.get("alps", 0)


# ---- top halves -----------------------------------------------------------------------------
def goshawk(card: Placed, view: Forest) -> int:
    return 3 * view.tag_count.get("bird", 0)


def great_spotted_woodpecker(card: Placed, view: Forest) -> int:
    mine = _trees_with_bees(view)
    return 10 if all(mine >= _trees_with_bees(o) for o in view.others) else 0


def chaffinch(card: Placed, view: Forest) -> int:
    return 5 if _host_key(card) == BEECH else 0


def tawny_owl(card: Placed, view: Forest) -> int:
    return 5


def eurasian_jay(card: Placed, view: Forest) -> int:
    return 3


def bullfinch(card: Placed, view: Forest) -> int:
    return 2 * view.tag_count.get("insect", 0)


def red_squirrel(card: Placed, view: Forest) -> int:
    return 5 if _host_key(card) == OAK else 0


def golden_eagle(card: Placed, view: Forest) -> int:
    return view.tag_count.get("pawed", 0) + view.tag_count.get("amphibian", 0)


def bearded_vulture(card: Placed, view: Forest) -> int:
    return view.cave


def common_raven(card: Placed, view: Forest) -> int:
    return 5


def eurasian_magpie(card: Placed, view: Forest) -> int:
    return 3


def nightingale(card: Placed, view: Forest) -> int:
    return 5 if card.host.kind.id == "shrub" else 0


def barn_owl(card: Placed, view: Forest) -> int:
    return 3 * view.tag_count.get("bat", 0)


# ---- bottom halves --------------------------------------------------------------------------
def moss(card: Placed, view: Forest) -> int:
    return 10 if _trees_with_bees(view) >= 10 else 0


def wood_ant(card: Placed, view: Forest) -> int:
    below = 0
    for h in view.hosts:
        if _is_tree(h):
            below += len(h.slots["bottom"])
    return 2 * below


def pond_turtle(card: Placed, view: Forest) -> int:
    return 5


def tree_frog(card: Placed, view: Forest) -> int:
    return 5 * view.species_count.get(GNAT, 0)


def common_toad(card: Placed, view: Forest) -> int:
    mates = card.host.slots[card.slot]
    return 5 if any(x is not card and x.key == TOAD for x in mates) else 0


def stag_beetle(card: Placed, view: Forest) -> int:
    return view.tag_count.get("pawed", 0)


def tree_ferns(card: Placed, view: Forest) -> int:
    return 6 * view.tag_count.get("amphibian", 0)


def wild_strawberries(card: Placed, view: Forest) -> int:
    return 10 if _distinct(view, TREE_SPECIES) >= 8 else 0


def blackberries(card: Placed, view: Forest) -> int:
    return 2 * view.tag_count.get("plant", 0)


def hedgehog(card: Placed, view: Forest) -> int:
    return 2 * view.tag_count.get("butterfly", 0)


def edelweiss(card: Placed, view: Forest) -> int:
    return 3


def blueberry(card: Placed, view: Forest) -> int:
    return 2 * _distinct(view, BIRDS)


def alpine_newt(card: Placed, view: Forest) -> int:
    return 2 * view.tag_count.get("insect", 0)


def gentian(card: Placed, view: Forest) -> int:
    return 3 * view.tag_count.get("butterfly", 0)


def digitalis(card: Placed, view: Forest) -> int:
    return _capped(DIGITALIS, _distinct(view, PLANTS))


def stinging_nettle(card: Placed, view: Forest) -> int:
    return 2 * view.tag_count.get("butterfly", 0)


def great_green_bush_cricket(card: Placed, view: Forest) -> int:
    return view.tag_count.get("insect", 0)


# ---- left / right halves --------------------------------------------------------------------
def european_hare(card: Placed, view: Forest) -> int:
    return _hares(view)


def red_fox(card: Placed, view: Forest) -> int:
    return 2 * _hares(view)


def european_badger(card: Placed, view: Forest) -> int:
    return 2


def beech_marten(card: Placed, view: Forest) -> int:
    return 5 * sum(1 for h in view.hosts if _is_tree(h) and all(h.slots.values()))


def european_fat_dormouse(card: Placed, view: Forest) -> int:
    host = card.host
    if not _is_tree(host):
        return 0
    return 15 if any(x is not card and "bat" in x.tags for x in host.attached()) else 0


def lynx(card: Placed, view: Forest) -> int:
    return 10 if view.species_count.get(ROE_DEER, 0) >= 1 else 0


def wolf(card: Placed, view: Forest) -> int:
    return 5 * view.tag_count.get("deer", 0)


def wild_boar(card: Placed, view: Forest) -> int:
    return 10 if _squeakers(view) >= 1 else 0


def squeaker(card: Placed, view: Forest) -> int:
    return 1


def roe_deer(card: Placed, view: Forest) -> int:
    return 3 * _own_symbol(card, view)


def red_deer(card: Placed, view: Forest) -> int:
    return _trees(view) + view.tag_count.get("plant", 0)


def fallow_deer(card: Placed, view: Forest) -> int:
    return 3 * view.tag_count.get("cloven", 0)


def gnat(card: Placed, view: Forest) -> int:
    return view.tag_count.get("bat", 0)


def alpine_marmot(card: Placed, view: Forest) -> int:
    return 3 * _distinct(view, PLANTS)


def chamois(card: Placed, view: Forest) -> int:
    return 3 * _own_symbol(card, view)


def capercaillie(card: Placed, view: Forest) -> int:
    return view.tag_count.get("plant", 0)


def mountain_hare(card: Placed, view: Forest) -> int:
    return _hares(view)


def steinbock(card: Placed, view: Forest) -> int:
    return 10


def female_wild_boar(card: Placed, view: Forest) -> int:
    return 10 * _squeakers(view)


def bee_swarm(card: Placed, view: Forest) -> int:
    return view.tag_count.get("plant", 0)


def european_bison(card: Placed, view: Forest) -> int:
    sym = view.symbol_count
    return 2 * (sym.get("oak", 0) + sym.get("beech", 0))


def european_wildcat(card: Placed, view: Forest) -> int:
    return view.tag_count.get("woodland_edge", 0)


def crane_fly(card: Placed, view: Forest) -> int:
    return view.tag_count.get("bat", 0)


def european_polecat(card: Placed, view: Forest) -> int:
    return 10 if all(x is card for x in card.host.attached()) else 0


# ---- the table of species -------------------------------------------------------------------
SCORERS: dict[str, Callable[[Placed, Forest], int]] = {
    # base trees
    LINDEN: linden, OAK: oak, SILVER_FIR: silver_fir, BIRCH: birch, BEECH: beech,
    SYCAMORE: sycamore, DOUGLAS_FIR: douglas_fir, HORSE_CHESTNUT: _zero,  # a per-forest total
    # base top
    "base:goshawk": goshawk, "base:great_spotted_woodpecker": great_spotted_woodpecker,
    "base:chaffinch": chaffinch, "base:tawny_owl": tawny_owl, "base:eurasian_jay": eurasian_jay,
    "base:bullfinch": bullfinch, "base:red_squirrel": red_squirrel,
    # base bottom
    "base:moss": moss, "base:wood_ant": wood_ant, FIRE_SALAMANDER: _zero,
    "base:pond_turtle": pond_turtle, "base:tree_frog": tree_frog, TOAD: common_toad,
    "base:stag_beetle": stag_beetle, "base:tree_ferns": tree_ferns,
    "base:wild_strawberries": wild_strawberries, "base:blackberries": blackberries,
    "base:hedgehog": hedgehog, "base:mole": _zero, FIREFLIES: _zero, "base:chanterelle": _zero,
    "base:fly_agaric": _zero, "base:parasol_mushroom": _zero, "base:penny_bun": _zero,
    # base left/right
    EUROPEAN_HARE: european_hare, "base:red_fox": red_fox, "base:european_badger": european_badger,
    "base:raccoon": _zero, "base:brown_bear": _zero, "base:beech_marten": beech_marten,
    "base:european_fat_dormouse": european_fat_dormouse, "base:lynx": lynx, "base:wolf": wolf,
    "base:wild_boar": wild_boar, "base:squeaker": squeaker, ROE_DEER: roe_deer,
    "base:red_deer": red_deer, "base:fallow_deer": fallow_deer, GNAT: gnat, CARPENTER_BEE: _zero,
    # alpine
    LARCH: european_larch, STONE_PINE: stone_pine,
    "alpine:alpine_marmot": alpine_marmot, "alpine:chamois": chamois,
    "alpine:capercaillie": capercaillie, MOUNTAIN_HARE: mountain_hare,
    "alpine:steinbock": steinbock, "alpine:golden_eagle": golden_eagle,
    "alpine:bearded_vulture": bearded_vulture, "alpine:common_raven": common_raven,
    "alpine:black_trumpet": _zero, "alpine:edelweiss": edelweiss, "alpine:blueberry": blueberry,
    "alpine:alpine_newt": alpine_newt, "alpine:gentian": gentian,
    # woodland edge
    "woodland_edge:elderberry": _zero, "woodland_edge:common_hazel": _zero,
    "woodland_edge:blackthorn": _zero,
    "woodland_edge:eurasian_magpie": eurasian_magpie, "woodland_edge:nightingale": nightingale,
    "woodland_edge:barn_owl": barn_owl, "woodland_edge:digitalis": digitalis,
    "woodland_edge:stinging_nettle": stinging_nettle,
    "woodland_edge:great_green_bush_cricket": great_green_bush_cricket,
    "woodland_edge:water_vole": _zero, "woodland_edge:female_wild_boar": female_wild_boar,
    "woodland_edge:bee_swarm": bee_swarm, "woodland_edge:european_bison": european_bison,
    "woodland_edge:european_wildcat": european_wildcat, "woodland_edge:squeaker": squeaker,
    "woodland_edge:crane_fly": crane_fly, "woodland_edge:european_polecat": european_polecat,
}
for _bat in BATS:
    SCORERS[_bat] = _bats_score
for _butterfly in BUTTERFLIES:
    SCORERS[_butterfly] = _zero  # a per-forest set


# ---- per-forest sets and totals -------------------------------------------------------------
def butterfly_sets(view: Forest) -> int:
    """Sets of different butterflies, built in layers (set i: every species with >= i copies)."""
    counts = [n for k in BUTTERFLIES if (n := view.species_count.get(k, 0))]
    total = 0
    while counts:
        total += _capped(BUTTERFLY_SETS, len(counts))
        counts = [n - 1 for n in counts if n > 1]
    return total


def fireflies_total(view: Forest) -> int:
    return _capped(FIREFLY_TOTAL, view.species_count.get(FIREFLIES, 0))


def fire_salamander_total(view: Forest) -> int:
    return _capped(SALAMANDER_TOTAL, view.species_count.get(FIRE_SALAMANDER, 0))


def horse_chestnut_total(view: Forest) -> int:
    if not view.species_count.get(HORSE_CHESTNUT):
        return 0
    return _capped(CHESTNUT_TOTAL, _species_with_bees(view, HORSE_CHESTNUT))


# (row, rule): butterflies are top halves, fireflies and salamanders bottom halves
GROUP_RULES: tuple[tuple[str, Callable[[Forest], int]], ...] = (
    ("top", butterfly_sets),
    ("bottom", fireflies_total),
    ("bottom", fire_salamander_total),
    ("trees", horse_chestnut_total),
)


# ---- a forest, a table ----------------------------------------------------------------------
def score_view(view: Forest) -> dict[str, int]:
    """Points of one forest by scorepad row (its `others` must be set for the majorities)."""
    rows = dict.fromkeys(ROWS, 0)
    scorers = SCORERS
    for c in view.cards:
        key = c.key
        if key is None:  # a sapling
            continue
        points = scorers[key](c, view)
        if points:
            rows["trees" if c.slot is None else c.side] += points
    for row, rule in GROUP_RULES:
        rows[row] += rule(view)
    rows["cave"] += CAVE_POINTS * view.cave
    return rows


def score_views(views: list[Forest]) -> list[dict[str, int]]:
    for v in views:
        v.others = [o for o in views if o is not v]
    return [score_view(v) for v in views]


def total(rows: dict[str, int]) -> int:
    return sum(rows.values())
