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
COUNTED_CARDS = ("game", "species", "ai", "copies", "points", "winner")
DRAWN = "drawn"  # counted where the file has it (runs before it was written lack it)
PAID = "paid"  # likewise


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
    """One species over the forests that hold it (and those whose player drew it): how many,
    and what they scored and won."""

    plays: int = 0  # forests (game and seat) holding at least one copy
    wins: int = 0  # of those, forests whose player won
    copies: int = 0
    copies_sq: int = 0  # sum over forests of copies squared (0 where none)
    points: int = 0
    points_sq: int = 0
    points_copies: int = 0  # sum over forests of points times copies: a per-copy mean's spread
    drawn: int = 0  # forests whose player drew at least one card bearing the species
    drawn_wins: int = 0
    paid: int = 0  # cards paid to play its copies
    paid_sq: int = 0  # sum over forests of paid squared
    paid_copies: int = 0  # sum over forests of paid times copies: a per-copy ratio's spread

    def add(self, other: SpeciesCounts) -> None:
        for name in _SPECIES_FIELDS:
            setattr(self, name, getattr(self, name) + getattr(other, name))


_SPECIES_FIELDS = ("plays", "wins", "copies", "copies_sq", "points", "points_sq",
                   "points_copies", "drawn", "drawn_wins", "paid", "paid_sq", "paid_copies")


@dataclass
class Totals:
    games: int = 0
    forests: Moments = field(default_factory=Moments)  # every seat of every game: totals, wins
    seats: dict[int, Moments] = field(default_factory=dict)
    ais: dict[str, Moments] = field(default_factory=dict)
    turns: Moments = field(default_factory=Moments)  # one per game
    seat_scores: dict[int, Counter[int]] = field(default_factory=dict)  # seat -> total -> count
    ai_scores: dict[str, Counter[int]] = field(default_factory=dict)
    species: dict[str, SpeciesCounts] = field(default_factory=dict)  # every AI's together
    # species -> AI kind -> its counts in that AI's forests; they add up to `species`
    species_ai: dict[str, dict[str, SpeciesCounts]] = field(default_factory=dict)
    drawn: bool = True  # whether the rows said what each seat drew (runs before did not)
    paid: bool = True  # whether the rows said what each play was paid (runs before did not)

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
        """Add rows of `cards.parquet`: a row holds a species its seat played (`copies` > 0),
        drew (`drawn` > 0), or both. Rows without `drawn` (an older run) are all of played
        species, and the run's drawn figures are unknown; rows without `paid` leave what was
        paid unknown (counted as nothing)."""
        if DRAWN not in rows.column_names:
            self.drawn = False
            rows = rows.append_column(DRAWN, rows["copies"])
        if PAID not in rows.column_names:
            self.paid = False
            rows = rows.append_column(PAID, pc.multiply(rows["copies"], 0))
        if rows.num_rows == 0:
            return
        wide = pc.cast(rows["copies"], pa.int64())
        played = pc.cast(pc.greater(wide, 0), pa.int64())
        held = pc.cast(pc.greater(rows[DRAWN], 0), pa.int64())
        won = pc.cast(rows["winner"], pa.int64())
        rows = pa.table({
            "species": rows["species"], "ai": rows["ai"],
            "plays": played, "wins": pc.multiply(played, won),
            "copies": wide, "copies_sq": _squared(rows["copies"]),
            "points": pc.cast(rows["points"], pa.int64()), "points_sq": _squared(rows["points"]),
            "points_copies": pc.multiply(pc.cast(rows["points"], pa.int64()), wide),
            "drawn": held, "drawn_wins": pc.multiply(held, won),
            "paid": pc.cast(rows[PAID], pa.int64()), "paid_sq": _squared(rows[PAID]),
            "paid_copies": pc.multiply(pc.cast(rows[PAID], pa.int64()), wide)})
        for r in rows.group_by(["species", "ai"]).aggregate(
                [(name, "sum") for name in _SPECIES_FIELDS]).to_pylist():
            counts = SpeciesCounts(**{name: r[f"{name}_sum"] for name in _SPECIES_FIELDS})
            self.species.setdefault(r["species"], SpeciesCounts()).add(counts)
            self.species_ai.setdefault(r["species"], {}).setdefault(
                r["ai"], SpeciesCounts()).add(counts)


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
        parquet = pq.ParquetFile(fh)
        counted = COUNTED_CARDS + tuple(c for c in (DRAWN, PAID)
                                        if c in parquet.schema_arrow.names)
        for batch in parquet.iter_batches(batch_size=batch_rows, columns=list(counted)):
            totals.add_cards(_whole(batch, counted, cards))
    return totals
