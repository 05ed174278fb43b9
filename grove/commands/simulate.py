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
from grove.dsl.diagnostics import Diagnostic, Severity, echo_text, escape, shorten


class _NoBar:
    """No progress shown (a pipe, a script, `--json`): tqdm, a tenth of a second to import, is
    not loaded."""

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def _progress_bar(games: int) -> Any:
    """tqdm's bar on the terminal, without its monitor thread: workers are forked only from a
    process without threads (simulation/executors.py, `may_fork`)."""
    from tqdm import tqdm

    class Bar(tqdm):
        monitor_interval = 0

    return Bar(total=games if games > 0 else None, unit="game", file=sys.stderr,
               dynamic_ncols=True, smoothing=0.05)


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
@click.option("--against", default=None, type=click.Path(), metavar="RUN",
              help="a baseline run folder: the report opens with what changed from it")
@click.option("--worth", default=None, metavar="SPECIES[,...]|all",
              help="also play restricted runs (AI!SPECIES against AI, rotated, --games each) "
              "and report each species' worth: the win rate without it and the points gap")
@json_option("print the summary as JSON on stdout")
@guarded
@card_sets
def simulate(edition: str, with_: str, ai: str, games: int, seed: int, rotate: bool,
             jobs: int | None, cluster: str | None, out: str | None, against: str | None,
             worth: str | None, as_json: bool, roots) -> None:
    """Play a batch of games and write games.parquet, cards.parquet, summary.json and
    report.html: win rates by seat and AI, and what each species brings."""
    from grove import api
    from grove.simulation.folder import shown

    if against is not None:  # a baseline that cannot be read is refused before the first game
        from grove.simulation.compare import read_run

        read_run(against)
    if worth and worth.strip() != "all":  # as is a species the card set lacks
        api.refuse_unknown_species(edition, expansions(with_), _worth_list(worth), roots)

    fmt = "json" if as_json else "text"
    bar = _progress_bar(games) if not as_json and sys.stderr.isatty() else _NoBar()
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
    if (against is not None or worth) and summary["games"]:
        summary = _amend(outcome.folder, summary, against, worth, edition, with_, ai, games,
                         seed, jobs, roots, lambda d: print_diagnostics([d], fmt))
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
        click.echo(_whole(_simulate_text(summary)))
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


def _amend(folder: Any, summary: dict[str, Any], against: str | None, worth: str | None,
           edition: str, with_: str, ai: str, games: int, seed: int, jobs: int | None,
           roots: Any, on_warning: Any) -> dict[str, Any]:
    """The run's summary and report written again with what changed from `against` and each
    species' worth by restricted play."""
    from grove import api
    from grove.simulation.compare import read_run

    totals = read_run(folder).totals
    if against is not None:
        summary, totals = api.against(against, str(folder))
    if worth:
        kinds = [k.strip() for k in ai.split(",") if k.strip()]
        base = kinds[0].split("!")[0]
        named = [s["id"] for s in summary["species"]] if worth.strip() == "all" else \
            _worth_list(worth)
        summary = {**summary, "worth": api.worth(edition, expansions(with_), base, named, games,
                                                 seed, jobs, roots, on_warning, len(kinds))}
    api.rewrite_run(str(folder), summary, totals)
    return summary


def _worth_list(worth: str) -> list[str]:
    return [w.strip() for w in worth.split(",") if w.strip()]


def _whole(text: str) -> str:
    """A command's own table, escaped line by line and never cut: only the names in it come
    from input, and each is cut where it is put in (`_name`)."""
    return "\n".join(escape(line) for line in text.split("\n"))


def _name(text: str) -> str:
    return shorten(str(text), 60)


def _changed_text(c: dict[str, Any]) -> list[str]:
    """What changed from the baseline, in lines: the changed species first by certainty."""
    def f(x: float | None, pct: bool = False, log: bool = False) -> str:
        if x is None:
            return "-"
        if log:  # a strength, or a change of one, as the factor it stands for
            return f"x{2 ** x:.3g}"
        return f"{100 * x:.1f}%" if pct else f"{x:.3g}"

    def rank(r: int | None) -> str:
        return "-" if r is None else str(r)

    paired = f", game by game over {c['paired']} games dealt alike" if c.get("paired") else ""
    lines = [f"against {_name(c['base']['run'])}: {len(c['changed'])} species changed beyond "
             f"chance ({c['figures_changed']} of {c['compared']} figures{paired})"]
    for row in c["changed"]:
        top = row["figures"][0]
        pct, log = top["what"].startswith("win_rate"), top["what"] == "strength"
        lo, hi = top["ci95"] or (None, None)
        why = " (its card differs)" if row["card_differs"] else (
            f" (knock-on of {', '.join(row['knock_on_of'])})" if row["knock_on_of"] else "")
        mark = f" {row['flag']}" if row.get("flag") else ""
        lines.append(f"  {_name(row['id'])}{mark}{why}: {top['what']} "
                     f"{f(top['before'], pct, log)} -> {f(top['after'], pct, log)}, change "
                     f"{f(top['change'], pct, log)} [{f(lo, pct, log)}, {f(hi, pct, log)}]; "
                     f"strength rank {rank(row['rank'][0])} -> {rank(row['rank'][1])}")
    for d in c["differ"]:
        said = "; ".join(f"{r['field']}: {r['before']!r} -> {r['after']!r}" for r in d["rules"])
        cost = d["cost"]
        if cost[0] != cost[1]:
            said = f"cost {cost[0]} -> {cost[1]}" + (f"; {said}" if said else "")
        lines.append(f"  card differs: {_name(d['id'])}: {shorten(said, 200)}")
    return lines


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
        lines.append(f"  flagged {r['flag']:<7} {_name(r['id'])}: a copy scores "
                     f"x{2 ** r['strength']:.2f} what its kind and cost bring "
                     f"(x{2 ** lo:.2f} to x{2 ** hi:.2f})")
    for w in s.get("worth") or ():
        lo, hi = w["worth_ci95"] or (None, None)
        lines.append(f"  worth {_name(w['species'])}: without it wins {pct(w['win_rate_without'])}"
                     f"{ci(w['win_ci95'])}, points it brings {mean(w['points_worth'])}"
                     + ("" if lo is None else f" ({lo:.1f} to {hi:.1f})"))
    if s.get("against"):
        lines += _changed_text(s["against"])
    return "\n".join(lines)


@click.command(short_help="Compare two runs of `grove simulate` figure by figure.")
@click.argument("run_a", type=click.Path())
@click.argument("run_b", type=click.Path())
@click.option("--correction", type=click.Choice(["holm", "bh"]), default="holm", show_default=True,
              help="for the number of figures compared: Holm, or Benjamini-Hochberg")
@click.option("--html", "html", is_flag=True,
              help="write RUN_B's report against RUN_A (what changed first) to -o FILE")
@output_option(dest="out", default=None, type=click.Path(), metavar="FILE",
               help="the report's file, with --html  [default: compare.html]")
@json_option("print the comparison as JSON on stdout")
@guarded
def compare(run_a: str, run_b: str, correction: str, html: bool, out: str | None,
            as_json: bool) -> None:
    """Two runs of `grove simulate` side by side: every seat, AI, turn and species figure, and
    which moved beyond chance."""
    from grove import api
    from grove.simulation.compare import MISMATCH_HINT
    from grove.simulation.summary import to_json

    result = api.compare(run_a, run_b, correction)
    if html:
        from grove.files.write import write_text
        from grove.simulation.report import render

        summary, totals = api.against(run_a, run_b, correction)
        target = out if out is not None else "compare.html"
        write_text(target, render(summary, totals))
        click.echo(f"wrote {escape(target)}", err=True)
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
    lines.append(f"{len(result['changed'])} of {result['compared']} figures changed beyond "
                 f"chance ({name}, {result['alpha']:.0%})")
    if result["changed"]:  # every one of them: the table is grove's own, never cut
        lines.append(f"{'figure':<28} {'what':<24} {'A':>10} {'B':>10} {'p':>10}")
        for c in result["changed"]:
            lines.append(f"{_name(c['id']):<28} {c['what']:<24} {_figure(c['a']):>10} "
                         f"{_figure(c['b']):>10} {c['p']:>10.3g}")
    click.echo(_whole("\n".join(lines)))
    print_diagnostics(warnings, "text")


def _figure(x: float | None) -> str:
    return "-" if x is None else f"{x:.4g}"
