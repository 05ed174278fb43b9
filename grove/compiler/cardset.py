"""Editions -> an immutable, compiled `CardSet`: the one object the engine and printouts read.

Compilation runs per edition, in that edition's own name scope (itself and what it expands), so a
card's compiled rules do not depend on which expansions join it; a combination only merges them.
"""

from __future__ import annotations

import pickle
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grove.compiler import cache
from grove.compiler.model import SIDES, EditionDef, HostKind, Setup, SpeciesDef, Symbol
from grove.compiler.names import NameScope
from grove.compiler.search_path import EDITION_FILE, Roots, search_path, shipped_cards_dir
from grove.compiler.universe import Universe, folder_digests, key_of, load_universe
from grove.dsl.diagnostics import Diagnostic, DiagnosticError, Span, error, sort_key, warning

if TYPE_CHECKING:
    from grove.compiler import codegen
    from grove.dsl import ast


@dataclass(frozen=True)
class Species:
    key: str
    id: str
    edition: str
    names: Any
    kind: str
    types: tuple[str, ...]
    tags: frozenset[str]
    cost: int
    copies: int
    symbol: str | None
    water: bool
    variants: Any  # Counter[(side | None, symbol)] of the physical halves
    score: codegen.ScoreProgram | None
    effect: codegen.EffectProgram | None
    bonus: codegen.EffectProgram | None
    trigger: codegen.TriggerProgram | None
    placement: codegen.PlacementProgram | None
    modifier: codegen.ModifierProgram | None
    provisional: str | None
    span: Span
    rule_texts: Any = field(default_factory=dict)  # field -> RuleText
    # the name's grammar per language, as the species file gives it (see SpeciesDef)
    plural: Any = field(default_factory=dict)  # {lang: plural}
    article: Any = field(default_factory=dict)  # {lang: article class}
    classifier: Any = field(default_factory=dict)  # {lang: classifier}

    @property
    def counts_as(self) -> tuple[tuple[int, tuple[str, ...], codegen.Pred], ...]:
        return self.modifier.counts_as if self.modifier else ()

    @cached_property
    def sides(self) -> tuple[str, ...]:
        return tuple(s for s in SIDES if any(side == s for side, _ in self.variants))

    def symbols_for(self, side: str | None) -> tuple[str, ...]:
        return tuple(sorted({sym for (sd, sym) in self.variants if sd == side and sym}))

    def name(self, lang: str) -> str:
        return self.names.get(lang) or self.names["en"]


@dataclass(frozen=True)
class PhysicalCard:
    """One card of the deck: one species, or two halves of a split card."""

    halves: tuple[tuple[str, str | None, str | None], ...]  # (species key, side, symbol)
    provisional: str | None = None  # why its deck entry is a guess (the export's deck table)


@dataclass(frozen=True)
class CardSet:
    editions: tuple[EditionDef, ...]
    species: Any  # key -> Species
    hosts: Any  # id -> HostKind
    symbols: tuple[Symbol, ...]
    setup: Setup
    scorepad: tuple[str, ...]
    deck: tuple[PhysicalCard, ...]
    flags: Any

    @property
    def root(self) -> EditionDef:
        return self.editions[0]

    @property
    def expansions(self) -> tuple[str, ...]:
        return tuple(e.id for e in self.editions[1:])

    def species_named(self, name: str) -> Species | None:
        if ":" in name:
            return self.species.get(name)
        for e in self.editions:  # a plain id means the base game's card, else the only one
            s = self.species.get(f"{e.id}:{name}")
            if s is not None:
                return s
        return None

    @property
    def caves(self) -> tuple[Species, ...]:
        """Cave cards of the kind that are drafted (none where every cave is plain)."""
        return tuple(s for s in self.species.values() if s.kind == "cave")

    def host_for_kind(self, kind: str) -> HostKind | None:
        for h in self.hosts.values():
            if h.from_kind == kind:
                return h
        return None

    def symbol(self, sid: str) -> Symbol | None:
        for s in self.symbols:
            if s.id == sid:
                return s
        return None


# ---- per-edition compilation ---------------------------------------------------------------
@dataclass(frozen=True)
class CompiledEdition:
    edition: EditionDef
    species: tuple[Species, ...]
    deck: tuple[PhysicalCard, ...]
    diagnostics: tuple[Diagnostic, ...]


def implied(tags: Iterable[str], scope: NameScope) -> set[str]:
    """Tags with every type they imply (a butterfly is an insect), transitively."""
    out = set(tags)
    todo = list(out)
    while todo:
        sym = scope.types.get(todo.pop())
        for imp in sym.implies if sym else ():
            if imp not in out:
                out.add(imp)
                todo.append(imp)
    return out


def _tags(sd: SpeciesDef, scope: NameScope, edition: EditionDef, hosts: dict[str, HostKind]):
    tags = implied([*sd.types, *sd.groups], scope)
    if edition.card_symbol:
        tags.add(edition.card_symbol)
    for h in hosts.values():
        if h.from_kind == sd.kind and h.play != "with_tree":
            tags.add(h.id)
    return frozenset(tags)


def _check_definitions(
    sd: SpeciesDef, scope: NameScope, hosts: dict[str, HostKind]
) -> list[Diagnostic]:
    out = []
    for fld, names, known, code, what in (
        ("types", sd.types, scope.types, "SPECIES-UNKNOWN-TYPE", "type symbol"),
        ("groups", sd.groups, scope.groups, "SPECIES-UNKNOWN-GROUP", "group"),
    ):
        for k, name in enumerate(names):
            if name not in known:
                guess = scope.suggest(name, sorted(known))
                out.append(error(code, sd.field_spans.get(f"{fld}.{k}", sd.span),
                                 f"{sd.id}: unknown {what} '{name}'",
                                 f"did you mean '{guess}'?" if guess else None))
    kinds = {"dweller", "cave"} | {h.from_kind for h in hosts.values() if h.from_kind}
    if sd.kind not in kinds:
        guess = scope.suggest(sd.kind, sorted(kinds))
        out.append(error("SPECIES-KIND", sd.field_spans.get("kind", sd.span),
                         f"{sd.id}: kind '{sd.kind}' is neither `dweller`, `cave` nor a host "
                         "of the edition", f"did you mean '{guess}'?" if guess else None))
    if sd.symbol is not None and sd.symbol not in scope.tree_symbols:
        guess = scope.suggest(sd.symbol, sorted(scope.tree_symbols))
        out.append(error("SPECIES-SYMBOL", sd.field_spans.get("symbol", sd.span),
                         f"{sd.id}: unknown tree symbol '{sd.symbol}'",
                         f"did you mean '{guess}'?" if guess else None))
    return out


def _max_count_fn(fam_species: list[SpeciesDef], deck_size: int, face_down_tags: set[str],
                  scope: NameScope):
    """How many cards of the family a filter name can match at most: the copies of a species,
    or of every species carrying a type, group or host tag. The copies are added up once per
    name, in one pass over the family, so checking the rules of n species stays linear in n
    (a pass per rule made a cold lint of 2,000 species spend 5 of its 17 s here)."""
    card_symbols = {e.id: e.card_symbol for e in scope.universe.values()}
    by_key: Counter[str] = Counter()
    by_tag: Counter[str] = Counter()
    for s in fam_species:
        by_key[s.key] += s.copies
        for tag in implied([*s.types, *s.groups, card_symbols.get(s.edition) or ""], scope):
            by_tag[tag] += s.copies

    from grove.dsl import ast

    def max_count(f: ast.Filter) -> int | None:
        if isinstance(f, ast.FName):
            r = scope.resolve(f.name.text)
            if r is None:
                return None
            if r.kind == "species":
                return by_key[r.key]
            if r.key in face_down_tags:
                return deck_size
            if r.kind in ("type", "group", "host"):
                return by_tag[r.key] if r.kind != "type" or r.key in scope.types else None
        return None

    return max_count


def _compilers() -> dict[str, Any]:
    """Each rules field's code generator (imported only by commands that run rules)."""
    from grove.compiler import codegen

    return {
        "score": lambda r, sc, o, b: codegen.compile_score(r, sc, o, b),
        "effect": lambda r, sc, o, b: codegen.EffectProgram(
            codegen.compile_steps(r.actions, sc, o, b), r),
        "bonus": lambda r, sc, o, b: codegen.EffectProgram(
            codegen.compile_steps(r.actions, sc, o, b), r),
        "trigger": lambda r, sc, o, b: codegen.compile_trigger(r, sc, o, b),
        "placement": lambda r, sc, o, b: codegen.compile_placement(r, sc),
        "modifier": lambda r, sc, o, b: codegen.compile_modifier(r, sc),
    }


def _deck_variants(edition: EditionDef, scope: NameScope, diags: list[Diagnostic],
                   shaky: set[str]):
    """The variants of each species the deck holds, the deck, and the species whose count in
    the deck is not known for sure (a half of theirs was rejected, or any deck entry left
    out), whose DECK-COPIES would only echo that error. A half naming a species in
    `shaky` (whose own entry has an error about its kind or symbol) is taken as written."""
    variants: dict[str, Counter] = {}
    deck: list[PhysicalCard] = []
    unsure: set[str] = set()
    for card in edition.deck:
        halves = []
        for k, half in enumerate(card.halves):
            sp = scope.species_named(half.species)
            if sp is None:
                if scope.left_out_name(half.species):
                    continue  # its entry was left out, with its own error
                guess = scope.suggest(half.species, sorted(scope.species_by_id))
                if guess is not None:
                    unsure.update(s.key for s in scope.species_by_id.get(guess, ()))
                diags.append(error("DECK-UNKNOWN-SPECIES", half.span,
                                   f"unknown species '{half.species}'",
                                   f"did you mean '{guess}'?" if guess else None))
                continue
            if sp.key in shaky:
                halves.append((sp.key, half.side, half.symbol or sp.symbol))
                continue
            if sp.key in unsure and any(h.species == half.species for h in card.halves[:k]):
                continue  # the card's other half of it was wrong, and said so
            if half.side is None and sp.kind == "dweller":
                diags.append(error("DECK-SIDE", half.span,
                                   f"'{sp.id}' is a dweller: give it a side (top/bottom/left/right)"))
                unsure.add(sp.key)
                continue
            if half.side is not None and sp.kind != "dweller":
                diags.append(error("DECK-SIDE", half.span,
                                   f"'{sp.id}' is a {sp.kind}, not half of a split card"))
                unsure.add(sp.key)
                continue
            symbol = half.symbol or sp.symbol
            if symbol is not None and symbol not in scope.tree_symbols:
                guess = scope.suggest(symbol, sorted(scope.tree_symbols))
                diags.append(error("DECK-UNKNOWN-SYMBOL", half.span,
                                   f"unknown tree symbol '{symbol}'",
                                   f"did you mean '{guess}'?" if guess else None))
                unsure.add(sp.key)
                continue
            halves.append((sp.key, half.side, symbol))
        for _ in range(card.count):
            deck.append(PhysicalCard(tuple(halves), card.provisional))
            for key, side, symbol in halves:
                variants.setdefault(key, Counter())[(side, symbol)] += 1
    if edition.deck_left_out:  # a deck entry left out: no species' count is sure
        unsure.update(s.key for s in edition.species)
    return variants, deck, unsure


@dataclass(frozen=True)
class CheckedEdition:
    """An edition parsed and checked, before code generation: plain data, so it can be kept in
    the on-disk cache. `programs` holds each checked rule's AST by (species key, field),
    pickled on their own: a command that lists cards reads the entry without loading the AST's
    classes or the code generator."""

    edition: EditionDef
    species: tuple[Species, ...]  # without programs
    programs: bytes  # pickled tuple of (species key, field, ast.Rule)
    boosted: frozenset[str]
    deck: tuple[PhysicalCard, ...]
    diagnostics: tuple[Diagnostic, ...]


def _scope(edition: EditionDef, universe: Universe) -> NameScope:
    return NameScope(universe.lineage(edition), list(universe.editions.values()))


def check_edition(edition: EditionDef, universe: Universe) -> CheckedEdition:
    """Parse and check every rule of an edition in its own name scope."""
    from grove.compiler import lark_tables
    from grove.compiler.checker import Checker
    from grove.compiler.loader import duplicate_hint
    from grove.dsl.parser import parse_rule

    editions = dict(universe.editions)
    visible = universe.lineage(edition)
    fam = universe.family(visible[0])
    scope = _scope(edition, universe)
    diags: list[Diagnostic] = []
    hosts = {h.id: h for e in visible for h in e.hosts}

    # each species' own definition first: a species with a wrong kind or symbol is `shaky`,
    # and the deck's halves of it are not checked against that kind or symbol again
    seen_ids: dict[str, SpeciesDef] = {}
    definitions: dict[str, list[Diagnostic]] = {}
    for sd in edition.species:
        if sd.id not in seen_ids:
            seen_ids[sd.id] = sd
            definitions[sd.key] = _check_definitions(sd, scope, hosts)
    shaky = {k for k, found in definitions.items()
             if any(d.code in ("SPECIES-KIND", "SPECIES-SYMBOL") for d in found)}
    variants, deck, unsure = _deck_variants(edition, scope, diags, shaky)
    fam_species = [s for e in fam for s in e.species]
    face_down_tags = {t for e in fam for h in e.hosts if h.face_down for t in h.types}
    deck_size = sum(c.count for e in fam for c in e.deck)
    max_count = _max_count_fn(fam_species, deck_size, face_down_tags, scope)

    # modifiers first: which species' counts another card may boost
    parsed: dict[tuple[str, str], ast.Rule] = {}
    lark = lark_tables.rules()
    for sd in edition.species:
        for rt in sd.rules:
            try:
                parsed[(sd.key, rt.field)] = parse_rule(rt.field, rt.text, rt.file, rt.line,
                                                        rt.col, lark)
            except DiagnosticError as exc:
                diags.extend(exc.diagnostics)
    boosted: set[str] = set()
    for e in fam:  # whose counts a `host counts as ... for X` modifier of any family card boosts
        for sd in e.species:
            for rt in sd.rules:
                if rt.field != "modifier":
                    continue
                try:
                    rule = parse_rule(rt.field, rt.text, rt.file, rt.line, rt.col, lark)
                except DiagnosticError:
                    continue  # reported when that edition is compiled
                for stmt in rule.stmts:
                    for name in getattr(stmt, "for_", ()):
                        sp = scope.species_named(name.text)
                        if sp is not None:
                            boosted.add(sp.key)

    species: list[Species] = []
    programs: list[tuple[str, str, ast.Rule]] = []
    for sd in edition.species:
        if seen_ids[sd.id] is not sd:
            diags.append(error("SPECIES-DUPLICATE", sd.span,
                               f"species '{sd.id}' is defined twice in edition '{edition.id}'",
                               duplicate_hint(seen_ids[sd.id].span)))
            continue
        diags.extend(definitions[sd.key])
        kind_known = not any(d.code == "SPECIES-KIND" for d in definitions[sd.key])
        for rt in sd.rules:
            rule = parsed.get((sd.key, rt.field))
            if rule is None:
                continue
            checker = Checker(scope, sd, max_count, kind_known)
            found = checker.rule(rule, rt.field)
            diags.extend(found)
            if not (checker.folded or any(d.is_error for d in found)):
                programs.append((sd.key, rt.field, rule))
        if not any(r.field == "score" for r in sd.rules):
            diags.append(warning("SPECIES-NO-SCORE", sd.span,
                                 f"{sd.id}: no `score` rule; write `score: 0` if it scores nothing"))
        v = variants.get(sd.key, Counter())
        halves = sum(v.values())
        if sd.kind == "tree" and sd.symbol is None:
            diags.append(warning(
                "SPECIES-NO-SYMBOL", sd.span, f"{sd.id}: a tree without `symbol:`",
                "every tree shows a tree symbol (its card colour), which rules count: add "
                "`symbol: ...`, one of the edition's tree symbols"))
        twins = [t for t in scope.species_by_id.get(sd.id, []) if t.key != sd.key]
        if (halves == 0 and sd.copies and twins and sd.kind != "cave"
                and sd.key not in unsure and sd.key not in shaky):
            # the deck's `red_fox` means the base game's red fox: this one gets no card
            diags.append(error(
                "DECK-COPIES", sd.span,
                f"{sd.id}: edition '{twins[0].edition}' has a species '{sd.id}' too, and the "
                f"deck's '{sd.id}' cards are that edition's; this one has none of the "
                f"{sd.copies} its copies say",
                f"give yours an id of its own (`{edition.id}_{sd.id}`, say) in species.yaml "
                "and deck.yaml; `" + twins[0].edition + ":" + sd.id + "` names the other"))
        elif (halves != sd.copies and sd.kind != "cave"  # caves are laid out, not shuffled in
                and sd.key not in unsure and sd.key not in shaky):
            diags.append(error(
                "DECK-COPIES", sd.field_spans.get("copies", sd.span),
                f"{sd.id}: copies says {sd.copies} but the deck holds {halves}",
                "make `copies` equal the halves of this species in deck.yaml",
            ))
        species.append(Species(
            key=sd.key, id=sd.id, edition=sd.edition, names=sd.names, kind=sd.kind,
            types=sd.types, tags=_tags(sd, scope, edition, hosts), cost=sd.cost,
            copies=sd.copies, symbol=sd.symbol, water=sd.water, variants=v,
            score=None, effect=None, bonus=None, trigger=None, placement=None, modifier=None,
            provisional=sd.provisional, span=sd.span,
            rule_texts={rt.field: rt for rt in sd.rules},
            plural=sd.plural, article=sd.article, classifier=sd.classifier,
        ))
    diags.extend(_check_setup(edition, universe))
    if not (edition.broken or unsure or shaky):  # a deck short of what was left out: no verdict
        diags.extend(_check_deadlock(edition, deck, scope, hosts))
    if edition.expansion_of is not None and edition.expansion_of not in editions:
        guess = nearest_edition(edition.expansion_of, editions)
        diags.append(error("EDITION-UNKNOWN", edition.span,
                           f"'{edition.id}' expands unknown edition '{edition.expansion_of}'",
                           guess.rstrip() or None))
    return CheckedEdition(edition, tuple(species), pickle.dumps(tuple(programs)),
                          frozenset(boosted), tuple(deck), tuple(diags))


def _check_setup(edition: EditionDef, universe: Universe) -> list[Diagnostic]:
    diags = []
    caves = sum(s.copies for s in edition.species if s.kind == "cave")
    if (edition.setup is not None and edition.setup.cave_draft and caves != edition.setup.caves
            and not edition.left_out):  # a cave entry left out has its own error
        diags.append(error("EDITION-CAVES", edition.setup.span,
                           f"setup drafts {edition.setup.caves} caves but the edition defines "
                           f"{caves} cave cards", "give each cave card a species of kind `cave`"))
    if edition.expansion_of is None and edition.setup is None:
        diags.append(error("EDITION-SETUP", edition.span,
                           f"standalone edition '{edition.id}' needs a `setup` section"))
    if edition.expansion_of is None:
        root, siblings = edition.id, set(universe.expansions_of(edition.id))
    else:
        root = edition.expansion_of
        siblings = set(universe.expansions_of(root))
    for row in edition.removed:
        if edition.expansion_of is not None and edition.id not in row.with_:
            diags.append(error(
                "EDITION-SETUP-ROW", row.span,
                f"'{edition.id}' declares removal counts for a combination without itself",
                f"an expansion lists the rows it takes part in: put `{edition.id}` in `with`"))
        for x in sorted(row.with_ - siblings - {edition.id}):
            diags.append(error(
                "EDITION-SETUP-ROW", row.span,
                f"'{x}' in `with` is no expansion of '{root}' on the search path",
                f"expansions of '{root}': {', '.join(sorted(siblings)) or 'none'}"))
        for other in universe.family(universe.editions[root]) if root in universe.editions else ():
            if other.id >= edition.id:
                continue
            for o in other.removed:
                if o.with_ == row.with_:
                    diags.append(error(
                        "EDITION-SETUP-DUPLICATE", row.span,
                        f"the removal counts for {_combination(root, row.with_)} are "
                        f"declared by '{other.id}' too", f"keep one: {o.span}"))
    return diags


def _check_deadlock(edition: EditionDef, deck: list[PhysicalCard], scope: NameScope,
                    hosts: dict[str, HostKind]) -> list[Diagnostic]:
    """DECK-DEADLOCK: a standalone edition's own deck can leave every player with a full hand
    of cards none can play (docs/diagnostics.md has the rule and why).

    A card with a host half a full hand can pay for can always be played, as a new host; every
    other card needs a place in a slot, and the deck's host cards offer so many places on the
    sides those cards are printed for. Once they are taken, the cards left over that need one
    can fill every hand of the smallest table: no player can draw (the hand limit) or play,
    and without a stuck-turn rule, or a face-down host any card may be played as, the game has
    nothing left to do."""
    setup = edition.setup
    if edition.expansion_of is not None or setup is None:
        return []
    stuck = edition.flags.get("stuck_turn") or {}
    if (isinstance(stuck, dict) and int(stuck.get("cards", 0) or 0) > 0) or any(
            h.face_down and h.play == "action" for h in hosts.values()):
        return []
    by_kind = {h.from_kind: h for h in hosts.values() if h.from_kind}
    room: Counter[str] = Counter()  # places by side, on the host cards of the deck
    needy: list[set[str]] = []  # the sides each card that needs a place is printed for
    for card in deck:
        hosted = False
        sides = set()
        for key, side, _ in card.halves:
            sp = scope.species.get(key)
            host = by_kind.get(sp.kind) if sp is not None else None
            if host is not None and side is None:
                for slot in host.slots:
                    room[slot.side] += slot.capacity
                hosted = hosted or (host.play != "with_tree" and sp.cost < setup.hand_limit)
            elif side is not None:
                sides.add(side)
        if not hosted:
            needy.append(sides)
    used = set().union(*needy) if needy else set()
    places = sum(room[side] for side in used)
    players = min((n for row in edition.removed for n in row.counts), default=2)
    left = len(needy) - places
    if left < players * setup.hand_limit:
        return []
    return [warning(
        "DECK-DEADLOCK", setup.span,
        f"{edition.id}: {len(needy)} cards of the deck need a place in a slot and its host cards "
        f"offer {places}: the {left} left over can fill the hands of {players} players "
        f"(hand limit {setup.hand_limit}) with cards none can play, and the game then ends "
        "early, for no player can draw or play",
        "add host cards or slots, raise `hand_limit`, or give the edition a "
        "`rules: stuck_turn:` (docs/formats.md)")]


def _combination(root: str, expansions: Iterable[str]) -> str:
    exps = sorted(expansions)
    return f"'{root}' with {', '.join(exps)}" if exps else f"'{root}' alone"


def generate(checked: CheckedEdition, universe: Universe) -> CompiledEdition:
    """Code generation: each checked rule's AST -> the callables the engine runs."""
    scope = _scope(checked.edition, universe)
    compilers = _compilers()
    by_species: dict[str, dict[str, Any]] = {}
    for key, fld, rule in pickle.loads(checked.programs):  # noqa: S301 - our own cache entry
        by_species.setdefault(key, {})[fld] = compilers[fld](rule, scope, key, checked.boosted)
    species = tuple(replace(s, **by_species[s.key]) if s.key in by_species else s
                    for s in checked.species)
    return CompiledEdition(checked.edition, species, checked.deck, checked.diagnostics)


def compile_edition(edition: EditionDef, universe: Universe) -> CompiledEdition:
    return generate(check_edition(edition, universe), universe)


@lru_cache(maxsize=64)
def checked(universe: Universe, edition_id: str) -> CheckedEdition:
    """An edition checked in its universe, from the on-disk cache when it holds it; once per
    process and universe, as lint and the sheets' build both ask (with the cache off, a cold
    lint of 8,000 species checked every rule twice: 4 s of 49)."""
    if universe.unsaved:
        return check_edition(universe.editions[edition_id], universe)
    return cache.cached("checked", cache.key("checked", universe.key, edition_id),
                        lambda: check_edition(universe.editions[edition_id], universe))


@lru_cache(maxsize=64)
def _compiled(universe: Universe, edition_id: str, programs: bool) -> CompiledEdition:
    found = checked(universe, edition_id)
    if programs:
        return generate(found, universe)
    return CompiledEdition(found.edition, found.species, found.deck, found.diagnostics)


_FIND_HINT = "grove finds an author's card set with --cards DIR or GROVE_CARDS"


def nearest_edition(name: str, known: Iterable[str]) -> str:
    """"did you mean 'base'? " for a name that is an edition's id in another case, the start
    of one (`smoky`), or a near misspelling of one, else ""."""
    import difflib

    ids, folded = sorted(known), name.casefold().replace("-", "_").replace(" ", "_")
    close = ([e for e in ids if e.casefold() == folded]
             or [e for e in ids if folded and e.casefold().startswith(folded)][:1]
             or difflib.get_close_matches(folded, ids, n=1, cutoff=0.6))
    return f"did you mean '{close[0]}'? " if close else ""


def _edition_file_errors(universe: Universe, edition: str) -> list[Diagnostic]:
    """The errors of an edition.yaml on the path that declares `edition` but did not load (a
    misspelt `expansion_of` keeps it from loading): they are the mistake to name, rather than
    an edition unknown or combining with nothing. An edition that loaded read what it says
    of itself, so its combinations stand as they are."""
    from grove.compiler.yaml_source import load

    if edition in universe.editions:
        return []
    loaded = {Path(e.folder) / EDITION_FILE for e in universe.editions.values()}
    by_file: dict[Path, list[Diagnostic]] = {}
    for d in universe.diagnostics:
        path = Path(d.span.file) if d.is_error and d.span else None
        if path is not None and path.name == EDITION_FILE and path not in loaded:
            by_file.setdefault(path, []).append(d)
    for path, found in sorted(by_file.items()):
        try:  # only on the way to an error: the file is small and read once more for its id
            data = load(path).data
        except DiagnosticError:
            continue
        if isinstance(data, dict) and str(data.get("id")) == edition:
            return sorted(found, key=sort_key)
    return []


def build(edition: str, expansions: Iterable[str] = (), roots: Roots | None = None, *,
          programs: bool = True, universe: Universe | None = None) -> CardSet:
    """The compiled card set of an edition with expansions; `DiagnosticError` if it is broken.

    With `programs=False` the species carry their facts and rule texts but no compiled rules
    (every program field is None): what a listing of the cards needs, in a fraction of the
    time. `universe`, where given, is the one `roots` would load (the language server's, with
    an editor's unsaved text in it)."""
    if programs or universe is not None or cache.cache_dir() is None:
        return _build(edition, expansions, roots, programs=programs, universe=universe)
    # a card set without programs is plain data: the on-disk cache keeps it whole, so a
    # scoreboard or a listing reads one entry of its own editions rather than every edition on
    # the path (`universe.key` names the same files)
    roots = roots if roots is not None else search_path()
    exps = tuple(dict.fromkeys(expansions))
    k = cache.key("cardset", key_of(folder_digests(roots)), edition, *exps)
    return cache.cached("cardset", k, lambda: _build(edition, exps, roots, programs=False))


def _build(edition: str, expansions: Iterable[str], roots: Roots | None, *, programs: bool,
           universe: Universe | None = None) -> CardSet:
    universe = universe if universe is not None else load_universe(roots)
    eds = universe.editions
    if edition not in eds:
        blame = _edition_file_errors(universe, edition)
        if blame:
            raise DiagnosticError(blame)
        raise DiagnosticError([error("EDITION-UNKNOWN", None, f"unknown edition '{edition}'",
                                     f"{nearest_edition(edition, eds)}editions: "
                                     f"{', '.join(sorted(eds))}; {_FIND_HINT}")])
    base = eds[edition]
    if base.expansion_of is not None:
        raise DiagnosticError([error(
            "EDITION-NOT-STANDALONE", None,
            f"'{edition}' is an expansion of '{base.expansion_of}'",
            f"use --edition {base.expansion_of} --with {edition}")])
    exps = list(dict.fromkeys(expansions))
    known = universe.expansions_of(edition)
    for x in exps:
        if x not in known:
            blame = _edition_file_errors(universe, x)
            if blame:  # its edition.yaml is wrong (a misspelt `expansion_of`): that is the mistake
                raise DiagnosticError(blame)
            raise DiagnosticError([error(
                "EDITION-COMBINATION", None, f"'{x}' does not combine with '{edition}'",
                f"'{edition}' combines with: {', '.join(known) or 'nothing'}; {_FIND_HINT}")])
    order = [edition] + [e for e in known if e in exps]
    compiled = [_compiled(universe, e, programs) for e in order]
    errors = [d for c in compiled for d in c.diagnostics if d.is_error]
    errors += [d for d in universe.diagnostics if d.is_error and d.span and any(
        d.span.file.startswith(eds[e].folder) for e in order)]
    if errors:
        raise DiagnosticError(sorted(errors, key=sort_key))
    assert base.setup is not None
    in_play = frozenset(order[1:])
    rows = tuple(r for c in compiled for r in c.edition.removed)
    if not any(r.with_ == in_play for r in rows):
        raise DiagnosticError([_no_setup_row(base, order[1:], eds)])
    species = {s.key: s for c in compiled for s in c.species}
    hosts = {h.id: h for c in compiled for h in c.edition.hosts}
    symbols = tuple(s for c in compiled for s in c.edition.symbols)
    scorepad = tuple(dict.fromkeys(r for c in compiled for r in c.edition.scorepad))
    return CardSet(
        editions=tuple(c.edition for c in compiled), species=species, hosts=hosts,
        symbols=symbols, setup=replace(base.setup, removed=rows), scorepad=scorepad,
        deck=tuple(card for c in compiled for card in c.deck), flags=base.flags,
    )


def _no_setup_row(base: EditionDef, exps: list[str], eds: Any) -> Diagnostic:
    """The files to add the row to: an author's own expansions before the shipped ones."""
    shipped = shipped_cards_dir().resolve()
    own = [x for x in exps if Path(eds[x].folder).resolve().parent != shipped]
    where = [str(Path(eds[x].folder) / "edition.yaml") for x in (own or exps)] or [
        str(Path(base.folder) / "edition.yaml")]
    row = "{with: [" + ", ".join(exps) + "], counts: {2: ..., 3: ..., 4: ..., 5: ...}}"
    return error("EDITION-SETUP-MISSING", None,
                 f"no edition says how many cards to remove for {_combination(base.id, exps)}",
                 f"add `- {row}` under `setup: removed:` in {' or '.join(where)}")


def errors_by_folder(universe: Universe) -> dict[str, int]:
    """How many errors `grove lint` finds in each edition folder on the path (its resolved
    path), those that did not load at all included: `grove editions` lists a set with errors
    as such rather than dropping it. Checking reads the cache where `grove lint` filled it."""
    counts: Counter[str] = Counter()
    for d in universe.diagnostics:
        if d.is_error and d.span is not None:
            counts[str(Path(d.span.file).resolve().parent)] += 1
    for eid, e in universe.editions.items():
        counts[str(Path(e.folder).resolve())] += error_count(universe, eid)
    return dict(counts)


def error_count(universe: Universe, edition_id: str) -> int:
    """How many errors an edition's check finds: an entry of its own in the cache, a number
    where the checked edition is every species and rule, so a listing of the editions reads
    five numbers instead of unpickling five editions."""
    def count() -> int:
        return sum(d.is_error for d in checked(universe, edition_id).diagnostics)

    if universe.unsaved:
        return count()
    return cache.cached("errors", cache.key("errors", universe.key, edition_id), count)


def lint(roots: Roots, only: Iterable[str] | None = None, folders: Iterable[str] = (),
         universe: Universe | None = None) -> list[Diagnostic]:
    """Every finding for the editions in `only` (default: all) and in `folders` (which may hold
    an edition too broken to load), with the other roots as context."""
    universe = universe if universe is not None else load_universe(roots)
    wanted = set(only) if only is not None else set(universe.editions)
    folders = [universe.editions[e].folder for e in wanted if e in universe.editions] + [
        str(Path(f).resolve()) for f in folders]
    out = [d for d in universe.diagnostics
           if only is None or d.span is None or any(d.span.file.startswith(f) for f in folders)]
    for eid in sorted(wanted & set(universe.editions)):
        out.extend(checked(universe, eid).diagnostics)
    for hidden, winner in universe.shadowed:
        if winner.id in wanted:
            out.append(warning("EDITION-SHADOWS", winner.span,
                               f"edition '{winner.id}' here hides the one in {hidden.folder}",
                               "the first folder on the search path wins; rename the `id` to "
                               "use both"))
    return sorted(out, key=sort_key)
