"""A person's seat at the browser table: the twin of the terminal's `ScreenPlayer`.

`RemotePlayer.choose` runs in the match's engine thread. It publishes every seat's table, then
waits on the match's inbox for what the event loop hands it: a person's answer (checked here,
against the decision the game asks, before the game sees it), a question to answer in this
thread (a rehearsal, a hint), or the stop. An answer may carry the steps a play brings with it
(its river card, its payment), settled in the browser before it was confirmed: they wait in
the seat's queue and answer the decisions that follow, as the terminal's confirmed play does.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Protocol

from grove.engine.action import Action
from grove.engine.decision import Decision
from grove.engine.human import Quit
from grove.engine.seat import Seat
from grove.seatview.picking import next_queued
from grove.seatview.steps import rehearse, rehearsed

MOST_ACTIONS = 12  # a play with its river card and its payment takes no more


@dataclass(frozen=True)
class Answer:
    seat: int
    texts: tuple[str, ...]
    state: int | None  # the table the person answered (its `state`); None: whatever stands
    done: Future
    at: float = 0.0  # when the server got it (time.perf_counter)


@dataclass(frozen=True)
class Ask:
    fn: Callable[[], Any]
    done: Future


@dataclass(frozen=True)
class Stop:
    pass


class Host(Protocol):
    """What a person's seat needs of its match (grove/serve/matches.py `Match`)."""

    inbox: queue.Queue[Any]
    queued: dict[int, list[Action]]
    waiting: tuple[int, Decision] | None
    answered_at: float | None
    answered_cpu: float

    def publish(self, waiting: tuple[int, Decision] | None = None) -> None: ...


class RemotePlayer:
    """Seat `seat` of a match, played from a browser (or any client of the HTTP API)."""

    drawing = False  # nothing to draw again when a game is resumed: a person's actions are taken

    def __init__(self, match: Host, seat: int):
        self.match, self.seat = match, seat

    def choose(self, seat: Seat, decision: Decision) -> Action:
        match = self.match
        queued = match.queued.setdefault(self.seat, [])
        action = next_queued(queued, decision)  # the rest of a play confirmed whole
        if action is not None:
            return action
        match.publish((self.seat, decision))
        while True:
            item = match.inbox.get()
            if isinstance(item, Stop):
                raise Quit("the server stops")
            if isinstance(item, Ask):
                settle(item)
                continue
            try:
                actions = taken(seat, decision, item.seat, item.texts, item.state)
            except Unfit as exc:
                item.done.set_result(str(exc))
                continue
            queued[:] = actions[1:]
            match.answered_at, match.answered_cpu = item.at, time.thread_time()
            match.waiting = None
            item.done.set_result(None)
            return actions[0]


def settle(item: Ask) -> None:
    try:
        item.done.set_result(item.fn())
    except Exception as exc:  # said to the one who asked; the game goes on
        item.done.set_exception(exc)


class Unfit(ValueError):
    """An answer the decision cannot take, and why (said to the person, the game unchanged)."""


def taken(seat: Seat, decision: Decision, who: int, texts: tuple[str, ...],
          state: int | None) -> list[Action]:
    """The actions an answer stands for, each checked: it must be this seat's decision, for the
    table it answers, an action the decision offers, and then the steps that play brings (its
    river card, its payment), each one the rehearsed play asks for there."""
    if who != decision.player:
        raise Unfit("it is not your decision")
    if state is not None and state != seat.state:
        raise Unfit("the table has changed since; look again")
    if not texts or len(texts) > MOST_ACTIONS:
        raise Unfit(f"give one action, or a play with its steps ({MOST_ACTIONS} at most)")
    first = texts[0]
    if first not in decision.options:
        raise Unfit(f"{first!r} is not one of the actions offered now")
    action = decision.read(first)
    if len(texts) == 1:
        return [action]
    if decision.kind == "pay":  # the cards of a payment the game asks card by card
        if len(set(texts)) != len(texts) or any(t not in decision.options for t in texts):
            raise Unfit("pay with cards the payment offers, each once")
        return [decision.read(t) for t in texts]
    if not rehearsed(decision, action):
        raise Unfit(f"{first!r} brings no further steps to answer with it")
    answers: list[Action] = []
    for text in texts[1:]:
        asked = rehearse(seat, action, answers, decision)
        if asked is None:
            raise Unfit(f"the play is settled before {text!r}")
        if text not in asked.options:
            raise Unfit(f"{text!r} is not one of the actions the play asks for there")
        answers.append(asked.read(text))
    return [action, *answers]
