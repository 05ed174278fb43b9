"""Writes that cannot lose the old file.

Every file grove writes goes to a fresh name beside its target and is renamed over it only
when whole, so a full disk, Ctrl-C or a kill leaves the old file or the new one, never half of
either. A target grove must not replace (a device, a FIFO, a symlink, a folder, a file the
user made read-only) is refused before anything is written: `Refused`, an `OSError`, which the
commands turn into IO-WRITE.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TypeVar

T = TypeVar("T")


def _made(make: Callable[..., T], path: Path, remove: Callable[[Path], object],
          *args: object) -> T:
    """`make(path, *args)`, which creates `path`. Python raises a pending Ctrl-C as a call
    returns: the entry made, and no caller told of it (a stopped export left an empty folder
    beside its own). There `path` goes before the interrupt goes on; an error of the call
    itself made nothing and is the caller's."""
    try:
        return make(path, *args)
    except Exception:
        raise
    except BaseException:
        with contextlib.suppress(OSError):
            remove(path)
        raise


class Refused(OSError):
    """The target is not one grove may replace; nothing was written."""

    def __init__(self, path: str | os.PathLike[str], why: str):
        super().__init__(errno.EPERM, why, os.fspath(path))


def refusal(path: str | os.PathLike[str]) -> str | None:
    """Why `path` may not be written as a whole file, or None when it may: its folder must be
    there and writable, and the path itself must be missing or a regular file (not a symlink)
    that the user may write."""
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        return exc.strerror or str(exc)
    if st is not None:
        if stat.S_ISLNK(st.st_mode):
            return "is a symbolic link; grove replaces only regular files"
        if stat.S_ISDIR(st.st_mode):
            return "is a folder"
        if not stat.S_ISREG(st.st_mode):
            return "is not a regular file (a device, FIFO or socket)"
        if not os.access(p, os.W_OK) or not st.st_mode & 0o222:
            return "is read-only"
    if not folder.is_dir():
        return f"no folder {folder}"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is not writable"
    return None


def check(path: str | os.PathLike[str]) -> None:
    """Raise `Refused` when `path` may not be written (see `refusal`)."""
    why = refusal(path)
    if why is not None:
        raise Refused(path, why)


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str], mode: str = "w", *,
              private: bool = False, durable: bool = True) -> Iterator[IO]:
    """A file to write `path`'s new contents into; on leaving the block without an error it is
    flushed to disk and renamed over `path`, else removed and `path` left as it was.

    A new file gets the umask's mode (0600 with `private`, for the cache); a replaced file keeps
    its own. Without `durable` the rename does not wait for the disk (an fsync, 5 to 20 ms on a
    busy one): for a file whose reader refuses one a crash left short, as the cache does."""
    check(path)
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    try:
        old = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        old = None
    try:
        fd = _made(os.open, tmp, os.unlink,
                   os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                   0o600 if private else 0o666)
    except OSError as exc:  # named as the user gave it: the temporary name is grove's business
        raise OSError(exc.errno, exc.strerror, os.fspath(path)) from None
    try:
        if old is not None:
            os.chmod(fd, old)
        text = {} if "b" in mode else {"encoding": "utf-8", "newline": ""}
        with os.fdopen(fd, mode, **text) as fh:
            yield fh
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if exc.filename is not None and os.fspath(exc.filename) == os.fspath(tmp):
            raise OSError(exc.errno, exc.strerror, os.fspath(path)) from None
        raise
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def new_folder(target: str | os.PathLike[str]) -> Path:
    """A new, empty, hidden folder beside `target`, to fill and then rename to `target` whole.
    It has the mode any tool's `mkdir` gives a folder (0777 less the umask), which it keeps
    once renamed: `tempfile.mkdtemp` makes 0700, a folder no one else may read whatever the
    user's umask says."""
    t = Path(target)
    for _ in range(100):
        path = t.with_name(f".{t.name}.{secrets.token_hex(6)}.new")
        try:
            _made(os.mkdir, path, os.rmdir, 0o777)
        except FileExistsError:  # 48 random bits taken: try another
            continue
        return path
    raise FileExistsError(errno.EEXIST, "no free name for a new folder", os.fspath(t))


def sweep(path: str | os.PathLike[str], older_than: float = 60.0) -> list[str]:
    """Remove the temporary files `replacing` left beside `path` when a process writing it was
    killed outright (SIGKILL runs no cleanup), once they are `older_than` seconds old: a write
    in progress takes milliseconds, so an older one is no one's. The names removed."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    name = re.compile(rf"\.{re.escape(target.name)}\.[0-9a-f]{{12}}\.tmp")
    removed = []
    try:
        found = [e for e in os.scandir(folder) if name.fullmatch(e.name)]
    except OSError:
        return removed
    for entry in found:
        with contextlib.suppress(OSError):
            st = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(st.st_mode) and time.time() - st.st_mtime > older_than:
                os.unlink(entry.path)
                removed.append(entry.name)
    return removed


def write_bytes(path: str | os.PathLike[str], data: bytes, *, private: bool = False,
                durable: bool = True) -> None:
    """`path` holds `data` whole, or keeps what it held (see `replacing` for `durable`)."""
    with replacing(path, "wb", private=private, durable=durable) as fh:
        fh.write(data)


def write_text(path: str | os.PathLike[str], text: str, *, private: bool = False) -> None:
    """`path` holds `text` (UTF-8) whole, or keeps what it held."""
    with replacing(path, "w", private=private) as fh:
        fh.write(text)


class Behind:
    """`path` replaced whole (`write_text`) by a thread of its own, so whoever hands it a copy
    never waits on the disk: a server's game goes on to its next table while the last one's
    record is flushed (an fsync takes 5 to 20 ms on a busy disk). Only the newest copy matters:
    one handed over while another is written replaces any still waiting. `flush` waits until
    the newest is on disk and raises what a write raised; `close` also ends the thread."""

    def __init__(self, path: str | os.PathLike[str]):
        self.path = path
        self._cond = threading.Condition()
        self._text: str | None = None  # the copy waiting to be written
        self._busy = False
        self._closed = False
        self._error: OSError | None = None
        self._thread: threading.Thread | None = None

    def put(self, text: str) -> None:
        with self._cond:
            self._raise()
            self._text = text
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, daemon=True,
                                                name=f"behind-{os.fspath(self.path)}")
                self._thread.start()
            self._cond.notify_all()

    def flush(self) -> None:
        with self._cond:
            while self._text is not None or self._busy:
                self._cond.wait()
            self._raise()

    def close(self) -> None:
        try:
            self.flush()
        finally:
            with self._cond:
                self._closed = True
                self._cond.notify_all()
            if self._thread is not None:
                self._thread.join()

    def _raise(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def _run(self) -> None:
        while True:
            with self._cond:
                while self._text is None and not self._closed:
                    self._cond.wait()
                if self._text is None:
                    return
                text, self._text, self._busy = self._text, None, True
            error = None
            try:
                write_text(self.path, text)
            except OSError as exc:  # said to the game at its next copy or its flush
                error = exc
            with self._cond:
                self._busy = False
                if error is not None:
                    self._error = error
                self._cond.notify_all()
