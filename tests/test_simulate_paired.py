"""Two runs of the same games set against each other game by game (simulation/paired.py), and
the weighed correction that looks for a change first where the card data says it was made
(simulation/against.py, statistics.holm).

The runs are of greedy players, 60 base games of seed 3 (a second or two each on one job), with
a dweller's points halved in a temporary copy of the base game (benchmarks/planted.py's
`plant`): the red squirrel, which scores only beneath an oak, so greedy
players score it in a few games of 60 and every other game is played exactly as before.
"""

from __future__ import annotations

import math
import random
import shutil
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from benchmarks.planted import plant
from grove import api
from grove.compiler.search_path import search_path
from grove.simulation.against import against, set_against, summary_of
from grove.simulation.compare import compare, read_run
from grove.simulation.paired import log_ratio_change, mean_change, ratio_change, read_pair
from grove.simulation.report import render
from grove.simulation.statistics import benjamini_hochberg, holm

GAMES = 60
RARE = "red_squirrel"  # 5 if host is oak -> 2 if host is oak


def simulate(out: Path, seed: int = 3, cards: list[Path] | None = None) -> Path:
    api.simulate("base", [], ["greedy", "greedy"], GAMES, seed, False, jobs=1, out=str(out),
                 roots=search_path(cards or [], env={}))
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    top = tmp_path_factory.mktemp("paired")
    cards = plant(RARE, tmp_path_factory.mktemp("rare"), change="half")
    dearer = plant(RARE, tmp_path_factory.mktemp("dearer"), change="dearer")
    return {"base": simulate(top / "base"), "again": simulate(top / "again"),
            "seed 4": simulate(top / "seed4", seed=4),
            "rare": simulate(top / "rare", cards=[cards]),
            "dearer": simulate(top / "dearer", cards=[dearer])}


def test_games_are_paired_by_seed_and_seating_and_runs_of_other_seeds_not(runs):
    pair = read_pair(runs["base"], runs["rare"])
    assert pair is not None and pair.games == GAMES
    assert read_pair(runs["base"], runs["seed 4"]) is None


def test_a_rare_dweller_halved_is_named_game_by_game_and_missed_as_independent_samples(runs):
    """The squirrel scores in 3 of the 60 games: set side by side as independent samples the
    two runs name nothing; game by game, where every game it did not touch differs by nothing,
    its strength is named fallen (points 5 -> 2 where it scored beneath an oak), and nothing
    else is."""
    pair = read_pair(runs["base"], runs["rare"])
    assert pair is not None
    scored = np.nonzero(pair.sums(pair.before, RARE).points)[0]
    assert 0 < len(scored) < GAMES / 10
    base, rare = read_run(runs["base"]), read_run(runs["rare"])
    found = set_against(base, rare)["against"]
    assert [c["id"] for c in found["changed"]] == [RARE]
    squirrel = found["changed"][0]
    assert squirrel["flag"] == "weak" and squirrel["card_differs"]
    assert squirrel["strength"]["ci95"][1] < 0
    rows = [summary_of(r)["species"] for r in (base, rare)]
    assert against(base.totals, rare.totals, *rows)["changed"] == []


def test_the_same_games_again_name_nothing_and_other_seeds_are_compared_unpaired(runs):
    same = set_against(read_run(runs["base"]), read_run(runs["again"]))["against"]
    assert same["changed"] == [] and same["figures_changed"] == 0
    assert same["paired"] == GAMES and same["compared"] > 100
    apart = set_against(read_run(runs["base"]), read_run(runs["seed 4"]))["against"]
    assert apart["paired"] is None and apart["changed"] == []


def test_a_dweller_made_dearer_is_named_by_the_cards_paid_a_copy(runs):
    """The red squirrel made to cost 1 (it cost nothing): greedy players play it about as
    often as before, but every copy played from hand now pays a card. Its cards paid a copy,
    0 before, is the figure named, game by game and as independent samples (compare), with
    the very values the rows give: 7 of its 8 copies paid, one was played free."""
    base, dearer = read_run(runs["base"]), read_run(runs["dearer"])
    found = set_against(base, dearer)["against"]
    assert found["changed"][0]["id"] == RARE
    squirrel = found["changed"][0]
    top = squirrel["figures"][0]
    assert top["what"] == "paid_per_copy"
    assert (top["before"], top["after"], top["change"]) == (0.0, 0.875, 0.875)
    assert squirrel["paid_per_copy"] == [0.0, 0.875]
    assert top["ci95"][0] > 0 and top["p"] < 1e-6
    cards = pq.read_table(runs["dearer"] / "cards.parquet").to_pylist()
    rows = [c for c in cards if c["species"] == RARE]
    assert (sum(c["copies"] for c in rows), sum(c["paid"] for c in rows)) == (8, 7)
    named = compare(base, dearer)["changed"]
    assert named[0] == {"id": RARE, "what": "paid_per_copy", "a": 0.0, "b": 0.875,
                        "p": named[0]["p"]}
    assert named[0]["p"] < 0.05
    page = render(*api.against(str(runs["base"]), str(runs["dearer"])))
    table = page[page.index('id="changed-table"'):page.index("</table>",
                                                              page.index('id="changed-table"'))]
    assert "cards paid a copy" in table and "0.00 → 0.88" in table


def _without_paid(folder: Path, to: Path) -> Path:
    """A copy of a run as grove wrote it before `paid`: cards.parquet without the column, its
    run facts kept."""
    shutil.copytree(folder, to)
    table = pq.read_table(folder / "cards.parquet")
    table = table.drop_columns(["paid"]).replace_schema_metadata(table.schema.metadata)
    pq.write_table(table, to / "cards.parquet")
    return to


def test_runs_written_before_paid_still_compare_without_it(runs, tmp_path):
    """A baseline written before the `paid` column: compare and the report against it still
    work, the cards paid a copy unknown (untested) and every other figure as before."""
    old = _without_paid(runs["base"], tmp_path / "old")
    base, dearer = read_run(old), read_run(runs["dearer"])
    assert not base.totals.paid and dearer.totals.paid
    result = compare(base, dearer)
    paid = [f for f in result["figures"] if f["what"] == "paid_per_copy"]
    assert paid and all(f["p"] is None and f["a"] is None for f in paid)
    new = compare(read_run(runs["base"]), dearer)
    assert result["compared"] == new["compared"] - sum(
        f["p"] is not None for f in new["figures"] if f["what"] == "paid_per_copy")
    found = set_against(base, dearer)["against"]
    assert found["paired"] == GAMES
    assert all(f["what"] != "paid_per_copy" for c in found["changed"] for f in c["figures"])
    rare = set_against(read_run(_without_paid(runs["rare"], tmp_path / "rare")), base)
    assert [c["id"] for c in rare["against"]["changed"]] == [RARE]


def test_a_paired_ratio_change_has_the_delta_methods_spread():
    copies = np.array([0.0, 1, 2, 0, 1])
    paid = np.array([0.0, 1, 2, 0, 0])
    same = ratio_change((paid, paid), (copies, copies))
    assert same is not None and (same.change, same.p) == (0.0, 1.0)
    assert same.before == same.after == 0.75
    # every copy paying one card more, in the games that hold one: a certain move of 1
    more = ratio_change((paid, paid + copies), (copies, copies))
    assert more is not None and (more.change, more.p) == (1.0, 0.0)
    # the spread: each game's (paid - ratio * copies) over the mean copies, before and after
    moved = ratio_change((paid, paid + np.array([0, 1, 0, 0, 0])), (copies, copies))
    assert moved is not None and moved.change == pytest.approx(0.25)
    d = 5 * ((paid + [0, 1, 0, 0, 0]) - 1.0 * copies) / 4 - 5 * (paid - 0.75 * copies) / 4
    se = float(np.std(d, ddof=1)) / math.sqrt(5)
    assert moved.ci95 == pytest.approx((0.25 - 1.959964 * se, 0.25 + 1.959964 * se), rel=1e-6)
    assert ratio_change((paid, paid), (copies, 0 * copies)) is None


def test_a_paired_mean_change_is_students_paired_t(stats):
    rng = np.random.default_rng(3)
    a = rng.integers(0, 9, 40).astype(float)
    b = a + rng.integers(-1, 3, 40)
    t = mean_change(a, b)
    ref = stats.ttest_rel(b, a)
    assert t.p == pytest.approx(ref.pvalue, rel=1e-9)
    lo, hi = ref.confidence_interval(0.95)
    assert t.ci95 == pytest.approx((lo, hi), rel=1e-9)
    assert mean_change(a, a).p == 1.0 and mean_change(a, a + 1).p == 0.0


def test_a_log_ratio_move_has_the_delta_methods_spread_and_none_where_scaled_alike():
    points = np.array([0.0, 5, 10, 0, 15])
    due = np.array([0.0, 4, 8, 4, 12])
    same = log_ratio_change((points, points), (due, due))
    assert same == (same[0], same[0], 0.0, 0.0)
    tripled = log_ratio_change((points, 3 * points), (due, due))
    assert tripled is not None
    assert tripled[2] == pytest.approx(math.log2(3)) and tripled[3] == 0.0
    moved = log_ratio_change((points, points + np.array([0, 1, 0, 2, 0])), (due, due))
    assert moved is not None and moved[3] > 0
    assert log_ratio_change((points, 0 * points), (due, due)) is None


def test_weighed_holm_is_holm_with_equal_weights_and_keeps_the_error_with_unequal_ones():
    ps = [0.01, 0.04, 0.03, 0.005]
    assert holm(ps, [2.0] * 4) == holm(ps)
    # a figure with three times the others' weight: 0.01 over 2 (its weight scaled to average
    # 1) times all 4, then the rest as Holm's over the weights left
    assert holm([0.01, 0.02, 0.03, 0.5], [3, 1, 1, 1]) == pytest.approx([0.02, 0.06, 0.06, 0.5])
    assert benjamini_hochberg(ps, [1, 1, 1, 1]) == pytest.approx(benjamini_hochberg(ps))
    # under no change at all, some figure is named in at most 5% of families, whatever the
    # weights (20 figures, one given half the error allowed)
    rng = random.Random(7)
    weights = [0.5] + [0.5 / 19] * 19
    named = sum(min(holm([rng.random() for _ in range(20)], weights)) < 0.05
                for _ in range(20000))
    assert 0.04 < named / 20000 <= 0.053
