"""`grove simulate` as a user runs it: games per second on one worker and on two, and a run's
memory as the number of games grows.

Every figure comes from whole `grove simulate` commands (random base games, two players), their
process tree (grove, the fork server, the workers) sampled five times a second:

* speed: `--jobs 1` (the games in grove's own process) and `--jobs 2` (two worker processes),
  alternately (one, two, two, one, ...) so that a busy spell of a shared machine falls on both;
  the ratio is the median of the rounds' ratios of wall-clock time. The target on a two-core
  machine is 1.6x. Beside it, the CPU time of all the run's processes: equal CPU for the same
  games on one and on two workers means the parallel run wastes nothing, and a wall-clock ratio
  below 2 is then the machine's other work (the load average is printed);
* the machine's own ratio, beside it: the same pure-Python loop twice in one process and once
  in each of two processes. On a shared machine whose second core is busy it is near 1, and no
  program can do better; grove's ratio divided by it is what grove makes of the cores it gets;
* memory: runs of 1,000 and of 10,000 games with `--jobs 2`: the peak of the tree's summed PSS
  (each page shared between processes counted once, in shares: what the run really takes), the
  peak of the summed RSS (shared pages counted in every process: an upper bound), and the
  largest single process. Rows stream to the files, so the peaks should not grow with the
  number of games; the target for 10,000 games is 300 MB.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.commands import _grove

GAMES = 2000  # per timed run: about 15 s on one core
ROUNDS = 3
MEMORY_GAMES = (1000, 10000)
TARGET_RATIO = 1.6
TARGET_MB = 300
MB = 1024 * 1024


def _sample(pid: int, cpu: dict[int, float]) -> tuple[int, int, int]:
    """(summed PSS, summed RSS, largest RSS) of a process and its descendants, in bytes; each
    one's CPU seconds so far into `cpu`."""
    import psutil

    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0, 0, 0
    pss = rss = top = 0
    for p in procs:
        try:
            with p.oneshot():
                info = p.memory_full_info()
                t = p.cpu_times()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        cpu[p.pid] = t.user + t.system
        pss += getattr(info, "pss", info.rss)
        rss += info.rss
        top = max(top, info.rss)
    return pss, rss, top


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i
    return total


def machine_ratio(n: int = 10_000_000) -> float:
    """Seconds of two loops one after the other over seconds of the two at once, in two
    processes: what two cores give a CPU-bound Python program right now."""
    import multiprocessing

    start = time.perf_counter()
    _spin(n)
    _spin(n)
    serial = time.perf_counter() - start
    with multiprocessing.get_context("fork").Pool(2) as pool:
        pool.map(_spin, [1, 1])  # the pool's processes started before the clock
        start = time.perf_counter()
        pool.map(_spin, [n, n])
        parallel = time.perf_counter() - start
    return serial / parallel


def run(games: int, jobs: int, out: Path) -> dict[str, Any]:
    """One whole command, watched: wall seconds, CPU seconds of its processes, memory peaks."""
    start = time.perf_counter()
    proc = subprocess.Popen([_grove(), "simulate", "--edition", "base", "--ai", "random,random",
                             "--games", str(games), "--jobs", str(jobs), "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = [0, 0, 0]
    cpu: dict[int, float] = {}
    while proc.poll() is None:
        for i, v in enumerate(_sample(proc.pid, cpu)):
            peak[i] = max(peak[i], v)
        time.sleep(0.2)
    wall = time.perf_counter() - start
    return {"games": games, "jobs": jobs, "seconds": round(wall, 2),
            "games_per_s": round(games / wall, 1), "cpu_seconds": round(sum(cpu.values()), 2),
            "peak_pss_mb": round(peak[0] / MB, 1), "peak_rss_sum_mb": round(peak[1] / MB, 1),
            "largest_process_mb": round(peak[2] / MB, 1), "exit": proc.returncode}


def bench_simulate(opts) -> dict[str, Any]:
    one: list[dict[str, Any]] = []
    two: list[dict[str, Any]] = []
    loads = []
    machine = []
    with tempfile.TemporaryDirectory(prefix="grove-bench-sim-") as tmp:
        run(100, 2, Path(tmp) / "warm")  # the card set in the on-disk cache
        for r in range(ROUNDS):
            machine.append(machine_ratio())
            for jobs in ((1, 2) if r % 2 == 0 else (2, 1)):
                (one if jobs == 1 else two).append(run(GAMES, jobs, Path(tmp) / f"r{r}-{jobs}"))
                loads.append(os.getloadavg()[0])
            machine.append(machine_ratio())
        memory = [run(n, 2, Path(tmp) / f"mem-{n}") for n in MEMORY_GAMES]
    ratios = [a["seconds"] / b["seconds"] for a, b in zip(one, two, strict=True)]
    ratio = statistics.median(ratios)
    ceiling = statistics.median(machine)
    cpu_one = statistics.median(r["cpu_seconds"] for r in one)
    cpu_two = statistics.median(r["cpu_seconds"] for r in two)
    print(f"== grove simulate: random base games, 2 players, whole commands ({GAMES} games a run, "
          f"{ROUNDS} rounds)")
    print(f"   {os.cpu_count()} cores; load average during the runs "
          f"{min(loads):.1f} to {max(loads):.1f} (the ratio needs two idle cores)")
    for label, rows, c in (("--jobs 1", one, cpu_one), ("--jobs 2", two, cpu_two)):
        print(f"   {label}  {statistics.median(r['games_per_s'] for r in rows):8.1f} games/s   "
              f"{statistics.median(r['seconds'] for r in rows):6.1f} s wall   {c:6.1f} s CPU "
              f"(all its processes)")
    verdict = "HOLDS" if ratio >= TARGET_RATIO else "DOES NOT HOLD"
    print(f"   ratio 2 jobs / 1 job  {ratio:5.2f}x   (rounds: "
          f"{', '.join(f'{x:.2f}' for x in ratios)}); target >= {TARGET_RATIO}x: {verdict}")
    print(f"   the machine's own ratio (a Python loop on 2 processes / 1)  {ceiling:5.2f}x   "
          f"(probes: {', '.join(f'{x:.2f}' for x in machine)}); grove makes {ratio / ceiling:.0%} "
          "of it")
    print(f"   CPU of 2 jobs / 1 job  {cpu_two / cpu_one:5.2f}  (1.00: nothing spent on running "
          "in parallel)")
    print("   memory of a whole `grove simulate --jobs 2` and its workers, peak:")
    for m in memory:
        print(f"   {m['games']:>6} games ({m['seconds']:6.1f} s): PSS summed {m['peak_pss_mb']:6.1f} MB,"
              f" RSS summed {m['peak_rss_sum_mb']:6.1f} MB, largest process "
              f"{m['largest_process_mb']:6.1f} MB")
    big = memory[-1]["peak_pss_mb"]
    print(f"   target {MEMORY_GAMES[-1]} games <= {TARGET_MB} MB (PSS summed): "
          f"{'HOLDS' if big <= TARGET_MB else 'DOES NOT HOLD'}")
    return {"simulate": {
        "games_per_run": GAMES,
        "one_job_games_per_s": statistics.median(r["games_per_s"] for r in one),
        "two_jobs_games_per_s": statistics.median(r["games_per_s"] for r in two),
        "ratio": round(ratio, 3), "target_ratio": TARGET_RATIO,
        "cpu_ratio": round(cpu_two / cpu_one, 3), "machine_ratio": round(ceiling, 3),
        "load_average": [round(min(loads), 2), round(max(loads), 2)],
        "memory": memory, "target_mb": TARGET_MB}}
