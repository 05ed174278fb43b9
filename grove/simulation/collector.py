"""Python's cyclic garbage collector as a process sets it while it plays a batch of games.

A game keeps about a thousand objects alive while it runs (its forests and the engine's answers
about them). With the collector's defaults (a collection of the youngest objects every 700 net
allocations) that sets off a young collection about once a game, which finds nothing to free
since the game is still running; each of those objects is walked again in the older generations,
and every few hundred games a full collection walks the card set, its compiled rules and the memo.
A finished game also left a few hundred objects in cycles (a host and its cards point at each
other, the forests of a table at each other), which only the collector could free.

So a batch (`worker.play_chunk`) does two things. It puts each game away with `Game.release`,
which unlinks those cycles, so reference counting frees a game as it ends. And it runs inside
`batch_collector()`: what is loaded before it (card set, compiled rules, memo, modules) is left
out of the walks (`gc.freeze`), and the youngest objects are collected after 10,000 net
allocations, so a running game's objects are walked less often. Over 1,000 random two-player base
games sharing a memo (`python -m benchmarks --only collector`, `gc.callbacks`), the collector
took 9.5% of a game's time before either, 4.7% with this setting alone, and 0.3% with both
(released games under Python's defaults: 5.5%); greedy games 4.5%, 2.6% and 0.2%. Leaving
restores the settings as they were.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG = 10_000  # net allocations between collections of the youngest objects (Python: 700)


class _Batches:
    """The batches running in this process now. The collector is the whole process's, and a
    Dask worker may play chunks on several threads at once: the first batch to start sets it,
    and the last to end restores it, whatever order they end in."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = 0
        self.before: tuple[int, int, int] = gc.get_threshold()
        self.froze = False  # whether the running batches froze what was alive as they began


_BATCHES = _Batches()


@contextmanager
def batch_collector(young: int = YOUNG) -> Iterator[None]:
    """Within: the objects alive at the start are left out of collections (where the process
    has frozen none of its own), and the youngest are collected after `young` net allocations;
    both undone on leaving, once no other batch of this process runs."""
    batches = _BATCHES
    with batches.lock:
        if batches.running == 0:
            batches.before = gc.get_threshold()
            # a process that froze objects of its own (a test worker, a program that plays
            # games in-process) keeps its freeze as it is: the collector cannot give back a
            # part of what is frozen, and unfreezing at the end would take the process's too
            batches.froze = gc.get_freeze_count() == 0
            if batches.froze:
                gc.freeze()
            gc.set_threshold(young, *batches.before[1:])
        batches.running += 1
    try:
        yield
    finally:
        with batches.lock:
            batches.running -= 1
            if batches.running == 0:
                gc.set_threshold(*batches.before)
                if batches.froze:
                    gc.unfreeze()
