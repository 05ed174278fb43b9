"""The AI kinds a seat may be played by, as `--ai` spells them: `random`, `greedy`, `mcts`,
`mcts:N` (N iterations a decision) and `mcts:2s` (a time a decision)."""

from __future__ import annotations

from grove.engine.game import Player
from grove.engine.mcts import Budget, MctsPlayer
from grove.engine.players import GreedyPlayer, RandomPlayer

KINDS = ("random", "greedy", "mcts")


def problem(kind: str) -> str | None:
    """What is wrong with an AI spec, or None when it names one (`human` is no AI)."""
    name, colon, arg = kind.partition(":")
    if name not in KINDS:
        return f"unknown AI {kind!r}"
    if colon and name != "mcts":
        return f"{name} takes no budget ({kind!r})"
    if colon:
        try:
            Budget.parse(arg)
        except ValueError as exc:
            return str(exc)
    return None


def make(kind: str, seed: int) -> Player:
    """A player of `kind` (an AI spec, or `human` for a person at the prompt), seeded."""
    if kind == "human":
        from grove.engine.human import HumanPlayer

        return HumanPlayer()
    why = problem(kind)
    if why is not None:
        raise ValueError(why)
    name, colon, arg = kind.partition(":")
    if name == "mcts":
        return MctsPlayer(seed, Budget.parse(arg) if colon else None)
    return (RandomPlayer if name == "random" else GreedyPlayer)(seed)
