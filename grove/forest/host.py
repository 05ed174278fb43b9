"""A host card and the cards placed at it: the parts a forest (`grove/forest/model.py`) is made of.

`Placed` is one card in a forest (a host card, a card beneath a host, a card in a slot) and
`Host` a host card with its slots, keeping what the forest asks of it often (how full it is,
whether a card at it has a placement rule, its cards in slot order, its content as a key)
current as cards join and leave it. Like the forest, they know host kinds and species only by the
few attributes they read (the protocols below), so every room of the house may import them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol


class SlotKind(Protocol):
    id: str
    side: str
    capacity: int


class HostKind(Protocol):
    """What a forest reads of a host kind (`compiler.model.HostKind`)."""

    id: str
    play: str | None
    types: tuple[str, ...]
    category: str

    @property
    def slots(self) -> tuple[SlotKind, ...]: ...
    @property
    def slots_by_id(self) -> dict[str, SlotKind]: ...
    def slot(self, slot_id: str) -> SlotKind | None: ...


class Card(Protocol):
    """What a forest reads of a species (`compiler.cardset.Species`)."""

    key: str
    tags: frozenset[str]
    placement: Any  # a compiled placement rule, or None
    modifier: Any  # a compiled modifier rule, or None
    score: Any  # a compiled score rule, or None

    @property
    def counts_as(self) -> tuple[tuple[int, tuple[str, ...], Callable[..., bool]], ...]: ...


class Placed:
    """One card in a forest: a host card, a card beneath a host, or a card in a host's slot.

    `number` is the physical card's number in a game (None in a forest file) and `turn` the turn
    it entered the forest; `index` is its place in `Forest.cards`."""

    __slots__ = ("species", "key", "score", "symbol", "tags", "host", "slot", "side", "index",
                 "number", "turn", "row")

    def __init__(self, species: Card | None, symbol: str | None, tags: frozenset[str],
                 host: Host | None, slot: str | None, side: str | None,
                 number: int | None = None, turn: int = -1):
        self.species = species
        if species is not None:
            self.key = species.key
            # its species' score rule, read for every card whenever a forest is scored
            self.score = species.score
        else:
            self.key = self.score = None
        self.symbol = symbol
        self.tags = tags
        self.host = host  # None for a card outside any forest (`loose`)
        self.slot = slot  # None for the host card itself
        self.side = side
        self.index = -1
        self.number = number
        self.turn = turn
        # the scorepad row it scores in: its side, or its host's category for a host card and
        # a card beneath one
        self.row = side if side is not None else host.kind.category if host is not None else None

    @property
    def is_host(self) -> bool:
        return self.slot is None

    def __repr__(self) -> str:
        where = "host" if self.slot is None else self.slot
        kind = self.host.kind.id if self.host is not None else "loose"
        return f"Placed({self.key or kind}, {self.symbol}, {where})"


def loose(species: Card, symbol: str | None = None) -> Placed:
    """A card outside any forest (in a hand, the clearing, a cave card), for filters to test."""
    return Placed(species, symbol, species.tags, None, None, None)


class Host:
    """A host card with its slots; what a forest precomputes per host is kept current with it."""

    __slots__ = ("kind", "card", "slots", "index", "beneath", "_attached", "is_full", "empty",
                 "_sides", "has_rules", "_content", "_before")

    def __init__(self, kind: HostKind, index: int):
        self.kind = kind
        self.index = index
        self.card: Placed = None  # type: ignore[assignment]  # set right after construction
        self.slots: dict[str, list[Placed]] = {s.id: [] for s in kind.slots}
        # a face-down card played beneath the host card (a tree's universal river)
        self.beneath: list[Placed] = []
        self._attached: tuple[Placed, ...] | None = None
        self.is_full = False
        self.empty = len(kind.slots)  # slots holding no card
        self.has_rules = False  # a card here has a placement rule (sharing, limits, overrides)
        self._sides: dict[str, list[Placed]] | None = None
        self._content: tuple | None = None  # see `content`
        # the card last put in, and what was kept before it came (see `_grew`)
        self._before: tuple | None = None

    @property
    def sides(self) -> dict[str, list[Placed]]:
        """The cards in the slots of each side, in slot order (worked out when first read)."""
        if self._sides is None:
            sides: dict[str, list[Placed]] = {"top": [], "bottom": [], "left": [], "right": []}
            for sdef in self.kind.slots:
                sides.setdefault(sdef.side, []).extend(self.slots[sdef.id])
            self._sides = sides
        return self._sides

    def attached(self) -> tuple[Placed, ...]:
        """The cards beneath the host card and in its slots, in slot order."""
        # a list, not a generator that tuple() resumes from C: asked of the host of every play
        # a greedy player weighs
        if self._attached is None:
            cards = list(self.beneath)
            for slotted in self.slots.values():
                cards += slotted
            self._attached = tuple(cards)
        return self._attached

    def on_side(self, side: str) -> Iterable[Placed]:
        for s in self.kind.slots:
            if s.side == side:
                yield from self.slots[s.id]

    def content(self) -> tuple:
        """What the host holds, as a key: its kind, its card, the cards beneath it and the cards
        in each slot (species and tree symbol). Hosts with equal content answer alike where a
        card may go and what a card placed there scores. Kept until a card joins or leaves."""
        if self._content is None:
            self._content = (
                self.kind.id, self.card.key, self.card.symbol,
                tuple([(c.key, c.symbol) for c in self.beneath]),
                tuple([tuple([(c.key, c.symbol) for c in cards])
                       for cards in self.slots.values()]))
        return self._content

    @property
    def full(self) -> bool:
        return all(self.slots[s.id] for s in self.kind.slots)

    @contextmanager
    def holding(self, card: Placed) -> Iterator[None]:
        """The host with `card` put last into its slot for a moment, counters untouched: for
        asking whether a card may go there. Only what the host itself answers is current
        inside (its cards, `attached`), not its forest's counters."""
        assert card.slot is not None
        cards = self.slots[card.slot]
        cards.append(card)
        self._attached = None
        self._sides = None
        self._content = None
        try:
            yield
        finally:
            cards.pop()
            self._attached = None
            self._sides = None
            self._content = None

    def _grew(self, card: Placed) -> None:
        """What the host keeps of its cards (`empty`, `is_full`, `has_rules`, the cached
        `attached`, `sides` and `content`), brought up to date for one card just put last into
        its slot. What was cached before is kept aside until the next card: a trial play takes
        the card out again at once (`_shrank`), and the host is as it was."""
        self._before = (card, self._attached, self._sides, self._content)
        self._attached = None
        self._sides = None
        self._content = None
        if len(self.slots[card.slot]) == 1:  # type: ignore[index]
            self.empty -= 1
            self.is_full = not self.empty
        if card.species is not None and card.species.placement is not None:
            self.has_rules = True

    def _shrank(self, card: Placed) -> None:
        """The same as `_grew`, for the last card of its slot just taken out again."""
        before = self._before
        self._before = None
        if before is not None and before[0] is card:  # the host is as before the card came
            _, self._attached, self._sides, self._content = before
        else:
            self._attached = None
            self._sides = None
            self._content = None
        if not self.slots[card.slot]:  # type: ignore[index]
            self.empty += 1
            self.is_full = False
        if card.species is not None and card.species.placement is not None:
            self.has_rules = any(c.species is not None and c.species.placement is not None
                                 for c in (self.card, *self.attached()))


def new_host(kind: HostKind, index: int, species: Card | None, symbol: str | None,
              number: int | None, turn: int, beneath: Iterable[int | None]) -> Host:
    """A host with its own card and, if its kind is played with one, the card beneath it."""
    host = Host(kind, index)
    tags = species.tags if species is not None else frozenset(kind.types) | {kind.id}
    host.card = Placed(species, symbol, tags, host, None, None, number, turn)
    if kind.play == "with_tree":
        under = list(beneath) or [None]
        host.beneath = [Placed(None, None, frozenset(kind.types), host, "beneath", None, n, turn)
                        for n in under]
    # what the host keeps of its cards (see `Host._grew`), with its slots empty: only its own
    # card may carry a placement rule (the cards beneath have no species)
    host.is_full = not host.empty
    host.has_rules = species is not None and species.placement is not None
    return host
