"""A player's forest as plain values: what `grove score` reads and the engine's games end with."""

from __future__ import annotations

from dataclasses import dataclass, field

from compiler.cardset import Species
from compiler.model import HostKind
from compiler.view import ForestView, HostSpec
from dsl.diagnostics import Span


@dataclass(frozen=True)
class CardRef:
    species: Species
    symbol: str | None
    span: Span | None = None


@dataclass(frozen=True)
class HostEntry:
    kind: HostKind
    species: Species | None  # None for a face-down host (sapling, universal terrain)
    symbol: str | None
    slots: dict[str, tuple[CardRef, ...]]
    span: Span | None = None
    slot_spans: dict[str, Span] = field(default_factory=dict)
    host_span: Span | None = None  # where the host card's id is written

    @property
    def label(self) -> str:
        return self.species.id if self.species is not None else self.kind.id


@dataclass(frozen=True)
class PlayerForest:
    name: str
    hosts: tuple[HostEntry, ...]
    cave: int = 0
    ai: str | None = None
    span: Span | None = None
    cave_card: Species | None = None

    def view(self) -> ForestView:
        specs = [
            HostSpec(
                h.kind, h.species, h.symbol,
                {sid: [(c.species, c.symbol) for c in cards] for sid, cards in h.slots.items()},
            )
            for h in self.hosts
        ]
        return ForestView.build(specs, self.cave, self.name, self.cave_card)
