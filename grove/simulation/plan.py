"""What a run plays: the card set, the AIs per seat, how many games, and each game's seed.

A game's seed and seating are functions of the run's seed and the game's index alone, so a game
is the same game whichever process or machine plays it and whenever it finishes; that is what
makes `--jobs 1`, `--jobs 4` and a cluster give the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# a seed fits Parquet's int64 and `grove play --seed`, which replays the game from it
SEED_BITS = 63


@dataclass(frozen=True)
class Plan:
    edition: str
    expansions: tuple[str, ...]
    ais: tuple[str, ...]  # one AI kind per seat, as `--ai` gives them
    games: int
    seed: int
    rotate: bool
    roots: tuple[str, ...]  # the author's card-set folders (absolute), searched before the shipped

    @property
    def seats(self) -> int:
        return len(self.ais)

    def game_seed(self, index: int) -> int:
        return game_seed(self.seed, index)

    def seating(self, index: int) -> tuple[str, ...]:
        """The AI kind at each seat in game `index`: with `rotate`, every AI moves one seat on
        from one game to the next, so over `seats` games each AI has sat at every seat once."""
        if not self.rotate:
            return self.ais
        n = self.seats
        return tuple(self.ais[(s - index) % n] for s in range(n))

    def chunks(self, size: int, workers: int = 1) -> list[Chunk]:
        """The games cut into chunks of `size`, in game order. With several workers the last
        `workers` chunks' worth of games are cut four times smaller: the workers then finish
        within a small chunk of each other, not one idle while another plays a whole chunk
        (the last two chunks of 18 games of a 600-game run on two workers ended 0.03 and 0.05 s
        apart in two timed runs)."""
        even = -(-self.games // size)  # chunks of `size`, the last one short
        tail = max(0, even - workers) * size if workers > 1 else self.games
        starts = [*range(0, tail, size), *range(tail, self.games, max(1, size // 4))]
        return [Chunk(i, start, stop) for i, (start, stop)
                in enumerate(zip(starts, [*starts[1:], self.games], strict=True))]


@dataclass(frozen=True)
class Chunk:
    """Games `start` to `stop - 1`, played by one worker in one go."""

    index: int
    start: int
    stop: int

    @property
    def games(self) -> int:
        return self.stop - self.start


def game_seed(run_seed: int, index: int) -> int:
    """Game `index`'s seed: numpy's SeedSequence spawns statistically independent streams from
    one root seed and a spawn key, so neighbouring games (and neighbouring run seeds) share no
    pattern, which `run_seed * K + index` would not promise."""
    words = np.random.SeedSequence(run_seed % (1 << 64), spawn_key=(index,)).generate_state(
        2, np.uint32)
    return (int(words[0]) << 32 | int(words[1])) >> (64 - SEED_BITS)


def chunk_size(games: int, workers: int) -> int:
    """Games per chunk: enough chunks for every worker to stay busy and for the progress bar to
    move (16 a worker), few enough games in one that a chunk is a second or two of work and its
    rows are small (at most 50 games)."""
    return max(1, min(50, games // (16 * max(1, workers))))
