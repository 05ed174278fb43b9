"""`grove compare RUN_A RUN_B`: every seat, AI, turn and species figure of two runs side by side,
each difference tested, the p-values corrected for the number of figures compared.

The figures are read from the runs' Parquet files, not their summaries, since a test needs the
counts and sums behind a rate or a mean. Rates are compared with Fisher's exact test, means with
Welch's t test; Holm's correction (or Benjamini-Hochberg's with `--correction bh`) then keeps
two runs of the same cards from showing a change by chance alone. The runs are taken as
independent samples; two runs with the same seed are not (the same games are dealt), which
makes the tests cautious, never bold.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from dsl.diagnostics import DiagnosticError, error
from simulation.aggregate import SpeciesCounts, Totals, read_totals
from simulation.columns import CARD_COLUMNS, GAME_FIXED, GAME_TAIL, META_KEY
from simulation.sinks import CARDS_FILE, GAMES_FILE, PART
from simulation.statistics import ALPHA, CORRECTIONS, means_p, proportions_p

RUN_HINT = "a run folder is what `grove simulate --out DIR` writes"


@dataclass(frozen=True)
class Run:
    folder: Path
    facts: dict[str, Any]
    totals: Totals


@dataclass(frozen=True)
class Figure:
    id: str  # a species id, "seat N", "ai KIND" or "turns"
    what: str
    a: float | None
    b: float | None
    p: float | None  # raw; None where one run has too little to test


def _missing(path: Path) -> DiagnosticError:
    part = path.with_name(path.name + PART)
    hint = (f"{part.name} is there: the run was killed before it could close its files"
            if part.is_file() else RUN_HINT)
    return DiagnosticError([error("IO-NOT-FOUND", None, f"{path}: no such file", hint)])


def read_run(folder: str | Path) -> Run:
    folder = Path(folder)
    if not folder.is_dir():
        raise DiagnosticError([error("IO-NOT-FOUND", None, f"{folder}: no such folder", RUN_HINT)])
    paths = {name: folder / name for name in (GAMES_FILE, CARDS_FILE)}
    for p in paths.values():
        if not p.is_file():
            raise _missing(p)
    facts: dict[str, Any] = {}
    need = {GAMES_FILE: set(GAME_FIXED) | set(GAME_TAIL), CARDS_FILE: set(CARD_COLUMNS)}
    for name, p in paths.items():
        try:
            schema = pq.read_schema(p)
            meta = json.loads((schema.metadata or {})[META_KEY])
        except (pa.ArrowException, OSError, KeyError, ValueError) as exc:
            raise DiagnosticError([error(
                "RUN-BAD", None, f"{p}: not a file of a grove run ({type(exc).__name__}: {exc})",
                RUN_HINT)]) from None
        lacking = sorted(need[name] - set(schema.names))
        if lacking:
            raise DiagnosticError([error("RUN-BAD", None, f"{p}: no column {', '.join(lacking)}",
                                         RUN_HINT)])
        facts = facts or meta
    try:
        totals = read_totals(paths[GAMES_FILE], paths[CARDS_FILE])
    except (pa.ArrowException, OSError) as exc:
        raise DiagnosticError([error("RUN-BAD", None, f"{folder}: the rows cannot be read ({exc})",
                                     RUN_HINT)]) from None
    return Run(folder, facts, totals)


def _rate(k: int, n: int) -> float | None:
    return round(k / n, 6) if n else None


def figures(a: Totals, b: Totals) -> list[Figure]:
    out: list[Figure] = []
    for label, ga, gb in (("seat", a.seats, b.seats), ("ai", a.ais, b.ais)):
        for key in sorted(set(ga) & set(gb), key=str):
            ma, mb = ga[key], gb[key]
            fid = f"{label} {key}"
            out.append(Figure(fid, "win_rate", _rate(ma.wins, ma.n), _rate(mb.wins, mb.n),
                              proportions_p(ma.wins, ma.n, mb.wins, mb.n)))
            out.append(Figure(fid, "mean_total", _rate(ma.sum, ma.n), _rate(mb.sum, mb.n),
                              means_p((ma.n, ma.sum, ma.sumsq), (mb.n, mb.sum, mb.sumsq))))
    ta, tb = a.turns, b.turns
    out.append(Figure("turns", "mean", _rate(ta.sum, ta.n), _rate(tb.sum, tb.n),
                      means_p((ta.n, ta.sum, ta.sumsq), (tb.n, tb.sum, tb.sumsq))))
    for sid in sorted(set(a.species) | set(b.species)):
        sa, sb = a.species.get(sid, SpeciesCounts()), b.species.get(sid, SpeciesCounts())
        # copies per forest over every forest (none where absent): the test of how often
        out.append(Figure(sid, "played_per_game", _rate(sa.copies, a.games),
                          _rate(sb.copies, b.games),
                          means_p((a.forests.n, sa.copies, sa.copies_sq),
                                  (b.forests.n, sb.copies, sb.copies_sq))))
        out.append(Figure(sid, "mean_points_when_played", _rate(sa.points, sa.plays),
                          _rate(sb.points, sb.plays),
                          means_p((sa.plays, sa.points, sa.points_sq),
                                  (sb.plays, sb.points, sb.points_sq))))
        out.append(Figure(sid, "win_rate_when_played", _rate(sa.wins, sa.plays),
                          _rate(sb.wins, sb.plays),
                          proportions_p(sa.wins, sa.plays, sb.wins, sb.plays)))
        na, nb = a.forests.n - sa.plays, b.forests.n - sb.plays
        wa, wb = a.forests.wins - sa.wins, b.forests.wins - sb.wins
        out.append(Figure(sid, "win_rate_when_not", _rate(wa, na), _rate(wb, nb),
                          proportions_p(wa, na, wb, nb)))
    return out


def _side(run: Run) -> dict[str, Any]:
    f = run.facts
    return {"run": str(run.folder), "edition": f.get("edition"), "with": f.get("with", []),
            "ai": f.get("ai", []), "seed": f.get("seed"), "rotate": f.get("rotate"),
            "games": run.totals.games}


def compare(a: Run, b: Run, correction: str = "holm") -> dict[str, Any]:
    """Both runs' figures, each with its raw and corrected p, and the ones that changed: a
    corrected p below 5%. Figures one run cannot test (no forest holds the species, one game
    only) are listed with p null and are not counted in the correction."""
    found = figures(a.totals, b.totals)
    tested = [i for i, f in enumerate(found) if f.p is not None]
    adjusted = dict(zip(tested, CORRECTIONS[correction]([found[i].p for i in tested]),
                        strict=True))
    rows = []
    for i, f in enumerate(found):
        adj = adjusted.get(i)
        rows.append({"id": f.id, "what": f.what, "a": f.a, "b": f.b,
                     "p": None if adj is None else _p(adj),
                     "p_raw": None if f.p is None else _p(f.p)})
    changed = sorted((r for r in rows if r["p"] is not None and r["p"] < ALPHA),
                     key=lambda r: (r["p"], r["id"], r["what"]))
    return {"a": _side(a), "b": _side(b), "correction": correction, "alpha": ALPHA,
            "compared": len(tested),
            "changed": [{k: r[k] for k in ("id", "what", "a", "b", "p")} for r in changed],
            "figures": rows}


def _p(p: float) -> float:
    return float(f"{p:.4g}")
