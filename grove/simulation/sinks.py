"""Where a run's rows go: two Parquet files written as the games finish.

Rows are not held: each flush becomes a row group of an open `pyarrow.parquet.ParquetWriter`,
so memory stays flat however many games a run plays. A Parquet file is readable only once its
footer is written; the files are written into the run's hidden folder (simulation/folder.py),
which takes the place of the run's folder only once every file is closed, so no reader ever
meets a file without its footer.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from grove.simulation.columns import CARD_COLUMNS, META_KEY, ROW_TYPE, TYPES, game_columns

GAMES_FILE = "games.parquet"
CARDS_FILE = "cards.parquet"
SUMMARY_FILE = "summary.json"
REPORT_FILE = "report.html"
RUN_FILES = (GAMES_FILE, CARDS_FILE, SUMMARY_FILE, REPORT_FILE)


def _schema(columns: tuple[str, ...], meta: dict[str, Any]) -> pa.Schema:
    return pa.schema([(c, pa.type_for_alias(TYPES.get(c, ROW_TYPE))) for c in columns],
                     metadata={META_KEY: json.dumps(meta, sort_keys=True).encode()})


def table(columns: dict[str, list[Any]], schema: pa.Schema) -> pa.Table:
    return pa.Table.from_pydict(columns, schema=schema)


class RunFiles:
    """The two Parquet files of a run in `folder` (a fresh one: the run's hidden folder), open
    until `close`."""

    def __init__(self, folder: Path, scorepad: tuple[str, ...], meta: dict[str, Any]):
        self.folder = folder
        self.games_schema = _schema(game_columns(scorepad), meta)
        self.cards_schema = _schema(CARD_COLUMNS, meta)
        self.failed: OSError | None = None  # the write that failed, if one did
        # opened here, not by pyarrow, which takes a path as UTF-8 text and so cannot reach a
        # folder whose name is not (bytes a Python path holds as surrogates)
        self._out = [open(folder / name, "xb")  # noqa: SIM115 - closed by close or abandon
                     for name in (GAMES_FILE, CARDS_FILE)]
        self._games = pq.ParquetWriter(self._out[0], self.games_schema)
        self._cards = pq.ParquetWriter(self._out[1], self.cards_schema)

    def write(self, games: pa.Table, cards: pa.Table) -> None:
        """One row group in each file."""
        try:
            self._games.write_table(games)
            self._cards.write_table(cards)
        except OSError as exc:
            self.failed = exc
            raise

    def close(self) -> None:
        """Write the footers: from here the files are readable. After a failed write (a full
        disk) the write's error is raised again instead: pyarrow closes a writer whose bytes
        did not all reach the disk without a word, and such a run must not replace any."""
        if self.failed is not None:
            self.abandon()
            raise self.failed
        try:
            self._games.close()
            self._cards.close()
            for fh in self._out:
                fh.close()  # a write that fails only now (a full disk) is raised here
        except BaseException:
            self.abandon()
            raise

    def abandon(self) -> None:
        """Close what can be closed; the caller discards the folder."""
        for closing in (self._games, self._cards, *self._out):
            with contextlib.suppress(Exception):
                closing.close()
