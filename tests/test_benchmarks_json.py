"""`python -m benchmarks --json` prints one JSON object on stdout and the report on stderr, so a
script can read the figures; run here on its quickest benchmark only."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_benchmarks_print_their_figures_as_json():
    proc = subprocess.run([sys.executable, "-m", "benchmarks", "--only", "compile", "--rounds",
                           "3", "--json"], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(proc.stdout)
    assert set(figures) == {"python", "compile"}
    assert all(v > 0 for v in figures["compile"].values())
    assert "== compile the card set" in proc.stderr


def test_games_are_timed_in_short_pairs_of_batches_on_fresh_seeds():
    if str(REPO) not in sys.path:  # the benchmarks are run from the checkout, not installed
        sys.path.insert(0, str(REPO))
    from benchmarks.games import side_by_side

    seen: dict[str, list[int]] = {"null": [], "real": []}

    def null(seed: int) -> None:
        seen["null"].append(seed)
        sum(range(200))

    def real(seed: int) -> None:
        seen["real"].append(seed)
        sum(range(2000))

    null_rate, real_rate, ratios = side_by_side(null, real, 0.2, 0.01)
    assert len(ratios) == 20  # 0.2 s of each kind in batches of 10 ms
    assert real_rate < null_rate and all(r > 0 for r in ratios)
    for seeds in seen.values():  # every game a seed of its own, in order
        assert seeds == list(range(len(seeds))) and len(seeds) >= 2 * len(ratios)
    assert len(side_by_side(null, real, 0.01, 0.01)[2]) == 8  # never fewer than eight pairs


def test_a_shared_memo_is_filled_before_the_games_rows_time_it():
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    from benchmarks.games import warm
    from grove.compiler.cardset import build
    from grove.engine.memo import Memo

    cset = build("base")
    memo = Memo(cset)
    assert warm(cset, memo, 0.3) >= 1
    assert memo.answers and memo.placings  # where halves fit, and what plays place, known


def test_the_ladder_plays_a_row_with_other_search_settings():
    """`--ai-knobs` changes the searching seat's settings for a row, and names only settings
    the search has: a misspelt one stops the run before any game is played."""
    from benchmarks.ai import Deal, knobs, play_deal

    assert knobs("horizon=1, epsilon=0.25") == (("horizon", 1), ("epsilon", 0.25))
    assert knobs(None) == ()
    assert knobs("horizon=2, epsilon=0.25") == (("epsilon", 0.25),)  # horizon 2 is the default
    with pytest.raises(SystemExit, match="hoizon"):
        knobs("hoizon=1")
    with pytest.raises(SystemExit, match="a number"):
        knobs("epsilon=lots")
    wins, games, seconds, decisions, margin = play_deal(
        Deal("base", 2, "mcts:5", 7, knobs("horizon=0")))
    assert games == 2 and 0 <= wins <= 2 and decisions > 20


def test_the_ladder_goes_on_from_its_journal(tmp_path, capsys):
    """A row at the default budget outlasts a sitting, so the ladder keeps each deal in a
    journal and plays only the deals it lacks; a half-written last line (a killed run) is passed
    over, and a deal played with other settings is not taken for one of today's."""
    import json

    from benchmarks.ai import ladder

    journal = tmp_path / "ladder.jsonl"
    tiny = [("tiny", "base", 2, "mcts:4", 4)]
    first = ladder(None, 4, 1, journal=journal, table=tiny)[0]
    assert first["games"] == 4 and len(journal.read_text().splitlines()) == 2
    with open(journal, "a") as f:
        f.write('{"key": "half')
    again = ladder(None, None, 1, journal=journal, table=tiny)[0]  # the row's own 4 games
    assert again == first  # nothing played: every deal came from the journal
    assert "2 deals from the journal" in capsys.readouterr().out
    more = ladder(None, 6, 1, journal=journal, table=tiny)[0]
    lines = journal.read_text().splitlines()
    assert more["games"] == 6 and len(lines) == 4  # two kept, the torn one, one new
    assert json.loads(lines[-1])["key"] != json.loads(lines[0])["key"]
    other = ladder(None, 4, 1, settings="epsilon=0.5", journal=journal, table=tiny)[0]
    assert other["games"] == 4 and len(journal.read_text().splitlines()) == 6
    # the setting against the default, deal by deal, from the journal's deals of both
    paired = other["against_default"]
    mine = [json.loads(line)["result"][0] for line in journal.read_text().splitlines()[-2:]]
    assert paired["deals"] == 2
    assert paired["difference"] == pytest.approx((sum(mine) - first["win_rate"] * 4) / 4,
                                                 abs=1e-4)
    # and the points a game was won or lost by, from the same deals
    margins = [json.loads(line)["result"][4] for line in journal.read_text().splitlines()[-2:]]
    assert paired["margin"]["deals"] == 2
    assert paired["margin"]["difference"] == pytest.approx(
        (sum(margins) - first["margin"] * 4) / 4, abs=0.01)
    # a deal the journal holds under a setting that is the default now counts as the default's
    key = json.loads(json.loads(lines[0])["key"])
    key[3] = {"epsilon": 0.1}
    journal.write_text(json.dumps({"key": json.dumps(key), "result": [2, 2, 1.0, 10]}) + "\n")
    old = ladder(None, 2, 1, journal=journal, table=tiny)[0]
    assert old["win_rate"] == 1.0 and "margin" not in old  # a deal from before margins were kept


def test_a_step_of_the_budget_curve_is_read_from_the_same_deals(tmp_path):
    """The curve's rise is each budget against the next one down on the same deals: the row
    names that budget and pairs its deals with the journal's deals of it."""
    import json

    from benchmarks.ai import ROWS, ladder, lower_budget

    assert lower_budget("mcts", "base", 2, ROWS) == "mcts:300"  # the default stands for 1000
    assert lower_budget("mcts:3000", "base", 2, ROWS) == "mcts:1000"
    assert lower_budget("mcts:100", "base", 2, ROWS) is None  # the curve's foot
    assert lower_budget("mcts", "base", 4, ROWS) is None  # no curve of four players
    assert lower_budget("mcts:2s", "base", 2, ROWS) is None  # a time is not on the curve
    journal = tmp_path / "ladder.jsonl"
    curve = [("low", "base", 2, "mcts:2", 4), ("high", "base", 2, "mcts:6", 4)]
    low, high = ladder(None, None, 1, journal=journal, table=curve)
    assert "against_lower" not in low
    step = high["against_lower"]
    results = [json.loads(line)["result"] for line in journal.read_text().splitlines()]
    assert step["b"] == "mcts:2" and step["deals"] == 2
    assert step["difference"] == pytest.approx(high["win_rate"] - low["win_rate"], abs=1e-4)
    assert step["margin"]["difference"] == pytest.approx(
        (sum(r[4] for r in results[2:]) - sum(r[4] for r in results[:2])) / 4, abs=0.01)


def test_the_ladders_rows_play_in_the_order_named_and_a_misspelt_one_is_refused():
    from benchmarks.ai import ladder

    table = [("one", "base", 2, "mcts:2", 2), ("two", "base", 2, "mcts:3", 2)]
    rows = ladder(["two", "one"], None, 1, journal=None, table=table)
    assert [row["a"] for row in rows] == ["mcts:3", "mcts:2"]
    with pytest.raises(SystemExit, match="no row 'tow'.*one, two"):
        ladder(["tow"], None, 1, journal=None, table=table)


def test_the_search_is_timed_at_each_decision_it_is_asked_at():
    """`--only search` times the search at points of greedy games: one figure a decision, at
    each round asked for while the game lasts (here a quick search, not the default)."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    from benchmarks.ai import pace

    seconds = pace(3, seeds=(11,), rounds=(2, 4), ai="mcts:5")
    assert len(seconds) == 2 and all(s > 0 for s in seconds)
    assert pace(2, seeds=(11,), rounds=(500,), ai="mcts:5") == []  # the game ended before
