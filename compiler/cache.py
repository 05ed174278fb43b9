"""The on-disk cache of loaded and compiled card sets, and of lint results.

Reading an edition means parsing YAML with positions and validating it against the schemas,
then parsing and checking every rule: about a second for the shipped boxes, paid by every
command. The cache keeps what that work produced, keyed by what it was produced from: the
digest of every file read, the folder it lay in, and a fingerprint of grove itself (its version
and the size and time of every file of its packages, so an edited checkout is never served a
result of its older self). A key that matches can only name the same input, so the cache is
never stale and never needs clearing; files whose keys nothing asks for any more simply age.

Entries are pickles written to a temporary file and renamed into place, so two processes filling
the cache at once each write a whole file and the last rename wins. An entry that fails to load
(truncated, corrupt, written by another grove, or of another key) is treated as absent and
rebuilt without a word. `GROVE_NO_CACHE=1` turns the cache off; `GROVE_CACHE_DIR` moves it (tests
give each run its own); otherwise it lives in the user's cache folder.
"""

from __future__ import annotations

import copyreg
import hashlib
import io
import os
import pickle
import time
from collections.abc import Callable, Iterable
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

T = TypeVar("T")

FORMAT = b"grove-cache-1\n"
# Packages whose code decides what a cached entry holds.
_PACKAGES = ("grove", "dsl", "compiler", "engine", "printouts", "schema")
_SOURCE_SUFFIXES = {".py", ".lark", ".json", ".po", ".j2", ".css", ".ttf"}


def cache_dir() -> Path | None:
    """Where entries live, or None when the cache is turned off."""
    if os.environ.get("GROVE_NO_CACHE", "") not in ("", "0"):
        return None
    explicit = os.environ.get("GROVE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("grove", appauthor=False))


@lru_cache(maxsize=4096)
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    """A file's content digest; the stat values make a changed file a new question."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


_RACY_NS = 3_000_000_000


def file_digest(path: Path) -> str:
    """The digest of a file's contents; its size and time answer from memory only when it was
    last written some seconds ago, since file times are coarser than a quick edit (an edit
    within the same tick, keeping the size, would otherwise be missed: git's "racy" files)."""
    st = path.stat()
    if time.time_ns() - st.st_mtime_ns < _RACY_NS:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    return _file_digest(str(path), st.st_size, st.st_mtime_ns)


def files_digest(files: Iterable[Path]) -> str:
    """One digest over the names and contents of files (in the order given)."""
    h = hashlib.sha256()
    for f in files:
        h.update(f.name.encode() + b"\0" + file_digest(f).encode() + b"\n")
    return h.hexdigest()


@lru_cache(maxsize=1)
def toolchain() -> str:
    """The path, size and time of every file of grove's packages: another version, a reinstall
    or an edited checkout each give another fingerprint (the version itself is written in
    grove/__init__.py, one of these files)."""
    h = hashlib.sha256(FORMAT)
    for name in _PACKAGES:
        spec = find_spec(name)
        for loc in (spec.submodule_search_locations or ()) if spec else ():
            for dirpath, dirnames, filenames in os.walk(loc):
                dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
                for fn in sorted(filenames):
                    if os.path.splitext(fn)[1] in _SOURCE_SUFFIXES:
                        st = os.stat(os.path.join(dirpath, fn))
                        h.update(f"{dirpath}/{fn}:{st.st_size}:{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


def key(*parts: str) -> str:
    h = hashlib.sha256(toolchain().encode())
    for p in parts:
        h.update(b"\0" + p.encode())
    return h.hexdigest()


def read_only(d: dict) -> MappingProxyType:
    return MappingProxyType(d)


class _Pickler(pickle.Pickler):
    """Pickles read-only mappings (the card data's names) as the dicts they wrap, and the YAML
    reader's own string, list and mapping types as the plain ones: an entry read back must not
    need the YAML library, whose import alone costs more than reading the entry."""

    dispatch_table = copyreg.dispatch_table.copy()
    dispatch_table[MappingProxyType] = lambda m: (read_only, (dict(m),))

    def reducer_override(self, obj: Any) -> Any:
        if type(obj).__module__.startswith("ruamel."):
            for plain in (str, int, float, dict, list):
                if isinstance(obj, plain):
                    return (plain, (plain(obj),))
        return NotImplemented


def _path(kind: str, k: str) -> Path | None:
    root = cache_dir()
    return None if root is None else root / kind / f"{k[:40]}.pickle"


def get(kind: str, k: str) -> Any | None:
    """The entry of `kind` under key `k`, or None if absent or unreadable."""
    path = _path(kind, k)
    if path is None:
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head = FORMAT + k.encode() + b"\n"
    if not data.startswith(head):
        return None
    try:
        return pickle.loads(data[len(head):])
    except Exception:  # noqa: BLE001 - any damage means "not cached"
        return None


def put(kind: str, k: str, value: Any) -> None:
    """Store an entry; a cache that cannot be written is only slower, never an error."""
    path = _path(kind, k)
    if path is None:
        return
    buf = io.BytesIO()
    buf.write(FORMAT + k.encode() + b"\n")
    try:
        _Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".pickle")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(buf.getvalue())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return


def cached(kind: str, k: str, build: Callable[[], T]) -> T:
    """The entry under `k`, built and stored when it is missing."""
    found = get(kind, k)
    if found is not None:
        return found
    value = build()
    put(kind, k, value)
    return value
