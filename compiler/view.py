"""The read-only forest that compiled rules score: hosts, the cards in their slots, the cave.

Built once per forest per scoring, with the counters that most rules need (by tag, species and
tree symbol) precomputed, so a compiled `2 per bird` is one dictionary lookup. The engine builds
the same view from its game state; the compiler never sees the engine.

A view is read-only to the rules that score it. The engine alone also keeps one view per player
that it grows as cards are placed (`add_host`, `add_card`) instead of building a new one after
every play, and that a player may grow by one card and take back (`remove_card`, `remove_host`)
to weigh a play: each of these leaves the view exactly as `build` would make it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from compiler.model import HostKind

if TYPE_CHECKING:
    from compiler.cardset import Species


class Placed:
    """One visible card in a forest: a host card, or a card in a host's slot."""

    __slots__ = ("species", "key", "symbol", "tags", "host", "slot", "side", "index")

    def __init__(
        self,
        species: Species | None,
        symbol: str | None,
        tags: frozenset[str],
        host: Host,
        slot: str | None,
        side: str | None,
    ):
        self.species = species
        self.key = species.key if species is not None else None
        self.symbol = symbol
        self.tags = tags
        self.host = host
        self.slot = slot  # None for the host card itself
        self.side = side
        self.index = -1

    @property
    def is_host(self) -> bool:
        return self.slot is None

    def __repr__(self) -> str:
        where = "host" if self.slot is None else self.slot
        return f"Placed({self.key or self.host.kind.id}, {self.symbol}, {where})"


class Host:
    __slots__ = ("kind", "card", "slots", "index", "beneath", "_attached", "is_full", "sides",
                 "has_rules")

    def __init__(self, kind: HostKind, index: int):
        self.kind = kind
        self.index = index
        self.card: Placed = None  # type: ignore[assignment]  # set right after construction
        self.slots: dict[str, list[Placed]] = {s.id: [] for s in kind.slots}
        # a face-down card played beneath the host card (a tree's universal river)
        self.beneath: list[Placed] = []
        self._attached: tuple[Placed, ...] | None = None
        self.is_full = False  # set when the view is built: views are read-only
        self.has_rules = False  # a card here has a placement rule (sharing, limits, overrides)
        self.sides: dict[str, list[Placed]] = {}

    def attached(self) -> tuple[Placed, ...]:
        if self._attached is None:
            slotted = tuple(c for cards in self.slots.values() for c in cards)
            self._attached = tuple(self.beneath) + slotted
        return self._attached

    def on_side(self, side: str) -> Iterable[Placed]:
        for s in self.kind.slots:
            if s.side == side:
                yield from self.slots[s.id]

    @property
    def full(self) -> bool:
        return all(self.slots[s.id] for s in self.kind.slots)

    def grew(self, card: Placed) -> None:
        """`settle` for one card just put last into its slot, redoing only what it changes."""
        self._attached = None
        if not self.is_full and len(self.slots[card.slot]) == 1:  # a slot was filled
            self.is_full = self.full
        if card.species is not None and card.species.placement is not None:
            self.has_rules = True
        side = card.side
        assert side is not None
        self.sides[side] = list(self.on_side(side))

    def shrank(self, card: Placed) -> None:
        """`settle` for the last card of its slot just taken out again (see `grew`)."""
        self._attached = None
        if self.is_full and not self.slots[card.slot]:  # type: ignore[index]
            self.is_full = False
        if card.species is not None and card.species.placement is not None:
            self.has_rules = any(c.species is not None and c.species.placement is not None
                                 for c in (self.card, *self.attached()))
        side = card.side
        assert side is not None
        self.sides[side] = list(self.on_side(side))

    def settle(self) -> None:
        """Recompute what a view precomputes per host, after the host's cards changed."""
        self._attached = None
        attached = self.attached()
        self.is_full = self.full
        self.has_rules = any(c.species is not None and c.species.placement is not None
                             for c in (self.card, *attached))
        sides: dict[str, list[Placed]] = {"top": [], "bottom": [], "left": [], "right": []}
        for sdef in self.kind.slots:
            sides.setdefault(sdef.side, []).extend(self.slots[sdef.id])
        self.sides = sides


def _new_host(kind: HostKind, index: int, species: Species | None, symbol: str | None) -> Host:
    """A host with its own card (and the face-down card beneath it, if its kind has one)."""
    host = Host(kind, index)
    tags = species.tags if species is not None else frozenset(kind.types) | {kind.id}
    host.card = Placed(species, symbol, tags, host, None, None)
    if kind.play == "with_tree":
        host.beneath.append(Placed(None, None, frozenset(kind.types), host, "beneath", None))
    return host


@dataclass
class HostSpec:
    """What a forest holds at one host, as the scorer or engine hands it over."""

    kind: HostKind
    species: Species | None
    symbol: str | None
    slots: dict[str, list[tuple[Species, str | None]]]


class ForestView:
    __slots__ = (
        "hosts", "cards", "cave", "tag_count", "species_count", "symbol_count", "others",
        "extra", "name", "memo", "species_tags", "cave_card",
    )

    def __init__(self, hosts: list[Host], cave: int, name: str = "", cave_card=None):
        self.hosts = hosts
        self.cave_card = cave_card  # a drafted cave's Species, scored in the cave row
        self.name = name
        self.cave = cave
        cards: list[Placed] = []
        for h in hosts:
            h.settle()
            cards.append(h.card)
            cards.extend(h.attached())
        for i, c in enumerate(cards):
            c.index = i
        self.cards = cards
        tags: Counter[str] = Counter()
        species: Counter[str] = Counter()
        self.species_tags: dict[str, frozenset[str]] = {}
        symbols: Counter[str] = Counter()
        for c in cards:
            tags.update(c.tags)
            if c.key is not None:
                species[c.key] += 1
                self.species_tags[c.key] = c.tags
            if c.symbol is not None:
                symbols[c.symbol] += 1
        self.tag_count = tags
        self.species_count = species
        self.symbol_count = symbols
        self.others: list[ForestView] = []
        # counts that do not depend on the scoring copy, computed once per view (see codegen)
        self.memo: dict[object, int] = {}
        # owner species key -> [(host card, n)]: the `host counts as n more ...` modifiers
        self.extra: dict[str, list[tuple[Placed, int]]] = {}
        for c in cards:
            if c.species is not None and c.species.counts_as:
                for n, owners, host_pred in c.species.counts_as:
                    hc = c.host.card
                    if c.slot is not None and host_pred(hc, c):
                        for owner in owners:
                            self.extra.setdefault(owner, []).append((hc, n))

    @classmethod
    def build(cls, specs: list[HostSpec], cave: int = 0, name: str = "", cave_card=None
              ) -> ForestView:
        hosts = []
        for i, spec in enumerate(specs):
            host = _new_host(spec.kind, i, spec.species, spec.symbol)
            for slot_id, cards in spec.slots.items():
                side = spec.kind.slot(slot_id).side
                host.slots[slot_id] = [
                    Placed(sp, sym, sp.tags, host, slot_id, side) for sp, sym in cards
                ]
            hosts.append(host)
        return cls(hosts, cave, name, cave_card)

    # ---- growing a view as the engine places cards --------------------------------------------
    def add_host(self, kind: HostKind, species: Species | None, symbol: str | None) -> Host:
        """A new host at the end of the forest, as `build` would lay it out."""
        host = _new_host(kind, len(self.hosts), species, symbol)
        self.hosts.append(host)
        host.settle()
        start = len(self.cards)
        self.cards.append(host.card)
        self.cards.extend(host.beneath)
        self._renumber(start)
        self._tally(host.card, 1)
        for c in host.beneath:
            self._tally(c, 1)
        self.memo.clear()
        return host

    def remove_host(self) -> None:
        """Take back the last host added; it must hold no card in its slots."""
        host = self.hosts[-1]
        if any(host.slots.values()):
            raise ValueError("only a host without cards in its slots can be taken back")
        self.hosts.pop()
        for c in (host.card, *host.beneath):
            self._tally(c, -1)
        del self.cards[host.card.index:]
        self.memo.clear()

    def add_card(self, host_index: int, slot_id: str, species: Species, symbol: str | None
                 ) -> Placed:
        """A card put last into a slot: inserted where `build` would list it, counted."""
        host = self.hosts[host_index]
        sdef = host.kind.slot(slot_id)
        assert sdef is not None, slot_id
        card = Placed(species, symbol, species.tags, host, slot_id, sdef.side)
        pos = host.card.index + 1 + len(host.beneath)
        for sid, cards in host.slots.items():
            pos += len(cards)
            if sid == slot_id:
                break
        host.slots[slot_id].append(card)
        self.cards.insert(pos, card)
        self._renumber(pos)
        host.grew(card)
        self._tally(card, 1)
        self.memo.clear()
        return card

    def remove_card(self, card: Placed) -> None:
        """Take back a card added with `add_card`; it must be the last one in its slot."""
        host = card.host
        assert card.slot is not None
        cards = host.slots[card.slot]
        if not cards or cards[-1] is not card or self.cards[card.index] is not card:
            raise ValueError("only the last card placed in a slot can be taken back")
        cards.pop()
        pos = card.index
        del self.cards[pos]
        self._renumber(pos)
        card.index = -1
        host.shrank(card)
        self._tally(card, -1)
        self.memo.clear()

    def _renumber(self, start: int) -> None:
        cards = self.cards
        for i in range(start, len(cards)):
            cards[i].index = i

    def _tally(self, c: Placed, k: int) -> None:
        """Count a card into (k=1) or out of (k=-1) the counters `__init__` builds."""
        tags = self.tag_count
        for t in c.tags:
            n = tags[t] + k
            if n:
                tags[t] = n
            else:
                del tags[t]
        if c.key is not None:
            n = self.species_count[c.key] + k
            if n:
                self.species_count[c.key] = n
                self.species_tags[c.key] = c.tags
            else:
                del self.species_count[c.key]
                del self.species_tags[c.key]
        if c.symbol is not None:
            n = self.symbol_count[c.symbol] + k
            if n:
                self.symbol_count[c.symbol] = n
            else:
                del self.symbol_count[c.symbol]
        if c.species is not None and c.species.modifier is not None and c.slot is not None:
            hc = c.host.card
            for n_more, owners, host_pred in c.species.counts_as:
                if not host_pred(hc, c):
                    continue
                for owner in owners:
                    if k > 0:
                        self.extra.setdefault(owner, []).append((hc, n_more))
                    else:
                        entries = self.extra[owner]
                        entries.remove((hc, n_more))
                        if not entries:
                            del self.extra[owner]
