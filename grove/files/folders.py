"""Folders that change places in one step.

A run of `grove simulate` is several files that belong together: replacing them one rename at
a time would leave, for a moment (or for good, if the process is killed in that moment), new
games beside an old summary. Linux swaps two paths in one system call (`renameat2` with
`RENAME_EXCHANGE`), so a reader sees the old folder or the new one, never a mix; `exchange`
says when the system cannot, and its caller then falls back on renames one by one.
"""

from __future__ import annotations

import ctypes
import errno
import os
import sys
from functools import lru_cache

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2
# the system (or the file system) has no exchange: the caller must do without
_CANNOT = {errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP}


@lru_cache(maxsize=1)
def _renameat2():  # noqa: ANN202 - a ctypes function, or None
    if not sys.platform.startswith("linux"):
        return None
    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2  # glibc 2.28 and later
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    fn.restype = ctypes.c_int
    return fn


def exchange(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Swap the two existing paths `a` and `b` atomically: True when done; False, with nothing
    changed, when this system or file system has no atomic exchange. Any other failure (a path
    missing, no permission, two file systems) is the OSError it is."""
    fn = _renameat2()
    if fn is None:
        return False
    if fn(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    code = ctypes.get_errno()
    if code in _CANNOT:
        return False
    raise OSError(code, os.strerror(code), os.fspath(a), None, os.fspath(b))


def sync_folder(folder: str | os.PathLike[str]) -> None:
    """Make a rename in `folder` survive a power cut (where the system allows a folder's fsync)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def put_in_place(new: str | os.PathLike[str], target: str | os.PathLike[str],
                 names: list[str]) -> None:
    """Put the folder `new` (made beside `target` by `files.write.new_folder`, holding the files
    `names`) in the place of `target` whole: renamed there when `target` is missing, else
    swapped with it in one step and the old folder (now at `new`) removed. Where the system has
    no swap, the files are renamed into `target` one by one. `target` must hold nothing but
    what `new` replaces (the caller checked), since the old folder is removed whole."""
    import shutil

    new, target = os.fspath(new), os.fspath(target)
    for name in names:
        fd = os.open(os.path.join(new, name), os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    sync_folder(new)
    parent = os.path.dirname(os.path.abspath(target))
    if not os.path.lexists(target):
        os.rename(new, target)
    elif exchange(new, target):
        shutil.rmtree(new, ignore_errors=True)
    else:
        for name in names:
            os.replace(os.path.join(new, name), os.path.join(target, name))
        shutil.rmtree(new, ignore_errors=True)
        sync_folder(target)
    sync_folder(parent)


def sweep_new_folders(target: str | os.PathLike[str], older_than: float = 60.0) -> list[str]:
    """Remove the folders `files.write.new_folder` made beside `target` that a killed process
    left (SIGTERM or SIGKILL runs no cleanup), once `older_than` seconds old: filling one takes
    moments, so an older one is no one's. Only a folder of plain files is removed. The names."""
    import contextlib
    import re
    import shutil
    import stat
    import time

    folder = os.path.dirname(os.path.abspath(target))
    name = re.compile(rf"\.{re.escape(os.path.basename(os.path.abspath(target)))}"
                      r"\.[0-9a-f]{12}\.new")
    removed = []
    with contextlib.suppress(OSError):
        for entry in os.scandir(folder):
            if not name.fullmatch(entry.name) or not entry.is_dir(follow_symlinks=False):
                continue
            with contextlib.suppress(OSError):
                st = entry.stat(follow_symlinks=False)
                inside = list(os.scandir(entry.path))
                if time.time() - st.st_mtime > older_than and all(
                        stat.S_ISREG(e.stat(follow_symlinks=False).st_mode) for e in inside):
                    shutil.rmtree(entry.path)
                    removed.append(entry.name)
    return removed


def made_for(*folders: str | os.PathLike[str]):  # noqa: ANN201 - a context manager
    """Make `folders` (and their missing parents) for files about to be written; when the block
    fails, remove again those it made that are still empty, so a sheet or print that failed on
    a full disk leaves no empty `sheets/` or `png/` behind."""
    import contextlib

    @contextlib.contextmanager
    def block():  # noqa: ANN202
        missing: set[str] = set()
        for folder in folders:
            f = os.path.abspath(folder)
            while not os.path.lexists(f) and f != os.path.dirname(f):
                missing.add(f)
                f = os.path.dirname(f)
        try:
            for folder in folders:
                os.makedirs(folder, exist_ok=True)
            yield
        except BaseException:
            for f in sorted(missing, key=lambda f: -f.count(os.sep)):  # deepest first
                with contextlib.suppress(OSError):
                    os.rmdir(f)
            raise

    return block()
