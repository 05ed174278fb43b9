"""One worker's job: play a chunk of games and hand back their rows.

A worker process keeps the card set, with one engine memo that every game it plays shares
(`engine/memo.py`: the memo changes no answer, only how often it is worked out): a worker forked
from the run is handed the run's own (`start_worker`); any other reads it once, from the on-disk
cache of compiler/cache.py. Rows come back as plain lists, so a worker never
imports pyarrow and a chunk's result pickles small.

A game the engine cannot finish (an exception) is reported with its index and seed, which replay
it with `grove play`; it is not played again, since it would fail again.
"""

from __future__ import annotations

import os
import signal
import threading
from dataclasses import dataclass
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


ShelfKey = tuple[str, tuple[str, ...], tuple[str, ...], Fingerprint]  # what `shelf` is asked


class Shelves:
    """The card sets this process keeps between chunks, by what a chunk asks for: one a run, and
    a Dask worker that plays for two runs at once (on threads of its own) keeps two."""

    def __init__(self, size: int = 2):
        self.size = size
        self.kept: dict[ShelfKey, Shelf] = {}
        self.lock = threading.Lock()

    def get(self, key: ShelfKey) -> Shelf | None:
        return self.kept.get(key)

    def keep(self, key: ShelfKey, sh: Shelf) -> None:
        with self.lock:
            if key not in self.kept and len(self.kept) >= self.size:
                del self.kept[next(iter(self.kept))]  # the oldest
            self.kept[key] = sh


# this process's card sets: a worker's between chunks, the run's own for `--jobs 1` and for
# workers forked from the run (`start_worker`)
SHELVES = Shelves()


def shelf_key(plan: Plan, expected: Fingerprint) -> ShelfKey:
    return plan.edition, plan.expansions, plan.roots, expected


def shelf(plan: Plan, expected: Fingerprint) -> Shelf:
    """The card set as this process finds it: one it was handed for the run, or one it reads
    from the author's folders of the run, then the editions shipped with the grove installed
    here (which on a cluster's machine lie elsewhere)."""
    key = shelf_key(plan, expected)
    sh = SHELVES.get(key)
    if sh is None:
        cardset = build(plan.edition, plan.expansions, search_path(plan.roots, env={}))
        found = fingerprint(cardset)
        if found != expected:  # another machine of a cluster, or files changed since the start
            raise RuntimeError(f"this worker reads other card files for {plan.edition} than "
                               f"the run started with ({dict(found)} against {dict(expected)})")
        sh = Shelf(cardset)
        SHELVES.keep(key, sh)
    return sh


def own_shelf(plan: Plan, cardset: CardSet) -> tuple[ShelfKey, Shelf]:
    """The run's own card set as `shelf` finds it for `plan`: kept in the run's process for
    `--jobs 1`, and handed to workers forked from it (`start_worker`), so neither reads it
    again."""
    return shelf_key(plan, fingerprint(cardset)), Shelf(cardset)


def start_worker(lifeline: Connection | None = None, forked: Inherited | None = None) -> None:
    """A pool's initializer. Ctrl-C reaches every process of the terminal's group, and the main
    process alone decides what it means (write what is finished, then stop), so the worker
    ignores it; SIGTERM ends it (a forked worker would otherwise keep the run's handler, which
    only sets a flag). `lifeline` is the reading end of a pipe whose only writing end the main
    process holds: when that process dies, even by SIGKILL, the read ends and so does the
    worker.

    Without it a pool outlives a killed run for good: each worker waits on a queue whose
    writing end it holds itself, and the fork server and resource tracker wait on the workers.
    (PR_SET_PDEATHSIG would watch the fork server, the workers' parent, not the run.)

    `forked`, for a worker forked from the run: the copy of the run's writing end that the fork
    gave it, closed here (else the pipe never ends while this worker lives), and the run's card
    set, kept for its chunks."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if forked is not None:
        forked.runs_end.close()
        SHELVES.keep(forked.key, forked.shelf)
    if lifeline is not None:
        threading.Thread(target=_die_with_the_run, args=(lifeline,), daemon=True,
                         name="grove-lifeline").start()


@dataclass(frozen=True)
class Inherited:
    """What a worker forked from the run takes from it: never pickled, copied by the fork."""

    runs_end: Connection  # the run's end of the lifeline
    key: ShelfKey
    shelf: Shelf


def _die_with_the_run(lifeline: Connection) -> None:
    """Wait (no CPU: a blocked read) until the main process's end of the pipe closes."""
    try:
        while True:
            lifeline.recv_bytes()  # nothing is ever sent
    except (EOFError, OSError):
        pass
    os._exit(ORPHANED)


def play_chunk(plan: Plan, chunk: Chunk, expected: Fingerprint) -> Batch:
    sh = shelf(plan, expected)
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
    it keeps its events, the referee's account of which cards came into each hand and what
    each play was paid with, for the `drawn` and `paid` columns (noting them costs no
    measurable time: 1.0% either way, within the noise, over 160 games of greedy against
    random)."""
    cs = sh.cardset
    game = Game(cs, [f"P{i + 1}" for i in range(len(seating))], seed, memo=sh.fresh_memo(),
                events=True)
    try:
        _play_into(sh, index, seed, seating, game, games, cards)
    finally:
        game.release()  # freed now, not left to the collector (`Forest.release`)


def _play_into(sh: Shelf, index: int, seed: int, seating: tuple[str, ...], game: Game,
               games: dict[str, list[Any]], cards: dict[str, list[Any]]) -> None:
    """Play the game to its end and append its rows."""
    cs = sh.cardset
    players = seats(list(seating), seed)
    dealt = [list(p.hand) for p in game.players]  # before any decision is answered
    game.play_out(players)
    drew, spent = drawn(sh, game, dealt), paid(game)
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
        held, payments = drew[seat - 1], spent[seat - 1]
        for key in sorted(copies.keys() | held.keys()):
            cards["game"].append(index)
            cards["seat"].append(seat)
            cards["ai"].append(ai)
            cards["species"].append(sh.ids[key])
            cards["copies"].append(copies.get(key, 0))
            cards["points"].append(points.get(key, 0))
            cards["winner"].append(won)
            # a copy in the forest was drawn, whatever way it came there
            cards["drawn"].append(max(held.get(key, 0), copies.get(key, 0)))
            cards["paid"].append(payments.get(key, 0))


def drawn(sh: Shelf, game: Game, dealt: list[list[int]]) -> list[dict[str, int]]:
    """For each seat, species key -> the cards bearing it that came into that seat's hand or
    forest: dealt, drawn from the deck, taken from the clearing, gained by an effect, played
    from anywhere, and its drafted cave card. Read from the game's own events (the referee's
    account), never from a seat's view, which does not see every card. A card with two halves
    of one species counts once."""
    cards: list[set[int]] = [set(hand) for hand in dealt]
    caves: list[list[str]] = [[] for _ in dealt]
    for ev in game.events:
        if ev.player < 0:
            continue
        if ev.kind == "move" and ev.target == "hand":
            cards[ev.player].update(ev.cards)
        elif ev.kind == "play" and ev.cards:
            cards[ev.player].add(ev.cards[0])
        elif ev.kind == "cave_card":
            caves[ev.player].append(ev.species)
    halves = game.memo.halves
    out: list[dict[str, int]] = []
    for held, cave in zip(cards, caves, strict=True):
        count: dict[str, int] = {}
        for c in held:
            for key in {sp.key for sp, _, _ in halves[c]}:
                count[key] = count.get(key, 0) + 1
        for key in cave:
            count[key] = count.get(key, 0) + 1
        out.append(count)
    return out


def paid(game: Game) -> list[dict[str, int]]:
    """For each seat, species key -> the cards its player paid to play that species' copies,
    read from the game's events: a play's `pay` event (its payment, into the clearing) comes
    just before the play it pays for; a play with none (a cost of 0, a free play) paid 0."""
    out: list[dict[str, int]] = [{} for _ in game.players]
    owing = [0 for _ in game.players]  # each seat's payment not yet matched to its play
    for ev in game.events:
        if ev.player < 0:
            continue
        if ev.kind == "pay":
            owing[ev.player] = len(ev.cards)
        elif ev.kind == "play":
            if ev.species:  # a face-down card is no species' play
                count = out[ev.player]
                count[ev.species] = count.get(ev.species, 0) + owing[ev.player]
            owing[ev.player] = 0
    return out
