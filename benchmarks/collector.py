"""What Python's cyclic garbage collector takes of a game, with its defaults and as a batch of
games sets it (`grove/simulation/collector.py`).

Each setting plays two-player base games from a fresh shared memo, keeping no events (as a
batch plays them), in a process of its own (the
collector's state is the whole process's), and times every collection with `gc.callbacks`: the
figure is the collector's time per game and its share of the games' time.

    python -m benchmarks --only collector
    python -m benchmarks.collector random batch 1000   # one run: prints its figures as JSON
"""

from __future__ import annotations

import contextlib
import gc
import json
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.games import real_game
from grove.compiler.cardset import build
from grove.engine.memo import Memo
from grove.simulation.collector import batch_collector

ROOT = Path(__file__).resolve().parent.parent
GAMES = {"random": 1000, "greedy": 200}


def play(kind: str, setting: str, games: int) -> dict:
    """`games` games of two `kind` players under `setting` ("default" or "batch")."""
    cs = build("base")
    memo = Memo(cs)
    spent = 0.0
    started = 0.0

    def timer(phase: str, info: dict) -> None:
        nonlocal spent, started
        if phase == "start":
            started = time.perf_counter()
        else:
            spent += time.perf_counter() - started

    gc.callbacks.append(timer)
    try:
        with batch_collector() if setting == "batch" else contextlib.nullcontext():
            start = time.perf_counter()
            for seed in range(games):
                real_game(cs, [kind, kind], seed, memo, events=False)
            took = time.perf_counter() - start
    finally:
        gc.callbacks.remove(timer)
    return {"ai": kind, "collector": setting, "games": games,
            "game_ms": round(1e3 * took / games, 4),
            "collector_ms": round(1e3 * spent / games, 4), "share": round(spent / took, 4)}


def bench_collector(opts) -> dict:
    print("== the collector's time per two-player base game (gc.callbacks; memo shared, fresh at "
          "the start), with Python's defaults and as a batch sets it")
    rows = []
    for kind, games in GAMES.items():
        for setting in ("default", "batch"):
            proc = subprocess.run([sys.executable, "-m", "benchmarks.collector", kind, setting,
                                   str(games)], capture_output=True, text=True, check=True,
                                  cwd=ROOT)
            row = json.loads(proc.stdout)
            print(f"   base  {kind:<7} collector {setting:<7} {row['collector_ms']:7.3f} ms of "
                  f"{row['game_ms']:7.3f} ms a game ({100 * row['share']:.1f}%, {games} games)")
            rows.append(row)
    return {"collector": rows}


if __name__ == "__main__":
    print(json.dumps(play(sys.argv[1], sys.argv[2], int(sys.argv[3]))))
