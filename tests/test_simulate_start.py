"""How a run on worker processes starts: the fork server first, the first chunks out before the
parent loads what writes and sums the rows, so the workers never wait for the parent.

On 600 random base games the workers waited 0.2 s for the fork server and the parent's imports
of pyarrow and the summary before the first game (of a 1.75 s run); these tests hold the order
that removed the wait, in-process and in a few quick subprocesses (no games are played)."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass

from grove.simulation.executors import dispatch
from grove.simulation.plan import Plan


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
