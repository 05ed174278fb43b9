"""A simulation from start to end: chunks out to an engine, rows into the files in game order,
counts added up as the rows are written, and the summary and report once the games are done
or the run is stopped.

Every file is written into the run's hidden folder (simulation/folder.py), which takes the
place of the run's folder only once all four are whole; a run that fails (a full disk, a name
that cannot be written) leaves the folder as it was.

A stop (Ctrl-C, SIGTERM) gives out no more chunks, waits for those in flight, writes every
finished game's rows, closes the Parquet files and writes a summary that says how many games it
holds; a second Ctrl-C changes nothing, so the files are never left half-closed.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grove import __version__
from grove.compiler.cardset import CardSet
from grove.engine.record import digest
from grove.files.write import write_text
from grove.simulation import executors
from grove.simulation.folder import Staging, commit, discard
from grove.simulation.plan import Plan, chunk_size
from grove.simulation.sinks import REPORT_FILE, SUMMARY_FILE, RunFiles, table
from grove.simulation.worker import Batch, Failure, fingerprint, species_ids

if TYPE_CHECKING:
    import pyarrow as pa

# What writes, adds up and reports a run (pyarrow, jinja2, scipy.special and the report's
# template: 0.4 s) is loaded once the first chunks are given out (`_play`), so the workers play
# meanwhile: before, two workers waited for it, and for the fork server, 0.4 s of a 600-game
# run's 1.75 s, and the summary waited after the last game for scipy and the template, 0.2 s.

LISTED_FAILURES = 100  # failed games the summary lists one by one (all are counted)


def row_group_games(games: int) -> int:
    """Games gathered into one row group of each file: about twenty groups a run, from 50 to
    500 games each (a group of 500 base games is about 30,000 rows of cards.parquet)."""
    return max(50, min(500, games // 20))


@dataclass(frozen=True)
class Outcome:
    folder: Path
    summary: dict[str, Any]
    failed: tuple[Failure, ...]
    interrupted: bool
    kept: Path | None = None  # the folder's complete run, kept where a stopped run went beside


def run_facts(plan: Plan, cardset: CardSet) -> dict[str, Any]:
    """What a run was asked, kept in both Parquet files (so `grove compare` knows what it
    compares) and at the head of the summary."""
    return {"edition": plan.edition, "with": list(plan.expansions), "ai": list(plan.ais),
            "seed": plan.seed, "rotate": plan.rotate, "games_asked": plan.games,
            "scorepad": list(cardset.scorepad), "digest": digest(cardset),
            "cards": card_folders(cardset), "grove": __version__}


def card_folders(cardset: CardSet) -> list[str]:
    """Each edition's folder, `shipped:ID` for grove's own: a report against another run names
    both card sets by folder and digest, and a temporary copy's path says it was one."""
    from grove.compiler.search_path import shipped_cards_dir

    shipped = shipped_cards_dir().resolve()
    out = []
    for e in cardset.editions:
        folder = Path(e.folder).resolve()
        out.append(f"shipped:{e.id}" if folder.parent == shipped else str(folder))
    return out


def species_facts(cardset: CardSet) -> list[Any]:
    """What the summary says of each species besides its counts: name, cost, kind, its rules as
    written and the species it shares a card with."""
    from grove.simulation.summary import SpeciesFacts

    ids = species_ids(cardset)
    partners: dict[str, set[str]] = {k: set() for k in cardset.species}
    for card in cardset.deck:
        keys = {h[0] for h in card.halves}
        for k in keys:
            partners.setdefault(k, set()).update(keys - {k})
    return [SpeciesFacts(ids[k], sp.name("en"), sp.cost, sp.kind,
                         tuple(sorted((f, r.text) for f, r in sp.rule_texts.items())),
                         tuple(sorted(ids[o] for o in partners.get(k, ()) if o in ids)))
            for k, sp in cardset.species.items()]


def engine_for(plan: Plan, cardset: CardSet, jobs: int, cluster: str | None
               ) -> executors.Engine:
    files = fingerprint(cardset)
    if cluster is not None:
        return executors.Cluster(plan, files, jobs, cluster)
    if jobs == 1:
        return executors.InProcess(plan, files, cardset)
    return executors.Processes(plan, files, jobs, cardset)


class Stop:
    """Set by SIGINT (Ctrl-C) or SIGTERM while a run is on: the run then stops giving out
    chunks and ends as it would at its last game. A flag, not an exception: an exception could
    land inside a write of the files or between writing rows and counting them."""

    def __init__(self) -> None:
        self.signal: int | None = None

    def __call__(self, signum: int, frame: Any) -> None:
        self.signal = signum

    def __bool__(self) -> bool:
        return self.signal is not None


@contextlib.contextmanager
def stop_on_signals() -> Iterator[Stop]:
    """SIGINT and SIGTERM set the flag until the run's files are all written. A SIGINT that
    the shell ignores (`nohup`, a background job) stays ignored."""
    stop = Stop()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    for sig, handler in before.items():
        if handler is not signal.SIG_IGN:
            signal.signal(sig, stop)
    try:
        yield stop
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)


class _Writer:
    """Batches into row groups, in game order where the chunks allow, each counted once."""

    def __init__(self, files: RunFiles, group: int):
        from grove.simulation.aggregate import Totals

        self.files = files
        self.group = group
        self.totals = Totals()
        self.games: list[pa.Table] = []
        self.cards: list[pa.Table] = []
        self.held = 0
        self.failed: list[Failure] = []  # the first LISTED_FAILURES by game
        self.failures = 0

    def add(self, batch: Batch) -> None:
        if batch.failed:
            self.failures += len(batch.failed)
            self.failed = sorted([*self.failed, *batch.failed],
                                 key=lambda f: f.game)[:LISTED_FAILURES]
        if not batch.played:
            return
        self.games.append(table(batch.games, self.files.games_schema))
        self.cards.append(table(batch.cards, self.files.cards_schema))
        self.held += batch.played
        if self.held >= self.group:
            self.flush()

    def flush(self) -> None:
        import pyarrow as pa

        if not self.games:
            return
        games, cards = pa.concat_tables(self.games), pa.concat_tables(self.cards)
        self.games, self.cards, self.held = [], [], 0
        self.files.write(games, cards)
        self.totals.add_games(games)
        self.totals.add_cards(cards)


def simulate(plan: Plan, cardset: CardSet, engine: executors.Engine, staging: Staging,
             on_progress: Callable[[int], None] | None = None) -> Outcome:
    """Play the run into `staging` and put it in the place of the run's folder (`commit`).
    On any failure the staged run is discarded and the folder is as it was; a stop (Ctrl-C,
    SIGTERM) ends the games early, and the run of the games finished takes the folder's place
    as a whole run does, unless the folder holds a complete run: it then goes beside it."""
    # the signals only set the flag until the new run has taken its place, so a SIGTERM
    # while the files are renamed cannot cut the renames short
    with stop_on_signals() as stop:
        try:
            outcome = _play(plan, cardset, engine, staging.path, on_progress, stop)
            went = commit(staging, stopped=outcome.interrupted)
        except BaseException:
            discard(staging)
            raise
    if went != staging.target:  # a stopped run beside the complete one the folder keeps
        return Outcome(went, outcome.summary, outcome.failed,
                       outcome.interrupted, kept=staging.shown)
    return Outcome(staging.shown, outcome.summary, outcome.failed, outcome.interrupted)


def _play(plan: Plan, cardset: CardSet, engine: executors.Engine, folder: Path,
          on_progress: Callable[[int], None] | None, stop: Stop) -> Outcome:
    workers = engine.workers
    chunks = plan.chunks(chunk_size(plan.games, workers), workers)
    facts = run_facts(plan, cardset)
    waiting: dict[int, Batch] = {}  # finished chunks that wait for an earlier one
    opened: list[_Writer] = []

    def open_files() -> None:  # once the first chunks are out: the workers play meanwhile
        opened.append(_Writer(RunFiles(folder, cardset.scorepad, facts),
                              row_group_games(plan.games)))
        # what the summary and the report take, loaded and compiled now rather than after the
        # last game, when the workers are gone and this process alone runs: 0.2 s of 600 games
        from grove.simulation import report, statistics, summary  # noqa: F401 - used at the end

        statistics.ready()
        report.ready()

    try:
        nxt = 0
        results = executors.dispatch(engine, plan, chunks, 2 * workers, 4 * workers + 4,
                                     stop.__bool__, open_files)
        with contextlib.closing(results):
            for batch in results:
                if on_progress is not None:
                    on_progress(batch.chunk.games)
                waiting[batch.chunk.index] = batch
                while nxt in waiting:
                    opened[0].add(waiting.pop(nxt))
                    nxt += 1
        if not opened:  # stopped before any chunk was given out: a run of no games
            open_files()
    except BaseException:
        for w in opened:
            w.files.abandon()
        raise
    finally:
        engine.close()
    writer = opened[0]
    files = writer.files
    if files.failed is None:
        with contextlib.suppress(OSError):  # kept in files.failed, raised by close
            for i in sorted(waiting):  # after a stop: finished games behind an unfinished one
                writer.add(waiting.pop(i))
            writer.flush()
    files.close()
    # a stop from here on comes after the last game: the run is whole and says so
    stopped = bool(stop)
    failed = tuple(writer.failed)
    run = {k: v for k, v in facts.items() if k not in ("scorepad", "grove")}
    run.update({
        "complete": not stopped and not writer.failures,
        "stopped": stopped,
        "games_failed": writer.failures,
        "failed": [{"game": f.game, "seed": f.seed, "ai": list(f.seating), "error": f.error}
                   for f in failed],
    })
    from grove.simulation.report import render
    from grove.simulation.summary import summarize, to_json

    summary = summarize(writer.totals, run, species_facts(cardset))
    write_text(folder / SUMMARY_FILE, to_json(summary))
    write_text(folder / REPORT_FILE, render(summary, writer.totals))
    return Outcome(folder, summary, failed, stopped)
