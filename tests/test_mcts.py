"""The search player (grove/engine/mcts.py): its budgets, its repeatability, and that it plays whole
games of every shipped edition and of an author's set, everywhere an AI plays."""

from __future__ import annotations

import dataclasses
import io
import json
import subprocess
import sys

import pytest

from grove.compiler import cardset as cs
from grove.engine import runner
from grove.engine.action import parse_place
from grove.engine.ai import make, problem
from grove.engine.game import Game
from grove.engine.mcts import Budget, Knobs, MctsPlayer
from grove.engine.players import gain
from grove.engine.scoring import score


@pytest.mark.parametrize("spec, budget", [("mcts", Budget()), ("mcts:300", Budget(300, None)),
                                          ("mcts:2s", Budget(None, 2.0)),
                                          ("mcts:500ms", Budget(None, 0.5))])
def test_budgets_are_spelt_as_iterations_or_a_time(spec, budget):
    assert problem(spec) is None
    player = make(spec, 1)
    assert isinstance(player, MctsPlayer) and player.budget == budget


@pytest.mark.parametrize("spec", ["mcts:", "mcts:0", "mcts:-3", "mcts:abc", "mcts:1e400s",
                                  "mcts:nans", "greedy:3", "clever", "mcts:99999999999"])
def test_a_bad_budget_is_named(spec):
    assert problem(spec) is not None
    with pytest.raises(ValueError):
        make(spec, 1)


@pytest.mark.parametrize("spec", ["mcts:10000000", "mcts:3600001", "mcts:3601s", "mcts:0"])
def test_iterations_are_capped_as_time_is_with_the_same_message(spec):
    """mcts:10000000 took about seven hours a decision: iterations stop at an hour's worth at
    the default's pace, as a time stops at an hour, and both say so in one message."""
    assert problem(spec) == (f"mcts budget {spec[5:]!r}: at most an hour a decision: 1 to "
                             "3600000 iterations, or a time from 1 ms to an hour")
    assert problem("mcts:3600000") is None and problem("mcts:3600s") is None


def _record(kinds: list[str], seed: int, edition: str = "base") -> str:
    out = io.StringIO()
    runner.play(cs.build(edition), kinds, seed, record=out)
    return out.getvalue()


def test_the_same_seed_and_iterations_give_the_same_record_byte_for_byte():
    first = _record(["mcts:12", "greedy"], 4)
    assert _record(["mcts:12", "greedy"], 4) == first
    assert _record(["mcts:12", "greedy"], 5) != first


def test_a_resumed_mcts_game_goes_on_as_if_it_never_stopped():
    full = _record(["mcts:10", "random"], 2).splitlines()
    header, *actions, end = full
    cut = [json.loads(line)["action"] for line in actions[:len(actions) // 2]]
    out = io.StringIO()
    runner.play(cs.build("base"), ["mcts:10", "random"], 2, record=out, resume=cut)
    assert out.getvalue().splitlines() == full


@pytest.mark.parametrize("edition", ["base", "dartmoor", "smoky_mountains"])
def test_mcts_plays_whole_games_of_every_edition(edition):
    cardset = cs.build(edition)
    for seed in range(2):
        game = Game(cardset, ["A", "B", "C"], seed)
        game.play_out([make("mcts:8", seed), make("greedy", 1), make("random", 2)])
        assert game.over


def test_mcts_plays_an_authors_own_card_sets_unchanged():
    """`meadow` (a standalone edition with a host kind of its own) and the base game with the
    `hedgerow` expansion live only under tests/editions: the search knows them through their
    compiled rules alone."""
    from pathlib import Path

    from grove.compiler.search_path import search_path

    roots = search_path([Path(__file__).parent / "editions"])
    for edition, expansions in (("meadow", []), ("base", ["hedgerow"])):
        cardset = cs.build(edition, expansions, roots)
        game = Game(cardset, ["A", "B"], 7)
        game.play_out([make("mcts:8", 7), make("greedy", 1)])
        assert game.over


def test_a_small_search_beats_the_random_player_every_time():
    """Two deals, each played twice with the seats swapped: a search of 10 iterations a turn
    wins all four, each by some 200 points (30 iterations won by as much). (How it fares
    against greedy is the ladder's, in `make bench`, with hundreds of games and their
    interval.)"""
    cardset = cs.build("base")
    for seed in range(2):
        for me in (0, 1):
            kinds = ["mcts:10", "random"] if me == 0 else ["random", "mcts:10"]
            game = Game(cardset, ["A", "B"], 100 + seed, events=False)
            game.play_out([make(k, 100 + seed * 31 + i) for i, k in enumerate(kinds)])
            totals = [score(v, cardset).total for v in game.views()]
            assert totals[me] > totals[1 - me]


def test_a_search_ranks_every_play_it_tried_with_its_margin():
    cardset = cs.build("base")
    game = Game(cardset, ["A", "B"], 3)
    while game.decision.kind != "turn":
        game.apply(game.decision.actions[0])
    d = game.decision
    ranked = MctsPlayer(1, Budget(40, None)).search(game.seats[d.player], d)
    assert sum(r.visits for r in ranked) == 40
    assert all(r.text in d.options for r in ranked)
    assert [r.visits for r in ranked] == sorted((r.visits for r in ranked), reverse=True)
    assert all(0.0 <= r.win <= 1.0 for r in ranked)


@pytest.mark.parametrize("depth", [1, 2])
def test_the_tree_holds_no_more_of_the_seats_decisions_than_its_depth(depth):
    game = _at_first_turn()
    d = game.decision
    deep = dataclasses.replace(Knobs(), depth=0)
    grown = MctsPlayer(1, Budget(200, None), deep).grow(game.seats[d.player], d)
    player = MctsPlayer(1, Budget(200, None), dataclasses.replace(Knobs(), depth=depth))
    root = player.grow(game.seats[d.player], d)

    def levels(node) -> int:
        return 1 + max((levels(c) for c in node.children.values()), default=0)

    assert levels(grown) > 2  # unbounded, 200 iterations reach past two of the seat's turns
    assert levels(root) == depth
    assert sum(root.visits.values()) == 200


def test_a_later_decision_waits_for_its_tries_and_widens_from_greedys_choice():
    """With `expand`, the tree holds the seat's next decision under a choice only once that
    choice has been tried `expand` times; with `later`, a decision below the turn tries
    ceil(later * sqrt(visits)) choices at most, greedy's first, where the turn's own widening
    would try six at once."""
    import math

    game = _at_first_turn()
    d = game.decision
    knobs = dataclasses.replace(Knobs(), depth=2, expand=10, later=0.25)
    root = MctsPlayer(1, Budget(200, None), knobs).grow(game.seats[d.player], d)
    assert root.children  # some choice was tried often enough
    for text, n in root.visits.items():
        assert (text in root.children) == (n > 10)  # opened at its eleventh try
    for text, child in root.children.items():
        assert child.n <= root.visits[text] - 11  # the eleventh try made it, the next visit it
        assert len(child.visits) <= max(1, math.ceil(0.25 * math.sqrt(child.n)))
    wide = dataclasses.replace(knobs, later=0.0)
    spread = MctsPlayer(1, Budget(200, None), wide).grow(game.seats[d.player], d)
    assert any(len(c.visits) > max(1, math.ceil(0.25 * math.sqrt(c.n)))
               for c in spread.children.values())


@pytest.mark.parametrize("paired", [0, 1])
def test_paired_tries_of_the_turns_choices_meet_the_same_worlds(monkeypatch, paired):
    """With `paired`, each choice's n-th try is played in the n-th world: as many worlds are
    dealt as the most tried choice was tried. Without it, every iteration deals its own."""
    from grove.engine import mcts

    game = _at_first_turn()
    d = game.decision
    dealt: list[tuple] = []
    real = mcts.world

    def watched(seat, rng, *shared):  # the real deal, its cards noted
        w = real(seat, rng, *shared)
        dealt.append((tuple(w.deck), tuple(tuple(p.hand) for p in w.players)))
        return w

    monkeypatch.setattr(mcts, "world", watched)
    knobs = dataclasses.replace(Knobs(), paired=paired, depth=1)
    root = MctsPlayer(1, Budget(120, None), knobs).grow(game.seats[d.player], d)
    assert len(dealt) == 120
    assert len(set(dealt)) == (max(root.visits.values()) if paired else 120)


def _grove(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from grove.cli import main; main()", *args],
                          input=stdin, capture_output=True, text=True, timeout=300)


def test_grove_play_takes_mcts_and_a_bad_budget_is_a_usage_error():
    ok = _grove("play", "--ai", "mcts:5,greedy", "--seed", "2", "--quiet", "--json")
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["players"][0]["ai"] == "mcts:5"
    bad = _grove("play", "--ai", "mcts:fast,greedy")
    assert bad.returncode == 2 and "mcts budget 'fast'" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_the_line_mode_hint_names_the_searchs_top_plays():
    proc = _grove("play", "--ai", "human,greedy", "--seed", "3", "--plain", "--lang", "de",
                  stdin="hint 30\nquit\n")
    assert proc.returncode == 0, proc.stderr
    assert "Die Such-KI hat 30 Versuche abgewogen:" in proc.stderr
    assert "1. " in proc.stderr and "Punkte gegenüber den anderen" in proc.stderr


@pytest.mark.parametrize("where", [["--jobs", "2"], ["--jobs", "1", "--cluster", "local"]])
def test_grove_simulate_runs_mcts_seats_on_processes_and_on_a_dask_cluster(tmp_path, where):
    out = tmp_path / "run"
    proc = _grove("simulate", "--edition", "base", "--ai", "mcts:4,greedy", "--rotate",
                  "--games", "4", "--seed", "1", *where, "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 4


def _at_first_turn(edition: str = "base", seed: int = 3) -> Game:
    game = Game(cs.build(edition), ["A", "B"], seed, events=False)
    while game.decision.kind != "turn":
        game.apply(game.decision.actions[0])
    return game


def _final_winter_below(game: Game, cards_above: int) -> None:
    """Stack the deck so the winter card that ends the game lies under `cards_above` cards."""
    need = game.cardset.setup.winter_cards - len(game.winter)
    winters = [c for c in game.deck if c in game.winter_ids][:need]
    plain = [c for c in game.deck if c not in game.winter_ids]
    # the deck's top is its end: `cards_above` plain cards, then every winter card still to come
    game.deck[:] = plain[cards_above:] + winters + plain[:cards_above]


@pytest.mark.parametrize("above, turns", [(0, [0, 0]), (1, [1, 0]), (2, [1, 1]), (3, [2, 1]),
                                           (7, [4, 3])])
def test_the_turns_a_player_has_left_are_the_cards_above_the_last_winter_card(above, turns):
    """About one deck card a turn (a draw takes two, a play none), player A to move."""
    from grove.engine.mcts import _turns_left

    game = _at_first_turn()
    _final_winter_below(game, above)
    assert game.current == 0
    assert [_turns_left(game, j) for j in (0, 1)] == turns


def test_a_hand_is_worth_what_its_best_plays_make_and_nothing_once_the_game_is_ending():
    from grove.engine.mcts import _hand_worth

    game = _at_first_turn()
    flat, potential = Knobs(potential=0.0), Knobs(potential=0.5)
    hand = len(game.players[0].hand)
    _final_winter_below(game, 40)  # turns enough for every card
    assert _hand_worth(game, 0, flat) == pytest.approx(flat.hand * hand)
    worth = _hand_worth(game, 0, potential)
    assert worth >= flat.hand * hand
    # a card worth more than the flat figure is what its best play gains now, halved
    tally = game.tally(0)
    best = max(gain(tally, tally.total, *game.placing(parse_place(t)))
               for c in game.players[0].hand for t in game.placements(0, c))
    assert worth >= 0.5 * best + flat.hand * (hand - 1) - 1e-9
    _final_winter_below(game, 2)  # one turn left: the best card alone
    assert _hand_worth(game, 0, potential) == pytest.approx(max(flat.hand, 0.5 * best))
    _final_winter_below(game, 0)
    assert _hand_worth(game, 0, potential) == 0.0 == _hand_worth(game, 0, flat)


def test_worlds_that_share_what_they_weigh_search_as_worlds_that_do_not(monkeypatch):
    """A turn's worlds share the plays their tallies weighed, where halves fit and the hand
    cards' best gains, by the forests' placements (tally.Alike): the same tree, try for try and
    point for point, as worlds that work everything out afresh, at decisions of a four-player
    base game (its lindens score by majority, so some plays read the other forests)."""
    from grove.engine import mcts

    game = Game(cs.build("base"), ["A", "B", "C", "D"], 8, events=False)
    greedy = make("greedy", 0)
    real = mcts.world

    def unshared(seat, rng, alike=None):
        return real(seat, rng)

    searched = 0
    while game.decision is not None and searched < 3:
        d = game.decision
        if d.kind == "turn" and game.turn % 9 == 4 and len(d.options) > 1:
            seat = game.seats[d.player]
            shared = MctsPlayer(2, Budget(150, None)).grow(seat, d)
            with monkeypatch.context() as m:
                m.setattr(mcts, "world", unshared)
                alone = MctsPlayer(2, Budget(150, None)).grow(seat, d)
            assert (shared.visits, shared.reward, shared.margin) == (
                alone.visits, alone.reward, alone.margin)
            searched += 1
        game.apply(greedy.choose(game.seats[d.player], d))
    assert searched == 3
