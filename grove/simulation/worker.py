"""One worker's job: play a chunk of games and hand back their rows.

A worker process reads the card set once (from the on-disk cache of compiler/cache.py) and keeps
it, with one engine memo that every game it plays shares (`engine/memo.py`: the memo changes no
answer, only how often it is worked out). Rows come back as plain lists, so a worker never
imports pyarrow and a chunk's result pickles small.

A game the engine cannot finish (an exception) is reported with its index and seed, which replay
it with `grove play`; it is not played again, since it would fail again.
"""

from __future__ import annotations

import os
import signal
import threading
from dataclasses import dataclass
from functools import lru_cache
from multiprocessing.connection import Connection
from typing import Any

from grove.compiler.cardset import CardSet, build
from grove.compiler.search_path import search_path
from grove.engine.game import Game
from grove.engine.memo import Memo
from grove.engine.record import digest, species_ident
from grove.engine.runner import seats
from grove.engine.scoring import cave_card_points, score
from grove.simulation.collector import batch_collector
from grove.simulation.columns import CARD_COLUMNS, game_columns, row_columns
from grove.simulation.plan import Chunk, Plan

# answers a shared memo may hold before a fresh one replaces it: it learns a few answers a game
# (about 1.5 KB each), so a worker that plays a million games would otherwise grow without end.
# A fresh memo every few hundred games costs no measurable speed (148.7 games/s of CPU with
# 2,000, 149.7 with 20,000: 3,000 random base games) and keeps each worker under 50 MB
MEMO_LIMIT = 2_000

# a worker's exit code when the run it played for is gone: no one is left to read it
ORPHANED = 70

Fingerprint = tuple[tuple[str, str], ...]  # a card set's files and their digests, sorted


def fingerprint(cardset: CardSet) -> Fingerprint:
    """What a worker checks it reads the same card files as the run that started it."""
    return tuple(sorted(digest(cardset).items()))


@dataclass(frozen=True)
class Failure:
    """A game that did not finish, or whose worker was lost twice."""

    game: int
    seed: int
    seating: tuple[str, ...]
    error: str


@dataclass(frozen=True)
class Batch:
    """A chunk's rows, column by column, in game order; and the games that failed."""

    chunk: Chunk
    games: dict[str, list[Any]]
    cards: dict[str, list[Any]]
    failed: tuple[Failure, ...] = ()

    @property
    def played(self) -> int:
        return self.chunk.games - len(self.failed)


class Shelf:
    """What a worker keeps between chunks: the card set, species ids, and the shared memo."""

    def __init__(self, cardset: CardSet):
        self.cardset = cardset
        self.memo = Memo(cardset)
        self.rows = tuple(row_columns(cardset.scorepad).items())  # (scorepad row, column)
        self.ids = species_ids(cardset)

    def fresh_memo(self) -> Memo:
        if len(self.memo.answers) > MEMO_LIMIT:
            self.memo = Memo(self.cardset)
        return self.memo


def species_ids(cardset: CardSet) -> dict[str, str]:
    """Species key -> the id a run's rows name it by: the plain id where it names the species
    unambiguously, else the qualified key, as records and forest files write them."""
    return {k: species_ident(cardset, sp) for k, sp in cardset.species.items()}


@lru_cache(maxsize=2)
def shelf(edition: str, expansions: tuple[str, ...], roots: tuple[str, ...],
          expected: Fingerprint) -> Shelf:
    """The card set as this worker finds it: the author's folders of the run, then the editions
    shipped with the grove installed here (which on a cluster's machine lie elsewhere)."""
    cardset = build(edition, expansions, search_path(roots, env={}))
    found = fingerprint(cardset)
    if found != expected:  # another machine of a cluster, or files changed since the start
        raise RuntimeError(f"this worker reads other card files for {edition} than the run "
                           f"started with ({dict(found)} against {dict(expected)})")
    return Shelf(cardset)


def start_worker(lifeline: Connection | None = None) -> None:
    """A pool's initializer. Ctrl-C reaches every process of the terminal's group, and the main
    process alone decides what it means (write what is finished, then stop), so the worker
    ignores it. `lifeline` is the reading end of a pipe whose only writing end the main process
    holds: when that process dies, even by SIGKILL, the read ends and so does the worker.

    Without it a pool outlives a killed run for good: each worker waits on a queue whose
    writing end it holds itself, and the fork server and resource tracker wait on the workers.
    (PR_SET_PDEATHSIG would watch the fork server, the workers' parent, not the run.)"""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if lifeline is not None:
        threading.Thread(target=_die_with_the_run, args=(lifeline,), daemon=True,
                         name="grove-lifeline").start()


def _die_with_the_run(lifeline: Connection) -> None:
    """Wait (no CPU: a blocked read) until the main process's end of the pipe closes."""
    try:
        while True:
            lifeline.recv_bytes()  # nothing is ever sent
    except (EOFError, OSError):
        pass
    os._exit(ORPHANED)


def play_chunk(plan: Plan, chunk: Chunk, expected: Fingerprint) -> Batch:
    sh = shelf(plan.edition, plan.expansions, plan.roots, expected)
    games: dict[str, list[Any]] = {c: [] for c in game_columns(sh.cardset.scorepad)}
    cards: dict[str, list[Any]] = {c: [] for c in CARD_COLUMNS}
    failed: list[Failure] = []
    with batch_collector():  # the collector set for many games (simulation/collector.py)
        for index in range(chunk.start, chunk.stop):
            seed, seating = plan.game_seed(index), plan.seating(index)
            try:
                play_game(sh, index, seed, seating, games, cards)
            except Exception as exc:  # noqa: BLE001 - any engine failure is reported, not raised
                failed.append(Failure(index, seed, seating, f"{type(exc).__name__}: {exc}"))
    return Batch(chunk, games, cards, tuple(failed))


def play_game(sh: Shelf, index: int, seed: int, seating: tuple[str, ...],
              games: dict[str, list[Any]], cards: dict[str, list[Any]]) -> None:
    """Play one game and append its rows. The game and the players are made as `grove play`
    makes them (`engine/runner.py`), so `grove play --ai <seating> --seed <seed>` replays it;
    it keeps no events, which no row reads (the same game, without its log)."""
    cs = sh.cardset
    game = Game(cs, [f"P{i + 1}" for i in range(len(seating))], seed, memo=sh.fresh_memo(),
                events=False)
    try:
        _play_into(sh, index, seed, seating, game, games, cards)
    finally:
        game.release()  # freed now, not left to the collector (`Forest.release`)


def _play_into(sh: Shelf, index: int, seed: int, seating: tuple[str, ...], game: Game,
               games: dict[str, list[Any]], cards: dict[str, list[Any]]) -> None:
    """Play the game to its end and append its rows."""
    cs = sh.cardset
    players = seats(list(seating), seed)
    game.play_out(players)
    views = game.views()
    scores = [score(v, cs, cards=True) for v in views]
    best = max(s.total for s in scores)
    turns = game.turn + 1
    for seat, (view, ps, ai) in enumerate(zip(views, scores, seating, strict=True), 1):
        won = ps.total == best
        games["game"].append(index)
        games["seed"].append(seed)
        games["seat"].append(seat)
        games["ai"].append(ai)
        games["total"].append(ps.total)
        for row, column in sh.rows:
            games[column].append(ps.by_category.get(row, 0))
        games["winner"].append(won)
        games["turns"].append(turns)
        copies: dict[str, int] = {}
        points: dict[str, int] = {}
        for placed, cs_ in zip(view.cards, ps.cards, strict=True):
            key = placed.key
            if key is None:  # a sapling: no species
                continue
            copies[key] = copies.get(key, 0) + 1
            points[key] = points.get(key, 0) + cs_.points
        if view.cave_card is not None:
            key = view.cave_card.key
            copies[key] = copies.get(key, 0) + 1
            points[key] = points.get(key, 0) + cave_card_points(view)
        for key in sorted(copies):
            cards["game"].append(index)
            cards["seat"].append(seat)
            cards["ai"].append(ai)
            cards["species"].append(sh.ids[key])
            cards["copies"].append(copies[key])
            cards["points"].append(points[key])
            cards["winner"].append(won)
