"""A seat sees only what its player may see (grove/engine/seat.py), and the proof is the re-deal:
every card the seat cannot see dealt anew (grove/engine/worlds.py) leaves its observation, and every
AI's choice, as they were."""

from __future__ import annotations

import random

import pytest

from grove.compiler import cardset as cs
from grove.engine.action import FaceDown
from grove.engine.ai import make
from grove.engine.game import Game
from grove.engine.seat import HIDDEN
from grove.engine.worlds import redeal, world

EDITIONS = ["base", "dartmoor", "smoky_mountains"]


def _cards_in_zones(game: Game) -> list[int]:
    return sorted(c for zone in game.zones().values() for c in zone)


def _hidden_from(game: Game, seat: int) -> tuple:
    """What the seat may not see: the other hands and the deck's order."""
    return (tuple(tuple(p.hand) for j, p in enumerate(game.players) if j != seat),
            tuple(game.deck))


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("kind", ["greedy", "random", "mcts:24"])
def test_redealing_what_a_seat_cannot_see_changes_nothing_it_sees_or_chooses(edition, kind):
    cardset = cs.build(edition)
    rng = random.Random(5)
    checked = changed = 0
    seeds = range(2) if kind.startswith("mcts") else range(4)
    for seed in seeds:
        game = Game(cardset, ["A", "B", "C"], seed)
        players = [make("random", seed * 7 + i) for i in range(3)]
        every = 9 if kind.startswith("mcts") else 3
        n = 0
        while game.decision is not None:
            d = game.decision
            n += 1
            if n % every == 0 and (not kind.startswith("mcts") or d.kind == "turn"):
                seat = game.seats[d.player]
                seen = seat.observation()
                chosen = make(kind, 11).choose(seat, d).text
                before = _hidden_from(game, d.player)
                cards = _cards_in_zones(game)
                redeal(game, d.player, rng)
                assert _cards_in_zones(game) == cards  # every card still somewhere, once
                assert seat.observation() == seen
                assert make(kind, 11).choose(seat, d).text == chosen
                checked += 1
                changed += _hidden_from(game, d.player) != before
            game.apply(players[d.player].choose(game.seats[d.player], d))
        assert game.over  # a game goes on to its end from any re-deal
    assert checked >= 10
    assert changed >= checked * 0.8  # the re-deal did move what the seat cannot see


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_view_shows_no_card_another_seat_holds_unseen_or_laid_face_down(edition):
    cardset = cs.build(edition)
    for seed in range(3):
        game = Game(cardset, ["A", "B", "C"], seed)
        players = [make("greedy", seed * 7 + i) for i in range(3)]
        while game.decision is not None:
            d = game.decision
            for s, seat in enumerate(game.seats):
                visible = seat.visible()
                for j, p in enumerate(game.players):
                    if j == s:
                        assert set(p.hand) <= visible
                        continue
                    unseen = {c for c in p.hand if c not in p.shown}
                    assert not unseen & visible
                    assert set(seat.others(j).known) <= set(p.hand)
                    faces = {c.number for c in p.forest.cards if c.species is None}
                    assert not faces & visible
                    assert all(c.number is None for c in seat.forest(j).cards
                               if c.species is None)
                assert not set(game.deck) & visible
                for e in seat.events:
                    if e.kind == "move" and e.source == "deck" and e.target == "hand" \
                            and e.player != s:
                        assert set(e.cards) == {HIDDEN}
            game.apply(players[d.player].choose(game.seats[d.player], d))


def test_a_card_taken_from_the_clearing_is_known_in_that_hand_until_it_leaves():
    cardset = cs.build("base")
    game = Game(cardset, ["A", "B"], 3)
    players = [make("random", i) for i in range(2)]
    seen_known = False
    while game.decision is not None:
        d = game.decision
        action = players[d.player].choose(game.seats[d.player], d)
        game.apply(action)
        if action.text.startswith("draw clearing") and game.decision is not None:
            card = int(action.text.split()[-1])
            if card in game.players[d.player].hand:
                other = game.seats[1 - d.player]
                assert card in other.others(d.player).known
                assert card in other.visible()
                seen_known = True
    assert seen_known


def test_another_players_face_down_card_is_observed_as_a_question_mark():
    cardset = cs.build("base")
    game = Game(cardset, ["A", "B"], 1)
    seat = game.seats[0]
    action = FaceDown("sapling", 17)
    assert seat.observed(1, action) == "sapling ?"
    assert seat.observed(0, action) == "sapling 17"


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_world_is_the_game_as_the_seat_sees_it_and_plays_to_its_end(edition):
    cardset = cs.build(edition)
    game = Game(cardset, ["A", "B"], 4)
    players = [make("greedy", i) for i in range(2)]
    rng = random.Random(1)
    worlds = 0
    while game.decision is not None:
        d = game.decision
        if d.kind == "turn" and game.turn % 7 == 3:
            w = world(game.seats[d.player], rng)
            assert w.decision is not None and w.decision.player == d.player
            assert w.seats[d.player].observation() == game.seats[d.player].observation()
            assert _cards_in_zones(w) == _cards_in_zones(game)
            w.play_out([make("random", 3), make("random", 4)])
            assert w.over
            worlds += 1
        game.apply(players[d.player].choose(game.seats[d.player], d))
    assert worlds >= 3


def test_winter_cards_are_redealt_only_where_the_deal_may_put_them():
    """The first winter card is the top of the deck's winter part; the others lie below it."""
    cardset = cs.build("base")
    game = Game(cardset, ["A", "B"], 2)
    part = game.layout.winter_part
    first = [k for k, c in enumerate(game.deck) if c in game.winter_ids]
    assert max(first) == part - 1 and min(first) >= 0
    rng = random.Random(0)
    spots = set()
    for _ in range(50):
        redeal(game, 0, rng)
        at = [k for k, c in enumerate(game.deck) if c in game.winter_ids]
        assert max(at) == part - 1
        spots.update(at)
    assert len(spots) > 5  # the others move about the winter part
