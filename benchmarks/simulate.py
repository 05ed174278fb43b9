"""`grove simulate` as a user runs it: games per second on one worker and on two, and a run's
memory as the number of games grows.

Every figure comes from whole `grove simulate` commands (random base games, two players):

* speed: `--jobs 1` (the games in grove's own process) and `--jobs 2` (two worker processes),
  alternately (one, two, two, one, ...) so that a busy spell of a shared machine falls on both;
  the ratio is the median of the rounds' ratios of wall-clock time, for runs of 600 games (the
  start and the end of a run weigh most there) and of 2,000. The target on a two-core machine
  is 1.6x at 600 games. Beside it, the CPU time of all the run's processes (the resource usage
  of the children this process reaped, grove's workers counted in grove's): equal CPU for the same
  games on one and on two workers means the parallel run wastes nothing, and a wall-clock ratio
  below 2 is then the machine's other work (the load average is printed);
* the machine's own ratio, beside it: the same pure-Python loop twice in one process and once
  in each of two processes. On a shared machine whose second core is busy it is near 1, and no
  program can do better; grove's ratio divided by it is what grove makes of the cores it gets;
* memory: runs of 1,000 and of 10,000 games with `--jobs 2`, their process tree (grove and its
  workers) sampled five times a second, which the speed runs are not (reading the page maps
  takes a tenth of a core, which only the two-job runs would lose): the peak of the summed PSS
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

SPEED_GAMES = (600, 2000)  # per timed run: about 2.5 s and 8 s on one core
ROUNDS = 3
MEMORY_GAMES = (1000, 10000)
TARGET_RATIO = 1.6
TARGET_MB = 300
MB = 1024 * 1024


def _sample(pid: int) -> tuple[int, int, int]:
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


def run(games: int, jobs: int, out: Path, watch: bool = False) -> dict[str, Any]:
    """One whole command: wall seconds and the CPU seconds of its processes (the children's
    resource usage, which counts every worker grove reaped); with `watch`, its memory peaks
    too, from its process tree sampled five times a second. Only the memory runs are watched:
    reading each process's page map takes a tenth of a core, which a run on two workers of a
    two-core machine would have lost and a run on one would not."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen([_grove(), "simulate", "--edition", "base", "--ai", "random,random",
                             "--games", str(games), "--jobs", str(jobs), "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = [0, 0, 0]
    while watch and proc.poll() is None:
        for i, v in enumerate(_sample(proc.pid)):
            peak[i] = max(peak[i], v)
        time.sleep(0.2)
    proc.wait()
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    row = {"games": games, "jobs": jobs, "seconds": round(wall, 2),
           "games_per_s": round(games / wall, 1), "cpu_seconds": round(cpu, 2),
           "exit": proc.returncode}
    if watch:
        row.update({"peak_pss_mb": round(peak[0] / MB, 1),
                    "peak_rss_sum_mb": round(peak[1] / MB, 1),
                    "largest_process_mb": round(peak[2] / MB, 1)})
    return row


def speed(games: int, rounds: int, folder: Path) -> dict[str, Any]:
    """`rounds` rounds of one run on one job and one on two, alternately, with the machine's
    own ratio probed before and after each round: the rows of one size of run."""
    one: list[dict[str, Any]] = []
    two: list[dict[str, Any]] = []
    loads, machine = [], []
    for r in range(rounds):
        machine.append(machine_ratio())
        for jobs in ((1, 2) if r % 2 == 0 else (2, 1)):
            (one if jobs == 1 else two).append(run(games, jobs, folder / f"{games}-{r}-{jobs}"))
            loads.append(os.getloadavg()[0])
        machine.append(machine_ratio())
    ratios = [a["seconds"] / b["seconds"] for a, b in zip(one, two, strict=True)]
    return {"games": games, "one": one, "two": two, "ratios": ratios, "machine": machine,
            "loads": loads, "ratio": statistics.median(ratios),
            "machine_ratio": statistics.median(machine),
            "cpu_one": statistics.median(r["cpu_seconds"] for r in one),
            "cpu_two": statistics.median(r["cpu_seconds"] for r in two)}


def print_speed(s: dict[str, Any], target: bool) -> None:
    print(f"   {s['games']} games a run, {len(s['ratios'])} rounds; load average during the "
          f"runs {min(s['loads']):.1f} to {max(s['loads']):.1f} (the ratio needs two idle cores)")
    for label, rows, c in (("--jobs 1", s["one"], s["cpu_one"]),
                           ("--jobs 2", s["two"], s["cpu_two"])):
        print(f"   {label}  {statistics.median(r['games_per_s'] for r in rows):8.1f} games/s   "
              f"{statistics.median(r['seconds'] for r in rows):6.2f} s wall   {c:6.2f} s CPU "
              f"(all its processes)")
    verdict = (f"; target >= {TARGET_RATIO}x: "
               f"{'HOLDS' if s['ratio'] >= TARGET_RATIO else 'DOES NOT HOLD'}" if target else "")
    print(f"   ratio 2 jobs / 1 job  {s['ratio']:5.2f}x   (rounds: "
          f"{', '.join(f'{x:.2f}' for x in s['ratios'])}){verdict}")
    print(f"   the machine's own ratio (a Python loop on 2 processes / 1)  "
          f"{s['machine_ratio']:5.2f}x   (probes: {', '.join(f'{x:.2f}' for x in s['machine'])}); "
          f"grove makes {s['ratio'] / s['machine_ratio']:.0%} of it")
    print(f"   CPU of 2 jobs / 1 job  {s['cpu_two'] / s['cpu_one']:5.2f}  (1.00: nothing spent on "
          "running in parallel)")


def bench_simulate(opts) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="grove-bench-sim-") as tmp:
        run(100, 2, Path(tmp) / "warm")  # the card set in the on-disk cache
        sizes = [speed(games, ROUNDS, Path(tmp)) for games in SPEED_GAMES]
        memory = [run(n, 2, Path(tmp) / f"mem-{n}", watch=True) for n in MEMORY_GAMES]
    print(f"== grove simulate: random base games, 2 players, whole commands, {os.cpu_count()} "
          "cores")
    for i, s in enumerate(sizes):
        print_speed(s, target=i == 0)
    print("   memory of a whole `grove simulate --jobs 2` and its workers, peak:")
    for m in memory:
        print(f"   {m['games']:>6} games ({m['seconds']:6.1f} s): PSS summed {m['peak_pss_mb']:6.1f} MB,"
              f" RSS summed {m['peak_rss_sum_mb']:6.1f} MB, largest process "
              f"{m['largest_process_mb']:6.1f} MB")
    big = memory[-1]["peak_pss_mb"]
    print(f"   target {MEMORY_GAMES[-1]} games <= {TARGET_MB} MB (PSS summed): "
          f"{'HOLDS' if big <= TARGET_MB else 'DOES NOT HOLD'}")
    rows = [{"games_per_run": s["games"],
             "one_job_games_per_s": statistics.median(r["games_per_s"] for r in s["one"]),
             "two_jobs_games_per_s": statistics.median(r["games_per_s"] for r in s["two"]),
             "ratio": round(s["ratio"], 3), "rounds": [round(x, 3) for x in s["ratios"]],
             "cpu_ratio": round(s["cpu_two"] / s["cpu_one"], 3),
             "machine_ratio": round(s["machine_ratio"], 3),
             "load_average": [round(min(s["loads"]), 2), round(max(s["loads"]), 2)]}
            for s in sizes]
    return {"simulate": {"speed": rows, "ratio": rows[0]["ratio"], "target_ratio": TARGET_RATIO,
                         "memory": memory, "target_mb": TARGET_MB}}
