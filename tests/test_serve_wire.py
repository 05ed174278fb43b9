"""What a browser receives is its seat's view and nothing more: every card the seat cannot see
dealt anew (grove/engine/worlds.py) leaves the JSON the server sends it as it was, in every
edition, for every seat and the spectator, at decisions all through a game."""

from __future__ import annotations

import json
import random

import pytest

from grove.compiler import cardset as cs
from grove.engine.ai import make
from grove.engine.game import Game
from grove.engine.seat import SPECTATOR, Seat
from grove.engine.worlds import redeal
from grove.game_log import GameLog
from grove.seatview.view import View
from grove.serve.faces import Faces
from grove.serve.wire import Wire, table


def _sent(game: Game, seat: int, lang: str) -> str:
    """The table the server would send `seat` now, with its whole log worded afresh."""
    view = game.seats[seat] if seat >= 0 else Seat(game, SPECTATOR)
    wire = Wire(View(view, lang), Faces(game.cardset, lang))
    d = game.decision
    msg = table(wire, GameLog(view, lang).new_lines(), d, len(game.history),
                asking=d is not None and d.player == seat)
    return json.dumps(msg, sort_keys=True, ensure_ascii=False)


def _again(game: Game) -> Game:
    copy = Game(game.cardset, [p.name for p in game.players], game.seed)
    for a in game.history:
        copy.apply(a.text)
    return copy


@pytest.mark.parametrize("edition, lang", [("base", "de"), ("smoky_mountains", "th"),
                                           ("dartmoor", "it")])
def test_a_re_deal_of_what_a_seat_cannot_see_changes_nothing_sent_to_it(edition, lang):
    cardset = cs.build(edition)
    rng = random.Random(3)
    checked = 0
    for seed in range(2):
        game = Game(cardset, ["Ana", "Ben", "Cai"], seed)
        players = [make("greedy", seed * 5 + i) for i in range(3)]
        n = 0
        while game.decision is not None:
            d = game.decision
            n += 1
            if n % 23 == 0:
                for seat in (d.player, (d.player + 1) % 3, SPECTATOR):
                    before = _sent(game, seat, lang)
                    # on a copy played to here again: another seat's re-deal changes the
                    # deciding player's hand, from which its decision was offered, and the
                    # game goes on from its own deal
                    dealt = _again(game)
                    redeal(dealt, seat, rng)
                    assert _sent(dealt, seat, lang) == before
                    checked += 1
            game.apply(players[d.player].choose(game.seats[d.player], d))
    assert checked >= 20


def test_a_card_the_seat_cannot_see_has_no_number_and_no_face(base):
    game = Game(base, ["Ana", "Ben"], 4)
    players = [make("greedy", i) for i in range(2)]
    while game.decision is not None and game.turn < 30:
        d = game.decision
        game.apply(players[d.player].choose(game.seats[d.player], d))
    msg = json.loads(_sent(game, 0, "en"))
    hidden = {c for c in game.players[1].hand if c not in game.players[1].shown}
    seen: set[int] = set()

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("card"), int):
                seen.add(node["card"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(msg)
    assert hidden and not hidden & seen
    assert seen <= game.seats[0].visible()
