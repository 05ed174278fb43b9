"""Weighing a play by what it changes gives the score of the whole forest with the play.

`grove/engine/tally.py` re-runs only the rules a trial play can change; here every play offered in
whole games of every edition is weighed both ways, the full scoring being the reference.
"""

from __future__ import annotations

import pytest

from grove.compiler import cardset as cs
from grove.engine.action import Play
from grove.engine.game import Game
from grove.engine.players import GreedyPlayer, RandomPlayer
from grove.engine.scoring import score
from grove.engine.tally import Tally

EDITIONS = [("base", ["alpine", "woodland_edge"]), ("base", []), ("dartmoor", []),
            ("smoky_mountains", [])]


@pytest.mark.parametrize(("edition", "exps"), EDITIONS)
def test_a_play_weighed_by_its_changes_scores_as_the_whole_forest(edition, exps):
    cset = cs.build(edition, exps)
    weighed = 0
    for seed in range(3):
        n = 2 + seed
        game = Game(cset, [f"P{k}" for k in range(n)], 100 + seed)
        players = [GreedyPlayer(seed + k) if k % 2 else RandomPlayer(seed + k) for k in range(n)]
        while game.decision is not None:
            d = game.decision
            # kept from an earlier turn, brought up to date with the cards placed since
            tally = game.tally(d.player)
            with game.trial(d.player, None) as forest:
                assert tally.total == score(forest, cset).total
                assert tally.points == Tally(forest, cset).points
            for option in d.actions:
                if not isinstance(option, Play):
                    continue
                with game.trial(d.player, option.place) as forest:
                    want = score(forest, cset).total
                got = tally.weigh(*game.placing(option.place))
                assert got == want, (f"{edition} seed {100 + seed}, turn {game.turn}: "
                                     f"{option.text!r} weighs {got}, the whole forest {want}")
                weighed += 1
            game.apply(players[d.player].choose(game.seats[d.player], d))
    assert weighed > 500
