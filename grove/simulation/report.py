"""`report.html`: a run on one self-contained page a designer reads in a minute, its plots drawn
as inline SVG.

The page loads nothing: no script, no style sheet, no font, no image from anywhere, so it opens
the same from a laptop on a train or a mail attachment. What it shows first is what a designer
acts on: the species sorted by strength with the flagged ones marked (simulation/strength.py),
each AI's strength beside the pooled one, and which AIs the figures rest on. The plots are laid
out here as numbers and drawn by the jinja2 template `templates/report.html.j2`, which escapes
every name (an author's species names are input). Labels are placed here, never on top of one
another or outside their plot: a row per species where every species is named, and on the
scatter plot only the outliers that find a free place, the rest listed under it.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import jinja2

from grove.simulation.against import WORDS
from grove.simulation.aggregate import Totals

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 16, 48  # margins around a plot's area
FONT = 11  # px, the size of every label of a plot (the template's .tick, .name)
ROW = 16  # px: one species' row of the strength plot
PLOT_ROOM = 420  # px at least for the strength plot's axis beside the longest name
LABELLED = 4  # the strongest and weakest species named on the scatter plot, with the flagged
KINDS = 6  # colours of the expected-points lines, one a kind, in turn


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

    def ticks(self, n: int = 5, percent: bool = False) -> list[tuple[float, str]]:
        return [(px, _num(v, percent)) for px, v in self.values(n)]

    def values(self, n: int = 5) -> list[tuple[float, float]]:
        """(pixel, value) of round values across the scale, at most about `n + 1`."""
        span = self.high - self.low
        if span <= 0:
            return [(self(self.low), self.low)]
        step = 10 ** math.floor(math.log10(span / n))
        for m in (1, 2, 5, 10):
            if span / (step * m) <= n:
                step *= m
                break
        first = math.ceil(self.low / step) * step
        out = []
        v = first
        while v <= self.high + step * 1e-9:
            out.append((self(v), 0.0 if abs(v) < step * 1e-9 else v))
            v += step
        return out


def _num(v: float, percent: bool = False) -> str:
    if percent:
        return f"{round(100 * v)}%"
    if abs(v - round(v)) < 1e-9:
        return str(int(round(v)))
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _padded(low: float, high: float, share: float = 0.05) -> tuple[float, float]:
    pad = (high - low) * share or 1.0
    return low - pad, high + pad


def text_width(text: str, size: float = FONT) -> float:
    """A generous guess of a label's width in px: wider than any common sans-serif sets it
    (0.62 em a character, a wide character twice that), since no two labels may touch."""
    return sum(1.24 if unicodedata.east_asian_width(ch) in "WF" else 0.62
               for ch in text) * size


def clipped(text: str, room: float, size: float = FONT) -> str:
    """`text` cut with an ellipsis to fit `room` px (the whole name stays in the tooltip)."""
    if text_width(text, size) <= room:
        return text
    while text and text_width(text + "…", size) > room:
        text = text[:-1]
    return text + "…"


def _frame(**extra: Any) -> dict[str, Any]:
    return {"width": WIDTH, "height": HEIGHT, "left": LEFT, "right": WIDTH - RIGHT,
            "bottom": HEIGHT - BOTTOM, "top": TOP, **extra}


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


def box_plot(groups: list[tuple[str, Counter[int]]], ylabel: str) -> dict[str, Any]:
    """A box per group: quartiles, whiskers from the 5th to the 95th percentile, min and max."""
    stats = [(label, quantiles(h, (0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0)), sum(h.values()))
             for label, h in groups if h]
    if not stats:
        return _frame(boxes=[], yticks=[], ylabel=ylabel)
    low, high = _padded(min(s[1][0] for s in stats), max(s[1][-1] for s in stats))
    y = Scale(low, high, HEIGHT - BOTTOM, TOP)
    band = (WIDTH - LEFT - RIGHT) / len(stats)
    boxes = []
    for i, (label, q, n) in enumerate(stats):
        mid = LEFT + band * (i + 0.5)
        half = min(40.0, band * 0.3)
        boxes.append({"label": clipped(label, band - 8), "x": round(mid - half, 2),
                      "mid": round(mid, 2),
                      "w": round(2 * half, 2), "min": y(q[0]), "p5": y(q[1]), "q1": y(q[2]),
                      "median": y(q[3]), "q3": y(q[4]), "p95": y(q[5]), "max": y(q[6]),
                      "title": f"{label}: n={n}, min {q[0]}, quartiles {q[2]} / {q[3]} / {q[4]}, "
                               f"max {q[6]}"})
    return _frame(boxes=boxes, yticks=y.ticks(), ylabel=ylabel)


def rate_bars(rows: list[dict[str, Any]], label_key: str, label: str) -> dict[str, Any]:
    """Win rate per group as a bar with its 95% interval as a whisker, on a 0-100% axis, as the
    tables beside it say it."""
    rows = [r for r in rows if r["win_rate"] is not None]
    y = Scale(0.0, 1.0, HEIGHT - BOTTOM, TOP)
    band = (WIDTH - LEFT - RIGHT) / max(1, len(rows))
    bars = []
    for i, r in enumerate(rows):
        mid = LEFT + band * (i + 0.5)
        half = min(40.0, band * 0.3)
        lo, hi = r["win_ci95"] or (r["win_rate"], r["win_rate"])
        name = f"{label} {r[label_key]}".strip()
        bars.append({"label": clipped(name, band - 8), "x": round(mid - half, 2),
                     "mid": round(mid, 2), "w": round(2 * half, 2), "top": y(r["win_rate"]),
                     "zero": y(0.0), "lo": y(lo), "hi": y(hi),
                     "title": f"{name}: win rate {100 * r['win_rate']:.1f}%, 95% CI "
                              f"{100 * lo:.1f}% to {100 * hi:.1f}%"})
    return _frame(bars=bars, yticks=y.ticks(percent=True), ylabel="win rate")


def factor(v: float) -> str:
    """A log2 strength as the factor it stands for: 1 -> "x2", -1 -> "x0.5"."""
    f = 2.0 ** v
    return f"x{f:.2f}".rstrip("0").rstrip(".") if f < 10 else f"x{f:.0f}"


def strength_plot(species: list[dict[str, Any]]) -> dict[str, Any]:
    """Every measured species on a row of its own, strongest first: its strength as a dot with
    its 95% interval on a log2 axis labelled as factors (x0.5, x1, x2), its whole name at the
    left: a row per name, so no two names can meet, and the plot as wide as its longest name
    needs (the page scrolls it inside its box where it is narrower)."""
    rows = [s for s in species if s["strength"] is not None]
    height = TOP + ROW * len(rows) + BOTTOM
    if not rows:
        return {"rows": [], "width": WIDTH, "height": height}
    names = max(text_width(s["name"]) for s in rows) + 8
    width = round(max(WIDTH, names + 8 + PLOT_ROOM + RIGHT), 2)
    lows = [(s["strength_ci95"] or [s["strength"]] * 2)[0] for s in rows]
    highs = [(s["strength_ci95"] or [s["strength"]] * 2)[1] for s in rows]
    x = Scale(*_padded(min(0.0, *lows), max(0.0, *highs)), names + 8, width - RIGHT)
    out = []
    for i, s in enumerate(rows):
        lo, hi = s["strength_ci95"] or (s["strength"], s["strength"])
        mid = TOP + ROW * (i + 0.5)
        mark = s.get("changed", "")
        out.append({"y": round(mid, 2), "name": s["name"], "changed": mark,
                    "x": x(s["strength"]), "lo": x(lo), "hi": x(hi), "flag": s["flag"] or "",
                    "title": f"{s['name']}: a copy scores {factor(s['strength'])} what its "
                             f"kind and cost bring (95% CI {factor(lo)} to {factor(hi)})"
                             + (f", flagged {s['flag']}" if s["flag"] else "")})
    bottom = TOP + ROW * len(rows)
    ticks = [(px, factor(v)) for px, v in x.values(8)]
    return {"rows": out, "width": width, "height": height, "left": round(names + 8, 2),
            "right": width - RIGHT, "top": TOP, "bottom": bottom, "zero": x(0.0),
            "name_x": round(names, 2), "xticks": ticks}


Box = tuple[float, float, float, float]  # left, top, right, bottom


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def place_labels(dots: list[tuple[float, float, str]], area: Box, taken: list[Box]
                 ) -> list[dict[str, Any] | None]:
    """For each (x, y, text), in order of importance, a label beside its dot that meets no
    other label, no dot and nothing in `taken`, inside `area`: right, left, above or below the
    dot; None where none of these is free. Widths are `text_width`'s generous guess, with a
    pixel to spare, so a browser's narrower letters only widen the gaps."""
    boxes = list(taken)
    boxes += [(x - 4, y - 4, x + 4, y + 4) for x, y, _ in dots]
    out: list[dict[str, Any] | None] = []
    for x, y, text in dots:
        w, up, down = text_width(text) + 2, FONT, FONT * 0.35
        tries = [(x + 6, y + 4, "start", (x + 5, y + 4 - up, x + 7 + w, y + 4 + down)),
                 (x - 6, y + 4, "end", (x - 7 - w, y + 4 - up, x - 5, y + 4 + down)),
                 (x, y - 7, "middle", (x - w / 2, y - 7 - up, x + w / 2, y - 7 + down)),
                 (x, y + 15, "middle", (x - w / 2, y + 15 - up, x + w / 2, y + 15 + down))]
        found = None
        for tx, ty, anchor, box in tries:
            inside = area[0] <= box[0] and box[2] <= area[2] and area[1] <= box[1] and (
                box[3] <= area[3])
            if inside and not any(_meets(box, b) for b in boxes):
                found = {"x": round(tx, 2), "y": round(ty, 2), "anchor": anchor, "text": text}
                boxes.append(box)
                break
        out.append(found)
    return out


def expected_lines(played: list[dict[str, Any]]) -> dict[str, list[tuple[int, float]]]:
    """kind -> (cost, points a copy of that kind and cost is expected to score) for each cost
    its species have: the median over its species of their expected points a copy (each the
    run's expectation line read at its cost, pooled over the AIs by its copies)."""
    import statistics

    at: dict[str, dict[int, list[float]]] = {}
    for s in played:
        if s.get("expected_per_copy") is not None:
            at.setdefault(s.get("kind") or "", {}).setdefault(s["cost"], []).append(
                s["expected_per_copy"])
    return {k: sorted((c, statistics.median(v)) for c, v in by.items())
            for k, by in sorted(at.items())}


def cost_scatter(species: list[dict[str, Any]]) -> dict[str, Any]:
    """Points per copy against cost, a dot per species, and each kind's expected points a copy
    as a line; the changed species (against a baseline), the flagged ones and the strongest and
    weakest few named where a free place is found, then each line's kind; every dot not named
    is listed under the plot, so no name is ever cut."""
    played = [s for s in species if s["mean_points_per_copy"] is not None]
    if not played:
        return _frame(points=[], xticks=[], yticks=[], rest=[], lines=[])
    lines_at = expected_lines(played)
    xs, ys = [s["cost"] for s in played], [s["mean_points_per_copy"] for s in played]
    ys += [v for pts in lines_at.values() for _, v in pts]
    lo, hi = min(xs), max(xs)
    x = Scale(lo - 0.5, hi + 0.5, LEFT, WIDTH - RIGHT)
    y = Scale(*_padded(min(0.0, *ys), max(ys)), HEIGHT - BOTTOM, TOP)
    by_strength = sorted((s for s in played if s["strength"] is not None),
                         key=lambda s: -s["strength"])
    wanted = [s for s in played if s.get("changed")]
    wanted += [s for s in by_strength if s["flag"] and s not in wanted]
    wanted += [s for s in by_strength[:LABELLED] + by_strength[::-1][:LABELLED]
               if s not in wanted]
    # the same cost lies on one vertical line: spread the dots of one cost a little apart
    at_cost: Counter[int] = Counter()
    dots = []
    for s in played:
        k = at_cost[s["cost"]]
        at_cost[s["cost"]] += 1
        jitter = ((k % 7) - 3) * 4.0
        dots.append({"x": round(x(s["cost"]) + jitter, 2), "y": y(s["mean_points_per_copy"]),
                     "flag": s["flag"] or "", "changed": s.get("changed", ""), "s": s,
                     "title": f"{s['name']}: cost {s['cost']}, "
                              f"{s['mean_points_per_copy']:.2f} points a copy"})
    lines = [{"kind": k, "n": i % KINDS, "points": " ".join(f"{x(c)},{y(v)}" for c, v in pts),
              "end": (x(pts[-1][0]), y(pts[-1][1]))} for i, (k, pts) in enumerate(
                  lines_at.items())]
    where = {id(d["s"]): d for d in dots}
    order = [where[id(s)] for s in wanted]
    area = (float(LEFT + 2), float(TOP), float(WIDTH - RIGHT), float(HEIGHT - BOTTOM - 2))
    others = [(d["x"] - 4, d["y"] - 4, d["x"] + 4, d["y"] + 4) for d in dots if d not in order]
    labels = place_labels([(d["x"], d["y"], d["s"]["name"]) for d in order]
                          + [(*ln["end"], f"expected, {ln['kind'] or 'other'}") for ln in lines],
                          area, others)
    named = set()
    for d, lab in zip(order, labels, strict=False):
        d["label"] = lab
        if lab is not None:
            named.add(id(d["s"]))
    for ln, lab in zip(lines, labels[len(order):], strict=True):
        ln["label"] = lab
    for d in dots:
        d.setdefault("label", None)
    rest = sorted(s["name"] for s in played if id(s) not in named)
    ticks = [(x(c), str(c)) for c in range(lo, hi + 1)]
    return _frame(points=[{k: v for k, v in d.items() if k != "s"} for d in dots],
                  lines=[{k: v for k, v in ln.items() if k != "end"} for ln in lines],
                  xticks=ticks, yticks=y.ticks(), rest=rest,
                  xlabel="cost (cards paid besides the card)", ylabel="points per copy")


def ready() -> None:
    """Compile the page's template now (0.07 s): a run does it while its workers play, not
    after the last game, where nothing else runs."""
    _template()


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


# what each AI kind is, for a reader who did not write the run's command
AI_WORDS = {
    "random": "plays any legal action, uniformly: how a card fares when played blindly",
    "greedy": "takes the action that gains the most points now, planning nothing: a card "
              "that pays at once looks stronger than at a table, one that needs a plan weaker",
    "mcts": "searches: plays each choice on in many games dealt anew from what it cannot "
            "see, and keeps the one that ends best (docs/ai.md): the closest to a player",
}


def ai_words(spec: str) -> str:
    """A sentence on what an AI spec plays like (`greedy!red_fox`: greedy, never a red fox)."""
    base, *barred = spec.split("!")
    words = AI_WORDS.get(base.partition(":")[0], "")
    if barred:
        words += ("; " if words else "") + "never plays " + ", ".join(barred) + \
            " (restricted play: what those cards are worth to it)"
    return words


def seats_differ(summary: dict[str, Any]) -> bool:
    """Whether the seats' figures say anything of the seats: not when the AIs differ and are
    rotated, which seats every AI at every seat equally often and makes the seats alike by
    construction."""
    return not summary.get("rotate") or len(set(summary.get("ai") or [])) <= 1


def _value(what: str, v: float | None, signed: bool = False) -> str:
    if v is None:
        return "–"
    if what == "strength":
        return factor(v)
    if what.startswith("win_rate"):
        return f"{100 * v:+.1f} pt" if signed else f"{100 * v:.1f}%"
    return f"{v:+.2f}" if signed else f"{v:.2f}"


def changed_rows(against: dict[str, Any]) -> list[dict[str, Any]]:
    """The what-changed table's rows as the page shows them: each changed species' most
    certain figure before and after, its change with the 95% interval, its strength and rank
    before and after, its points a copy's change, the cards paid a copy before and after, and
    why it moved."""
    out = []
    for c in against["changed"]:
        top = c["figures"][0]
        lo, hi = top["ci95"] or (None, None)
        st = c["strength"]
        ppc = c["points_per_copy"]
        share = (f"{100 * (ppc[1] / ppc[0] - 1):+.0f}%" if None not in ppc and ppc[0] else "–")
        why = "its card differs" if c["card_differs"] else (
            "knock-on of " + ", ".join(c["knock_on_of"]) if c["knock_on_of"] else "")
        out.append({
            "id": c["id"], "name": c["name"], "kind": c["kind"], "flag": c.get("flag") or "",
            "why": why, "knock_on": bool(c["knock_on_of"]),
            "what": WORDS.get(top["what"], top["what"]),
            "before": _value(top["what"], top["before"]), "after": _value(top["what"], top["after"]),
            "change": _value(top["what"], top["change"], True),
            "ci": "–" if lo is None else f"{_value(top['what'], lo, True)} to "
                                         f"{_value(top['what'], hi, True)}",
            "more": len(c["figures"]) - 1,
            "strength": f"{_value('strength', st['before'])} → {_value('strength', st['after'])}",
            "rank": " → ".join("–" if r is None else str(r) for r in c["rank"]),
            "points": share,
            "paid": " → ".join(_value("paid_per_copy", v)
                               for v in c.get("paid_per_copy") or (None, None))})
    return out


def card_set(cards: list[str], digest: dict[str, str]) -> str:
    """A run's card set as the page names it: each edition's folder and digest."""
    ds = list(digest.values()) if isinstance(digest, dict) else []
    if not cards:
        return ", ".join(f"{k} {v}" for k, v in (digest or {}).items()) or "unknown"
    return ", ".join(f"{c} ({ds[i]})" if i < len(ds) else c for i, c in enumerate(cards))


def render(summary: dict[str, Any], totals: Totals) -> str:
    """The page, every character of it encodable as UTF-8 (`fit_for_html`)."""
    against = summary.get("against")
    moved = {c["id"]: "knock-on" if c["knock_on_of"] else "changed"
             for c in (against or {}).get("changed", ())}
    species = sorted(({**s, "changed": moved.get(s["id"], "")} for s in summary["species"]),
                     key=lambda s: (s["strength"] is None, -(s["strength"] or 0.0), s["id"]))
    ranked = {s["id"]: i for i, s in enumerate(
        (s for s in species if s["strength"] is not None), 1)}
    ais = [a["ai"] for a in summary["ais"]]
    per_ai = {a: sorted(species, key=lambda s, a=a: _ai_order(s, a)) for a in ais}
    seat_boxes = box_plot([(f"seat {s}", totals.seat_scores[s])
                           for s in sorted(totals.seat_scores)], "final score")
    ai_boxes = box_plot([(a, totals.ai_scores[a]) for a in sorted(totals.ai_scores)],
                        "final score")
    # a column every row of which is nothing (no run written before `drawn`, no card that
    # moved a win rate) is noise: it is left out rather than shown as a column of zeros
    shown_cols = {k: any(s.get(k) not in (None, 0, 0.0) for s in species)
                  for k in ("improvement_when_drawn", "win_rate_when_drawn")}
    return fit_for_html(_template().render(
        s=summary, species=species, per_ai=per_ai, ais=ais, rank=ranked, cols=shown_cols,
        ai_words={a: ai_words(a) for a in ais}, seats_shown=seats_differ(summary),
        seat_bars=rate_bars(summary["seats"], "seat", "seat"),
        ai_bars=rate_bars(summary["ais"], "ai", ""), seat_boxes=seat_boxes, ai_boxes=ai_boxes,
        strength=strength_plot(species), cost=cost_scatter(species),
        flagged=[s for s in species if s["flag"]], against=against,
        changed=changed_rows(against) if against else [],
        cards=card_set(summary.get("cards") or [], summary.get("digest") or {}),
        own_cards=any(not c.startswith("shipped:") for c in summary.get("cards") or ()),
        base_cards=card_set(against["base"]["cards"], against["base"]["digest"])
        if against else "", worth=summary.get("worth") or [], factor=factor))


def _ai_order(s: dict[str, Any], ai: str) -> tuple[bool, float, str]:
    own = next((a["strength"] for a in s["by_ai"] if a["ai"] == ai), None)
    return own is None, -(own or 0.0), s["id"]
