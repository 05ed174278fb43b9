"""Whole games: invariants after every action, determinism, replay, and final scores.

These play every shipped standalone edition to the end with random and greedy players. The
count per edition is kept modest here so the suite stays fast; `GROVE_GAMES` raises it.
"""

from __future__ import annotations

import io
import json
import os
import random

import pytest

from compiler import cardset as cs
from engine import placement, runner
from engine import record as rec
from engine.game import Game, IllegalAction
from engine.players import GreedyPlayer, RandomPlayer
from grove import api

GAMES = int(os.environ.get("GROVE_GAMES", "12"))
EDITIONS = [("base", []), ("base", ["alpine"]), ("base", ["alpine", "woodland_edge"]),
            ("smoky_mountains", [])]
EDITIONS += [("dartmoor", [])] if "dartmoor" in cs.load_universe().editions else []


def _check_invariants(game: Game, total: int) -> None:
    zones = game.zones()
    cards = [c for z in zones.values() for c in z]
    assert len(cards) == total, "a card appeared or vanished"
    assert len(set(cards)) == total, "a card is in two zones"
    limit = game.cardset.setup.hand_limit
    assert all(len(p.hand) <= limit for p in game.players)
    assert len(game.winter) < game.cardset.setup.winter_cards or game.decision is None


def _slots_legal(game: Game) -> None:
    for i in range(len(game.players)):
        view = game.view(i)
        for host in view.hosts:
            for slot in host.kind.slots:
                for card in host.slots[slot.id]:
                    why = placement.card_refusal(card, slot)
                    assert why is None, why
                assert placement.slot_refusal(host.card, slot) is None


@pytest.mark.parametrize(("edition", "exps"), EDITIONS)
def test_games_keep_every_invariant(edition, exps):
    cset = cs.build(edition, exps)
    for seed in range(GAMES):
        n = 2 + seed % 4
        game = Game(cset, [f"P{i}" for i in range(n)], seed)
        total = len(game.cards)
        players = [RandomPlayer(seed + i) if (seed + i) % 2 else GreedyPlayer(seed + i)
                   for i in range(n)]
        steps = 0
        while game.decision is not None:
            d = game.decision
            game.apply(players[d.player].choose(game, d))
            steps += 1
            _check_invariants(game, total)
            if steps % 25 == 0:
                _slots_legal(game)
        _slots_legal(game)
        # the game ended, and only because the last winter card came up
        assert len(game.winter) == cset.setup.winter_cards or not game.deck


def test_same_seed_same_record():
    cset = cs.build("base")
    a, b = io.StringIO(), io.StringIO()
    runner.play(cset, ["greedy", "random", "greedy"], 7, record=a)
    runner.play(cset, ["greedy", "random", "greedy"], 7, record=b)
    assert a.getvalue() == b.getvalue()
    c = io.StringIO()
    runner.play(cset, ["greedy", "random", "greedy"], 8, record=c)
    assert c.getvalue() != a.getvalue()


@pytest.mark.parametrize(("edition", "exps"), EDITIONS)
def test_replay_verifies_and_final_forest_rescores(tmp_path, edition, exps):
    cset = cs.build(edition, exps)
    path = tmp_path / "game.jsonl"
    with open(path, "w") as fh:
        out = runner.play(cset, ["greedy", "random"], 3, record=fh)
    r = rec.read(path)
    _, problems = runner.replay(cset, r)
    assert problems == []
    forest = tmp_path / "forest.json"
    forest.write_text(json.dumps(r.end["forest"]))
    result = api.score_file(str(forest))
    assert [p["total"] for p in result["players"]] == [s.total for s in out.scores]
    assert [p["by_category"] for p in result["players"]] == [s.by_category for s in out.scores]


def test_replay_finds_a_changed_action(tmp_path):
    cset = cs.build("base")
    path = tmp_path / "game.jsonl"
    with open(path, "w") as fh:
        runner.play(cset, ["random", "random"], 5, record=fh)
    lines = path.read_text().splitlines()
    row = json.loads(lines[3])
    row["action"] = "draw clearing 99999"
    lines[3] = json.dumps(row)
    path.write_text("\n".join(lines) + "\n")
    _, problems = runner.replay(cset, rec.read(path))
    assert problems and problems[0].startswith("line 4:")


def test_illegal_action_refused():
    game = Game(cs.build("base"), ["A", "B"], 1)
    with pytest.raises(IllegalAction):
        game.apply("play 99999 tree")


def test_setup_numbers():
    cset = cs.build("base")
    game = Game(cset, ["A", "B", "C"], 2)
    assert len(game.removed) == 20
    assert all(len(p.hand) == 6 for p in game.players)
    # every winter card lies in the bottom third, the first at that third's top
    pile = list(reversed(game.deck))
    first = min(pile.index(w) for w in game.winter_ids)
    assert first >= len(pile) - (len(pile) + 18) // 3 - 3
    assert pile[first] == min(game.winter_ids)


def test_bonus_gate_and_tree_reveal():
    cset = cs.build("base")
    game = Game(cset, ["A", "B"], 4)
    rnd = random.Random(0)
    before = len(game.clearing)
    trees = [o for o in game.legal_actions() if o.startswith("play") and o.endswith(" tree")]
    if not trees:
        pytest.skip("no tree in this opening hand")
    game.apply(trees[0])
    while game.decision and game.decision.kind == "pay":
        game.apply(rnd.choice(game.legal_actions()))
    assert len(game.clearing) >= before + 1  # the payment and the revealed card


def test_human_player_through_stdin():
    from engine.human import HumanPlayer

    cset = cs.build("base")
    game = Game(cset, ["Ana", "Bot"], 9)
    answers = io.StringIO("x\n" + "1\n" * 400)
    out = io.StringIO()
    human = HumanPlayer(answers, out, lang="de")
    bot = RandomPlayer(1)
    for _ in range(30):
        d = game.decision
        if d is None:
            break
        game.apply((human if d.player == 0 else bot).choose(game, d))
    text = out.getvalue()
    assert "please type a number" in text  # the "x" was refused
    assert "1. " in text and ("Stapel" in text or "deck" in text or "Lichtung" in text
                              or "draw" in text)


@pytest.mark.parametrize(("args", "code", "needle"), [
    (["--edition", "nowhere"], 2, "EDITION-UNKNOWN"),
    (["--ai", "greedy,clever"], 2, "unknown AI kind"),
    (["--ai", "random", "--players", "9"], 2, "set-up for 9 players"),
    (["--ai", "random,random", "--players", "3"], 2, "--players says 3"),
    (["--edition", "alpine"], 2, "EDITION-NOT-STANDALONE"),
])
def test_play_bad_input_is_one_line(args, code, needle):
    from click.testing import CliRunner

    from grove.cli import main

    r = CliRunner().invoke(main, ["play", "--quiet", *args])
    assert r.exit_code == code and needle in r.stderr and "Traceback" not in r.stderr


def test_replay_rejects_foreign_file(tmp_path):
    from click.testing import CliRunner

    from grove.cli import main

    bad = tmp_path / "r.jsonl"
    bad.write_text('{"hello": 1}\n')
    r = CliRunner().invoke(main, ["replay", str(bad), "--verify"])
    assert r.exit_code == 1 and "RECORD-BAD" in r.stderr
    bad.write_text("not json\n")
    r = CliRunner().invoke(main, ["replay", str(bad)])
    assert r.exit_code == 1 and "not JSON" in r.stderr


def test_play_json_result(tmp_path):
    from click.testing import CliRunner

    from grove.cli import main

    rec_path = tmp_path / "g.jsonl"
    r = CliRunner().invoke(main, ["play", "--ai", "random,greedy", "--seed", "2", "--json",
                                  "--record", str(rec_path)])
    assert r.exit_code == 0
    out = json.loads(r.stdout)
    assert out["seed"] == 2 and out["record"] == str(rec_path) and out["turns"] > 10
    assert [p["ai"] for p in out["players"]] == ["random", "greedy"]
    assert set(out["winners"]) <= {p["name"] for p in out["players"]}
