"""Two runs of the same games set against each other game by game (simulation/paired.py), and
the weighed correction that looks for a change first where the card data says it was made
(simulation/against.py, statistics.holm).

The runs are of greedy players, 60 base games of seed 3 (a second or two each on one job), with
a dweller's points halved in a temporary copy of the base game (benchmarks/planted.py's
`plant`): the red squirrel, which scores only beneath an oak, so greedy
players score it in a few games of 60 and every other game is played exactly as before.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from benchmarks.planted import plant
from grove import api
from grove.compiler.search_path import search_path
from grove.simulation.against import against, set_against, summary_of
from grove.simulation.compare import read_run
from grove.simulation.paired import log_ratio_change, mean_change, read_pair
from grove.simulation.statistics import benjamini_hochberg, holm

GAMES = 60
RARE = "red_squirrel"  # 5 if host is oak -> 2 if host is oak


def simulate(out: Path, seed: int = 3, cards: list[Path] | None = None) -> Path:
    api.simulate("base", [], ["greedy", "greedy"], GAMES, seed, False, jobs=1, out=str(out),
                 roots=search_path(cards or [], env={}))
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    top = tmp_path_factory.mktemp("paired")
    cards = plant(RARE, tmp_path_factory.mktemp("rare"), change="half")
    return {"base": simulate(top / "base"), "again": simulate(top / "again"),
            "seed 4": simulate(top / "seed4", seed=4),
            "rare": simulate(top / "rare", cards=[cards])}


def test_games_are_paired_by_seed_and_seating_and_runs_of_other_seeds_not(runs):
    pair = read_pair(runs["base"], runs["rare"])
    assert pair is not None and pair.games == GAMES
    assert read_pair(runs["base"], runs["seed 4"]) is None


def test_a_rare_dweller_halved_is_named_game_by_game_and_missed_as_independent_samples(runs):
    """The squirrel scores in 3 of the 60 games: set side by side as independent samples the
    two runs name nothing; game by game, where every game it did not touch differs by nothing,
    its strength is named fallen (points 5 -> 2 where it scored beneath an oak), and nothing
    else is."""
    pair = read_pair(runs["base"], runs["rare"])
    assert pair is not None
    scored = np.nonzero(pair.sums(pair.before, RARE).points)[0]
    assert 0 < len(scored) < GAMES / 10
    base, rare = read_run(runs["base"]), read_run(runs["rare"])
    found = set_against(base, rare)["against"]
    assert [c["id"] for c in found["changed"]] == [RARE]
    squirrel = found["changed"][0]
    assert squirrel["flag"] == "weak" and squirrel["card_differs"]
    assert squirrel["strength"]["ci95"][1] < 0
    rows = [summary_of(r)["species"] for r in (base, rare)]
    assert against(base.totals, rare.totals, *rows)["changed"] == []


def test_the_same_games_again_name_nothing_and_other_seeds_are_compared_unpaired(runs):
    same = set_against(read_run(runs["base"]), read_run(runs["again"]))["against"]
    assert same["changed"] == [] and same["figures_changed"] == 0
    assert same["paired"] == GAMES and same["compared"] > 100
    apart = set_against(read_run(runs["base"]), read_run(runs["seed 4"]))["against"]
    assert apart["paired"] is None and apart["changed"] == []


def test_a_paired_mean_change_is_students_paired_t():
    rng = np.random.default_rng(3)
    a = rng.integers(0, 9, 40).astype(float)
    b = a + rng.integers(-1, 3, 40)
    t = mean_change(a, b)
    ref = stats.ttest_rel(b, a)
    assert t.p == pytest.approx(ref.pvalue, rel=1e-9)
    lo, hi = ref.confidence_interval(0.95)
    assert t.ci95 == pytest.approx((lo, hi), rel=1e-9)
    assert mean_change(a, a).p == 1.0 and mean_change(a, a + 1).p == 0.0


def test_a_log_ratio_move_has_the_delta_methods_spread_and_none_where_scaled_alike():
    points = np.array([0.0, 5, 10, 0, 15])
    due = np.array([0.0, 4, 8, 4, 12])
    same = log_ratio_change((points, points), (due, due))
    assert same == (same[0], same[0], 0.0, 0.0)
    tripled = log_ratio_change((points, 3 * points), (due, due))
    assert tripled is not None
    assert tripled[2] == pytest.approx(math.log2(3)) and tripled[3] == 0.0
    moved = log_ratio_change((points, points + np.array([0, 1, 0, 2, 0])), (due, due))
    assert moved is not None and moved[3] > 0
    assert log_ratio_change((points, 0 * points), (due, due)) is None


def test_weighed_holm_is_holm_with_equal_weights_and_keeps_the_error_with_unequal_ones():
    ps = [0.01, 0.04, 0.03, 0.005]
    assert holm(ps, [2.0] * 4) == holm(ps)
    # a figure with three times the others' weight: 0.01 over 2 (its weight scaled to average
    # 1) times all 4, then the rest as Holm's over the weights left
    assert holm([0.01, 0.02, 0.03, 0.5], [3, 1, 1, 1]) == pytest.approx([0.02, 0.06, 0.06, 0.5])
    assert benjamini_hochberg(ps, [1, 1, 1, 1]) == pytest.approx(benjamini_hochberg(ps))
    # under no change at all, some figure is named in at most 5% of families, whatever the
    # weights (20 figures, one given half the error allowed)
    rng = random.Random(7)
    weights = [0.5] + [0.5 / 19] * 19
    named = sum(min(holm([rng.random() for _ in range(20)], weights)) < 0.05
                for _ in range(20000))
    assert 0.04 < named / 20000 <= 0.053
