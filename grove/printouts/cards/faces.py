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
    # a host card's frame: 0 for the card set's first host kind (the trees), 1, 2 ... for the
    # others in the order the edition lists them, WATER for a host all of whose slots take only
    # water cards (a river): a river, a shrub, a moor each look unlike a tree, from data alone
    tone: int = 0

    @property
    def title(self) -> str:
        return " / ".join(p.name for p in self.parts)


WATER = -1  # `Face.tone` of a host whose slots all take only water cards
PILES = ("forest", "caves", "winter")  # where a card goes at set-up: its own deck or pile


@dataclass(frozen=True)
class Card:
    number: int  # 1-based, in the whole deck's order (kept when `--only` picks some)
    face: Face
    pile: str = "forest"  # one of PILES


@dataclass(frozen=True, eq=False)
class Deck:
    lang: str
    edition: str  # the card set's name in the language
    cards: tuple[Card, ...]
    icons: dict  # symbol id -> (Icon, name), as the sheets read them
    words: frozenset[str]  # Thai names a line never breaks inside
    stamp: str = ""  # the card set's ids and grove's version, as each card's stamp shows it
    total: int = 0  # cards in the whole deck, of which `cards` may be a part
    # compared and hashed by identity (its icons are a dict): a fit is kept per deck read

    def stamp_of(self, card: Card) -> str:
        """What card `card`'s stamp says: "base v0.1.0 67/166"."""
        return f"{self.stamp} {card.number}/{self.total}"

    def unique(self) -> tuple[tuple[Face, int], ...]:
        """Each face once, with how many physical cards show it, in order of first card."""
        counts: dict[Face, int] = {}
        for c in self.cards:
            counts[c.face] = counts.get(c.face, 0) + 1
        return tuple(counts.items())


class UnknownSpecies(ValueError):
    """`--only` names a species (or a card number) the card set does not have."""

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
        tone = 0
        kind = "split" if len(parts) > 1 or any(p.side for p in parts) else "plain"
        if len(parts) == 1 and not parts[0].side:
            sp = self.cs.species[parts[0].species]
            host = self.cs.host_for_kind(sp.kind)
            if host is not None:
                kind = "host"
                slots = _slots(host.slots, sp.placement.slot_overrides if sp.placement else ())
                tone = self._tone(host)
        face = self._faces[halves] = Face(kind, parts, slots, _stem(p.id for p in parts),
                                          tone if kind == "host" else 0)
        return face

    def _tone(self, host) -> int:
        """`Face.tone` of a host kind, from its slots and the edition's order of hosts."""
        if host.slots and all(s.water for s in host.slots):
            return WATER
        kinds = list(dict.fromkeys(h.from_kind for h in self.cs.hosts.values() if h.from_kind))
        return kinds.index(host.from_kind)


def _slots(defs, overrides) -> tuple[Slot, ...]:
    """A host card's slots, a side its own rule sets a capacity for (the Waterfall's "bottom
    holds up to 4 fish") shown as one slot of that many cards."""
    caps = {side: cap for side, cap, _ in overrides}
    out, done = [], set()
    for s in defs:
        if s.side not in caps:
            out.append(Slot(s.side, s.capacity, s.water, s.dry))
        elif s.side not in done:
            done.add(s.side)
            same = [d for d in defs if d.side == s.side]
            out.append(Slot(s.side, caps[s.side], all(d.water for d in same),
                            all(d.dry for d in same)))
    return tuple(out)


def _stem(ids: Iterable[str]) -> str:
    """A file name part a person reads and every file system takes."""
    return re.sub(r"[^a-z0-9_-]+", "_", "-".join(ids).lower()).strip("_-") or "card"


def _plain(name: str, fields: tuple[Field, ...], stem: str) -> Face:
    return Face("plain", (Part("", stem, None, name, None, None, None, (), False, fields),),
                (), stem)


def _wanted(cs: CardSet, only: Iterable[str], total: int) -> tuple[set[str], set[int], set[str]]:
    """`--only`'s terms: species (ids or edition:id keys), card numbers (`67`, `60-70`) and
    whole piles (`caves`, `winter`)."""
    keys, numbers, piles = set(), set(), set()
    for name in only:
        term = name.strip().lower()
        if term in ("cave", "caves", "winter"):
            piles.add("caves" if term.startswith("cave") else "winter")
            continue
        if re.fullmatch(r"\d+(-\d+)?", term):
            lo, _, hi = term.partition("-")
            span = range(int(lo), int(hi or lo) + 1)
            if not span or span[0] < 1 or span[-1] > total:
                raise UnknownSpecies(name, [f"card numbers 1 to {total}"])
            numbers.update(span)
            continue
        sp = cs.species_named(name)
        if sp is None:
            raise UnknownSpecies(name, sorted({s.id for s in cs.species.values()}))
        keys.add(sp.key)
    return keys, numbers, piles


def read_deck(cs: CardSet, lang: str, only: Iterable[str] = (), stamp: str = "") -> Deck:
    """Every physical card in deck order (the deck as the edition files list it, then the
    caves, then the winter cards), or only those `only` picks (`_wanted`): a card that shows
    a species named, has a number named or lies in a pile named. Cards keep their number in
    the whole deck."""
    icons = sheet_icons(cs, lang)
    r = _Reader(cs, lang, icons)
    cards = [(r.face(card.halves), "forest") for card in cs.deck]
    for sp in cs.caves:  # drafted caves are species of their own
        cards += [(r.face(((sp.key, None, None),)), "caves")] * sp.copies
    if not cs.caves and cs.setup.caves:
        points = cs.setup.cave_points
        cave = _plain(word(lang, "print.cave"), (Field("", word(
            lang, "print.cave_points", points, points=points)),), "cave")
        cards += [(cave, "caves")] * cs.setup.caves
    cards += [(_plain(word(lang, "print.winter"), (), "winter"), "winter")] * cs.setup.winter_cards
    numbered = [Card(i + 1, f, pile) for i, (f, pile) in enumerate(cards)]
    keys, numbers, piles = _wanted(cs, only, len(numbered))
    if keys or numbers or piles:
        numbered = [c for c in numbered if c.number in numbers or c.pile in piles
                    or any(p.species in keys for p in c.face.parts)]
    words = frozenset()
    if lang == "th":
        words = dictionary_words([*r.names.values(), *(v[1] for v in icons.values()),
                                  *(_name(s.names, lang, s.id) for s in cs.symbols),
                                  *(_name(h.names, lang, h.id) for h in cs.hosts.values())])
    edition = _name(cs.root.names, lang, cs.root.id)
    return Deck(lang, edition, tuple(numbered), icons, words, stamp, len(cards))
