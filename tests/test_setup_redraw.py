"""The set-up's redraw (seed 004, the Italian overview): a player whose six dealt cards hold no
tree may once put all six out of the game and draw six new ones from the deck.

Asked only of such a hand and only where the edition's rules have it (`rules: treeless_redraw:`),
so deals whose hands all hold a tree play as before; a record of format 1, written before the
rule, replays by the rules it was written under (tests/fixtures/record_format1_base.jsonl).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from grove.cli import main
from grove.compiler import cardset as cs
from grove.engine import record as rec
from grove.engine.ai import make
from grove.engine.game import Game

OLD_RECORD = Path(__file__).parent / "fixtures" / "record_format1_base.jsonl"
SEED = 7  # base, two players: Ana's dealt hand holds no tree


def _has_tree(game: Game, hand: list[int]) -> bool:
    return any("tree" in sp.types for c in hand for sp, _, _ in game.halves(c))


def test_a_hand_without_a_tree_is_asked_once_and_a_yes_deals_six_new_cards(base):
    g = Game(base, ["Ana", "Ben"], SEED)
    assert g.decision.kind == "redraw" and g.decision.player == 0
    assert g.legal_actions() == ("yes", "no")
    old = list(g.players[0].hand)
    assert not _has_tree(g, old)
    top = list(reversed(g.deck[-6:]))  # the six the redraw takes, the top card first
    g.apply("yes")
    assert g.players[0].hand == top
    assert set(old) <= set(g.removed)  # out of the game, not back into the deck
    assert not set(old) & set(g.deck)
    # Ben's hand holds a tree: he is not asked, and the first turn follows
    assert _has_tree(g, g.players[1].hand)
    assert g.decision.kind == "turn" and g.decision.player == 0


def test_a_no_keeps_the_hand(base):
    g = Game(base, ["Ana", "Ben"], SEED)
    old, deck = list(g.players[0].hand), list(g.deck)
    g.apply("no")
    assert g.players[0].hand == old and g.deck == deck
    assert g.decision.kind == "turn"


def test_a_hand_with_a_tree_is_never_asked(base):
    asked = 0
    for seed in range(60):
        g = Game(base, ["Ana", "Ben"], seed)
        if g.decision.kind == "redraw":
            asked += 1
            assert not _has_tree(g, g.players[g.decision.player].hand)
        else:
            assert all(_has_tree(g, p.hand) for p in g.players)
    assert 0 < asked < 60


def test_editions_whose_overviews_lack_the_rule_never_ask():
    for edition in ("smoky_mountains", "dartmoor"):
        c = cs.build(edition)
        assert not c.flags.get("treeless_redraw")
        for seed in range(30):
            assert Game(c, ["Ana", "Ben"], seed).decision.kind != "redraw"


def test_an_expansion_plays_by_the_base_game_rule():
    c = cs.build("base", ["alpine", "woodland_edge"])
    assert c.flags.get("treeless_redraw") is True


@pytest.mark.parametrize("kind", ["greedy", "mcts:20"])
def test_the_ais_redraw_a_hand_without_a_tree(base, kind):
    g = Game(base, ["Ana", "Ben"], SEED)
    answer = make(kind, 1).choose(g.seats[0], g.decision)
    assert answer.text == "yes"


def test_a_legacy_game_asks_nothing(base):
    g = Game(base, ["Ana", "Ben"], SEED, legacy=True)
    assert g.decision.kind == "turn"


def test_a_record_of_format_1_replays_by_its_own_rules(base, tmp_path):
    """The record was written by grove before the rule (format 1; `grove replay --verify` of
    that grove verified it): its deal leaves Ana without a tree and it holds no redraw answer.
    The base edition's card files changed with the rule (edition.yaml gained
    `treeless_redraw`), so the copy replayed here carries today's digest: this test is about
    the rules a record replays by, the digest check has its own (tests/test_cache.py)."""
    lines = OLD_RECORD.read_text(encoding="utf-8").split("\n")
    header = json.loads(lines[0])
    assert header["format"] == 1 and header["seed"] == SEED
    header["digest"] = rec.digest(base)
    copy = tmp_path / "old.jsonl"
    copy.write_text("\n".join([json.dumps(header), *lines[1:]]), encoding="utf-8")
    r = CliRunner().invoke(main, ["replay", str(copy), "--verify"], catch_exceptions=False)
    assert r.exit_code == 0, r.stdout + r.stderr
    assert "verified" in r.stderr and "Total     254     62" in r.stdout  # its scores, unmoved
    # the same deal under today's rules asks the redraw first: the old first action is no answer
    g = Game(base, ["Ana", "Ben"], SEED)
    assert json.loads(lines[1])["action"] not in g.legal_actions()


def test_a_new_record_is_format_2_and_replays(base, tmp_path):
    out = tmp_path / "new.jsonl"
    r = CliRunner().invoke(main, ["play", "--edition", "base", "--ai", "greedy,random",
                                  "--seed", str(SEED), "--record", str(out)],
                           catch_exceptions=False)
    assert r.exit_code == 0, r.stdout + r.stderr
    lines = out.read_text(encoding="utf-8").split("\n")
    assert json.loads(lines[0])["format"] == rec.FORMAT == 2
    assert json.loads(lines[1])["action"] == "yes"  # greedy redraws its tree-less hand
    r = CliRunner().invoke(main, ["replay", str(out), "--verify"], catch_exceptions=False)
    assert r.exit_code == 0, r.stdout + r.stderr


@pytest.mark.parametrize("lang", ["en", "de", "it", "th"])
def test_the_terminal_asks_the_person_in_their_language(base, lang):
    from grove.seatview.view import View

    g = Game(base, ["Ana", "Ben"], SEED)
    view = View(g.seats[0], lang)
    question = view.ask(g.decision)
    assert question != view.words("ask.choose") and not question.startswith("ask.")
    labels = [o.label for o in view.options(g.decision)]
    assert labels == [view.words("do.redraw_yes"), view.words("do.redraw_no")]
    assert len(set(labels)) == 2 and not any(x.startswith("do.") for x in labels)
    assert labels[0] != view.words("do.yes")


def test_a_stopped_record_of_format_1_resumes_by_its_own_rules(base, tmp_path):
    """A game stopped under format 1 goes on as it began: no redraw asked of the deal that
    lacks a tree, and its record stays format 1 and replays."""
    lines = OLD_RECORD.read_text(encoding="utf-8").split("\n")
    header = json.loads(lines[0])
    header["digest"] = rec.digest(base)  # see test_a_record_of_format_1_replays_by_its_own_rules
    stopped = tmp_path / "stopped.jsonl"
    stopped.write_text("\n".join([json.dumps(header), *lines[1:11],
                                  json.dumps(rec.stop_line(10))]) + "\n", encoding="utf-8")
    r = CliRunner().invoke(main, ["play", "--resume", str(stopped)], catch_exceptions=False)
    assert r.exit_code == 0, r.stdout + r.stderr
    new = stopped.read_text(encoding="utf-8").split("\n")
    assert json.loads(new[0])["format"] == 1
    assert [json.loads(x) for x in new[1:11]] == [json.loads(x) for x in lines[1:11]]
    r = CliRunner().invoke(main, ["replay", str(stopped), "--verify"], catch_exceptions=False)
    assert r.exit_code == 0 and "verified" in r.stderr, r.stdout + r.stderr
