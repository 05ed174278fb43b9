"""A batch's collector setting (grove/simulation/collector.py) holds only inside its block: whatever a
batch does, the process leaves it with the collector as it was."""

from __future__ import annotations

import gc
import threading

import pytest

from grove.compiler.cardset import build
from grove.engine.ai import make
from grove.engine.game import Game
from grove.engine.memo import Memo
from grove.simulation.collector import YOUNG, batch_collector


@pytest.fixture
def nothing_frozen():
    """The process with nothing frozen, as a grove command is, for the test; the test
    process's own freeze (tests/conftest.py) put back after it."""
    held = gc.get_freeze_count()
    gc.unfreeze()
    yield
    if held:
        gc.freeze()


def test_a_batch_freezes_what_is_loaded_and_collects_the_young_less_often(nothing_frozen):
    before = gc.get_threshold()
    with batch_collector():
        assert gc.get_threshold() == (YOUNG, *before[1:])
        assert gc.get_freeze_count() > 0  # the objects alive at the start, at least
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_a_process_that_froze_its_own_objects_keeps_them_frozen():
    """A test worker, or a program that plays games in-process, may have frozen what it loaded:
    a batch leaves that freeze as it was, neither adding to it nor taking it away (it once
    unfroze all, and the worker's collections walked every module again)."""
    gc.freeze()
    frozen = gc.get_freeze_count()  # less any that reference counting frees meanwhile
    before = gc.get_threshold()
    with batch_collector():
        assert gc.get_threshold() == (YOUNG, *before[1:])
        assert frozen - 100 < gc.get_freeze_count() <= frozen
    assert gc.get_threshold() == before
    assert frozen - 100 < gc.get_freeze_count() <= frozen


@pytest.mark.parametrize("froze", [False, True], ids=["nothing frozen", "froze its own"])
def test_a_run_on_one_job_sets_the_collector_once_for_all_its_chunks(tmp_path, monkeypatch,
                                                                     nothing_frozen, froze):
    """Whether the process froze objects of its own is a count of every frozen object,
    milliseconds where a test worker or a program froze what it loaded: a run on one job asks
    it once, not at each of its chunks (30 games: 30 chunks), and leaves the collector as it
    found it."""
    from grove import api

    if froze:
        gc.freeze()
    frozen, before = gc.get_freeze_count(), gc.get_threshold()
    counted = []
    count = gc.get_freeze_count
    monkeypatch.setattr(gc, "get_freeze_count", lambda: counted.append(1) or count())
    api.simulate("base", [], ["random", "random"], 30, 1, False, jobs=1,
                 out=str(tmp_path / "run"))
    monkeypatch.undo()
    assert len(counted) == 1
    assert gc.get_threshold() == before
    # the run's caches let some frozen objects go (5% of them): freed, not unfrozen
    assert (0.9 * frozen < gc.get_freeze_count() <= frozen) if froze else (
        gc.get_freeze_count() == 0)


def test_the_setting_is_undone_when_a_batch_fails(nothing_frozen):
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), batch_collector(young=5_000):
        assert gc.get_threshold()[0] == 5_000
        raise RuntimeError("a game failed")
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_batches_on_threads_of_one_process_restore_the_collector_when_the_last_ends(
        nothing_frozen):
    # a Dask worker with several threads plays chunks at once; they may end in any order
    before = gc.get_threshold()
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen: list[tuple[int, int, int]] = []

    def first() -> None:
        with batch_collector():
            first_in.set()
            second_in.wait(10)
        first_out.set()

    def second() -> None:
        first_in.wait(10)
        with batch_collector():
            second_in.set()
            first_out.wait(10)
            seen.append(gc.get_threshold())  # the first batch ended: still set for this one

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(20)
    assert seen == [(YOUNG, *before[1:])]
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


@pytest.mark.parametrize("edition", ["base", "smoky_mountains"])
def test_a_released_game_leaves_nothing_for_the_collector(edition):
    """A batch puts each game away with `release`: its hosts, cards and forests no longer hold
    each other, so reference counting frees them all, and a greedy player's trials of new hosts
    leave no cycle behind either."""
    cardset = build(edition)
    memo = Memo(cardset)
    gc.collect()
    gc.disable()
    try:
        for seed, kind in enumerate(["random", "greedy", "random", "greedy"]):
            game = Game(cardset, ["A", "B", "C"], seed, memo=memo)
            players = [make(kind, seed * 31 + i) for i in range(3)]
            while game.decision is not None:
                d = game.decision
                game.apply(players[d.player].choose(game.seats[d.player], d))
            assert game.views()[0].cards  # the views of it are put away too
            game.release()
            del game, players
            assert gc.collect() == 0, f"{kind} game {seed} left cycles"
        stopped = Game(cardset, ["A", "B"], 9, memo=memo)  # put away before its end
        stopped.apply(stopped.decision.actions[0])
        stopped.release()
        assert stopped.decision is None
        del stopped
        assert gc.collect() == 0
    finally:
        gc.enable()
