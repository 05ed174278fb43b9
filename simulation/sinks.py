"""Where a run's rows go: two Parquet files written as the games finish, and whole-file writes.

Rows are not held: each flush becomes a row group of an open `pyarrow.parquet.ParquetWriter`,
so memory stays flat however many games a run plays. A Parquet file is readable only once its
footer is written, so each file is written under a `.part` name and closed and renamed when the
run ends, completed, stopped (Ctrl-C, SIGTERM) or failed: the name `games.parquet` always
means a whole file. Only a run killed outright (SIGKILL, power loss) leaves `.part` files.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import tempfile
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from simulation.columns import CARD_COLUMNS, META_KEY, ROW_TYPE, TYPES, game_columns

GAMES_FILE = "games.parquet"
CARDS_FILE = "cards.parquet"
SUMMARY_FILE = "summary.json"
REPORT_FILE = "report.html"
RUN_FILES = (GAMES_FILE, CARDS_FILE, SUMMARY_FILE, REPORT_FILE)
PART = ".part"


def _schema(columns: tuple[str, ...], meta: dict[str, Any]) -> pa.Schema:
    return pa.schema([(c, pa.type_for_alias(TYPES.get(c, ROW_TYPE))) for c in columns],
                     metadata={META_KEY: json.dumps(meta, sort_keys=True).encode()})


def table(columns: dict[str, list[Any]], schema: pa.Schema) -> pa.Table:
    return pa.Table.from_pydict(columns, schema=schema)


class RunFiles:
    """The two Parquet files of a run in `folder`, open until `close`."""

    def __init__(self, folder: Path, scorepad: tuple[str, ...], meta: dict[str, Any]):
        self.folder = folder
        self.games_schema = _schema(game_columns(scorepad), meta)
        self.cards_schema = _schema(CARD_COLUMNS, meta)
        self.failed: OSError | None = None  # the write that failed, if one did
        for name in RUN_FILES:  # an older run's files would read as this run's
            (folder / name).unlink(missing_ok=True)
        self._games = pq.ParquetWriter(folder / (GAMES_FILE + PART), self.games_schema)
        self._cards = pq.ParquetWriter(folder / (CARDS_FILE + PART), self.cards_schema)

    def write(self, games: pa.Table, cards: pa.Table) -> None:
        """One row group in each file."""
        try:
            self._games.write_table(games)
            self._cards.write_table(cards)
        except OSError as exc:
            self.failed = exc
            raise

    def close(self) -> None:
        """Write the footers and give the files their names: from here they are readable.
        After a failed write (a full disk) the files are removed instead and the write's error
        raised again: pyarrow closes a writer whose bytes did not all reach the disk without a
        word, and such a file must not be named like a run's."""
        if self.failed is not None:
            self.discard()
            raise self.failed
        for writer, name in ((self._games, GAMES_FILE), (self._cards, CARDS_FILE)):
            writer.close()
            os.replace(self.folder / (name + PART), self.folder / name)

    def discard(self) -> None:
        """Close what can be closed and remove every file of the run: a run that could not be
        written leaves no file that reads as one."""
        for writer in (self._games, self._cards):
            with contextlib.suppress(Exception):
                writer.close()
        for name in RUN_FILES:
            for path in (self.folder / (name + PART), self.folder / name):
                path.unlink(missing_ok=True)


def write_atomic(path: Path, text: str) -> None:
    """`path` holds `text` whole or keeps what it held: written beside it, then renamed. (Opened
    with "x" rather than by `mkstemp`, so the file gets the umask's mode, not 0600.)"""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
    try:
        with open(tmp, "x", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def prepare(folder: Path) -> tuple[Path | None, str | None]:
    """Make `folder` (and its parents) and prove a file can be written in it. Returns the
    topmost folder it made (None if `folder` was there), for `unprepare`, and the reason it
    cannot be written, or None."""
    made = None
    for f in (folder, *folder.parents):
        if f.exists():
            break
        made = f
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".grove-", suffix=".tmp")
        os.close(fd)
        os.unlink(tmp)
    except OSError as exc:
        unprepare(folder, made)
        return None, exc.strerror or str(exc)
    return made, None


def unprepare(folder: Path, made: Path | None) -> None:
    """Remove the empty folders `prepare` made, up to `made`: a run refused leaves nothing."""
    if made is None:
        return
    f = folder
    while True:
        with contextlib.suppress(OSError):
            f.rmdir()
        if f == made or f == f.parent:
            return
        f = f.parent
