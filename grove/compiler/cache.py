"""The on-disk cache of loaded and compiled card sets, and of what commands answer from them
(lint results, a forest file's scores).

Reading an edition means parsing YAML with positions and validating it against the schemas,
then parsing and checking every rule: about a second for the shipped boxes, paid by every
command. The cache keeps what that work produced, keyed by what it was produced from: the
digest of every file read, the folder it lay in, and a fingerprint of grove itself (its version
and the size and time of every file of its packages, so an edited checkout is never served a
result of its older self). A key that matches can only name the same input, so the cache is
never stale and never needs clearing; files whose keys nothing asks for any more simply age.

Entries are pickles, and loading a pickle can run any code its writer chose, so an entry is read
only when nobody else can have written it (CACHE-UNSAFE in docs/diagnostics.md):

* the cache folder and every folder grove makes in it are made 0700, whatever the umask, and an
  entry is read only from folders and files the user owns and nobody else may write; a cache
  that fails this is reported once (CACHE-UNSAFE, a warning on stderr) and not used;
* every entry carries an HMAC-SHA256 under a per-user secret (`key`, 0600, made at the first
  write), checked before a byte is unpickled: an entry planted or edited without the secret is
  no entry;
* only a regular file of at most `MAX_ENTRY_BYTES` is read (grove/files/read.py): a FIFO or a link to
  /dev/zero cannot hang or swallow a command;
* the unpickler builds nothing but grove's own data classes and plain containers, so even an
  entry signed with a leaked secret cannot name `os.system`.

Entries are written whole through grove/files/write.py (private, renamed into place), so two processes
filling the cache at once each write a whole file and the last rename wins. An entry that fails
to load (truncated, corrupt, written by another grove, signed with another secret, or of
another key) is treated as absent and rebuilt without a word. `GROVE_NO_CACHE=1` turns the cache
off; `GROVE_CACHE_DIR` moves it (tests give each run its own); otherwise it lives in the user's
cache folder.
"""

from __future__ import annotations

import contextlib
import copyreg
import dataclasses
import enum
import hashlib
import hmac
import io
import os
import pickle
import stat
import sys
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

T = TypeVar("T")

FORMAT = b"grove-cache-2\n"
# The largest entry today (a checked edition) is under 200 KB; a bound far above it still stops
# a planted sparse file or a device from being read to the end.
MAX_ENTRY_BYTES = 64 << 20
SECRET = "key"  # the file, in the cache folder, that holds the per-user secret
_SECRET_BYTES = 32
_MAC_BYTES = hashlib.sha256().digest_size
# Packages whose code decides what a cached entry holds.
_PACKAGES = ("grove",)
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


# Files a key is made of are card files, catalogs and icons, of kilobytes; one larger than this
# is keyed by its size and time instead (the reader refuses it anyway, as too large).
MAX_DIGEST_BYTES = 16 << 20


def _content_digest(path: str | Path, mode: int, size: int, mtime_ns: int) -> str:
    """The digest of a regular file's bytes, read through grove/files/read.py (a FIFO or device
    swapped in for the file after its stat is refused, not waited on)."""
    from grove.files.read import read_bytes

    if not stat.S_ISREG(mode) or size > MAX_DIGEST_BYTES:
        return f"unread:{stat.S_IFMT(mode)}:{size}:{mtime_ns}"
    return hashlib.sha256(read_bytes(path, MAX_DIGEST_BYTES)).hexdigest()


@lru_cache(maxsize=4096)
def _file_digest(path: str, size: int, mtime_ns: int, mode: int) -> str:
    """A file's content digest; the stat values make a changed file a new question."""
    return _content_digest(path, mode, size, mtime_ns)


_RACY_NS = 3_000_000_000


def file_digest(path: Path, st: os.stat_result | None = None) -> str:
    """The digest of a file's contents; its size and time answer from memory only when it was
    last written some seconds ago, since file times are coarser than a quick edit (an edit
    within the same tick, keeping the size, would otherwise be missed: git's "racy" files).
    `st` is the file's stat where the caller has just taken it."""
    st = path.stat() if st is None else st
    if time.time_ns() - st.st_mtime_ns < _RACY_NS:
        return _content_digest(path, st.st_mode, st.st_size, st.st_mtime_ns)
    return _file_digest(str(path), st.st_size, st.st_mtime_ns, st.st_mode)


def files_digest(files: Iterable[Path | tuple[Path, os.stat_result]]) -> str:
    """One digest over the names and contents of files (in the order given), each a path or a
    path with the stat its caller has just taken."""
    h = hashlib.sha256()
    for f in files:
        path, st = f if isinstance(f, tuple) else (f, None)
        h.update(path.name.encode() + b"\0" + file_digest(path, st).encode() + b"\n")
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
        # by value, as Python 3.11.5 and later pickle a member: 3.11.0-3.11.4 (Debian 12's
        # python3) name `getattr`, which the unpickler rightly refuses, so no entry was kept
        if isinstance(obj, enum.Enum):
            return (type(obj), (obj.value,))
        if type(obj).__module__.startswith("ruamel."):
            for plain in (str, int, float, dict, list):
                if isinstance(obj, plain):
                    return (plain, (plain(obj),))
        return NotImplemented


_PLAIN = {("builtins", t.__name__): t for t in
          (str, bytes, int, float, complex, bool, tuple, list, dict, set, frozenset)}
_PLAIN.update({("collections", "Counter"): Counter, ("collections", "OrderedDict"): OrderedDict,
               (__name__, "read_only"): read_only})


class _Unpickler(pickle.Unpickler):
    """Builds only what an entry is made of: plain containers, and the data classes and enums
    of grove's own packages (whose constructors only store their fields). A name outside that
    (`os.system`, `builtins.eval`, a function of grove's) ends the load."""

    def find_class(self, module: str, name: str) -> Any:
        found = _PLAIN.get((module, name))
        if found is not None:
            return found
        if module.partition(".")[0] in _PACKAGES and "." not in name:
            obj = getattr(sys.modules.get(module) or __import__(module, fromlist=[name]), name,
                          None)
            if isinstance(obj, type) and obj.__module__ == module and (
                    dataclasses.is_dataclass(obj) or issubclass(obj, enum.Enum)):
                return obj
        raise pickle.UnpicklingError(f"an entry may not name {module}.{name}")


# -- who may have written the cache ---------------------------------------------------------

def _owner_problem(path: Path, st: os.stat_result) -> str | None:
    """Why a folder or file of the cache cannot be trusted, or None: it must be the user's own,
    and nobody else may write it (a folder others may write lets them plant entries)."""
    uid = os.geteuid() if hasattr(os, "geteuid") else None
    if uid is None:  # no owners to ask (Windows): the user's own profile folder
        return None
    if st.st_uid != uid:
        return f"{path} belongs to user {st.st_uid}, not to you (user {uid})"
    if st.st_mode & 0o022:
        return f"{path} may be written by others (mode {stat.S_IMODE(st.st_mode):o})"
    return None


@lru_cache(maxsize=64)
def _warn(problem: str, entry: bool = False) -> None:
    """Say once per process that the cache, or one entry of it, is not used, and why: a warning,
    not an error, since the command does its work all the same, only slower."""
    from grove.dsl.diagnostics import format_text, warning

    if entry:
        message = f"{problem}; this entry is not read, and is written again"
        hint = "someone or something put it there: grove writes only private regular files"
    else:
        message = f"{problem}; the cache is not used"
        hint = ("remove it (grove makes the cache again, private), or set GROVE_CACHE_DIR to "
                "a folder of your own; GROVE_NO_CACHE=1 turns the cache off")
    with contextlib.suppress(OSError, ValueError):  # stderr closed: the work goes on silently
        print(format_text(warning("CACHE-UNSAFE", None, message, hint)), file=sys.stderr,
              flush=True)


def _make_private(folder: Path) -> None:
    """Make `folder` and any missing folder above it 0700, whatever the umask (an existing
    folder is left as it is: `_trusted_folder` judges it)."""
    missing = []
    p = folder
    while not os.path.lexists(p) and p != p.parent:
        missing.append(p)
        p = p.parent
    for m in reversed(missing):
        try:
            os.mkdir(m, 0o700)
        except FileExistsError:  # made at the same moment by another grove: judged below
            continue
        os.chmod(m, 0o700)  # a umask such as 0o200 narrows mkdir's mode; this does not widen it


def _trusted_folder(folder: Path, *, follow: bool) -> bool:
    """Whether entries may be read from `folder`; says why not once. The cache root may be a
    link the user made (`follow`); the folders grove makes in it may not."""
    try:
        st = os.stat(folder) if follow else os.lstat(folder)
    except FileNotFoundError:
        return False
    except OSError as exc:
        _warn(f"{folder}: {exc.strerror or exc}")
        return False
    if not stat.S_ISDIR(st.st_mode):
        _warn(f"{folder} is not a folder")
        return False
    problem = _owner_problem(folder, st)
    if problem is not None:
        _warn(problem)
        return False
    return True


def _entry_problem(path: Path) -> str | None:
    """Why the entry at `path` may not be read, or None (also None when there is none)."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return f"{path} is not a regular file"
    if st.st_size > MAX_ENTRY_BYTES:
        return f"{path} is larger than a cache entry can be ({st.st_size} bytes)"
    return _owner_problem(path, st)


@lru_cache(maxsize=8)
def _secret_at(path: str, ino: int, mtime_ns: int) -> bytes | None:
    from grove.files.read import read_bytes

    try:
        data = read_bytes(path, _SECRET_BYTES)
    except OSError:
        return None
    return data if len(data) == _SECRET_BYTES else None


def _secret(root: Path, *, create: bool) -> bytes | None:
    """The user's secret that signs every entry: made (0600) at the first write, and used only
    when it is a regular file of the user's that nobody else may read or write."""
    path = root / SECRET
    for _ in range(2):
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            if not create:
                return None
            import secrets  # made once per cache folder: a command that only reads needs none

            from grove.files.write import write_bytes

            try:
                write_bytes(path, secrets.token_bytes(_SECRET_BYTES), private=True)
            except OSError:
                return None
            continue  # read back what is there: another grove may have written its own since
        except OSError:
            return None
        problem = _owner_problem(path, st)
        if problem is None and st.st_mode & 0o077:
            problem = f"{path} may be read by others (mode {stat.S_IMODE(st.st_mode):o})"
        if not stat.S_ISREG(st.st_mode) or problem is not None:
            _warn(problem or f"{path} is not a regular file")
            return None
        return _secret_at(str(path), st.st_ino, st.st_mtime_ns)
    return None


def _room(kind: str, *, create: bool) -> tuple[Path, bytes] | None:
    """The folder of `kind`'s entries and the secret, when the cache is on and may be trusted;
    with `create`, the folders and the secret are made first where they are missing."""
    root = cache_dir()
    if root is None:
        return None
    folder = root / kind
    if create:
        try:
            _make_private(root)
            if _trusted_folder(root, follow=True):
                _make_private(folder)
        except OSError:
            return None
    if not (_trusted_folder(root, follow=True) and _trusted_folder(folder, follow=False)):
        return None
    secret = _secret(root, create=create)
    return None if secret is None else (folder, secret)


def _mac(secret: bytes, kind: str, head: bytes, body: bytes) -> bytes:
    return hmac.new(secret, kind.encode() + b"\0" + head + body, hashlib.sha256).digest()


def _head(k: str) -> bytes:
    return FORMAT + k.encode() + b"\n"


def _name(k: str) -> str:
    return f"{k[:40]}.pickle"


def get(kind: str, k: str) -> Any | None:
    """The entry of `kind` under key `k`, or None if absent, unreadable or not to be trusted."""
    room = _room(kind, create=False)
    if room is None:
        return None
    folder, secret = room
    path = folder / _name(k)
    problem = _entry_problem(path)
    if problem is not None:
        _warn(problem, entry=True)
        return None
    from grove.files.read import read_bytes

    try:
        data = read_bytes(path, MAX_ENTRY_BYTES)
    except OSError:
        return None
    head = _head(k)
    mac = data[len(head):len(head) + _MAC_BYTES]
    body = data[len(head) + _MAC_BYTES:]
    if not data.startswith(head) or not hmac.compare_digest(mac, _mac(secret, kind, head, body)):
        return None
    try:
        return _Unpickler(io.BytesIO(body)).load()
    except Exception:  # noqa: BLE001 - any damage means "not cached"
        return None


def put(kind: str, k: str, value: Any) -> None:
    """Store an entry; a cache that cannot be written is only slower, never an error."""
    if cache_dir() is None:
        return
    buf = io.BytesIO()
    try:
        _Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return
    body = buf.getvalue()
    head = _head(k)
    if len(head) + _MAC_BYTES + len(body) > MAX_ENTRY_BYTES:
        return  # would be refused when read
    room = _room(kind, create=True)
    if room is None:
        return
    folder, secret = room
    path = folder / _name(k)
    from grove.files.write import write_bytes

    try:
        if _entry_problem(path) is not None:  # a FIFO or another's file: the folder is ours
            os.unlink(path)
        # not durable: an entry a crash cut short fails its MAC when read, a miss rebuilt
        write_bytes(path, head + _mac(secret, kind, head, body) + body, private=True,
                    durable=False)
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
