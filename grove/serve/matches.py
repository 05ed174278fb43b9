"""A game the server holds (`Match`), and every game of one server (`Matches`).

A match plays its game as `grove play` does, with `runner.play` in a thread of its own (the
same record, written whole at every moment by `record.Keeper`; the same resume; AIs seeded by
the game's seed and seat). AI seats think in that thread, never on the event loop, so a search
freezes no other table. A person's seat is a `RemotePlayer` (players.py): it publishes every
seat's table and waits on the match's inbox for an answer.

The engine's thread is the only one that reads the game. It words each seat's table after
every action (wire.py) and keeps the JSON; the event loop serves what was kept and hands the
thread answers and questions (a play's payment to rehearse, a hint) through the inbox, so no
two threads ever read the table at once.

A game's settings and its seats' tokens are kept beside its record (`ID.json`, `ID.jsonl` in
the games folder): a server started again on the folder goes on with every game it finds, from
its record, and the links stay the same.
"""

from __future__ import annotations

import collections
import contextlib
import json
import logging
import queue
import re
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from grove.compiler.cardset import CardSet
from grove.engine import ai as ais
from grove.engine import runner
from grove.engine.action import Action
from grove.engine.decision import Decision
from grove.engine.game import Game
from grove.engine.human import Quit
from grove.engine.record import Keeper
from grove.engine.seat import SPECTATOR, Seat
from grove.seatview.view import View
from grove.serve.faces import Shelf
from grove.serve.players import Answer, Ask, RemotePlayer, Stop, settle
from grove.serve.wire import Wire, dumps, table

log = logging.getLogger("grove.serve")

LANGS = ("en", "de", "it", "th")
_ID = re.compile(r"[0-9a-f]{12}")


class Refused(ValueError):
    """A request the server turns down, with the HTTP status it answers and why."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class SeatSetup:
    kind: str  # "human", or the AI spec (a level resolved: what the record keeps)
    name: str
    lang: str
    token: str


@dataclass(frozen=True)
class Setup:
    """What a game was made with, kept beside its record (`ID.json`)."""

    id: str
    edition: str
    with_: tuple[str, ...]
    seed: int
    lang: str
    seats: tuple[SeatSetup, ...]
    spectator: str  # the spectator link's token
    owner: str  # the key of the one who made the game: the lobby shows them its links
    created: float

    @property
    def kinds(self) -> list[str]:
        return [s.kind for s in self.seats]

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["with"] = list(out.pop("with_"))
        out["seats"] = [asdict(s) for s in self.seats]
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Setup:
        return cls(str(obj["id"]), str(obj["edition"]), tuple(obj.get("with") or ()),
                   int(obj["seed"]), str(obj["lang"]),
                   tuple(SeatSetup(**s) for s in obj["seats"]), str(obj["spectator"]),
                   str(obj["owner"]), float(obj.get("created", 0)))


@dataclass
class Match:
    """One game on the server: its thread, its seats' latest tables and its inbox."""

    setup: Setup
    cardset: CardSet
    record: Path
    shelf: Shelf
    resume: list[str] = field(default_factory=list)
    state: str = "starting"  # "running", "finished", "stopped", "failed"
    turn: int = 0
    version: int = 0  # bumped at every table published
    views: dict[int, str] = field(default_factory=dict)  # seat (SPECTATOR too) -> table JSON
    waiting: tuple[int, Decision] | None = None  # the person whose answer the game awaits
    asked_state: int = 0  # ... on the table of this state
    error: str | None = None

    def __post_init__(self) -> None:
        # the server's own time from a person's answer taken to the next table kept, seconds:
        # what `GET /api/stats` and `python -m benchmarks --only serve` read
        self.handled: collections.deque[float] = collections.deque(maxlen=10_000)
        self.answered_at: float | None = None
        # ... and the engine thread's CPU for it (its own work, which a busy machine does not
        # stretch as it stretches the time)
        self.handled_cpu: collections.deque[float] = collections.deque(maxlen=10_000)
        self.answered_cpu = 0.0
        self.inbox: queue.Queue[Any] = queue.Queue()
        self.stopping = threading.Event()
        self.queued: dict[int, list[Action]] = {}
        self.listeners: set[Callable[[], None]] = set()
        self.watchers = 0  # the spectator's sockets open: its table is worded while there are
        self._watch_asked = False  # ... or once more, for one who asked (`watch`)
        self._wording = threading.Lock()  # a finished game's spectator table: worded once
        self.game: Game | None = None
        self._wires: dict[int, Wire] = {}
        self._logs: dict[int, Any] = {}
        self._lines: dict[int, list[str]] = {}
        self._final: dict[int, dict[str, Any]] = {}
        self.thread = threading.Thread(target=self._run, name=f"match-{self.setup.id}",
                                       daemon=True)

    @property
    def people(self) -> list[int]:
        return [i for i, s in enumerate(self.setup.seats) if s.kind == "human"]

    def start(self) -> None:
        self.thread.start()

    # ---- the engine's thread -------------------------------------------------------------------
    def _run(self) -> None:
        kinds = self.setup.kinds
        given = [RemotePlayer(self, i) if k == "human" else None for i, k in enumerate(kinds)]
        keeper = Keeper(str(self.record), floor=len(self.resume), behind=True)
        try:
            out = runner.play(self.cardset, kinds, self.setup.seed,
                              names=[s.name for s in self.setup.seats], record=keeper,
                              on_action=self._acted, on_start=self._started,
                              players=runner.seats(kinds, self.setup.seed, given),
                              resume=self.resume)
        except Exception as exc:  # a game that cannot go on: said on its table, the server goes on
            with contextlib.suppress(OSError):  # its record as far as it was kept
                keeper.close()
            self.state, self.error = "failed", f"{type(exc).__name__}: {exc}"
            log.error("game %s stopped: %s", self.setup.id, self.error)
            self._notify()
            return
        if out.stopped:
            self.state = "stopped"
            return
        self._finished(out)

    def _started(self, game: Game) -> None:
        from grove.game_log import GameLog

        self.game = game
        self.state = "running"
        for s in [*self.people, SPECTATOR]:
            seat = game.seats[s] if s >= 0 else Seat(game, SPECTATOR)
            lang = self.setup.seats[s].lang if s >= 0 else self.setup.lang
            self._wires[s] = Wire(View(seat, lang), self.shelf.of(self.cardset, lang))
            self._wires[s].faces.warm()
            self._logs[s] = GameLog(seat, lang)
            self._lines[s] = []
        d = game.decision
        if not self.resume and d is not None and self.setup.seats[d.player].kind != "human":
            self.publish()  # the table while an AI thinks; a person's decision publishes it

    def _acted(self, game: Game, action: Action) -> None:
        self.turn = game.turn + 1
        if self.stopping.is_set():
            raise Quit("the server stops")
        if len(game.history) < len(self.resume):
            return  # played again from the record: the table is shown where it stands
        d = game.decision
        for s, q in self.queued.items():  # what is left of a play's steps answers no later turn
            if q and (d is None or d.player != s):
                q.clear()
        if d is None or self.setup.seats[d.player].kind != "human":
            self.publish()  # a person's decision publishes the table itself (RemotePlayer)

    def publish(self, waiting: tuple[int, Decision] | None = None) -> None:
        """Every person's and the spectator's table as it stands, kept as JSON; the event loop
        is told. In the engine's thread only."""
        game = self.game
        assert game is not None
        self.waiting = waiting
        self.asked_state = len(game.history)
        watched = self.watchers > 0 or self._watch_asked
        self._watch_asked = False
        for s in self._wires:
            if s != SPECTATOR or watched:
                self._word(s)
            else:  # worded when someone watches (`watch`): most games have no spectator
                self.views.pop(s, None)
        self.version += 1
        if self.answered_at is not None:
            self.handled.append(time.perf_counter() - self.answered_at)
            self.handled_cpu.append(time.thread_time() - self.answered_cpu)
            self.answered_at = None
        self._notify()

    def _word(self, s: int) -> None:
        """Seat s's table as it stands, kept as JSON. In the engine's thread, or once it ended."""
        game = self.game
        assert game is not None
        self._lines[s].extend(self._logs[s].new_lines())
        msg = table(self._wires[s], self._lines[s], game.decision, len(game.history),
                    self._final.get(s), asking=self.waiting is not None and self.waiting[0] == s)
        self.views[s] = dumps(msg)

    def watch(self) -> Future | None:
        """Someone watches as the spectator (asked from the event loop): the spectator's table,
        if it was not kept, is worded where the game stands, by the engine's thread while it
        waits on a person, or at once in a worker thread (the future) once the game is over;
        while an AI thinks, with the table its move brings."""
        if SPECTATOR in self.views or self.game is None:
            return None
        self._watch_asked = True
        if not self.thread.is_alive():
            fut: Future = Future()
            threading.Thread(target=settle, args=(Ask(self._watched, fut),), daemon=True).start()
            return fut
        if self.waiting is not None:
            return self.ask(self._watched)
        return None

    def _watched(self) -> None:
        with self._wording:
            if SPECTATOR not in self.views:
                self._word(SPECTATOR)
        self._notify()

    def _notify(self) -> None:
        for listener in list(self.listeners):
            listener()

    def _finished(self, out: runner.Outcome) -> None:
        from grove import report
        from grove.seatview.view import final_result

        result = final_result(out)
        for s, wire in self._wires.items():
            lang = wire.view.lang
            title, margin = report.final_words(result, lang)
            self._final[s] = {"title": title, "margin": margin,
                              "winners": list(out.winners),
                              "cards": report.final_cards(result, self.cardset, lang)}
        self.state = "finished"
        self.publish()

    # ---- asked from the event loop -------------------------------------------------------------
    def answer(self, seat: int, texts: list[str], state: int | None) -> Future:
        """Hand the game a person's answer: the future says None (taken) or why not."""
        fut: Future = Future()
        self.inbox.put(Answer(seat, tuple(texts), state, fut, time.perf_counter()))
        return fut

    def ask(self, fn: Callable[[], Any]) -> Future:
        """Run `fn` in the engine's thread while it waits on a person: a question that reads
        the game (a rehearsal of a play, a hint)."""
        fut: Future = Future()
        self.inbox.put(Ask(fn, fut))
        return fut

    def wire(self, seat: int) -> Wire:
        return self._wires[seat]

    def stop(self) -> None:
        """Stop the game where it stands: its record ends with a stop line, to go on later."""
        self.stopping.set()
        self.inbox.put(Stop())

    def summary(self, with_links: bool) -> dict[str, Any]:
        s = self.setup
        out: dict[str, Any] = {
            "id": s.id, "edition": s.edition, "with": list(s.with_), "seed": s.seed,
            "lang": s.lang, "state": self.state, "turn": self.turn, "created": s.created,
            "seats": [{"name": x.name, "kind": x.kind, "lang": x.lang} for x in s.seats],
        }
        if with_links:
            out["links"] = links(s)
        return out


def links(s: Setup) -> dict[str, Any]:
    return {"seats": [f"/play/{x.token}" if x.kind == "human" else None for x in s.seats],
            "spectator": f"/watch/{s.spectator}"}


class Matches:
    """The games of one server: made, found by a seat's token, listed, stopped, and read back
    from the games folder when the server starts."""

    def __init__(self, folder: Path, roots: Any, *, most: int = 50):
        self.folder, self.roots, self.most = folder, roots, most
        self.by_id: dict[str, Match] = {}
        self.tokens: dict[str, tuple[Match, int]] = {}
        self.faces = Shelf()  # the card faces of every game here, drawn once a set and language
        self._lock = threading.Lock()

    def running(self) -> int:
        return sum(m.state in ("starting", "running") for m in self.by_id.values())

    def create(self, body: Any, owner: str) -> Match:
        setup, cardset = self._setup(body, owner)
        match = self._add(setup, cardset, [])
        from grove.files.write import write_text

        write_text(self.folder / f"{setup.id}.json", json.dumps(setup.to_json(), indent=1))
        match.start()
        return match

    def _add(self, setup: Setup, cardset: CardSet, resume: list[str]) -> Match:
        match = Match(setup, cardset, self.folder / f"{setup.id}.jsonl", self.faces, resume)
        with self._lock:
            self.by_id[setup.id] = match
            for i, s in enumerate(setup.seats):
                if s.kind == "human":
                    self.tokens[s.token] = (match, i)
            self.tokens[setup.spectator] = (match, SPECTATOR)
        return match

    def seat(self, token: str) -> tuple[Match, int]:
        found = self.tokens.get(token) if isinstance(token, str) else None
        if found is None:
            raise Refused(403, "no seat has this link")
        return found

    def _setup(self, body: Any, owner: str) -> tuple[Setup, CardSet]:
        from grove.compiler import cardset as cs
        from grove.dsl.diagnostics import DiagnosticError

        if not isinstance(body, dict):
            raise Refused(400, "the body is a JSON object: {\"edition\": ..., \"seats\": [...]}")
        if self.running() >= self.most:
            raise Refused(429, f"this server runs {self.most} games at most; wait for one to end")
        edition = body.get("edition", "base")
        with_ = body.get("with", [])
        lang = body.get("lang", "en")
        seed = body.get("seed")
        seats = body.get("seats")
        if not isinstance(edition, str) or not isinstance(with_, list) or not all(
                isinstance(x, str) for x in with_):
            raise Refused(400, "`edition` is a name and `with` a list of names")
        if lang not in LANGS:
            raise Refused(400, f"`lang` is one of {', '.join(LANGS)}")
        if seed is None:
            seed = secrets.randbelow(2**31)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise Refused(400, "`seed` is a whole number from 0, or null for a random one")
        if not isinstance(seats, list) or not 2 <= len(seats) <= 5:
            raise Refused(400, "`seats` lists 2 to 5 seats, each \"human\" or an AI "
                               "(easy, medium, hard, greedy, mcts:2s, ...)")
        made: list[SeatSetup] = []
        for i, seat in enumerate(seats):
            if isinstance(seat, str):
                seat = {"kind": seat}
            if not isinstance(seat, dict) or not isinstance(seat.get("kind"), str):
                raise Refused(400, f"seat {i + 1}: \"human\", an AI, or {{\"kind\": ..., "
                                   "\"name\": ..., \"lang\": ...}}")
            kind = seat["kind"].strip()
            if kind != "human" and (why := ais.problem(kind)):
                raise Refused(400, f"seat {i + 1}: {why}; choose human, easy, medium, hard, "
                                   "random, greedy, mcts, mcts:N or mcts:Ns")
            name = seat.get("name") or (f"{'Player' if kind == 'human' else kind.title()} "
                                        f"{i + 1}")
            seat_lang = seat.get("lang", lang)
            if not isinstance(name, str) or not name.strip() or len(name) > 40 or (
                    not name.isprintable()):
                raise Refused(400, f"seat {i + 1}: a name is 1 to 40 printable characters")
            if seat_lang not in LANGS:
                raise Refused(400, f"seat {i + 1}: `lang` is one of {', '.join(LANGS)}")
            made.append(SeatSetup("human" if kind == "human" else ais.resolve(kind),
                                  name.strip(), seat_lang, secrets.token_urlsafe(18)))
        try:
            cardset = cs.build(edition, tuple(with_), self.roots)
        except DiagnosticError as exc:
            raise Refused(400, "; ".join(d.message for d in exc.diagnostics)) from None
        if cardset.setup.removed_for(frozenset(cardset.expansions), len(made)) is None:
            raise Refused(400, f"{edition} has no set-up for {len(made)} players")
        known = {sp.key for sp in cardset.species.values()} | {
            sp.id for sp in cardset.species.values()}
        for s in made:
            if s.kind != "human" and (missing := ais.unknown_species(s.kind, known)):
                raise Refused(400, f"{s.kind}: the card set has no species {missing!r}")
        setup = Setup(secrets.token_hex(6), edition, tuple(cardset.expansions), seed, lang,
                      tuple(made), secrets.token_urlsafe(18), owner, time.time())
        return setup, cardset

    def load(self) -> list[str]:
        """Every game of the games folder, going on from its record; what could not be read,
        said in a line each (the server goes on without it)."""
        from grove.commands.records import FINISHABLE, replayed
        from grove.dsl.diagnostics import DiagnosticError

        problems = []
        for meta in sorted(self.folder.glob("*.json")):
            if not _ID.fullmatch(meta.stem):
                continue
            try:
                setup = Setup.from_json(json.loads(meta.read_text(encoding="utf-8")))
                path = self.folder / f"{setup.id}.jsonl"
                if not path.is_file():  # made, and stopped before its first line was kept
                    from grove.compiler import cardset as cs

                    cardset = cs.build(setup.edition, setup.with_, self.roots)
                    resume: list[str] = []
                else:
                    r, cardset, _, found, _ = replayed(str(path), self.roots)
                    found = [p for p in found if not p.startswith(FINISHABLE)]
                    if found:
                        raise ValueError(found[0])
                    resume = [a["action"] for a in r.actions]
            except DiagnosticError as exc:
                problems.append(f"{meta}: {exc.diagnostics[0].message}")
                continue
            except (OSError, ValueError, KeyError, TypeError) as exc:
                problems.append(f"{meta}: {exc}")
                continue
            self._add(setup, cardset, resume).start()
        return problems

    def stop_all(self, wait: float = 5.0) -> None:
        for m in list(self.by_id.values()):
            m.stop()
        deadline = time.monotonic() + wait
        for m in list(self.by_id.values()):
            m.thread.join(max(0.0, deadline - time.monotonic()))
