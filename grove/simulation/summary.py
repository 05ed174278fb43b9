"""A run's counts as the figures `summary.json` holds and `grove simulate --json` prints.

What each figure means is in docs/simulate.md; a species' strength and flag are worked out in
simulation/strength.py. Every tied top scorer of a game counts as a
winner, so the win rates of a game's seats can add up to more than 1.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from grove.dsl.diagnostics import escape_json
from grove.simulation.aggregate import Moments, SpeciesCounts, Totals
from grove.simulation.statistics import difference_interval, mean_interval, wilson
from grove.simulation.strength import Strength, expectations, flags, strength


@dataclass(frozen=True)
class SpeciesFacts:
    """What the summary says of a species besides its counts (from the card set)."""

    id: str
    name: str
    cost: int
    kind: str = ""  # tree, dweller, ...: its strength is weighed against cards of its kind
    # its rules as written, DSL field -> text: a report against another run lists the species
    # whose rules differ from the card data itself, so the cause stands beside the effect
    rules: tuple[tuple[str, str], ...] = ()
    card_with: tuple[str, ...] = ()  # the other species on a card with it (split cards)


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 6)


def _pair(ci: tuple[float, float] | None) -> list[float] | None:
    return None if ci is None else [round(ci[0], 6), round(ci[1], 6)]


def _ratio(a: int, b: int) -> float | None:
    return a / b if b else None


def seat_figures(seat: int, m: Moments) -> dict[str, Any]:
    return {"seat": seat, "games": m.n, "win_rate": _r(_ratio(m.wins, m.n)),
            "win_ci95": _pair(wilson(m.wins, m.n)), "mean_total": _r(_ratio(m.sum, m.n)),
            "total_ci95": _pair(mean_interval(m.n, m.sum, m.sumsq))}


def ai_figures(ai: str, m: Moments) -> dict[str, Any]:
    return {"ai": ai, "games": m.n, "win_rate": _r(_ratio(m.wins, m.n)),
            "win_ci95": _pair(wilson(m.wins, m.n)), "mean_total": _r(_ratio(m.sum, m.n)),
            "total_ci95": _pair(mean_interval(m.n, m.sum, m.sumsq))}


def _counted(s: SpeciesCounts, forests: Moments, games: int, drawn: bool) -> dict[str, Any]:
    """The figures of a species over a set of forests (every forest, or one AI's), of which it
    is played in `s.plays` and drawn in `s.drawn`."""
    not_n, not_wins = forests.n - s.plays, forests.wins - s.wins
    out = {
        "played_per_game": _r(_ratio(s.copies, games)),
        "played_in_forests": _r(_ratio(s.plays, forests.n)),
        "mean_points_when_played": _r(_ratio(s.points, s.plays)),
        "mean_points_per_copy": _r(_ratio(s.points, s.copies)),
        "win_rate_when_played": _r(_ratio(s.wins, s.plays)),
        "win_rate_when_not": _r(_ratio(not_wins, not_n)),
        "delta_ci95": _pair(difference_interval(s.wins, s.plays, not_wins, not_n)),
    }
    undrawn, undrawn_wins = forests.n - s.drawn, forests.wins - s.drawn_wins
    drawn_rate, undrawn_rate = _ratio(s.drawn_wins, s.drawn), _ratio(undrawn_wins, undrawn)
    known = drawn and drawn_rate is not None and undrawn_rate is not None
    out.update({
        "drawn_in_forests": _r(_ratio(s.drawn, forests.n)) if drawn else None,
        "win_rate_when_drawn": _r(drawn_rate) if drawn else None,
        "win_rate_when_not_drawn": _r(undrawn_rate) if drawn else None,
        "improvement_when_drawn": _r(drawn_rate - undrawn_rate) if known else None,
        "improvement_ci95": _pair(difference_interval(s.drawn_wins, s.drawn, undrawn_wins,
                                                      undrawn)) if drawn else None,
    })
    return out


def _strength(st: Strength | None, copies: int, due: float) -> dict[str, Any]:
    """The strength, its interval, and the points a copy was expected to score (`due`, all the
    forests' copies together, over `copies`), by which the AIs' strengths weigh into the pooled
    one; the expectation is given even where the copies scored nothing and so have no
    strength."""
    return {"strength": None if st is None else _r(st.value),
            "strength_ci95": None if st is None else _pair(st.ci95),
            "expected_per_copy": _r(due / copies) if copies and due > 0 else None}


def species_figures(facts: SpeciesFacts, t: Totals, expected: dict[str, float],
                    found: Strength | None, flag: str | None) -> dict[str, Any]:
    """A species' figures over every forest, its strength and flag, and `by_ai`: the same
    figures over each AI's forests, which add up to the pooled ones (counts are split by AI;
    the pooled strength is the AIs' weighed by the points their copies were expected to
    score)."""
    per_ai = t.species_ai.get(facts.id, {})
    pooled = t.species.get(facts.id, SpeciesCounts())
    by_ai = []
    for ai in sorted(t.ais):
        s = per_ai.get(ai, SpeciesCounts())
        own = strength({ai: s}, {ai: expected.get(ai, 0.0)}) if s.copies else None
        by_ai.append({"ai": ai, "forests": t.ais[ai].n,
                      **_counted(s, t.ais[ai], t.games, t.drawn),
                      **_strength(own, s.copies, expected.get(ai, 0.0) * s.copies)})
    return {
        "id": facts.id, "name": facts.name, "cost": facts.cost, "kind": facts.kind,
        "rules": dict(facts.rules), "card_with": list(facts.card_with),
        **_counted(pooled, t.forests, t.games, t.drawn),
        **_strength(found, pooled.copies,
                    sum(expected.get(a, 0.0) * s.copies for a, s in per_ai.items())),
        "flag": flag, "by_ai": by_ai,
    }


def summarize(totals: Totals, run: dict[str, Any], species: list[SpeciesFacts]
              ) -> dict[str, Any]:
    """`run` holds what the run was asked (edition, with, ai, seed, rotate, games asked) and
    how it ended; the figures come from `totals`. `species` lists every species of the card
    set, played or not, so a card nobody plays shows as played 0 times."""
    t = totals
    known = {f.id for f in species}
    facts = [*species, *(SpeciesFacts(k, k, 0) for k in sorted(t.species) if k not in known)]
    facts.sort(key=lambda f: f.id)
    expected = expectations(t.species_ai, {f.id: f.cost for f in facts},
                            {f.id: f.kind for f in facts})
    per_copy = {f.id: {a: expected.get((a, f.kind, f.cost), 0.0) for a in t.ais} for f in facts}
    found = {f.id: strength(t.species_ai.get(f.id, {}), per_copy[f.id]) for f in facts}
    flagged = flags(found)
    return {
        **run,
        "games": t.games,
        "seats": [seat_figures(s, t.seats[s]) for s in sorted(t.seats)],
        "ais": [ai_figures(a, t.ais[a]) for a in sorted(t.ais)],
        "turns": {"mean": _r(_ratio(t.turns.sum, t.turns.n)), "min": t.turns.low,
                  "max": t.turns.high},
        "species": [species_figures(f, t, per_copy[f.id], found[f.id], flagged[f.id])
                    for f in facts],
    }


_SURROGATE = re.compile("[\ud800-\udfff]")


def to_json(summary: dict[str, Any]) -> str:
    """`summary.json`'s text, and what `--json` prints: UTF-8 JSON in which a lone surrogate (an
    author's species name may hold one; no UTF-8 encodes it) is written as its `\\u` escape,
    as are control and bidirectional characters (`escape_json`), so `json.loads` gives back
    every name as it was and no name can fail the write or rewrite a terminal."""
    text = json.dumps(summary, indent=2, ensure_ascii=False)
    return escape_json(_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)) + "\n"
