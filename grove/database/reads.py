"""What a species' rules count, as the compiler reads them: `reads:hare` in a query.

The compiler already knows which forest counters each count of a rule reads (`count_reads` in
grove/compiler/codegen.py: "tag:hare", "species:base:red_fox", "symbol:oak"), so a player weighing a
play re-runs only the rules it can change. A count no single counter answers ("per bird or
mammal") reads every card there; for those the names its filter holds, resolved as the
compiler resolves them (`compile_filter`), say what it counts. Only counts are readings: a
placement rule that names a species, or a trigger on playing a bird, counts nothing. A condition
on the cards at a host counts them too (`if tree host has bat` reads bat, `30 if host has 2
fish` fish, `per river without fish below` fish as well as river); a condition on the host
itself (`if host is oak`) counts nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from grove.dsl import ast

if TYPE_CHECKING:
    from grove.compiler.cardset import Species
    from grove.compiler.names import NameScope

NAMED = ("tag", "species", "symbol")  # the readings that name something
_COUNTS = (ast.CountCards, ast.CountSpecies, ast.CountSymbols, ast.CountFullHosts,
           ast.CountHostsWithout, ast.Sets)


def _named(node: object, scope: NameScope) -> set[str]:
    """The names a count's filters hold, as the compiler resolves them."""
    from grove.compiler.codegen import compile_filter

    out = set()
    for n in ast.walk(node):
        if isinstance(n, (ast.FName, ast.FSymbol)):
            fast = compile_filter(n, scope).fast
            if fast is not None:
                out.add(f"{fast[0]}:{fast[1]}")
    return out


def rule_reads(rule: ast.Rule, scope: NameScope, owner: str) -> frozenset[str]:
    """Every name a rule counts: "tag:<t>", "species:<key>" or "symbol:<s>"."""
    from grove.compiler.codegen import count_reads

    out: set[str] = set()
    for node in ast.walk(rule):
        if isinstance(node, ast.HostHas):  # `if tree host has bat` counts the bats there
            out |= _named(node.filter, scope)
            continue
        if not isinstance(node, _COUNTS):
            continue
        found = set() if isinstance(node, ast.Sets) else {
            t for t in count_reads(node, scope, owner, frozenset())
            if t.partition(":")[0] in NAMED}
        out |= found or _named(node, scope)  # no one counter names it: what the filter names
    return frozenset(out)


def species_reads(s: Species, scope: NameScope) -> frozenset[str]:
    """Every name any rule of a compiled species counts."""
    out: frozenset[str] = frozenset()
    for f in ast.FIELDS:
        program = getattr(s, f, None)
        rule = getattr(program, "rule", None)
        if rule is not None:
            out |= rule_reads(rule, scope, s.key)
    return out
