"""A card laid face down shows no species, so what it gains a forest depends on the host kind
it becomes, never on which card of the hand it is: the steps of a play work it out once per
kind (seatview/steps.py), and this holds it over real games of the boxes with saplings."""

from __future__ import annotations

import random

import pytest

from grove.compiler import cardset as cs
from grove.engine.action import FaceDown
from grove.engine.game import Game
from grove.seatview.steps import face_down_points


@pytest.mark.parametrize("expansions", [[], ["alpine", "woodland_edge"]])
def test_a_face_down_card_gains_the_same_whichever_card_it_is(expansions):
    cset = cs.build("base", expansions)
    checked = 0
    for seed in range(2):
        game, rng = Game(cset, ["a", "b", "c"], seed), random.Random(seed)
        while game.decision is not None and len(game.history) < 240:
            d = game.decision
            down = [a for a in d.actions if isinstance(a, FaceDown)]
            if down and len(game.history) % 4 == 0:
                gains: dict[str, set[int]] = {}
                for a in down:
                    gains.setdefault(a.kind, set()).add(
                        face_down_points(game.seats[d.player], a, d.player))
                assert all(len(g) == 1 for g in gains.values()), (len(game.history), gains)
                checked += 1
            game.apply(rng.choice(list(d.actions)))
    assert checked > 10
