"""What is known of where card halves fit at one host, and in one forest, as `grove/engine/live.py`
keeps it: the answers themselves, apart from the bookkeeping that keeps them current.

A host's answers (`HostFits`) are shared through the card set's memo (`grove/engine/memo.py`) by the
hosts that answer alike: by how full they are where no placement rule is in play (`fullness`), by
the cards on one side where no rule reaches beyond its own slot (`side_content`), and otherwise by
everything the host holds. A half's answer in one forest (`Where`) is kept per host and joined.
"""

from __future__ import annotations

from collections.abc import Sequence

from grove.compiler.cardset import Species
from grove.engine.action import slot_label
from grove.forest.host import Host

# what decides where a half fits at a host: the half itself (its species key, tree symbol and
# side), or only its side and whether it needs water (and is a dweller with that side) where no
# placement rule is in play. Spelt as a string, which keeps its hash: a turn looks keys up a few
# hundred times a game, and a tuple hashes every item again each time
FitKey = str


class Fit:
    """The slots of one side of a host that a half fits, and their labels at each host index:
    one per side and slots in a card set's memo, so a label is spelt once for all its games."""

    __slots__ = ("side", "ids", "labels")

    def __init__(self, side: str, ids: tuple[str, ...]):
        self.side = side
        self.ids = ids
        self.labels: list[tuple[str, ...] | None] = []  # by host index, spelt when first asked

    def at(self, hi: int) -> tuple[str, ...]:
        """`<side> <host>.<slot>` for each slot, at host index hi."""
        labels = self.labels
        if hi < len(labels):
            here = labels[hi]
            if here is not None:
                return here
        else:
            labels.extend([None] * (hi + 1 - len(labels)))
        here = labels[hi] = tuple([slot_label(self.side, hi, sid) for sid in self.ids])
        return here


Answers = dict[FitKey, Fit]


def fullness(host: Host) -> tuple:
    """All that decides where a half without rules fits at a host without rules."""
    return (host.kind.id, tuple(map(len, host.slots.values())))


def side_content(host: Host, side: str) -> tuple:
    """All that decides where a half fits on one side of a host where no rule reaches beyond
    its own slot (what `placement.fit_key` reads of each slot there, and more): the host's kind
    and card, and the cards in each slot of that side."""
    card = host.card
    return ("side", host.kind.id, card.key, card.symbol, side,
            tuple([tuple([(c.key, c.symbol) for c in host.slots[s.id]])
                   for s in host.kind.slots if s.side == side]))


class HostFits:
    """Where halves fit at one host of a live view, as far as asked (a new one per change)."""

    __slots__ = ("host", "plain", "wide", "mixed", "exact", "unmixed", "by_side")

    def __init__(self, host: Host, plain: Answers | None, wide: bool = False,
                 mixed: frozenset[str] = frozenset()):
        self.host = host
        # half without rules -> ids of the slots it fits, shared by hosts as full; None where
        # a card at the host has a placement rule
        self.plain = plain
        self.wide = wide  # a card at the host has a rule that reads beyond its own slot
        # sides where a half without rules may meet one here (a card with a rule in a slot of
        # that side, or a rule that reaches the whole host): elsewhere only `accepts` counts
        self.mixed = mixed
        # half -> the same, shared by hosts with the same content; looked up when first needed
        self.exact: Answers | None = None
        # side -> as `exact`, shared by hosts with the same cards on that side (`side_content`):
        # where no rule here reaches beyond its own slot, a slot's answer reads no more
        self.by_side: dict[str, Answers] | None = None
        # as `plain`, for the sides not `mixed` of a host with rules: a half without rules
        # meets none there, so it fits as at a host without rules as full
        self.unmixed: Answers | None = None


class Half:
    """One card half as the engine asks where it fits, with what decides that worked out once."""

    __slots__ = ("sp", "sym", "side", "exact", "plain", "ruled", "wide")

    def __init__(self, sp: Species, sym: str | None, side: str, ruled: bool, wide: bool):
        self.sp = sp
        self.sym = sym
        self.side = side
        self.exact: FitKey = f"{sp.key}\0{sym}\0{side}"
        # what `accepts` reads: all a half that places plainly needs where it meets no rule
        # (no species key is empty, so an exact key never begins as this one does)
        self.plain: FitKey = (f"\0{side}\0{sp.water}\0"
                              f"{sp.kind == 'dweller' and side in sp.sides}")
        self.ruled = ruled  # the half's own rule bears on where it goes
        self.wide = wide  # ... and may read beyond its own slot


class Where:
    """Where one half fits in one forest: per host, then all together."""

    __slots__ = ("changed", "seen", "parts", "all")

    def __init__(self, changed: Sequence[int]):
        # the forest's changes on the half's side (`Live.changes`), and how many of them these
        # answers include: they hold while the two are equal
        self.changed = changed
        self.seen = len(changed)
        self.parts: list[tuple[str, ...]] = []  # per host, the `<side> <host>.<slot>` it fits
        self.all: tuple[str, ...] = ()
