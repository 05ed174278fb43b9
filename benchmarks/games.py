"""Complete games per second, beside a null game on the same machine for a portable ratio.

The null game shuffles a deck with the winter cards in it, deals the hands a real game deals,
and then only draws cards until the third winter card (its winter cards lie anywhere in the
deck, not in the bottom third as a real deal puts them, so it draws fewer cards than a real
game; kept so, as the ratios of earlier runs were measured against it): it measures what the
machine does with Python list work, so `games/s ÷ null games/s` can be
compared across machines. The two are timed side by side, in short batches that take turns
(null, real, real, null, ...), and the ratio is the median of the ratios of each pair of
batches, so a slow spell of a shared machine falls on both. A batch lasts `--batch-ms` (at
least two games). On a shared machine the speed of either moves from one tenth of a second to
the next: pairs of one second each (as the rows were timed until December 2026) still caught a
slow spell on one side only, and the median of eight such pairs moved by a sixth between runs;
a hundred pairs and more of 40-80 ms each, in the same time, move by less than half that. As a
slow spell now spoils fewer pairs, the median also reads a few percent higher than the old
one did: compare a figure with one timed the same way. The spread between runs is narrower,
not gone (a real game leans on memory far more than the null game): for a change of a few
percent, count instructions instead (`benchmarks/instructions.py`).

Games of one card set share one engine memo (`grove/engine/memo.py`: each card's plays and where
halves fit, worked out once), filled first by a few seconds of games that are not timed (a batch
of thousands of games plays all but its first few hundred with a memo that full; timed from
empty, the first row ran 2-3% slower than the rows after it). They keep no events and run with
the collector set as a batch sets it (`grove/simulation/collector.py`), as `grove simulate` plays them.
Random players are also timed with a memo of each game's own, the events kept and Python's
default collector, as `grove play` plays a single game. Two rows of two-player base games show a
shared memo with the default collector too, so what the collector's setting gives can be read
side by side. Every game is put away as it ends (`Game.release`), as a batch's worker does, so
no row leaves its games to the collector.
"""

from __future__ import annotations

import contextlib
import random
import statistics
import time

from grove.compiler.cardset import build
from grove.engine.ai import make
from grove.engine.game import Game
from grove.engine.memo import Memo
from grove.simulation.collector import batch_collector


def null_game(cardset, n: int, seed: int) -> int:
    rng = random.Random(seed)
    deck = list(range(len(cardset.deck) + cardset.setup.winter_cards))
    rng.shuffle(deck)
    winter = set(range(len(cardset.deck), len(deck)))
    hands = [[deck.pop() for _ in range(6)] for _ in range(n)]
    seen = 0
    turn = 0
    while deck:
        c = deck.pop()
        hands[turn % n].append(c)
        if c in winter:
            seen += 1
            if seen == cardset.setup.winter_cards:
                break
        turn += 1
    return turn


def real_game(cardset, kinds: list[str], seed: int, memo: Memo | None = None,
              events: bool = True) -> int:
    game = Game(cardset, [f"P{i}" for i in range(len(kinds))], seed, memo=memo, events=events)
    players = [make(k, seed * 31 + i) for i, k in enumerate(kinds)]
    game.play_out(players)
    turns = game.turn
    game.release()  # as a batch puts each game away (grove/simulation/worker.py)
    return turns


def pairs_of(seconds: float, batch: float) -> int:
    """How many pairs of `batch`-second batches `side_by_side` times in `seconds` of each kind."""
    return max(8, round(seconds / batch))


def side_by_side(null, real, seconds: float, batch: float) -> tuple[float, float, list[float]]:
    """Null and real games per second, and the ratio real/null of each pair of batches: pairs
    of batches of about `batch` seconds of one core each (at least two games), taking turns,
    for about `seconds` of each kind (at least eight pairs). Each batch plays games not played
    before (its seeds go on from the last batch's)."""
    seeds = {null: 0, real: 0}
    spent = {null: 0.0, real: 0.0}
    played = {null: 0, real: 0}
    ratios: list[float] = []
    pairs = pairs_of(seconds, batch)
    each = seconds / pairs
    for k in range(pairs):
        now: dict = {}
        for fn in (null, real) if k % 2 == 0 else (real, null):
            start = time.process_time()
            n = 0
            while True:
                fn(seeds[fn])
                seeds[fn] += 1
                n += 1
                took = time.process_time() - start
                if took >= each and n >= 2:
                    break
            spent[fn] += took
            played[fn] += n
            now[fn] = n / took
        ratios.append(now[real] / now[null])
    return played[null] / spent[null], played[real] / spent[real], ratios


def warm(cardset, memo: Memo, seconds: float) -> int:
    """Fill a shared memo with `seconds` of one core's games, untimed: random and greedy, two
    and four players, on seeds no row plays. Returns how many games it played."""
    end = time.process_time() + seconds
    played = 0
    while time.process_time() < end:
        kind = ("random", "greedy")[played % 4 == 3]  # a greedy game costs three random ones
        real_game(cardset, [kind] * (2 + 2 * (played % 2)), 10**6 + played, memo, events=False)
        played += 1
    return played


def _rows(edition: str, players: int) -> list[tuple[str, bool, bool]]:
    """(AI, memo shared, batch collector) of each row: a batch's setting with a shared memo (and
    no events), a single game's with a memo of its own (and its events); two-player base games
    with a shared memo also with the default collector."""
    rows = [("random", True, True), ("random", False, False), ("greedy", True, True)]
    if edition == "base" and players == 2:
        rows[1:1] = [("random", True, False)]
        rows.append(("greedy", True, False))
    return rows


def bench_games(opts) -> dict:
    budget = max(1.0, opts.batch_ms / 10)
    rows: list[dict] = []
    batch_s = opts.batch_ms / 1e3
    pairs = pairs_of(2 * budget, batch_s)
    print("== complete games per second on one core (process time; memo: shared by the games of "
          "a card set, or each game's own; events: none kept, as a batch plays them, or kept; "
          "collector: as a batch sets it, or Python's default), "
          f"timed in turns with a null game: ratio = median of {pairs} pairs of batches of "
          f"{opts.batch_ms:g} ms [quartiles]")
    for edition in ("base", "smoky_mountains"):
        cs = build(edition)
        memo = Memo(cs)
        with batch_collector():
            warm(cs, memo, budget)
        for n in (2, 4):
            def null_one(s: int, cs=cs, n=n) -> int:
                return null_game(cs, n, s)

            for kind, shared, batch in _rows(edition, n):
                def one(s: int, cs=cs, n=n, kind=kind, m=memo if shared else None) -> int:
                    # a shared memo is a batch's setting, and a batch keeps no events
                    return real_game(cs, [kind] * n, s, m, events=m is None)

                with batch_collector() if batch else contextlib.nullcontext():
                    null, r, ratios = side_by_side(null_one, one, 2 * budget, batch_s)
                q1, ratio, q3 = statistics.quantiles(ratios, n=4)
                collector = "batch" if batch else "default"
                print(f"   {edition:<16} {n} players {kind:<7} memo {'shared' if shared else 'own':<6}"
                      f" events {'none' if shared else 'kept'} collector {collector:<7} {r:8.2f}"
                      f" games/s   null game {null:9.0f} games/s"
                      f"   ratio {ratio:.5f} [{q1:.5f} {q3:.5f}]")
                rows.append({"edition": edition, "players": n, "ai": kind,
                             "memo": "shared" if shared else "own", "collector": collector,
                             "events": not shared,
                             "games_per_s": round(r, 3), "null_games_per_s": round(null, 1),
                             "ratio": round(ratio, 6),
                             "ratio_quartiles": [round(q1, 6), round(q3, 6)]})
    return {"games": rows}
