"""A batch's collector setting (simulation/collector.py) holds only inside its block: whatever a
batch does, the process leaves it with the collector as it was."""

from __future__ import annotations

import gc

import pytest

from simulation.collector import YOUNG, batch_collector


def test_a_batch_freezes_what_is_loaded_and_collects_the_young_less_often():
    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    with batch_collector():
        assert gc.get_threshold() == (YOUNG, *before[1:])
        assert gc.get_freeze_count() > frozen  # the objects alive at the start, at least
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def test_the_setting_is_undone_when_a_batch_fails():
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), batch_collector(young=5_000):
        assert gc.get_threshold()[0] == 5_000
        raise RuntimeError("a game failed")
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
