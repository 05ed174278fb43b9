"""Every game ends: a round in which no player can go on ends it, and a bound on the turns that
no game that moves on reaches stops one that turns in circles (docs/diagnostics.md, "Games that
cannot go on"); lint warns of a deck that can leave every hand full of cards none can play.

The card set that turned forever (issue 34) is `grove new`'s with 2 copies of each tree and 40
of each split card: 4 trees offer 8 places to 40 dwellers, the hands fill, and with no stuck
turn nothing is left to do.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from grove import scaffold
from grove.cli import main
from grove.compiler import cardset as cs
from grove.compiler.search_path import search_path
from grove.engine import game as game_module
from grove.engine import runner
from grove.engine.action import STOP
from grove.engine.ai import make
from grove.engine.game import Game, TurnLimit
from grove.engine.setup import turn_limit


def _scaffold(tmp: Path, name: str, trees: int, split: int, stuck: str | None = None) -> Path:
    """`grove new NAME` with its counts changed (and a stuck-turn rule added, if given)."""
    folder = scaffold.create(name, str(tmp / name), roots=search_path(env={})).folder
    species = folder / "species.yaml"
    text = species.read_text(encoding="utf-8")
    text = text.replace("copies: 10", f"copies: {trees}").replace("copies: 12", f"copies: {split}")
    species.write_text(text, encoding="utf-8")
    deck = folder / "deck.yaml"
    text = deck.read_text(encoding="utf-8")
    text = text.replace("count: 10", f"count: {trees}").replace("count: 12", f"count: {split}")
    deck.write_text(text, encoding="utf-8")
    if stuck is not None:
        edition = folder / "edition.yaml"
        edition.write_text(edition.read_text(encoding="utf-8") + f"rules:\n  stuck_turn: {stuck}\n",
                           encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def stuck_set(tmp_path_factory) -> Path:
    return _scaffold(tmp_path_factory.mktemp("sets"), "stuckset", trees=2, split=40)


def _build(folder: Path, name: str):
    return cs.build(name, (), search_path([folder], env={}))


def _run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


@pytest.mark.parametrize("seed", range(6))
def test_a_round_in_which_no_player_can_go_on_ends_the_game(stuck_set, seed):
    cset = _build(stuck_set, "stuckset")
    game = Game(cset, ["A", "B"], seed)
    game.play_out([make(k, seed * 31 + i) for i, k in enumerate(("greedy", "random"))])
    assert game.decision is None and game.over
    kinds = [e.kind for e in game.events]
    assert kinds[-2:] == ["stalled", "end"]
    # the round that ended it: each player's last turn was a stuck one, after the last change
    last = [e for e in game.events if e.player >= 0][-2:]
    assert [e.kind for e in last] == ["stuck", "stuck"] and {e.player for e in last} == {0, 1}
    assert len(game.winter) < cset.setup.winter_cards  # not the winter cards: the deck is left
    assert game.deck


def test_a_stuck_turn_that_moves_cards_goes_on_to_the_winter_cards(tmp_path):
    """The edition's own rule moves a stuck player on (cards to the cave, as many drawn): the
    game is not stalled but ends at its last winter card, as the rule means it to."""
    folder = _scaffold(tmp_path, "caveset", trees=2, split=40, stuck="{cards: 2, to: cave}")
    cset = _build(folder, "caveset")
    for seed in range(3):
        game = Game(cset, ["A", "B"], seed)
        game.play_out([make("greedy", seed * 31 + i) for i in range(2)])  # greedy puts cards away
        kinds = [e.kind for e in game.events]
        assert "stuck" in kinds and "stalled" not in kinds
        assert len(game.winter) == cset.setup.winter_cards


class _Declining:
    """Random, but puts no card away when a stuck turn asks: a player's choice, every time."""

    def __init__(self, seed: int):
        self.random = make("random", seed)

    def choose(self, game, decision):
        if decision.kind == "choose":
            return STOP
        return self.random.choose(game, decision)


def test_a_player_who_declines_the_stuck_turn_is_asked_again_until_the_bound(tmp_path):
    """Under the rules of format-1 records (`legacy`), a stuck player could put no card away:
    that was a decision, not a turn that could not change anything, so the game went on, and
    players who decline for ever meet the turn bound, which stops the game instead of letting
    it run. (Today's rules put exactly the cards away: tests/scenarios/smoky_mountains.yaml.)"""
    folder = _scaffold(tmp_path, "declined", trees=2, split=40, stuck="{cards: 2, to: cave}")
    cset = _build(folder, "declined")
    game = Game(cset, ["A", "B"], 4, legacy=True)
    with pytest.raises(TurnLimit):
        game.play_out([_Declining(i) for i in range(2)])
    kinds = {e.kind for e in game.events}
    assert "stalled" not in kinds and "stuck" in kinds
    memo = game.memo
    assert game.turn == turn_limit(cset.setup, len(memo.halves), memo.most_needed, 2)


def test_play_and_simulate_end_with_a_message_not_a_hang(stuck_set, tmp_path):
    code, out, err = _run("play", "--cards", str(stuck_set), "--edition", "stuckset", "--ai",
                          "greedy,random", "--seed", "2", "--record", str(tmp_path / "g.jsonl"))
    assert code == 0, err
    assert "no player can draw or play any more" in err and "the game ends" in err
    assert "Winner" in out
    code, out, err = _run("replay", str(tmp_path / "g.jsonl"), "--cards", str(stuck_set),
                          "--verify")
    assert code == 0 and "verified" in out + err
    code, out, err = _run("simulate", "--cards", str(stuck_set), "--edition", "stuckset",
                          "--ai", "greedy,random", "--games", "8", "--jobs", "1", "--out",
                          str(tmp_path / "run"), "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["games"] == 8 and summary["games_failed"] == 0


def test_the_turn_limit_stops_a_game_with_a_clear_error(stuck_set, tmp_path, monkeypatch):
    """A game that would go on past the bound (here made small) stops with PLAY-TURN-LIMIT:
    `grove play` says so and leaves no record, `grove simulate` counts the game as failed."""
    monkeypatch.setattr(game_module, "turn_limit", lambda *args: 3)
    cset = cs.build("base")
    game = Game(cset, ["A", "B"], 1)
    with pytest.raises(TurnLimit, match="reached 3 turns"):
        game.play_out([make("random", i) for i in range(2)])
    record = tmp_path / "cut.jsonl"
    code, out, err = _run("play", "--edition", "base", "--ai", "random,random", "--quiet",
                          "--record", str(record))
    assert code == 1 and "PLAY-TURN-LIMIT" in err and "Traceback" not in err
    assert not record.exists()
    code, out, err = _run("simulate", "--edition", "base", "--ai", "random,random", "--games",
                          "2", "--jobs", "1", "--out", str(tmp_path / "run"))
    assert code == 1 and err.count("SIM-GAME-FAILED") == 2
    assert err.count("TurnLimit: the game reached 3 turns") == 2


def test_the_turn_limit_is_far_beyond_any_game(tmp_path):
    """The bound leaves every game of the shipped editions (and the stuck set's) far behind:
    the longest of a batch of random games, which take the most turns, is under a tenth."""
    for edition, players in (("base", 2), ("base", 5), ("dartmoor", 2), ("smoky_mountains", 4)):
        cset = cs.build(edition)
        longest = 0
        for seed in range(6):
            out = runner.play(cset, ["random"] * players, seed)
            longest = max(longest, out.game.turn)
        memo = out.game.memo
        bound = turn_limit(cset.setup, len(memo.halves), memo.most_needed, players)
        assert 10 * longest < bound, (edition, players, longest, bound)


def test_lint_warns_of_a_deck_that_can_deadlock(stuck_set, tmp_path):
    code, out, err = _run("lint", str(stuck_set), "--format", "json")
    found = [json.loads(line) for line in out.splitlines() if line.strip()]
    dead = [d for d in found if d["code"] == "DECK-DEADLOCK"]
    assert code == 0 and len(dead) == 1  # a warning: exit 0 unless --strict
    assert dead[0]["severity"] == "warning" and dead[0]["file"].endswith("edition.yaml")
    assert re.search(r"40 cards .* offer 8: the 32 left over", dead[0]["message"])
    assert _run("lint", str(stuck_set), "--strict")[0] == 1
    # the same deck with a stuck-turn rule, or enough trees, can always go on: no warning
    for name, kwargs in (("withrule", {"trees": 2, "split": 40, "stuck": "{cards: 2, to: cave}"}),
                         ("moretrees", {"trees": 6, "split": 40}),
                         ("fewer", {"trees": 2, "split": 27})):
        folder = _scaffold(tmp_path, name, **kwargs)  # type: ignore[arg-type]
        code, out, err = _run("lint", str(folder), "--strict")
        assert code == 0 and "DECK-DEADLOCK" not in out + err, (name, out, err)


def test_no_shipped_edition_can_deadlock():
    code, out, err = _run("lint", "--format", "json")
    assert "DECK-DEADLOCK" not in out
