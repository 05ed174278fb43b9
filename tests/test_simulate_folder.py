"""`grove simulate --out DIR` keeps what a user keeps: the new run is written beside DIR and
takes its place only when whole; a folder of the user's is refused and left alone; a run killed
outright takes its worker processes with it; `--jobs` is bounded by the machine; a species name
that no file can hold as it is cannot fail a run.

Runs are tiny (a few random games, in this process where a worker pool is not the point).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from processes import session

from grove.cli import main

REPO = Path(__file__).resolve().parents[1]
GROVE = Path(sys.executable).parent / "grove"
SIM = ["simulate", "--edition", "base", "--ai", "random,random", "--games", "4", "--jobs", "1"]
RUN = ["cards.parquet", "games.parquet", "report.html", "summary.json"]


def run(*args: object, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, [str(a) for a in args], env=env, catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def hidden(top: Path) -> list[str]:
    return [p.name for p in top.iterdir() if p.name.startswith(".")]


def test_a_new_run_replaces_an_earlier_one_whole(tmp_path):
    out = tmp_path / "run"
    assert run(*SIM, "--seed", "1", "--out", out)[0] == 0
    os.chmod(out, 0o750)
    code, stdout, err = run(*SIM, "--seed", "2", "--out", out, "--json")
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == RUN
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["seed"] == 2
    assert json.loads(stdout) == json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert stat.S_IMODE(out.stat().st_mode) == 0o750  # the folder keeps its mode
    assert hidden(tmp_path) == []


@pytest.mark.parametrize("make, why", [
    (lambda d: (d / "notes.txt").write_text("mine"), "holds what grove did not write (notes.txt)"),
    (lambda d: (d / "sub").mkdir(), "holds what grove did not write (sub)"),
    (lambda d: (d / os.fsdecode(b"caf\xe9.txt")).write_text("mine"), "(caf\\xe9.txt)"),
    (lambda d: [(d / n).write_text("mine") for n in ("summary.json", "report.html")],
     "no games.parquet or cards.parquet of a grove run"),
    (lambda d: (d / "games.parquet").write_bytes(b"PAR1 not really"), "of a grove run"),
])
def test_a_folder_of_the_users_is_refused_and_left_alone(tmp_path, make, why):
    out = tmp_path / "mine"
    out.mkdir()
    make(out)
    before = {p.name: p.read_bytes() if p.is_file() else None for p in out.iterdir()}
    code, stdout, err = run(*SIM, "--out", out)
    assert code == 2 and stdout == ""
    assert err.startswith("error IO-WRITE: ") and why in err and "hint: give --out" in err
    assert {p.name: p.read_bytes() if p.is_file() else None for p in out.iterdir()} == before
    assert hidden(tmp_path) == []


def test_a_run_folder_with_a_link_or_read_only_is_refused(tmp_path):
    out = tmp_path / "run"
    assert run(*SIM, "--out", out)[0] == 0
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text("{}")
    (out / "summary.json").unlink()
    (out / "summary.json").symlink_to(elsewhere)
    code, _, err = run(*SIM, "--out", out)
    assert code == 2 and "summary.json is a symbolic link" in err
    (out / "summary.json").unlink()
    before = snapshot(out)
    os.chmod(out, 0o555)
    try:
        code, _, err = run(*SIM, "--out", out)
    finally:
        os.chmod(out, 0o755)
    assert code == 2 and "is read-only" in err
    assert snapshot(out) == before and elsewhere.read_text() == "{}"


def test_a_file_put_into_the_folder_during_the_run_is_kept(tmp_path):
    """The folder is checked again at the very end: a file the user put there while the games
    were played is not taken away with the old run; the new run is not kept and says so."""
    from grove import api
    from grove.dsl.diagnostics import DiagnosticError

    out = tmp_path / "run"
    assert run(*SIM, "--out", out)[0] == 0

    def drop(_: int) -> None:
        (out / "notes.txt").write_text("mine")

    with pytest.raises(DiagnosticError) as caught:
        api.simulate("base", [], ["random", "random"], 2, jobs=1, out=str(out),
                     on_progress=drop)
    assert caught.value.diagnostics[0].code == "IO-WRITE"
    assert "not kept" in caught.value.diagnostics[0].message
    assert sorted(p.name for p in out.iterdir()) == sorted([*RUN, "notes.txt"])
    assert hidden(tmp_path) == []


def test_without_an_exchange_the_files_are_renamed_one_by_one(tmp_path, monkeypatch):
    """Where folders cannot change places (and for `--out .`), the files move one by one."""
    import grove.simulation.folder

    monkeypatch.setattr(grove.simulation.folder, "exchange", lambda a, b: False)
    out = tmp_path / "run"
    assert run(*SIM, "--seed", "1", "--out", out)[0] == 0
    (out / "games.parquet.part").write_bytes(b"left by an older grove, killed")
    inode = out.stat().st_ino
    assert run(*SIM, "--seed", "2", "--out", out)[0] == 0
    assert out.stat().st_ino == inode
    assert sorted(p.name for p in out.iterdir()) == RUN
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["seed"] == 2
    assert hidden(tmp_path) == []
    monkeypatch.undo()
    monkeypatch.chdir(out)
    assert run(*SIM, "--seed", "3", "--out", ".")[0] == 0
    assert out.stat().st_ino == inode  # the shell's current folder stays where it is
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["seed"] == 3


def test_a_hidden_folder_left_by_a_killed_run_is_swept(tmp_path):
    out = tmp_path / "run"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    left = tmp_path / f".run.grove-{dead.pid}-0123abcd.tmp"
    left.mkdir()
    (left / "games.parquet").write_bytes(b"half")
    alive = tmp_path / f".run.grove-{os.getppid()}-0123abcd.tmp"  # a live process's: kept
    alive.mkdir()
    assert run(*SIM, "--out", out)[0] == 0
    assert hidden(tmp_path) == [alive.name]


def test_odd_characters_in_a_species_name_cannot_fail_the_run(tmp_path):
    """A lone surrogate and control characters in an author's species name: summary.json (and
    --json) write them as escapes, which read back as the very name; report.html shows U+FFFD
    in their place; an earlier run in the folder is replaced, not lost."""
    cards = tmp_path / "cards"
    shutil.copytree(REPO / "grove" / "cards" / "base", cards / "base")
    path = cards / "base" / "left_right.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("names: {en: Red Fox,",
                                 'names: {en: "Red \\uDC80 Fox \\x1b[31m\\u0007\\x85",', 1),
                    encoding="utf-8")
    name = "Red \udc80 Fox \x1b[31m\x07\x85"
    out = tmp_path / "run"
    assert run(*SIM, "--out", out)[0] == 0
    code, stdout, err = run(*SIM, "--games", "40", "--seed", "3", "--out", out, "--json",
                            env={"GROVE_CARDS": str(cards)})
    assert code == 0, err
    raw = (out / "summary.json").read_bytes()
    raw.decode("utf-8")  # valid UTF-8 throughout
    assert b"\\udc80" in raw and b"\x1b" not in raw and b"\x07" not in raw
    summary = json.loads(raw)
    assert summary["seed"] == 3 and json.loads(stdout) == summary
    assert [s["name"] for s in summary["species"] if s["id"] == "red_fox"] == [name]
    html = (out / "report.html").read_bytes().decode("utf-8")
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", html)
    if any(s["id"] == "red_fox" and s["mean_points_when_played"] is not None
           for s in summary["species"]):
        assert "Red \ufffd Fox \ufffd[31m\ufffd\ufffd" in html


def test_jobs_beyond_the_cores_are_cut_down_with_a_warning(tmp_path):
    from grove.api import _cores

    cores = _cores()
    for jobs in (str(cores + 1), "1000", "1" + "0" * 30):
        code, stdout, err = run(*SIM[:-2], "--jobs", jobs, "--games", "2", "--out",
                                tmp_path / "run", "--json")
        assert code == 0, err
        warning = json.loads(err.splitlines()[0])
        assert warning["code"] == "SIM-JOBS" and warning["severity"] == "warning"
        assert f"playing on {cores} worker" in warning["message"]
        assert json.loads(stdout)["games"] == 2
    code, _, err = run(*SIM[:-2], "--jobs", str(cores), "--games", "2", "--out",
                       tmp_path / "run")
    assert code == 0 and "SIM-JOBS" not in err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_run_killed_outright_takes_its_workers_with_it(tmp_path):
    """SIGKILL of `grove simulate --jobs 2`: within a few seconds no worker is left (they are
    forked from the run, and each closes the copy of the run's end of its lifeline that the
    fork gave it), the folder still holds the earlier run, and the next run sweeps the killed
    run's hidden folder."""
    out = tmp_path / "run"
    assert run(*SIM, "--out", out)[0] == 0
    before = snapshot(out)
    proc = subprocess.Popen(
        [str(GROVE), *SIM[:-2], "--games", "2000", "--jobs", "2", "--out", str(out)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        end = time.monotonic() + 120
        while not any(p.stat().st_size > 1000 for p in tmp_path.glob(".run.grove-*/games.parquet")):
            assert proc.poll() is None and time.monotonic() < end
            time.sleep(0.05)
        assert len(session(proc.pid)) >= 3  # grove and two workers
        proc.kill()
        proc.wait()
        end = time.monotonic() + 5
        while session(proc.pid) and time.monotonic() < end:
            time.sleep(0.1)
        assert session(proc.pid) == []
    finally:
        for pid in session(proc.pid):
            os.kill(pid, signal.SIGKILL)
    assert snapshot(out) == before
    assert len(hidden(tmp_path)) == 1
    assert run(*SIM, "--out", out)[0] == 0
    assert hidden(tmp_path) == []
    assert pq.read_table(out / "games.parquet").num_rows == 8


@pytest.mark.skipif(sys.platform != "linux", reason="a file name of any bytes")
def test_a_folder_whose_name_is_not_utf8_takes_a_run_and_is_compared(tmp_path):
    """pyarrow takes a path as UTF-8 text; grove opens the files itself, so a folder named in
    other bytes (Latin-1 here) holds a run, is replaced by the next and is compared."""
    out = tmp_path / os.fsdecode(b"r\xe9sultats")
    assert run(*SIM, "--out", out)[0] == 0
    code, _, err = run(*SIM, "--seed", "5", "--out", out)
    assert code == 0, err
    assert sorted(p.name for p in out.iterdir()) == RUN
    code, stdout, err = run("compare", out, out, "--json")
    assert code == 0 and json.loads(stdout)["changed"] == [], err
