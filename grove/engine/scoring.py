"""Final scores of a game: every visible card's rules plus the cave, in the scorepad's rows.

Per-copy rules score on each card; `total` and `sets` rules score once per forest, attributed to
the first card that carries them, so seven butterflies sharing one set rule count it once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from grove.compiler.cardset import CardSet
from grove.forest.host import Placed, loose
from grove.forest.model import Forest, table


@dataclass
class CardScore:
    card: str
    host: int
    slot: str  # "tree"-like host category name for host cards, else the slot id
    category: str
    points: int
    rules: list[dict] = field(default_factory=list)


@dataclass
class PlayerScore:
    name: str
    total: int
    by_category: dict[str, int]
    cards: list[CardScore]
    ai: str | None = None


def doubled(card: Placed) -> bool:
    if card.slot is None or card.side != "bottom":
        return False
    hc = card.host.card  # type: ignore[union-attr]
    mod = hc.species.modifier if hc.species else None
    return bool(mod and any(p(card, hc) for p in mod.double_below))


def first_carriers(forest: Forest) -> dict[str, Placed]:
    """Group key -> the first card (in forest order) that carries the group rule: it scores the
    group once for the whole forest."""
    firsts: dict[str, Placed] = {}
    for c in forest.cards:
        prog = c.score
        if prog is not None and prog.group_keys:
            for key in prog.group_keys:
                firsts.setdefault(key, c)
    return firsts


def carry_first(firsts: dict[str, Placed], card: Placed, keys: Iterable[str]) -> None:
    """`firsts` (as `first_carriers` gives them) with `card`, just placed and carrying the groups
    `keys`, taken in: it carries a group first where none did, or where it lies before the card
    that did (indices current)."""
    for key in keys:
        old = firsts.get(key)
        if old is None or card.index < old.index:
            firsts[key] = card


def card_points(c: Placed, forest: Forest, firsts: dict[str, Placed]) -> int:
    """A visible card's points: its per-copy rules, the groups it carries first, doubled where
    its host doubles the cards below it."""
    prog = c.score
    if prog is None:
        return 0
    points = prog.points(c, forest)
    if prog.group:
        for key, (_, gfn) in zip(prog.group_keys, prog.group, strict=True):
            if firsts[key] is c:
                points += gfn(c, forest)
    if points and c.side == "bottom" and doubled(c):
        points *= 2
    return points


def _explained(c: Placed, forest: Forest, prog) -> tuple[int, list[dict]]:
    """A card's per-copy points term by term, with what each term gave (for `--explain`)."""
    points = 0
    rules = []
    for term, fn in prog.per_copy:
        p = fn(c, forest)
        points += p
        rules.append(_explain(c.species, term, p))
    return points, rules


def score(forest: Forest, cardset: CardSet, *, cards: bool = False, explain: bool = False
          ) -> PlayerScore:
    """Points by scorepad row, and with `cards` (or `explain`) a record per visible card.

    The one scoring pass: a game's end asks for rows only, which builds no records and calls
    nothing per card but the card's compiled rule; `grove score` asks for the records,
    `--explain` for each term of each rule. A group rule (`total`, `sets`) scores once, on the
    first card that carries it (`first_carriers`)."""
    records = cards or explain
    rows = dict.fromkeys(cardset.scorepad, 0)
    out: list[CardScore] = []
    done: set[str] = set()
    doubling = bool(forest.modified) and any(
        c.species.modifier.double_below for c in forest.modified)  # type: ignore[union-attr]
    rules: list[dict] = []
    for c in forest.cards:  # the loop every final score runs, card by card
        prog = c.score
        if prog is None:
            if records:
                out.append(_record(c, 0, []))
            continue
        if explain:
            points, rules = _explained(c, forest, prog)
        else:
            points = prog.points(c, forest)
        if prog.group:
            for key, (term, gfn) in zip(prog.group_keys, prog.group):  # noqa: B905 - equal lengths
                if key in done:
                    if explain:
                        rules.append(_explain(c.species, term, 0,
                                              "counted with the first card of its set"))
                    continue
                done.add(key)
                p = gfn(c, forest)
                points += p
                if explain:
                    rules.append(_explain(c.species, term, p))
        if points:
            if doubling and c.side == "bottom" and doubled(c):
                if explain:
                    rules.append({"rule": "doubled by its host",
                                  "at": c.host.card.species.span.display(),  # type: ignore[union-attr]
                                  "points": points})
                points *= 2
            # every row is one of the scorepad's but a host category an author's scorepad
            # leaves out; a `try` costs nothing where nothing is raised
            try:
                rows[c.row] += points  # type: ignore[index]
            except KeyError:
                rows[c.row] = points  # type: ignore[index]
        if records:
            out.append(_record(c, points, rules if explain else []))
    rows["cave"] = (rows.get("cave", 0) + forest.cave * cardset.setup.cave_points
                    + cave_card_points(forest))
    return PlayerScore(forest.name, sum(rows.values()), rows, out)


def _record(c: Placed, points: int, rules: list[dict]) -> CardScore:
    host = c.host
    assert host is not None
    return CardScore(card=c.key.split(":", 1)[1] if c.key else host.kind.id, host=host.index,
                     slot=c.slot or host.kind.id,
                     category=c.row,  # type: ignore[arg-type]
                     points=points, rules=rules)


def score_rows(forest: Forest, cardset: CardSet) -> dict[str, int]:
    """Points by scorepad row only (`score` without records)."""
    return score(forest, cardset).by_category


def cave_card_points(forest: Forest) -> int:
    """A drafted cave's own points: its rule sees the forest but sits at no host."""
    sp = forest.cave_card
    if sp is None or sp.score is None:
        return 0
    me = loose(sp)
    total = sp.score.points(me, forest)
    for _, gfn in sp.score.group:
        total += gfn(me, forest)
    return total


def _explain(sp, term, points: int, note: str | None = None) -> dict:
    rt = sp.rule_texts.get("score")
    span = term.span
    text = rt.text if rt is not None else ""
    if rt is not None and span.line == rt.line and span.end_col:
        text = rt.text[span.col - rt.col: span.end_col - rt.col] or rt.text
    out = {"rule": text, "at": span.display(), "points": points}
    if note:
        out["note"] = note
    return out


def score_forests(cardset: CardSet, forests: list[Forest], ai: list[str | None] | None = None,
                  explain: bool = False) -> list[PlayerScore]:
    """The final scores of a table of forests, each against the others (majorities)."""
    scores = [score(f, cardset, cards=True, explain=explain) for f in table(list(forests))]
    for s, kind in zip(scores, ai or [None] * len(scores), strict=True):
        s.ai = kind
    return scores


def winners(scores: list[PlayerScore]) -> list[str]:
    """Ties share the victory (no tie-breaker is published for the base game)."""
    best = max((s.total for s in scores), default=0)
    return [s.name for s in scores if s.total == best]
