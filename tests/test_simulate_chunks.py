"""How a run's games are cut into chunks: every game once, in game order, and with several
workers a tail of small chunks, so that no worker is left idle while another plays a whole chunk
at the end of the run."""

from __future__ import annotations

import pytest

from grove.simulation.plan import Plan, chunk_size


def plan(games: int) -> Plan:
    return Plan("base", (), ("random", "random"), games, 0, False, ())


@pytest.mark.parametrize("games", [1, 2, 7, 31, 32, 600, 2000, 10_001])
@pytest.mark.parametrize("workers", [1, 2, 3, 8])
def test_every_game_once_in_order(games, workers):
    chunks = plan(games).chunks(chunk_size(games, workers), workers)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert [g for c in chunks for g in range(c.start, c.stop)] == list(range(games))
    assert all(c.games >= 1 for c in chunks)


def test_one_worker_plays_even_chunks():
    assert [c.games for c in plan(600).chunks(37)] == [37] * 16 + [8]


def test_the_last_chunks_of_several_workers_are_small():
    """600 games on two workers: chunks of 18, and where the even cut ends with a chunk of 18
    and one of 6, the last 24 games in chunks of 4."""
    assert [c.games for c in plan(600).chunks(chunk_size(600, 2), 2)] == [18] * 32 + [4] * 6
    assert [c.games for c in plan(5).chunks(2, 2)] == [2, 1, 1, 1]
    assert [c.games for c in plan(3).chunks(2, 2)] == [1, 1, 1]  # all of it is the tail
