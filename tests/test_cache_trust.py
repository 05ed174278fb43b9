"""Nobody but the user can put an entry in grove's cache, and no entry can hang a command.

A cache entry is a pickle, and loading a pickle can run whatever its writer chose; another user
who could plant one would run code as the next user of `grove`. Each test fills a cache of its
own with the real executable (`grove score` of the small Hedgerow forest, the cheapest command
that reads and writes every kind of entry a card set needs), then plants, forges or swaps
entries, runs the command again and checks that nothing planted ran, that it did not hang
(every run has a timeout), that the answer is the right one and that the cache fills again. The
tests that hand a file to another user need root (chown) and are skipped without it.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import os
import pickle
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from grove.compiler import cache

TEST_EDITIONS = Path(__file__).parent / "editions"
GROVE = str(Path(sys.executable).parent / "grove")
OTHER_UID = 54321
as_root = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                             reason="handing a file to another user needs root")


class Payload:
    """What an attacker's pickle does when loaded: leave a file behind."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


class Calls:
    """A pickle that calls `fn(*args)` when loaded."""

    def __init__(self, fn, args: tuple):
        self.fn, self.args = fn, args

    def __reduce__(self):
        return (self.fn, self.args)


@pytest.fixture()
def home(tmp_path: Path) -> Path:
    shutil.copytree(TEST_EDITIONS / "hedgerow", tmp_path / "sets" / "hedgerow")
    shutil.copy(TEST_EDITIONS / "forests" / "hedgerow.yaml", tmp_path / "forest.yaml")
    return tmp_path


def score(home: Path, umask: int = 0o022) -> subprocess.CompletedProcess:
    env = {**os.environ, "GROVE_CACHE_DIR": str(home / "cache"),
           "GROVE_CARDS": str(home / "sets")}
    env.pop("GROVE_NO_CACHE", None)
    return subprocess.run([GROVE, "score", "forest.yaml", "--json"], cwd=home, env=env,
                          capture_output=True, text=True, timeout=120, umask=umask)


def scores_right(proc: subprocess.CompletedProcess) -> None:
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["players"][0]["total"] == 22
    assert "Traceback" not in proc.stderr


def entries(home: Path) -> list[Path]:
    return sorted((home / "cache").rglob("*.pickle"))


def filled(home: Path) -> list[Path]:
    scores_right(score(home))
    found = entries(home)
    assert {p.parent.name for p in found} >= {"edition", "checked"}
    return found


def evil_entry(path: Path, marker: Path, secret: bytes | None = None) -> bytes:
    """An entry for `path`'s key whose body runs a command; signed when `secret` is given (a
    stolen secret), else with a made-up signature."""
    k = path.read_bytes()[len(cache.FORMAT):].split(b"\n", 1)[0]
    head = cache.FORMAT + k + b"\n"
    body = pickle.dumps(Payload(marker))
    mac = (hmac.new(secret, path.parent.name.encode() + b"\0" + head + body,
                    hashlib.sha256).digest() if secret else b"\x01" * 32)
    return head + mac + body


def refilled(home: Path) -> None:
    """Every entry is again a private regular file of the user's that reads back."""
    for p in entries(home):
        st = os.lstat(p)
        assert stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid(), p
        assert not st.st_mode & 0o077, oct(st.st_mode)


def test_under_umask_000_every_folder_and_file_is_private(home: Path):
    home.joinpath("cache").mkdir()  # a parent grove did not make keeps its mode
    nested = home / "cache" / "a" / "b"
    env = {**os.environ, "GROVE_CACHE_DIR": str(nested), "GROVE_CARDS": str(home / "sets")}
    proc = subprocess.run([GROVE, "score", "forest.yaml", "--json"], cwd=home, env=env,
                          capture_output=True, text=True, timeout=120, umask=0)
    scores_right(proc)
    assert proc.stderr == ""
    made = [home / "cache" / "a", nested, *(p for p in nested.iterdir() if p.is_dir())]
    assert len(made) > 3
    for folder in made:
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    files = [p for p in nested.rglob("*") if p.is_file()]
    assert nested / cache.SECRET in files and len(files) > 3
    for f in files:
        assert stat.S_IMODE(f.stat().st_mode) == 0o600, f


@as_root
def test_an_entry_of_another_user_is_not_read_even_when_signed(home: Path):
    """The other user here even holds the secret (a stolen one): ownership alone refuses."""
    secret = (home / "cache" / cache.SECRET).read_bytes() if filled(home) else b""
    marker = home / "ran"
    for p in entries(home):
        p.write_bytes(evil_entry(p, marker, secret))
        os.chown(p, OTHER_UID, OTHER_UID)
    proc = score(home)
    scores_right(proc)
    assert not marker.exists(), "a planted entry ran"
    assert "warning CACHE-UNSAFE" in proc.stderr and f"belongs to user {OTHER_UID}" in proc.stderr
    refilled(home)
    again = score(home)
    scores_right(again)
    assert again.stderr == ""


def test_a_forged_entry_runs_nothing_and_is_written_again(home: Path, monkeypatch):
    """An entry of the user's own whose signature was not made with the secret (edited, or put
    there by something that could write the file but not read the secret)."""
    before = filled(home)
    marker = home / "ran"
    for p in before:
        p.write_bytes(evil_entry(p, marker))
    proc = score(home)
    scores_right(proc)
    assert not marker.exists(), "a forged entry ran"
    assert proc.stderr == ""  # damage and forgery look alike: rebuilt without a word
    assert entries(home) == before
    monkeypatch.setenv("GROVE_CACHE_DIR", str(home / "cache"))
    for p in before:  # each written again, and signed
        k = p.read_bytes()[len(cache.FORMAT):].split(b"\n", 1)[0].decode()
        assert cache.get(p.parent.name, k) is not None, p


def test_a_signed_entry_still_cannot_name_a_function(home: Path, monkeypatch):
    """The unpickler builds only grove's data classes and plain containers: even an entry
    signed with the right secret cannot call `os.system`."""
    filled(home)
    monkeypatch.setenv("GROVE_CACHE_DIR", str(home / "cache"))
    secret = (home / "cache" / cache.SECRET).read_bytes()
    marker = home / "ran"
    cache.put("test", "a" * 64, {"fine": (1, 2.0, "x", frozenset({3}))})
    entry = next((home / "cache" / "test").iterdir())
    assert cache.get("test", "a" * 64) == {"fine": (1, 2.0, "x", frozenset({3}))}
    entry.write_bytes(evil_entry(entry, marker, secret))
    assert cache.get("test", "a" * 64) is None
    assert not marker.exists()
    for call in (eval, os.popen, cache.put, cache.Path):  # a builtin, os, grove's own code
        body = pickle.dumps(Calls(call, ("1",)))
        with pytest.raises(pickle.UnpicklingError, match="may not name"):
            cache._Unpickler(io.BytesIO(body)).load()


def test_an_entry_holding_an_enum_is_kept_on_every_python_3_11(home: Path, monkeypatch):
    """Python 3.11.0-3.11.4 (Debian 12's python3) pickle an enum member as `getattr(cls, name)`,
    a call the unpickler refuses: every entry holding a diagnostic's severity was dropped, and
    lint's findings were never answered from the cache. Members are pickled by value."""
    from grove.dsl.diagnostics import Severity, error

    monkeypatch.setenv("GROVE_CACHE_DIR", str(home / "cache"))
    monkeypatch.setattr(Severity, "__reduce_ex__", lambda self, proto: (
        getattr, (type(self), self.name)))  # as 3.11.2 reduces it
    found = [error("DSL-UNKNOWN-NAME", None, "unknown name 'pnd'")]
    cache.put("test", "b" * 64, found)
    assert cache.get("test", "b" * 64) == found


@pytest.mark.parametrize("which", ["root", "kind"])
def test_a_folder_others_may_write_is_not_used(home: Path, which: str):
    """A cache folder left 0777 (by an older grove under umask 000): anyone could have planted
    an entry in it, so nothing in it is read, and the command says so once and works."""
    filled(home)
    secret = (home / "cache" / cache.SECRET).read_bytes()
    marker = home / "ran"
    for p in entries(home):
        p.write_bytes(evil_entry(p, marker, secret))  # signed: only the folder's mode refuses
    folder = home / "cache" if which == "root" else home / "cache" / "checked"
    folder.chmod(0o777)
    proc = score(home)
    scores_right(proc)
    assert not marker.exists(), "an entry of a folder others may write ran"
    assert proc.stderr.count("warning CACHE-UNSAFE") == 1, proc.stderr
    assert "may be written by others (mode 777)" in proc.stderr
    assert "the cache is not used" in proc.stderr


@as_root
def test_a_cache_folder_of_another_user_is_not_used(home: Path):
    filled(home)
    os.chown(home / "cache", OTHER_UID, OTHER_UID)
    proc = score(home)
    scores_right(proc)
    assert proc.stderr.count("warning CACHE-UNSAFE") == 1
    assert f"belongs to user {OTHER_UID}" in proc.stderr


def test_a_secret_others_may_read_is_not_used(home: Path):
    filled(home)
    (home / "cache" / cache.SECRET).chmod(0o644)
    proc = score(home)
    scores_right(proc)
    assert proc.stderr.count("warning CACHE-UNSAFE") == 1
    assert "may be read by others" in proc.stderr


@pytest.mark.parametrize("swap", ["fifo", "dev-zero", "sparse"])
def test_an_entry_that_is_no_honest_file_neither_hangs_nor_is_read(home: Path, swap: str):
    """A FIFO waits for a writer forever, /dev/zero never ends, a sparse file of 4 GB is all
    zeros: each is refused before it is opened (the runs' timeout is the hang check), said once,
    and replaced by a good entry."""
    found = filled(home)
    for p in found:
        p.unlink()
        if swap == "fifo":
            os.mkfifo(p, 0o600)
        elif swap == "dev-zero":
            p.symlink_to("/dev/zero")
        else:
            with open(p, "wb") as fh:
                fh.truncate(4 << 30)
            p.chmod(0o600)
    proc = score(home)
    scores_right(proc)
    assert proc.stderr.count("warning CACHE-UNSAFE") == len(found)
    assert "this entry is not read" in proc.stderr
    refilled(home)
    assert sorted(entries(home)) == found
    again = score(home)
    scores_right(again)
    assert again.stderr == ""
