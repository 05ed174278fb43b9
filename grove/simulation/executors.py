"""Where a run's chunks are played: in this process, on worker processes of this machine
(`concurrent.futures`), or on a Dask cluster (`distributed`, a local one or a running one).

`dispatch` feeds chunks to an engine and yields their results as they finish. It keeps a bounded
number of chunks in flight and never runs ahead of the oldest unfinished chunk by more than a
window, so the rows waiting to be written in game order stay few however long the run.

A worker that dies takes its chunks with it. On this machine they are run once more on a fresh
pool; on a cluster the scheduler does that itself (`allowed-failures`, set to 1 for a local
cluster). A chunk lost a second time is reported game by game, and the run goes on.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.context import BaseContext
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # the worker's module (the engine, numpy) is imported where it is used, so
    # that `start_fork_server` can be called before this process has loaded it
    from grove.compiler.cardset import CardSet
    from grove.simulation.plan import Chunk, Plan
    from grove.simulation.worker import Batch, Fingerprint

WAKE = 0.25  # seconds a wait for the next chunk lasts at most, so that a stop is seen soon
GRACE = 2.0  # seconds a pool with a dead worker is given to find that out itself (`unstick`)
# what the fork server imports before it forks a worker: the engine and the card-set reader
WORKER_MODULE = "grove.simulation.worker"


def may_fork() -> bool:
    """Whether workers may be forked from this process: on Linux, while it runs no thread of
    Python's but its own. A fork copies the calling thread alone, and a lock another thread held
    at that moment (of a logger, of a stream, of a user's object) stays held in the worker for
    good. The threads of the libraries below grove are not Python's and are ready for a fork
    (`pthread_atfork`): numpy's BLAS pool, and pyarrow's memory pool (loaded when `--out` names
    an earlier run), which a worker never calls. `grove simulate` starts no thread before its
    workers; a program that calls `api.simulate` with threads of its own gets the fork server."""
    return (sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()
            and threading.active_count() == 1)


def worker_context() -> BaseContext:
    """The way worker processes start when they are not forked from the run (`may_fork`): from
    a fork server (a clean process that has imported the engine and nothing else: no threads of
    pyarrow or of the progress bar to copy) where the system has one, else each one fresh."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([WORKER_MODULE])
    return context


def start_fork_server() -> None:
    """Start the fork server now, without waiting for it, unless the workers will be forked
    from this process (`may_fork`). It takes a few tenths of a second to import the engine, and
    the first worker waited for that: 0.2 s of a 600-game run on two workers in which nothing
    else ran. Started first, it imports while this process reads the card set and opens the
    run's files."""
    if not may_fork() and "forkserver" in multiprocessing.get_all_start_methods():
        from multiprocessing import forkserver

        worker_context()
        forkserver.ensure_running()


def unstick(pool: ProcessPoolExecutor) -> bool:
    """Break `pool` where one of its workers has died, and say whether it did. The pool's own
    thread finds a dead worker and breaks the pool, but not one killed while it wrote a result:
    that thread then waits for the rest of the message for good, and the pool's other workers
    for the lock on the pipe the dead one held (a run on two workers hung so, its worker killed
    at random by a test). Killing the other workers and closing this process's end of that
    pipe ends the wait: the thread reads the pipe's end and breaks the pool as for any lost
    worker. This reaches into the pool (`_processes`, `_result_queue`), CPython's since 3.8."""
    workers = list((getattr(pool, "_processes", None) or {}).values())
    if not any(w.exitcode is not None for w in workers):
        return False
    for w in workers:
        if w.exitcode is None:
            with contextlib.suppress(OSError):
                w.kill()
    queue = getattr(pool, "_result_queue", None)
    with contextlib.suppress(OSError, AttributeError):
        queue._writer.close()
    return True


class WorkerLost(Exception):
    """The process playing a chunk died: the chunk may be run again."""


class ChunkFailed(Exception):
    """A chunk that raised, or whose worker was lost as often as allowed: not run again."""


class Engine(Protocol):
    retries: int  # how many more times `dispatch` runs a chunk whose worker was lost
    workers: int  # how many chunks it plays at once

    def submit(self, chunk: Chunk) -> Any: ...
    def wait(self, futures: list[Any], timeout: float) -> list[Any]: ...
    def outcome(self, future: Any) -> Batch: ...
    def close(self) -> None: ...


def lost_games(plan: Plan, chunk: Chunk, reason: str) -> Batch:
    """A chunk given up on: no rows, each of its games reported with its seed."""
    from grove.simulation.worker import Batch, Failure

    failed = tuple(Failure(i, plan.game_seed(i), plan.seating(i), reason)
                   for i in range(chunk.start, chunk.stop))
    return Batch(chunk, {}, {}, failed)


def dispatch(engine: Engine, plan: Plan, chunks: list[Chunk], in_flight: int, window: int,
             stopped: Callable[[], bool] = lambda: False,
             started: Callable[[], None] = lambda: None) -> Iterator[Batch]:
    """Every chunk's `Batch`, in the order they finish; `in_flight` chunks at most are given out
    at once, and none more than `window` chunks after the oldest one not yet back. Once
    `stopped()` says so, no chunk is given out or played again; the chunks in flight are
    waited for, so that every game begun is kept. `started()` is called once, as soon as the
    first chunks are given out: what the caller needs only when results come back is done
    there, while the workers play."""
    todo = deque(chunks)
    again: deque[Chunk] = deque()
    lost: dict[int, int] = {}
    running: dict[Any, Chunk] = {}
    begun = False
    try:
        while running or (not stopped() and (todo or again)):
            oldest = min([c.index for c in (*running.values(), *again)] +
                         ([todo[0].index] if todo else []))
            while not stopped() and len(running) < in_flight and (
                    again or (todo and todo[0].index < oldest + window)):
                chunk = again.popleft() if again else todo.popleft()
                running[engine.submit(chunk)] = chunk
            if not begun:
                begun = True
                started()
            for future in engine.wait(list(running), WAKE):
                chunk = running.pop(future)
                try:
                    yield engine.outcome(future)
                except WorkerLost as exc:
                    lost[chunk.index] = lost.get(chunk.index, 0) + 1
                    if lost[chunk.index] <= engine.retries and not stopped():
                        again.append(chunk)
                    elif lost[chunk.index] > engine.retries:
                        yield lost_games(plan, chunk, f"its worker was lost {lost[chunk.index]} "
                                         f"times ({exc})")
                except ChunkFailed as exc:
                    yield lost_games(plan, chunk, str(exc))
    finally:
        engine.close()


class InProcess:
    """`--jobs 1`: the chunks played here, one after the other (no process to lose)."""

    retries = 0
    workers = 1

    def __init__(self, plan: Plan, fingerprint: Fingerprint, cardset: CardSet | None = None):
        self.plan, self.fingerprint = plan, fingerprint
        if cardset is not None:  # the chunks play it as it is, not read again
            from grove.simulation.worker import SHELVES, own_shelf

            SHELVES.keep(*own_shelf(plan, cardset))
        self.collector: contextlib.ExitStack | None = None  # set by the first chunk

    def submit(self, chunk: Chunk) -> Chunk:
        return chunk

    def wait(self, futures: list[Any], timeout: float) -> list[Any]:
        return futures[:1]

    def outcome(self, future: Chunk) -> Batch:
        from grove.simulation.collector import batch_collector
        from grove.simulation.worker import play_chunk

        if self.collector is None:
            # the collector set once for all the run's games here, from the first chunk to
            # `close`, so each chunk's own setting finds it set: whether the process froze
            # objects of its own (a count of every frozen object) is asked once a run
            self.collector = contextlib.ExitStack()
            self.collector.enter_context(batch_collector())
        try:
            return play_chunk(self.plan, future, self.fingerprint)
        except Exception as exc:  # noqa: BLE001 - the card set failed to load: say so per game
            raise ChunkFailed(f"{type(exc).__name__}: {exc}") from None

    def close(self) -> None:
        if self.collector is not None:
            self.collector.close()
            self.collector = None


class Processes:
    """`--jobs J`: J worker processes of this machine. Where it may (`may_fork`), the first pool's
    workers are forked from this process once it holds the card set, and start playing at once
    with this process's card set and modules (0.5 s sooner than from the fork server, on 600
    random base games on two workers); a pool that replaces one whose worker died, or one
    started where forking is not safe, is started by a fork server (`worker_context`), and each
    of its workers reads the card set once from the on-disk cache. Each worker holds the
    reading end of a pipe whose writing end this process alone holds (`start_worker`), so the
    workers end when the run does, however it ends; with them go the fork server and the
    resource tracker, which wait only for the run and its workers."""

    retries = 1

    def __init__(self, plan: Plan, fingerprint: Fingerprint, jobs: int,
                 cardset: CardSet | None = None):
        self.plan, self.fingerprint, self.jobs, self.workers = plan, fingerprint, jobs, jobs
        self.cardset = cardset  # for the first pool's workers, if they are forked
        self.pool: ProcessPoolExecutor | None = None
        self.owner: dict[Future, ProcessPoolExecutor] = {}
        self.lifeline, self.alive = multiprocessing.Pipe(duplex=False)
        self.quiet_since: float | None = None  # since when no chunk came back (`unstick`)

    def _pool(self) -> ProcessPoolExecutor:
        from grove.simulation.worker import Inherited, own_shelf, start_worker

        if self.pool is None:
            cardset, self.cardset = self.cardset, None
            if cardset is not None and may_fork():
                # forked at the first submit, before the pool's own thread starts
                key, shelf = own_shelf(self.plan, cardset)
                context: BaseContext = multiprocessing.get_context("fork")
                initargs: tuple[Any, ...] = (self.lifeline, Inherited(self.alive, key, shelf))
            else:
                context, initargs = worker_context(), (self.lifeline,)
            self.pool = ProcessPoolExecutor(self.jobs, mp_context=context,
                                            initializer=start_worker, initargs=initargs)
        return self.pool

    def _replace(self, broken: ProcessPoolExecutor | None) -> None:
        if broken is not None and broken is self.pool:
            with contextlib.suppress(OSError):  # its wake-up pipe may be closed already
                broken.shutdown(wait=False, cancel_futures=True)
            self.pool = None

    def submit(self, chunk: Chunk) -> Future:
        from grove.simulation.worker import play_chunk

        pool = self._pool()
        try:
            future = pool.submit(play_chunk, self.plan, chunk, self.fingerprint)
        except (BrokenProcessPool, OSError) as exc:
            # broke since the last chunk came back: lost at once. A pool that breaks while the
            # chunk is handed over says so with the closed pipe it wakes its manager through
            # ("handle is closed"), not as a broken pool
            future = Future()
            future.set_exception(exc if isinstance(exc, BrokenProcessPool)
                                 else BrokenProcessPool(f"the pool broke: {exc}"))
        self.owner[future] = pool
        return future

    def wait(self, futures: list[Future], timeout: float) -> list[Future]:
        # a chunk a broken pool cancelled as it shut down is never "done" to `wait` (no manager
        # thread is left to notify it): it is lost, and played again, not waited for
        cancelled = {f for f in futures if f.cancelled()}
        done, _ = wait([f for f in futures if f not in cancelled], 0 if cancelled else timeout,
                       return_when=FIRST_COMPLETED)
        if done or cancelled or self.pool is None:
            self.quiet_since = None
        elif self.quiet_since is None:
            self.quiet_since = time.monotonic()
        elif time.monotonic() - self.quiet_since > GRACE and unstick(self.pool):
            self.quiet_since = None  # the chunks come back as lost within a wait or two
        return sorted({*done, *cancelled}, key=futures.index)

    def outcome(self, future: Future) -> Batch:
        pool = self.owner.pop(future, None)
        try:
            return future.result()
        except (BrokenProcessPool, CancelledError) as exc:
            self._replace(pool)
            raise WorkerLost("a worker process ended abruptly") from exc
        except Exception as exc:  # noqa: BLE001 - raised inside the worker
            raise ChunkFailed(f"{type(exc).__name__}: {exc}") from None

    def close(self) -> None:
        if self.pool is not None:
            # chunks not begun are dropped; the few running finish (a second or two) first
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None
        self.lifeline.close()
        self.alive.close()


class Cluster:
    """`--cluster local` starts a Dask LocalCluster of J single-threaded worker processes;
    `--cluster ADDRESS` joins a running scheduler, whose workers need grove installed and the
    card-set folders at the same paths (a worker that reads other cards refuses the chunk)."""

    retries = 0  # the scheduler runs a task again itself when its worker dies

    def __init__(self, plan: Plan, fingerprint: Fingerprint, jobs: int, address: str,
                 connect_timeout: float = 10.0):
        import dask
        from distributed import Client, LocalCluster

        self.plan, self.fingerprint = plan, fingerprint
        # the cluster's chatter is not grove's output. Not even at ERROR: a worker whose last
        # heartbeat meets a scheduler already closed at the end of a run logs a traceback
        # (seen once in a CI run); a chunk that really fails reaches grove through its future
        for name in ("distributed", "tornado"):
            logging.getLogger(name).setLevel(logging.CRITICAL)
        self.cluster = None
        if address == "local":
            with dask.config.set({"distributed.scheduler.allowed-failures": 1}):
                # the status page on a free port: None still takes 8787, and a second cluster
                # on the machine (another run, a parallel test) then warns on stderr
                self.cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                            dashboard_address=":0", silence_logs=logging.CRITICAL)
            self.client = Client(self.cluster)
        else:
            self.client = Client(address, timeout=connect_timeout)
        self.workers = max(1, sum(self.client.nthreads().values()))
        self.run = f"grove-simulate-{plan.seed}-{id(self)}"

    def submit(self, chunk: Chunk) -> Any:
        from grove.simulation.worker import play_chunk

        return self.client.submit(play_chunk, self.plan, chunk, self.fingerprint, pure=False,
                                  key=f"{self.run}-{chunk.index}")

    def wait(self, futures: list[Any], timeout: float) -> list[Any]:
        from distributed import wait as dwait

        try:
            done = dwait(futures, timeout=timeout, return_when="FIRST_COMPLETED").done
        except TimeoutError:
            return []
        return sorted(done, key=futures.index)

    def outcome(self, future: Any) -> Batch:
        from distributed import KilledWorker

        try:
            return future.result()
        except KilledWorker as exc:
            raise ChunkFailed(f"its worker was lost twice ({exc})") from None
        except Exception as exc:  # noqa: BLE001 - raised on the worker, or the connection lost
            raise ChunkFailed(f"{type(exc).__name__}: {exc}") from None

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.close()
        if self.cluster is not None:
            cluster, self.cluster = self.cluster, None
            with contextlib.suppress(Exception):
                cluster.close()
