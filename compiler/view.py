"""The read-only forest that compiled rules score: hosts, the cards in their slots, the cave.

Built once per forest per scoring, with the counters that most rules need (by tag, species and
tree symbol) precomputed, so a compiled `2 per bird` is one dictionary lookup. The engine builds
the same view from its game state; the compiler never sees the engine.
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
            cards.append(h.card)
            cards.extend(h.attached())
            h.is_full = h.full
            h.has_rules = any(c.species is not None and c.species.placement is not None
                              for c in (h.card, *h.attached()))
            sides: dict[str, list[Placed]] = {"top": [], "bottom": [], "left": [], "right": []}
            for sdef in h.kind.slots:
                sides.setdefault(sdef.side, []).extend(h.slots[sdef.id])
            h.sides = sides
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
            host = Host(spec.kind, i)
            if spec.species is not None:
                tags = spec.species.tags
            else:
                tags = frozenset(spec.kind.types) | {spec.kind.id}
            host.card = Placed(spec.species, spec.symbol, tags, host, None, None)
            if spec.kind.play == "with_tree":
                beneath = frozenset(spec.kind.types)
                host.beneath.append(Placed(None, None, beneath, host, "beneath", None))
            for slot_id, cards in spec.slots.items():
                side = spec.kind.slot(slot_id).side
                host.slots[slot_id] = [
                    Placed(sp, sym, sp.tags, host, slot_id, side) for sp, sym in cards
                ]
            hosts.append(host)
        return cls(hosts, cave, name, cave_card)
