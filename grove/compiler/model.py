"""The declared facts of an edition, as frozen values: symbols, hosts, setup, species, deck.

These are what the loader reads from YAML; the compiled `CardSet` adds callables on top. Nothing
here knows a card or an edition by name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any

from grove.dsl.diagnostics import Span

Names = MappingProxyType  # language code -> text


def no_words() -> MappingProxyType:
    """An empty `{lang: text}` map: a noun that says nothing of its article, classifier or
    plural in any language (the rules text then falls back, and the lint reports the gap)."""
    return MappingProxyType({})


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
    # the noun's grammar per language, beside its names so an edition carries its own words:
    article: Any = field(default_factory=no_words)  # article class: de m/f/n, it m/f/m_v, en a/an
    classifier: Any = field(default_factory=no_words)  # Thai classifier (ตัว, ต้น ...)
    species_word: Any = field(default_factory=no_words)  # "a species of it" as one word (Vogelart)
    named_by_symbol: frozenset[str] = frozenset()  # languages that say "a card with its symbol"


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
    plural: Any = field(default_factory=no_words)  # {lang: plural}, as a type symbol's
    article: Any = field(default_factory=no_words)  # as Symbol.article
    classifier: Any = field(default_factory=no_words)  # as Symbol.classifier
    # a host played with a card beneath (`play: with_tree`): what the rules call that card,
    # {lang: name} (Smoky Mountains' "universal river")
    beneath: Any = field(default_factory=no_words)
    # the forms of `names` and `beneath` in a language's cases, {lang: {case: form}}, where
    # they differ from the name (German „als universellen Fluss")
    cases: Any = field(default_factory=no_words)
    beneath_cases: Any = field(default_factory=no_words)

    def slot(self, slot_id: str) -> SlotDef | None:
        return self.slots_by_id.get(slot_id)

    @cached_property
    def slots_by_id(self) -> dict[str, SlotDef]:
        """The slots by id: a forest reads it for every card placed, trial placements
        included, without the call `slot()` costs."""
        return {s.id: s for s in self.slots}


@dataclass(frozen=True)
class RemovedRow:
    """Cards returned unseen to the box for one combination of expansions, by player count.

    A standalone edition declares the row for itself alone (`with: []`); an expansion declares
    the rows of the combinations it takes part in, so no file of the base game names it."""

    with_: frozenset[str]
    counts: Any  # players -> cards removed
    span: Span


@dataclass(frozen=True)
class Setup:
    hand_size: int
    hand_limit: int
    clearing_limit: int
    winter_cards: int
    caves: int
    cave_points: int
    cave_draft: bool
    removed: tuple[RemovedRow, ...]  # of the editions in play (set when a card set is built)
    span: Span

    def removed_for(self, expansions: frozenset[str], players: int) -> int | None:
        for row in self.removed:
            if row.with_ == expansions:
                return row.counts.get(players)
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
    plural: Any = field(default_factory=no_words)  # {lang: plural of the species name}
    article: Any = field(default_factory=no_words)  # as Symbol.article
    classifier: Any = field(default_factory=no_words)  # as Symbol.classifier


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
    provisional: str | None = None  # why the entry is a guess (deck.yaml's `provisional:`)


@dataclass(frozen=True)
class Placeholder:
    """A word that is still the English one beside it, in a language the edition lists under
    `placeholders:` (`grove new` writes the English name into every language and lists them):
    lint counts these, `--strict` lists each; writing the word clears it."""

    span: Span  # the word
    lang: str
    word: str  # the English word standing in


@dataclass(frozen=True)
class EditionDef:
    id: str
    names: Any
    standalone: bool
    expansion_of: str | None
    card_symbol: str | None
    symbols: tuple[Symbol, ...]
    hosts: tuple[HostKind, ...]
    setup: Setup | None
    scorepad: tuple[str, ...]  # row ids, in the order of the paper scorepad
    flags: Any
    folder: str
    span: Span
    species: tuple[SpeciesDef, ...] = ()
    deck: tuple[DeckCard, ...] = ()
    provisional: tuple[tuple[Span, str], ...] = ()
    placeholders: tuple[Placeholder, ...] = ()
    placeholders_at: Span | None = None  # edition.yaml's `placeholders:` key, where it has one
    scorepad_names: Any = field(default_factory=no_words)  # row id -> {lang: row name}
    removed: tuple[RemovedRow, ...] = ()  # the rows of `setup.removed` this edition declares
    digest: str = ""  # of its files' names and contents: what a game record pins
    # What loading left out, so the checks do not report its consequences again (a rule or a
    # deck card naming a species whose entry was broken): the ids species entries left out for
    # their own errors were meant to have ("" where unknown, as for a file not read at all),
    # and whether a deck entry (or the deck file) was left out, which leaves no count sure.
    left_out: frozenset[str] = frozenset()
    deck_left_out: bool = False

    @property
    def broken(self) -> bool:
        """Whether loading left out any part of the edition's files."""
        return bool(self.left_out) or self.deck_left_out


def scorepad_names(editions: Iterable[EditionDef]) -> MappingProxyType:
    """Row id -> {lang: name} of a card set's scorepad: the first edition that names a row wins,
    as the card set's row order is the first edition's. The names live in the card data (not in
    grove's code) so an edition's own rows, such as Dartmoor's moors, travel with its files."""
    out: dict[str, Any] = {}
    for e in editions:
        for row, names in e.scorepad_names.items():
            out.setdefault(row, names)
    return MappingProxyType(out)
