"""`grove simulate` and `grove compare`: a batch of games played into a run folder, and two
such runs compared figure by figure."""

from __future__ import annotations

import atexit
import gc
import sys
from typing import Any

import click

from grove.commands.common import (
    EXIT_FINDINGS,
    EXIT_INTERRUPTED,
    EXIT_OK,
    card_sets,
    display,
    expansions,
    guarded,
    json_option,
    output_option,
    print_diagnostics,
)
from grove.dsl.diagnostics import Diagnostic, Severity, echo_text


@click.command(short_help="Play a batch of games between AIs into a run folder of Parquet "
               "files, a summary and a report.")
@click.option("--edition", required=True, metavar="EDITION", help="a standalone edition")
@click.option("--with", "with_", default="", metavar="LIST", help="expansions, comma-separated")
@click.option("--ai", required=True, metavar="LIST", help="one AI kind per seat, comma-separated: "
              "random, greedy, mcts, mcts:N (iterations) or mcts:Ns (seconds)")
@click.option("--games", type=int, required=True, help="how many games to play")
@click.option("--seed", type=int, default=0, show_default=True,
              help="the run's seed; each game's seed follows from it and the game's number")
@click.option("--rotate", is_flag=True, help="move the AIs one seat on from game to game")
@click.option("--jobs", type=int, default=None,
              help="worker processes (or local cluster workers)  [default: the cores]")
@click.option("--cluster", default=None, metavar="local|ADDRESS",
              help="play on Dask: 'local' starts a local cluster of --jobs workers, an address "
              "joins a running scheduler")
@output_option("--out", dest="out", default=None, type=click.Path(), metavar="DIR",
               help="the run's folder, replaced whole once every file of the run is written  "
               "[default: simulate-EDITION-SEED]")
@json_option("print the summary as JSON on stdout")
@guarded
@card_sets
def simulate(edition: str, with_: str, ai: str, games: int, seed: int, rotate: bool,
             jobs: int | None, cluster: str | None, out: str | None, as_json: bool,
             roots) -> None:
    """Play a batch of games and write games.parquet, cards.parquet, summary.json and
    report.html: win rates by seat and AI, and what each species brings."""
    from tqdm import tqdm

    from grove import api
    from grove.simulation.folder import shown

    class Bar(tqdm):  # no monitor thread: workers are forked only from a process without
        monitor_interval = 0  # threads (simulation/executors.py, `may_fork`)

    fmt = "json" if as_json else "text"
    bar = Bar(total=games if games > 0 else None, unit="game", file=sys.stderr,
              disable=as_json or not sys.stderr.isatty(), dynamic_ncols=True, smoothing=0.05)
    try:
        outcome = api.simulate(edition, expansions(with_), ai.split(","), games, seed, rotate,
                               jobs, cluster, out, roots, on_progress=bar.update,
                               on_warning=lambda d: print_diagnostics([d], fmt))
    except KeyboardInterrupt:  # before the first game: nothing was written
        bar.close()
        print_diagnostics([Diagnostic("SIM-STOPPED", Severity.WARNING, None,
                                      "stopped before the first game; nothing was written")],
                          fmt)
        sys.exit(EXIT_INTERRUPTED)
    finally:
        bar.close()
    from grove.simulation.summary import to_json  # loaded by the run, once its games were given out

    summary = outcome.summary
    diags = [Diagnostic("SIM-GAME-FAILED", Severity.ERROR, None,
                        f"game {f['game']} (seed {f['seed']}, --ai {','.join(f['ai'])}) failed: "
                        f"{f['error']}",
                        f"grove play --edition {edition}"
                        f"{' --with ' + with_ if with_ else ''} --ai {','.join(f['ai'])} "
                        f"--seed {f['seed']} plays it again")
             for f in summary["failed"][:10]]
    if summary["games_failed"] > len(diags):
        diags.append(Diagnostic("SIM-GAME-FAILED", Severity.ERROR, None,
                                f"{summary['games_failed']} games failed in all; summary.json "
                                "lists the first 100"))
    if outcome.interrupted:
        kept = ("" if outcome.kept is None else
                f"; {shown(display(str(outcome.kept)))} keeps the complete run it held, and "
                f"this one went beside it, to {shown(display(str(outcome.folder)))}")
        diags.append(Diagnostic("SIM-STOPPED", Severity.WARNING, None,
                                f"the run was stopped and holds the {summary['games']} of "
                                f"{summary['games_asked']} games that had finished{kept}"))
    if as_json:  # the very text of summary.json, names escaped where no UTF-8 can hold them
        click.echo(to_json(summary), nl=False)
    else:
        click.echo(echo_text(_simulate_text(summary)))
        click.echo(f"wrote {echo_text(shown(display(str(outcome.folder))))}/"
                   "{games.parquet,cards.parquet,summary.json,report.html}", err=True)
    print_diagnostics(diags, fmt)
    # as Python shuts down, the collector walks every object left (the card set, the memo,
    # every module) for cycles the end of the process frees anyway: 0.1 s of a run. Frozen at
    # exit, they are not walked (and a caller that goes on, such as a test, is left as it was)
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)
    if outcome.interrupted:
        sys.exit(EXIT_INTERRUPTED)
    sys.exit(EXIT_FINDINGS if summary["games_failed"] else EXIT_OK)


def _simulate_text(s: dict[str, Any]) -> str:
    def pct(x: float | None) -> str:
        return "-" if x is None else f"{100 * x:.1f}%"

    def ci(c: list[float] | None, scale: float = 100, unit: str = "%") -> str:
        return "" if c is None else f" ({scale * c[0]:.1f} to {scale * c[1]:.1f}{unit})"

    def mean(x: float | None) -> str:
        return "-" if x is None else f"{x:.1f}"

    edition = s["edition"] + (f" with {', '.join(s['with'])}" if s["with"] else "")
    lines = [f"{edition}: {s['games']} games, seed {s['seed']}, AIs {', '.join(s['ai'])}"
             + (" rotated" if s["rotate"] else "")]
    for r in s["seats"]:
        lines.append(f"  seat {r['seat']:<10} wins {pct(r['win_rate'])}{ci(r['win_ci95'])}, "
                     f"mean total {mean(r['mean_total'])}{ci(r['total_ci95'], 1, '')}")
    for r in s["ais"]:
        lines.append(f"  {r['ai']:<15} wins {pct(r['win_rate'])}{ci(r['win_ci95'])}, "
                     f"mean total {mean(r['mean_total'])}{ci(r['total_ci95'], 1, '')}")
    t = s["turns"]
    lines.append(f"  turns           mean {mean(t['mean'])}, min {t['min']}, max {t['max']}")
    flagged = sorted((r for r in s["species"] if r.get("flag")), key=lambda r: -r["strength"])
    for r in flagged:  # strongest first: what a designer acts on (docs/simulate.md)
        lo, hi = r["strength_ci95"] or (r["strength"], r["strength"])
        lines.append(f"  flagged {r['flag']:<7} {r['id']}: a copy scores "
                     f"{100 * r['strength']:+.0f}% against its kind and cost "
                     f"({100 * lo:+.0f}% to {100 * hi:+.0f}%)")
    return "\n".join(lines)


@click.command(short_help="Compare two runs of `grove simulate` figure by figure.")
@click.argument("run_a", type=click.Path())
@click.argument("run_b", type=click.Path())
@click.option("--correction", type=click.Choice(["holm", "bh"]), default="holm", show_default=True,
              help="for the number of figures compared: Holm, or Benjamini-Hochberg")
@json_option("print the comparison as JSON on stdout")
@guarded
def compare(run_a: str, run_b: str, correction: str, as_json: bool) -> None:
    """Two runs of `grove simulate` side by side: every seat, AI, turn and species figure, and
    which moved beyond chance."""
    from grove import api
    from grove.simulation.compare import MISMATCH_HINT
    from grove.simulation.summary import to_json

    result = api.compare(run_a, run_b, correction)
    warnings = [Diagnostic("RUN-MISMATCH", Severity.WARNING, None, m, MISMATCH_HINT)
                for m in result["differences"]]
    if as_json:
        click.echo(to_json(result), nl=False)  # a folder's name may hold any bytes
        print_diagnostics(warnings, "json")
        return
    a, b = result["a"], result["b"]
    lines = [f"A: {a['run']}: {a['edition']}, {a['games']} games, seed {a['seed']}",
             f"B: {b['run']}: {b['edition']}, {b['games']} games, seed {b['seed']}"]
    name = {"holm": "Holm", "bh": "Benjamini-Hochberg"}[correction]
    if result["changed"]:
        lines.append(f"{'figure':<28} {'what':<24} {'A':>10} {'B':>10} {'p':>10}")
        for c in result["changed"]:
            lines.append(f"{c['id']:<28} {c['what']:<24} {_figure(c['a']):>10} "
                         f"{_figure(c['b']):>10} {c['p']:>10.3g}")
        lines.append(f"{len(result['changed'])} of {result['compared']} figures changed beyond "
                     f"chance ({name}, {result['alpha']:.0%})")
    else:
        lines.append(f"nothing changed beyond chance: {result['compared']} figures compared "
                     f"({name}, {result['alpha']:.0%})")
    click.echo(echo_text("\n".join(lines)))
    print_diagnostics(warnings, "text")


def _figure(x: float | None) -> str:
    return "-" if x is None else f"{x:.4g}"
