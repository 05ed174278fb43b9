"""The figures behind `grove simulate` and `grove compare`, against published values and against
scipy on the raw numbers: intervals and tests from exact sums must agree with the same
computed from the data."""

from __future__ import annotations

import math
import random
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from grove.simulation.plan import Plan, game_seed
from grove.simulation.statistics import (
    _weighed,
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


_SIZES = st.one_of(st.integers(1, 40), st.integers(1, 3000))


@st.composite
def _tables(draw) -> tuple[int, int, int, int]:
    """(k1, n1, k2, n2): two runs, a third of them the same size (whose tables tie in pairs)."""
    n1 = draw(_SIZES)
    n2 = n1 if draw(st.integers(0, 2)) == 0 else draw(_SIZES)
    return draw(st.integers(0, n1)), n1, draw(st.integers(0, n2)), n2


def _fisher_exactly(k1: int, n1: int, k2: int, n2: int) -> float:
    """Fisher's two-sided p in integers: every table's count of ways (one denominator for all),
    the tables no likelier than the one seen within scipy's tolerance of 1e-14, one rounding."""
    from fractions import Fraction

    col = k1 + k2
    low, high = max(0, col - n2), min(col, n1)
    ways = [math.comb(n1, low) * math.comb(n2, col - low)]
    for x in range(low, high):  # an exact division: each is a whole number of ways
        ways.append(ways[-1] * (n1 - x) * (col - x) // ((x + 1) * (n2 - col + x + 1)))
    seen, likeliest = ways[k1 - low], max(ways)
    if (likeliest - seen) * 10**14 <= likeliest:  # scipy: as likely as the likeliest, p = 1
        return 1.0
    return float(min(Fraction(1), Fraction(
        sum(w for w in ways if w * 10**14 <= seen * (10**14 + 1)), sum(ways))))


@given(_tables())
def test_fisher_is_the_exact_sum_and_scipys_within_its_error(stats, table):
    # held to the exact sum more tightly than to scipy, whose own p strays from the exact one
    # by up to some 3e-10 for runs of a million games
    k1, n1, k2, n2 = table
    p = proportions_p(k1, n1, k2, n2)
    exact = _fisher_exactly(k1, n1, k2, n2)
    assert p == pytest.approx(exact, rel=1e-13, abs=1e-300)
    ref = stats.fisher_exact([[k1, n1 - k1], [k2, n2 - k2]]).pvalue
    assert p == pytest.approx(float(ref), rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("table", [
    (2_000, 10_000, 2_150, 10_000),  # runs of one size: the far table ties the one seen
    (9_000, 20_000, 4_000, 9_000),
    (1, 20_000, 40, 15_000),  # far in the tail: p some 4e-14
    (0, 5, 0, 7), (5, 5, 7, 7), (3, 6, 3, 6), (1, 1, 0, 1),  # a column or a row empty; ties
])
def test_fisher_at_larger_and_edge_tables_is_the_exact_sum(table):
    assert proportions_p(*table) == pytest.approx(_fisher_exactly(*table), rel=1e-13,
                                                 abs=1e-300)


@given(st.integers(2, 10**6), st.integers(-10**6, 10**6), st.integers(0, 10**12),
       st.integers(2, 10**6), st.integers(-10**6, 10**6), st.integers(0, 10**12))
def test_welch_is_scipys_to_the_last_bit(stats, na, ta, sa, nb, tb, sb):
    a = (na, ta, -(-ta * ta // na) + sa)  # a sum of squares at or above total^2 / n
    b = (nb, tb, -(-tb * tb // nb) + sb)
    va, vb = variance(*a), variance(*b)
    if va == 0 and vb == 0:  # decided without a test: equal means or plainly not
        return
    ref = stats.ttest_ind_from_stats(ta / na, math.sqrt(va), na, tb / nb, math.sqrt(vb), nb,
                                     equal_var=False).pvalue
    assert means_p(a, b) == (1.0 if math.isnan(ref) else float(ref))


_PS = st.lists(st.one_of(st.floats(0, 1), st.sampled_from([0.0, 0.01, 0.05, 0.5, 1.0])),
               max_size=30)


@given(_PS, st.data())
def test_benjamini_hochberg_is_scipys_to_the_last_bit(stats, ps, data):
    weights = data.draw(st.one_of(st.none(), st.lists(
        st.floats(0.1, 10), min_size=len(ps), max_size=len(ps))) if ps else st.none())
    weighed = [min(1.0, p) for p in _weighed(ps, weights)] if ps else []
    ref = ([float(x) for x in stats.false_discovery_control(weighed, method="bh")]
           if len(weighed) > 1 else weighed)
    assert benjamini_hochberg(ps, weights) == ref


def test_the_tests_of_a_comparison_import_no_scipy_stats():
    """The tests `grove compare` makes need `scipy.special` alone: `scipy.stats`, most of a
    compare's time when it was imported, is never loaded."""
    code = ("import sys\n"
            "from grove.simulation import compare\n"
            "from grove.simulation.statistics import benjamini_hochberg, means_p, proportions_p\n"
            "proportions_p(3, 10, 7, 12); means_p((5, 20, 100), (6, 30, 200))\n"
            "benjamini_hochberg([0.01, 0.2, 0.03])\n"
            "print('scipy.stats' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


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
