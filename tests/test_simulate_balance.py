"""The balance figures of `grove simulate` (issue 30): species figures per AI that add up to the
pooled ones, a strength with its interval and a flag, and restricted play (`greedy!goshawk`).

A change is planted in a temporary copy of the base game, never in grove/cards: a dweller
scores three times its points (benchmarks/planted.py's `plant`, which the sweep over every
dweller uses too). The goshawk (3 -> 9 per bird) was found by the rule before this one too; the
European hare (1 -> 3 per hare) was not (7th and 4th by strength, unflagged, in these very
games), and is now first and strong in both pairings.

Each run is 100 base games with one job, one to two seconds each; the module's six runs take
about 10 s of CPU. Why 100 suffice: in these games (seed 3) the flag's z is 6.7 and 7.1 for the
goshawk and 4.39 (greedy against random) and 3.58 (greedy players) for the hare, against bars
of 3.33 and 3.28; with seed 4 the hare's are 3.61 and 4.29. The strength's spread is the set's,
which more games do not narrow: at 200 games the hare's z are 3.70 and 3.86, no wider a
margin for twice the time.

The red fox (2 -> 6 per hare) is what the flag misses (6th and 4th by strength, unflagged, at
200 games) and `grove compare` finds: compared with the unchanged run of the same games, its
points when played are named changed and nothing of another species is.
"""

from __future__ import annotations

import json
import shutil
from collections import defaultdict
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from benchmarks.planted import multiplied, plant, score_line
from grove.cli import main

GAMES = 100
PLANTED = ("goshawk", "european_hare")  # found before and now; found only now
PAIRINGS = {"greedy-random": ["--ai", "greedy,random", "--rotate"],
            "greedy-greedy": ["--ai", "greedy,greedy"]}
RESTRICTED = "goshawk"
COMPARED = "red_fox"  # missed by the flag, found by compare


def run(*args: str | Path, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, [str(a) for a in args], env=env, catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


def simulate(out: Path, pairing: str, *extra: str, games: int = GAMES, seed: int = 3,
             cards: Path | None = None) -> dict:
    code, stdout, err = run("simulate", "--edition", "base", *PAIRINGS.get(pairing, []), *extra,
                            "--games", str(games), "--seed", str(seed), "--jobs", "1",
                            "--out", out, "--json",
                            env={"GROVE_CARDS": str(cards) if cards else ""})
    assert code == 0, err
    return json.loads(stdout)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, dict]]:
    top = tmp_path_factory.mktemp("balance")
    copies = {s: plant(s, tmp_path_factory.mktemp(f"planted-{s}")) for s in PLANTED}
    out = {}
    for pairing in PAIRINGS:
        for name, where in (("shipped", None), *copies.items()):
            folder = top / f"{name}-{pairing}"
            out[f"{name} {pairing}"] = (folder, simulate(folder, pairing, cards=where))
    return out


@pytest.fixture(scope="module")
def fox(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The red fox tripled, one run per pairing, of the same games as the shipped runs."""
    where = plant(COMPARED, tmp_path_factory.mktemp(f"planted-{COMPARED}"))
    top = tmp_path_factory.mktemp("compared")
    out = {}
    for pairing in PAIRINGS:
        out[pairing] = top / pairing
        simulate(out[pairing], pairing, cards=where)
    return out


def _ranked(summary: dict) -> list[dict]:
    return sorted((r for r in summary["species"] if r["strength"] is not None),
                  key=lambda r: -r["strength"])


@pytest.mark.parametrize("planted", PLANTED)
@pytest.mark.parametrize("pairing", list(PAIRINGS))
def test_a_planted_change_is_flagged_strong_and_ranked_among_the_three_strongest(
        runs, pairing, planted):
    ranked = _ranked(runs[f"{planted} {pairing}"][1])
    top = [r["id"] for r in ranked[:3]]
    assert planted in top, top
    row = next(r for r in ranked if r["id"] == planted)
    assert row["flag"] == "strong"
    lo, hi = row["strength_ci95"]
    assert 0 < lo <= row["strength"] <= hi


@pytest.mark.parametrize("pairing", list(PAIRINGS))
def test_an_unchanged_set_flags_at_most_a_few_species(runs, pairing):
    summary = runs[f"shipped {pairing}"][1]
    flagged = [r["id"] for r in summary["species"] if r["flag"]]
    assert len(flagged) <= 3, flagged
    for planted in PLANTED:
        assert next(r for r in summary["species"] if r["id"] == planted)["flag"] is None


@pytest.mark.parametrize("pairing", list(PAIRINGS))
def test_compare_finds_a_planted_change_the_flag_misses(runs, fox, pairing):
    """The unchanged run against the fox's run, `grove compare` as a designer runs it: the fox's
    `mean_points_when_played` is named changed and every figure named is the fox's own (its
    `played_per_game` as well between greedy players). Why the module's 100 games: they are the
    shipped runs the other tests play already, so this test adds two runs (about 5 s); there the
    fox's corrected p is 6.2e-5 between greedy and random and 1.8e-11 between greedy players,
    and with seeds 4 and 5 at most 6.6e-6, against the 0.05 it must be below: 800 times below
    at least, and the test asks for 100 times. (With fewer games greedy against random misses
    it: seed 3 names nothing at 60 games, 6.8e-4 at 80.)"""
    code, out, err = run("compare", runs[f"shipped {pairing}"][0], fox[pairing], "--json")
    assert code == 0, err
    changed = json.loads(out)["changed"]
    assert {(c["id"], c["what"]) for c in changed} >= {(COMPARED, "mean_points_when_played")}
    assert {c["id"] for c in changed} == {COMPARED}, changed
    points = next(c for c in changed if c["what"] == "mean_points_when_played")
    assert points["b"] > 2 * points["a"] and points["p"] < 0.05 / 100


def _recount(folder: Path) -> tuple[dict, dict, int]:
    """From the Parquet files alone: forests and wins per AI, and per (species, AI) the counts
    behind every figure."""
    games = pq.read_table(folder / "games.parquet").to_pylist()
    forests: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for g in games:
        forests[g["ai"]][0] += 1
        forests[g["ai"]][1] += g["winner"]
    counts: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for c in pq.read_table(folder / "cards.parquet").to_pylist():
        k = counts[c["species"], c["ai"]]
        if c["copies"]:
            k["plays"] += 1
            k["wins"] += c["winner"]
            k["copies"] += c["copies"]
            k["points"] += c["points"]
        if c["drawn"]:
            k["drawn"] += 1
            k["drawn_wins"] += c["winner"]
    return dict(forests), counts, len({g["game"] for g in games})


def _close(a: float | None, b: float | None, within: float = 1e-6) -> bool:
    """Equal to the summary's six decimals (a difference of two rounded figures: to twice)."""
    return (a is None and b is None) or (a is not None and b is not None and abs(a - b) <= within)


def test_the_figures_per_ai_add_up_to_the_pooled_figures(runs):
    """Every figure of `by_ai` recomputed from the Parquet files, and the pooled figure
    recomputed as the counts of the AIs added up."""
    folder, summary = runs["shipped greedy-random"]
    forests, counts, games = _recount(folder)
    assert summary["games"] == games
    for row in summary["species"]:
        assert [a["ai"] for a in row["by_ai"]] == sorted(forests)
        pooled: dict[str, int] = defaultdict(int)
        for fig in row["by_ai"]:
            ai = fig["ai"]
            n, wins = forests[ai]
            k = counts.get((row["id"], ai), defaultdict(int))
            for key, v in k.items():
                pooled[key] += v
            assert fig["forests"] == n
            assert _close(fig["played_per_game"], k["copies"] / games)
            assert _close(fig["mean_points_when_played"],
                          k["points"] / k["plays"] if k["plays"] else None)
            assert _close(fig["win_rate_when_played"], k["wins"] / k["plays"] if k["plays"] else None)
            assert _close(fig["win_rate_when_not"], (wins - k["wins"]) / (n - k["plays"]))
            assert _close(fig["win_rate_when_drawn"],
                          k["drawn_wins"] / k["drawn"] if k["drawn"] else None)
            assert _close(fig["win_rate_when_not_drawn"],
                          (wins - k["drawn_wins"]) / (n - k["drawn"]) if n > k["drawn"] else None)
        n = sum(f[0] for f in forests.values())
        wins = sum(f[1] for f in forests.values())
        assert _close(row["played_per_game"], pooled["copies"] / games)
        assert _close(sum(a["played_per_game"] for a in row["by_ai"]), row["played_per_game"])
        assert _close(row["mean_points_when_played"],
                      pooled["points"] / pooled["plays"] if pooled["plays"] else None)
        assert _close(row["win_rate_when_played"],
                      pooled["wins"] / pooled["plays"] if pooled["plays"] else None)
        assert _close(row["win_rate_when_drawn"],
                      pooled["drawn_wins"] / pooled["drawn"] if pooled["drawn"] else None)
        assert _close(row["win_rate_when_not_drawn"],
                      (wins - pooled["drawn_wins"]) / (n - pooled["drawn"])
                      if n > pooled["drawn"] else None)
        if row["win_rate_when_drawn"] is not None and row["improvement_ci95"] is not None:
            assert _close(row["improvement_when_drawn"],
                          row["win_rate_when_drawn"] - row["win_rate_when_not_drawn"], 2e-6)
            lo, hi = row["improvement_ci95"]
            assert lo <= row["improvement_when_drawn"] <= hi
        # the pooled strength's ratio (2 to the log2 strength) is the AIs' ratios weighed by
        # the points their copies were expected to score (expected points a copy times copies;
        # an AI whose copies scored nothing weighs in at 0), and that expectation is the AIs'
        # weighed by their copies
        per = [(0.0 if a["strength"] is None else 2.0 ** a["strength"],
                a["expected_per_copy"] * a["played_per_game"],
                a["played_per_game"], a["expected_per_copy"]) for a in row["by_ai"]
               if a["expected_per_copy"] is not None]
        if per and row["strength"] is not None:
            weighed = sum(s * w for s, w, _, _ in per) / sum(w for _, w, _, _ in per)
            assert abs(weighed - 2.0 ** row["strength"]) < 1e-4 * 2.0 ** row["strength"]
            expected = sum(e * c for _, _, c, e in per) / sum(c for _, _, c, _ in per)
            assert abs(expected - row["expected_per_copy"]) < 1e-5


def test_a_restricted_player_never_plays_its_species_and_compare_reads_the_run(runs, tmp_path):
    folder = tmp_path / "restricted"
    summary = simulate(folder, "", "--ai", f"greedy!{RESTRICTED},greedy", "--rotate", games=40)
    assert [a["ai"] for a in summary["ais"]] == ["greedy", f"greedy!{RESTRICTED}"]
    rows = [c for c in pq.read_table(folder / "cards.parquet").to_pylist()
            if c["species"] == RESTRICTED]
    barred = [c for c in rows if c["ai"] == f"greedy!{RESTRICTED}"]
    assert barred and all(c["copies"] == 0 and c["drawn"] > 0 for c in barred)
    assert any(c["copies"] > 0 for c in rows if c["ai"] == "greedy")
    code, out, err = run("compare", runs["shipped greedy-greedy"][0], folder, "--json")
    assert code == 0, err
    result = json.loads(out)
    assert result["compared"] > 100 and any(f["id"] == RESTRICTED for f in result["figures"])
    code, out, err = run("compare", folder, folder)
    assert code == 0, err


@pytest.mark.parametrize(("spec", "says"), [
    ("greedy!no_such_card", "has no species 'no_such_card'"),
    ("greedy!", "no species id"),
    ("greedy!Red Fox", "no species id"),
    ("grumpy!red_fox", "unknown AI"),
])
def test_a_bad_restriction_is_refused_before_the_first_game(tmp_path, spec, says):
    code, _, err = run("simulate", "--edition", "base", "--ai", f"{spec},greedy", "--games", "2",
                       "--out", tmp_path / "bad")
    assert code == 2 and says in err and "Traceback" not in err
    assert not (tmp_path / "bad").exists()


def test_compare_reads_a_run_written_before_the_drawn_column(runs, tmp_path):
    """A run folder from before `drawn` (its cards.parquet without the column, every row a
    played species) is compared as before; only its drawn figures are unknown."""
    import pyarrow as pa

    from grove.simulation.aggregate import read_totals
    from grove.simulation.summary import SpeciesFacts, summarize

    old = tmp_path / "old"
    shutil.copytree(runs["shipped greedy-greedy"][0], old)
    cards = pq.read_table(old / "cards.parquet")
    played = cards.filter(pa.compute.greater(cards["copies"], 0)).drop_columns(["drawn"])
    pq.write_table(played.replace_schema_metadata(cards.schema.metadata), old / "cards.parquet")
    code, out, err = run("compare", old, runs["shipped greedy-greedy"][0], "--json")
    assert code == 0, err
    assert json.loads(out)["changed"] == []
    fresh = runs["shipped greedy-greedy"][1]
    facts = [SpeciesFacts(r["id"], r["name"], r["cost"], r["kind"]) for r in fresh["species"]]
    summary = summarize(read_totals(old / "games.parquet", old / "cards.parquet"), {}, facts)
    for a, b in zip(summary["species"], fresh["species"], strict=True):
        assert a["played_per_game"] == b["played_per_game"] and a["strength"] == b["strength"]
        assert a["win_rate_when_drawn"] is None


@pytest.mark.parametrize(("rule", "tripled"), [
    ("3 per bird", "9 per bird"),
    ("10 if count roe_deer >= 1", "30 if count roe_deer >= 1"),  # the count is no points
    ("3 if most linden else 1", "9 if most linden else 3"),
    ("1 per tree + 1 per plant", "3 per tree + 3 per plant"),
    ("total table [5, 15, 25] by fire_salamander", "total table [15, 45, 75] by fire_salamander"),
    ("sets of distinct butterfly table [0, 3, 6]", "sets of distinct butterfly table [0, 9, 18]"),
    ("5 if host has 2 bat", "15 if host has 2 bat"),
    ("0", "0"),
])
def test_planting_triples_the_points_of_a_rule_and_nothing_else(rule, tripled):
    assert multiplied(rule) == tripled


def test_a_planted_copy_changes_one_line_of_the_copy_and_not_the_shipped_cards(tmp_path):
    from grove.compiler.search_path import shipped_cards_dir

    shipped = shipped_cards_dir() / "base"
    before = {p.name: p.read_bytes() for p in shipped.glob("*.yaml")}
    plant("red_fox", tmp_path)
    assert {p.name: p.read_bytes() for p in shipped.glob("*.yaml")} == before
    changed = [p.name for p in (tmp_path / "base").glob("*.yaml")
               if p.read_bytes() != before[p.name]]
    assert changed == ["left_right.yaml"]
    assert score_line(tmp_path / "base", "red_fox")[2] == "6 per hare"
    with pytest.raises(ValueError, match="no points"):
        plant("raccoon", tmp_path / "again")
