"""Whole commands, as a user runs them: wall time of `grove ...` processes, cold and warm.

Each command runs as its own process, the rounds interleaved (one of each command per round),
so a noisy moment slows them all alike; the figure is the median, quoted as a ratio to
`grove --version`, the least any command can cost (Python, click, grove's entry point). Each
process is timed twice: its wall time, and its CPU time (user + system, from the kernel's
accounting of the child), which other work on a shared machine barely moves; the warm targets
are read on the CPU ratio, and on a quiet machine the two agree.

* cold: an empty cache folder each time, so the process reads and checks every edition's files
  and fills the cache (`GROVE_CACHE_DIR` points at a fresh folder);
* warm: the same command again with the cache filled by an earlier run;
* no cache: `GROVE_NO_CACHE=1`, the work of a cold run without writing the cache;
* baseline (with `--baseline DIR`): the same commands from another checkout of grove, run with
  its own files (`git worktree add /tmp/before <rev>`), to put a change side by side with what
  came before it in one run; with no cache, and warm (its own cache folder, filled first).

Python is let write its bytecode (`PYTHONDONTWRITEBYTECODE` is dropped): grove installed as the
README installs it imports compiled modules, and a process that compiles every module of grove
it imports, each time, would charge a command for the modules it imports twice over.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
COMMANDS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("editions", ("editions",)),
    ("cards base", ("cards", "base")),
    ("score base_three_players", ("score", "grove/examples/base_three_players.yaml")),
    # the same forest as a person edits it: its bytes new at every run (a comment line), so its
    # scores are not in the cache, while the card sets it is scored with are
    ("score edited", ("score", "{edited}")),
    ("lint base", ("lint", "grove/cards/base")),
    ("lint cards", ("lint", "grove/cards")),
    # a query over all five shipped editions (issue 32: within 2x `grove --version` warm)
    ("find all editions", ("find", "type:bird cost<=1")),
    # what a designer runs after each change: two 100-game base runs (`_runs`), side by side
    ("compare two runs", ("compare", "{runs}/a", "{runs}/b")),
)
# warm, as a ratio to `grove --version`: what a person waits for at most twice (issue 48); a
# command with no target is timed to be watched
TARGETS = {"editions": 2.0, "cards base": 2.5, "score base_three_players": 2.0,
           "score edited": 2.0, "lint base": 2.0, "lint cards": 4.0, "find all editions": 2.0,
           "compare two runs": None}
EDITED_FROM = REPO / "grove/examples/base_three_players.yaml"


def _grove() -> str:
    exe = Path(sys.executable).parent / "grove"
    return str(exe) if exe.exists() else shutil.which("grove") or "grove"


def _run(args: tuple[str, ...], env: dict[str, str], baseline: str | None = None
         ) -> tuple[float, float]:
    """(wall, CPU) seconds of one `grove ARGS` process; from the checkout `baseline` when
    given."""
    if baseline:
        cmd = [sys.executable, "-c", "import sys; from grove.cli import main; sys.exit(main())",
               *args]
        env, cwd = {**env, "PYTHONPATH": baseline}, Path(baseline)
    else:
        cmd, cwd = [_grove(), *args], REPO
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - t0
    proc.returncode = code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise RuntimeError(f"grove {' '.join(args)} exited {code}")
    return elapsed, usage.ru_utime + usage.ru_stime


def _edited(args: tuple[str, ...], tmp: str) -> tuple[str, ...]:
    """`args` with "{edited}" made a forest file whose bytes no run saw before: the example
    forest and a comment line of its own, in a folder of `tmp` (no card set sits near it, so it
    is scored with the search path's, as the example is)."""
    if "{edited}" not in args:
        return args
    folder = Path(tmp) / "edited"
    folder.mkdir(exist_ok=True)
    path = folder / "forest.yaml"
    path.write_text(EDITED_FROM.read_text(encoding="utf-8") + f"# edit {time.time_ns()}\n",
                    encoding="utf-8")
    return tuple(str(path) if a == "{edited}" else a for a in args)


def _runs(args: tuple[str, ...], tmp: str, env: dict[str, str]) -> tuple[str, ...]:
    """`args` with "{runs}" made a folder of two runs to compare, played once (by this
    checkout's grove) the first time a command asks."""
    if not any("{runs}" in a for a in args):
        return args
    runs = Path(tmp) / "runs"
    for name, seed in (("a", "1"), ("b", "2")):
        if not (runs / name).is_dir():
            made = subprocess.run([_grove(), "simulate", "--edition", "base", "--ai",
                                   "greedy,random", "--rotate", "--games", "100", "--seed", seed,
                                   "-o", str(runs / name)], env=env, capture_output=True,
                                  text=True)
            if made.returncode:
                raise RuntimeError(f"grove simulate exited {made.returncode}: {made.stderr}")
    return tuple(a.replace("{runs}", str(runs)) for a in args)


def measure(rounds: int, baseline: str | None = None) -> dict[str, Any]:
    """Median wall and CPU seconds per command and mode, and each as a ratio to
    `grove --version`'s."""
    base_env = {k: v for k, v in os.environ.items()
                if k not in ("GROVE_CACHE_DIR", "GROVE_NO_CACHE", "GROVE_CARDS",
                             "PYTHONDONTWRITEBYTECODE")}
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="grove-bench-") as tmp:
        warm_env = {**base_env, "GROVE_CACHE_DIR": str(Path(tmp) / "warm")}
        none_env = {**base_env, "GROVE_NO_CACHE": "1"}
        baseline_env = {**base_env, "GROVE_CACHE_DIR": str(Path(tmp) / "baseline")}
        commands = [(name, _runs(args, tmp, warm_env)) for name, args in COMMANDS]
        for _, args in commands:  # fill the warm caches
            _run(_edited(args, tmp), warm_env)
            if baseline:
                _run(_edited(args, tmp), baseline_env, baseline)
        for r in range(rounds):
            times.setdefault(("--version", "warm"), []).append(_run(("--version",), warm_env))
            for name, args in commands:
                cold_env = {**base_env, "GROVE_CACHE_DIR": str(Path(tmp) / f"cold-{r}-{name}")}
                times.setdefault((name, "cold"), []).append(_run(_edited(args, tmp), cold_env))
                times.setdefault((name, "warm"), []).append(_run(_edited(args, tmp), warm_env))
                times.setdefault((name, "no cache"), []).append(
                    _run(_edited(args, tmp), none_env))
                if baseline:
                    times.setdefault((name, "baseline"), []).append(
                        _run(_edited(args, tmp), none_env, baseline))
                    times.setdefault((name, "baseline warm"), []).append(
                        _run(_edited(args, tmp), baseline_env, baseline))
    def median(key: tuple[str, str], which: int) -> float:
        return statistics.median(t[which] for t in times[key])

    version = median(("--version", "warm"), 0)
    version_cpu = median(("--version", "warm"), 1)
    rows = []
    for name, _ in COMMANDS:
        row: dict[str, Any] = {"command": f"grove {name}", "target_warm_ratio": TARGETS[name]}
        for mode in ("cold", "warm", "no cache",
                     *(("baseline", "baseline warm") if baseline else ())):
            key = mode.replace(" ", "_")
            row[f"{key}_s"] = round(median((name, mode), 0), 4)
            row[f"{key}_ratio"] = round(median((name, mode), 0) / version, 2)
            row[f"{key}_cpu_s"] = round(median((name, mode), 1), 4)
            row[f"{key}_cpu_ratio"] = round(median((name, mode), 1) / version_cpu, 2)
        rows.append(row)
    return {"version_s": round(version, 4), "version_cpu_s": round(version_cpu, 4),
            "rounds": rounds, "commands": rows}


def bench_commands(opts: Any) -> dict[str, Any]:
    rounds = max(3, opts.rounds // 3)
    m = measure(rounds, getattr(opts, "baseline", None))
    base = "baseline" if "baseline_s" in m["commands"][0] else None
    print("== whole commands: median wall time of a grove process, as a ratio to grove --version")
    print(f"   grove --version {m['version_s'] * 1e3:7.1f} ms wall, {m['version_cpu_s'] * 1e3:.1f}"
          f" ms CPU; {rounds} rounds, interleaved; cold = empty cache folder, warm = cache "
          "filled, no cache = GROVE_NO_CACHE=1")
    modes = ("cold", "warm", "no_cache", *((base, "baseline_warm") if base else ()))
    print(f"   {'command':<36}" + "".join(f"{x.replace('_', ' '):>17}" for x in modes)
          + "   warm CPU  target")
    for r in m["commands"]:
        cells = "".join(f"{r[f'{k}_s'] * 1e3:8.0f} ms {r[f'{k}_ratio']:5.2f}x" for k in modes)
        target = r["target_warm_ratio"]
        verdict = "(no target)" if target is None else f"<= {target}x " + (
            "holds" if r["warm_cpu_ratio"] <= target else "DOES NOT HOLD")
        print(f"   {r['command']:<36}{cells} {r['warm_cpu_ratio']:8.2f}x  {verdict}")
    if base:
        print(f"   baseline: the same commands from {opts.baseline} (its own cards and files), "
              "with no cache and warm")
        for r in m["commands"]:
            print(f"   {r['command']:<36} warm CPU {r['warm_cpu_ratio']:5.2f}x, baseline warm CPU "
                  f"{r['baseline_warm_cpu_ratio']:5.2f}x")
    return {"commands": m}
