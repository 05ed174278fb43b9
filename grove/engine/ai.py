"""The AI kinds a seat may be played by, as `--ai` spells them: `random`, `greedy`, `mcts`,
`mcts:N` (N iterations a decision), `mcts:2s` (a time a decision), `greedy:0.5` (greedy that
plays at random half its turns), or a level (`easy`,
`medium`, `hard`: `LEVELS`), each optionally barred
from playing species: `greedy!red_fox` never plays a red fox (grove/engine/restricted.py), and
`mcts:100!red_fox!oak` neither a fox nor an oak."""

from __future__ import annotations

import re

from grove.engine.game import Player
from grove.engine.mcts import Budget, MctsPlayer
from grove.engine.players import CarelessPlayer, GreedyPlayer, RandomPlayer
from grove.engine.restricted import RestrictedPlayer

KINDS = ("random", "greedy", "mcts")
# levels a person picks an opponent by, each an AI spec (docs/ai.md gives each one's win rate
# against greedy from the ladder); a level's spec is what a record keeps, so a record replays
# whatever a later grove makes of the level's name
LEVELS = {"easy": "greedy:0.5", "medium": "greedy", "hard": "mcts"}
BAR = "!"  # between an AI kind and each species it never plays
# a species as a run's rows name it: its id, or `edition:id` where the plain id is ambiguous
_SPECIES = re.compile(r"[a-z0-9_]+(:[a-z0-9_]+)?")


def resolve(kind: str) -> str:
    """The AI spec a level stands for (`hard!red_fox` -> `mcts!red_fox`); any other kind as it is."""
    base, bar, rest = kind.partition(BAR)
    return LEVELS.get(base, base) + bar + rest


def barred(kind: str) -> tuple[str, ...]:
    """The species an AI spec never plays (`greedy!red_fox` -> `("red_fox",)`)."""
    return tuple(kind.split(BAR)[1:])


def problem(kind: str) -> str | None:
    """What is wrong with an AI spec, or None when it names one (`human` is no AI). Whether a
    barred species exists is for the card set to say (`unknown_species`)."""
    base, *species = resolve(kind).split(BAR)
    name, colon, arg = base.partition(":")
    if name not in KINDS:
        return f"unknown AI {kind!r}"
    if colon and name == "greedy":
        if _share(arg) is None:
            return (f"{kind!r}: greedy:P plays at random a share P of its turns, from 0 to 1 "
                    "(greedy:0.5)")
    elif colon and name != "mcts":
        return f"{name} takes no budget ({kind!r})"
    elif colon:
        try:
            Budget.parse(arg)
        except ValueError as exc:
            return str(exc)
    for sp in species:
        if not _SPECIES.fullmatch(sp):
            return (f"{kind!r} bars {sp!r}, which is no species id (greedy!red_fox never "
                    "plays a red fox)")
    return None


def _share(text: str) -> float | None:
    try:
        p = float(text)
    except ValueError:
        return None
    return p if 0.0 <= p <= 1.0 else None


def unknown_species(kind: str, known: set[str]) -> str | None:
    """The first species an AI spec bars that is not among `known` (the ids and keys of a
    card set), or None."""
    return next((sp for sp in barred(kind) if sp not in known), None)


def make(kind: str, seed: int) -> Player:
    """A player of `kind` (an AI spec, or `human` for a person at the prompt), seeded."""
    if kind == "human":  # a person's seat is the caller's: grove/terminal's line or screen
        raise ValueError("a person's seat is given by the caller (grove.terminal.line.LinePlayer "
                         "at a prompt); make() seats AIs")
    why = problem(kind)
    if why is not None:
        raise ValueError(why)
    base, *species = resolve(kind).split(BAR)
    name, colon, arg = base.partition(":")
    player: Player
    if name == "mcts":
        player = MctsPlayer(seed, Budget.parse(arg) if colon else None)
    elif name == "greedy" and colon:
        player = CarelessPlayer(seed, _share(arg) or 0.0)
    else:
        player = (RandomPlayer if name == "random" else GreedyPlayer)(seed)
    return RestrictedPlayer(player, frozenset(species)) if species else player
