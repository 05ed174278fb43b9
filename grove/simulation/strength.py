"""A species' strength: the points a copy brings beyond what the average copy of its kind and
cost brings in that card set, measured within each AI, with its interval; and the flag of the
few species that stand out of their set by more than the set's own spread and chance allow.

Why points and not wins: between greedy and random, greedy wins nearly every game whatever it
draws, so a win rate within an AI barely moves with a card (it is saturated), while the points a
copy scores move with every change of its rule. Why within each AI: a card scores more in a
greedy forest than in a random one, and an AI that plays a card more often would otherwise lend
it its own strength (Simpson's paradox). Why against its cost: a card that costs two more cards
to play should bring more than one that costs none.

For AI `a` and kind `g` (tree, dweller, ...: a host is not weighed against a dweller), a copy
of cost c is expected to score `e[a, g, c]`, what a copy of that kind and cost scores on average
for that AI (`expectations`: a straight line through the set's points per copy against cost).
A species' strength is, over every forest holding it,

    strength = sum over forests of (points - e * copies) / sum of copies

A ratio of sums over forests: its variance is the ratio estimator's (the delta method), from the
sums of points^2, points*copies and copies^2 kept per AI (`aggregate.SpeciesCounts`).

The flag compares a species with its set: `z = (strength - median) / sqrt(spread^2 + se^2)`,
where `median` and `spread` (1.4826 times the median absolute deviation, a standard deviation
that a few outliers do not inflate) are taken over the species played in at least `MIN_FORESTS`
forests, and `se` is the species' own standard error. A species is `strong` when z exceeds the
normal quantile at 1 - 0.05 / (2 m) and `weak` below its negative, m the number of species
weighed: Bonferroni's correction, so that in a set whose species differ only as much as a set's
species do, the chance that any is flagged stays near 5%.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping
from dataclasses import dataclass

from grove.simulation.aggregate import SpeciesCounts
from grove.simulation.statistics import ALPHA, LEVEL

MIN_FORESTS = 10  # a species held by fewer forests is neither weighed for the set nor flagged
MAD_SCALE = 1.4826  # the median absolute deviation of a normal sample times this is its sd


@dataclass(frozen=True)
class Strength:
    value: float
    ci95: tuple[float, float] | None
    se: float | None
    forests: int  # forests holding the species, the count behind `se`


def expectations(by_ai: Mapping[str, Mapping[str, SpeciesCounts]], cost: Mapping[str, int],
                 kind: Mapping[str, str]) -> dict[tuple[str, str, int], float]:
    """(AI, kind, cost) -> the points a copy of that kind and cost brings on average for that
    AI: the straight line through every species' points per copy against its cost, each
    species weighed by its copies (weighted least squares), read at that cost. A kind whose
    copies all cost the same gets their mean; a line rather than each cost's mean, so that a
    cost only one or two species have is not measured against themselves alone."""
    sums: dict[tuple[str, str], list[float]] = {}  # (ai, kind) -> [w, wx, wy, wxx, wxy]
    for sid, per_ai in by_ai.items():
        c = cost.get(sid, 0)
        for ai, s in per_ai.items():
            if not s.copies:
                continue
            acc = sums.setdefault((ai, kind.get(sid, "")), [0.0] * 5)
            w, y = s.copies, s.points / s.copies
            for i, v in enumerate((w, w * c, w * y, w * c * c, w * c * y)):
                acc[i] += v
    out: dict[tuple[str, str, int], float] = {}
    costs = set(cost.values())
    for (ai, k), (w, wx, wy, wxx, wxy) in sums.items():
        spread = w * wxx - wx * wx
        slope = (w * wxy - wx * wy) / spread if spread > 1e-9 * w * w else 0.0
        intercept = (wy - slope * wx) / w
        for c in costs:
            out[ai, k, c] = intercept + slope * c
    return out


def strength(per_ai: Mapping[str, SpeciesCounts], expected: Mapping[str, float]
             ) -> Strength | None:
    """A species' strength over the AIs in `per_ai`, each copy expected to score
    `expected[ai]`; None where no forest holds it."""
    copies = sum(s.copies for s in per_ai.values())
    n = sum(s.plays for s in per_ai.values())
    if copies == 0 or n == 0:
        return None
    surplus = sum(s.points - expected[a] * s.copies for a, s in per_ai.items())
    value = surplus / copies
    if n < 2:
        return Strength(value, None, None, n)
    # sum over forests of (points - (e + value) copies)^2, from each AI's exact sums
    resid = 0.0
    for a, s in per_ai.items():
        k = expected[a] + value
        resid += s.points_sq - 2 * k * s.points_copies + k * k * s.copies_sq
    se = math.sqrt(max(0.0, resid) * n / (n - 1)) / copies
    from scipy.special import ndtri

    half = float(ndtri(0.5 + 0.5 * LEVEL)) * se
    return Strength(value, (value - half, value + half), se, n)


def flags(found: Mapping[str, Strength | None]) -> dict[str, str | None]:
    """species -> "strong", "weak" or None, by the rule in this module's docstring."""
    weighed = {k: s for k, s in found.items()
               if s is not None and s.se is not None and s.forests >= MIN_FORESTS}
    out: dict[str, str | None] = dict.fromkeys(found)
    if len(weighed) < 3:
        return out
    from scipy.special import ndtri

    values = [s.value for s in weighed.values()]
    centre = statistics.median(values)
    spread = MAD_SCALE * statistics.median([abs(v - centre) for v in values])
    bar = float(ndtri(1 - ALPHA / (2 * len(weighed))))
    for k, s in weighed.items():
        scale = math.hypot(spread, s.se or 0.0)
        if scale == 0:
            continue
        z = (s.value - centre) / scale
        out[k] = "strong" if z > bar else "weak" if z < -bar else None
    return out
