"""`report.html`: a run on one self-contained page, its plots drawn as inline SVG.

The page loads nothing: no script, no style sheet, no font, no image from anywhere, so it opens
the same from a laptop on a train or a mail attachment. The plots are a few shapes each (bars
with their intervals, box plots of totals, scatter plots of species), laid out here as numbers
and drawn by the jinja2 template `templates/report.html.j2`, which escapes every name (an
author's species names are input).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import jinja2

from grove.simulation.aggregate import Totals

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 56, 16, 16, 44  # margins around a plot's area


@dataclass(frozen=True)
class Scale:
    """A linear map of [low, high] onto pixels [start, end], with round tick values."""

    low: float
    high: float
    start: float
    end: float

    def __call__(self, v: float) -> float:
        if self.high == self.low:
            return (self.start + self.end) / 2
        return round(self.start + (v - self.low) / (self.high - self.low) * (self.end - self.start), 2)

    def ticks(self, n: int = 5) -> list[tuple[float, str]]:
        span = self.high - self.low
        if span <= 0:
            return [(self(self.low), _num(self.low))]
        step = 10 ** math.floor(math.log10(span / n))
        for m in (1, 2, 5, 10):
            if span / (step * m) <= n:
                step *= m
                break
        first = math.ceil(self.low / step) * step
        out = []
        v = first
        while v <= self.high + step * 1e-9:
            out.append((self(v), _num(v)))
            v += step
        return out


def _num(v: float) -> str:
    if abs(v - round(v)) < 1e-9:
        return str(int(round(v)))
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _padded(low: float, high: float, share: float = 0.05) -> tuple[float, float]:
    pad = (high - low) * share or 1.0
    return low - pad, high + pad


def quantiles(hist: Counter[int], qs: tuple[float, ...]) -> list[int]:
    """The values at the given quantiles of a histogram (the lowest value whose cumulative
    count reaches the share), read off the counts without listing every game."""
    n = sum(hist.values())
    out = []
    for q in qs:
        need, seen = q * n, 0
        for v in sorted(hist):
            seen += hist[v]
            if seen >= need:
                out.append(v)
                break
    return out


def box_plot(groups: list[tuple[str, Counter[int]]]) -> dict[str, Any]:
    """A box per group: quartiles, whiskers from the 5th to the 95th percentile, min and max."""
    stats = [(label, quantiles(h, (0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0)), sum(h.values()))
             for label, h in groups if h]
    if not stats:
        return {"boxes": [], "yticks": [], "width": WIDTH, "height": HEIGHT}
    low, high = _padded(min(s[1][0] for s in stats), max(s[1][-1] for s in stats))
    y = Scale(low, high, HEIGHT - BOTTOM, TOP)
    band = (WIDTH - LEFT - RIGHT) / len(stats)
    boxes = []
    for i, (label, q, n) in enumerate(stats):
        mid = LEFT + band * (i + 0.5)
        half = min(40.0, band * 0.3)
        boxes.append({"label": label, "x": round(mid - half, 2), "mid": round(mid, 2),
                      "w": round(2 * half, 2), "min": y(q[0]), "p5": y(q[1]), "q1": y(q[2]),
                      "median": y(q[3]), "q3": y(q[4]), "p95": y(q[5]), "max": y(q[6]),
                      "title": f"{label}: n={n}, min {q[0]}, quartiles {q[2]} / {q[3]} / {q[4]}, "
                               f"max {q[6]}"})
    return {"boxes": boxes, "yticks": y.ticks(), "width": WIDTH, "height": HEIGHT,
            "left": LEFT, "right": WIDTH - RIGHT, "bottom": HEIGHT - BOTTOM, "top": TOP}


def rate_bars(rows: list[dict[str, Any]], label_key: str, label: str) -> dict[str, Any]:
    """Win rate per group as a bar with its 95% interval as a whisker, on a 0..1 axis."""
    rows = [r for r in rows if r["win_rate"] is not None]
    y = Scale(0.0, 1.0, HEIGHT - BOTTOM, TOP)
    band = (WIDTH - LEFT - RIGHT) / max(1, len(rows))
    bars = []
    for i, r in enumerate(rows):
        mid = LEFT + band * (i + 0.5)
        half = min(40.0, band * 0.3)
        lo, hi = r["win_ci95"] or (r["win_rate"], r["win_rate"])
        name = f"{label} {r[label_key]}"
        bars.append({"label": name, "x": round(mid - half, 2), "mid": round(mid, 2),
                     "w": round(2 * half, 2), "top": y(r["win_rate"]), "zero": y(0.0),
                     "lo": y(lo), "hi": y(hi),
                     "title": f"{name}: win rate {r['win_rate']:.3f}, 95% CI {lo:.3f} to {hi:.3f}"})
    return {"bars": bars, "yticks": y.ticks(), "width": WIDTH, "height": HEIGHT,
            "left": LEFT, "right": WIDTH - RIGHT, "bottom": HEIGHT - BOTTOM, "top": TOP}


def scatter(points: list[tuple[float, float, str, str]], xlabel: str, ylabel: str
            ) -> dict[str, Any]:
    """(x, y, label, title) points with axes fitted to them; labels beside the dots."""
    if not points:
        return {"points": [], "xticks": [], "yticks": [], "width": WIDTH, "height": HEIGHT}
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x = Scale(*_padded(min(xs), max(xs)), LEFT, WIDTH - RIGHT)
    y = Scale(*_padded(min(ys), max(ys)), HEIGHT - BOTTOM, TOP)
    return {"points": [{"x": x(px), "y": y(py), "label": lab, "title": title}
                       for px, py, lab, title in points],
            "xticks": x.ticks(), "yticks": y.ticks(), "xlabel": xlabel, "ylabel": ylabel,
            "width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT,
            "bottom": HEIGHT - BOTTOM, "top": TOP}


def species_plots(species: list[dict[str, Any]]) -> tuple[dict[str, Any], dict[str, Any]]:
    played = [s for s in species if s["mean_points_when_played"] is not None]
    often = scatter([(s["played_per_game"], s["mean_points_when_played"], s["name"],
                      f"{s['name']}: {s['played_per_game']:.2f} copies a game, "
                      f"{s['mean_points_when_played']:.1f} points a forest that has it")
                     for s in played], "copies played per game", "points when played")
    cost = scatter([(s["cost"], s["mean_points_per_copy"], s["name"],
                     f"{s['name']}: cost {s['cost']}, {s['mean_points_per_copy']:.2f} points a copy")
                    for s in played], "cost (cards paid)", "points per copy")
    return often, cost


@lru_cache(maxsize=1)
def _template() -> jinja2.Template:
    env = jinja2.Environment(loader=jinja2.PackageLoader("grove.simulation", "templates"),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined)
    return env.get_template("report.html.j2")


# what an HTML page cannot hold: lone surrogates (no UTF-8 encodes them) and control characters
# other than tab and line ends (a parse error for every browser, even written as &#x1b;)
_UNFIT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")


def fit_for_html(text: str) -> str:
    """`text` with every character a page cannot hold replaced by U+FFFD, as a browser would
    show it: an author's species name may hold anything a YAML string can."""
    return _UNFIT.sub("\ufffd", text)


def render(summary: dict[str, Any], totals: Totals) -> str:
    """The page, every character of it encodable as UTF-8 (`fit_for_html`)."""
    seat_boxes = box_plot([(f"seat {s}", totals.seat_scores[s]) for s in sorted(totals.seat_scores)])
    ai_boxes = box_plot([(a, totals.ai_scores[a]) for a in sorted(totals.ai_scores)])
    often, cost = species_plots(summary["species"])
    return fit_for_html(_template().render(
        s=summary, seat_bars=rate_bars(summary["seats"], "seat", "seat"),
        ai_bars=rate_bars(summary["ais"], "ai", "AI"), seat_boxes=seat_boxes, ai_boxes=ai_boxes,
        often=often, cost=cost))
