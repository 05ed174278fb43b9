"""Instructions per complete game, counted by valgrind: a figure a busy machine does not move.

On a shared machine a row's ratio to the null game moves by up to a third between runs, even
with the two timed in turns; the number of machine instructions a game takes moves by well under
one percent, so it shows a change of a few percent that timing cannot. Each figure
is the difference of two runs under valgrind's cachegrind (without its cache simulation): one
that plays `--games` games after 20 games that fill the memo, one that plays none, divided by
`--games`. The games keep no events, as a batch plays them (counts before December 2026 kept
them: about 2% more). Without valgrind on the PATH the benchmark says so and gives no figure.

    python -m benchmarks --only instructions      # both AIs, two-player base games
    python -m benchmarks.instructions random base 60   # one run: plays the games, no valgrind
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from benchmarks.games import real_game
from grove.compiler.cardset import build
from grove.engine.memo import Memo

WARM = 20  # games that fill the memo before the counted ones (seeds 0..19)
ROOT = Path(__file__).resolve().parent.parent


def play(kind: str, edition: str, games: int) -> None:
    """What valgrind runs: WARM games, then `games` more of two players of `kind`."""
    cs = build(edition)
    memo = Memo(cs)
    for s in range(WARM):
        real_game(cs, [kind] * 2, s, memo, events=False)
    for s in range(games):
        real_game(cs, [kind] * 2, 1000 + s, memo, events=False)


def count(kind: str, edition: str, games: int) -> int:
    """Instructions per game: `games` games under valgrind, less none."""
    def instructions(n: int) -> int:
        proc = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
             sys.executable, "-m", "benchmarks.instructions", kind, edition, str(n)],
            capture_output=True, text=True, check=True, cwd=ROOT,
            env={**os.environ, "PYTHONHASHSEED": "0"})
        m = re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr)
        if m is None:
            raise RuntimeError(f"valgrind printed no instruction count:\n{proc.stderr[-2000:]}")
        return int(m.group(1).replace(",", ""))

    play(kind, edition, 1)  # the card set compiled and cached before valgrind counts
    return (instructions(games) - instructions(0)) // games


def bench_instructions(opts) -> dict:
    print("== instructions per two-player game, counted by valgrind (memo shared, no events, "
          f"warmed by {WARM} games)")
    if shutil.which("valgrind") is None:
        print("   valgrind is not installed: no figure")
        return {"instructions": None}
    rows = []
    for kind, games in (("random", 60), ("greedy", 20)):
        n = count(kind, "base", games)
        print(f"   base  {kind:<7} {n / 1e6:8.2f} M instructions per game ({games} games)")
        rows.append({"edition": "base", "players": 2, "ai": kind, "games": games,
                     "instructions_per_game": n})
    return {"instructions": rows}


if __name__ == "__main__":
    play(sys.argv[1], sys.argv[2], int(sys.argv[3]))
