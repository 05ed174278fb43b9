"""Intervals and tests over exact counts, from scipy where scipy has them.

Every function takes counts and sums (`aggregate.Moments`, `aggregate.SpeciesCounts`), never
rows, so the same numbers come out whatever order the rows were added in. Variances are worked
out from the integer sums as one integer numerator, so no float sum is taken over the rows.

scipy is imported where it is used, and `scipy.stats` nowhere: it takes 60 MB and more than a
second to import, half of a short run's time and most of a `grove compare`. The intervals every
`grove simulate` prints (`wilson`, `mean_interval`) and the tests `grove compare` makes (Welch's
t, Benjamini-Hochberg) take their distributions from `scipy.special` and are worked as
`scipy.stats` works them; Fisher's exact test, which `scipy.special` has nothing for, sums the
tables' weights itself. Tests hold each to `scipy.stats`, to the last bit where scipy's own
error allows. A run loads `scipy.special` (20 MB, 0.12 s) while its workers play (`ready`), not
after the last game, where nothing else runs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

LEVEL = 0.95  # every interval grove prints is a 95% one
ALPHA = 0.05  # compare names a figure changed when its corrected p is below this


def ready() -> None:
    """Load now what the summary's intervals take from scipy (`scipy.special`)."""
    import scipy.special  # noqa: F401 - loaded for later


def wilson(k: int, n: int) -> tuple[float, float] | None:
    """The Wilson score interval of a proportion k/n (scipy's `binomtest`): unlike the normal
    approximation it stays inside [0, 1] and is sound for rates near 0 or 1 and for small n."""
    from scipy.special import ndtri

    if n <= 0:
        return None
    z = float(ndtri(0.5 + 0.5 * LEVEL))
    # the roots in p of (k/n - p)^2 = z^2 p (1 - p) / n, written over 2 (n + z^2)
    p = k / n
    spread = 2 * (n + z * z)
    centre = (2 * n * p + z * z) / spread
    half = z / spread * math.sqrt(4 * n * p * (1 - p) + z * z)
    return (0.0 if k == 0 else centre - half), (1.0 if k == n else centre + half)


def variance(n: int, total: int, sumsq: int) -> float | None:
    """The sample variance from exact sums: (n * sumsq - total^2) / (n (n - 1))."""
    if n < 2:
        return None
    return (n * sumsq - total * total) / (n * (n - 1))


def mean_interval(n: int, total: int, sumsq: int) -> tuple[float, float] | None:
    """Student's t interval of a mean (scipy's `t.interval`)."""
    from scipy.special import stdtrit

    var = variance(n, total, sumsq)
    if var is None:
        return None
    mean = total / n
    if var == 0:
        return mean, mean
    scale = math.sqrt(var / n)
    return (mean + float(stdtrit(n - 1, (1 - LEVEL) / 2)) * scale,
            mean + float(stdtrit(n - 1, (1 + LEVEL) / 2)) * scale)


def mean_difference_interval(a: tuple[int, int, int], b: tuple[int, int, int]
                             ) -> tuple[float, float] | None:
    """Welch's interval of mean(a) - mean(b), each given as (n, sum, sum of squares): the
    interval that goes with `means_p`'s test (Welch-Satterthwaite degrees of freedom)."""
    from scipy.special import stdtrit

    va, vb = variance(*a), variance(*b)
    if va is None or vb is None:
        return None
    d = a[1] / a[0] - b[1] / b[0]
    ea, eb = va / a[0], vb / b[0]
    if ea + eb == 0:
        return d, d
    df = (ea + eb) ** 2 / (ea * ea / (a[0] - 1) + eb * eb / (b[0] - 1))
    half = float(stdtrit(df, 0.5 + 0.5 * LEVEL)) * math.sqrt(ea + eb)
    return d - half, d + half


def difference_interval(k1: int, n1: int, k2: int, n2: int) -> tuple[float, float] | None:
    """An interval of the difference of two proportions k1/n1 - k2/n2: Newcombe's hybrid score
    interval (his method 10), built from the two Wilson intervals, which keeps the Wilson
    interval's good behaviour near 0 and 1 where the Wald interval of a difference fails."""
    a, b = wilson(k1, n1), wilson(k2, n2)
    if a is None or b is None:
        return None
    p1, p2 = k1 / n1, k2 / n2
    d = p1 - p2
    lo = d - math.sqrt((p1 - a[0]) ** 2 + (b[1] - p2) ** 2)
    hi = d + math.sqrt((a[1] - p1) ** 2 + (p2 - b[0]) ** 2)
    return max(-1.0, lo), min(1.0, hi)


def proportions_p(k1: int, n1: int, k2: int, n2: int) -> float | None:
    """Two-sided p of two proportions being equal: Fisher's exact test on the 2x2 table, the
    tables no likelier than the one seen (scipy's `fisher_exact`, its tolerance for a tie
    included). A test holds it to scipy."""
    if n1 <= 0 or n2 <= 0:
        return None
    return _fisher_two_sided(k1, n1 - k1, k2, n2 - k2)


_TIE = 1e-14  # scipy's `fisher_exact`: a table this close to as likely as the one seen counts
_FAR = 1e-17  # a table this much less likely than the one seen no longer moves its p


def _fisher_two_sided(a: int, b: int, c: int, d: int) -> float:
    """[[a, b], [c, d]]. Each table's weight is the likeliest table's times the exact ratios,
    of integers, that lead to it, so two tables as likely as each other (two runs of the same
    size) get the same weight to the bit."""
    rows, col = (a + b, c + d), a + c
    if 0 in (*rows, col, b + d):
        return 1.0
    low, high = max(0, col - rows[1]), min(col, rows[0])
    # the likeliest table, as scipy finds it (a float quotient, then its integer part)
    mode = int((col + 1) * (rows[0] + 1) / (rows[0] + rows[1] + 2))

    def step(x: int, up: bool) -> float:  # weight(x +- 1) / weight(x)
        if up:
            return (rows[0] - x) * (col - x) / ((x + 1) * (rows[1] - col + x + 1))
        return x * (rows[1] - col + x) / ((rows[0] - x + 1) * (col - x + 1))

    if a == mode:  # the likeliest table seen: every table is as likely or less
        return 1.0
    weights, toward = [1.0], a > mode
    seen = 0.0  # the seen table's weight, found on the first side swept
    # each side out to the last table that moves p, the seen table's side first: past it, what
    # moves p is known; a weight that underflowed to 0 stays 0, and the sweep ends there
    for up in (toward, not toward):
        w, x = 1.0, mode
        while (x < high if up else x > low) and w > 0.0 and (
                w > seen * _FAR or (x < a if up else x > a)):
            w *= step(x, up)
            x += 1 if up else -1
            weights.append(w)
            if x == a:
                seen = w
        if 1.0 - seen <= _TIE:  # as likely as the likeliest: every table is
            return 1.0
        if seen == 0.0:  # too unlikely for a float: so is any table it would count
            return 0.0
    tail = math.fsum(w for w in weights if w <= seen * (1 + _TIE))
    return min(1.0, tail / math.fsum(weights))


def means_p(a: tuple[int, int, int], b: tuple[int, int, int]) -> float | None:
    """Two-sided p of two means being equal, each given as (n, sum, sum of squares): Welch's t
    test from the summary figures, which does not assume the two runs spread alike, worked as
    scipy's `ttest_ind_from_stats` works it, with its t distribution from `scipy.special`; a
    test holds the two to the last bit. Where both spreads are nil the means are equal or
    plainly not."""
    from scipy.special import stdtr

    va, vb = variance(*a), variance(*b)
    if va is None or vb is None:
        return None
    ma, mb = a[1] / a[0], b[1] / b[0]
    if va == 0 and vb == 0:
        return 1.0 if ma == mb else 0.0
    # scipy squares the spreads as numpy arrays (a product) and the rest as numpy scalars (C's
    # pow, which may round a square otherwise): the same steps give the same bits
    sa, sb = math.sqrt(va), math.sqrt(vb)
    vna, vnb = sa * sa / a[0], sb * sb / b[0]
    df = (vna + vnb) ** 2 / (vna ** 2 / (a[0] - 1) + vnb ** 2 / (b[0] - 1))
    t = (ma - mb) / math.sqrt(vna + vnb)
    p = float(2 * stdtr(df, -abs(t)))
    return 1.0 if math.isnan(p) else p


Ratio = tuple[int, int, int, int, int, int]  # over n forests: n, sum x, sum y, x^2, x y, y^2


def ratio_of_sums(r: Ratio) -> tuple[float, float] | None:
    """sum x / sum y over n forests (cards paid over copies: a forest of three copies weighs
    three times one of one) and its standard error by the delta method: the spread of each
    forest's x - ratio * y, from the exact sums. None where y sums to nothing or n < 2."""
    n, x, y, xx, xy, yy = r
    if n < 2 or y == 0:
        return None
    k = x / y
    resid = xx - 2 * k * xy + k * k * yy
    return k, math.sqrt(max(0.0, resid) * n / (n - 1)) / abs(y)


def ratios_change(a: Ratio, b: Ratio
                  ) -> tuple[float, tuple[float, float], float, float] | None:
    """ratio(b) - ratio(a) of two independent samples (`ratio_of_sums`), its 95% normal
    interval, the two-sided p of no change and the change in standard errors; where both
    spreads are nil the ratios are equal or plainly not. None where either is unknown."""
    ra, rb = ratio_of_sums(a), ratio_of_sums(b)
    if ra is None or rb is None:
        return None
    return normal_test(rb[0] - ra[0], math.hypot(ra[1], rb[1]))


def normal_test(d: float, se: float) -> tuple[float, tuple[float, float], float, float]:
    """A change `d` with the standard error `se` of a normal estimate: (d, its 95% interval,
    the two-sided p of no change, d in standard errors). Sums of the same integers divided in
    another order differ in their last bits, so a change or a spread that small is none; with
    no spread the change is plainly there or plainly not."""
    from scipy.special import ndtr, ndtri

    d = 0.0 if abs(d) < 1e-12 else d
    if se < 1e-12:
        return d, (d, d), 1.0 if d == 0 else 0.0, 0.0 if d == 0 else math.inf
    half = float(ndtri(0.5 + 0.5 * LEVEL)) * se
    return d, (d - half, d + half), float(2 * ndtr(-abs(d) / se)), abs(d) / se


def _weighed(ps: Sequence[float], weights: Sequence[float] | None) -> list[float]:
    """Each p over its weight, the weights scaled to average 1 (equal weights: the p as it
    is). A weight is the share of the error allowed that a figure is given before any is seen:
    a weighed p is what the correction reads in place of the p."""
    if weights is None:
        return list(ps)
    scale = len(ps) / math.fsum(weights)
    return [p / (w * scale) for p, w in zip(ps, weights, strict=True)]


def holm(ps: Sequence[float], weights: Sequence[float] | None = None) -> list[float]:
    """Holm's step-down correction: the family-wise error stays at the level asked however many
    figures are compared, and it is uniformly more powerful than Bonferroni's (scipy has
    Benjamini-Hochberg but not Holm). With `weights`, Holm's weighted procedure: at each step
    the p over its weight times the weights of the figures not yet named, so a figure given
    more of the error allowed needs less evidence and the rest more; the family-wise error
    stays at the level asked."""
    m = len(ps)
    w = [1.0] * m if weights is None else [x * m / math.fsum(weights) for x in weights]
    order = sorted(range(m), key=lambda i: ps[i] / w[i])
    out = [0.0] * m
    running, left = 0.0, math.fsum(w)
    for i in order:
        running = max(running, min(1.0, ps[i] / w[i] * left))
        out[i] = running
        left -= w[i]
    return out


def benjamini_hochberg(ps: Sequence[float], weights: Sequence[float] | None = None
                       ) -> list[float]:
    """Benjamini-Hochberg, as scipy's `false_discovery_control` steps it (a test holds the two
    to the last bit): controls the share of false finds among the figures named, more
    permissive than Holm when many figures moved. With `weights`, on the p over its weight
    (Genovese, Roeder and Wasserman's weighted procedure), which keeps that control with
    weights that average 1."""
    if not ps:
        return []
    weighed = [min(1.0, p) for p in _weighed(ps, weights)]
    m = len(weighed)
    order = sorted(range(m), key=lambda i: weighed[i])
    stepped = [weighed[i] * (m / rank) for rank, i in enumerate(order, 1)]
    for r in range(m - 2, -1, -1):  # a figure is named where any larger p would be
        stepped[r] = min(stepped[r], stepped[r + 1])
    out = [0.0] * m
    for r, i in enumerate(order):
        out[i] = min(1.0, max(0.0, stepped[r]))
    return out


CORRECTIONS = {"holm": holm, "bh": benjamini_hochberg}
