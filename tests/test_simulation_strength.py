"""grove/simulation/strength.py: the expected points of a copy by kind and cost, a species' strength
with its interval from exact sums, and the flag corrected for the number of species."""

from __future__ import annotations

import math
import random

import pytest

from grove.simulation.aggregate import SpeciesCounts
from grove.simulation.strength import (
    FLOOR,
    MIN_FORESTS,
    Strength,
    expectations,
    flags,
    repeated_median,
    strength,
)


def counts(forests: list[tuple[int, int]]) -> SpeciesCounts:
    """The counts of a species over forests given as (copies, points)."""
    s = SpeciesCounts()
    for c, p in forests:
        if c:
            s.plays += 1
            s.copies += c
            s.copies_sq += c * c
            s.points += p
            s.points_sq += p * p
            s.points_copies += p * c
    return s


def test_a_copy_is_expected_to_score_what_its_kind_and_cost_score_on_a_line():
    # every dweller scores 2 + 3 * cost a copy; the tree is weighed apart
    by_ai = {f"d{c}": {"greedy": counts([(1, 2 + 3 * c)] * 5)} for c in range(4)}
    by_ai["t"] = {"greedy": counts([(2, 40)])}
    cost = {**{f"d{c}": c for c in range(4)}, "t": 1}
    kind = {**{f"d{c}": "dweller" for c in range(4)}, "t": "tree"}
    e = expectations(by_ai, cost, kind)
    for c in range(4):
        assert e["greedy", "dweller", c] == pytest.approx(2 + 3 * c)
        assert strength(by_ai[f"d{c}"], {"greedy": e["greedy", "dweller", c]}).value == (
            pytest.approx(0.0, abs=1e-9))
    assert e["greedy", "tree", 1] == pytest.approx(20.0)  # one cost only: its mean


def test_the_interval_is_the_ratio_estimators_over_the_forests():
    rng = random.Random(5)
    forests = {"greedy": [(c, c * rng.randint(0, 9)) for c in (rng.randint(1, 3) for _ in range(80))],
               "random": [(1, rng.randint(0, 4)) for _ in range(50)]}
    e = {"greedy": 4.0, "random": 1.5}
    st = strength({a: counts(f) for a, f in forests.items()}, e)
    # the same worked out forest by forest: log2 of points over expected points, its standard
    # error the ratio's over the ratio and ln 2 (the delta method)
    ys = [(p, e[a] * c) for a, f in forests.items() for c, p in f]
    due = sum(d for _, d in ys)
    r = sum(p for p, _ in ys) / due
    n = len(ys)
    se = math.sqrt(sum((p - r * d) ** 2 for p, d in ys) / (n - 1) * n) / due / (r * math.log(2))
    v = math.log2(r)
    assert st.value == pytest.approx(v) and st.ratio == pytest.approx(r)
    assert st.se == pytest.approx(se)
    assert st.ci95 == pytest.approx((v - 1.959964 * se, v + 1.959964 * se), rel=1e-5)
    assert st.forests == n and st.expected == pytest.approx(due)


def test_a_species_scoring_three_times_its_line_is_log2_3_whatever_its_cost():
    """A tripled copy is log2(3) (three times what its kind and cost bring) at a cost whose
    copies score 3 as at one whose copies score 15."""
    by_ai = {f"d{c}": {"greedy": counts([(1, 3 + 4 * c)] * 6)} for c in range(4)}
    by_ai["cheap"] = {"greedy": counts([(1, 9)] * 6)}  # cost 0: 3 a copy expected
    by_ai["dear"] = {"greedy": counts([(2, 90)] * 6)}  # cost 3: 15 a copy expected
    cost = {**{f"d{c}": c for c in range(4)}, "cheap": 0, "dear": 3}
    e = expectations(by_ai, cost, dict.fromkeys(cost, "dweller"))
    for sid in ("cheap", "dear"):
        c = cost[sid]
        assert strength(by_ai[sid], {"greedy": e["greedy", "dweller", c]}).value == (
            pytest.approx(math.log2(3)))


def test_a_halved_species_lies_as_far_below_its_line_as_a_doubled_one_above():
    """The log scale: a weak card can be flagged as readily as a strong one, where the share
    (points over expected, minus one) let a halved card fall 0.5 and a doubled one rise 1."""
    by_ai = {"half": {"greedy": counts([(1, 2)] * 6)}, "double": {"greedy": counts([(1, 8)] * 6)}}
    e = {"greedy": 4.0}
    assert strength(by_ai["half"], e).value == pytest.approx(-1.0)
    assert strength(by_ai["double"], e).value == pytest.approx(1.0)


def test_a_few_high_scorers_do_not_lift_the_line_the_rest_is_measured_by():
    """Most dwellers score 2 a copy plus 1 a cost; three combination species score 20 or more.
    A least-squares line weighed by copies would lift every expectation toward them; the
    repeated median stays on the many."""
    by_ai = {f"d{i}": {"greedy": counts([(1, 2 + i % 4)] * 5)} for i in range(16)}
    by_ai.update({f"combo{i}": {"greedy": counts([(3, 70 + 10 * i)] * 20)} for i in range(3)})
    cost = {**{f"d{i}": i % 4 for i in range(16)}, **{f"combo{i}": i for i in range(3)}}
    e = expectations(by_ai, cost, dict.fromkeys(cost, "dweller"))
    for c in range(4):
        assert e["greedy", "dweller", c] == pytest.approx(2 + c)


def test_an_expectation_below_the_floor_is_the_floor():
    by_ai = {f"d{c}": {"random": counts([(1, 0)] * 5)} for c in range(3)}
    e = expectations(by_ai, {f"d{c}": c for c in range(3)}, dict.fromkeys(by_ai, "dweller"))
    assert set(e.values()) == {FLOOR}
    # a species whose copies scored nothing (an effect card) has no strength: restricted play
    # (`--worth`) judges it, not a "-100%" that no card can fall below
    assert strength(by_ai["d1"], {"random": FLOOR}) is None


@pytest.mark.parametrize("seed", range(20))
def test_the_repeated_median_line_is_scipys_siegelslopes(seed):
    from scipy import stats

    rng = random.Random(seed)
    points = [(rng.randint(0, 3), rng.choice([0.0, rng.random() * 25])) for _ in
              range(rng.randint(2, 60))]
    if len({x for x, _ in points}) < 2:
        points.append((points[0][0] + 1, 1.0))
    want = stats.siegelslopes([y for _, y in points], [x for x, _ in points])
    intercept, slope = repeated_median(points)
    assert slope == pytest.approx(float(want.slope), abs=1e-9)
    assert intercept == pytest.approx(float(want.intercept), abs=1e-9)


def test_the_pooled_strength_is_the_ais_weighed_by_their_expected_points():
    rng = random.Random(7)
    per_ai = {"greedy": counts([(rng.randint(1, 3), rng.randint(0, 30)) for _ in range(40)]),
              "random": counts([(1, rng.randint(0, 6)) for _ in range(60)])}
    e = {"greedy": 6.0, "random": 2.5}
    pooled = strength(per_ai, e)
    own = {a: strength({a: s}, {a: e[a]}) for a, s in per_ai.items()}
    weighed = sum(o.ratio * o.expected for o in own.values()) / sum(
        o.expected for o in own.values())  # the ratios are weighed; the log is taken after
    assert pooled.ratio == pytest.approx(weighed)


def shared(share: float, se: float, forests: int) -> Strength:
    """A strength given as the share the flag judges (points over expected, minus one) and
    that share's standard error: stored as log2 of the ratio, its error by the delta method."""
    r = 1 + share
    return Strength(math.log2(r), None, se / (r * math.log(2)), forests)


def test_a_species_far_out_of_its_set_is_flagged_and_the_rest_are_not():
    from scipy.special import ndtri

    # a set spread as a normal sample is at its best: its quantiles, sd 0.1
    found: dict[str, Strength | None] = {
        f"s{i}": shared(0.1 * float(ndtri((i + 0.5) / 56)), 0.02, 100) for i in range(56)}
    found["planted"] = shared(1.0, 0.1, 100)  # twice its due
    found["sunk"] = shared(-0.95, 0.01, 100)  # a twentieth: weak can fire too
    found["rare"] = shared(20.0, 1.0, MIN_FORESTS - 1)  # too few forests to judge
    found["never"] = None
    out = flags(found)
    assert out["planted"] == "strong" and out["sunk"] == "weak"
    assert out["rare"] is None and out["never"] is None
    assert [k for k, v in out.items() if v] == ["planted", "sunk"]


def test_an_uncertain_strength_is_not_flagged_however_far_it_lies():
    found: dict[str, Strength | None] = {f"s{i}": shared(i / 10, 0.1, 50) for i in range(20)}
    found["noisy"] = shared(8.0, 4.0, 12)
    assert flags(found)["noisy"] is None
    found["noisy"] = shared(8.0, 0.3, 12)
    assert flags(found)["noisy"] == "strong"


def test_each_species_is_judged_against_the_rest_of_its_set():
    """The others' sd makes the bar: a set with a handful of combination species well above its
    bulk (a real set's roe deer and beech martens) flags none of them, while a species three
    times as far above is flagged, and only it."""
    found: dict[str, Strength | None] = {
        f"s{i}": shared((i % 9) / 8, 0.05, 100) for i in range(45)}
    found.update({f"combo{i}": shared(1.6 + i / 10, 0.1, 100) for i in range(5)})
    out = flags(found)
    assert not any(out.values()), [k for k, v in out.items() if v]
    found["planted"] = shared(4.8, 0.3, 100)
    out = flags(found)
    assert [k for k, v in out.items() if v] == ["planted"]


def test_the_improvement_when_drawn_is_measured_within_each_ai():
    """The candidate strength benchmarks/planted.py measures beside the flag: each AI's win
    rate when drawn minus when not, weighed across AIs by drawn x undrawn / forests. A species
    greedy draws far more often than random would look +40 points better pooled (greedy wins
    more), but within each AI drawing it changes nothing, so its improvement is 0."""
    from benchmarks.planted import drawn_strengths
    from grove.simulation.aggregate import Moments, Totals

    ais = {"greedy": Moments(n=100, wins=50), "random": Moments(n=100, wins=0)}
    t = Totals(ais=ais, species_ai={
        "birch": {"greedy": SpeciesCounts(drawn=90, drawn_wins=45),  # 50% drawn and not
                  "random": SpeciesCounts(drawn=10, drawn_wins=0)},
        "fox": {"greedy": SpeciesCounts(drawn=50, drawn_wins=30),  # 60% against 40%
                "random": SpeciesCounts(drawn=50, drawn_wins=0)},
        "everyone": {"greedy": SpeciesCounts(drawn=100, drawn_wins=50)}})  # none undrawn
    found = drawn_strengths(t)
    assert found["birch"].value == pytest.approx(0.0) and found["birch"].se > 0
    assert found["fox"].value == pytest.approx(0.1)  # (25 x 0.2 + 25 x 0) / 50
    lo, hi = found["fox"].ci95
    assert lo < 0.1 < hi and found["fox"].forests == 100
    assert found["everyone"] is None
