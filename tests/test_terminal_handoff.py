"""The handoff between the engine's thread and the screen's (grove/terminal/handoff.py), without
a screen: a play answered whole is handed to the engine one action per decision, and a stop
ends a player that waits or a game between two actions."""

from __future__ import annotations

import threading

import pytest

from grove.engine import runner
from grove.engine.action import Play
from grove.engine.game import Game
from grove.engine.human import Quit
from grove.seatview.steps import rehearse
from grove.terminal.handoff import Handoff, ScreenPlayer


def test_a_play_answered_whole_answers_its_payment_decisions(base):
    """Oak as a tree with its two cards paid, answered at once as the screen answers a
    confirmed payment: the game asks the play, then each card, and the player answers each
    from what was handed over, offering the screen nothing more."""
    game = Game(base, ["Ana", "Ben"], 3)
    d = game.decision
    play = next(a for a in d.actions if isinstance(a, Play) and a.place.kind == "tree"
                and game.seats[0].species_for(a.place).cost == 2)
    answers = []
    while (asked := rehearse(game.seats[0], play, answers, d)) is not None:
        answers.append(asked.actions[0])
    handoff = Handoff()
    offered = []

    def offer(seat, decision):
        offered.append(decision.kind)
        handoff.answer([play, *answers])

    player = ScreenPlayer(handoff, offer, lambda fn, *args: fn(*args))
    for _ in range(3):
        game.apply(player.choose(game.seats[0], game.decision))
    assert offered == ["turn"] and [a.text for a in game.history] == [
        play.text, *(a.text for a in answers)]
    assert game.decision.player == 1


def test_a_stop_ends_a_waiting_player_and_a_game_between_actions(base):
    game = Game(base, ["Ana", "Ben"], 3)
    handoff = Handoff()
    player = ScreenPlayer(handoff, lambda seat, decision: None, lambda fn, *args: fn(*args))
    threading.Timer(0.05, handoff.stop).start()
    with pytest.raises(Quit):
        player.choose(game.seats[0], game.decision)  # waits until the stop
    with pytest.raises(Quit):
        handoff.check()
    # the runner's hook sees it after an AI's action: the record gets its stop line
    out = runner.play(base, ["greedy", "greedy"], 3, names=["A", "B"],
                      on_action=lambda g, a: handoff.check())
    assert out.stopped
