"""`grove export --format csv|parquet` stopped at random moments (Ctrl-C, SIGTERM) or on a full
disk never leaves old and new tables mixed: the folder holds the old export, to the byte, or the
new one whole (its tables built in a folder beside it and swapped in, files/folders.py). A
failed first export leaves no folder; what a killed export left beside the folder (its hidden
folder) and inside it (an older grove's `.deck.csv.<hex>.tmp`) the next export clears.

Bounded: 8 kills of each signal per format, each export about a second.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

IN_MAIN = re.compile(r'(grove/cli|click/core)\.py", line \d+, in main\b')  # a frame of main

GROVE = Path(sys.executable).parent / "grove"
ENV = {**os.environ, "SOURCE_DATE_EPOCH": "1700000000"}  # the same export twice, to the byte
KILLS = 8


def export(out: Path, fmt: str, *more: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([str(GROVE), "export", "--format", fmt, "-o", str(out), *more],
                          capture_output=True, text=True, timeout=300, env=ENV, **kw)


def snapshot(folder: Path) -> dict[str, bytes] | None:
    if not folder.is_dir():
        return None
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_an_export_stopped_at_any_moment_is_old_or_new_never_mixed(tmp_path, fmt):
    new = tmp_path / "new"
    assert export(new, fmt).returncode == 0  # the cache warm, then timed
    start = time.monotonic()
    assert export(new, fmt).returncode == 0
    span = time.monotonic() - start
    whole = snapshot(new)
    out = tmp_path / "out"
    assert export(out, fmt, "--edition", "base").returncode == 0  # an older, smaller export
    old = snapshot(out)
    assert old != whole
    rng = random.Random(45)
    seen = set()
    for signum in [signal.SIGINT, signal.SIGTERM] * KILLS:
        before = snapshot(out)
        left = {p for p in tmp_path.iterdir() if p.name.startswith(".")}
        proc = subprocess.Popen([str(GROVE), "export", "--format", fmt, "-o", str(out)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                env=ENV, start_new_session=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        try:
            proc.wait(timeout=rng.uniform(0.1, 1.1) * span)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signum)
        _, err = proc.communicate(timeout=120)
        after = snapshot(out)
        # a Ctrl-C before grove's main begins is Python's own traceback: in the interpreter's
        # start (its streams, whether the script is a zip archive, the site module), as the
        # script imports grove, or in a callback Python runs and reports itself; from main on,
        # grove must turn it into INTERRUPTED
        early = "KeyboardInterrupt" in err and not IN_MAIN.search(err)
        assert ("Traceback" not in err or early) and "Aborted" not in err, err
        assert after in (before, whole), sorted(after or ())
        if proc.returncode == 130:  # stopped: the old export, or the new one whole when the
            # signal came after the swap, as the process was ending (seen on a loaded machine)
            assert "INTERRUPTED" in err
        seen.add((signal.Signals(signum).name, "new" if after == whole else "old"))
        if after == whole:  # back to the old export for the next try
            assert export(out, fmt, "--edition", "base").returncode == 0
        hidden = [p for p in tmp_path.iterdir() if p.name.startswith(".")]
        if signum == signal.SIGINT:  # Ctrl-C runs the cleanup: nothing new left beside
            assert set(hidden) <= left, hidden
        for p in hidden:  # a SIGTERM's leftover, made old: the next export sweeps it
            os.utime(p, (time.time() - 3600, time.time() - 3600))
    assert export(out, fmt).returncode == 0 and snapshot(out) == whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new", "out"]
    assert ("SIGINT", "old") in seen or ("SIGTERM", "old") in seen, seen


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_an_export_on_a_full_disk_leaves_the_folder_as_it_was(tmp_path, fmt):
    """Files may grow to 2 KB (RLIMIT_FSIZE, as a full disk refuses a write): IO-WRITE, exit 2,
    the earlier export whole, and no folder where there was none (3 of 11 tables were left in a
    fresh folder)."""
    import resource

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (2_000, 2_000))

    old = tmp_path / "old"
    assert export(old, fmt, "--edition", "base").returncode == 0
    before = snapshot(old)
    for out in (tmp_path / "fresh", old):
        proc = export(out, fmt, preexec_fn=small_files)
        assert proc.returncode == 2, proc.stderr
        assert "IO-WRITE" in proc.stderr and "Traceback" not in proc.stderr
    assert snapshot(old) == before
    assert [p.name for p in tmp_path.iterdir()] == ["old"]


def test_an_older_groves_temporary_files_are_cleared(tmp_path):
    """A SIGTERM to an older grove left `.deck.csv.<hex>.tmp` in the folder, which no later
    export removed: the folder swapped in whole holds the tables alone."""
    out = tmp_path / "out"
    assert export(out, "csv", "--edition", "base").returncode == 0
    (out / ".deck.csv.0123456789ab.tmp").write_text("half a table", encoding="utf-8")
    assert export(out, "csv").returncode == 0
    assert not [p for p in out.iterdir() if p.name.startswith(".")]


def test_a_folder_with_files_of_the_users_is_refused_and_left_alone(tmp_path):
    """The new export takes the folder's place whole: a file of the user's in it would go with
    the old tables, so such a folder is refused (IO-WRITE) before anything is written."""
    out = tmp_path / "out"
    assert export(out, "csv", "--edition", "base").returncode == 0
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    before = snapshot(out)
    proc = export(out, "csv")
    assert proc.returncode == 2 and "holds what grove did not write (notes.txt)" in proc.stderr
    assert snapshot(out) == before
