"""files/: a write lands whole or not at all and never replaces what is not a plain file of the
user's; a read takes only a regular file, within its bound."""

from __future__ import annotations

import os
import stat

import pytest

from grove.files.read import NotRegular, read_bytes, read_text
from grove.files.write import (
    Behind,
    Refused,
    new_folder,
    refusal,
    replacing,
    sweep,
    write_bytes,
    write_text,
)


def test_a_write_replaces_whole_and_keeps_the_old_mode(tmp_path):
    target = tmp_path / "a.txt"
    target.write_text("old")
    os.chmod(target, 0o640)
    write_text(target, "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_an_error_inside_the_block_leaves_the_old_file(tmp_path):
    target = tmp_path / "a.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError), replacing(target) as fh:
        fh.write("half")
        raise RuntimeError("killed")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]


def test_a_new_file_follows_the_umask_and_a_private_one_is_0600(tmp_path):
    old = os.umask(0o022)
    try:
        write_bytes(tmp_path / "a", b"x")
        write_bytes(tmp_path / "b", b"x", private=True)
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a").stat().st_mode) == 0o644
    assert stat.S_IMODE((tmp_path / "b").stat().st_mode) == 0o600


@pytest.mark.parametrize("umask", [0o002, 0o022, 0o027, 0o077])
def test_new_files_and_folders_take_the_umasks_mode_and_a_replaced_file_keeps_its_own(
        tmp_path, umask):
    """As any tool's: a new file is 0666 less the umask, a new folder 0777 less it (`new_folder`,
    which `grove new` fills and renames into place; mkdtemp's 0700 would stay on it); a file
    replaced keeps the mode its owner gave it."""
    kept = tmp_path / "kept"
    kept.write_text("old")
    os.chmod(kept, 0o640)
    old = os.umask(umask)
    try:
        write_text(tmp_path / "new", "x")
        write_text(kept, "new")
        folder = new_folder(tmp_path / "made")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == 0o666 & ~umask
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640 and kept.read_text() == "new"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o777 & ~umask
    assert folder.parent == tmp_path and folder.name.startswith(".made.") and not any(
        folder.iterdir())
    assert new_folder(tmp_path / "made") != folder  # a second one is another folder


def test_a_ctrl_c_as_the_new_folder_is_made_leaves_none(tmp_path, monkeypatch):
    """Python raises a Ctrl-C as the call that made the folder returns, before its caller is
    told of it: a stopped `grove export` left an empty `.out.<hex>.new` beside its folder (one
    try in some hundred of test_faults_export's). The folder goes with the interrupt."""
    mkdir = os.mkdir

    def interrupted(path, mode=0o777):
        mkdir(path, mode)
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "mkdir", interrupted)
    with pytest.raises(KeyboardInterrupt):
        new_folder(tmp_path / "out")
    assert list(tmp_path.iterdir()) == []


def test_a_ctrl_c_as_the_temporary_file_is_made_leaves_none(tmp_path, monkeypatch):
    """The same moment in `replacing`: the temporary file goes with the interrupt, and the file
    it was to replace is as it was."""
    target = tmp_path / "a.txt"
    target.write_text("old")
    open_ = os.open

    def interrupted(path, flags, mode=0o777):
        fd = open_(path, flags, mode)
        os.close(fd)
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "open", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_text(target, "new")
    monkeypatch.undo()
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"] and target.read_text() == "old"


@pytest.mark.parametrize("make", ["symlink", "fifo", "folder", "readonly", "nofolder"])
def test_targets_grove_may_not_replace_are_refused_and_left_alone(tmp_path, make):
    target = tmp_path / "t"
    other = tmp_path / "other"
    other.write_text("theirs")
    if make == "symlink":
        target.symlink_to(other)
    elif make == "fifo":
        os.mkfifo(target)
    elif make == "folder":
        target.mkdir()
    elif make == "readonly":
        target.write_text("mine")
        os.chmod(target, 0o444)
    else:
        target = tmp_path / "no" / "t"
    assert refusal(target) is not None
    with pytest.raises(Refused):
        write_text(target, "new")
    assert other.read_text() == "theirs"
    if make == "readonly":
        assert target.read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_devices_are_refused():
    assert refusal("/dev/null") is not None


def test_reads_take_regular_files_within_their_bound(tmp_path):
    f = tmp_path / "f"
    f.write_text("héllo")
    assert read_text(f, 100) == "héllo"
    with pytest.raises(NotRegular):
        read_bytes(f, 3)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(NotRegular):
        read_bytes(fifo, 100)  # no writer: a plain open would wait for ever
    with pytest.raises(NotRegular):
        read_bytes("/dev/zero", 100)
    with pytest.raises(IsADirectoryError):
        read_bytes(tmp_path, 100)


def test_two_folders_change_places_in_one_step(tmp_path):
    """files.folders.exchange: on Linux one renameat2(RENAME_EXCHANGE); elsewhere it says it
    cannot and changes nothing."""
    import sys

    from grove.files.folders import exchange, sync_folder

    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    (a / "x").write_text("old")
    (b / "x").write_text("new")
    (b / "y").write_text("new too")
    done = exchange(a, b)
    assert done == sys.platform.startswith("linux")
    if done:
        assert sorted(p.name for p in a.iterdir()) == ["x", "y"]
        assert (a / "x").read_text() == "new" and (b / "x").read_text() == "old"
        with pytest.raises(FileNotFoundError):  # a failure other than "cannot" is raised
            exchange(tmp_path / "missing", a)
    else:
        assert (a / "x").read_text() == "old"
    sync_folder(tmp_path)


def test_sweep_removes_only_old_leftovers_of_its_target(tmp_path):
    """A SIGKILL during a write leaves `.NAME.HEX.tmp` beside NAME; a later writer of NAME
    removes it once it is old enough to be no one's write in progress, and nothing else."""
    target = tmp_path / "r.jsonl"
    target.write_text("mine")
    old = tmp_path / ".r.jsonl.0123456789ab.tmp"
    fresh = tmp_path / ".r.jsonl.ba9876543210.tmp"
    other = tmp_path / ".s.jsonl.0123456789ab.tmp"
    kept = tmp_path / ".r.jsonl.notmine.tmp"
    for p in (old, fresh, other, kept):
        p.write_text("half")
    for p in (old, other, kept):
        os.utime(p, (1, 1))
    assert sweep(target) == [old.name]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [target.name, fresh.name, other.name, kept.name])
    assert sweep(tmp_path / "no" / "r.jsonl") == []


def test_copies_written_behind_end_with_the_newest_and_say_a_failed_write(tmp_path):
    """A server's record is written by a thread of its own: whatever copies pile up, the file
    ends whole with the newest; a write that failed is raised at the next copy or flush."""
    target = tmp_path / "g.jsonl"
    behind = Behind(target)
    for k in range(200):
        behind.put(f"copy {k}\n" * 50)
    behind.flush()
    assert target.read_text() == "copy 199\n" * 50
    behind.close()
    assert not behind._thread.is_alive()
    assert [p.name for p in tmp_path.iterdir()] == ["g.jsonl"]
    lost = Behind(tmp_path / "no such folder" / "g.jsonl")
    lost.put("x")
    with pytest.raises(OSError):
        lost.flush()
    lost.close()  # said once; the thread ends
    assert not lost._thread.is_alive()
