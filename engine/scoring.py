"""Final scores of a game: every visible card's rules plus the cave, in the scorepad's rows.

Per-copy rules score on each card; `total` and `sets` rules score once per forest, attributed to
the first card that carries them, so seven butterflies sharing one set rule count it once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from compiler.cardset import CardSet
from compiler.view import ForestView, Placed
from engine.forest import PlayerForest


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


def _category(card: Placed) -> str:
    if card.slot is None or card.side is None:
        return card.host.kind.category
    return card.side


def _doubled(card: Placed) -> bool:
    if card.slot is None or card.side != "bottom":
        return False
    hc = card.host.card
    mod = hc.species.modifier if hc.species else None
    return bool(mod and any(p(card, hc) for p in mod.double_below))


def score_rows(view: ForestView, cardset: CardSet) -> dict[str, int]:
    """Points by scorepad row only: what a game needs at its end, without per-card records.

    The hot path of `score_view` (same rules, same rows; a test holds them equal), kept apart so
    that scoring many games builds no records and calls no helpers per card."""
    rows = dict.fromkeys(cardset.scorepad, 0)
    done: set[object] = set()
    doubling = any(h.card.species is not None and h.card.species.modifier is not None
                   and h.card.species.modifier.double_below for h in view.hosts)
    for c in view.cards:
        sp = c.species
        if sp is None or sp.score is None:
            continue
        prog = sp.score
        points = prog.points(c, view)
        if prog.group:
            for key, (_, gfn) in zip(prog.group_keys, prog.group, strict=True):
                if key not in done:
                    done.add(key)
                    points += gfn(c, view)
        if points:
            if doubling and c.side == "bottom" and _doubled(c):
                points *= 2
            rows[c.host.kind.category if c.slot is None or c.side is None else c.side] += points
    rows["cave"] = rows.get("cave", 0) + view.cave * cardset.setup.cave_points + _cave_card(view)
    return rows


def _cave_card(view: ForestView) -> int:
    """A drafted cave's own points: its rule sees the forest but sits at no host."""
    sp = view.cave_card
    if sp is None or sp.score is None:
        return 0
    me = Placed(sp, None, sp.tags, None, None, None)  # type: ignore[arg-type]
    total = sp.score.points(me, view)
    for _, gfn in sp.score.group:
        total += gfn(me, view)
    return total


def score_view(view: ForestView, cardset: CardSet, explain: bool = False) -> PlayerScore:
    rows = {r: 0 for r in cardset.scorepad}
    cards: list[CardScore] = []
    done_groups: set[object] = set()
    for c in view.cards:
        sp = c.species
        points = 0
        rules: list[dict] = []
        if sp is not None and sp.score is not None:
            prog = sp.score
            for term, fn in prog.per_copy:
                p = fn(c, view)
                points += p
                if explain:
                    rules.append(_explain(sp, term, p))
            for key, (term, gfn) in zip(prog.group_keys, prog.group, strict=True):
                if key in done_groups:
                    if explain:
                        rules.append(_explain(sp, term, 0, "counted with the first card of its set"))
                    continue
                done_groups.add(key)
                p = gfn(c, view)
                points += p
                if explain:
                    rules.append(_explain(sp, term, p))
        if points and _doubled(c):
            if explain:
                rules.append({"rule": "doubled by its host", "at": c.host.card.species.span.display(),
                              "points": points})
            points *= 2
        cat = _category(c)
        rows[cat] = rows.get(cat, 0) + points
        cards.append(CardScore(
            card=c.key.split(":", 1)[1] if c.key else c.host.kind.id,
            host=c.host.index, slot=c.slot or c.host.kind.id, category=cat, points=points,
            rules=rules,
        ))
    cave = view.cave * cardset.setup.cave_points + _cave_card(view)
    rows["cave"] = rows.get("cave", 0) + cave
    return PlayerScore(view.name, sum(rows.values()), rows, cards)


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


def score_forests(cardset: CardSet, players: list[PlayerForest], explain: bool = False
                  ) -> list[PlayerScore]:
    views = [p.view() for p in players]
    for v in views:
        v.others = [o for o in views if o is not v]
    scores = [score_view(v, cardset, explain) for v in views]
    for s, p in zip(scores, players, strict=True):
        s.ai = p.ai
    return scores


def winners(scores: list[PlayerScore]) -> list[str]:
    """Ties share the victory (no tie-breaker is published for the base game)."""
    best = max((s.total for s in scores), default=0)
    return [s.name for s in scores if s.total == best]
