"""`python -m benchmarks` (`make bench`): grove's figures, measured in one run.

Each benchmark in `BENCHMARKS` is a function `(Options) -> dict` that prints its own lines and
returns its figures; `--json` prints them all as one JSON object on stdout (the text goes to
stderr), `--only NAME` runs the benchmarks whose name holds NAME. The figures:

* whole commands as a user runs them, cold and warm, as ratios to `grove --version` (`commands`;
  `--baseline DIR` adds another checkout's commands side by side);
* the one-time cost of loading and compiling the card set (base + alpine + woodland_edge), with
  the on-disk cache off (`compile`);
* scoring large tables of forests with the COMPILED rules against the same rules written BY HAND
  (`benchmarks/handwritten.py`), interleaved side by side in one process, median of several
  rounds, with the ratio compiled / handwritten (`scoring`);
* complete games per second beside a null game (`games`), the machine instructions a game
  takes, counted by valgrind where it is installed (`instructions`), and the collector's share
  of a game's time, with Python's defaults and as a batch of games sets it (`collector`);
* `grove simulate` on one worker and on two and its memory over 1,000 and 10,000 games
  (`simulate`), sheets in four languages (`sheets`), print-and-play cards (`print`: the
  whole base deck as a PDF, and `grove print --only` one species), and `grove lsp` from a
  didOpen of a file of a set `grove lint` has seen, and from a didChange of a 60-species file,
  to its diagnostics, through a real client over stdio (`lsp`);
* the strength ladder: the search player against greedy, seats rotated, with Wilson intervals
  and the seconds a searched decision takes (`ai`, benchmarks/ai.py), and the default search's
  CPU seconds a decision at 2 to 5 players, at points of greedy games (`search`);
* the report against a baseline and the strength flag against a planted change: every dweller
  of the base game tripled, halved, one cheaper and one dearer in turn, whether the report
  against the unchanged run names it among its first three changed species; the tripled ones'
  rank and flag, and the flags of unchanged sets (`planted`, benchmarks/planted.py);
* a cold `grove lint` of generated card sets of 500, 2,000 and 8,000 species, as time per
  species, which stays flat when lint is linear in the species (`lint_scale`).

Nothing here asserts on wall-clock time; the numbers are for reading.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

EDITION = "base"
EXPANSIONS = ("alpine", "woodland_edge")
TARGET = 1.0  # compiled scoring may take at most as long as the same rules written by hand


@dataclass
class Options:
    rounds: int
    players: int
    tables: int
    batch_ms: float
    baseline: str | None = None
    ai_games: int | None = None  # None: each row's own (benchmarks/ai.py ROWS)
    ai_rows: list[str] | None = None
    ai_budget: str | None = None
    ai_knobs: str | None = None
    ai_journal: str | None = None


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:9.3f} ms"


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:9.1f} us"


# ---- compile cost ---------------------------------------------------------------------------
def bench_compile(opts: Options) -> dict[str, Any]:
    """Builds with the on-disk cache off: what a build costs where nothing was built before."""
    import os

    was = os.environ.get("GROVE_NO_CACHE")
    os.environ["GROVE_NO_CACHE"] = "1"
    try:
        return _bench_compile(opts)
    finally:
        if was is None:
            os.environ.pop("GROVE_NO_CACHE")
        else:
            os.environ["GROVE_NO_CACHE"] = was


def _bench_compile(opts: Options) -> dict[str, Any]:
    from grove.compiler import cardset, lark_tables, universe
    from grove.compiler.search_path import Roots, search_path, shipped_cards_dir
    from grove.dsl import parser

    cards_dir = shipped_cards_dir()
    three = search_path([cards_dir / e for e in (EDITION, *EXPANSIONS)], {}, shipped=False)
    everything = search_path(env={})

    def clear(grammar: bool) -> None:
        universe._universe.cache_clear()
        universe._load.cache_clear()  # the folders read, kept for the language server
        cardset._compiled.cache_clear()
        parser.parse_rule.cache_clear()  # the rules parsed, likewise
        if grammar:
            parser._lark.cache_clear()
            lark_tables.rules.cache_clear()

    def once(roots: Roots, grammar: bool) -> tuple[float, float]:
        """(load, compile) seconds of one build from nothing."""
        clear(grammar)
        t0 = time.perf_counter()
        universe.load_universe(roots)  # the edition folders: YAML, schema checks
        t1 = time.perf_counter()
        cardset.build(EDITION, EXPANSIONS, roots)  # parse + check + codegen of the three
        return t1 - t0, time.perf_counter() - t1

    first = once(three, grammar=True)  # the process's first build: grammar, YAML, checks, codegen
    n = max(3, opts.rounds // 7)
    cold = [once(three, grammar=True) for _ in range(n)]
    warm = [once(three, grammar=False) for _ in range(n)]
    shipped = [once(everything, grammar=False) for _ in range(n)]
    clear(grammar=False)
    on_disk = len(universe.load_universe(everything).editions)
    clear(grammar=False)
    editions = "+".join((EDITION, *EXPANSIONS))

    def line(label: str, runs: list[tuple[float, float]]) -> str:
        load = statistics.median(r[0] for r in runs)
        comp = statistics.median(r[1] for r in runs)
        tot = statistics.median(r[0] + r[1] for r in runs)
        return f"   {label:40s}{_ms(tot)}   (load {load * 1e3:.0f} ms + compile {comp * 1e3:.0f} ms)"

    print(f"== compile the card set ({editions}): one-time cost of load + compile, no cache")
    print(line("first build in this process", [first]))
    print(line(f"median of {n}, grammar rebuilt", cold))
    print(line(f"median of {n}, grammar kept", warm))
    print(line(f"build() as shipped ({on_disk} editions on disk)", shipped))

    def ms(runs: list[tuple[float, float]]) -> float:
        return round(statistics.median(r[0] + r[1] for r in runs) * 1e3, 2)

    return {"compile": {"first_ms": ms([first]), "grammar_rebuilt_ms": ms(cold),
                        "grammar_kept_ms": ms(warm), "all_editions_ms": ms(shipped)}}


# ---- scoring: compiled against hand-written ---------------------------------------------------
def _timer(fn: Callable[[], object], n: int) -> float:
    """Seconds per call of `fn` over `n` calls, with the garbage collector held off."""
    gc_was = gc.isenabled()
    gc.disable()
    try:
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        return (time.perf_counter() - t0) / n
    finally:
        if gc_was:
            gc.enable()


def _calibrate(fns: list[Callable[[], object]], batch_s: float) -> int:
    """Calls per batch so that the slowest function's batch takes about `batch_s`."""
    slowest = max(_timer(f, 3) for f in fns)
    return max(1, int(batch_s / max(slowest, 1e-9)))


def _side_by_side(
    fns: dict[str, Callable[[], object]], rounds: int, batch_s: float, chunks: int = 8
) -> dict[str, list[float]]:
    """Per-call seconds of each function in each round.

    A round times every function for about `batch_s`, cut into `chunks` short batches that
    alternate between the functions (forwards, then backwards: A B C C B A ...), so a slow spell
    of a busy machine falls on all of them alike and per-round ratios stay meaningful.
    """
    names = list(fns)
    for f in fns.values():  # warm up caches (host.attached, ...) and the interpreter
        f()
    n = max(1, _calibrate(list(fns.values()), batch_s) // chunks)
    out: dict[str, list[float]] = {k: [] for k in names}
    for _ in range(rounds):
        spent = dict.fromkeys(names, 0.0)
        for i in range(chunks):
            for k in names if i % 2 == 0 else reversed(names):
                spent[k] += _timer(fns[k], n)
        for k in names:
            out[k].append(spent[k] / chunks)
    return out


def _ratio(times: dict[str, list[float]], a: str, b: str) -> tuple[float, float, float]:
    """Median and quartiles of the per-round ratios a/b."""
    r = sorted(x / y for x, y in zip(times[a], times[b], strict=True))
    if len(r) < 4:
        return statistics.median(r), r[0], r[-1]
    q1, med, q3 = statistics.quantiles(r, n=4)
    return med, q1, q3


def bench_scoring(opts: Options) -> dict[str, Any]:
    from benchmarks import handwritten as hw
    from benchmarks.forests import large_forests
    from grove.compiler.cardset import build
    from grove.engine.scoring import score, score_forests, score_rows
    from grove.forest.model import table

    cs = build(EDITION, EXPANSIONS)
    tables = [large_forests(cs, opts.players, seed=1000 + i) for i in range(opts.tables)]
    view_tables = [table(players) for players in tables]
    all_views = [v for vs in view_tables for v in vs]
    n_cards = sum(len(v.cards) for v in all_views)
    n_hosts = sum(len(v.hosts) for v in all_views)

    # the two scorers must agree on what is being timed
    disagree = [
        (v.name, g, h)
        for v in all_views
        if (g := score_rows(v, cs)) != (h := hw.score_view(v))
    ]

    def compiled() -> object:
        """The same output as the hand-written scorer: points by scorepad row."""
        for v in all_views:
            v.memo.clear()  # a view is scored once in real use: no counts carried over
        return [score_rows(v, cs) for v in all_views]

    def handwritten() -> object:
        return [hw.score_view(v) for v in all_views]

    def compiled_rules_only() -> object:
        """The rows plus a per-card record, as `grove score --json` prints."""
        for v in all_views:
            v.memo.clear()
        return [score(v, cs, cards=True) for v in all_views]

    def compiled_end_to_end() -> object:
        """Forests laid out afresh (as a forest file's are), then scored with records."""
        return [score_forests(cs, [f.copy() for f in players]) for players in tables]

    def handwritten_end_to_end() -> object:
        return [hw.score_views([f.copy() for f in players]) for players in tables]

    times = _side_by_side(
        {
            "compiled": compiled,
            "handwritten": handwritten,
            "compiled_rules_only": compiled_rules_only,
            "compiled_end_to_end": compiled_end_to_end,
            "handwritten_end_to_end": handwritten_end_to_end,
        },
        opts.rounds,
        opts.batch_ms / 1e3,
    )
    med = {k: statistics.median(v) for k, v in times.items()}
    ratio, q1, q3 = _ratio(times, "compiled", "handwritten")
    ratio_rules = _ratio(times, "compiled_rules_only", "handwritten")[0]
    ratio_e2e = _ratio(times, "compiled_end_to_end", "handwritten_end_to_end")[0]
    forests = len(all_views)

    editions = "+".join((EDITION, *EXPANSIONS))
    print(f"== scoring large forests ({editions}): compiled rules vs the same rules by hand")
    print(f"   {opts.tables} tables x {opts.players} players = {forests} forests, "
          f"{n_hosts} hosts, {n_cards} visible cards (whole deck dealt per table)")
    print(f"   {opts.rounds} rounds, both interleaved in short batches; median time per forest:")
    print(f"   compiled     (engine.scoring.score_rows)  {_us(med['compiled'] / forests)}")
    print(f"   handwritten  (benchmarks.handwritten)     {_us(med['handwritten'] / forests)}")
    print(f"   ratio compiled/handwritten  {ratio:5.2f}x   "
          f"(median of per-round ratios; quartiles {q1:.2f}..{q3:.2f})")
    verdict = "HOLDS" if ratio <= TARGET else "DOES NOT HOLD"
    print(f"   target compiled <= {TARGET}x handwritten: {verdict}")
    print("   for reference:")
    print(f"   with per-card records (score_view)         {_us(med['compiled_rules_only'] / forests)}"
          f"   ratio {ratio_rules:5.2f}x")
    print(f"   end to end incl. building the views: compiled {_us(med['compiled_end_to_end'] / forests)}"
          f", handwritten {_us(med['handwritten_end_to_end'] / forests)}   ratio {ratio_e2e:5.2f}x")
    if disagree:
        print(f"   WARNING: the scorers disagree on {len(disagree)} of {forests} timed forests:")
        for name, g, h in disagree[:5]:
            print(f"     {name}: compiled {g} handwritten {h}")
    else:
        print(f"   both scorers agree on all {forests} timed forests")
    return {"scoring": {"compiled_us": round(med["compiled"] / forests * 1e6, 3),
                        "handwritten_us": round(med["handwritten"] / forests * 1e6, 3),
                        "ratio": round(ratio, 3), "forests": forests,
                        "scorers_agree": not disagree}}


def bench_games(opts: Options) -> dict[str, Any]:
    from benchmarks.games import bench_games as run

    return run(opts)


def bench_instructions(opts: Options) -> dict[str, Any]:
    from benchmarks.instructions import bench_instructions as run

    return run(opts)


def bench_collector(opts: Options) -> dict[str, Any]:
    from benchmarks.collector import bench_collector as run

    return run(opts)


def bench_commands(opts: Options) -> dict[str, Any]:
    from benchmarks.commands import bench_commands as run

    return run(opts)


def bench_simulate(opts: Options) -> dict[str, Any]:
    from benchmarks.simulate import bench_simulate as run

    return run(opts)


def bench_sheets(opts: Options) -> dict[str, Any]:
    from benchmarks.sheets import bench_sheets as run

    return run(opts)


def bench_print(opts: Options) -> dict[str, Any]:
    from benchmarks.printing import bench_print as run

    return run(opts)


def bench_ai(opts: Options) -> dict[str, Any]:
    from benchmarks.ai import bench_ai as run

    return run(opts)


def bench_search(opts: Options) -> dict[str, Any]:
    from benchmarks.ai import bench_search as run

    return run(opts)


def bench_lsp(opts: Options) -> dict[str, Any]:
    from benchmarks.lsp import bench_lsp as run

    return run(opts)


def bench_planted(opts: Options) -> dict[str, Any]:
    from benchmarks.planted import bench_planted as run

    return run(opts)


def bench_serve(opts: Options) -> dict[str, Any]:
    from benchmarks.serve import bench_serve as run

    return run(opts)


def bench_lint_scale(opts: Options) -> dict[str, Any]:
    from benchmarks.lint_scale import bench_lint_scale as run

    return run(opts)


BENCHMARKS: list[Callable[[Options], dict[str, Any]]] = [
    bench_commands,
    bench_compile,
    bench_scoring,
    bench_games,
    bench_instructions,
    bench_collector,
    bench_simulate,
    bench_sheets,
    bench_print,
    bench_lsp,
    bench_lint_scale,
    bench_serve,  # 20 games at once through grove serve's WebSockets
    bench_planted,  # the strength flag against a tripled dweller, every one in turn
    bench_search,  # the default search's seconds a decision at 2 to 5 players
    bench_ai,  # last: a row at the default budget takes hours
]


def _bytecode(checkouts: list[Path]) -> None:
    """Compile grove's modules once, as pip does when it installs grove: where
    PYTHONDONTWRITEBYTECODE is set (as on this machine) every whole command would compile grove
    again, a cost no installed grove pays, and its figures would measure Python's compiler."""
    import compileall

    for checkout in checkouts:
        compileall.compile_dir(checkout / "grove", quiet=1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=21, help="timed rounds per figure (median)")
    ap.add_argument("--players", type=int, default=5, help="players per table (4-5 is large)")
    ap.add_argument("--tables", type=int, default=4, help="tables of forests, each a full deck")
    ap.add_argument("--batch-ms", type=float, default=40.0, help="target length of one batch")
    ap.add_argument("--only", action="append", help="run only benchmarks whose name contains this")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object "
                    "on stdout (the text report goes to stderr)")
    ap.add_argument("--baseline", metavar="DIR", help="a checkout of another grove: whole commands "
                    "also run from it, side by side (git worktree add DIR REV)")
    ap.add_argument("--ai-games", type=int, help="games per row of the strength ladder (`ai`; "
                    "by default each row's own, 200 or 400: at a second a decision, a row takes "
                    "hours)")
    ap.add_argument("--ai-rows", help="the ladder's rows to play, in this order, comma-separated: "
                    "base, smoky, dartmoor, base4, curve100, curve300, curve1000, curve3000")
    ap.add_argument("--ai-budget", help="play the ladder's default-budget rows at this budget "
                    "instead (300 iterations, 2s)")
    ap.add_argument("--ai-knobs", help="the search's settings for every row, to measure a choice "
                    "(horizon=1,epsilon=0.2: grove/engine/mcts.py's Knobs)")
    ap.add_argument("--ai-journal", metavar="PATH", help="the file that keeps every deal the "
                    "ladder played, so a row goes on where an earlier run stopped "
                    "(default benchmarks/ladder.jsonl; `none` keeps nothing)")
    a = ap.parse_args(argv)
    opts = Options(a.rounds, a.players, a.tables, a.batch_ms, a.baseline, a.ai_games,
                   a.ai_rows.split(",") if a.ai_rows else None, a.ai_budget, a.ai_knobs,
                   a.ai_journal)
    figures: dict[str, Any] = {"python": sys.version.split()[0]}
    with contextlib.redirect_stdout(sys.stderr) if a.json else contextlib.nullcontext():
        print(f"grove benchmarks  (Python {sys.version.split()[0]})")
        _bytecode([Path(__file__).resolve().parents[1], *([Path(a.baseline)] if a.baseline else [])])
        for bench in BENCHMARKS:
            if a.only and not any(o in bench.__name__ for o in a.only):
                continue
            figures.update(bench(opts))
    if a.json:
        print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
