"""What a name in a rule means, for the editions a card can see.

A name resolves, in this order, to a group, a species, a type symbol (edition card symbols
included) or a host kind. Tree symbols live in their own namespace, written `symbol(oak)`, since
in the classic game a tree symbol and its tree species share one id.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from grove.compiler.model import EditionDef, HostKind, SpeciesDef, Symbol


@dataclass(frozen=True)
class Resolved:
    kind: str  # "group" | "species" | "type" | "host"
    key: str  # the tag, species key or host id that the runtime matches
    edition: str


class NameScope:
    """The names visible from one edition: itself and the editions it expands."""

    def __init__(self, visible: list[EditionDef], universe: list[EditionDef]):
        self.visible = visible
        self.ids = {e.id for e in visible}
        self.universe = {e.id: e for e in universe}
        self.species: dict[str, SpeciesDef] = {}
        self.species_by_id: dict[str, list[SpeciesDef]] = {}
        self.types: dict[str, Symbol] = {}
        self.groups: dict[str, Symbol] = {}
        self.tree_symbols: dict[str, Symbol] = {}
        self.hosts: dict[str, HostKind] = {}
        for e in visible:
            for s in e.species:
                self.species[s.key] = s
                self.species_by_id.setdefault(s.id, []).append(s)
            for sym in e.symbols:
                table = {"type": self.types, "group": self.groups, "tree": self.tree_symbols}
                table[sym.kind].setdefault(sym.id, sym)
            for h in e.hosts:
                self.hosts.setdefault(h.id, h)
        self.root = visible[0].id if visible else ""
        self.left_out: frozenset[str] = frozenset().union(*(e.left_out for e in visible))

    def left_out_name(self, name: str) -> bool:
        """Whether `name` may be a species whose entry loading left out for its own errors:
        a finding that only repeats that error is not reported again."""
        return bool(self.left_out) and (
            "" in self.left_out or name.rpartition(":")[2] in self.left_out)

    def species_named(self, name: str) -> SpeciesDef | None:
        if ":" in name:
            return self.species.get(name)
        found = self.species_by_id.get(name, [])
        if len(found) == 1:
            return found[0]
        for s in found:  # a plain id means the card of the base game
            if s.edition == self.root:
                return s
        return None

    def resolve(self, name: str) -> Resolved | None:
        if ":" in name:
            sp = self.species.get(name)
            return Resolved("species", sp.key, sp.edition) if sp else None
        if name in self.groups:
            return Resolved("group", name, self.groups[name].edition)
        sp = self.species_named(name)
        if sp is not None:
            return Resolved("species", sp.key, sp.edition)
        if name in self.types:
            return Resolved("type", name, self.types[name].edition)
        if name in self.hosts:
            return Resolved("host", name, self.hosts[name].edition)
        return None

    def elsewhere(self, name: str) -> str | None:
        """The edition outside this scope that defines `name`, for a clearer error."""
        edition, _, plain = name.rpartition(":")
        for e in self.universe.values():
            if e.id in self.ids or (edition and e.id != edition):
                continue
            if any(s.id == plain for s in e.species) or any(y.id == plain for y in e.symbols):
                return e.id
            if any(h.id == plain for h in e.hosts):
                return e.id
        return None

    def all_names(self) -> list[str]:
        names = set(self.groups) | set(self.types) | set(self.hosts) | set(self.species_by_id)
        names |= set(self.species)
        return sorted(names)

    def suggest(self, name: str, pool: list[str] | None = None) -> str | None:
        pool = pool if pool is not None else self.all_names()
        close = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
        return close[0] if close else None
