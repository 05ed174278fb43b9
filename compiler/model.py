"""The declared facts of an edition, as frozen values: symbols, hosts, setup, species, deck.

These are what the loader reads from YAML; the compiled `CardSet` adds callables on top. Nothing
here knows a card or an edition by name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from dsl.diagnostics import Span

Names = MappingProxyType  # language code -> text

SIDES = ("top", "bottom", "left", "right")


@dataclass(frozen=True)
class Symbol:
    id: str
    kind: str  # "tree" | "type" | "group"
    edition: str
    names: Any
    plural: Any
    implies: tuple[str, ...]
    span: Span
    provisional: str | None = None


@dataclass(frozen=True)
class SlotDef:
    id: str
    side: str
    capacity: int = 1
    water: bool = False  # only cards with the water requirement
    dry: bool = False  # only cards without it


@dataclass(frozen=True)
class HostKind:
    id: str
    edition: str
    names: Any
    from_kind: str | None  # species kind that makes this host
    face_down: bool
    types: tuple[str, ...]
    play: str | None  # how a face-down host enters: "action", "effect", "with_tree"
    reveal: int
    category: str
    slots: tuple[SlotDef, ...]
    span: Span

    def slot(self, slot_id: str) -> SlotDef | None:
        for s in self.slots:
            if s.id == slot_id:
                return s
        return None


@dataclass(frozen=True)
class Setup:
    hand_size: int
    hand_limit: int
    clearing_limit: int
    winter_cards: int
    caves: int
    cave_points: int
    cave_draft: bool
    removed: tuple[tuple[frozenset[str], Any], ...]  # (expansions, {players: count})
    span: Span

    def removed_for(self, expansions: frozenset[str], players: int) -> int | None:
        for combo, counts in self.removed:
            if combo == expansions:
                return counts.get(players)
        return None


@dataclass(frozen=True)
class RuleText:
    """One DSL field of a species as written, with where its text starts in the file."""

    field: str
    text: str
    file: str
    line: int
    col: int

    @property
    def span(self) -> Span:
        return Span(self.file, self.line, self.col)


@dataclass(frozen=True)
class SpeciesDef:
    key: str  # "edition:id"
    id: str
    edition: str
    names: Any
    kind: str
    types: tuple[str, ...]
    groups: tuple[str, ...]
    symbol: str | None
    cost: int
    copies: int
    water: bool
    rules: tuple[RuleText, ...]
    provisional: str | None
    span: Span
    field_spans: Any = field(default_factory=dict)  # field name -> Span of its value


@dataclass(frozen=True)
class Half:
    species: str  # as written (plain or qualified)
    side: str | None  # None for a single-species card
    symbol: str | None
    span: Span


@dataclass(frozen=True)
class DeckCard:
    halves: tuple[Half, ...]
    count: int
    span: Span


@dataclass(frozen=True)
class EditionDef:
    id: str
    names: Any
    standalone: bool
    expansion_of: str | None
    combines_with: tuple[str, ...]
    card_symbol: str | None
    symbols: tuple[Symbol, ...]
    hosts: tuple[HostKind, ...]
    setup: Setup | None
    scorepad: tuple[str, ...]
    flags: Any
    folder: str
    span: Span
    species: tuple[SpeciesDef, ...] = ()
    deck: tuple[DeckCard, ...] = ()
    provisional: tuple[tuple[Span, str], ...] = ()
