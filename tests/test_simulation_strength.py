"""simulation/strength.py: the expected points of a copy by kind and cost, a species' strength
with its interval from exact sums, and the flag corrected for the number of species."""

from __future__ import annotations

import math
import random

import pytest

from grove.simulation.aggregate import SpeciesCounts
from grove.simulation.strength import MIN_FORESTS, Strength, expectations, flags, strength


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
    # the same worked out forest by forest
    ys = [(p - e[a] * c, c) for a, f in forests.items() for c, p in f]
    r = sum(y for y, _ in ys) / sum(c for _, c in ys)
    n = len(ys)
    se = math.sqrt(sum((y - r * c) ** 2 for y, c in ys) / (n - 1) * n) / sum(c for _, c in ys)
    assert st.value == pytest.approx(r)
    assert st.se == pytest.approx(se)
    assert st.ci95 == pytest.approx((r - 1.959964 * se, r + 1.959964 * se), rel=1e-5)
    assert st.forests == n


def test_a_species_far_out_of_its_set_is_flagged_and_the_rest_are_not():
    from scipy.special import ndtri

    # a set spread as a normal sample is at its best: its quantiles, sd 1
    found: dict[str, Strength | None] = {
        f"s{i}": Strength(float(ndtri((i + 0.5) / 56)), None, 0.2, 100) for i in range(56)}
    found["planted"] = Strength(9.0, None, 0.5, 100)
    found["sunk"] = Strength(-9.0, None, 0.5, 100)
    found["rare"] = Strength(20.0, None, 6.0, MIN_FORESTS - 1)  # too few forests to judge
    found["never"] = None
    out = flags(found)
    assert out["planted"] == "strong" and out["sunk"] == "weak"
    assert out["rare"] is None and out["never"] is None
    assert [k for k, v in out.items() if v] == ["planted", "sunk"]


def test_an_uncertain_strength_is_not_flagged_however_far_it_lies():
    found: dict[str, Strength | None] = {f"s{i}": Strength(i / 10, None, 0.1, 50) for i in range(20)}
    found["noisy"] = Strength(8.0, None, 4.0, 12)
    assert flags(found)["noisy"] is None
    found["noisy"] = Strength(8.0, None, 0.3, 12)
    assert flags(found)["noisy"] == "strong"
