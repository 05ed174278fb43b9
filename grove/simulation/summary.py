"""A run's counts as the figures `summary.json` holds and `grove simulate --json` prints.

What each figure means is in docs/simulate.md. Every tied top scorer of a game counts as a
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


@dataclass(frozen=True)
class SpeciesFacts:
    """What the summary says of a species besides its counts (from the card set)."""

    id: str
    name: str
    cost: int


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


def species_figures(facts: SpeciesFacts, s: SpeciesCounts, t: Totals) -> dict[str, Any]:
    not_n = t.forests.n - s.plays
    not_wins = t.forests.wins - s.wins
    return {
        "id": facts.id, "name": facts.name, "cost": facts.cost,
        "played_per_game": _r(_ratio(s.copies, t.games)),
        "played_in_forests": _r(_ratio(s.plays, t.forests.n)),
        "mean_points_when_played": _r(_ratio(s.points, s.plays)),
        "mean_points_per_copy": _r(_ratio(s.points, s.copies)),
        "win_rate_when_played": _r(_ratio(s.wins, s.plays)),
        "win_rate_when_not": _r(_ratio(not_wins, not_n)),
        "delta_ci95": _pair(difference_interval(s.wins, s.plays, not_wins, not_n)),
    }


def summarize(totals: Totals, run: dict[str, Any], species: list[SpeciesFacts]
              ) -> dict[str, Any]:
    """`run` holds what the run was asked (edition, with, ai, seed, rotate, games asked) and
    how it ended; the figures come from `totals`. `species` lists every species of the card
    set, played or not, so a card nobody plays shows as played 0 times."""
    t = totals
    known = {f.id for f in species}
    facts = [*species, *(SpeciesFacts(k, k, 0) for k in sorted(t.species) if k not in known)]
    return {
        **run,
        "games": t.games,
        "seats": [seat_figures(s, t.seats[s]) for s in sorted(t.seats)],
        "ais": [ai_figures(a, t.ais[a]) for a in sorted(t.ais)],
        "turns": {"mean": _r(_ratio(t.turns.sum, t.turns.n)), "min": t.turns.low,
                  "max": t.turns.high},
        "species": [species_figures(f, t.species.get(f.id, SpeciesCounts()), t)
                    for f in sorted(facts, key=lambda f: f.id)],
    }


_SURROGATE = re.compile("[\ud800-\udfff]")


def to_json(summary: dict[str, Any]) -> str:
    """`summary.json`'s text, and what `--json` prints: UTF-8 JSON in which a lone surrogate (an
    author's species name may hold one; no UTF-8 encodes it) is written as its `\\u` escape,
    as are control and bidirectional characters (`escape_json`), so `json.loads` gives back
    every name as it was and no name can fail the write or rewrite a terminal."""
    text = json.dumps(summary, indent=2, ensure_ascii=False)
    return escape_json(_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)) + "\n"
