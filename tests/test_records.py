"""Game records end to end: replay's exit codes, the stop line, a killed game, `play --final`.

A record is evidence of a game, so `grove replay` must never call a record that differs, or one
cut short, a good game (exit 1 with or without --verify); a game a player quit ends with a stop
line and replays as such; a killed `grove play --record` or `--resume` must leave the record as it
was or whole; an output grove may not replace is refused and left alone; and `grove play --final`
must leave a forest file that scores as the game ended, or no file. tests/test_faults_records.py
kills games at random moments.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from grove import api
from grove.cli import main
from grove.engine import record as rec

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


def _waiting_game(tmp_path: Path, path: Path) -> subprocess.Popen:
    """`grove play --record` whose human seat waits for an answer that never comes, once its
    record holds the greedy player's first turn."""
    proc = subprocess.Popen([*GROVE, "play", "--ai", "greedy,human", "--seed", "3", "--quiet",
                             "--plain", "--record", str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            cwd=tmp_path, env={**os.environ, "PYTHONUNBUFFERED": "0"},
                            # as from a terminal, though this test runs in the background (whose
                            # SIGINT a shell ignores, and Python then leaves ignored)
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not path.exists():
        time.sleep(0.02)
    assert proc.poll() is None, "the game ended before it was killed"
    return proc


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_a_killed_game_leaves_a_whole_record(tmp_path, sig):
    """Killed while a person's turn waits: the record was made whole before the wait (a stop
    line after every action so far), so even SIGKILL, which runs no cleanup, leaves a record
    that replays and resumes. SIGTERM stops the game as Ctrl-C does (exit 130)."""
    path = tmp_path / "killed.jsonl"
    proc = _waiting_game(tmp_path, path)
    try:
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == (-sig if sig == signal.SIGKILL else 130)
    if sig != signal.SIGKILL:
        assert b"go on later with: grove play --resume killed.jsonl" in err
    r = rec.read(path)
    assert r.actions and r.end is None and r.stop == rec.stop_line(len(r.actions))
    code, _, err = run("replay", str(path), "--verify")
    assert code == 0 and "every action replays the same" in err
    assert [p.name for p in tmp_path.iterdir()] == ["killed.jsonl"]  # no temporary file left


def _interrupt_at(monkeypatch, target, name: str, calls: int, after: bool = False) -> None:
    """`target.name` raises KeyboardInterrupt (as Ctrl-C would) at its `calls`-th call, before it
    runs or, with `after`, once it has run."""
    real = getattr(target, name)
    seen = [0]

    def wrapped(*args, **kwargs):
        seen[0] += 1
        if seen[0] == calls and not after:
            raise KeyboardInterrupt
        out = real(*args, **kwargs)
        if seen[0] == calls:
            raise KeyboardInterrupt
        return out

    monkeypatch.setattr(target, name, wrapped)


@pytest.mark.parametrize("calls", [1, 24, 25, 26, 60])
def test_the_stop_line_counts_the_lines_it_follows(tmp_path, monkeypatch, calls):
    """Ctrl-C just after an action line was taken (once caught between the line and its count,
    which left a stop line one short): the stop line counts what the record holds."""
    path = tmp_path / "g.jsonl"
    _interrupt_at(monkeypatch, rec.Keeper, "action", calls, after=True)
    code, _, err = run("play", "--ai", "random,random", "--seed", "2", "--quiet",
                       "--record", str(path))
    assert code == 130 and f"stopped after {calls} action{'s' * (calls != 1)}\n" in err
    r = rec.read(path)
    assert len(r.actions) == calls and r.stop == rec.stop_line(calls)
    assert run("replay", str(path), "--verify")[0] == 0


def test_ctrl_c_after_the_last_action_finishes_the_game(tmp_path, monkeypatch):
    """Ctrl-C while the last action's scores are counted, before the end line (once a stop line
    after the game's end, which replay, resume and score all refused): the game is over, so its
    end line is written first and the game ends as if never stopped."""
    import signal as signals

    from grove.engine import runner

    whole = tmp_path / "whole.jsonl"
    code, board, _ = run("play", "--ai", "random,random", "--seed", "2", "--quiet",
                         "--record", str(whole))
    assert code == 0
    real = runner.final_scores

    def interrupted(game):
        os.kill(os.getpid(), signals.SIGINT)  # as a user's Ctrl-C: delivered when it may be
        return real(game)

    monkeypatch.setattr(runner, "final_scores", interrupted)
    path = tmp_path / "g.jsonl"
    done = threading.Event()  # another thread, which the kernel may hand the signal to
    other = threading.Thread(target=done.wait)
    other.start()
    try:
        code, out, _ = run("play", "--ai", "random,random", "--seed", "2", "--quiet",
                           "--record", str(path))
    finally:
        done.set()
        other.join()
    assert code == 0 and out == board
    assert path.read_bytes() == whole.read_bytes()


def test_a_record_whose_end_line_is_missing_is_finished_by_resume(game, tmp_path):
    """A record killed between its last action and its end line (as older grove left one):
    replay and score name `grove play --resume`, which writes the end line."""
    path = write(tmp_path, "noend.jsonl", game[1][:-1])
    code, _, err = run("replay", str(path), "--verify")
    assert code == 1 and "RECORD-UNFINISHED" in err
    assert f"grove play --resume {path}` writes its end line" in err
    code, _, err = run("score", str(path))
    assert code == 1 and "RECORD-UNFINISHED" in err and "grove play --resume" in err
    code, _, err = run("play", "--resume", str(path), "--quiet")
    assert code == 0, err
    assert path.read_text(encoding="utf-8").splitlines()[1:] == game[1][1:]
    # a stop line after the last action (an older grove's Ctrl-C there) is finished alike
    path = write(tmp_path, "stopover.jsonl",
                 [*game[1][:-1], json.dumps(rec.stop_line(len(game[1]) - 2))])
    code, _, err = run("replay", str(path), "--verify")
    assert code == 1 and "writes the end line" in err
    assert run("play", "--resume", str(path), "--quiet")[0] == 0
    assert path.read_text(encoding="utf-8").splitlines()[1:] == game[1][1:]


@pytest.fixture()
def stopped(game, tmp_path) -> Path:
    """A stopped record of `game` after 30 actions, which `--resume` goes on with."""
    return write(tmp_path, "stopped.jsonl", [*game[1][:31], json.dumps(rec.stop_line(30))])


@pytest.mark.parametrize("calls", [1, 15, 30])
def test_a_resume_stopped_before_it_caught_up_leaves_the_record(stopped, monkeypatch, calls):
    """Ctrl-C while the resumed actions are taken again (once: the record cut to those taken
    so far, 403 actions to 110): the record stays byte for byte, and is the one to go on with."""
    from grove.engine import runner

    before = stopped.read_bytes()
    _interrupt_at(monkeypatch, runner, "_resumed", calls)
    code, _, err = run("play", "--resume", str(stopped), "--quiet")
    assert code == 130 and "stopped after 30 actions" in err
    assert f"grove play --resume {stopped}" in err
    assert stopped.read_bytes() == before
    assert [p.name for p in stopped.parent.iterdir() if p.name.startswith(".")] == []


def test_a_full_disk_during_a_resume_leaves_the_record(stopped, monkeypatch):
    import errno

    before = stopped.read_bytes()

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    code, _, err = run("play", "--resume", str(stopped), "--quiet")
    assert code == 2 and "IO-WRITE" in err and "No space left" in err
    assert "the record was left as it was" in err
    assert stopped.read_bytes() == before
    assert [p.name for p in stopped.parent.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize("how", ["record", "resume"])
def test_a_read_only_record_is_refused_and_kept(stopped, how):
    """Once reported "Permission denied" and then removed."""
    before = stopped.read_bytes()
    stopped.chmod(0o444)
    args = (["--record", str(stopped)] if how == "record" else ["--resume", str(stopped)])
    code, out, err = run("play", "--quiet", *args)
    assert code == 2 and "IO-WRITE" in err and "read-only" in err and out == ""
    assert stopped.read_bytes() == before
    assert stopped.stat().st_mode & 0o777 == 0o444


@pytest.mark.parametrize("option", ["--record", "--final"])
@pytest.mark.parametrize("make", ["symlink", "fifo", "readonly"])
def test_outputs_grove_may_not_replace_are_refused_before_the_game(tmp_path, option, make):
    """A symlink (`-o /dev/null` as root would replace the system's), a FIFO or device, a
    read-only file: refused with IO-WRITE before the game, and left as they were."""
    other = tmp_path / "other.txt"
    other.write_text("theirs\n", encoding="utf-8")
    target = tmp_path / "target"
    if make == "symlink":
        target.symlink_to(other)
    elif make == "fifo":
        os.mkfifo(target)
    else:
        target.write_text("mine\n", encoding="utf-8")
        target.chmod(0o444)
    code, out, err = run("play", "--quiet", option, str(target))
    assert code == 2 and "IO-WRITE" in err and out == "", err
    assert other.read_text(encoding="utf-8") == "theirs\n"
    assert target.is_symlink() == (make == "symlink")
    if make == "readonly":
        assert target.read_text(encoding="utf-8") == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.txt", "target"]


def test_a_sheet_is_not_written_over_what_grove_may_not_replace(tmp_path):
    other = tmp_path / "other.pdf"
    other.write_bytes(b"theirs")
    link = tmp_path / "link.pdf"
    link.symlink_to(other)
    fifo = tmp_path / "fifo.pdf"
    os.mkfifo(fifo)
    ro = tmp_path / "ro.pdf"
    ro.write_bytes(b"mine")
    ro.chmod(0o444)
    for target in (link, fifo, ro):
        code, _, err = run("sheet", "--edition", "base", "--lang", "en", "-o", str(target))
        assert code == 2 and "IO-WRITE" in err, err
    assert other.read_bytes() == b"theirs" and ro.read_bytes() == b"mine" and link.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo.pdf", "link.pdf", "other.pdf",
                                                          "ro.pdf"]


def test_a_lone_surrogate_in_a_record_is_record_bad_and_the_record_kept(stopped):
    """A name written as the JSON escape "\\ud800" once crashed replay with a traceback, and
    resume truncated the record to 0 bytes."""
    text = stopped.read_text(encoding="utf-8").replace('"Greedy 1"', '"\\ud800"')
    assert "\\ud800" in text
    stopped.write_text(text, encoding="utf-8")
    for args in (["replay", str(stopped)], ["score", str(stopped)],
                 ["play", "--resume", str(stopped)]):
        code, out, err = run(*args)
        assert code == 1 and "error RECORD-BAD: a lone surrogate" in err, (args, err)
        assert "Traceback" not in err and out == ""
    assert stopped.read_text(encoding="utf-8") == text


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

    from grove import forest_file
    from grove.dsl.diagnostics import DiagnosticError

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


def test_every_copy_of_a_kept_record_is_whole(tmp_path, monkeypatch):
    """`Keeper` with a copy after every action: each copy the file ever held is a stopped record
    whose stop line counts its actions and that replays (none after the game's last action, which
    needs the end line), and the last is the finished game's; a resume's copies never hold fewer
    actions than its record."""
    from grove.compiler import cardset as cs
    from grove.engine import runner
    from grove.files import write as fw

    cset = cs.build("base")
    copies: list[str] = []
    real = fw.write_text

    def kept(path, text, **kw):
        copies.append(text)
        real(path, text, **kw)

    monkeypatch.setattr(rec, "write_text", kept)
    path = tmp_path / "g.jsonl"
    leftover = tmp_path / ".g.jsonl.0123456789ab.tmp"  # a SIGKILLed write's, long ago
    leftover.write_text("half")
    os.utime(leftover, (1, 1))
    out = runner.play(cset, ["random", "random"], 3, record=rec.Keeper(str(path), seconds=0))
    assert not leftover.exists()
    n = len(out.game.history)
    assert len(copies) == n  # after every action but the last, and the end
    for k, text in enumerate(copies[:-1], 1):
        lines = text.splitlines()
        assert len(lines) == k + 2 and json.loads(lines[-1]) == rec.stop_line(k)
    for k in (1, n // 2, n - 1):
        copy = write(tmp_path, "copy.jsonl", copies[k - 1].splitlines())
        assert runner.replay(cset, rec.read(copy))[1] == []
    assert json.loads(copies[-1].splitlines()[-1])["type"] == "end"
    # resumed after 100 actions: no copy with fewer than the record's 100
    copies.clear()
    actions = [a["action"] for a in rec.read(path).actions[:100]]
    runner.play(cset, ["random", "random"], 3, resume=actions,
                record=rec.Keeper(str(path), floor=100, seconds=0))
    assert len(copies) == n - 99 and copies[-1] == path.read_text(encoding="utf-8")
    assert min(text.count('"type": "action"') for text in copies) == 100


def test_a_record_kept_behind_is_the_record_kept_in_step(tmp_path):
    """`Keeper(behind=True)` (the server's games) writes its copies from a thread of its own;
    the record it leaves at the end, and at a stop, is byte for byte the one kept in step."""
    from grove.compiler import cardset as cs
    from grove.engine import runner

    cset = cs.build("base")
    texts = []
    for behind in (False, True):
        path = tmp_path / f"g{behind}.jsonl"
        runner.play(cset, ["random", "random"], 5,
                    record=rec.Keeper(str(path), seconds=0, behind=behind))
        stopped = tmp_path / f"s{behind}.jsonl"
        keeper = rec.Keeper(str(stopped), seconds=0, behind=behind)
        for obj in [{"type": "header"}, {"type": "action", "action": "a"}]:
            keeper.action(obj, over=False, waits=True)
        assert keeper.stop()
        texts.append((path.read_text(encoding="utf-8"), stopped.read_text(encoding="utf-8")))
    assert texts[0] == texts[1]
