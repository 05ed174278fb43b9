"""Game records end to end: replay's exit codes, the stop line, a killed game, `play --final`.

A record is evidence of a game, so `grove replay` must never call a record that differs, or one
cut short, a good game (exit 1 with or without --verify); a game a player quit ends with a stop
line and replays as such; a killed `grove play --record` must leave every complete line readable;
and `grove play --final` must leave a forest file that scores as the game ended, or no file.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from engine import record as rec
from grove import api
from grove.cli import main

GROVE = [sys.executable, "-c", "from grove.cli import main; main()"]


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str], dict]:
    """One played game: its record, the record's lines and `grove play --json`'s result."""
    folder = tmp_path_factory.mktemp("records")
    path = folder / "game.jsonl"
    code, out, _ = run("play", "--edition", "dartmoor", "--ai", "greedy,random,greedy",
                       "--seed", "4", "--quiet", "--json", "--record", str(path),
                       "--final", str(folder / "final.yaml"))
    assert code == 0
    return path, path.read_text(encoding="utf-8").splitlines(), json.loads(out)


def write(tmp_path: Path, name: str, lines: list[str]) -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("verify", [[], ["--verify"]])
def test_whole_record_replays(game, verify):
    code, out, err = run("replay", str(game[0]), *verify)
    assert code == 0 and "Winner" in out and ("verified" in err) == bool(verify)


@pytest.mark.parametrize("verify", [[], ["--verify"]])
def test_a_difference_is_exit_1_either_way(game, tmp_path, verify):
    lines = list(game[1])
    end = json.loads(lines[-1])
    end["scores"][0]["total"] += 1
    path = write(tmp_path, "differs.jsonl", [*lines[:-1], json.dumps(end)])
    code, _, err = run("replay", str(path), *verify)
    assert code == 1 and "error RECORD-DIFFERS:" in err and "scores differ" in err
    assert "verified" not in err


@pytest.mark.parametrize("verify", [[], ["--verify"]])
@pytest.mark.parametrize("keep", [1, 6, -1])  # the header only; mid-game; every action, no end
def test_a_record_cut_short_is_unfinished(game, tmp_path, verify, keep):
    lines = game[1][:keep]
    path = write(tmp_path, "cut.jsonl", lines)
    code, out, err = run("replay", str(path), *verify)
    assert code == 1 and out == "" and "Traceback" not in err
    assert f"{path}:{len(lines)}:1: error RECORD-UNFINISHED:" in err
    assert f"after {len(lines) - 1} actions" in err and "verified" not in err


@pytest.mark.parametrize("verify", [[], ["--verify"]])
def test_a_stop_line_replays_as_stopped(game, tmp_path, verify):
    lines = game[1][:8]
    path = write(tmp_path, "quit.jsonl", [*lines, json.dumps(rec.stop_line(7))])
    assert rec.read(path).stop == {"type": "stop", "after": 7}
    code, out, err = run("replay", str(path), *verify)
    assert code == 0 and out == "" and "stopped after 7 actions" in err
    assert ("every action replays the same" in err) == bool(verify)
    code, _, err = run("score", str(path))  # a quit game has no final forests to score
    assert code == 1 and "RECORD-UNFINISHED" in err


def test_a_stop_line_that_does_not_fit(game, tmp_path):
    lines = game[1]
    cases = {
        "count": [*lines[:8], json.dumps(rec.stop_line(5))],  # says 5, 7 precede it
        "after": [*lines[:8], json.dumps(rec.stop_line(7)), lines[8]],  # an action after it
        "both": [*lines, json.dumps(rec.stop_line(len(lines) - 2))],  # after the end line
    }
    for name, text in cases.items():
        code, _, err = run("replay", str(write(tmp_path, f"{name}.jsonl", text)), "--verify")
        assert code == 1 and "error RECORD-BAD:" in err, (name, err)
    # a stop line after the game's last action: that game ended, so it needs its end line
    path = write(tmp_path, "over.jsonl", [*lines[:-1], json.dumps(rec.stop_line(len(lines) - 2))])
    code, _, err = run("replay", str(path), "--verify")
    assert code == 1 and "error RECORD-DIFFERS:" in err and "end line, not a stop line" in err


def test_a_missing_record_is_usage(tmp_path):
    code, _, err = run("replay", str(tmp_path / "nowhere.jsonl"))
    assert code == 2 and "IO-NOT-FOUND" in err


def test_a_killed_game_leaves_every_complete_line(tmp_path):
    """SIGKILL while a human player's turn waits for input: no flush at exit, no cleanup runs,
    so only lines flushed as they were written are in the file."""
    path = tmp_path / "killed.jsonl"
    proc = subprocess.Popen([*GROVE, "play", "--ai", "greedy,human", "--seed", "3", "--quiet",
                             "--record", str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            cwd=tmp_path, env={**os.environ, "PYTHONUNBUFFERED": "0"})
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # the header and the greedy player's first action
            if path.exists() and path.read_text(encoding="utf-8").count("\n") >= 2:
                break
            time.sleep(0.02)
        assert proc.poll() is None, "the game ended before it was killed"
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    text = path.read_text(encoding="utf-8")
    assert text.endswith("\n")  # no half line
    r = rec.read(path)
    assert r.header["type"] == "header" and r.actions and r.end is None and r.stop is None
    code, _, err = run("replay", str(path), "--verify")
    assert code == 1 and "RECORD-UNFINISHED" in err


def test_final_forest_file_scores_as_the_game_ended(game):
    path, lines, result = game
    final = path.parent / "final.yaml"
    text = final.read_text(encoding="utf-8")
    assert text.startswith("# the final forests of `grove play --edition dartmoor --seed 4`")
    assert "top: [" in text or "top:\n" in text  # a moor's side, written as a list
    scored = api.score_file(str(final))
    assert [(p["name"], p["total"], p["by_category"]) for p in scored["players"]] == [
        (p["name"], p["total"], p["by_category"]) for p in result["players"]]
    assert [p["ai"] for p in scored["players"]] == ["greedy", "random", "greedy"]
    assert scored["winners"] == result["winners"]
    assert [f.name for f in path.parent.iterdir() if f.name.endswith(".tmp")] == []


def test_final_that_cannot_be_written_leaves_nothing(tmp_path):
    code, out, err = run("play", "--quiet", "--final", str(tmp_path / "no" / "final.yaml"))
    assert code == 2 and "IO-WRITE" in err and out == ""
    folder = tmp_path / "ro"
    folder.mkdir()
    target = folder / "final.yaml"
    target.write_text("kept\n", encoding="utf-8")
    folder.chmod(0o500)
    try:
        if os.access(folder, os.W_OK):
            pytest.skip("running as a user who may write anywhere")
        code, _, err = run("play", "--quiet", "--final", str(target))
        assert code == 2 and "IO-WRITE" in err
        assert target.read_text(encoding="utf-8") == "kept\n"  # the old file stays whole
        assert sorted(f.name for f in folder.iterdir()) == ["final.yaml"]
    finally:
        folder.chmod(0o700)


def test_a_full_disk_leaves_the_old_forest_file_whole(tmp_path, monkeypatch):
    """The write fails after some text went out (as on a full disk): the target keeps its old
    text and no temporary file is left beside it."""
    import errno

    from dsl.diagnostics import DiagnosticError
    from grove import forest_file

    target = tmp_path / "final.yaml"
    target.write_text("kept\n", encoding="utf-8")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(DiagnosticError) as exc:
        forest_file.write(target, {"edition": "base", "players": []})
    assert [d.code for d in exc.value.diagnostics] == ["IO-WRITE"]
    assert "No space left" in exc.value.diagnostics[0].message
    assert target.read_text(encoding="utf-8") == "kept\n"
    assert sorted(f.name for f in tmp_path.iterdir()) == ["final.yaml"]


def test_a_line_separator_inside_a_value_is_no_line_break(game, tmp_path):
    """A record is JSON lines written with `ensure_ascii=False`: a value may hold U+2028 or
    U+0085, which `str.splitlines` would take for line ends. The record still reads whole."""
    lines = list(game[1])
    header = json.loads(lines[0])
    header["note"] = "one\u2028two\x85three"
    lines[0] = json.dumps(header, ensure_ascii=False, sort_keys=True)
    assert "\u2028" in lines[0]
    path = write(tmp_path, "separators.jsonl", lines)
    assert rec.read(path).actions == rec.read(game[0]).actions
    code, _, _ = run("replay", str(path), "--verify")
    assert code == 0
