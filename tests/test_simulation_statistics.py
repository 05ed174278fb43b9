"""The figures behind `grove simulate` and `grove compare`, against published values and against
scipy on the raw numbers: intervals and tests from exact sums must agree with the same
computed from the data."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grove.simulation.plan import Plan, game_seed
from grove.simulation.statistics import (
    benjamini_hochberg,
    difference_interval,
    holm,
    mean_interval,
    means_p,
    proportions_p,
    variance,
    wilson,
)


def test_wilson_interval():
    lo, hi = wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 0) is None


@given(st.integers(1, 10**6).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_is_scipys_to_the_last_bit(stats, kn):
    # wilson takes only its quantile from scipy.special (scipy.stats is slow to import)
    k, n = kn
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson(k, n) == (float(ci.low), float(ci.high))


@given(st.integers(2, 10**5), st.integers(-10**6, 10**6), st.integers(1, 10**12))
def test_mean_interval_is_scipys_to_the_last_bit(stats, n, total, spread):
    sumsq = -(-total * total // n) + spread  # above total^2 / n: a variance above 0
    var = variance(n, total, sumsq)  # as mean_interval called scipy before
    ref = stats.t.interval(0.95, n - 1, loc=total / n, scale=math.sqrt(var / n))
    assert mean_interval(n, total, sumsq) == (float(ref[0]), float(ref[1]))


@pytest.mark.parametrize("k1, n1, k2, n2, expected", [
    # Newcombe (1998), Statistics in Medicine 17:873-890, Table II, method 10
    (56, 70, 48, 80, (0.0524, 0.3339)),
    (9, 10, 3, 10, (0.1705, 0.8090)),
    (5, 56, 0, 29, (-0.0381, 0.1926)),
])
def test_difference_interval_is_newcombes_hybrid_score(k1, n1, k2, n2, expected):
    lo, hi = difference_interval(k1, n1, k2, n2)
    assert (round(lo, 4), round(hi, 4)) == expected


def _moments(xs: list[int]) -> tuple[int, int, int]:
    return len(xs), sum(xs), sum(x * x for x in xs)


def test_mean_interval_and_welch_from_sums_agree_with_scipy_on_the_data(stats):
    rng = random.Random(4)
    a = [rng.randint(40, 200) for _ in range(300)]
    b = [rng.randint(50, 210) for _ in range(250)]
    lo, hi = mean_interval(*_moments(a))
    ref = stats.t.interval(0.95, len(a) - 1, loc=stats.tmean(a), scale=stats.sem(a))
    assert (lo, hi) == pytest.approx(ref, rel=1e-12)
    p = means_p(_moments(a), _moments(b))
    assert p == pytest.approx(stats.ttest_ind(a, b, equal_var=False).pvalue, rel=1e-9)


def test_tests_of_equal_runs_give_p_one():
    assert means_p((10, 50, 300), (10, 50, 300)) == 1.0
    assert means_p((10, 50, 250), (10, 50, 250)) == 1.0  # no spread at all
    assert means_p((10, 50, 250), (10, 60, 360)) == 0.0  # no spread, other means
    assert proportions_p(30, 100, 30, 100) == 1.0
    assert means_p((1, 5, 25), (10, 50, 300)) is None  # one value: no spread to test by


def test_corrections(stats):
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    ps = [0.01, 0.04, 0.03, 0.005, 0.5]
    assert benjamini_hochberg(ps) == pytest.approx(
        list(stats.false_discovery_control(ps, method="bh")))
    assert holm([]) == [] and benjamini_hochberg([]) == []


def test_a_games_seed_and_seating_depend_on_the_run_seed_and_index_alone():
    plan = Plan("base", (), ("greedy", "random", "random"), 10, 5, True, ())
    assert plan.game_seed(3) == game_seed(5, 3) == Plan(
        "x", (), ("a",), 1, 5, False, ()).game_seed(3)
    seeds = {game_seed(s, i) for s in range(20) for i in range(200)}
    assert len(seeds) == 4000 and all(0 <= x < 1 << 63 for x in seeds)
    assert game_seed(-1, 0) != game_seed(1, 0)
    assert [plan.seating(i) for i in range(4)] == [
        ("greedy", "random", "random"), ("random", "greedy", "random"),
        ("random", "random", "greedy"), ("greedy", "random", "random")]
