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

from grove.dsl.diagnostics import DiagnosticError, error
from grove.simulation.aggregate import BadRows, SpeciesCounts, Totals, read_totals
from grove.simulation.columns import CARD_COLUMNS, CARD_OPTIONAL, GAME_FIXED, GAME_TAIL, META_KEY, TYPES
from grove.simulation.folder import shown
from grove.simulation.sinks import CARDS_FILE, GAMES_FILE
from grove.simulation.statistics import (
    ALPHA,
    CORRECTIONS,
    Ratio,
    means_p,
    proportions_p,
    ratios_change,
)

RUN_HINT = "a run folder is what `grove simulate --out DIR` writes"
# what each column the counts read must be, whatever width of integer a writer chose
_INTEGER = ("an integer", pa.types.is_integer)
_KINDS = {"int64": _INTEGER, "int32": _INTEGER, "int16": _INTEGER,
          "bool": ("true/false", pa.types.is_boolean),
          "string": ("text", lambda t: pa.types.is_string(t) or pa.types.is_large_string(t))}
# the facts two runs must share for their figures to speak of the same game
_SAME = (("edition", "the edition"), ("with", "the expansions"), ("players", "the players"))


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
    return DiagnosticError([error("IO-NOT-FOUND", None, f"{shown(path)}: no such file",
                                  RUN_HINT)])


def _bad(message: str) -> DiagnosticError:
    return DiagnosticError([error("RUN-BAD", None, message, RUN_HINT)])


def _wrong_type(schema: pa.Schema, need: set[str]) -> str | None:
    """The first column the counts read whose type is not the one grove writes, said so."""
    for name in sorted(need):
        what, test = _KINDS[TYPES[name]]
        if not test(schema.field(name).type):
            return f"column {name} is {schema.field(name).type}, not {what}"
    return None


def read_run(folder: str | Path) -> Run:
    folder = Path(folder)
    if not folder.is_dir():
        raise DiagnosticError([error("IO-NOT-FOUND", None, f"{shown(folder)}: no such folder",
                                     RUN_HINT)])
    paths = {name: folder / name for name in (GAMES_FILE, CARDS_FILE)}
    for p in paths.values():
        if not p.is_file():
            raise _missing(p)
    metas: list[Any] = []
    # a run written before `drawn` or `paid` was is read without it (those figures unknown)
    need = {GAMES_FILE: set(GAME_FIXED) | set(GAME_TAIL),
            CARDS_FILE: set(CARD_COLUMNS) - set(CARD_OPTIONAL)}
    for name, p in paths.items():
        try:
            with open(p, "rb") as fh:  # not by path: pyarrow wants a path in UTF-8
                schema = pq.read_schema(fh)
            meta = json.loads((schema.metadata or {})[META_KEY])
        except (pa.ArrowException, OSError, KeyError, ValueError) as exc:
            raise _bad(f"{shown(p)}: not a file of a grove run "
                       f"({type(exc).__name__}: {shown(str(exc))})") from None
        if not isinstance(meta, dict):
            raise _bad(f"{shown(p)}: its run facts ({META_KEY.decode()}) are no object")
        lacking = sorted(need[name] - set(schema.names))
        if lacking:
            raise _bad(f"{shown(p)}: no column {', '.join(lacking)}")
        present = {c for c in CARD_OPTIONAL if c in schema.names} if name == CARDS_FILE else set()
        wrong = _wrong_type(schema, (need[name] | present) - {"seed"})
        if wrong is not None:
            raise _bad(f"{shown(p)}: {wrong}")
        metas.append(meta)
    if metas[0] != metas[1]:
        raise _bad(f"{shown(folder)}: {GAMES_FILE} and {CARDS_FILE} are files of two "
                   "different runs")
    try:
        totals = read_totals(paths[GAMES_FILE], paths[CARDS_FILE])
    except BadRows as exc:
        raise _bad(str(exc)) from None
    except (pa.ArrowException, OSError) as exc:
        raise _bad(f"{shown(folder)}: the rows cannot be read ({shown(str(exc))})") from None
    return Run(folder, metas[0], totals)


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
        out.append(paid_figure(a, b, sid))
        out.append(Figure(sid, "win_rate_when_played", _rate(sa.wins, sa.plays),
                          _rate(sb.wins, sb.plays),
                          proportions_p(sa.wins, sa.plays, sb.wins, sb.plays)))
        na, nb = a.forests.n - sa.plays, b.forests.n - sb.plays
        wa, wb = a.forests.wins - sa.wins, b.forests.wins - sb.wins
        out.append(Figure(sid, "win_rate_when_not", _rate(wa, na), _rate(wb, nb),
                          proportions_p(wa, na, wb, nb)))
    return out


def _paid_ratio(t: Totals, sid: str) -> Ratio | None:
    """A species' cards paid over its copies as `ratio_of_sums` takes them; None where the run
    does not say what was paid (written before `paid`)."""
    s = t.species.get(sid, SpeciesCounts())
    return (s.plays, s.paid, s.copies, s.paid_sq, s.paid_copies, s.copies_sq) if t.paid else None


def paid_change(a: Totals, b: Totals, sid: str
                ) -> tuple[float | None, float | None,
                           tuple[float, tuple[float, float], float, float] | None]:
    """The cards paid a copy of a species in two independent runs and their change tested as
    two ratios of sums (`ratios_change`; None where either run does not say what was paid or
    has no copy): the figure a cost made cheaper or dearer moves for certain, whether or not
    the AIs play the card more or less often."""
    ra, rb = _paid_ratio(a, sid), _paid_ratio(b, sid)
    va, vb = (None if r is None or not r[2] else r[1] / r[2] for r in (ra, rb))
    return va, vb, None if ra is None or rb is None else ratios_change(ra, rb)


def paid_figure(a: Totals, b: Totals, sid: str) -> Figure:
    va, vb, tested = paid_change(a, b, sid)
    return Figure(sid, "paid_per_copy", None if va is None else round(va, 6),
                  None if vb is None else round(vb, 6), None if tested is None else tested[2])


def _facts(run: Run) -> dict[str, Any]:
    f = run.facts
    return {"edition": f.get("edition"), "with": f.get("with", []),
            "players": len(f.get("ai") or [])}


MISMATCH_HINT = ("the figures compare two different games; compare runs of one card set and "
                 "one number of players to see what a change does")


def differences(a: Run, b: Run) -> list[str]:
    """What the two runs do not share of the edition, the expansions and the number of players:
    their figures are then of two different games (a RUN-MISMATCH warning), and only the
    figures both have are tested (a seat one run lacks is left out)."""
    fa, fb = _facts(a), _facts(b)
    return [f"the runs differ in {what}: {fa[key]!r} in {shown(a.folder)}, {fb[key]!r} in "
            f"{shown(b.folder)}" for key, what in _SAME if fa[key] != fb[key]]


def _side(run: Run) -> dict[str, Any]:
    f = run.facts
    return {"run": shown(run.folder), "edition": f.get("edition"), "with": f.get("with", []),
            "ai": f.get("ai", []), "seed": f.get("seed"), "rotate": f.get("rotate"),
            "games": run.totals.games}


def compare(a: Run, b: Run, correction: str = "holm") -> dict[str, Any]:
    """Both runs' figures, each with its raw and corrected p, and the ones that changed: a
    corrected p below 5%. Figures one run cannot test (no forest holds the species, one game
    only) are listed with p null and are not counted in the correction."""
    try:
        found = figures(a.totals, b.totals)
    except (ValueError, ArithmeticError, TypeError) as exc:  # counts no run of grove's holds
        raise _bad(f"{shown(a.folder)} and {shown(b.folder)}: the figures cannot be worked out "
                   f"from these rows ({type(exc).__name__}: {exc})") from None
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
    return {"a": _side(a), "b": _side(b),
            "differences": differences(a, b),
            "correction": correction, "alpha": ALPHA,
            "compared": len(tested),
            "changed": [{k: r[k] for k in ("id", "what", "a", "b", "p")} for r in changed],
            "figures": rows}


def _p(p: float) -> float:
    return float(f"{p:.4g}")
