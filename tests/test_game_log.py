"""The game's events account for every card it moves, and the printed log words them."""

from __future__ import annotations

from collections import Counter

import pytest
from click.testing import CliRunner

from grove.cli import main
from grove.compiler import cardset as cs
from grove.engine.game import Game
from grove.engine.players import GreedyPlayer, RandomPlayer
from grove.game_log import GameLog

EDITIONS = [("base", ["alpine", "woodland_edge"]), ("dartmoor", []), ("smoky_mountains", [])]


def _apply_event(zones: dict[str, Counter], e) -> None:
    def zone(name: str) -> str:
        return f"{name}:{e.player}" if name in ("hand", "cave") else name

    def move(cards, src: str, dst: str) -> None:
        for c in cards:
            assert zones[src][c] > 0, f"{e}: card {c} is not in {src}"
            zones[src][c] -= 1
            zones[dst][c] += 1

    if e.kind == "move":
        move(e.cards, zone(e.source), zone(e.target))
    elif e.kind == "pay":
        move(e.cards, zone("hand"), "clearing")
    elif e.kind == "play":
        move(e.cards[:1], zone("clearing" if e.source == "clearing" else "hand"),
             f"forest:{e.player}")
        move(e.cards[1:], zone("hand"), f"forest:{e.player}")
    elif e.kind == "flush":
        move(e.cards, "clearing", "removed")
    elif e.kind == "winter":
        move(e.cards, "deck", "winter")


@pytest.mark.parametrize(("edition", "exps"), EDITIONS)
def test_events_account_for_every_card_that_moves(edition, exps):
    cset = cs.build(edition, exps)
    for seed in range(4):
        n = 2 + seed % 3
        game = Game(cset, [f"P{i}" for i in range(n)], seed)
        assert game.events == []
        zones = {k: Counter(v) for k, v in game.zones().items()}
        players = [GreedyPlayer(seed) if i % 2 else RandomPlayer(seed + i) for i in range(n)]
        seen = 0
        while game.decision is not None:
            game.apply(players[game.decision.player].choose(game.seats[game.decision.player], game.decision))
            for e in game.events[seen:]:
                _apply_event(zones, e)
            seen = len(game.events)
            want = {k: Counter(v) for k, v in game.zones().items()}
            assert {k: +v for k, v in zones.items()} == {k: +v for k, v in want.items()}
        assert game.events[-1].kind == "end"
        kinds = Counter(e.kind for e in game.events)
        assert kinds["winter"] == cset.setup.winter_cards
        assert kinds["play"] > 0 and kinds["move"] > 0


def test_log_words_every_turn_in_the_chosen_language():
    cset = cs.build("base")
    game = Game(cset, ["Ana", "Ben"], 4)
    log = GameLog(game, "de")
    players = [GreedyPlayer(1), GreedyPlayer(2)]
    lines: list[str] = []
    while game.decision is not None:
        game.apply(players[game.decision.player].choose(game.seats[game.decision.player], game.decision))
        lines += log.new_lines()
    text = "\n".join(lines)
    assert lines[0] == "Zug 1: Ana"  # the sentences too (game_log.po), not the names alone
    assert "Zug 2: Ben" in lines
    assert "Winterkarte 3 wird gezogen" in text and text.endswith("das Spiel endet")
    plays = [e for e in game.events if e.kind == "play" and e.species]
    first = cset.species[plays[0].species].name("de")
    assert any(line.strip().startswith("spielt " + first) for line in lines)
    fired = [e for e in game.events if e.kind == "effect"]
    assert fired and f"{cset.species[fired[0].species].name('de')}: Effekt" in text
    assert log.new_lines() == []  # nothing is said twice


def test_play_prints_the_log_unless_quiet():
    run = CliRunner().invoke(main, ["play", "--ai", "greedy,random", "--seed", "2"])
    assert run.exit_code == 0, run.output
    assert "Turn 1: Greedy 1" in run.stderr and "paying" in run.stderr
    quiet = CliRunner().invoke(main, ["play", "--ai", "greedy,random", "--seed", "2", "--quiet"])
    assert "Turn 1" not in quiet.stderr
