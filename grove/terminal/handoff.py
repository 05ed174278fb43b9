"""Where the engine's thread and the screen's meet (the full screen, app.py): the one object
both threads touch.

The engine plays in a worker thread and asks a person's seat to `choose`; `ScreenPlayer` has the
screen show the decision (`call_from_thread` waits until it is drawn) and waits for the answer,
which the screen puts whole: a play with the river card and the payment settled beforehand
(grove/seatview/picking.py). The player keeps the rest of it and answers the decisions that
follow with it, in the engine's thread alone. Stopping (q, y; Ctrl-C; the screen closing) is
seen by a waiting player at once and, while an AI is choosing, after that action (`check`);
either raises `engine.human.Quit` in the engine's thread, which ends the record with its stop line.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Sequence
from typing import Any

from grove.engine.action import Action
from grove.engine.decision import Decision
from grove.engine.human import Quit
from grove.engine.seat import Seat
from grove.seatview.picking import next_queued

QUIT = object()  # the answer that stops the game


class Handoff:
    """The answers the screen hands the engine, and whether the person stopped the game."""

    def __init__(self) -> None:
        self._answers: queue.Queue[Any] = queue.Queue()
        self._stopping = threading.Event()

    def answer(self, actions: Sequence[Action]) -> None:
        """The screen's side: a decision's answer, with what it brings (at least one action)."""
        self._answers.put(list(actions))

    def stop(self) -> None:
        """Either side: the game stops, whoever is waiting or choosing."""
        self._stopping.set()
        self._answers.put(QUIT)

    def check(self) -> None:
        """The engine's side, between actions: stopped, the game ends here."""
        if self._stopping.is_set():
            raise Quit("the player stopped the game")

    def wait(self) -> list[Action]:
        """The engine's side: the next answer, waited for."""
        answer = self._answers.get()
        if answer is QUIT:
            raise Quit("the player stopped the game")
        return answer


class ScreenPlayer:
    """A human seat on the screen: each decision shown (`offer`, called in the screen's thread)
    and the person's answer awaited; the rest of a confirmed play answers what follows."""

    def __init__(self, handoff: Handoff, offer: Callable[[Seat, Decision], None],
                 call: Callable[..., Any]):
        self.handoff, self.offer, self.call = handoff, offer, call
        self.queued: list[Action] = []  # the rest of a confirmed play: its river, its payment

    def choose(self, seat: Seat, decision: Decision) -> Action:
        self.handoff.check()
        action = next_queued(self.queued, decision)
        if action is not None:
            return action
        self.call(self.offer, seat, decision)
        first, *self.queued = self.handoff.wait()
        return first
