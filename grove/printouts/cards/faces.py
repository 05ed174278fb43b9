"""What each physical card of a deck shows, read from the compiled `CardSet`: frozen values,
nothing laid out yet.

A card is one species (a tree, a shrub, a moor, a river, a drafted cave: any kind the edition
makes a host of, or none) or the halves of a split card, each on the side the deck gives it;
plain caves and winter cards come from the edition's set-up. Nothing here knows an edition,
a host kind or a side by name: a new host prints like a tree, with its own slots.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from grove.compiler.cardset import CardSet, Species
from grove.printouts import rules_text
from grove.printouts.cards.words import word
from grove.printouts.sheets.content import _icons as sheet_icons
from grove.printouts.sheets.content import _name, species_names
from grove.printouts.sheets.thai import dictionary_words


@dataclass(frozen=True)
class Field:
    label: str  # "Effect", "Bonus" ... ("" for a plain card's only line)
    text: str


@dataclass(frozen=True)
class Symbol:
    id: str
    name: str
    icon: bool  # the edition carries an icon for it


@dataclass(frozen=True)
class Part:
    """A species on a card: the whole card, or one half of a split card."""

    species: str  # the species key ("base:red_fox"); "" for a winter card or a plain cave
    id: str  # the species id, for file names
    side: str | None
    name: str
    cost: int | None  # None: a card that is never paid for (a cave, a winter card)
    host: str | None  # the host a card of this kind becomes, by name
    tree: Symbol | None  # the tree symbol this card or half shows
    types: tuple[Symbol, ...]
    water: bool
    fields: tuple[Field, ...]


@dataclass(frozen=True)
class Slot:
    side: str
    capacity: int
    water: bool
    dry: bool


@dataclass(frozen=True)
class Face:
    """One printed face; physical cards that show the same face share it."""

    kind: str  # "host", "split" or "plain"
    parts: tuple[Part, ...]
    slots: tuple[Slot, ...]  # a host card's slots, by side (none for other cards)
    stem: str  # for file names: the species ids, "red_fox-european_hare"

    @property
    def title(self) -> str:
        return " / ".join(p.name for p in self.parts)


@dataclass(frozen=True)
class Card:
    number: int  # 1-based, in deck order
    face: Face


@dataclass(frozen=True, eq=False)
class Deck:
    lang: str
    edition: str  # the card set's name in the language
    cards: tuple[Card, ...]
    icons: dict  # symbol id -> (Icon, name), as the sheets read them
    words: frozenset[str]  # Thai names a line never breaks inside
    # compared and hashed by identity (its icons are a dict): a fit is kept per deck read

    def unique(self) -> tuple[tuple[Face, int], ...]:
        """Each face once, with how many physical cards show it, in order of first card."""
        counts: dict[Face, int] = {}
        for c in self.cards:
            counts[c.face] = counts.get(c.face, 0) + 1
        return tuple(counts.items())


class UnknownSpecies(ValueError):
    """`--only` names a species the card set does not have."""

    def __init__(self, name: str, known: list[str]):
        super().__init__(name)
        self.name, self.known = name, known


def _symbol(cs: CardSet, sid: str | None, lang: str, icons: dict) -> Symbol | None:
    if not sid:
        return None
    sym = cs.symbol(sid)
    return Symbol(sid, _name(sym.names if sym else None, lang, sid), sid in icons)


def _fields(sp: Species, cs: CardSet, lang: str) -> tuple[Field, ...]:
    return tuple(Field(rules_text.field_label(f, lang), text)
                 for f, text in rules_text.card_text(sp, cs, lang).items() if text)


class _Reader:
    """Parts and faces of one card set in one language, each built once."""

    def __init__(self, cs: CardSet, lang: str, icons: dict):
        self.cs, self.lang, self.icons = cs, lang, icons
        self.names = species_names(cs, lang)
        self._fields: dict[str, tuple[Field, ...]] = {}
        self._faces: dict[tuple, Face] = {}

    def part(self, key: str, side: str | None, symbol: str | None) -> Part:
        cs, lang = self.cs, self.lang
        sp = cs.species[key]
        if key not in self._fields:
            self._fields[key] = _fields(sp, cs, lang)
        host = cs.host_for_kind(sp.kind)
        paid = sp.kind == "dweller" or host is not None
        types = tuple(s for t in sp.types if (s := _symbol(cs, t, lang, self.icons)))
        return Part(key, sp.id, side, self.names[key], sp.cost if paid else None,
                    _name(host.names, lang, host.id) if host else None,
                    _symbol(cs, symbol, lang, self.icons), types, sp.water, self._fields[key])

    def face(self, halves: tuple[tuple[str, str | None, str | None], ...]) -> Face:
        found = self._faces.get(halves)
        if found is not None:
            return found
        parts = tuple(self.part(*h) for h in halves)
        slots: tuple[Slot, ...] = ()
        kind = "split" if len(parts) > 1 or any(p.side for p in parts) else "plain"
        if len(parts) == 1 and not parts[0].side:
            host = self.cs.host_for_kind(self.cs.species[parts[0].species].kind)
            if host is not None:
                kind = "host"
                slots = tuple(Slot(s.side, s.capacity, s.water, s.dry) for s in host.slots)
        face = self._faces[halves] = Face(kind, parts, slots, _stem(p.id for p in parts))
        return face


def _stem(ids: Iterable[str]) -> str:
    """A file name part a person reads and every file system takes."""
    return re.sub(r"[^a-z0-9_-]+", "_", "-".join(ids).lower()).strip("_-") or "card"


def _plain(name: str, fields: tuple[Field, ...], stem: str) -> Face:
    return Face("plain", (Part("", stem, None, name, None, None, None, (), False, fields),),
                (), stem)


def read_deck(cs: CardSet, lang: str, only: Iterable[str] = ()) -> Deck:
    """Every physical card in deck order (the deck as the edition files list it, then the
    caves, then the winter cards), or only those that show a species of `only` (ids or
    edition:id keys)."""
    icons = sheet_icons(cs, lang)
    r = _Reader(cs, lang, icons)
    wanted = set()
    for name in only:
        sp = cs.species_named(name)
        if sp is None:
            raise UnknownSpecies(name, sorted({s.id for s in cs.species.values()}))
        wanted.add(sp.key)
    faces = [r.face(card.halves) for card in cs.deck]
    for sp in cs.caves:  # drafted caves are species of their own
        faces += [r.face(((sp.key, None, None),))] * sp.copies
    if not wanted:
        if not cs.caves and cs.setup.caves:
            points = cs.setup.cave_points
            cave = _plain(word(lang, "print.cave"), (Field("", word(
                lang, "print.cave_points", points, points=points)),), "cave")
            faces += [cave] * cs.setup.caves
        faces += [_plain(word(lang, "print.winter"), (), "winter")] * cs.setup.winter_cards
    else:
        faces = [f for f in faces if any(p.species in wanted for p in f.parts)]
    words = frozenset()
    if lang == "th":
        words = dictionary_words([*r.names.values(), *(v[1] for v in icons.values()),
                                  *(_name(s.names, lang, s.id) for s in cs.symbols),
                                  *(_name(h.names, lang, h.id) for h in cs.hosts.values())])
    edition = _name(cs.root.names, lang, cs.root.id)
    return Deck(lang, edition, tuple(Card(i + 1, f) for i, f in enumerate(faces)), icons, words)
