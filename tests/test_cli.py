"""The command line as a user meets it: output shapes, exit codes, no tracebacks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from grove.cli import main

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


def test_editions_json():
    code, out, _ = run("editions", "--json")
    assert code == 0
    rows = {r["id"]: r for r in json.loads(out)}
    assert rows["base"]["cards"] == 158 and rows["base"]["species"] == 57
    assert rows["alpine"]["expansion_of"] == "base"
    assert set(rows["base"]["combines_with"]) == {"alpine", "woodland_edge"}


def test_cards_json_lists_expansion_cards():
    code, out, _ = run("cards", "alpine", "--json")
    assert code == 0
    rows = json.loads(out)
    assert len(rows) == 17 and all(r["key"].startswith("alpine:") for r in rows)


def test_cards_lang():
    code, out, _ = run("cards", "base", "--lang", "de")
    assert code == 0 and "Feldhase" in out


def test_lint_shipped_cards_clean():
    code, _, err = run("lint", "grove/cards")
    assert code == 0, err
    assert "0 error(s), 0 warning(s)" in err


def test_lint_provisional_lists_with_position():
    code, _, err = run("lint", "grove/cards", "--provisional")
    assert code == 0
    lines = [line for line in err.splitlines() if "PROVISIONAL" in line]
    assert lines and all(line.split(":")[1].isdigit() for line in lines)


@pytest.mark.parametrize("example", sorted(p.name for p in EXAMPLES.glob("*.yaml")))
def test_score_examples_json(example):
    code, out, _ = run("score", str(EXAMPLES / example), "--json")
    assert code == 0
    result = json.loads(out)
    for p in result["players"]:
        assert p["total"] == sum(p["by_category"].values())
        assert p["total"] == sum(c["points"] for c in p["cards"]) + p["by_category"]["cave"]
        rows = list(p["by_category"])
        assert rows[0] == "trees" and rows[-1] == "cave"
        assert {"top", "bottom", "left", "right"} <= set(rows)
        if result["edition"] == "dartmoor":
            assert "moors" in rows
        if result["edition"] == "smoky_mountains":
            assert "rivers" in rows


def test_score_exact_example():
    code, out, _ = run("score", str(EXAMPLES / "base_three_players.yaml"), "--json")
    totals = {p["name"]: p["total"] for p in json.loads(out)["players"]}
    assert totals == {"Ana": 45, "Ben": 68, "Cleo": 50}
    assert json.loads(out)["winners"] == ["Ben"]


def test_score_explain_names_rule_and_position():
    code, out, _ = run("score", str(EXAMPLES / "base_three_players.yaml"), "--explain")
    assert code == 0
    assert "3 per card with own symbol" in out and "left_right.yaml:" in out


def test_illegal_forest_names_player_host_slot(tmp_path):
    f = tmp_path / "f.yaml"
    f.write_text("edition: base\nplayers:\n  - name: Ana\n    forest:\n"
                 "      - tree: oak\n        left: tawny_owl\n")
    code, out, err = run("score", str(f))
    assert code == 1 and out == ""
    assert "FOREST-WRONG-SIDE" in err and "Ana, host 1 (oak), slot left" in err
    assert f"{f}:6:15" in err


def test_missing_file_is_usage_error(tmp_path):
    code, _, err = run("score", str(tmp_path / "nope.yaml"))
    assert code == 2 and "IO-NOT-FOUND" in err


def test_unknown_edition_in_forest(tmp_path):
    f = tmp_path / "f.yaml"
    f.write_text("edition: basic\nplayers:\n  - name: A\n    forest: []\n")
    code, _, err = run("score", str(f))
    assert code == 1 and "FOREST-EDITION" in err and ":1:10" in err


def test_lint_json_format(tmp_path):
    ed = tmp_path / "mini"
    ed.mkdir()
    (ed / "edition.yaml").write_text(
        "id: mini\nnames: {en: M, de: M, it: M, th: M}\nexpansion_of: base\n")
    (ed / "deck.yaml").write_text("edition: mini\ncards:\n  - {top: [owlet, oak], "
                                  "bottom: [owlet, oak]}\n")
    (ed / "s.yaml").write_text(
        "edition: mini\nspecies:\n  - id: owlet\n    names: {en: O, de: O, it: O, th: O}\n"
        "    kind: dweller\n    types: [bird]\n    cost: 1\n    copies: 2\n"
        "    score: 2 per brid\n")
    code, out, _ = run("lint", str(ed), "--format", "json")
    assert code == 1
    d = [json.loads(line) for line in out.splitlines()]
    assert d[0]["code"] == "DSL-UNKNOWN-NAME" and (d[0]["line"], d[0]["col"]) == (9, 18)
    assert "bird" in d[0]["hint"]


def test_lint_a_folder_checks_its_forest_files(tmp_path, monkeypatch):
    """`grove lint examples` reads every forest file in the folder, as `grove score` would."""
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    code, _, err = run("lint", "examples")
    assert code == 0, err
    broken = tmp_path / "examples" / "nested" / "broken.yaml"
    broken.parent.mkdir()
    broken.write_text("edition: base\nplayers:\n  - name: Ana\n    forest:\n"
                      "      - tree: oak\n        top: red_fox\n", encoding="utf-8")
    (tmp_path / "examples" / "notes.yaml").write_text("title: not a forest\n", encoding="utf-8")
    code, _, err = run("lint", "examples")
    assert code == 1
    assert "examples/nested/broken.yaml:6:" in err and "FOREST-" in err
    assert "notes.yaml" not in err  # other YAML in the folder is passed over


def test_lint_a_record_checks_its_final_forests(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run("play", "--ai", "random,random", "--seed", "4", "--quiet",
                       "--record", "game.jsonl")
    assert code == 0, err
    code, _, err = run("lint", "game.jsonl")
    assert code == 0 and "0 error(s)" in err
