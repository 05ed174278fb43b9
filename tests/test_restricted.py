"""Restricted play (grove/engine/restricted.py): a player barred from a species never plays it, and
otherwise is handed the same seat view and chooses as the player it wraps."""

from __future__ import annotations

import pytest

from grove.compiler import cardset as cs
from grove.engine import ai
from grove.engine.action import Action
from grove.engine.decision import Decision
from grove.engine.game import Game
from grove.engine.players import GreedyPlayer
from grove.engine.restricted import RestrictedPlayer
from grove.engine.seat import Seat


class Watching:
    """Greedy, keeping every (seat, decision) it is handed."""

    def __init__(self) -> None:
        self.inner = GreedyPlayer(1)
        self.seen: list[tuple[object, Decision]] = []

    def choose(self, seat: Seat, decision: Decision) -> Action:
        self.seen.append((seat, decision))
        return self.inner.choose(seat, decision)


def _species_played(seat: Seat, decision: Decision) -> set[str]:
    out = set()
    for text in decision.options:
        play = seat.play_of(text)
        if play is not None:
            out.add(play[0].id)
    return out


def _favourite(cardset) -> str:
    """The species greedy plays most in a few games: barring it changes what greedy does."""
    games = [Game(cardset, ["a", "b"], seed, events=False) for seed in range(3)]
    for g in games:
        g.play_out([GreedyPlayer(1), GreedyPlayer(2)])
    played: dict[str, int] = {}
    for g in games:
        for placed in g.views()[0].cards:
            if placed.key is not None:
                played[placed.key] = played.get(placed.key, 0) + 1
    return cardset.species[max(played, key=played.__getitem__)].id


@pytest.mark.parametrize("edition", ["base", "dartmoor"])
def test_a_barred_species_is_never_offered_to_the_wrapped_player_nor_played(edition):
    cardset = cs.build(edition)
    barred = _favourite(cardset)
    for seed in range(3):
        watcher = Watching()
        game = Game(cardset, ["a", "b"], seed, events=False)
        game.play_out([RestrictedPlayer(watcher, frozenset({barred})), GreedyPlayer(2)])
        assert all(p.key is None or cardset.species[p.key].id != barred
                   for p in game.views()[0].cards)
        assert watcher.seen
        for seat, decision in watcher.seen:
            assert isinstance(seat, Seat) and seat is game.seats[0]  # its own view, no game
            if decision.kind in ("turn", "place"):
                offered = _species_played(seat, decision)
                assert barred not in offered or offered == {barred}  # forced: handed whole


def test_a_barred_search_plays_ahead_as_the_barred_player_it_is(monkeypatch):
    """`mcts!X`'s search plays its own later turns without X, in its tree and its rollouts:
    every world it scores holds no more X in the seat's forest than the game did. Unbarred,
    the same search does play X ahead (so the check can fail)."""
    from grove.engine import mcts

    cardset = cs.build("base")
    barred = _favourite(cardset)
    counts: list[int] = []
    value = mcts._value

    def counting(w, me, k, *kept):
        counts.append(sum(1 for p in w.views()[me].cards
                          if p.key is not None and cardset.species[p.key].id == barred))
        return value(w, me, k, *kept)

    monkeypatch.setattr(mcts, "_value", counting)
    for spec, wanted in ((f"mcts:60!{barred}", False), ("mcts:60", True)):
        game = Game(cardset, ["a", "b"], 5, events=False)
        player = ai.make(spec, 1)
        ahead = False
        while game.decision is not None and game.turn < 30:
            d = game.decision
            if d.player == 0 and d.kind == "turn":
                before = sum(1 for p in game.views()[0].cards
                             if p.key is not None and cardset.species[p.key].id == barred)
                counts.clear()
                game.apply(player.choose(game.seats[0], d))
                if not wanted:
                    assert max(counts, default=0) <= before, "the search played a barred card"
                ahead |= max(counts, default=0) > before
            else:
                game.apply(GreedyPlayer(2).choose(game.seats[d.player], d))
        assert ahead == wanted


def test_an_unbarred_player_plays_as_the_player_it_wraps():
    cardset = cs.build("base")
    a = Game(cardset, ["a", "b"], 4, events=False)
    a.play_out([GreedyPlayer(1), GreedyPlayer(2)])
    b = Game(cardset, ["a", "b"], 4, events=False)
    b.play_out([RestrictedPlayer(GreedyPlayer(1), frozenset({"no_such_species"})),
                GreedyPlayer(2)])
    assert [x.text for x in a.history] == [x.text for x in b.history]


@pytest.mark.parametrize(("spec", "barred", "kind"), [
    ("greedy!red_fox", ("red_fox",), GreedyPlayer),
    ("mcts:50!red_fox!oak", ("red_fox", "oak"), None),
    ("random!woodland_edge:squeaker", ("woodland_edge:squeaker",), None),
    ("greedy", (), GreedyPlayer),
])
def test_specs_name_the_ai_and_what_it_never_plays(spec, barred, kind):
    assert ai.problem(spec) is None
    assert ai.barred(spec) == barred
    player = ai.make(spec, 1)
    if barred:
        assert isinstance(player, RestrictedPlayer) and player.barred == frozenset(barred)
    if kind is not None:
        assert isinstance(player.inner if barred else player, kind)


@pytest.mark.parametrize("spec", ["greedy!", "greedy!Red Fox", "greedy:3!oak", "nobody!oak",
                                  "greedy!!oak"])
def test_a_bad_spec_says_what_is_wrong(spec):
    assert ai.problem(spec) is not None
    with pytest.raises(ValueError):
        ai.make(spec, 1)


def test_an_unknown_species_is_found_against_the_card_sets_names():
    assert ai.unknown_species("greedy!red_fox!oak", {"red_fox", "oak"}) is None
    assert ai.unknown_species("greedy!red_fox!wolpertinger", {"red_fox"}) == "wolpertinger"


def test_grove_play_names_a_restricted_player_and_refuses_a_species_the_set_lacks():
    from click.testing import CliRunner

    from grove.cli import main

    r = CliRunner().invoke(main, ["play", "--edition", "base", "--ai", "greedy!red_fox,greedy",
                                  "--seed", "7", "--json"], catch_exceptions=False)
    assert r.exit_code == 0, r.stderr
    import json

    players = json.loads(r.stdout)["players"]
    assert players[0]["ai"] == "greedy!red_fox" and players[0]["name"] == "Greedy!red_fox 1"
    r = CliRunner().invoke(main, ["play", "--edition", "base", "--ai",
                                  "greedy!wolpertinger,greedy", "--seed", "7"],
                           catch_exceptions=False)
    assert r.exit_code == 2 and "no species 'wolpertinger'" in r.stderr
