"""Complete games per second, beside a null game on the same machine for a portable ratio.

The null game deals like a real one and then only draws cards until the third winter card:
it measures what the machine does with Python list work, so `games/s ÷ null games/s` can be
compared across machines.

Games of one card set share one engine memo (`engine/memo.py`: each card's plays and where
halves fit, worked out once), as a batch of simulated games would; random players are also
timed with a memo of each game's own, as `grove play` plays a single game.
"""

from __future__ import annotations

import random
import time

from compiler.cardset import build
from engine.game import Game
from engine.memo import Memo
from engine.players import make


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


def real_game(cardset, kinds: list[str], seed: int, memo: Memo | None = None) -> int:
    game = Game(cardset, [f"P{i}" for i in range(len(kinds))], seed, memo=memo)
    players = [make(k, seed * 31 + i) for i, k in enumerate(kinds)]
    while game.decision is not None:
        d = game.decision
        game.apply(players[d.player].choose(game, d))
    return game.turn


def rate(fn, seconds: float) -> float:
    """Games per second over at least `seconds` of one core."""
    start = time.process_time()
    n = 0
    while True:
        fn(n)
        n += 1
        spent = time.process_time() - start
        if spent >= seconds and n >= 2:
            return n / spent


def bench_games(opts) -> dict:
    budget = max(1.0, opts.batch_ms / 10)
    rows: list[dict] = []
    print("== complete games per second on one core (process time; memo: shared by the games of "
          "a card set, or each game's own)")
    for edition in ("base", "smoky_mountains"):
        cs = build(edition)
        memo = Memo(cs)
        for n in (2, 4):
            null = rate(lambda s, cs=cs, n=n: null_game(cs, n, s), budget)
            for kind, shared in (("random", True), ("random", False), ("greedy", True)):
                def one(s: int, cs=cs, n=n, kind=kind, m=memo if shared else None) -> int:
                    return real_game(cs, [kind] * n, s, m)

                r = rate(one, budget)
                print(f"   {edition:<16} {n} players {kind:<7} memo {'shared' if shared else 'own':<6}"
                      f" {r:8.2f} games/s   null game {null:9.0f} games/s   ratio {r / null:.5f}")
                rows.append({"edition": edition, "players": n, "ai": kind,
                             "memo": "shared" if shared else "own", "games_per_s": round(r, 3),
                             "null_games_per_s": round(null, 1), "ratio": round(r / null, 6)})
    return {"games": rows}
