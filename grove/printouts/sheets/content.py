"""What a sheet says, as frozen values read from the compiled `CardSet` and the rules text.

Numbers (hand limit, clearing limit, cards removed ...) and names come from the card data only;
the sentences around them live in the templates and the `sheet` catalog. Nothing here knows an
edition by name.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from grove.compiler.cardset import CardSet, Species
from grove.compiler.model import SIDES, Setup, scorepad_names
from grove.dsl import ast
from grove.dsl.diagnostics import Span
from grove.printouts import cases, rules_text
from grove.printouts.sheets.icons import Icon
from grove.printouts.sheets.icons import find as find_icon
from grove.printouts.sheets.icons import load as load_icon
from grove.printouts.sheets.thai import dictionary_words

TEXT_FIELDS = ("effect", "trigger", "placement", "modifier")  # the "effect" column, in order
WATER = "water-requirement"  # its icon id beside the symbols': a hyphen, which no symbol id holds
WATER_ICON = Path(__file__).resolve().parent / "water.svg"


@dataclass(frozen=True)
class Slot:
    id: str
    side: str
    capacity: int
    water: bool  # takes only cards with the water requirement
    dry: bool  # takes only cards without it
    either: bool = False  # takes both, in a card set where the requirement matters at all


@dataclass(frozen=True)
class Host:
    id: str
    name: str
    face_down: bool
    play: str | None  # None: from a species card; "action", "effect", "with_tree"
    reveal: int
    counts_as: tuple[str, ...]  # type names the face-down card counts as
    base: str | None  # for a host played with a card beneath: the host it is played as
    slots: tuple[Slot, ...]
    span: Span | None
    icon: str | None = None  # the type symbol its diagram shows (Sheet.icons)
    under_icon: str | None = None  # ... and that of the card beneath it (a tree's river)
    beneath: str = ""  # what the rules call the card beneath (`play: with_tree`), if named
    base_choice: str | None = None  # `base` as the object of "play": "a tree"
    counts_as_a: tuple[str, ...] = ()  # `counts_as` with their indefinite articles: "a tree"
    # for a host played face down through an effect: its name as a sentence writes it (with its
    # case forms), with its indefinite article, and what a card of the same type may lie beneath
    # in this card set instead ("a tree": Smoky Mountains' universal river), if anything
    as_name: str = ""
    as_name_a: str = ""
    not_beneath: str = ""

    @property
    def water_slots(self) -> bool:
        return any(s.water for s in self.slots)


@dataclass(frozen=True)
class Symbol:
    id: str
    name: str
    also: tuple[str, ...]  # names of the types it implies (a butterfly is an insect)
    members: tuple[str, ...]  # for a group: names of the species that belong to it
    span: Span | None
    icon: bool = False  # the sheet has an icon for it (Sheet.icons)


@dataclass(frozen=True)
class Removal:
    players: int
    cards: int


@dataclass(frozen=True)
class Field:
    id: str
    label: str
    text: str


@dataclass(frozen=True)
class SpeciesRow:
    key: str
    id: str
    name: str
    kind: str
    host: str | None  # the host a card of this kind becomes, by name
    sides: tuple[str, ...]
    water: bool
    cost: int
    copies: int
    effect: tuple[Field, ...]  # effect, permanent effect, placement, special
    bonus: str
    score: str
    span: Span | None
    icons: tuple[str, ...] = ()  # ids of the symbols it shows that have icons: tree, types


@dataclass(frozen=True)
class SpeciesGroup:
    kind: str  # a host kind, "cave", or "dweller"
    sides: tuple[str, ...]  # for dwellers: the sides its halves go to
    host: str | None  # for host kinds: the host's name
    plural: str | None  # for host kinds: the type symbol's plural ("Trees"), if the edition has one
    rows: tuple[SpeciesRow, ...]


@dataclass(frozen=True)
class ScoreRow:
    id: str
    name: str  # the row's name from the card data (`scorepad:` in edition.yaml)
    hosts: tuple[str, ...]  # names of the hosts scored in this row (a category of hosts)
    label: str = ""  # those hosts in the plural, as the row reads ("Trees, saplings and shrubs")


@dataclass(frozen=True)
class Sheet:
    lang: str
    edition: str
    expansions: tuple[str, ...]
    setup: Setup  # the edition's numbers, read by the templates as they are
    removal: tuple[Removal, ...]
    bonus_needs_payment: bool
    stuck_cards: int
    stuck_to: str | None
    hosts: tuple[Host, ...]
    revealing: tuple[str, ...]  # names of the hosts whose play reveals a clearing card
    reveal: int
    tree_symbols: tuple[Symbol, ...]
    type_symbols: tuple[Symbol, ...]
    groups: tuple[Symbol, ...]
    scorepad: tuple[ScoreRow, ...]
    species: tuple[SpeciesGroup, ...]
    labels: Any  # field id -> column label from the rules-text catalog
    words: frozenset[str] = frozenset()  # Thai names a line never breaks inside (thai.py)
    icons: Any = None  # symbol id -> (icons.Icon, its name): the tree and type symbols drawn
    revealing_choice: str = ""  # those hosts as the object of "play": "a Tree or a Sapling"
    # the hosts played from a card of their own that reveal nothing, said too (issue 44: the
    # Dartmoor overview: „Dies gilt nicht für Sträucher"): "a shrub or a moor"
    quiet_choice: str = ""
    card_symbols: tuple[Symbol, ...] = ()  # the expansions' symbols on their cards (Alps)
    treeless_redraw: bool = False  # the set-up's redraw of a hand without a tree (`rules:`)
    water: str = ""  # the water requirement's name, where a species has it (its legend row)
    water_where: str = ""  # ... and where such a card goes (`rules_text.water_text`)
    host_kinds: str = ""  # every host named in the plural: "Trees, shrubs and moors"
    host_kinds_inline: str = ""  # ... as the middle of a sentence says it: "trees, shrubs ..."
    edition_id: str = ""  # whose overview's words the sheet uses (glossary.in_edition)
    sharing: tuple[str, ...] = ()  # species whose text lets several cards share a slot
    free_bonus: bool = False  # a species costs 0 and has a bonus: the rule for it is worth saying
    cave_effects: bool = False  # a cave card has an effect, carried out once taken

    @property
    def all_species(self) -> tuple[SpeciesRow, ...]:
        return tuple(r for g in self.species for r in g.rows)

    @property
    def permanent_effects(self) -> bool:
        """Whether the species table shows a permanent effect, which the sheet then explains."""
        return any(f.id == "trigger" for r in self.all_species for f in r.effect)


def _name(names: Any, lang: str, fallback: str) -> str:
    return (names or {}).get(lang) or (names or {}).get("en") or fallback.replace("_", " ")


def sort_key(text: str, lang: str) -> str:
    """A dictionary order good enough for a card list: accents folded; in Thai a leading vowel
    (เ แ โ ใ ไ) sorts after the consonant it is written before."""
    folded = "".join(c for c in unicodedata.normalize("NFD", text.casefold())
                     if not unicodedata.combining(c))
    if lang == "th":
        chars = list(folded)
        for i in range(len(chars) - 1):
            if chars[i] in "เแโใไ":
                chars[i], chars[i + 1] = chars[i + 1], chars[i]
        folded = "".join(chars)
    return folded


def _hosts(cs: CardSet, lang: str, icons: dict) -> tuple[Host, ...]:
    """The hosts with their slots. Where the water requirement matters in a card set (a slot
    takes only water or only dry cards, or a species has the requirement), a slot that says
    neither takes both, and the sheet says so (`Slot.either`): left unmarked beside slots marked
    "dry", a reader cannot tell "any card" from "not stated" (Smoky Mountains' tree with a river
    takes any card at the top, left and right, rules.md §5.4)."""
    water_matters = any(s.water or s.dry for h in cs.hosts.values() for s in h.slots) or any(
        sp.water for sp in cs.species.values())
    out = []
    for h in cs.hosts.values():
        counts, counts_a = rules_text.types_counted(cs, lang, h.types)
        slots = tuple(Slot(s.id, s.side, s.capacity, s.water, s.dry,
                           water_matters and not (s.water or s.dry)) for s in h.slots)
        base = next((b for b in cs.hosts.values() if h.play == "with_tree"
                     and b.from_kind == h.from_kind and b.play is None), None)
        icon = next((t for t in (h.from_kind, *h.types) if t in icons), None)
        under = next((t for t in h.types if t in icons), None) if h.play == "with_tree" else None
        # a name starts a caption and a list item: capitalised there (the German overview's
        # „universeller Fluss" is written as a sentence has it); the card beneath with the case
        # forms a sentence may ask for („als universellen Fluss", `cases.py`)
        beneath = cases.declined(_name(h.beneath, lang, ""), h.beneath_cases.get(lang))
        host = Host(h.id, cases.capitalised(_name(h.names, lang, h.id)), h.face_down, h.play, h.reveal,
                    counts, _name(base.names, lang, base.id) if base else None, slots, h.span,
                    icon, under, beneath if h.beneath else "",
                    rules_text.host_choice(cs, lang, (base.id,)) if base else None,
                    counts_a)
        out.append(_played_as(host, h, cs, lang) if h.play == "effect" else host)
    return tuple(out)


def _played_as(host: Host, h: Any, cs: CardSet, lang: str) -> Host:
    """A host an effect lets a player lay face down: "lay any card face down as a universal
    moor". "On its own, not beneath a tree" is said only where a face-down card of its type may
    also lie beneath a host (issue 44: Dartmoor's moor carried Smoky Mountains' words)."""
    r = rules_text.Renderer(cs, lang)
    np = r.host_np(h)
    under = next((b for w in cs.hosts.values() if w.play == "with_tree" and set(w.types) & set(h.types)
                  for b in cs.hosts.values() if b.from_kind == w.from_kind and b.play is None), None)
    return replace(host, as_name=cases.declined(np.forms(1), h.cases.get(lang)),
                   as_name_a=rules_text.host_choice(cs, lang, (h.id,)),
                   not_beneath=rules_text.host_choice(cs, lang, (under.id,)) if under else "")


def species_names(cs: CardSet, lang: str) -> dict[str, str]:
    """Species key -> the name the sheet prints. Two species of one card set may carry the same
    published name (the base game's Squeaker and Woodland Edge's); a reader could not tell their
    rows apart, so each one that shares its name and comes from an expansion is named with
    its edition as well: "Squeaker (Woodland Edge)"."""
    plain = {k: sp.name(lang) for k, sp in cs.species.items()}
    count: dict[str, int] = {}
    for name in plain.values():
        count[name] = count.get(name, 0) + 1
    editions = {e.id: e for e in cs.editions}
    out = {}
    for k, name in plain.items():
        ed = editions.get(k.split(":", 1)[0])
        if count[name] > 1 and ed is not None and ed is not cs.root:
            name = f"{name} ({_name(ed.names, lang, ed.id)})"
        out[k] = name
    return out


def _icons(cs: CardSet, lang: str) -> dict[str, tuple[Icon, str]]:
    """Tree and type symbols with an icon: from the `icons/` folders beside the card set's
    edition files (a later edition's first, so an expansion may draw a base symbol its way).
    Where a species has the water requirement, its drop too (`WATER`): no symbol of the card
    data, the same for every card set, so grove's own."""
    folders = [e.folder for e in reversed(cs.editions) if getattr(e, "folder", None)]
    out = {}
    for s in cs.symbols:
        if s.kind in ("tree", "type"):
            icon = find_icon(folders, s.id)
            if icon is not None:
                out[s.id] = (icon, _name(s.names, lang, s.id))
    if any(sp.water for sp in cs.species.values()):
        out[WATER] = (load_icon(WATER_ICON, WATER), rules_text.field_label("water", lang))
    return out


def _symbols(cs: CardSet, lang: str, kind: str,
             icons: dict | None = None) -> tuple[Symbol, ...]:
    card_symbols = {e.card_symbol for e in cs.editions if e.card_symbol}
    printed = species_names(cs, lang)
    out = []
    for s in cs.symbols:
        if s.kind != kind:
            continue
        also = tuple(_name(o.names, lang, o.id) for i in s.implies if (o := cs.symbol(i)))
        members: tuple[str, ...] = ()
        if kind == "group" or s.id in card_symbols:
            names = {printed[k] for k, sp in cs.species.items() if s.id in sp.tags}
            members = tuple(sorted(names, key=lambda n: sort_key(n, lang)))
            own = _name(s.names, lang, s.id)
            if kind == "group" and members == (own,):
                continue  # a name covering one species of that name says nothing („Frischling:
                # Frischling" in the base game alone)
            if kind == "group" and len(members) > 1:  # „Frischling: Frischling (Mischwald) und
                # Frischling (Waldrand)", not a bare „Frischling" beside one with its edition
                root = f"{own} ({_name(cs.root.names, lang, cs.root.id)})"
                members = tuple(root if m == own else m for m in members)
        out.append(Symbol(s.id, _name(s.names, lang, s.id), also, members, s.span,
                          s.id in (icons or {})))
    if kind == "type":  # a reader looks a symbol up by its name; the files' order is no order
        out.sort(key=lambda sym: sort_key(sym.name, lang))
    return tuple(out)


def _lets_share(sp: Species) -> bool:
    """Whether a species' placement text lets more than one card lie in a slot: the exceptions
    to "one card a slot" are card texts, not numbers on the diagrams (issue 44)."""
    program = getattr(sp, "placement", None)
    stmts = program.rule.stmts if program is not None else ()
    return any(isinstance(s, (ast.Share, ast.Lets, ast.Joining))
               or (isinstance(s, ast.SlotOverride) and s.capacity > 1) for s in stmts)


def _sharing(cs: CardSet, lang: str) -> tuple[str, ...]:
    printed = species_names(cs, lang)
    names = {printed[k] for k, sp in cs.species.items() if _lets_share(sp)}
    return tuple(sorted(names, key=lambda n: sort_key(n, lang)))


def _removal(cs: CardSet) -> tuple[Removal, ...]:
    exps = frozenset(cs.expansions)
    for row in cs.setup.removed:
        if row.with_ == exps:
            return tuple(Removal(int(p), int(n)) for p, n in sorted(row.counts.items()))
    return ()


def _row(sp: Species, cs: CardSet, lang: str, name: str, icons: dict) -> SpeciesRow:
    texts = rules_text.card_text(sp, cs, lang)
    effect = tuple(Field(f, rules_text.field_label(f, lang), texts[f])
                   for f in TEXT_FIELDS if texts.get(f))
    host = cs.host_for_kind(sp.kind)
    return SpeciesRow(
        key=sp.key, id=sp.id, name=name, kind=sp.kind,
        host=_name(host.names, lang, host.id) if host else None,
        sides=sp.sides, water=sp.water, cost=sp.cost, copies=sp.copies, effect=effect,
        bonus=texts.get("bonus", ""), score=texts.get("score", ""), span=sp.span,
        icons=tuple(i for i in dict.fromkeys((*((sp.symbol,) if sp.kind == "tree" else ()),
                                              *sp.types, *_card_symbol(sp, cs),
                                              *((WATER,) if sp.water else ()))) if i in icons))


def _card_symbol(sp: Species, cs: CardSet) -> tuple[str, ...]:
    """The symbol printed on every card of the species' edition (Alps, Woodland Edge): cards
    score and trigger on it, so the species table shows it beside the name."""
    ed = next((e for e in cs.editions if e.id == sp.edition), None)
    return (ed.card_symbol,) if ed is not None and ed.card_symbol else ()


def _species(cs: CardSet, lang: str, icons: dict) -> tuple[SpeciesGroup, ...]:
    kinds = list(dict.fromkeys(h.from_kind for h in cs.hosts.values() if h.from_kind))
    order = {k: i for i, k in enumerate([*kinds, "cave"])}
    side_order = {s: i for i, s in enumerate(SIDES)}
    buckets: dict[tuple[str, tuple[str, ...]], list[SpeciesRow]] = {}
    printed = species_names(cs, lang)
    for sp in cs.species.values():
        key = (sp.kind, sp.sides if sp.kind == "dweller" else ())
        buckets.setdefault(key, []).append(_row(sp, cs, lang, printed[sp.key], icons))

    def group_order(key: tuple[str, tuple[str, ...]]) -> tuple:
        kind, sides = key
        return (order.get(kind, len(order)), len(sides), [side_order[s] for s in sides])

    out = []
    for key in sorted(buckets, key=group_order):
        rows = tuple(sorted(buckets[key], key=lambda r: sort_key(r.name, lang)))
        sym = cs.symbol(key[0])
        plural = _name(sym.plural, lang, "") if sym and sym.plural else None
        out.append(SpeciesGroup(key[0], key[1], rows[0].host, plural or None, rows))
    return tuple(out)


def _scorepad(cs: CardSet, lang: str) -> tuple[ScoreRow, ...]:
    names = scorepad_names(cs.editions)
    out = []
    for row in cs.scorepad:
        # only the hosts that score name the row: a face-down card has no points, nor has a
        # host no species of which scores (issue 44: "Rivers and universal rivers")
        ids = tuple(h.id for h in cs.hosts.values() if h.category == row and not h.face_down
                    and any(sp.kind == h.from_kind and sp.score is not None
                            for sp in cs.species.values()))
        out.append(ScoreRow(row, _name(names.get(row), lang, row),
                            tuple(_name(cs.hosts[h].names, lang, h) for h in ids),
                            rules_text.host_plurals(cs, lang, ids) if ids else ""))
    return tuple(out)


def build_sheet(cs: CardSet, lang: str) -> Sheet:
    """Everything one sheet prints, in one language."""
    setup = cs.setup
    stuck = dict(cs.flags.get("stuck_turn") or {})
    icons = _icons(cs, lang)
    hosts = _hosts(cs, lang, icons)
    revealing = tuple(h for h in hosts if h.reveal > 0)
    sheet = Sheet(
        lang=lang,
        edition=_name(cs.root.names, lang, cs.root.id),
        expansions=tuple(_name(e.names, lang, e.id) for e in cs.editions[1:]),
        setup=setup,
        removal=_removal(cs),
        bonus_needs_payment=bool(cs.flags.get("bonus_needs_payment", True)),
        stuck_cards=int(stuck.get("cards", 0)), stuck_to=stuck.get("to"),
        hosts=hosts, revealing=tuple(h.name for h in revealing),
        revealing_choice=rules_text.host_choice(cs, lang, (h.id for h in revealing)),
        quiet_choice=rules_text.host_choice(
            cs, lang, (h.id for h in hosts if h.play is None and h.reveal == 0)),
        host_kinds=rules_text.host_plurals(cs, lang, cs.hosts),
        host_kinds_inline=rules_text.host_plurals(cs, lang, cs.hosts, cap=False),
        edition_id=cs.root.id,
        sharing=_sharing(cs, lang),
        free_bonus=any(sp.cost == 0 and sp.bonus is not None for sp in cs.species.values()),
        cave_effects=any(sp.effect is not None for sp in cs.caves),
        reveal=max((h.reveal for h in revealing), default=0),
        tree_symbols=_symbols(cs, lang, "tree", icons),
        type_symbols=_symbols(cs, lang, "type", icons),
        groups=_symbols(cs, lang, "group"), scorepad=_scorepad(cs, lang),
        species=_species(cs, lang, icons),
        labels={f: rules_text.field_label(f, lang) for f in rules_text.FIELDS},
        icons=MappingProxyType(icons),
        treeless_redraw=bool(cs.flags.get("treeless_redraw")),
        water=icons[WATER][1] if WATER in icons else "",
        water_where=rules_text.water_text(cs, lang) if WATER in icons else "",
    )
    marks = {e.card_symbol for e in cs.editions if e.card_symbol}
    sheet = replace(sheet, card_symbols=tuple(t for t in sheet.type_symbols if t.id in marks))
    if lang != "th":
        return sheet
    names = [sheet.edition, *sheet.expansions, *(h.name for h in hosts),
             *(s.name for s in (*sheet.tree_symbols, *sheet.type_symbols, *sheet.groups)),
             *(r.name for r in sheet.all_species), *(sp.name(lang) for sp in cs.species.values())]
    return replace(sheet, words=dictionary_words(names))
