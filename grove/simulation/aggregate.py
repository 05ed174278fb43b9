"""A run's rows added up into exact counts: the only thing the summary, the report and compare
read.

Every figure grove prints about a run is a ratio of integer counts and sums (wins, totals, their
squares, copies, points), and integers add up to the same number in any order. So the summary
does not depend on which game finished first or which worker played it, and a run is added up
from its files a row group at a time, in memory that does not grow with the number of games.
The sums are taken by pyarrow's group-by, column by column, not row by row in Python.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

# the columns the counts read, and nothing else of the files
COUNTED_GAMES = ("game", "seat", "ai", "total", "winner", "turns")
COUNTED_CARDS = ("game", "species", "copies", "points", "winner")


@dataclass
class Moments:
    """Count, wins, sum and sum of squares of one integer figure of a group of rows."""

    n: int = 0
    wins: int = 0
    sum: int = 0
    sumsq: int = 0
    low: int | None = None
    high: int | None = None

    def add(self, n: int, wins: int, total: int, sumsq: int, low: int, high: int) -> None:
        self.n += n
        self.wins += wins
        self.sum += total
        self.sumsq += sumsq
        self.low = low if self.low is None else min(self.low, low)
        self.high = high if self.high is None else max(self.high, high)


@dataclass
class SpeciesCounts:
    """One species over the forests that hold it: how many, and what they scored and won."""

    plays: int = 0  # forests (game and seat) holding at least one copy
    wins: int = 0  # of those, forests whose player won
    copies: int = 0
    copies_sq: int = 0  # sum over forests of copies squared (0 where none)
    points: int = 0
    points_sq: int = 0


@dataclass
class Totals:
    games: int = 0
    forests: Moments = field(default_factory=Moments)  # every seat of every game: totals, wins
    seats: dict[int, Moments] = field(default_factory=dict)
    ais: dict[str, Moments] = field(default_factory=dict)
    turns: Moments = field(default_factory=Moments)  # one per game
    seat_scores: dict[int, Counter[int]] = field(default_factory=dict)  # seat -> total -> count
    ai_scores: dict[str, Counter[int]] = field(default_factory=dict)
    species: dict[str, SpeciesCounts] = field(default_factory=dict)

    def add_games(self, rows: pa.Table) -> None:
        if rows.num_rows == 0:
            return
        rows = rows.append_column("total_sq", _squared(rows["total"]))
        moments = [("game", "count"), ("winner", "sum"), ("total", "sum"), ("total_sq", "sum"),
                   ("total", "min"), ("total", "max")]
        for key, groups in (("seat", self.seats), ("ai", self.ais)):
            for r in rows.group_by(key).aggregate(moments).to_pylist():
                groups.setdefault(r[key], Moments()).add(*_moment_values(r))
        for r in rows.group_by([]).aggregate(moments).to_pylist():
            self.forests.add(*_moment_values(r))
        for key, hists in (("seat", self.seat_scores), ("ai", self.ai_scores)):
            for r in rows.group_by([key, "total"]).aggregate([("game", "count")]).to_pylist():
                hists.setdefault(r[key], Counter())[r["total"]] += r["game_count"]
        first = rows.filter(pc.equal(rows["seat"], 1))  # a game's turns, once per game
        self.games += first.num_rows
        if first.num_rows:
            first = first.append_column("turns_sq", _squared(first["turns"]))
            r = first.group_by([]).aggregate([
                ("turns", "count"), ("turns", "sum"), ("turns_sq", "sum"), ("turns", "min"),
                ("turns", "max")]).to_pylist()[0]
            self.turns.add(r["turns_count"], 0, r["turns_sum"], r["turns_sq_sum"],
                           r["turns_min"], r["turns_max"])

    def add_cards(self, rows: pa.Table) -> None:
        if rows.num_rows == 0:
            return
        rows = rows.append_column("copies_sq", _squared(rows["copies"]))
        rows = rows.append_column("points_sq", _squared(rows["points"]))
        for r in rows.group_by("species").aggregate([
                ("game", "count"), ("winner", "sum"), ("copies", "sum"), ("copies_sq", "sum"),
                ("points", "sum"), ("points_sq", "sum")]).to_pylist():
            s = self.species.setdefault(r["species"], SpeciesCounts())
            s.plays += r["game_count"]
            s.wins += r["winner_sum"]
            s.copies += r["copies_sum"]
            s.copies_sq += r["copies_sq_sum"]
            s.points += r["points_sum"]
            s.points_sq += r["points_sq_sum"]


def _squared(column: pa.ChunkedArray) -> pa.ChunkedArray:
    wide = pc.cast(column, pa.int64())
    return pc.multiply(wide, wide)


def _moment_values(r: dict) -> tuple[int, int, int, int, int, int]:
    return (r["game_count"], r["winner_sum"] or 0, r["total_sum"], r["total_sq_sum"],
            r["total_min"], r["total_max"])


class BadRows(ValueError):
    """Rows no run of grove's holds: an empty value where every row has one."""


def _whole(batch: pa.RecordBatch, columns: tuple[str, ...], file: Path) -> pa.Table:
    """The batch as a table, refused (`BadRows`) when a column the counts read has an empty
    (null) value: a count would take it for nothing, or for 0, without a word."""
    from grove.simulation.folder import shown

    for name in columns:
        nulls = batch.column(name).null_count
        if nulls:
            raise BadRows(f"{shown(file)}: column {name} has {nulls} empty values")
    return pa.Table.from_batches([batch])


def read_totals(games: Path, cards: Path, batch_rows: int = 1 << 16) -> Totals:
    """A run's counts from its two files, a batch of rows at a time; `BadRows` if a column the
    counts read has an empty value."""
    totals = Totals()
    # opened here: pyarrow takes a path as UTF-8 text, which a folder's name need not be
    with open(games, "rb") as fh:
        for batch in pq.ParquetFile(fh).iter_batches(batch_size=batch_rows,
                                                     columns=list(COUNTED_GAMES)):
            totals.add_games(_whole(batch, COUNTED_GAMES, games))
    with open(cards, "rb") as fh:
        for batch in pq.ParquetFile(fh).iter_batches(batch_size=batch_rows,
                                                     columns=list(COUNTED_CARDS)):
            totals.add_cards(_whole(batch, COUNTED_CARDS, cards))
    return totals
