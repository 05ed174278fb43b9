"""Scenario tests: a prepared state, one action, the exact resulting state."""

from __future__ import annotations

import pytest

from grove.compiler import cardset as cs
from grove.engine.game import Game


@pytest.fixture(scope="module")
def base():
    return cs.build("base")


def _game(cset, seed=1) -> Game:
    g = Game(cset, ["Ana", "Ben"], seed)
    for p in g.players:  # empty hands: each scenario deals what it needs
        for c in list(p.hand):
            g.move_card(c, g.removed)
    for c in list(g.clearing):
        g.move_card(c, g.removed)
    return g


def _give(g: Game, key: str, side=None, to=None) -> int:
    c = g.find_card(key, side)
    g.move_card(c, g.players[0].hand if to is None else to)
    return c


def _symbol_of(g: Game, card: int, side) -> str:
    return next(sym for _, sd, sym in g.halves(card) if sd == side)


def _plant(g: Game, tree: str = "base:oak") -> int:
    """Ana plays a tree paying two Birches; returns the tree's card id."""
    t = _give(g, tree)
    pay = [_give(g, "base:birch"), _give(g, "base:birch")]
    g.restart_turn(0)
    g.apply(f"play {t} tree")
    _pay_with(g, pay)
    return t


def _pay_with(g: Game, cards):
    for c in cards:
        assert f"pay {c}" in g.legal_actions()
        g.apply(f"pay {c}")


@pytest.mark.parametrize("matching", [False, True])
def test_brown_bear_takes_the_clearing_and_its_payment_to_the_cave(base, matching):
    g = _game(base)
    _plant(g)
    bear = _give(g, "base:brown_bear", "left")
    sym = _symbol_of(g, bear, "left")
    # in the classic game a tree shows its own species' symbol
    other = "base:beech" if sym != "beech" else "base:birch"
    kind = f"base:{sym}" if matching else other
    payment = [_give(g, kind), _give(g, kind), _give(g, kind)]
    clearing_before = list(g.clearing)
    top = g.deck[-1]
    g.restart_turn(0)
    g.apply(f"play {bear} left 0.left")
    _pay_with(g, payment)
    ana = g.players[0]
    assert sorted(ana.cave) == sorted(clearing_before + payment)
    assert g.clearing == []
    if matching:  # bonus: draw 1 and take another turn
        assert top in ana.hand or top in g.winter_ids
        assert g.decision.player == 0 and g.decision.kind == "turn"
    else:
        assert ana.hand == [] and g.decision.player == 1


def test_raccoon_swaps_hand_cards_for_deck_cards(base):
    g = _game(base)
    _plant(g)
    raccoon = _give(g, "base:raccoon", "left")
    pay = _give(g, "base:birch")
    keep = [_give(g, "base:beech"), _give(g, "base:beech"), _give(g, "base:beech")]
    g.restart_turn(0)
    g.apply(f"play {raccoon} left 0.left")
    _pay_with(g, [pay])
    top = list(reversed(g.deck))[:2]  # the two cards the swap will draw
    g.apply(f"choose {keep[0]}")
    g.apply(f"choose {keep[1]}")
    g.apply("stop")
    ana = g.players[0]
    assert sorted(ana.cave) == sorted(keep[:2])
    assert sorted(ana.hand) == sorted([keep[2], *[c for c in top if c not in g.winter_ids]])


def test_chanterelle_fires_only_from_the_next_turn(base):
    g = _game(base)
    _plant(g)
    chanterelle = _give(g, "base:chanterelle", "bottom")
    pay = [_give(g, "base:birch"), _give(g, "base:birch")]
    g.restart_turn(0)
    g.apply(f"play {chanterelle} bottom 0.bottom")
    _pay_with(g, pay)
    g.turn += 1  # a later turn of Ana's
    beech = _give(g, "base:beech")
    pay = _give(g, "base:linden")
    g.restart_turn(0)
    g.players[0].turn_started = g.turn
    hand_before = len(g.players[0].hand)
    g.apply(f"play {beech} tree")
    _pay_with(g, [pay])
    assert g.decision.kind == "optional"  # "you may draw"
    g.apply("yes")
    # the beech and its payment left the hand; the chanterelle and the beech's effect drew one each
    assert len(g.players[0].hand) == hand_before - 2 + 2


def test_chanterelle_does_not_fire_in_the_turn_it_arrives(base):
    g = _game(base)
    _plant(g)
    chanterelle = _give(g, "base:chanterelle", "bottom")
    pay = [_give(g, "base:birch"), _give(g, "base:birch")]
    g.restart_turn(0)
    arrived = g.turn
    g.apply(f"play {chanterelle} bottom 0.bottom")
    _pay_with(g, pay)
    # still the turn it arrived in (as during a free play or the Mole): a tree now draws nothing
    g.turn = arrived
    beech = _give(g, "base:beech")
    pay = _give(g, "base:linden")
    g.restart_turn(0)
    g.players[0].turn_started = arrived
    g.apply(f"play {beech} tree")
    _pay_with(g, [pay])
    assert g.decision.player == 1 and g.decision.kind == "turn"  # no "you may draw" asked
    assert len(g.players[0].hand) == 1  # only the beech's own draw
