"""The operations a compiled effect asks for, as values: what `EffectContext` queues.

Compiled rules never decide anything themselves (grove/compiler/codegen.py): each action of a card
calls a method of the context it is given (`draw`, `move`, `free_play`, ...), and `Ctx` keeps
each call as a small frozen value with named fields. grove/engine/effects.py then settles them in
order, dispatching by type; the operations live apart from it so they can be read and tested
without the generators that carry them out.
"""

from __future__ import annotations

from dataclasses import dataclass

from grove.compiler.codegen import AmountFn, Pred
from grove.forest.host import Placed
from grove.forest.model import Forest


# ---- the operations a compiled action asks for ------------------------------------------------
@dataclass(frozen=True, slots=True)
class Draw:
    """Draw `n` cards from the deck, up to the hand limit."""

    n: int


@dataclass(frozen=True, slots=True)
class DrawSplit:
    """Draw `n` cards past the hand limit, then put `to_cave` of the drawn ones into the cave."""

    n: int
    to_cave: int


@dataclass(frozen=True, slots=True)
class Move:
    """Move cards that match `pred` from one zone to another, as many as `amount` says; with
    `draw_as_many`, draw as many cards as were moved."""

    amount: AmountFn
    pred: Pred
    source: str  # "deck", "hand", "clearing", "cave", "removed"
    target: str
    draw_as_many: bool


@dataclass(frozen=True, slots=True)
class ExtraTurn:
    """Take another turn after this one."""


@dataclass(frozen=True, slots=True)
class FreePlay:
    """Play hand cards that match `pred` for free; `with_effect` runs their effects too."""

    amount: AmountFn
    pred: Pred
    with_effect: bool


@dataclass(frozen=True, slots=True)
class Rummage:
    """Place a clearing card that matches `pred` for free, revealing up to `reveal` cards while
    none is there."""

    pred: Pred
    reveal: int


@dataclass(frozen=True, slots=True)
class PlayAs:
    """Play hand cards that match `pred` face down as hosts of kind `host`."""

    amount: AmountFn
    pred: Pred
    host: str


@dataclass(frozen=True, slots=True)
class PlayPaying:
    """Place further hand cards paying their costs, then resolve them in order (the Mole)."""


Op = Draw | DrawSplit | Move | ExtraTurn | FreePlay | Rummage | PlayAs | PlayPaying
_EXTRA_TURN = ExtraTurn()
_PLAY_PAYING = PlayPaying()


class Ctx:
    """What a compiled action sees: the card and its forest; what it asks for is queued."""

    __slots__ = ("card", "forest", "ops")

    def __init__(self, card: Placed, forest: Forest):
        self.card = card
        self.forest = forest
        self.ops: list[Op] = []

    def draw(self, n: int) -> None:
        self.ops.append(Draw(n))

    def draw_split(self, n: int, to_cave: int) -> None:
        self.ops.append(DrawSplit(n, to_cave))

    def move(self, amount: AmountFn, pred: Pred, source: str, target: str,
             draw_as_many: bool) -> None:
        self.ops.append(Move(amount, pred, source, target, draw_as_many))

    def extra_turn(self) -> None:
        self.ops.append(_EXTRA_TURN)

    def free_play(self, amount: AmountFn, pred: Pred, with_effect: bool) -> None:
        self.ops.append(FreePlay(amount, pred, with_effect))

    def rummage(self, pred: Pred, reveal: int) -> None:
        self.ops.append(Rummage(pred, reveal))

    def play_as(self, amount: AmountFn, pred: Pred, host: str) -> None:
        self.ops.append(PlayAs(amount, pred, host))

    def play_paying(self) -> None:
        self.ops.append(_PLAY_PAYING)
