"""A worker killed while it sends its result back (issue 48's full runs: a `grove simulate` on
two workers hung for good when the test that kills a worker at random hit that moment).

CPython's pool then waits for the rest of the message, and its other workers for the lock on
the pipe the dead one held; `executors.unstick` breaks such a pool, which the run's loop calls
once a dead worker's pool has been quiet for `executors.GRACE` seconds."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

import pytest

from grove.simulation import executors

PAYLOAD = 64 * 1024 * 1024  # bytes: a result whose sending takes long enough to be cut


def _killed_while_sending(delay: float) -> bytes:
    """A large result, and this worker killed `delay` seconds after it is made: while it is
    pickled, sent, or once it is sent, as the moment falls."""
    data = bytes(PAYLOAD)
    threading.Timer(delay, os.kill, (os.getpid(), signal.SIGKILL)).start()
    return data


def _slow_small() -> int:
    time.sleep(30)
    return 1


def _outcome(pool: ProcessPoolExecutor, futures: list) -> tuple[str, bool]:
    """Wait as the run's loop waits (`WAKE` at a time, `unstick` after `GRACE` quiet): what
    the first chunk's future ends with, and whether `unstick` had to break the pool."""
    begun, quiet, unstuck = time.monotonic(), None, False
    while time.monotonic() - begun < 30:
        done, _ = wait(futures, executors.WAKE, return_when=FIRST_COMPLETED)
        if done:
            try:
                next(iter(done)).result()
            except BrokenProcessPool:
                return "broken", unstuck
            return "finished", unstuck
        quiet = quiet or time.monotonic()
        if time.monotonic() - quiet > executors.GRACE and executors.unstick(pool):
            quiet, unstuck = None, True
    return "hung", unstuck


def _kills() -> list[tuple[str, bool]]:
    """The kill comes a little later each time, until one lands in the middle of the send: that
    pool hangs until `unstick` breaks it."""
    ends = []
    for step in range(40):
        pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork"))
        try:
            futures = [pool.submit(_killed_while_sending, step * 0.005), pool.submit(_slow_small)]
        except BrokenProcessPool:  # the worker died before the second chunk was handed over
            ends.append(("broken", False))  # (a loaded machine, a kill at once): seen broken
        else:
            ends.append(_outcome(pool, futures))
        finally:
            executors.unstick(pool)
            pool.shutdown(wait=False, cancel_futures=True)
        if ends[-1][1]:
            break
    return ends


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="forks")
def test_a_pool_whose_worker_died_sending_breaks_and_does_not_hang():
    """Every pool ends broken, none hung, and one needed `unstick`. In a process of its own: a
    pool that hangs holds its process at exit too, and would hold the test's worker."""
    run = subprocess.run([sys.executable, __file__], capture_output=True, text=True, timeout=180,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert run.returncode == 0, run.stderr[-2000:]
    ends = json.loads(run.stdout)
    assert all(what == "broken" for what, _ in ends), ends
    assert ends[-1][1], f"no kill landed in a send: {ends}"


def test_a_pool_without_a_dead_worker_is_left_alone():
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
    try:
        future = pool.submit(time.sleep, 0.5)
        wait([future], 5)
        assert not executors.unstick(pool)  # its worker lives on, idle
        assert pool.submit(int, "7").result(timeout=10) == 7
    finally:
        pool.shutdown(wait=True)


if __name__ == "__main__":
    print(json.dumps(_kills()))
