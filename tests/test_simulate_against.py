"""What a change did: a run set against its baseline (`grove simulate --against RUN`, `grove
compare A B --html`), restricted play as one command (`--worth`), and compare's whole text.

A change is planted in a temporary copy of the base game (benchmarks/planted.py's `plant`),
never in grove/cards. The runs are of greedy players at both seats, 100 games of seed 3: the
pairing in which the planted sweep found every plant of the three dwellers it tried at 100
games (docs/simulate.md), and a few seconds a run on one job.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from benchmarks.planted import PAIRINGS, against_sweep, plant
from grove.cli import main

HALVED = "tawny_owl"  # 5 points -> 2


def run(*args: str | Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, [str(a) for a in args], env=env, catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


def simulate(out: Path, *extra: str | Path, ai: str = "greedy,greedy", games: int = 100,
             cards: Path | None = None) -> dict:
    code, stdout, err = run("simulate", "--edition", "base", "--ai", ai, "--games", str(games),
                            "--seed", "3", "--jobs", "1", "--out", out, "--json", *extra,
                            env={"GROVE_CARDS": str(cards) if cards else ""})
    assert code == 0, err
    return json.loads(stdout)


@pytest.fixture(scope="module")
def halved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path | dict]:
    top = tmp_path_factory.mktemp("against")
    cards = plant(HALVED, tmp_path_factory.mktemp("halved"), change="half")
    simulate(top / "base")
    summary = simulate(top / "halved", "--against", top / "base", cards=cards)
    return {"base": top / "base", "halved": top / "halved", "summary": summary,
            "cards": cards}


def test_a_halved_dweller_is_named_first_and_flagged_weak_against_its_baseline(halved):
    against = halved["summary"]["against"]
    first = against["changed"][0]
    assert first["id"] == HALVED and first["flag"] == "weak" and first["card_differs"]
    assert first["strength"]["change"] < 0
    ranks = first["rank"]
    assert ranks[1] > ranks[0]  # it fell down the strength ranking
    # the cause from the card data: the rule before and after, and only this species
    assert [d["id"] for d in against["differ"]] == [HALVED]
    assert against["differ"][0]["rules"] == [{"field": "score", "before": "5", "after": "2"}]
    # both card sets named by folder and digest
    assert against["base"]["cards"] == ["shipped:base"]
    assert against["new"]["cards"] == [str((halved["cards"] / "base").resolve())]
    assert against["base"]["digest"] != against["new"]["digest"]


def test_the_report_opens_with_what_changed(halved):
    page = (halved["halved"] / "report.html").read_text(encoding="utf-8")
    assert page.index('id="changed"') < page.index('id="read-first"') < page.index(
        'id="species"')
    table = page[page.index('id="changed-table"'):page.index("</table>",
                                                              page.index('id="changed-table"'))]
    assert "Tawny Owl" in table and "&#9660; weak" in table
    differ = page[page.index('id="differ-table"'):]
    assert re.search(r'<td class="rules">5</td><td class="rules">2</td>', differ)
    assert "shipped:base" in page and str(halved["cards"] / "base") in page


def test_compare_html_writes_the_same_report(halved, tmp_path):
    out = tmp_path / "cmp.html"
    code, _, err = run("compare", halved["base"], halved["halved"], "--html", "-o", out)
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    assert 'id="changed-table"' in page and "Tawny Owl" in page


def test_the_compare_text_holds_every_changed_figure_of_its_json(halved, tmp_path):
    """Greedy players against random ones: many figures change, a table far longer than the
    1,000 characters a message is cut at. Every changed figure of --json is a line of the
    text, and the head line counts them."""
    simulate(tmp_path / "random", ai="random,random", games=60)
    args = (halved["base"], tmp_path / "random")
    code, text, _ = run("compare", *args)
    assert code == 0
    code, out, _ = run("compare", *args, "--json")
    result = json.loads(out)
    assert len(result["changed"]) > 30 and len(text) > 2000
    assert f"{len(result['changed'])} of {result['compared']} figures changed" in text
    lines = text.splitlines()
    for c in result["changed"]:
        row = re.compile(rf"{re.escape(c['id'])} +{c['what']} +\S+ +\S+ +{c['p']:.3g}$")
        assert sum(bool(row.match(line)) for line in lines) == 1, c
    assert "more characters" not in text


def test_worth_plays_restricted_runs_and_reports_them(tmp_path):
    summary = simulate(tmp_path / "w", "--worth", "goshawk,wolf", games=30)
    rows = {w["species"]: w for w in summary["worth"]}
    assert set(rows) == {"goshawk", "wolf"}
    for w in rows.values():
        assert w["games"] == 30
        lo, hi = w["win_ci95"]
        assert lo <= w["win_rate_without"] <= hi
        lo, hi = w["worth_ci95"]
        assert lo <= w["points_worth"] <= hi
    page = (tmp_path / "w" / "report.html").read_text(encoding="utf-8")
    assert 'id="worth-table"' in page
    on_disk = json.loads((tmp_path / "w" / "summary.json").read_text(encoding="utf-8"))
    assert on_disk["worth"] == summary["worth"]


def test_a_baseline_that_is_no_run_is_refused_before_the_first_game(tmp_path):
    code, _, err = run("simulate", "--edition", "base", "--ai", "greedy,greedy", "--games", "5",
                       "--jobs", "1", "--out", tmp_path / "x", "--against", tmp_path / "none")
    assert code != 0 and "IO-NOT-FOUND" in err
    assert not (tmp_path / "x").exists()


def test_the_planted_sweep_finds_its_plants_and_names_nothing_between_unchanged_runs(
        halved, tmp_path):
    """The benchmark's check at a test's size: two plants of one dweller, greedy players, 100
    games; the full sweep is `python -m benchmarks.planted --against` (docs/simulate.md)."""
    greedy = tuple(p for p in PAIRINGS if p.name == "greedy-greedy")
    # the sweep plays no run its folder holds complete: the fixture's two runs are two of its
    # four (the same games, plant and players), so it plays the tripled owl and seed 4 alone
    # (under other folder names it would play all four again, and check the same)
    shutil.copytree(halved["base"], tmp_path / "shipped-greedy-greedy-100-3")
    shutil.copytree(halved["halved"], tmp_path / f"{HALVED}@half-greedy-greedy-100-3")
    result = against_sweep(tmp_path, ("half", "x3"), [HALVED], games=100,
                           processes=1, pairings=greedy, apart_seed=4)
    assert result["planted runs"] == 2
    assert result["found"] == 2, result["plants"]
    assert all(named == [] for named in result["apart"].values()), result["apart"]


@pytest.mark.parametrize(("rule", "half"), [("5", "2"), ("2 per insect", "1 per insect"),
                                            ("10 if count roe_deer >= 1", "5 if count roe_deer >= 1")])
def test_halving_halves_the_points_of_a_rule_and_nothing_else(rule, half):
    from benchmarks.planted import halved

    assert halved(rule) == half


def test_a_cost_plant_changes_the_cost_line_of_a_copy_only(tmp_path):
    from benchmarks.planted import cost_line
    from grove.compiler.search_path import shipped_cards_dir

    where = plant("wolf", tmp_path, change="cheaper") / "base"
    shipped = shipped_cards_dir() / "base"
    assert cost_line(shipped, "wolf")[2] == 3 and cost_line(where, "wolf")[2] == 2
    changed = [p.name for p in sorted(where.glob("*.yaml"))
               if p.read_bytes() != (shipped / p.name).read_bytes()]
    assert changed == ["left_right.yaml"]
    with pytest.raises(ValueError, match="costs nothing"):
        plant("moss", tmp_path / "moss", change="cheaper")


def test_a_worth_species_the_set_lacks_is_refused_before_the_first_game(tmp_path):
    code, _, err = run("simulate", "--edition", "base", "--ai", "greedy,greedy", "--games", "5",
                       "--jobs", "1", "--out", tmp_path / "x", "--worth", "wolf,unicorn")
    assert code != 0 and "USAGE-BAD-OPTION" in err and "unicorn" in err
    assert not (tmp_path / "x").exists()
