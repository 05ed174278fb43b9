"""How a run on worker processes starts: workers forked from the run once it holds the card set
(or, where forking is not safe, from a fork server started first), the first chunks out before
the parent loads what writes and sums the rows, so the workers never wait for the parent.

On 600 random base games the workers waited 0.2 s for the fork server and the parent's imports
of pyarrow and the summary before the first game (of a 1.75 s run), and forked workers begin
0.5 s sooner than the fork server's; these tests hold the order that removed the wait,
in-process and in a few quick subprocesses (a few games at most)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from grove.simulation.executors import dispatch
from grove.simulation.plan import Plan

REPO = Path(__file__).resolve().parents[1]


@dataclass
class Recorder:
    """An engine that plays nothing: each chunk comes back at the first wait."""

    events: list[str]
    retries: int = 0
    workers: int = 2

    def submit(self, chunk):
        self.events.append(f"submit {chunk.index}")
        return chunk

    def wait(self, futures, timeout):
        self.events.append("wait")
        return futures[:1]

    def outcome(self, future):
        from grove.simulation.worker import Batch

        return Batch(future, {}, {}, ())

    def close(self) -> None:
        self.events.append("close")


def test_the_caller_is_told_once_as_soon_as_the_first_chunks_are_out():
    plan = Plan("base", (), ("random", "random"), 10, 0, False, ())
    events: list[str] = []
    got = list(dispatch(Recorder(events), plan, plan.chunks(2), 3, 8,
                        started=lambda: events.append("started")))
    assert [b.chunk.index for b in got] == [0, 1, 2, 3, 4]
    assert events[:5] == ["submit 0", "submit 1", "submit 2", "started", "wait"]
    assert events.count("started") == 1 and events[-1] == "close"


def test_nothing_is_begun_when_the_run_is_stopped_before_its_first_chunk():
    plan = Plan("base", (), ("random", "random"), 10, 0, False, ())
    events: list[str] = []
    assert list(dispatch(Recorder(events), plan, plan.chunks(2), 3, 8, lambda: True,
                         lambda: events.append("started"))) == []
    assert events == ["close"]


def _loaded(code: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", code + "; import sys; print(' '.join(m for m in "
                          "('grove.engine.game', 'numpy', 'pyarrow', 'jinja2', 'scipy') "
                          "if m in sys.modules))"],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    return set(out.split())


def test_the_fork_server_can_start_before_the_engine_is_loaded():
    """`api.simulate` starts it first thing: importing what starts it loads no engine."""
    assert _loaded("from grove.simulation.executors import start_fork_server") == set()


def test_a_runs_folder_is_prepared_without_pyarrow():
    """The run's folder is staged, and its chunks given out, before pyarrow is imported."""
    assert "pyarrow" not in _loaded(
        "import grove.simulation.folder, grove.simulation.sinks, grove.simulation.run")


HAND_OVER = """
import sys
import threading

from grove.compiler.cardset import build
from grove.compiler.search_path import search_path
from grove.simulation.executors import Processes, dispatch, may_fork
from grove.simulation.plan import Plan
from grove.simulation.worker import fingerprint

if sys.argv[2] == "thread":  # a thread of the caller's, waiting until the end
    threading.Thread(target=threading.Event().wait, daemon=True).start()
cardset = build("base", (), search_path((sys.argv[1],), env={}))
# roots (): a worker that reads the card set itself finds the shipped base, not this one
plan = Plan("base", (), ("random", "random"), 4, 0, False, ())
engine = Processes(plan, fingerprint(cardset), 2, cardset)
batches = list(dispatch(engine, plan, plan.chunks(2), 2, 8))
print(may_fork(), sum(b.played for b in batches),
      sorted({f.error.split(" (")[0] for b in batches for f in b.failed}))
"""


def test_forked_workers_play_the_runs_own_card_set_and_a_thread_gets_the_fork_server(tmp_path):
    """The run's card set here is an author's changed copy of base, and the plan names no
    folder of it: a worker forked from the run plays the copy it was handed, one started by the
    fork server (the process runs a thread of its own: no fork) reads the shipped base from
    disk and refuses the games. Two subprocesses of four games each (a clean process forks)."""
    from tests.test_simulate import changed_copy

    changed_copy(tmp_path)

    def run(mode: str) -> str:
        return subprocess.run([sys.executable, "-c", HAND_OVER, str(tmp_path), mode],
                              capture_output=True, text=True, timeout=120, check=True
                              ).stdout.strip()

    assert run("alone") == "True 4 []"
    assert run("thread") == ("False 0 ['RuntimeError: this worker reads other card files for "
                             "base than the run started with']")


def test_a_chunk_a_broken_pool_cancelled_is_lost_not_waited_for():
    """A pool that breaks is shut down with its waiting chunks cancelled, and no thread of it is
    left to tell `wait` so: such a chunk is handed back at once as lost (played again), where
    it once left the run waiting for ever while its workers were being killed."""
    from concurrent.futures import Future

    import pytest

    from grove.simulation.executors import Processes, WorkerLost

    engine = Processes(None, None, 1)  # type: ignore[arg-type]
    try:
        cancelled, pending = Future(), Future()
        assert cancelled.cancel()
        assert engine.wait([pending, cancelled], 30) == [cancelled]
        with pytest.raises(WorkerLost):
            engine.outcome(cancelled)
    finally:
        engine.close()
