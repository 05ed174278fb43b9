"""`grove lint` never waits on a FIFO, reads a device or a huge file whole (issue 34).

A FIFO named `*.yaml` in an edition folder or below a linted folder, or as `edition.yaml`, hung
the lint on its first read (and the diagnostics printer on its source line); a link to
/dev/zero never ends. Each such path is now an IO-READ at its name, a file beyond the size
grove reads an INPUT-TOO-LARGE counted by its size (not read, not even for the cache's digest),
and everything else is linted as usual. The commands run as processes with a timeout, so a
regression fails instead of hanging the suite: three `grove lint` processes, a few seconds.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from grove.compiler import universe
from grove.compiler.search_path import edition_files, edition_folders, stray_files

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX")


def _grove(*args: str) -> subprocess.CompletedProcess:
    """`grove ARGS` with the suite's cache: the shipped editions come from it, as a user's do;
    the card sets under test, new in each test's folder, are read and digested afresh (a cache
    of its own per test only compiled the shipped editions again, a second of CPU a process)."""
    exe = Path(sys.executable).parent / "grove"
    env = {k: v for k, v in os.environ.items() if k != "GROVE_CARDS"}
    return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=120,
                          env=env, check=False)


def _edition(folder: Path, eid: str) -> Path:
    """`grove new`'s card set, which lints clean."""
    from grove import scaffold
    from grove.compiler.search_path import search_path

    return scaffold.create(eid, str(folder), roots=search_path(env={})).folder


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A folder of card sets with every kind of path no read may open."""
    root = tmp_path / "sets"
    good = _edition(root / "good", "mine")
    os.mkfifo(good / "extra.yaml")  # in an edition folder: never read
    (good / "zero.yaml").symlink_to("/dev/zero")
    piped = root / "piped"
    piped.mkdir()
    os.mkfifo(piped / "edition.yaml")  # the edition file itself
    forests = root / "forests"
    forests.mkdir()
    os.mkfifo(forests / "waiting.yaml")  # below a linted folder: a forest file, maybe
    with open(forests / "huge.yaml", "wb") as fh:  # sparse: a gigabyte on paper
        fh.truncate(1 << 30)
    with open(good / "huge.yaml", "wb") as fh:
        fh.truncate(1 << 30)
    return root


def test_lint_reports_each_path_it_cannot_read_and_lints_the_rest(tree):
    proc = _grove("lint", str(tree), "--format", "json")
    found = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    by_file = {(Path(d["file"]).name, d["code"]) for d in found}
    assert ("extra.yaml", "IO-READ") in by_file
    assert ("zero.yaml", "IO-READ") in by_file
    assert ("edition.yaml", "IO-READ") in by_file  # the FIFO edition.yaml of `piped`
    assert ("waiting.yaml", "IO-READ") in by_file
    assert {d["code"] for d in found if Path(d["file"]).name == "huge.yaml"} == {
        "INPUT-TOO-LARGE"}
    # the edition around them was read and checked: its species, its deck, its sheets (a
    # note beside, `grove new`'s placeholder words counted, is no finding)
    assert not [d for d in found if d["code"] not in ("IO-READ", "INPUT-TOO-LARGE")
                and d["severity"] != "info"]
    assert proc.returncode == 2, proc.stderr  # a file it could not read
    text = _grove("lint", str(tree))  # the printer shows no line of a FIFO
    assert text.returncode == 2 and "extra.yaml:1:1: error IO-READ" in text.stderr


def test_lint_of_a_fifo_or_device_named_on_the_command_line(tree):
    proc = _grove("lint", str(tree / "forests" / "waiting.yaml"), "/dev/zero",
                  str(tree / "good"), "--format", "json")
    found = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    named = sorted(d["file"] for d in found if d["code"] == "IO-READ" and d["line"] == 1)
    assert str(tree / "forests" / "waiting.yaml") in named and "/dev/zero" in named
    assert any(Path(d["file"]).name == "extra.yaml" for d in found)  # the folder, linted too
    assert proc.returncode == 2


def test_an_edition_folder_lists_what_it_reads_and_what_it_will_not(tree):
    good = tree / "good"
    assert [p.name for p in stray_files(good)] == ["extra.yaml", "zero.yaml"]
    assert "extra.yaml" not in [p.name for p in edition_files(good)]
    assert edition_folders(tree / "piped") == [tree / "piped"]
    # the folder's digest changes with a stray, and never reads the huge file whole
    before = universe._digest(good)
    (good / "extra.yaml").unlink()
    assert universe._digest(good) != before
