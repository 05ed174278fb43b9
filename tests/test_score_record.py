"""`grove score` on a game record: the final forests of its end line, or a clear diagnostic.

A record is what `grove play --record` leaves behind, so scoring it must give the scores the game
ended with; a record cut short (a crash, an interrupted game) must say so at its own file and line,
never with a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from grove import api, forest_file
from grove.cli import main
from grove.compiler import cardset as cs
from grove.dsl.diagnostics import DiagnosticError
from grove.engine import runner


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, runner.Outcome]:
    path = tmp_path_factory.mktemp("record") / "game.jsonl"
    with open(path, "w", encoding="utf-8") as fh:
        out = runner.play(cs.build("base", ["alpine"]), ["random", "greedy"], 4,
                          names=["Ana", "Ben"], record=fh)
    return path, out


def test_record_scores_as_the_game_ended(played):
    path, out = played
    assert forest_file.is_record(path)
    result = api.score_file(str(path))
    assert (result["edition"], result["with"]) == ("base", ["alpine"])
    assert [(p["name"], p["total"], p["by_category"]) for p in result["players"]] == [
        (s.name, s.total, s.by_category) for s in out.scores]
    assert [p["ai"] for p in result["players"]] == ["random", "greedy"]  # from the header
    assert result["winners"] == out.winners


def test_cli_scores_a_record(played):
    path, out = played
    code, stdout, _ = run("score", str(path), "--json")
    assert code == 0
    assert [p["total"] for p in json.loads(stdout)["players"]] == [s.total for s in out.scores]
    code, stdout, _ = run("score", str(path))
    assert code == 0 and "Winner" in stdout


def test_unfinished_record_is_a_diagnostic(played, tmp_path):
    lines = played[0].read_text(encoding="utf-8").splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:6]) + "\n", encoding="utf-8")
    code, out, err = run("score", str(cut))
    assert code == 1 and out == "" and "Traceback" not in err
    assert f"{cut}:6:1: error RECORD-UNFINISHED:" in err
    assert "5 actions" in err and "grove replay" in err and "grove play" in err
    only_header = tmp_path / "header.jsonl"
    only_header.write_text(lines[0] + "\n", encoding="utf-8")
    code, _, err = run("score", str(only_header))
    assert code == 1 and f"{only_header}:1:1: error RECORD-UNFINISHED:" in err


def test_broken_records_are_diagnostics(played, tmp_path):
    header = played[0].read_text(encoding="utf-8").splitlines()[0]
    cases = {
        "type.jsonl": header + '\n{"type": "bogus"}\n',
        "json.jsonl": header + "\n{not json\n",
        "end.jsonl": header + '\n{"type": "end", "forest": {"edition": "base"}}\n',
    }
    for name, text in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        code, out, err = run("score", str(path))
        assert code == 1 and out == "" and "Traceback" not in err, (name, err)
        assert "error RECORD-BAD:" in err, (name, err)


def test_forest_problems_point_at_the_record(played, tmp_path):
    lines = played[0].read_text(encoding="utf-8").splitlines()
    end = json.loads(lines[-1])
    end["forest"]["players"][0]["forest"][0] = {"tree": "oaak"}
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([*lines[:-1], json.dumps(end)]) + "\n", encoding="utf-8")
    with pytest.raises(DiagnosticError) as exc:
        api.score_file(str(bad))
    d = exc.value.diagnostics[0]
    assert d.code == "FOREST-UNKNOWN-CARD" and d.span is not None
    assert (d.span.file, d.span.line) == (str(bad), len(lines))
    assert json.dumps(end)[d.span.col - 1:].startswith('"oaak"')  # the column in that line


def test_a_json_forest_on_one_line_is_no_record(tmp_path):
    f = tmp_path / "forest.jsonl"
    f.write_text('{"edition": "base", "players": [{"name": "A", "forest": [{"tree": "oak"}]}]}\n',
                 encoding="utf-8")
    assert not forest_file.is_record(f)
    assert api.score_file(str(f))["players"][0]["name"] == "A"
    assert not forest_file.is_record(tmp_path / "missing.jsonl")
