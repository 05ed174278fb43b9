"""What a change did: a run set against the baseline run it was changed from, species by species.

A designer who changed a card asks "what did my change do", not "which card of my set is
strong". This module answers it from two runs. Where they dealt the same games (the baseline's
command with the changed cards: same seed, AIs and seating), each species' copies played a
game, points a game and strength are tested game by game (simulation/paired.py), the strength
measured against the baseline's expectation line in both, so a game the change left alone adds
nothing and a tripled rule or a cost made cheaper moves the strength exactly. Runs that share
no games are compared as independent samples: every species figure `grove compare` tests
(played per game, points when played, win rates) and its strength (simulation/strength.py, its
move taken from its kind's: `calibrated`). All are corrected together by Holm's weighted
procedure (or Benjamini-Hochberg's), the figures of the species whose cards differ given
CAUSE_SHARE of the error allowed: a change is looked for first where it was made, and two runs
of the same cards name nothing by chance alone but in one pair of runs in twenty. A species is
**changed** when one of its figures moved beyond chance; the changed species are ordered by
their most certain move (the smallest p, ties by the strength's move in standard errors), so
what the designer changed comes first and what it dragged along after.

The cause is listed beside the effect: the species whose rules or facts (cost, kind) differ
between the two card sets, read from the card data each summary carries (`rules`). A changed
species that is not one of them but shares a card with one, or whose rules name one, is marked
**knock-on**: it moved because its neighbour did.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from grove.simulation.aggregate import Moments, SpeciesCounts, Totals
from grove.simulation.paired import Pair
from grove.simulation.statistics import (
    ALPHA,
    CORRECTIONS,
    LEVEL,
    difference_interval,
    mean_difference_interval,
)

# the share of the error allowed given to the figures of the species whose cards differ, the
# rest to every other species': a change is looked for first where it was made
CAUSE_SHARE = 0.5
LEAD = 3  # the changed species the text output and the report's key name first

# what each figure is called in the report, and how its values read
WORDS = {"strength": "strength (log2 of points over expected)",
         "played_per_game": "copies played a game",
         "points_per_game": "points it scores a game",
         "mean_points_when_played": "points a forest holding it",
         "paid_per_copy": "cards paid a copy",
         "win_rate_when_played": "win rate when played",
         "win_rate_when_not": "win rate when not played"}


@dataclass(frozen=True)
class Move:
    """One figure of one species in both runs: its values, the change with its interval, and
    the p of no change (raw; corrected later with the rest)."""

    species: str
    what: str
    before: float | None
    after: float | None
    change: float | None
    ci95: tuple[float, float] | None
    p: float | None
    z: float = 0.0  # the change in standard errors, where known: orders ties of p


def _mean(n: int, total: int) -> float | None:
    return total / n if n else None


def _rate(k: int, n: int) -> float | None:
    return k / n if n else None


def species_moves(a: Totals, b: Totals, sid: str) -> list[Move]:
    """The counted figures of one species in both runs, each with its change and interval."""
    from grove.simulation.statistics import means_p, proportions_p

    sa, sb = a.species.get(sid, SpeciesCounts()), b.species.get(sid, SpeciesCounts())
    out = []
    for what, (na, ta, qa), (nb, tb, qb) in (
            ("played_per_game", (a.forests.n, sa.copies, sa.copies_sq),
             (b.forests.n, sb.copies, sb.copies_sq)),
            ("mean_points_when_played", (sa.plays, sa.points, sa.points_sq),
             (sb.plays, sb.points, sb.points_sq))):
        # played per game is over every forest, copies counted per seat: forests per game
        scale = (a.forests.n / a.games if a.games else 1) if what == "played_per_game" else 1
        before, after = _mean(na, ta), _mean(nb, tb)
        ci = mean_difference_interval((nb, tb, qb), (na, ta, qa))
        change = None if before is None or after is None else scale * (after - before)
        out.append(Move(sid, what, None if before is None else scale * before,
                        None if after is None else scale * after, change,
                        None if ci is None else (scale * ci[0], scale * ci[1]),
                        means_p((na, ta, qa), (nb, tb, qb))))
    out.append(_paid_move(a, b, sid))
    wa, wb = a.forests.wins, b.forests.wins
    for what, (ka, na), (kb, nb) in (
            ("win_rate_when_played", (sa.wins, sa.plays), (sb.wins, sb.plays)),
            ("win_rate_when_not", (wa - sa.wins, a.forests.n - sa.plays),
             (wb - sb.wins, b.forests.n - sb.plays))):
        before, after = _rate(ka, na), _rate(kb, nb)
        out.append(Move(sid, what, before, after,
                        None if before is None or after is None else after - before,
                        difference_interval(kb, nb, ka, na), proportions_p(ka, na, kb, nb)))
    return out


def _paid_move(a: Totals, b: Totals, sid: str) -> Move:
    """The cards paid a copy in two independent runs (compare.paid_change); untested where
    either run does not say what was paid or has no copy."""
    from grove.simulation.compare import paid_change

    va, vb, tested = paid_change(a, b, sid)
    if tested is None:
        return Move(sid, "paid_per_copy", va, vb, None, None, None)
    return Move(sid, "paid_per_copy", va, vb, *tested)


def strength_move(sid: str, before: Mapping[str, Any] | None,
                  after: Mapping[str, Any] | None) -> Move:
    """A species' strength in both runs (summary rows) and its change, with the interval of a
    difference of two independent normal estimates; untested (p None) until `calibrated`."""
    from scipy.special import ndtri

    sa = None if before is None else before.get("strength")
    sb = None if after is None else after.get("strength")
    if sa is None or sb is None:
        return Move(sid, "strength", sa, sb, None, None, None)
    z95 = float(ndtri(0.5 + 0.5 * LEVEL))
    ses = [(r["strength_ci95"][1] - r["strength_ci95"][0]) / (2 * z95)
           for r in (before, after) if r and r.get("strength_ci95")]
    d = sb - sa
    if len(ses) < 2:
        return Move(sid, "strength", sa, sb, d, None, None)
    se = math.hypot(*ses)
    return Move(sid, "strength", sa, sb, d, (d - z95 * se, d + z95 * se), None,
                abs(d) / se if se else 0.0)


def calibrated(moves: list[Move], kind: Mapping[str, str]) -> list[Move]:
    """The strength moves tested against how far the expectation line itself moved. A strength
    is measured against its kind's line, which two runs estimate apart: every species of a kind
    moves with it, and a tree whose points are fixed (no spread of its own, so no interval)
    moved beyond "chance" whenever a planted dweller nudged the line. So a move is taken from
    the median move of its kind, and its standard error is at least their spread (1.4826 times
    their median absolute deviation, which the few species truly changed do not widen):
    z = (d - median) / max(se, spread). The larger of the two rather than both added, since the
    spread holds the species' own noise already: added, a species with an interval as wide as
    the spread was judged on twice its noise, and a cost made one cheaper was missed at 100
    games (benchmarks/planted.py). A cost made one cheaper or dearer, which leaves
    the points as they were and moves the species along the line, is found so."""
    import statistics

    from scipy.special import ndtr, ndtri

    z95 = float(ndtri(0.5 + 0.5 * LEVEL))
    by_kind: dict[str, list[Move]] = {}
    for m in moves:
        if m.change is not None and m.ci95 is not None:
            by_kind.setdefault(kind.get(m.species, ""), []).append(m)
    line: dict[str, tuple[float, float]] = {}  # kind -> its median move and their spread
    for k, ms in by_kind.items():
        if len(ms) >= 5:
            ds = [m.change or 0.0 for m in ms]
            mid = statistics.median(ds)
            line[k] = mid, 1.4826 * statistics.median(abs(d - mid) for d in ds)
    out = []
    for m in moves:
        k = kind.get(m.species, "")
        if m.change is None or m.ci95 is None or k not in line:
            out.append(m)
            continue
        mid, spread = line[k]
        se = max((m.ci95[1] - m.ci95[0]) / (2 * z95), spread)
        if se == 0:
            out.append(m)
            continue
        z = (m.change - mid) / se
        out.append(Move(m.species, m.what, m.before, m.after, m.change,
                        (m.change - z95 * se, m.change + z95 * se), float(2 * ndtr(-abs(z))),
                        abs(z)))
    return out


def paired_moves(pair: Pair, sid: str, due: tuple[Mapping[str, float], Mapping[str, float]]
                 ) -> list[Move]:
    """A species' figures over the games both runs dealt from one seed (simulation/paired.py),
    each tested game by game: the copies played a game, the points it scores a game, and its
    strength, whose `due[run][ai]` is the points one of that AI's copies is expected to score
    in that run: by the baseline's line at that run's cost, so the yardstick stays where it
    was, and a cost made cheaper moves the species' strength by exactly what the line gives
    one cost."""
    from grove.simulation.paired import log_ratio_change, mean_change, ratio_change
    from grove.simulation.statistics import normal_test

    a, b = pair.sums(pair.before, sid), pair.sums(pair.after, sid)
    out = []
    copies = (a.all_copies(pair.games), b.all_copies(pair.games))
    for what, (xa, xb) in (("played_per_game", copies),
                           ("points_per_game", (a.points, b.points))):
        t = mean_change(xa, xb)
        out.append(Move(sid, what, t.before, t.after, t.change, t.ci95, t.p, t.z))
    paid = ratio_change((a.paid, b.paid), copies) if pair.paid else None
    out.append(Move(sid, "paid_per_copy", None, None, None, None, None) if paid is None else
               Move(sid, "paid_per_copy", paid.before, paid.after, paid.change, paid.ci95,
                    paid.p, paid.z))
    dues = []
    for side, e in zip((a, b), due, strict=True):
        total = np.zeros(pair.games)
        for ai, copies in side.copies.items():
            total += e.get(ai, 0.0) * copies
        dues.append(total)
    found = log_ratio_change((a.points, b.points), (dues[0], dues[1]))
    if found is None:
        out.append(Move(sid, "strength", None, None, None, None, None))
        return out
    sa, sb, d, se = found
    out.append(Move(sid, "strength", sa, sb, *normal_test(d, se)))
    return out


def _dues(t: Totals, rows: Mapping[str, Mapping[str, Any]], at: Iterable[int] = ()
          ) -> Callable[[Mapping[str, Any] | None], dict[str, float]]:
    """The points a copy is expected to score by this run's line (strength.expectations), as a
    function of a species' row (its kind and cost, of whichever run): AI -> points."""
    from grove.simulation.strength import expectations

    line = expectations(t.species_ai, {k: int(r.get("cost") or 0) for k, r in rows.items()},
                        {k: r.get("kind") or "" for k, r in rows.items()}, at)

    def due(row: Mapping[str, Any] | None) -> dict[str, float]:
        if row is None:
            return {}
        kind, cost = row.get("kind") or "", int(row.get("cost") or 0)
        return {ai: line[ai, kind, cost] for ai in t.ais if (ai, kind, cost) in line}
    return due


def ranks(rows: list[Mapping[str, Any]]) -> dict[str, int]:
    """species -> its rank by strength (1 the strongest) among the species with one."""
    ordered = sorted((r for r in rows if r.get("strength") is not None),
                     key=lambda r: (-r["strength"], r["id"]))
    return {r["id"]: i for i, r in enumerate(ordered, 1)}


def _facts(row: Mapping[str, Any]) -> dict[str, Any]:
    return {"name": row.get("name"), "cost": row.get("cost"), "kind": row.get("kind"),
            "rules": row.get("rules") or {}}


def differing(before: list[Mapping[str, Any]], after: list[Mapping[str, Any]]
              ) -> list[dict[str, Any]]:
    """The species whose rules, cost or kind differ between the two card sets, or that only one
    has, with both versions (None where absent): the change as the card data says it. Runs
    written before the summary held rules compare on cost and kind alone."""
    a = {r["id"]: _facts(r) for r in before}
    b = {r["id"]: _facts(r) for r in after}
    rules_known = any(f["rules"] for f in a.values()) and any(f["rules"] for f in b.values())
    out = []
    for sid in sorted(set(a) | set(b)):
        fa, fb = a.get(sid), b.get(sid)
        if fa is not None and fb is not None:
            same = fa["cost"] == fb["cost"] and fa["kind"] == fb["kind"] and (
                not rules_known or fa["rules"] == fb["rules"])
            if same:
                continue
        fields = sorted({*(fa or {}).get("rules", {}), *(fb or {}).get("rules", {})})
        out.append({
            "id": sid, "name": (fb or fa or {}).get("name") or sid,
            "cost": [None if fa is None else fa["cost"], None if fb is None else fb["cost"]],
            "rules": [{"field": f, "before": (fa or {}).get("rules", {}).get(f),
                       "after": (fb or {}).get("rules", {}).get(f)} for f in fields
                      if (fa or {}).get("rules", {}).get(f) != (fb or {}).get("rules", {}).get(f)]})
    return out


def _reads(rules: Mapping[str, str], sid: str) -> bool:
    """Whether a species' rules name `sid` (its id as a word of the DSL: `count roe_deer`)."""
    plain = sid.rpartition(":")[2]
    word = re.compile(rf"(?<![\w:]){re.escape(plain)}(?!\w)")
    return any(word.search(text) for text in rules.values())


def knock_on(sid: str, row: Mapping[str, Any] | None, causes: set[str]) -> list[str]:
    """The changed species' causes it neighbours: those it shares a card with or whose id its
    rules name. Empty for a cause itself."""
    if sid in causes or row is None:
        return []
    near = set(row.get("card_with") or ())
    return sorted(c for c in causes if c in near or _reads(row.get("rules") or {}, c))


def all_moves(base: Totals, new: Totals, rows_a: Mapping[str, Mapping[str, Any]],
              rows_b: Mapping[str, Mapping[str, Any]], pair: Pair | None) -> list[Move]:
    """Every species figure of both runs with its change and raw p: game by game over the
    games both dealt from one seed where they share enough (`pair`), as independent samples
    otherwise."""
    ids = sorted(set(base.species) | set(new.species) | set(rows_a) | set(rows_b))
    moves = []
    kinds = {r["id"]: r.get("kind") or "" for r in (*rows_a.values(), *rows_b.values())}
    if pair is None:
        for sid in ids:
            moves += species_moves(base, new, sid)
        moves += calibrated([strength_move(sid, rows_a.get(sid), rows_b.get(sid))
                             for sid in ids], kinds)
    else:
        due = _dues(base, rows_a, {int(r.get("cost") or 0) for r in rows_b.values()})
        for sid in ids:
            moves += paired_moves(pair, sid, (due(rows_a.get(sid)), due(rows_b.get(sid))))
    return moves


def weights(tested: list[Move], causes: set[str]) -> list[float] | None:
    """Each tested figure's share of the error allowed: CAUSE_SHARE for the figures of the
    species whose cards differ, all together, the rest for the others'; None (every figure
    alike) where no species' card differs, or every tested one's does."""
    mine = sum(m.species in causes for m in tested)
    if mine in (0, len(tested)):
        return None
    return [CAUSE_SHARE / mine if m.species in causes else (1 - CAUSE_SHARE) / (len(tested) - mine)
            for m in tested]


def against(base: Totals, new: Totals, base_rows: list[dict[str, Any]],
            new_rows: list[dict[str, Any]], correction: str = "holm",
            pair: Pair | None = None) -> dict[str, Any]:
    """The changed species, most certain first, each with its figures before and after; the
    species whose cards differ; and how many figures were tested. `*_rows` are the species rows
    of each run's summary as this checkout works them out (`summary.summarize`)."""
    rows_a = {r["id"]: r for r in base_rows}
    rows_b = {r["id"]: r for r in new_rows}
    moves = all_moves(base, new, rows_a, rows_b, pair)
    tested = [m for m in moves if m.p is not None]
    differ = differing(base_rows, new_rows)
    causes = {d["id"] for d in differ}
    fix: Callable[..., list[float]] = CORRECTIONS[correction]
    corrected = dict(zip((id(m) for m in tested),
                         fix([m.p for m in tested], weights(tested, causes)), strict=True))
    rank_a, rank_b = ranks(base_rows), ranks(new_rows)
    by_species: dict[str, list[tuple[float, Move]]] = {}
    for m in tested:
        if corrected[id(m)] < ALPHA:
            by_species.setdefault(m.species, []).append((corrected[id(m)], m))
    changed = []
    for sid, found in by_species.items():
        found.sort(key=lambda pm: (pm[1].p, -pm[1].z, pm[1].what))
        row_a, row_b = rows_a.get(sid), rows_b.get(sid)
        st = next(m for m in moves if m.species == sid and m.what == "strength")
        pd = next(m for m in moves if m.species == sid and m.what == "paid_per_copy")
        changed.append({
            "id": sid, "name": (row_b or row_a or {}).get("name") or sid,
            "kind": (row_b or row_a or {}).get("kind") or "",
            "figures": [_said(m, p) for p, m in found],
            "strength": _said(st, corrected.get(id(st))),
            "rank": [rank_a.get(sid), rank_b.get(sid)],
            "points_per_copy": [(row_a or {}).get("mean_points_per_copy"),
                                (row_b or {}).get("mean_points_per_copy")],
            "paid_per_copy": [_r6(pd.before), _r6(pd.after)],
            "cost": [(row_a or {}).get("cost"), (row_b or {}).get("cost")],
            "flag": _direction(st),
            "card_differs": sid in causes,
            "knock_on_of": knock_on(sid, row_b or row_a, causes),
            "_order": (found[0][1].p, -st.z, sid)})
    changed.sort(key=lambda c: c["_order"])
    for c in changed:
        del c["_order"]
    return {"correction": correction, "alpha": ALPHA, "compared": len(tested),
            "paired": None if pair is None else pair.games,
            "figures_changed": sum(corrected[id(m)] < ALPHA for m in tested),
            "changed": changed, "differ": differ}


def _direction(st: Move) -> str | None:
    """"weak" where the species' strength fell beyond its interval, "strong" where it rose: the
    report's flag of a changed species, which a halved card earns as readily as a doubled one
    (the strength's log scale); None where it did not move clearly or is unknown."""
    if st.ci95 is None:
        return None
    return "weak" if st.ci95[1] < 0 else "strong" if st.ci95[0] > 0 else None


def _r6(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def _said(m: Move, p: float | None) -> dict[str, Any]:
    return {"what": m.what, "before": _r6(m.before), "after": _r6(m.after),
            "change": _r6(m.change),
            "ci95": None if m.ci95 is None else [_r6(m.ci95[0]), _r6(m.ci95[1])],
            "p": None if p is None else float(f"{p:.4g}")}


def worth_row(species: str, restricted: Moments, full: Moments) -> dict[str, Any]:
    """Restricted play's figures for one species: the win rate of the seat that never plays it
    and the points it scores fewer than the seats that may (full minus restricted, with Welch's
    interval): what the card brings to a player who takes it."""
    from grove.simulation.statistics import wilson

    gap = mean_difference_interval((full.n, full.sum, full.sumsq),
                                   (restricted.n, restricted.sum, restricted.sumsq))
    mean = (full.sum / full.n - restricted.sum / restricted.n) if full.n and restricted.n \
        else None
    ci = wilson(restricted.wins, restricted.n)
    return {"species": species, "games": restricted.n,
            "win_rate_without": None if not restricted.n else round(restricted.wins / restricted.n, 6),
            "win_ci95": None if ci is None else [round(ci[0], 6), round(ci[1], 6)],
            "points_worth": None if mean is None else round(mean, 6),
            "worth_ci95": None if gap is None else [round(gap[0], 6), round(gap[1], 6)]}


def summary_of(run: Any) -> dict[str, Any]:
    """A run's summary.json with its species worked out again from its Parquet files by this
    checkout's summary and strength code, so two runs written by two versions of grove are
    measured on one scale. A run folder without a readable summary is summarised from its
    rows alone (no names, costs or rules)."""
    import json

    from grove.simulation.sinks import SUMMARY_FILE
    from grove.simulation.summary import SpeciesFacts, summarize

    try:
        old = json.loads((run.folder / SUMMARY_FILE).read_text(encoding="utf-8"))
        rows = old["species"] if isinstance(old, dict) else []
        facts = [SpeciesFacts(r["id"], r.get("name") or r["id"], int(r.get("cost") or 0),
                              r.get("kind") or "", tuple(sorted((r.get("rules") or {}).items())),
                              tuple(r.get("card_with") or ())) for r in rows]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        old, facts = {}, []
    head = {k: v for k, v in run.facts.items() if k not in ("scorepad", "grove")}
    fresh = summarize(run.totals, head, facts)
    return {**old, **fresh, **{k: old[k] for k in ("complete", "stopped", "games_failed",
                                                    "failed", "worth") if k in old}}


def side(run: Any) -> dict[str, Any]:
    """A run as the report names it: its folder, its card set's folders and digests, its AIs,
    seed and games."""
    from grove.simulation.folder import shown

    f = run.facts
    return {"run": shown(run.folder), "edition": f.get("edition"), "with": f.get("with", []),
            "cards": f.get("cards") or [], "digest": f.get("digest") or {},
            "ai": f.get("ai", []), "seed": f.get("seed"), "games": run.totals.games}


def set_against(base: Any, new: Any, correction: str = "holm") -> dict[str, Any]:
    """The new run's summary (`summary_of`) with `against`: what changed from the base run."""
    summary = summary_of(new)
    base_rows = summary_of(base)["species"]
    from grove.simulation.paired import read_pair

    found = against(base.totals, new.totals, base_rows, summary["species"], correction,
                    read_pair(base.folder, new.folder))
    summary["against"] = {"base": side(base), "new": side(new), **found}
    return summary
