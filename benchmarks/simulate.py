"""`grove simulate`: games per second on one worker and on two, and a run's memory as the number
of games grows.

Speed: the same random base games (two players) played with `--jobs 1` (in grove's own
process) and `--jobs 2` (two worker processes), through `grove.api.simulate` as the command
runs it, alternately (one, two, two, one, ...) so a busy spell of a shared machine falls on both;
the ratio is the median of the rounds' ratios of wall-clock games per second. The target on a
two-core machine is 1.6x.

Memory: whole `grove simulate --jobs 2` commands of 1,000 and of 10,000 random games, their
process tree (grove, the fork server, the workers) sampled five times a second: the peak of the
tree's summed PSS (each page shared between processes counted once, in shares; what the run
really takes), the peak of the summed RSS (shared pages counted in every process: an upper
bound), and the largest single process. Rows stream to the files, so the peaks should not grow
with the number of games; the target for 10,000 games is 300 MB.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

GAMES = 1200  # per timed run: about 10 s on one core
ROUNDS = 3
MEMORY_GAMES = (1000, 10000)
TARGET_RATIO = 1.6
TARGET_MB = 300


def _rate(jobs: int, games: int, seed: int, out: Path) -> float:
    from grove import api

    start = time.perf_counter()
    outcome = api.simulate("base", [], ["random", "random"], games, seed=seed, jobs=jobs,
                           out=str(out))
    spent = time.perf_counter() - start
    assert outcome.summary["games"] == games, outcome.summary
    return games / spent


def _tree_memory(pid: int) -> tuple[int, int, int]:
    """(summed PSS, summed RSS, largest RSS) of a process and its descendants, in bytes."""
    import psutil

    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0, 0, 0
    pss = rss = top = 0
    for p in procs:
        try:
            info = p.memory_full_info()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        pss += getattr(info, "pss", info.rss)
        rss += info.rss
        top = max(top, info.rss)
    return pss, rss, top


def _memory(games: int, out: Path) -> dict[str, Any]:
    grove = Path(sys.executable).parent / "grove"
    start = time.perf_counter()
    proc = subprocess.Popen([str(grove), "simulate", "--edition", "base", "--ai", "random,random",
                             "--games", str(games), "--jobs", "2", "--out", str(out), "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    peak = [0, 0, 0]
    while proc.poll() is None:
        for i, v in enumerate(_tree_memory(proc.pid)):
            peak[i] = max(peak[i], v)
        time.sleep(0.2)
    proc.communicate()
    mb = 1024 * 1024
    return {"games": games, "seconds": round(time.perf_counter() - start, 1),
            "peak_pss_mb": round(peak[0] / mb, 1), "peak_rss_sum_mb": round(peak[1] / mb, 1),
            "largest_process_mb": round(peak[2] / mb, 1), "exit": proc.returncode}


def bench_simulate(opts) -> dict[str, Any]:
    one: list[float] = []
    two: list[float] = []
    with tempfile.TemporaryDirectory(prefix="grove-bench-sim-") as tmp:
        _rate(2, 100, 99, Path(tmp) / "warm")  # the card set in the cache, the fork server's imports
        for r in range(ROUNDS):
            order = (1, 2) if r % 2 == 0 else (2, 1)
            for jobs in order:
                rate = _rate(jobs, GAMES, r, Path(tmp) / f"run-{r}-{jobs}")
                (one if jobs == 1 else two).append(rate)
        ratios = [b / a for a, b in zip(one, two, strict=True)]
        ratio = statistics.median(ratios)
        memory = [_memory(n, Path(tmp) / f"mem-{n}") for n in MEMORY_GAMES]
    import os

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print("== grove simulate: random base games, 2 players (wall clock, through grove.api)")
    print(f"   {os.cpu_count()} cores; load average now {load} (the ratio needs two idle cores)")
    print(f"   --jobs 1  {statistics.median(one):8.1f} games/s   (median of {ROUNDS} runs of "
          f"{GAMES} games)")
    print(f"   --jobs 2  {statistics.median(two):8.1f} games/s")
    verdict = "HOLDS" if ratio >= TARGET_RATIO else "DOES NOT HOLD"
    print(f"   ratio 2 jobs / 1 job  {ratio:5.2f}x   (rounds: "
          f"{', '.join(f'{x:.2f}' for x in ratios)}); target >= {TARGET_RATIO}x: {verdict}")
    print("   memory of a whole `grove simulate --jobs 2` and its workers, peak:")
    for m in memory:
        print(f"   {m['games']:>6} games ({m['seconds']:6.1f} s): PSS summed {m['peak_pss_mb']:6.1f} MB,"
              f" RSS summed {m['peak_rss_sum_mb']:6.1f} MB, largest process "
              f"{m['largest_process_mb']:6.1f} MB")
    big = memory[-1]["peak_pss_mb"]
    print(f"   target {MEMORY_GAMES[-1]} games <= {TARGET_MB} MB (PSS summed): "
          f"{'HOLDS' if big <= TARGET_MB else 'DOES NOT HOLD'}")
    return {"simulate": {
        "games_per_run": GAMES, "one_job_games_per_s": round(statistics.median(one), 2),
        "two_jobs_games_per_s": round(statistics.median(two), 2), "ratio": round(ratio, 3),
        "target_ratio": TARGET_RATIO, "memory": memory, "target_mb": TARGET_MB,
        "load_average": [round(x, 2) for x in os.getloadavg()]}}
