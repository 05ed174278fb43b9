"""A species' strength: how much more (or less) its copies score than copies of its kind and
cost score in that card set, measured within each AI, on a log scale (doubled +1, halved -1),
with its interval; and the flag of the few species that stand out of the rest of their set by
more than the set's spread and chance allow.

Why points and not wins: between greedy and random, greedy wins nearly every game whatever it
draws, so a win rate within an AI barely moves with a card (it is saturated), while the points a
copy scores move with every change of its rule. Why within each AI: a card scores more in a
greedy forest than in a random one, and an AI that plays a card more often would otherwise lend
it its own strength (Simpson's paradox). Why against its cost: a card that costs two more cards
to play should bring more than one that costs none.

For AI `a` and kind `g` (tree, dweller, ...: a host is not weighed against a dweller), a copy
of cost c is expected to score `e[a, g, c]` (`expectations`): Siegel's repeated-median line
through the species' points per copy against cost, each species one point. A species' strength
is, over every forest holding it, the base-2 logarithm of its points over what they were
expected to be:

    strength = log2(sum over forests of points / sum over forests of (e * copies))

so 0 is the set's usual, +1 a species that scores twice what its kind and cost bring, -1 one
that scores half. Why a logarithm: on the share `points / expected - 1` a doubled card rose by
+100% while a halved one could fall by 50% at most and a card could never fall below -100%, so
the flag's bar for weak (the set's spread below the median, which the few combination species
far above the bulk widen) was out of reach: a halved card and a doubled one now lie equally far
either side. A species whose copies scored nothing at all (an effect card, which brings what it
does and no points) has no strength: it is judged by restricted play (`grove simulate
--worth`), never shown as "scores nothing". Why a repeated-median line: a least-squares line,
each species weighed by its copies, is pulled up by the few combination species that score 15
or 20 a copy (roe deer, beech marten), and a dweller whose points were tripled then looked
average (the red fox, the tawny owl). Why a ratio rather than points beyond: a tripled rule is
a tripled ratio whatever the card scored, and a cheap card's few points are measured against
its own cost's. An expectation below FLOOR points a copy is taken as FLOOR, so a kind and cost
that bring next to nothing do not divide a copy's points by nearly zero.

A ratio of sums over forests: its variance is the ratio estimator's (the delta method), from the
sums of points^2, points*copies and copies^2 kept per AI (`aggregate.SpeciesCounts`), and the
logarithm's standard error that over the ratio (and ln 2), the delta method once more.

The flag compares a species with the rest of its set (the others played in at least
`MIN_FORESTS` forests): `z = (strength - median) / sqrt(sd^2 + se^2)`, `median` and `sd` those
of the others' strengths, `se` the species' own standard error. A species is `strong` when z
exceeds the normal quantile at 1 - 0.05 / (2 m) and `weak` below its negative, m the number of
species weighed: Bonferroni's correction. The others' standard deviation, not a robust spread:
a real set has a handful of combination species far above its bulk, which a median absolute
deviation leaves out and then flags one by one; leaving the species itself out keeps a planted
change from widening the bar it is judged by. (Measured on every dweller of the base game
tripled in turn: benchmarks/planted.py, docs/simulate.md.)
"""

from __future__ import annotations

import bisect
import math
import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from grove.simulation.aggregate import SpeciesCounts
from grove.simulation.statistics import ALPHA, LEVEL

MIN_FORESTS = 10  # a species held by fewer forests is neither weighed for the set nor flagged
FLOOR = 2.0  # points a copy, the least expected (1 and 0.5 found one tripled dweller fewer
#               on the planted sweep and flagged 11 and 12 unchanged species where 2 flags 7)


@dataclass(frozen=True)
class Strength:
    value: float  # log2 of the points over the points expected
    ci95: tuple[float, float] | None
    se: float | None
    forests: int  # forests holding the species, the count behind `se`
    expected: float = 0.0  # the points its copies were expected to score, all together

    @property
    def ratio(self) -> float:
        """The points over the points expected: 2 for a species that scores twice its due."""
        return 2.0 ** self.value


def repeated_median(points: list[tuple[float, float]]) -> tuple[float, float]:
    """(intercept, slope) of Siegel's repeated-median line through (x, y) points: the slope is
    the median over points of the median slope to every point at another x, the intercept the
    median of y - slope * x (scipy.stats.siegelslopes with
    its default "hierarchical" method, which a test holds it to; scipy.stats itself takes half a
    second to import, more than a run's summary). Half the points can lie anywhere without
    moving it far. All points at one x: slope 0, intercept their median."""
    slopes = []
    for xi, yi in points:
        own = [(yj - yi) / (xj - xi) for xj, yj in points if xj != xi]
        if own:
            slopes.append(statistics.median(own))
    slope = statistics.median(slopes) if slopes else 0.0
    return statistics.median(y - slope * x for x, y in points), slope


def expectations(by_ai: Mapping[str, Mapping[str, SpeciesCounts]], cost: Mapping[str, int],
                 kind: Mapping[str, str], at: Iterable[int] = ()
                 ) -> dict[tuple[str, str, int], float]:
    """(AI, kind, cost) -> the points a copy of that kind and cost is expected to score for that
    AI: the repeated-median line through every species' points per copy against its cost (each
    species one point, whatever its copies), read at that cost, and at least FLOOR. A line
    rather than each cost's median, so that a cost only one or two species have is not measured
    against themselves alone."""
    points: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for sid, per_ai in by_ai.items():
        for ai, s in per_ai.items():
            if s.copies:
                points.setdefault((ai, kind.get(sid, "")), []).append(
                    (cost.get(sid, 0), s.points / s.copies))
    out: dict[tuple[str, str, int], float] = {}
    costs = set(cost.values()) | set(at)  # `at`: costs the set lacks (a card made dearer)
    for (ai, k), pts in points.items():
        intercept, slope = repeated_median(pts)
        for c in costs:
            out[ai, k, c] = max(FLOOR, intercept + slope * c)
    return out


def strength(per_ai: Mapping[str, SpeciesCounts], expected: Mapping[str, float]
             ) -> Strength | None:
    """A species' strength over the AIs in `per_ai`, each copy expected to score
    `expected[ai]` (positive); None where no forest holds it or its copies scored nothing."""
    copies = sum(s.copies for s in per_ai.values())
    n = sum(s.plays for s in per_ai.values())
    due = sum(expected[a] * s.copies for a, s in per_ai.items())
    points = sum(s.points for s in per_ai.values())
    if copies == 0 or n == 0 or due <= 0 or points <= 0:
        return None
    ratio = points / due
    value = math.log2(ratio)
    if n < 2:
        return Strength(value, None, None, n, due)
    # sum over forests of (points - ratio * e * copies)^2, from each AI's exact sums
    resid = 0.0
    for a, s in per_ai.items():
        k = ratio * expected[a]
        resid += s.points_sq - 2 * k * s.points_copies + k * k * s.copies_sq
    se = math.sqrt(max(0.0, resid) * n / (n - 1)) / due / (ratio * math.log(2))
    from scipy.special import ndtri

    half = float(ndtri(0.5 + 0.5 * LEVEL)) * se
    return Strength(value, (value - half, value + half), se, n, due)


def flags(found: Mapping[str, Strength | None]) -> dict[str, str | None]:
    """species -> "strong", "weak" or None, by the rule in this module's docstring."""
    # judged as shares (points over expected, minus one), as before the log scale: a real
    # set's log strengths spread wide at the bottom (the base game's bats score a tenth of
    # their due between greedy players), which widened the bar until not one of the 41 tripled
    # dwellers was flagged at 150 games (docs/simulate.md); a weak change is what the report
    # against a baseline flags (simulation/against.py)
    weighed = {k: _share(s) for k, s in found.items()
               if s is not None and s.se is not None and s.forests >= MIN_FORESTS}
    out: dict[str, str | None] = dict.fromkeys(found)
    if len(weighed) < 3:  # the rest of a set of two is one species, with no spread
        return out
    from scipy.special import ndtri

    bar = float(ndtri(1 - ALPHA / (2 * len(weighed))))
    ordered = sorted(s.value for s in weighed.values())
    for k, s in weighed.items():
        rest = list(ordered)  # the others: a species is not part of the bar it is judged by
        del rest[bisect.bisect_left(rest, s.value)]
        scale = math.hypot(_sd(rest), s.se or 0.0)
        if scale == 0:
            continue
        z = (s.value - statistics.median(rest)) / scale
        out[k] = "strong" if z > bar else "weak" if z < -bar else None
    return out


def _share(s: Strength) -> Strength:
    """A strength as the share its ratio is above 1, its standard error by the delta method."""
    r = s.ratio
    return Strength(r - 1, None, None if s.se is None else s.se * r * math.log(2), s.forests,
                    s.expected)


def _sd(xs: list[float]) -> float:
    """The sample standard deviation in floats (statistics.stdev's exact fractions cost a
    millisecond a species, a run's summary a tenth of its time)."""
    mean = math.fsum(xs) / len(xs)
    return math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (len(xs) - 1))
