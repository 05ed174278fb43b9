"""Checked AST -> plain Python callables.

Each rule is compiled once into closures over precomputed keys, so scoring a forest runs no
interpretation of the AST: a `2 per bird` becomes one counter lookup and a multiplication.
Callables that need the player's choices (effects, bonuses, triggers) call the engine through the
`EffectContext` protocol and know nothing else of it.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from grove.compiler.names import NameScope
from grove.dsl import ast
from grove.dsl.diagnostics import Span
from grove.forest.host import Host, Placed
from grove.forest.model import Forest

Pred = Callable[[Placed, Placed], bool]  # (card, the card whose rule this is) -> matches
CountFn = Callable[[Placed, Forest], int]
CondFn = Callable[[Placed, Forest], bool]
GroupFn = Callable[[Placed, Forest], int]  # (first card carrying the rule, forest)

_CMP = {">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt, "==": operator.eq}


# ---- filters -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Query:
    """A compiled filter: `pred`, plus a fast path when one counter answers the count."""

    pred: Pred
    fast: tuple[str, str] | None = None  # ("tag"|"species"|"symbol"|"own"|"all", key)


def _all(c: Placed, me: Placed) -> bool:
    return True


def compile_filter(f: ast.Filter, scope: NameScope) -> Query:
    match f:
        case ast.FCard():
            return Query(_all, ("all", ""))
        case ast.FName(name=n):
            r = scope.resolve(n.text)
            assert r is not None, n.text
            if r.kind == "species":
                key = r.key
                return Query(lambda c, me: c.key == key, ("species", key))
            tag = r.key
            return Query(lambda c, me: tag in c.tags, ("tag", tag))
        case ast.FSymbol(name=n):
            sym = n.text
            return Query(lambda c, me: c.symbol == sym, ("symbol", sym))
        case ast.FOwnSymbol():
            return Query(lambda c, me: me.symbol is not None and c.symbol == me.symbol,
                         ("own", ""))
        case ast.FOther():
            return Query(lambda c, me: c is not me)
        case ast.FNot(item=i):
            p = compile_filter(i, scope).pred
            return Query(lambda c, me: not p(c, me))
        case ast.FAnd(items=items):
            parts = [compile_filter(i, scope) for i in items if not isinstance(i, ast.FCard)]
            if not parts:
                return Query(_all, ("all", ""))
            if len(parts) == 1:
                return parts[0]
            preds = tuple(p.pred for p in parts)
            return Query(lambda c, me: all(p(c, me) for p in preds))
        case ast.FOr(items=items):
            parts = [compile_filter(i, scope) for i in items]
            preds = tuple(p.pred for p in parts)
            kinds = {p.fast[0] if p.fast else None for p in parts}
            # a card shows one tree symbol and is one species: such an `or` counts as a sum
            if kinds in ({"symbol"}, {"species"}):
                kind = kinds.pop()
                return Query(lambda c, me: any(p(c, me) for p in preds),
                             (kind + "s", ",".join(p.fast[1] for p in parts)))  # type: ignore[index]
            return Query(lambda c, me: any(p(c, me) for p in preds))
    raise TypeError(f"not a filter: {f!r}")


# ---- counts --------------------------------------------------------------------------------
def _scope_cards(s: ast.Scope, scope: NameScope) -> Callable[[Placed, Forest], Iterable[Placed]]:
    match s.kind:
        case "forest":
            return lambda me, v: v.cards
        case "attached":
            return lambda me, v: me.host.attached()
        case "at_host":
            return lambda me, v: (me.host.card, *me.host.attached())
        case "below" | "atop":
            side = "bottom" if s.kind == "below" else "top"
            hp = compile_filter(s.hosts, scope).pred  # type: ignore[arg-type]

            def on_side(me: Placed, v: Forest) -> Iterable[Placed]:
                for h in v.hosts:
                    if hp(h.card, me):
                        yield from h.on_side(side)

            return on_side
    raise ValueError(s.kind)


def _fast_forest_count(q: Query) -> CountFn | None:
    """A count one forest counter answers, as a function: the expression the rule's generated
    source inlines (`_counter_source`), so each counter is spelt once."""
    src = _counter_source(q)
    if src is None:
        return None
    return eval(f"lambda me, v: {src}")  # noqa: S307 - an expression of our own making


def _uses_me(node: object) -> bool:
    """Whether a filter or count looks at the scoring copy itself (own symbol, other, host)."""
    return any(
        isinstance(n, (ast.FOwnSymbol, ast.FOther))
        or (isinstance(n, ast.Scope) and n.kind in ("attached", "at_host"))
        for n in ast.walk(node)
    )


def _memo(fn: CountFn) -> CountFn:
    """A count that is the same for every copy: computed once per forest view."""
    key = object()

    def memo(me: Placed, v: Forest) -> int:
        try:
            return v.memo[key]
        except KeyError:
            n = v.memo[key] = fn(me, v)
            return n

    return memo


def compile_count(c: ast.Count, scope: NameScope, owner: str, boosted: frozenset[str]) -> CountFn:
    fn = _compile_count(c, scope)
    if owner in boosted and isinstance(c, ast.CountCards) and c.scope.kind == "forest":
        pred = compile_filter(c.filter, scope).pred
        plain = fn

        def boosted_count(me: Placed, v: Forest) -> int:
            extra = v.extra.get(owner)
            n = plain(me, v)
            if extra:
                n += sum(k for hc, k in extra if pred(hc, me))
            return n

        return boosted_count
    return fn


def _compile_count(c: ast.Count, scope: NameScope) -> CountFn:
    fn = _compile_count_plain(c, scope)
    if getattr(fn, "fast", False) or _uses_me(c):
        return fn
    return _memo(fn)


def _compile_count_plain(c: ast.Count, scope: NameScope) -> CountFn:
    match c:
        case ast.CountCards(filter=f, scope=s):
            if s.kind == "cave":
                return lambda me, v: v.cave
            q = compile_filter(f, scope)
            if s.kind == "forest":
                fast = _fast_forest_count(q)
                if fast is not None:
                    fast.fast = True  # type: ignore[attr-defined]
                    return fast
            if s.kind in ("below", "atop") and q.fast == ("all", ""):
                side = "bottom" if s.kind == "below" else "top"
                hp = compile_filter(s.hosts, scope).pred  # type: ignore[arg-type]
                return lambda me, v: sum([len(h.sides[side]) for h in v.hosts if hp(h.card, me)])
            cards = _scope_cards(s, scope)
            pred = q.pred
            return lambda me, v: len([x for x in cards(me, v) if pred(x, me)])
        case ast.CountSpecies(filter=f, scope=s) if s.kind == "forest" and (
            compile_filter(f, scope).fast or ("",))[0] == "tag":
            tag = compile_filter(f, scope).fast[1]  # type: ignore[index]
            return lambda me, v: v.tag_species.get(tag, 0)
        case ast.CountSpecies(filter=f, scope=s):
            pred = compile_filter(f, scope).pred
            cards = _scope_cards(s, scope)
            return lambda me, v: len({x.key for x in cards(me, v) if x.key and pred(x, me)})
        case ast.CountSymbols(scope=s):
            cards = _scope_cards(s, scope)
            return lambda me, v: len({x.symbol for x in cards(me, v) if x.symbol})
        case ast.CountFullHosts(hosts=h):
            hp = compile_filter(h, scope).pred
            return lambda me, v: len([x for x in v.hosts if x.is_full and hp(x.card, me)])
        case ast.CountHostsWithout(hosts=h, filter=f):
            hp = compile_filter(h, scope).pred
            fp = compile_filter(f, scope).pred

            def without(me: Placed, v: Forest) -> int:
                # a host counts as what it is, or as what lies beneath it (a tree's river)
                return len([
                    x for x in v.hosts
                    if (hp(x.card, me) or any(hp(b, me) for b in x.beneath))
                    and not any(fp(y, me) for y in x.sides["bottom"])
                ])

            return without
    raise TypeError(f"not a count: {c!r}")


# ---- conditions ----------------------------------------------------------------------------
def compile_condition(
    c: ast.Condition, scope: NameScope, owner: str, boosted: frozenset[str]
) -> CondFn:
    match c:
        case ast.Compare(count=cnt, op=op, value=value):
            fn, cmp = compile_count(cnt, scope, owner, boosted), _CMP[op]
            return lambda me, v: cmp(fn(me, v), value)
        case ast.Most(count=cnt):
            fn = compile_count(cnt, scope, owner, boosted)

            def most(me: Placed, v: Forest) -> bool:
                return at_least_each(fn(me, v), [fn(me, o) for o in v.others])

            return most
        case ast.HostIs(filter=f):
            p = compile_filter(f, scope).pred
            return lambda me, v: p(me.host.card, me)
        case ast.HostHas(n=n, filter=f, host=hf):
            p = compile_filter(f, scope).pred
            hp = compile_filter(hf, scope).pred if hf is not None else None

            def host_has(me: Placed, v: Forest) -> bool:
                h: Host = me.host
                if hp is not None and not hp(h.card, me):
                    return False
                found = 1 if (h.card is not me and p(h.card, me)) else 0
                found += len([x for x in h.attached() if x is not me and p(x, me)])
                return found >= n

            return host_has
        case ast.Alone(except_=exc):
            ep = compile_filter(exc, scope).pred if exc is not None else None
            return lambda me, v: not any(
                x is not me and not (ep and ep(x, me)) for x in me.host.attached()
            )
        case ast.SelfFull() | ast.HostFull():
            return lambda me, v: me.host.is_full
        case ast.Sharing(filter=f):
            p = compile_filter(f, scope).pred
            return lambda me, v: me.slot is not None and any(
                x is not me and p(x, me) for x in me.host.slots[me.slot]
            )
        case ast.OnlySpecies():
            return lambda me, v: all(
                x.key is None or x.key == me.key for x in me.host.attached()
            )
    raise TypeError(f"not a condition: {c!r}")


# ---- what a rule reads ---------------------------------------------------------------------
# A rule's value changes only where something it reads changes. The tokens it reads:
#   "tag:<t>", "species:<key>", "symbol:<s>"  the forest's counter of that tag, species, symbol
#   "symbols"      the counter of the card's own symbol
#   "extra:<key>"  the `counts as n more` modifiers for that species' rules
#   "local"        the cards at the card's own host (its slots, its host card, how full it is)
#   "cave"         the cave
#   "cards"        every visible card (a rule that looks at each card in the forest)
#   "full"         which hosts are full
#   "side:<side>"  the cards on that side of hosts (below and atop a host)
#   "hosts"        the hosts themselves
#   "others"       the other players' forests (a majority)
#   "any"          anything in the forest, or beyond it
# so that a player weighing a play re-runs only the rules it can change (`grove/engine/tally.py`).
ANY = frozenset({"any"})
LOCAL = frozenset({"local"})
CARDS = frozenset({"cards"})


def _forest_reads(q: Query) -> frozenset[str]:
    if q.fast is None:
        return CARDS
    kind, key = q.fast
    if kind in ("tag", "species", "symbol"):
        return frozenset({f"{kind}:{key}"})
    if kind in ("symbols", "speciess"):
        return frozenset(f"{kind[:-1]}:{k}" for k in key.split(","))
    if kind == "own":
        return frozenset({"symbols"})
    return CARDS


def count_reads(c: ast.Count, scope: NameScope, owner: str, boosted: frozenset[str]
                ) -> frozenset[str]:
    match c:
        case ast.CountCards(filter=f, scope=s):
            if s.kind == "cave":
                return frozenset({"cave"})
            if s.kind in ("attached", "at_host"):
                return LOCAL
            if s.kind in ("below", "atop"):  # the cards on one side of hosts of a kind
                return frozenset({f"side:{'bottom' if s.kind == 'below' else 'top'}"})
            if s.kind != "forest":
                return ANY
            out = _forest_reads(compile_filter(f, scope))
            return out | {f"extra:{owner}"} if owner in boosted else out
        case ast.CountSpecies(scope=s) | ast.CountSymbols(scope=s) if s.kind in (
                "attached", "at_host"):
            return LOCAL
        case ast.CountSpecies(filter=f, scope=s) if s.kind == "forest":
            fast = compile_filter(f, scope).fast
            return frozenset({f"tag:{fast[1]}"}) if fast and fast[0] == "tag" else CARDS
        case ast.CountSymbols(scope=s) if s.kind == "forest":
            return frozenset({"symbols"})
        case ast.CountFullHosts():
            return frozenset({"full"})
        case ast.CountHostsWithout():
            return frozenset({"hosts", "side:bottom"})
    return ANY


def condition_reads(c: ast.Condition, scope: NameScope, owner: str, boosted: frozenset[str]
                    ) -> frozenset[str]:
    match c:
        case ast.Compare(count=cnt):
            return count_reads(cnt, scope, owner, boosted)
        case ast.Most(count=cnt):  # against the other players' forests too
            return count_reads(cnt, scope, owner, boosted) | {"others"}
    return LOCAL  # the card's host: what it is, holds, shares, whether it is full


def term_reads(term: ast.ScoreTerm, scope: NameScope, owner: str, boosted: frozenset[str]
               ) -> frozenset[str]:
    match term:
        case ast.Flat():
            return frozenset()
        case ast.Per(count=cnt) | ast.PerCopyTable(count=cnt) | ast.TotalTable(count=cnt):
            return count_reads(cnt, scope, owner, boosted)
        case ast.Conditional(cond=cond):
            return condition_reads(cond, scope, owner, boosted)
        case ast.Sets(filter=f):
            fast = compile_filter(f, scope).fast
            return frozenset({f"tag:{fast[1]}"}) if fast and fast[0] == "tag" else CARDS
    return ANY


# ---- score ---------------------------------------------------------------------------------
def _lookup(values: tuple[int, ...], n: int) -> int:
    if n <= 0:
        return 0
    return values[min(n, len(values)) - 1]


def layered_sets(species_counts: Iterable[int], values: tuple[int, ...]) -> int:
    """Sets of different species, built in layers: set i holds every species with >= i copies."""
    counts = sorted((n for n in species_counts if n > 0), reverse=True)
    total = 0
    layer = 1
    while counts and counts[0] >= layer:
        size = len([n for n in counts if n >= layer])
        total += _lookup(values, size)
        layer += 1
    return total


@dataclass(frozen=True)
class ScoreProgram:
    per_copy: tuple[tuple[ast.ScoreTerm, CountFn], ...]  # term by term, for `--explain`
    group: tuple[tuple[ast.ScoreTerm, GroupFn], ...]
    rule: ast.ScoreRule
    points: CountFn  # every per-copy term at once: one generated function
    source: str = ""
    # one string per group term, equal for equal rules (spans take no part in repr): hashing a
    # string is cached by Python, hashing the nested AST is not
    group_keys: tuple[str, ...] = ()
    reads_symbols: bool = False  # it scores by tree symbols: a forest must say which each shows
    reads: frozenset[str] = ANY  # what its per-copy terms read (see `term_reads`)
    group_reads: tuple[frozenset[str], ...] = ()  # the same per group term


def _count_source(c: ast.Count, scope: NameScope, owner: str, boosted: frozenset[str],
                  env: dict[str, object], v: str = "v") -> str:
    """A Python expression for a count in forest `v`: a counter lookup where one answers it,
    else a call."""
    if isinstance(c, ast.CountCards) and c.scope.kind == "forest":
        q = compile_filter(c.filter, scope)
        plain = _counter_source(q, v)
        if plain is not None and owner not in boosted:
            return plain
        if plain is not None:  # and the `counts as n more` of hosts where some are in play
            name = f"_x{len(env)}"
            pred = q.pred
            env[name] = lambda me, v: sum([k for hc, k in v.extra.get(owner, ()) if pred(hc, me)])
            return f"({plain} + ({name}(me, {v}) if {v}.extra else 0))"
    if isinstance(c, ast.CountCards) and c.scope.kind == "attached" and isinstance(
            c.filter, ast.FCard):
        return "len(me.host.attached())"
    if isinstance(c, ast.CountSpecies) and c.scope.kind == "forest":
        fast = compile_filter(c.filter, scope).fast
        if fast is not None and fast[0] == "tag":
            return f"{v}.tag_species.get({fast[1]!r}, 0)"
    name = f"_n{len(env)}"
    env[name] = compile_count(c, scope, owner, boosted)
    return f"{name}(me, {v})"


def _counter_source(q: Query, v: str = "v") -> str | None:
    """The counter of forest `v` that answers a filter's count, as an expression, if one does."""
    if q.fast is None:
        return None
    kind, key = q.fast
    if kind in ("tag", "species", "symbol"):
        return f"{v}.{kind}_count.get({key!r}, 0)"
    if kind == "own":
        return f"({v}.symbol_count.get(me.symbol, 0) if me.symbol else 0)"
    if kind == "all":
        return f"len({v}.cards)"
    if kind in ("symbols", "speciess"):  # a card shows one symbol and is one species: a sum
        table = "symbol_count" if kind == "symbols" else "species_count"
        return "(" + " + ".join(f"{v}.{table}.get({k!r}, 0)" for k in key.split(",")) + ")"
    return None


def at_least_each(mine: int, theirs: list[int]) -> bool:
    """A majority as the rules count it: at least as many as each other forest (a tie holds).
    A loop over a list, not `all()` over a generator, which it would resume from C for each
    forest: a majority is asked of every such card whenever a forest is scored."""
    for n in theirs:  # noqa: SIM110 - the loop is the point (see above)
        if n > mine:
            return False
    return True


def _term_source(term: ast.ScoreTerm, scope: NameScope, owner: str, boosted: frozenset[str],
                 env: dict[str, object]) -> str:
    match term:
        case ast.Flat(points=p):
            return str(p)
        case ast.Per(k=k, count=cnt):
            return f"{k} * {_count_source(cnt, scope, owner, boosted, env)}"
        case ast.Conditional(then=a, cond=ast.Compare(count=cnt, op=op, value=n), otherwise=b):
            return f"({a} if {_count_source(cnt, scope, owner, boosted, env)} {op} {n} else {b})"
        case ast.Conditional(then=a, cond=ast.Most(count=cnt), otherwise=b):
            # a majority: at least as many as each other forest has
            mine = _count_source(cnt, scope, owner, boosted, env)
            theirs = _count_source(cnt, scope, owner, boosted, env, "o")
            env["_most"] = at_least_each
            return f"({a} if _most({mine}, [{theirs} for o in v.others]) else {b})"
        case ast.Conditional(then=a, cond=ast.HostIs(filter=f), otherwise=b) if (
                compile_filter(f, scope).fast or ("",))[0] in ("tag", "species"):
            kind, key = compile_filter(f, scope).fast  # type: ignore[misc]
            test = (f"me.host.card.key == {key!r}" if kind == "species"
                    else f"{key!r} in me.host.card.tags")
            return f"({a} if {test} else {b})"
        case ast.Conditional(then=a, cond=cond, otherwise=b):
            name = f"_k{len(env)}"
            env[name] = compile_condition(cond, scope, owner, boosted)
            return f"({a} if {name}(me, v) else {b})"
        case ast.PerCopyTable(values=vals, count=cnt):
            env["_lookup"] = _lookup
            return f"_lookup({vals!r}, {_count_source(cnt, scope, owner, boosted, env)})"
    raise TypeError(term)


def _generate(terms: list[ast.ScoreTerm], scope: NameScope, owner: str,
              boosted: frozenset[str], where: Span) -> tuple[CountFn, tuple[CountFn, ...], str]:
    """The rule's one compiled form: a function per per-copy term (what `--explain` shows term
    by term) and `points`, every term at once, with the same expressions inlined. The code is
    compiled under the card file's name on the rule's line, so a traceback inside a rule shows
    that file, line and rule text."""
    env: dict[str, object] = {}
    bodies = [_term_source(t, scope, owner, boosted, env) for t in terms]
    lines = [f"def _t{k}(me, v): return {body}" for k, body in enumerate(bodies)]
    lines.append(f"def points(me, v): return {' + '.join(bodies) or '0'}")
    source = "\n".join(lines) + "\n"
    for line in lines:  # each on the rule's line
        placed = "\n" * max(where.line - 1, 0) + line + "\n"
        exec(compile(placed, where.file, "exec"), env)  # noqa: S102 - our own AST only
    return (env["points"], tuple(env[f"_t{k}"] for k in range(len(bodies))),  # type: ignore[misc]
            source)


def compile_score(
    rule: ast.ScoreRule, scope: NameScope, owner: str, boosted: frozenset[str]
) -> ScoreProgram:
    per_copy: list[ast.ScoreTerm] = []
    group: list[tuple[ast.ScoreTerm, GroupFn]] = []
    for term in rule.terms:
        match term:
            case ast.Flat() | ast.Per() | ast.Conditional() | ast.PerCopyTable():
                per_copy.append(term)
            case ast.TotalTable(values=vals, count=cnt):
                fn = compile_count(cnt, scope, owner, boosted)
                group.append((term, lambda me, v, fn=fn, vals=vals: _lookup(vals, fn(me, v))))
            case ast.Sets(filter=f, values=vals) if (compile_filter(f, scope).fast or ("",))[0] == (
                "tag"
            ):
                tag = compile_filter(f, scope).fast[1]  # type: ignore[index]

                def tag_sets(me: Placed, v: Forest, tag=tag, vals=vals) -> int:
                    tags = v.species_tags
                    return layered_sets(
                        [n for k, n in v.species_count.items() if tag in tags[k]], vals)

                group.append((term, tag_sets))
            case ast.Sets(filter=f, values=vals):
                pred = compile_filter(f, scope).pred

                def sets(me: Placed, v: Forest, pred=pred, vals=vals) -> int:
                    counts: dict[str, int] = {}
                    for x in v.cards:
                        if x.key is not None and pred(x, x):
                            counts[x.key] = counts.get(x.key, 0) + 1
                    return layered_sets(counts.values(), vals)

                group.append((term, sets))
    points, term_fns, source = _generate(per_copy, scope, owner, boosted, rule.span)
    symbols = any(isinstance(n, (ast.FSymbol, ast.FOwnSymbol, ast.CountSymbols))
                  for n in ast.walk(rule))
    reads = frozenset().union(*(term_reads(t, scope, owner, boosted) for t in per_copy))
    group_reads = tuple(term_reads(t, scope, owner, boosted) for t, _ in group)
    return ScoreProgram(tuple(zip(per_copy, term_fns, strict=True)), tuple(group), rule, points,
                        source, tuple(repr(t) for t, _ in group), symbols, reads, group_reads)


# ---- effects -------------------------------------------------------------------------------
@dataclass(frozen=True)
class AmountFn:
    kind: str  # "n" | "up_to" | "any" | "all"
    n: Callable[[EffectContext], int]


class EffectContext(Protocol):
    """What a compiled effect asks of the engine; the engine decides through its players."""

    card: Placed
    forest: Forest

    def draw(self, n: int) -> None: ...
    def draw_split(self, n: int, to_cave: int) -> None: ...
    def move(self, amount: AmountFn, pred: Pred, source: str, target: str,
             draw_as_many: bool) -> None: ...
    def extra_turn(self) -> None: ...
    def free_play(self, amount: AmountFn, pred: Pred, with_effect: bool) -> None: ...
    def rummage(self, pred: Pred, reveal: int) -> None: ...
    def play_as(self, amount: AmountFn, pred: Pred, host: str) -> None: ...
    def play_paying(self) -> None: ...


Run = Callable[[EffectContext], None]


def _amount(a: ast.Amount, scope: NameScope, owner: str, boosted: frozenset[str]) -> AmountFn:
    if a.kind == "per":
        fn = compile_count(a.per, scope, owner, boosted)  # type: ignore[arg-type]
        k = a.n
        return AmountFn("n", lambda ctx: k * fn(ctx.card, ctx.forest))
    n = a.n
    return AmountFn(a.kind, lambda ctx: n)


def compile_action(a: ast.Action, scope: NameScope, owner: str, boosted: frozenset[str]) -> Run:
    match a:
        case ast.Draw(n=n, per=None):
            return lambda ctx: ctx.draw(n)
        case ast.Draw(n=n, per=per):
            fn = compile_count(per, scope, owner, boosted)
            return lambda ctx: ctx.draw(n * fn(ctx.card, ctx.forest))
        case ast.DrawSplit(n=n, to_cave=k):
            return lambda ctx: ctx.draw_split(n, k)
        case ast.Take(amount=am, filter=f):
            amt = _amount(am, scope, owner, boosted)
            pred = compile_filter(f, scope).pred if f is not None else _all
            return lambda ctx: ctx.move(amt, pred, "clearing", "hand", False)
        case ast.Move(amount=am, filter=f, source=src, target=dst, draw_as_many=dam):
            amt = _amount(am, scope, owner, boosted)
            pred = compile_filter(f, scope).pred if f is not None else _all
            return lambda ctx: ctx.move(amt, pred, src, dst, dam)
        case ast.Again():
            return lambda ctx: ctx.extra_turn()
        case ast.IfAction(cond=cond, action=inner):
            cf = compile_condition(cond, scope, owner, boosted)
            run = compile_action(inner, scope, owner, boosted)

            def conditional(ctx: EffectContext) -> None:
                if cf(ctx.card, ctx.forest):
                    run(ctx)

            return conditional
        case ast.FreePlay(amount=am, filter=f, with_effect=we):
            amt = _amount(am, scope, owner, boosted)
            pred = compile_filter(f, scope).pred
            return lambda ctx: ctx.free_play(amt, pred, we)
        case ast.Rummage(filter=f, reveal=n):
            pred = compile_filter(f, scope).pred
            return lambda ctx: ctx.rummage(pred, n)
        case ast.PlayAs(amount=am, filter=f, host=h):
            amt = _amount(am, scope, owner, boosted)
            pred = compile_filter(f, scope).pred if f is not None else _all
            host = h.text
            return lambda ctx: ctx.play_as(amt, pred, host)
        case ast.PlayPaying():
            return lambda ctx: ctx.play_paying()
    raise TypeError(f"not an action: {a!r}")


def compile_steps(
    actions: tuple[ast.Action, ...], scope: NameScope, owner: str, boosted: frozenset[str]
) -> tuple[Run, ...]:
    """One callable per action: the engine runs them one by one, settling each action's choices
    before the next one looks at the game."""
    return tuple(compile_action(a, scope, owner, boosted) for a in actions)


@dataclass(frozen=True)
class EffectProgram:
    steps: tuple[Run, ...]
    rule: ast.EffectRule

    def run(self, ctx: EffectContext) -> None:
        for step in self.steps:
            step(ctx)


@dataclass(frozen=True)
class TriggerProgram:
    verb: str
    matches: Pred  # the card played or placed
    where_side: str | None
    where_host: Pred | None
    steps: tuple[Run, ...]
    next_turn: bool
    optional: bool
    rule: ast.TriggerRule


def compile_trigger(
    rule: ast.TriggerRule, scope: NameScope, owner: str, boosted: frozenset[str]
) -> TriggerProgram:
    return TriggerProgram(
        verb=rule.verb,
        matches=compile_filter(rule.filter, scope).pred,
        where_side=rule.where_side,
        where_host=compile_filter(rule.where_hosts, scope).pred if rule.where_hosts else None,
        steps=compile_steps(rule.actions, scope, owner, boosted),
        next_turn=rule.next_turn,
        optional=rule.optional,
        rule=rule,
    )


# ---- placement -----------------------------------------------------------------------------
def _limit(a: ast.Amount) -> int | None:
    """How many more cards an amount allows; None means any number."""
    return None if a.kind in ("any", "all") else a.n


@dataclass(frozen=True)
class PlacementProgram:
    share: tuple[tuple[int | None, Pred], ...]  # later cards may join this card's slot
    lets: tuple[tuple[int | None, Pred, str | None], ...]  # cards may stack at this host's slot
    only_on: tuple[Pred, ...]  # over the host card
    not_on: tuple[Pred, ...]
    joining: Pred | None  # must join a slot holding a match
    max_per_host: int | None
    slot_overrides: tuple[tuple[str, int, Pred], ...]  # (side, capacity, accepts)
    rule: ast.PlacementRule
    joins: tuple[tuple[int | None, Pred, str | None], ...] = ()  # cards may join any occupant
    # what the engine asks of the rule as a whole, answered here from the rule's statements so
    # that nothing outside the compiler reads its AST:
    reaches_host: bool = False  # may bear on slots other than the card's own
    places_plainly: bool = True  # nothing in it bears on where the card itself may go
    by_symbol: bool = False  # it reads tree symbols (its own card's or another's)


def compile_placement(rule: ast.PlacementRule, scope: NameScope) -> PlacementProgram:
    share, lets, only_on, not_on, overrides, joins = [], [], [], [], [], []
    joining, max_per_host = None, None
    for s in rule.stmts:
        match s:
            case ast.Share(amount=a, filter=f):
                share.append((_limit(a), compile_filter(f, scope).pred))
            case ast.Lets(amount=a, filter=f, slot=slot, joins=j):
                (joins if j else lets).append((_limit(a), compile_filter(f, scope).pred,
                                               slot.text if slot else None))
            case ast.OnlyOn(filter=f):
                only_on.append(compile_filter(f, scope).pred)
            case ast.NotOn(filter=f):
                not_on.append(compile_filter(f, scope).pred)
            case ast.Joining(filter=f):
                joining = compile_filter(f, scope).pred
            case ast.MaxPerHost(n=n):
                max_per_host = n
            case ast.SlotOverride(side=side, capacity=cap, filter=f):
                overrides.append((side.text, cap, compile_filter(f, scope).pred))
    # sharing only lets later cards join the card, and a slot takes at least one card, so a
    # rule that only shares never bears on where its own card goes; only `share`, `only on`,
    # `not on` and `joining` look no further than the card's slot and its host card
    plain = not (lets or only_on or not_on or joining or max_per_host is not None or overrides
                 or joins)
    reaches = bool(lets or max_per_host is not None or overrides or joins)
    by_symbol = any(isinstance(n, (ast.FSymbol, ast.FOwnSymbol)) for n in ast.walk(rule))
    return PlacementProgram(tuple(share), tuple(lets), tuple(only_on), tuple(not_on), joining,
                            max_per_host, tuple(overrides), rule, tuple(joins), reaches, plain,
                            by_symbol)


# ---- modifiers -----------------------------------------------------------------------------
@dataclass(frozen=True)
class ModifierProgram:
    counts_as: tuple[tuple[int, tuple[str, ...], Pred], ...]  # (n, owner keys, host predicate)
    double_below: tuple[Pred, ...]
    rule: ast.ModifierRule


def compile_modifier(rule: ast.ModifierRule, scope: NameScope) -> ModifierProgram:
    counts_as, double = [], []
    for s in rule.stmts:
        match s:
            case ast.CountsAs(n=n, what=what, for_=owners):
                keys = []
                for o in owners:
                    r = scope.resolve(o.text)
                    assert r is not None
                    keys.append(r.key)
                hp = compile_filter(ast.FName(what, what.span), scope).pred
                counts_as.append((n, tuple(keys), hp))
            case ast.DoubleBelow(filter=f):
                double.append(compile_filter(f, scope).pred)
    return ModifierProgram(tuple(counts_as), tuple(double), rule)
