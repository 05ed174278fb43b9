"""A run's folder: the new run is written beside it and takes its place only when whole.

`stage` checks the folder before the first game and makes a hidden folder beside it, on the
same file system, named after the folder and this process (`.NAME.grove-PID-HEX.tmp`); the run
writes all its files there. `commit` then swaps the two folders in one step (`files.folders.
exchange`) and removes the old run, so a reader of the folder, or a kill at any moment, finds
the old run whole or the new one whole. Where the system cannot swap folders (not Linux, or
`--out` is the current folder, which a swap would pull from under the shell), the files are
renamed into the folder one by one instead, the Parquet files first and `summary.json` last.

A folder that holds anything grove did not write (a file of another name, a subfolder, or
`summary.json` and `report.html` with no `games.parquet` of a grove run beside them) is
refused and left alone: the swap would take the user's files away with the old run.

A stopped run (Ctrl-C, SIGTERM) holds only the games finished by then: it takes the folder's
place only when the folder held no complete run. Where it did, the complete run stays, and the
stopped one goes beside it as `NAME.stopped` (or `NAME.stopped-2`, ...), so a rerun stopped
three seconds in never costs a finished run of hours.

A run killed outright leaves its hidden folder behind; the next run into the same folder
removes it once the process that made it is gone.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import stat
from dataclasses import dataclass
from pathlib import Path

from grove.files.folders import exchange, sync_folder
from grove.files.write import Refused, refusal
from grove.simulation.columns import META_KEY
from grove.simulation.sinks import CARDS_FILE, GAMES_FILE, REPORT_FILE, RUN_FILES, SUMMARY_FILE

HINT = ("give --out a new or empty folder, or the folder of an earlier run, which the new run "
        "replaces")
# files a grove run leaves: its own, the `.part` files of an older grove killed mid-run, and
# the temporary names of files/write.py
_LEFTOVER = re.compile(r"^(?:(?:games|cards)\.parquet\.part"
                       r"|\.(?:games\.parquet|cards\.parquet|summary\.json|report\.html)"
                       r"\.[0-9a-f]+\.tmp)$")
COMMIT_ORDER = (GAMES_FILE, CARDS_FILE, REPORT_FILE, SUMMARY_FILE)


@dataclass(frozen=True)
class Staging:
    """A run being written: `path` beside `target`, which it replaces at `commit`."""

    target: Path  # the run's folder, symbolic links followed
    path: Path
    made: Path | None  # the topmost missing parent folder `stage` made, removed by `discard`
    shown: Path  # the run's folder as the user named it, for messages


def shown(path: str | os.PathLike[str]) -> str:
    """A path as text any terminal or JSON reader takes: the bytes of a name that are not UTF-8
    (which Python holds as lone surrogates) written `\\xNN`, as `ls -b` writes them."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def _is_leftover(name: str) -> bool:
    return name in RUN_FILES or bool(_LEFTOVER.match(name))


def _staging_pattern(target: Path) -> re.Pattern[str]:
    return re.compile(rf"^\.{re.escape(target.name)}\.grove-(\d+)-[0-9a-f]+\.tmp$")


def is_grove_parquet(path: Path) -> bool:
    """Whether `path` is a regular Parquet file that names a grove run in its metadata."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        with open(path, "rb") as fh:  # not by path: pyarrow wants a path in UTF-8
            meta = pq.read_schema(fh).metadata or {}
        json.loads(meta[META_KEY])
    except (OSError, pa.ArrowException, KeyError, ValueError):
        return False
    return True


def not_a_run(folder: Path) -> str | None:
    """Why `folder` (an existing folder) may not be replaced by a run, or None when it may: it
    holds only what grove writes, each a regular file the user may write, and whatever named
    like a run's files is a grove run's."""
    try:
        names = sorted(os.listdir(folder))
    except OSError as exc:
        return exc.strerror or str(exc)
    foreign = [n for n in names if not _is_leftover(n)]
    if foreign:
        listed = ", ".join(shown(n) for n in foreign[:3])
        more = f" and {len(foreign) - 3} more" if len(foreign) > 3 else ""
        return f"holds what grove did not write ({listed}{more})"
    for name in names:
        why = refusal(folder / name)
        if why is not None:
            return f"{name} {why}"
    own = [n for n in names if n in RUN_FILES]
    if own and not any(is_grove_parquet(folder / n) for n in (GAMES_FILE, CARDS_FILE)):
        return (f"holds {', '.join(own)} but no games.parquet or cards.parquet of a grove run: "
                "they are not grove's")
    if not os.access(folder, os.W_OK | os.X_OK) or not os.stat(folder).st_mode & 0o222:
        return "is read-only"  # made so by its owner (root may write it, and should not)
    return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def _remove_run(folder: Path) -> None:
    """Remove a run's files and leftovers from `folder` and the folder itself if that empties
    it; anything else in it stays, and so does the folder."""
    with contextlib.suppress(OSError):
        for name in os.listdir(folder):
            if _is_leftover(name):
                with contextlib.suppress(OSError):
                    os.unlink(folder / name)
    with contextlib.suppress(OSError):
        os.rmdir(folder)


def sweep(target: Path) -> None:
    """Remove the hidden folders of earlier runs into `target` whose process is gone (killed
    outright), each only as far as it holds a run's files."""
    pattern = _staging_pattern(target)
    with contextlib.suppress(OSError):
        for entry in os.scandir(target.parent):
            m = pattern.match(entry.name)
            if m and int(m.group(1)) != os.getpid() and not _alive(int(m.group(1))) \
                    and entry.is_dir(follow_symlinks=False):
                _remove_run(Path(entry.path))


def stage(out: str | os.PathLike[str]) -> Staging:
    """Check `out` and make the folder the run is written into; `Refused` (nothing made or
    changed) when `out` is not a folder grove may fill: a file, a folder of the user's, a
    read-only one, or one in a folder where nothing can be made."""
    target = Path(os.path.realpath(out))
    if target == target.parent:
        raise Refused(out, "is the root folder")
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise Refused(out, exc.strerror or str(exc)) from None
    if st is not None:
        if not stat.S_ISDIR(st.st_mode):
            raise Refused(out, "is not a folder")
        why = not_a_run(target)
        if why is not None:
            raise Refused(out, why)
    made = None
    for f in target.parents:
        if f.exists():
            break
        made = f
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        path = target.parent / f".{target.name}.grove-{os.getpid()}-{secrets.token_hex(4)}.tmp"
        os.mkdir(path)
    except OSError as exc:
        _unmake(target.parent, made)
        raise Refused(out, f"cannot make a folder beside it: {exc.strerror or exc}") from None
    staging = Staging(target, path, made, Path(out))
    if st is not None:
        if os.stat(path).st_dev != st.st_dev:  # a mount point: no rename reaches it
            discard(staging)
            raise Refused(out, "is a mount point; grove writes a run beside its folder first")
        os.chmod(path, stat.S_IMODE(st.st_mode))
    sweep(target)
    return staging


def _unmake(folder: Path, made: Path | None) -> None:
    if made is None:
        return
    f = folder
    while True:
        with contextlib.suppress(OSError):
            f.rmdir()
        if f == made or f == f.parent:
            return
        f = f.parent


def discard(staging: Staging) -> None:
    """Remove the run being written, and the parent folders `stage` made if they are empty: the
    folder asked for is as it was."""
    _remove_run(staging.path)
    _unmake(staging.target.parent, staging.made)


def _is_cwd(folder: Path) -> bool:
    try:
        return os.path.samefile(folder, os.getcwd())
    except OSError:
        return False


def holds_complete_run(folder: Path) -> bool:
    """Whether `folder` holds a run that played every game it was asked (its summary says so)."""
    try:
        with open(folder / SUMMARY_FILE, "rb") as fh:
            summary = json.loads(fh.read(1 << 24))
    except (OSError, ValueError):
        return False
    return isinstance(summary, dict) and summary.get("complete") is True


def beside(staging: Staging) -> Path:
    """Move the stopped run in `staging.path` to a new folder beside the run's folder, which
    holds a complete run and keeps it; the path it went to."""
    target = staging.target
    for n in range(1, 1000):
        path = target.with_name(f"{target.name}.stopped" + (f"-{n}" if n > 1 else ""))
        if os.path.lexists(path):
            continue
        try:
            os.mkdir(path)  # the name taken first, so a rename cannot land in a folder of another
        except FileExistsError:
            continue
        os.rename(staging.path, path)  # over the empty folder just made
        sync_folder(target.parent)
        return path
    raise FileExistsError(f"no free name beside {target}")


def commit(staging: Staging, stopped: bool = False) -> Path:
    """Put the run written in `staging.path` in the place of `staging.target`, or, when it was
    `stopped` and the folder holds a complete run, beside it (`beside`); the folder it went to.
    Every file is flushed to disk first, so a power cut after the swap finds whole files too.
    `Refused` if the folder came to hold a file of the user's while the run was on (the new run
    is then discarded and the folder left alone)."""
    target, path = staging.target, staging.path
    for name in (GAMES_FILE, CARDS_FILE):  # summary.json and report.html are synced as written
        fd = os.open(path / name, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    sync_folder(path)
    if stopped and holds_complete_run(target):
        return beside(staging)
    if not os.path.lexists(target):
        try:
            os.rename(path, target)
            sync_folder(target.parent)
            return target
        except OSError:  # made in the meantime: replaced as an existing folder below
            if not os.path.isdir(target):
                raise
    why = not_a_run(target)
    if why is not None:
        discard(staging)
        raise Refused(target, f"{why} (since the run began)")
    if not _is_cwd(target) and exchange(path, target):
        sync_folder(target.parent)
        _remove_run(path)  # the old run, now in the hidden folder
        return target
    for name in COMMIT_ORDER:
        os.replace(path / name, target / name)
    sync_folder(target)
    _remove_run(path)
    for name in os.listdir(target):  # an older grove's `.part` files
        if _is_leftover(name) and name not in RUN_FILES:
            with contextlib.suppress(OSError):
                os.unlink(target / name)
    return target
