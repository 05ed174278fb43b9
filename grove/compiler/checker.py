"""Semantic checks on parsed rules: every name resolved, every argument of the right kind.

Kept apart from the parser so a syntax error and a meaning error are distinct findings with
distinct codes. The checker only reads; code generation trusts what it has passed.
"""

from __future__ import annotations

from collections.abc import Callable

from grove.compiler.model import SIDES, SpeciesDef
from grove.compiler.names import NameScope
from grove.dsl import ast
from grove.dsl.diagnostics import Diagnostic, error, warning

MaxCount = Callable[[ast.Filter], int | None]

_ZONES_FROM = {"deck", "hand", "clearing", "cave"}
_ZONES_TO = {"hand", "clearing", "cave", "removed"}


class Checker:
    def __init__(self, scope: NameScope, species: SpeciesDef, max_count: MaxCount,
                 kind_known: bool = True):
        self.scope = scope
        self.species = species
        self.max_count = max_count
        # a species whose `kind` is wrong (SPECIES-KIND) is neither known to be a host nor a
        # dweller: the checks that depend on which would only echo that error
        self.is_host: bool | None = species.kind != "dweller" if kind_known else None
        self.out: list[Diagnostic] = []
        # a name was taken for a species left out for its own error: not reported, but the
        # rule names nothing that exists and is not to be compiled
        self.folded = False

    # -- names
    def name(self, n: ast.Name, *, allow: tuple[str, ...] = ("group", "species", "type", "host"),
             what: str = "name") -> None:
        r = self.scope.resolve(n.text)
        if r is None and self.scope.left_out_name(n.text):
            self.folded = True  # its entry's own error says it; the rule cannot be compiled
            return
        if r is None:
            other = self.scope.elsewhere(n.text)
            if other is not None:
                self.out.append(error(
                    "DSL-OTHER-EDITION", n.span,
                    f"'{n.text}' belongs to edition '{other}', which a card of "
                    f"'{self.species.edition}' cannot see",
                    "a card may name cards of its own edition and of the edition it expands",
                ))
                return
            guess = self.scope.suggest(n.text)
            self.out.append(error(
                "DSL-UNKNOWN-NAME", n.span, f"unknown {what} '{n.text}'",
                f"did you mean '{guess}'?" if guess else None,
            ))
            return
        if r.kind not in allow:
            self.out.append(error(
                "DSL-WRONG-KIND", n.span,
                f"'{n.text}' is a {r.kind}, but a {' or '.join(allow)} is needed here",
            ))

    def filter(self, f: ast.Filter) -> None:
        for node in ast.walk(f):
            if isinstance(node, ast.FName):
                self.name(node.name)
            elif isinstance(node, ast.FSymbol):
                sym = node.name.text
                if sym not in self.scope.tree_symbols:
                    guess = self.scope.suggest(sym, sorted(self.scope.tree_symbols))
                    self.out.append(error(
                        "DSL-UNKNOWN-SYMBOL", node.name.span, f"unknown tree symbol '{sym}'",
                        f"did you mean '{guess}'?" if guess else
                        f"tree symbols: {', '.join(sorted(self.scope.tree_symbols))}",
                    ))

    # -- rules
    def rule(self, rule: ast.Rule, field: str) -> list[Diagnostic]:
        for node in ast.walk(rule):
            if isinstance(node, (ast.FName, ast.FSymbol)):
                continue
            self.node(node, field)
        for node in ast.walk(rule):
            if isinstance(node, (ast.FName, ast.FSymbol)):
                self.filter(node)
        return self.out

    def node(self, node: object, field: str) -> None:  # noqa: C901 - one case per node type
        sp = self.species
        is_host = self.is_host
        match node:
            case ast.CountCards(filter=f, scope=ast.Scope(kind="cave")) if not isinstance(
                f, ast.FCard
            ):
                self.out.append(error(
                    "DSL-BAD-ARGUMENT", f.span, "cards in a cave are face down: count `card in cave`",
                ))
            case ast.Compare(count=c, op=op, value=v):
                top = self._max(c)
                if top is not None and ((op == ">=" and v > top) or (op == ">" and v >= top)
                                        or (op == "==" and v > top)):
                    self.out.append(warning(
                        "DSL-NEVER-SCORES", node.span,
                        f"this condition can never hold: at most {top} matching cards exist",
                    ))
            case ast.Conditional(then=0, otherwise=0):
                self.out.append(warning("DSL-NEVER-SCORES", node.span, "both outcomes score 0"))
            case ast.Per(k=0):
                self.out.append(warning("DSL-NEVER-SCORES", node.span, "0 per anything is 0"))
            case ast.PerCopyTable(values=vals) | ast.TotalTable(values=vals) | ast.Sets(
                values=vals
            ) if not any(vals):
                self.out.append(warning("DSL-NEVER-SCORES", node.span, "every table value is 0"))
            case ast.Per(count=c) | ast.PerCopyTable(count=c) | ast.TotalTable(count=c):
                if self._max(c) == 0:
                    self.out.append(warning(
                        "DSL-NEVER-SCORES", node.span,
                        "no card of the editions this card plays with matches this count",
                    ))
            case ast.SelfFull() if is_host is False:
                self.out.append(error(
                    "DSL-WRONG-KIND", node.span,
                    "`full` is for a host card (a tree, shrub, ...); a dweller writes `host full`",
                ))
            case ast.HostFull() | ast.HostIs() | ast.HostHas() | ast.Alone() | ast.Sharing() | (
                ast.OnlySpecies()
            ) if (
                is_host is True
            ):
                self.out.append(error(
                    "DSL-WRONG-KIND", node.span,
                    f"a {sp.kind} is itself a host: this condition is for cards in its slots",
                ))
            case ast.Move(source=src, target=dst):
                if src not in _ZONES_FROM:
                    self.out.append(error("DSL-BAD-ARGUMENT", node.span,
                                          f"cards cannot be moved out of '{src}'"))
                if dst not in _ZONES_TO or dst == src:
                    self.out.append(error("DSL-BAD-ARGUMENT", node.span,
                                          f"cards cannot be moved from '{src}' to '{dst}'"))
            case ast.PlayAs(host=h):
                host = self.scope.hosts.get(h.text)
                if host is None:
                    guess = self.scope.suggest(h.text, sorted(self.scope.hosts))
                    self.out.append(error(
                        "DSL-UNKNOWN-NAME", h.span, f"unknown host '{h.text}'",
                        f"did you mean '{guess}'?" if guess else None,
                    ))
                elif not host.face_down:
                    self.out.append(error(
                        "DSL-WRONG-KIND", h.span,
                        f"'{h.text}' is not a face-down host: only those take any card",
                    ))
            case ast.Draw(n=0) | ast.DrawSplit(n=0):
                self.out.append(warning("DSL-NEVER-SCORES", node.span, "this draws nothing"))
            case ast.DrawSplit(n=n, to_cave=k) if k > n:
                self.out.append(error("DSL-BAD-ARGUMENT", node.span,
                                      f"cannot put {k} of {n} drawn cards in the cave"))
            case ast.Lets(slot=s) | ast.SlotOverride(side=s) if s is not None:
                if s.text not in SIDES and not any(
                    h.slot(s.text) for h in self.scope.hosts.values()
                ):
                    guess = self.scope.suggest(s.text, list(SIDES))
                    self.out.append(error(
                        "DSL-UNKNOWN-NAME", s.span, f"unknown slot '{s.text}'",
                        f"did you mean '{guess}'?" if guess else "slots: top, bottom, left, right",
                    ))
            case ast.CountsAs(what=w, for_=owners):
                self.name(w, allow=("type", "host", "group"), what="kind")
                for o in owners:
                    self.name(o, allow=("species",), what="species")
            case ast.TriggerRule(verb="place", where_hosts=None):
                self.out.append(error(
                    "DSL-BAD-ARGUMENT", node.span,
                    "`whenever you place` needs a place: `below tree` or `atop tree`",
                ))
            case _:
                pass

    def _max(self, c: object) -> int | None:
        if isinstance(c, ast.CountCards) and c.scope.kind == "forest":
            return self.max_count(c.filter)
        if isinstance(c, ast.CountSpecies) and c.scope.kind == "forest":
            return self.max_count(c.filter) if self.max_count(c.filter) == 0 else None
        return None
