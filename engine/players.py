"""AI players. The whole interface is one method: `choose(game, decision) -> action`."""

from __future__ import annotations

import random
from typing import Protocol

from engine.game import Decision, Game
from engine.tally import Tally


class Player(Protocol):
    def choose(self, game: Game, decision: Decision) -> str: ...


class RandomPlayer:
    """Any legal action, uniformly; seeded so games repeat."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, game: Game, decision: Decision) -> str:
        return self.rng.choice(decision.options)


class GreedyPlayer:
    """The action with the best immediate gain in points, counting sets and majorities.

    A card's worth is the change of its owner's forest score if it were placed now, scored
    against the other forests (so a Linden weighs the majority); drawing is chosen when no play
    gains more than what its cost gives away.
    """

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, game: Game, decision: Decision) -> str:
        opts = decision.options
        if decision.kind in ("turn", "place"):
            return self._best_play(game, decision)
        if decision.kind == "pay":
            return self._pay(game, decision)
        if decision.kind == "optional":
            return "yes"
        if decision.kind == "choose":
            picks = [o for o in opts if o != "stop"]
            return picks[0] if picks else opts[0]
        return opts[0] if decision.kind != "draw" else self._draw(game, opts)

    def _draw(self, game: Game, opts: tuple[str, ...]) -> str:
        return self.rng.choice(opts)

    def _pay(self, game: Game, decision: Decision) -> str:
        # keep what scores; pay with cards whose halves are cheap to give away
        return min(decision.options, key=lambda o: (self._worth(game, decision.player,
                                                                int(o.split()[1])), o))

    def _worth(self, game: Game, i: int, card: int) -> int:
        return max((sp.cost for sp, _, _ in game.halves(card)), default=0)

    def _best_play(self, game: Game, decision: Decision) -> str:
        i = decision.player
        tally = game.tally(i)  # the forest scored once; each play re-runs what it changes
        base = tally.total
        best, best_gain = None, 0.5
        # a play's worth depends only on which half goes where: copies share it
        worth: dict[tuple, int] = {}
        for o in decision.options:
            parts = o.split()
            if parts[0] not in ("play", "free"):
                continue
            choice = " ".join(parts[1:])
            card = int(parts[1])
            sp = game._species_for(card, choice)
            side = parts[2] if len(parts) == 4 else None
            sym = next(s for k, sd, s in game.halves(card) if sd == side)
            key = (sp.key, sym, *parts[2:])
            total = worth.get(key)
            if total is None:
                total = worth[key] = self._total(game, i, choice, tally)
            gain = total - base
            if parts[0] == "play":
                gain -= 0.75 * sp.cost
            if gain > best_gain:
                best, best_gain = o, gain
        if best is not None:
            return best
        draws = [o for o in decision.options if o.startswith("draw")]
        if draws:
            return "draw deck" if "draw deck" in draws else draws[0]
        saplings = [o for o in decision.options if not o.startswith(("play", "free", "skip"))]
        if "skip" in decision.options:
            return "skip"
        return saplings[0] if saplings else decision.options[0]

    def _total(self, game: Game, i: int, choice: str, tally: Tally) -> int:
        """Player i's score against the other forests if `choice` were played now: the play is
        made in the game's own forest for a moment (`Game.trial`), not in a copy of it."""
        trial = game.trial(i, choice)
        with trial:
            assert trial.card is not None
            return tally.total_with(trial.card)


KINDS = {"random": RandomPlayer, "greedy": GreedyPlayer}


def make(kind: str, seed: int) -> Player:
    if kind == "human":
        from engine.human import HumanPlayer

        return HumanPlayer()
    return KINDS[kind](seed)
