"""One exit-code table for every command (issue 13, parts 2 and 5).

0 fine; 1 the input was read and is wrong; 2 usage or I/O. Each command is run here with at least
one case of each code it can give, so a command that drifts from the table fails by name. Also:
`--json` diagnostics as JSON lines on stderr, `--lang` checked everywhere, `--players N` alone.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from grove.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "grove" / "examples" / "base_three_players.yaml"
ILLEGAL = ("edition: base\nplayers:\n  - name: Ana\n    forest:\n"
           "      - tree: oak\n        left: tawny_owl\n")


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture(scope="module")
def sets(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A card set of one's own (`grove new`), a copy of it with a rule naming nothing, and a
    few broken files: made once, read by every case."""
    top = tmp_path_factory.mktemp("sets")
    code, _, err = run("new", "woods", "-o", str(top / "woods"))
    assert code == 0, err
    broken = top / "broken"
    shutil.copytree(top / "woods", broken)
    species = broken / "species.yaml"
    text = species.read_text(encoding="utf-8")
    first = text.index("score: ")
    end = text.index("\n", first)
    species.write_text(text[:first] + "score: 2 per nothing_here" + text[end:], encoding="utf-8")
    (top / "illegal.yaml").write_text(ILLEGAL, encoding="utf-8")
    (top / "undecodable.yaml").write_bytes(b"\xff\xfe edition: base\n")
    (top / "not_a_folder").write_text("a file\n", encoding="utf-8")
    code, _, err = run("play", "--seed", "5", "--quiet", "--record", str(top / "game.jsonl"))
    assert code == 0, err
    lines = (top / "game.jsonl").read_text(encoding="utf-8").splitlines()
    (top / "garbled.jsonl").write_text(lines[0] + "\nthis is no JSON\n", encoding="utf-8")
    code, _, err = run("simulate", "--cards", str(top / "woods"), "--edition", "woods", "--ai",
                       "random,random", "--games", "4", "--jobs", "1", "--out", str(top / "run"))
    assert code == 0, err
    (top / "no_run").mkdir()
    for name in ("games.parquet", "cards.parquet"):
        (top / "no_run" / name).write_text("not Parquet\n", encoding="utf-8")
    return {"top": top, "woods": top / "woods", "broken": broken}


def _cases() -> list[tuple[str, int, list[str], dict[str, str] | None]]:
    """(command, expected exit code, arguments with {top}/{woods}/{broken} to fill, env)."""
    bad_path = {"GROVE_CARDS": "{top}/no_such_folder"}
    return [
        ("editions", 0, [], None),
        ("editions", 2, [], bad_path),
        ("editions", 2, ["--cards", "{top}/not_a_folder"], None),
        ("cards", 0, ["base", "--lang", "de"], None),
        ("cards", 1, ["woods", "--cards", "{broken}"], None),
        ("cards", 2, ["atlantis"], None),
        ("cards", 2, ["base", "--with", "dartmoor"], None),
        ("cards", 2, ["base", "--lang", "xx"], None),
        ("lint", 0, ["{woods}"], None),
        ("lint", 1, ["{top}/illegal.yaml"], None),
        ("lint", 1, ["{broken}"], None),
        ("lint", 2, ["{top}/no_such_file.yaml"], None),
        ("lint", 2, ["{top}/undecodable.yaml"], None),
        ("lint", 2, ["{woods}"], bad_path),
        ("score", 0, [str(EXAMPLE)], None),
        ("score", 1, ["{top}/illegal.yaml"], None),
        ("score", 1, ["{woods}/forests/example.yaml", "--cards", "{broken}"], None),
        ("score", 2, ["{top}/no_such_file.yaml"], None),
        ("score", 2, ["{top}/undecodable.yaml"], None),
        ("score", 2, [str(EXAMPLE), "--lang", "fr"], None),
        ("play", 0, ["--players", "3", "--quiet"], None),
        ("play", 1, ["--edition", "woods", "--cards", "{broken}", "--quiet"], None),
        ("play", 2, ["--edition", "atlantis"], None),
        ("play", 2, ["--lang", "xx"], None),
        ("play", 2, ["--ai", "clever"], None),
        ("play", 2, ["--players", "9"], None),
        ("play", 2, ["--quiet", "--record", "{top}/no_such_folder/game.jsonl"], None),
        ("replay", 0, ["{top}/game.jsonl", "--verify"], None),
        ("replay", 1, ["{top}/garbled.jsonl"], None),
        ("replay", 2, ["{top}/game.jsonl"], bad_path),
        ("sheet", 0, ["--edition", "woods", "--cards", "{woods}", "--lang", "en",
                      "--format", "html", "-o", "{top}/sheet.html"], None),
        ("sheet", 1, ["--edition", "woods", "--cards", "{broken}", "--lang", "en",
                      "--format", "html", "-o", "{top}/never.html"], None),
        ("sheet", 2, ["--edition", "atlantis", "--lang", "en"], None),
        ("sheet", 2, ["--edition", "base", "--lang", "xx"], None),
        ("sheet", 2, ["--edition", "base", "--lang", "en", "--format", "html",
                      "-o", "{top}/not_a_folder/x.html"], None),
        ("print", 0, ["--edition", "woods", "--cards", "{woods}", "--lang", "th",
                      "-o", "{top}/cards.pdf"], None),
        ("print", 1, ["--edition", "woods", "--cards", "{broken}", "--lang", "en",
                      "-o", "{top}/never.pdf"], None),
        ("print", 2, ["--edition", "base", "--lang", "xx"], None),
        ("print", 2, ["--edition", "base", "--lang", "en", "--format", "png", "--only", "oak",
                      "-o", "{top}/game.jsonl/png"], None),  # a file where the folder goes
        ("simulate", 0, ["--edition", "woods", "--cards", "{woods}", "--ai", "greedy,random",
                         "--games", "2", "--jobs", "1", "--out", "{top}/run2"], None),
        ("simulate", 1, ["--edition", "woods", "--cards", "{broken}", "--ai", "random,random",
                         "--games", "2", "--out", "{top}/never"], None),
        ("simulate", 2, ["--edition", "atlantis", "--ai", "random", "--games", "2"], None),
        ("simulate", 2, ["--edition", "base", "--ai", "random,random", "--games", "0"], None),
        ("simulate", 2, ["--edition", "base", "--ai", "random,clever", "--games", "2"], None),
        ("simulate", 2, ["--edition", "base", "--ai", "random,random", "--games", "2",
                         "--out", "{top}/not_a_folder/run"], None),
        ("compare", 0, ["{top}/run", "{top}/run"], None),
        ("compare", 1, ["{top}/run", "{top}/no_run"], None),
        ("compare", 2, ["{top}/run", "{top}/no_such_run"], None),
        ("find", 0, ["type:bird cost<=1"], None),
        ("find", 0, ["kind:tree", "--cards", "{broken}"], None),  # left out, with a warning
        ("find", 1, ["kind:tree", "--edition", "woods", "--cards", "{broken}"], None),
        ("find", 2, ["typ:bird"], None),
        ("find", 2, ["type:bird", "--edition", "atlantis"], None),
        ("export", 0, ["-o", "{top}/db.sqlite", "--edition", "alpine"], None),
        ("export", 1, ["--edition", "woods", "--cards", "{broken}", "-o", "{top}/b.sqlite"], None),
        ("export", 2, ["-o", "{top}/not_a_folder/db.sqlite"], None),
        ("new", 0, ["meadow", "-o", "{top}/meadow"], None),
        ("new", 2, ["Not A Name", "-o", "{top}/nope"], None),
        ("new", 2, ["again", "-o", "{woods}"], None),
        ("new", 2, ["lake", "--expansion-of", "atlantis", "-o", "{top}/lake"], None),
        ("examples", 0, ["{top}/examples"], None),
        ("examples", 2, ["{woods}/edition.yaml"], None),  # a file, not a folder
    ]


COMMANDS = ("editions", "cards", "lint", "score", "play", "replay", "sheet", "print", "new",
            "simulate", "compare", "find", "export", "examples")


@pytest.mark.parametrize("command, expected, args, env", _cases(),
                         ids=[f"{c}-{x}-{i}" for i, (c, x, _, _) in enumerate(_cases())])
def test_exit_code(sets, command, expected, args, env):
    fill = {k: str(v) for k, v in sets.items()}
    args = [a.format(**fill) for a in args]
    env = {k: v.format(**fill) for k, v in (env or {}).items()}
    code, out, err = run(command, *args, env=env or None)
    assert code == expected, err
    assert "Traceback" not in err
    if expected:
        assert err.strip(), "an exit code other than 0 comes with a reason on stderr"


def test_every_command_has_cases():
    got = {(c, x) for c, x, _, _ in _cases()}
    for command in COMMANDS:
        assert (command, 0) in got and (command, 2) in got, command
    # exit 1 needs input that was read: every command that reads one has a case
    assert {c for c, x in got if x == 1} == {"cards", "lint", "score", "play", "replay", "sheet",
                                             "print", "simulate", "compare", "find", "export"}


@pytest.mark.parametrize("command", COMMANDS)
def test_bad_option_is_usage(command):
    code, _, err = run(command, "--no-such-option")
    assert code == 2 and "no-such-option" in err


def test_replay_missing_file_is_usage(tmp_path):
    code, _, err = run("replay", str(tmp_path / "no_such.jsonl"))
    assert code == 2 and "IO-NOT-FOUND" in err


# ---- --json: diagnostics on stderr as JSON lines, the shape of `lint --format json` ---------
KEYS = ["code", "severity", "file", "line", "col", "end_line", "end_col", "message", "hint"]


def _json_lines(text: str) -> list[dict]:
    rows = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert rows and all(list(r) == KEYS for r in rows)
    return rows


@pytest.mark.parametrize("args, code", [
    (["editions", "--json", "--cards", "{top}/not_a_folder"], "USAGE-BAD-OPTION"),  # click's
    (["score", "--json", "--no-such-option"], "USAGE-BAD-OPTION"),
    (["lint", "--format", "json", "--stric"], "USAGE-BAD-OPTION"),
    (["cards", "atlantis", "--json"], "EDITION-UNKNOWN"),
    (["cards", "base", "--json", "--lang", "xx"], "USAGE-LANGUAGE"),
    (["score", "{top}/illegal.yaml", "--json"], "FOREST-WRONG-SIDE"),
    (["score", "{top}/no_such_file.yaml", "--json"], "IO-NOT-FOUND"),
    (["play", "--json", "--lang", "xx"], "USAGE-LANGUAGE"),
    (["lint", "{top}/no_such_file.yaml", "--format", "json"], "IO-NOT-FOUND"),
    (["replay", "{top}/garbled.jsonl", "--json"], "RECORD-BAD"),
    (["replay", "{top}/no_such_file.jsonl", "--json"], "IO-NOT-FOUND"),
])
def test_json_diagnostics_on_stderr(sets, args, code):
    fill = {k: str(v) for k, v in sets.items()}
    exit_code, out, err = run(*[a.format(**fill) for a in args])
    assert exit_code in (1, 2) and out == ""
    rows = _json_lines(err)
    assert rows[0]["code"] == code


def test_json_diagnostic_keeps_its_position(sets):
    _, _, err = run("score", str(sets["top"] / "illegal.yaml"), "--json")
    row = _json_lines(err)[0]
    assert (row["line"], row["col"]) == (6, 15) and row["file"].endswith("illegal.yaml")


def test_replay_prints_through_the_common_printer(sets, tmp_path):
    """`grove replay` once printed RECORD-BAD by hand, with no position, neither escaped nor
    cut, and never as JSON; now its diagnostics are the common printer's, at the record's line."""
    garbled = str(sets["top"] / "garbled.jsonl")
    code, _, err = run("replay", garbled)
    assert code == 1 and re.search(r"garbled\.jsonl:2:1: error RECORD-BAD: not JSON", err), err
    _, _, err = run("replay", garbled, "--json")
    row = _json_lines(err)[0]
    assert (row["code"], row["line"], row["col"]) == ("RECORD-BAD", 2, 1)
    lines = (sets["top"] / "game.jsonl").read_text(encoding="utf-8").splitlines()
    hostile = tmp_path / "hostile.jsonl"
    hostile.write_text("\n".join([*lines[:3], json.dumps({"type": "\u202e" + "x" * 5000}),
                                  *lines[3:]]) + "\n", encoding="utf-8")
    code, _, err = run("replay", str(hostile))
    assert code == 1 and "hostile.jsonl:4:1: error RECORD-BAD" in err
    assert "\u202e" not in err and "\\u202e" in err and len(err) < 1500
    changed = tmp_path / "changed.jsonl"
    changed.write_text("\n".join([*lines[:2], lines[2].replace('"action": "', '"action": "x', 1),
                                  *lines[3:]]) + "\n", encoding="utf-8")
    code, _, err = run("replay", str(changed), "--verify")
    assert code == 1 and "changed.jsonl:3:1: error RECORD-DIFFERS" in err, err
    code, out, err = run("replay", str(sets["top"] / "game.jsonl"), "--json")
    assert code == 0 and json.loads(out)["actions"] == len(lines) - 2


def test_lint_json_findings_are_its_result_on_stdout(sets):
    """`lint --format json`: the findings are what lint makes, so they go to stdout (as before);
    a diagnostic that stops it goes to stderr, as for every command."""
    code, out, err = run("lint", str(sets["top"] / "illegal.yaml"), "--format", "json")
    assert code == 1 and err == ""
    assert _json_lines(out)[0]["code"] == "FOREST-WRONG-SIDE"
    code, out, err = run("lint", str(sets["top"] / "undecodable.yaml"), "--format", "json")
    assert code == 2 and _json_lines(out)[0]["code"] == "IO-ENCODING"


def test_sheet_uses_the_common_printer(sets, tmp_path):
    """`grove sheet` once printed its own one-line diagnostics, neither escaped nor cut."""
    name = "x\u202e" + "y" * 3000
    code, _, err = run("sheet", "--edition", "base", "--lang", name)
    assert code == 2 and "USAGE-LANGUAGE" in err
    assert "\u202e" not in err and "\\u202e" in err
    assert len(err) < 1500


# ---- part 5: options that mean the same on every command ---------------------------------
@pytest.mark.parametrize("args", [
    ["cards", "base", "--lang", "xx"],
    ["score", str(EXAMPLE), "--lang", "xx"],
    ["play", "--quiet", "--lang", "xx"],
    ["sheet", "--edition", "base", "--lang", "xx"],
])
def test_unknown_language_lists_the_languages(args):
    code, out, err = run(*args)
    assert code == 2 and out == "" and "USAGE-LANGUAGE" in err
    assert all(lang in err for lang in ("en", "de", "it", "th"))


@pytest.mark.parametrize("lang", ["en", "de", "it", "th"])
def test_every_language_is_accepted(lang):
    code, _, err = run("score", str(EXAMPLE), "--lang", lang)
    assert code == 0, err


def test_players_alone_seats_greedy_players():
    code, out, err = run("play", "--players", "3", "--quiet", "--json", "--seed", "2")
    assert code == 0, err
    assert [p["ai"] for p in json.loads(out)["players"]] == ["greedy"] * 3


def test_one_ai_kind_plays_every_seat():
    code, out, err = run("play", "--players", "4", "--ai", "random", "--quiet", "--json")
    assert code == 0, err
    assert [p["ai"] for p in json.loads(out)["players"]] == ["random"] * 4


def test_default_game_is_two_greedy_players():
    code, out, err = run("play", "--quiet", "--json")
    assert code == 0, err
    assert [p["ai"] for p in json.loads(out)["players"]] == ["greedy", "greedy"]


def test_ai_and_players_that_disagree_are_usage():
    code, _, err = run("play", "--players", "3", "--ai", "greedy,random")
    assert code == 2 and "USAGE-BAD-OPTION" in err


def test_a_reused_anchor_prints_nothing_of_the_input(tmp_path):
    """The YAML library warns of a reused anchor by printing the input's lines raw on stderr,
    unescaped, around grove's own diagnostics; reusing an anchor is allowed YAML, so grove keeps
    it quiet."""
    path = tmp_path / "forest.yaml"
    path.write_text("edition: base\nwith: &x []\nplayers: &x\n  - name: \"A\\u202e\"\n"
                    "    forest: []\n", encoding="utf-8")
    grove = Path(sys.executable).with_name("grove")  # the real command: pytest keeps warnings
    r = subprocess.run([str(grove), "score", str(path)], capture_output=True, text=True,
                       timeout=120, check=False)
    assert r.returncode == 0 and "anchor" not in r.stderr, r.stderr
    assert "\u202e" not in r.stdout + r.stderr


@pytest.mark.parametrize("where", ["reading the options", "ending after the work"])
def test_an_interrupt_outside_the_commands_work_is_said_as_one(monkeypatch, where):
    """A Ctrl-C that lands while click reads the options, or after the command's work as the
    process ends, is the INTERRUPTED message and exit 130, as one during the work is: click
    alone said "Aborted!" and exit 1 there (seen by the export fault test once exports got
    quick)."""
    import click

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    if where == "reading the options":
        monkeypatch.setattr(click.Group, "make_context", interrupt)
    else:  # the command's exit on its way out through click's context
        monkeypatch.setattr(click.Context, "__exit__", interrupt)
    result = CliRunner().invoke(main, ["editions"])
    assert result.exit_code == 130, result.output
    assert "INTERRUPTED" in result.output and "Aborted" not in result.output
    result = CliRunner().invoke(main, ["editions", "--json"])
    assert result.exit_code == 130
    assert json.loads(result.output.strip().splitlines()[-1])["code"] == "INTERRUPTED"


def test_an_interrupt_while_a_command_makes_a_class_is_said_as_one(monkeypatch):
    """A Ctrl-C that lands while a command imports a module, as one of its dataclasses is made:
    Python 3.11 wraps it in a RuntimeError ("Error calling __set_name__"), which printed a
    traceback (the export fault test, once in a CI run). It is INTERRUPTED and exit 130."""
    from grove import api

    class Interrupting:
        def __set_name__(self, owner, name):
            raise KeyboardInterrupt

    def editions(*args, **kwargs):
        type("Made", (), {"field": Interrupting()})

    monkeypatch.setattr(api, "editions", editions)
    result = CliRunner().invoke(main, ["editions"])
    assert result.exit_code == 130, result.output
    assert "INTERRUPTED" in result.output and "Traceback" not in result.output
