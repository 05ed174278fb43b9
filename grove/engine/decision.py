"""What a player must choose now: a `Decision`, and the actions it offers as texts and values.

A decision is answered with one of its actions. The engine offers its actions as texts (what a
record keeps; grove/engine/action.py spells them) and reads only the one chosen into a value, so these
are sequences over texts: `Offers` keeps a turn's texts as runs of a card's prefix and where its
half fits, spelt only when read, and `Offered` reads each text into its action when it is looked
at.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import overload

from grove.engine.action import Action, ActionTable, parse


@dataclass(slots=True)
class Decision:
    """What a player must choose now: the actions that may answer it, as their texts (what a
    record holds; the engine offers thousands a game) and as values (`actions`).

    Not frozen, though nothing changes one: a game asks hundreds of decisions, and a frozen
    dataclass is built at five times the cost."""

    player: int
    kind: str  # "turn", "draw", "pay", "choose", "place", "optional", "river", "cave",
    # "redraw" (the set-up's redraw of a hand without a tree)
    options: Sequence[str]  # a tuple, or `Offers` for a turn
    about: str = ""
    table: ActionTable | None = field(default=None, repr=False, compare=False)

    @property
    def actions(self) -> Offered:
        """The actions offered, each read from its text when it is first looked at."""
        return Offered(self.options, self.table.read if self.table is not None else parse)

    def read(self, text: str) -> Action:
        """The action one of the decision's texts stands for."""
        return self.table.read(text) if self.table is not None else parse(text)


class Offers(Sequence[str]):
    """A decision's texts kept as runs of `prefix + label`, spelt only as they are read.

    A turn offers dozens of plays, most of them one card's half into each slot it fits
    (`play 7 left ` + `0.left`), and a random player reads one: the runs are what the engine
    has anyway (a card's prefix, where its half fits), so offering them costs a list of pairs.
    A run's labels are texts themselves where its prefix is empty; each run carries its count,
    which the turn knew as it made the run, so reading a text by position calls no `len()`."""

    __slots__ = ("runs", "n", "picked", "_texts")

    def __init__(self, runs: list[tuple[str, Sequence[str], int]], n: int | None = None):
        """`runs`: (prefix, labels, how many labels); `n`: how many texts the runs hold, where
        the caller counted them as it made them."""
        self.runs = runs
        # how many texts, read as an attribute by the turn and the random player: `len()` of
        # an `Offers` reaches `__len__` only by way of C
        self.n = sum([m for _, _, m in runs]) if n is None else n
        # the text last read by position: offered, so a random player's answer is checked
        # without a search (`__contains__`, and `Game.play_out` without the call `in` makes)
        self.picked: str | None = None
        self._texts: tuple[str, ...] | None = None  # every text, once all were read

    def __len__(self) -> int:
        return self.n

    @overload
    def __getitem__(self, k: int) -> str: ...
    @overload
    def __getitem__(self, k: slice) -> tuple[str, ...]: ...

    def __getitem__(self, k: int | slice) -> str | tuple[str, ...]:
        if isinstance(k, slice):
            return self.texts()[k]
        if k < 0:
            k += self.n
        if not 0 <= k < self.n:
            raise IndexError("offer index out of range")
        return self.at(k)

    def at(self, k: int) -> str:
        """Text k (0 <= k < n): `offers[k]` without the way through C that a subscript takes
        to a method written in Python (a random player reads one text a turn)."""
        for prefix, labels, m in self.runs:
            if k < m:
                text = self.picked = prefix + labels[k]
                return text
            k -= m
        raise AssertionError("unreachable: the runs hold n texts")

    def texts(self) -> tuple[str, ...]:
        """Every text, spelt once: a player that weighs them all reads them all."""
        if self._texts is None:
            self._texts = tuple([prefix + label if prefix else label
                                 for prefix, labels, _ in self.runs for label in labels])
        return self._texts

    def __iter__(self) -> Iterator[str]:
        return iter(self.texts())

    def __contains__(self, text: object) -> bool:
        # the text a player just picked by position is offered: a random player's answer is
        # checked without a search
        if text is not None and text == self.picked:
            return True
        if self._texts is not None:
            return text in self._texts
        if not isinstance(text, str):
            return False
        return any(text.startswith(prefix) and text[len(prefix):] in labels
                   for prefix, labels, _ in self.runs)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Offers | tuple):
            return tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


class Offered(Sequence[Action]):
    """A decision's actions in order, read from their texts only as they are looked at: a player
    that picks one reads one."""

    __slots__ = ("texts", "_read")

    def __init__(self, texts: Sequence[str], read: Callable[[str], Action]):
        self.texts = texts
        self._read = read

    def __len__(self) -> int:
        return len(self.texts)

    @overload
    def __getitem__(self, k: int) -> Action: ...
    @overload
    def __getitem__(self, k: slice) -> tuple[Action, ...]: ...

    def __getitem__(self, k: int | slice) -> Action | tuple[Action, ...]:
        if isinstance(k, slice):
            return tuple(map(self._read, self.texts[k]))
        return self._read(self.texts[k])

    def __iter__(self) -> Iterator[Action]:
        return map(self._read, self.texts)

    def __contains__(self, action: object) -> bool:
        return getattr(action, "text", None) in self.texts

    def index(self, action: object, start: int = 0, stop: int = sys.maxsize) -> int:
        text = getattr(action, "text", None)
        if not isinstance(text, str):
            raise ValueError(f"{action!r} is not an action")
        return self.texts.index(text, start, stop)
