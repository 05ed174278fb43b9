"""AST of the rules language: small frozen dataclasses, each carrying its source span.

Spans take no part in equality or hashing, so two cards with the same rule text hold equal rules;
the scorer relies on that to score a set rule (shared by every butterfly) once per forest.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields, is_dataclass
from functools import cache

from grove.dsl.diagnostics import Span

# The fields of a card entry that hold rules, each parsed from its own start rule
# (grove/dsl/parser.py) into its own kind of tree below.
FIELDS = ("score", "effect", "bonus", "trigger", "placement", "modifier")

_NOSPAN = Span("<dsl>", 1, 1)


def _span() -> Span:
    return field(default=_NOSPAN, compare=False, repr=False)


# ---- names and filters ---------------------------------------------------------------------
@dataclass(frozen=True)
class Name:
    text: str
    span: Span = _span()


@dataclass(frozen=True)
class FCard:
    span: Span = _span()


@dataclass(frozen=True)
class FName:
    name: Name
    span: Span = _span()


@dataclass(frozen=True)
class FSymbol:
    name: Name
    span: Span = _span()


@dataclass(frozen=True)
class FOwnSymbol:
    span: Span = _span()


@dataclass(frozen=True)
class FOther:
    span: Span = _span()


@dataclass(frozen=True)
class FAnd:
    items: tuple[Filter, ...]
    span: Span = _span()


@dataclass(frozen=True)
class FOr:
    items: tuple[Filter, ...]
    span: Span = _span()


@dataclass(frozen=True)
class FNot:
    item: Filter
    span: Span = _span()


Filter = FCard | FName | FSymbol | FOwnSymbol | FOther | FAnd | FOr | FNot


# ---- counts --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Scope:
    """Where cards are counted: `forest` (default), `attached`, `at_host`, `below`, `atop`, `cave`."""

    kind: str
    hosts: Filter | None = None
    span: Span = _span()


FOREST = Scope("forest")


@dataclass(frozen=True)
class CountCards:
    filter: Filter
    scope: Scope = FOREST
    span: Span = _span()


@dataclass(frozen=True)
class CountSpecies:
    filter: Filter
    scope: Scope = FOREST
    span: Span = _span()


@dataclass(frozen=True)
class CountSymbols:
    scope: Scope = FOREST
    span: Span = _span()


@dataclass(frozen=True)
class CountFullHosts:
    hosts: Filter
    span: Span = _span()


@dataclass(frozen=True)
class CountHostsWithout:
    hosts: Filter
    filter: Filter
    span: Span = _span()


Count = CountCards | CountSpecies | CountSymbols | CountFullHosts | CountHostsWithout


# ---- conditions ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Compare:
    count: Count
    op: str
    value: int
    span: Span = _span()


@dataclass(frozen=True)
class Most:
    count: Count
    span: Span = _span()


@dataclass(frozen=True)
class HostIs:
    filter: Filter
    span: Span = _span()


@dataclass(frozen=True)
class HostHas:
    n: int
    filter: Filter
    host: Filter | None = None  # `tree host has bat`: the host must match too
    span: Span = _span()


@dataclass(frozen=True)
class Alone:
    except_: Filter | None = None
    span: Span = _span()


@dataclass(frozen=True)
class SelfFull:
    span: Span = _span()


@dataclass(frozen=True)
class HostFull:
    span: Span = _span()


@dataclass(frozen=True)
class Sharing:
    filter: Filter
    span: Span = _span()


@dataclass(frozen=True)
class OnlySpecies:
    """No card of another species at this card's host (face-down cards do not count)."""

    span: Span = _span()


Condition = Compare | Most | HostIs | HostHas | Alone | SelfFull | HostFull | Sharing | OnlySpecies


# ---- score ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Flat:
    points: int
    span: Span = _span()


@dataclass(frozen=True)
class Per:
    k: int
    count: Count
    span: Span = _span()


@dataclass(frozen=True)
class Conditional:
    then: int
    cond: Condition
    otherwise: int = 0
    span: Span = _span()


@dataclass(frozen=True)
class PerCopyTable:
    values: tuple[int, ...]
    count: Count
    span: Span = _span()


@dataclass(frozen=True)
class TotalTable:
    """Scored once for the forest: copies past the table's end add nothing."""

    values: tuple[int, ...]
    count: Count
    span: Span = _span()


@dataclass(frozen=True)
class Sets:
    """Scored once for the forest: layered sets of different species, each card in one set."""

    filter: Filter
    values: tuple[int, ...]
    span: Span = _span()


ScoreTerm = Flat | Per | Conditional | PerCopyTable | TotalTable | Sets
GROUP_TERMS = (TotalTable, Sets)


@dataclass(frozen=True)
class ScoreRule:
    terms: tuple[ScoreTerm, ...]
    span: Span = _span()


# ---- actions -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Amount:
    """`n`, `up_to` n, `any` number, `all`, or n `per` count."""

    kind: str
    n: int = 0
    per: Count | None = None
    span: Span = _span()


@dataclass(frozen=True)
class Draw:
    n: int
    per: Count | None = None
    span: Span = _span()


@dataclass(frozen=True)
class DrawSplit:
    n: int
    to_cave: int
    span: Span = _span()


@dataclass(frozen=True)
class Take:
    amount: Amount
    filter: Filter | None = None
    span: Span = _span()


@dataclass(frozen=True)
class Move:
    amount: Amount
    filter: Filter | None
    source: str
    target: str
    draw_as_many: bool = False
    span: Span = _span()


@dataclass(frozen=True)
class Again:
    span: Span = _span()


@dataclass(frozen=True)
class IfAction:
    cond: Condition
    action: Action
    span: Span = _span()


@dataclass(frozen=True)
class FreePlay:
    amount: Amount
    filter: Filter
    with_effect: bool = False
    span: Span = _span()


@dataclass(frozen=True)
class Rummage:
    filter: Filter
    reveal: int = 0
    span: Span = _span()


@dataclass(frozen=True)
class PlayAs:
    amount: Amount
    filter: Filter | None
    host: Name
    span: Span = _span()


@dataclass(frozen=True)
class PlayPaying:
    span: Span = _span()


Action = (
    Draw | DrawSplit | Take | Move | Again | IfAction | FreePlay | Rummage | PlayAs | PlayPaying
)


@dataclass(frozen=True)
class EffectRule:
    actions: tuple[Action, ...]
    span: Span = _span()


# ---- triggers ------------------------------------------------------------------------------
@dataclass(frozen=True)
class TriggerRule:
    verb: str  # "play" (what the card is) or "place" (where it goes)
    filter: Filter
    where_side: str | None  # "bottom" for `below`, "top" for `atop`
    where_hosts: Filter | None
    actions: tuple[Action, ...]
    next_turn: bool = False
    optional: bool = False
    span: Span = _span()


# ---- placement -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Share:
    amount: Amount
    filter: Filter
    span: Span = _span()


@dataclass(frozen=True)
class Lets:
    amount: Amount
    filter: Filter
    slot: Name | None  # None: any slot
    span: Span = _span()
    joins: bool = False  # `join`: they may go into an occupied slot, whatever it holds


@dataclass(frozen=True)
class OnlyOn:
    filter: Filter
    span: Span = _span()


@dataclass(frozen=True)
class NotOn:
    filter: Filter
    span: Span = _span()


@dataclass(frozen=True)
class Joining:
    filter: Filter
    span: Span = _span()


@dataclass(frozen=True)
class MaxPerHost:
    n: int
    span: Span = _span()


@dataclass(frozen=True)
class SlotOverride:
    side: Name
    capacity: int
    filter: Filter
    span: Span = _span()


PlacementStmt = Share | Lets | OnlyOn | NotOn | Joining | MaxPerHost | SlotOverride


@dataclass(frozen=True)
class PlacementRule:
    stmts: tuple[PlacementStmt, ...]
    span: Span = _span()


# ---- modifiers -----------------------------------------------------------------------------
@dataclass(frozen=True)
class CountsAs:
    n: int
    what: Name
    for_: tuple[Name, ...]
    span: Span = _span()


@dataclass(frozen=True)
class DoubleBelow:
    filter: Filter
    span: Span = _span()


ModifierStmt = CountsAs | DoubleBelow


@dataclass(frozen=True)
class ModifierRule:
    stmts: tuple[ModifierStmt, ...]
    span: Span = _span()


Rule = ScoreRule | EffectRule | TriggerRule | PlacementRule | ModifierRule


@cache
def _child_fields(cls: type) -> tuple[str, ...]:
    """The fields of a node class that may hold nodes: `dataclasses.fields` builds its answer
    on every call, and walking every rule of an edition asked it thousands of times."""
    return tuple(f.name for f in fields(cls) if f.name != "span") if is_dataclass(cls) else ()


def walk(node: object) -> Iterator[object]:
    """Every node of a rule, the node itself first (spans are not nodes)."""
    yield node
    for name in _child_fields(type(node)):
        value = getattr(node, name)
        for item in value if isinstance(value, tuple) else (value,):
            if is_dataclass(item):
                yield from walk(item)
