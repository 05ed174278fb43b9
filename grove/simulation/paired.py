"""Two runs of the same games, game by game: what a change did, measured on the deals it shares.

A designer runs the changed cards with the baseline's command: the same seed, AIs and number of
games. Each game is then dealt from the same seed in both runs, and play follows the same path
until the changed card first makes a difference (a dweller greedy players seldom score leaves
nearly every game exactly as it was). Set side by side as two independent samples, the two
runs' figures carry the whole spread of one game against another, and a small move is lost in
it; taken game by game, a game the change left alone differs by nothing, and the spread left is
only that of the games it did change (common random numbers, a paired test). That is what
finds a dweller whose points were halved though greedy scores it in a few forests only.

Games are paired by their seed (`games.parquet`'s `seed`) and the AI at each seat (a rotated
run moves them from game to game): a game whose seed one run lacks, or plays with the AIs in
other seats, is left out, and runs of different seeds share no game and are compared as
independent samples (simulation/against.py). Each species' copies and points are summed over a
game's forests, each AI's copies apart (a strength weighs them by what that AI's copies are
expected to score).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pyarrow.compute as pc
import pyarrow.parquet as pq

from grove.simulation.aggregate import PAID
from grove.simulation.sinks import CARDS_FILE, GAMES_FILE

MIN_GAMES = 10  # fewer paired games than this and the runs are compared as independent samples


@dataclass(frozen=True)
class Sums:
    """One species in one run, a value per paired game: its points, the cards paid to play
    its copies, and its copies by AI."""

    points: np.ndarray
    paid: np.ndarray
    copies: dict[str, np.ndarray] = field(default_factory=dict)

    def all_copies(self, games: int) -> np.ndarray:
        out = np.zeros(games)
        for c in self.copies.values():
            out += c
        return out


@dataclass(frozen=True)
class Pair:
    """The games two runs share, and each species' sums in each game of both; `paid`: whether
    both runs say what was paid (a run written before `paid` does not)."""

    games: int
    before: dict[str, Sums]
    after: dict[str, Sums]
    paid: bool = True

    def sums(self, side: dict[str, Sums], sid: str) -> Sums:
        return side.get(sid) or Sums(np.zeros(self.games), np.zeros(self.games))


def _games(folder: Path) -> dict[int, tuple[int, tuple[str, ...]]]:
    """game number -> (its seed, the AI at each seat in seat order)."""
    with open(folder / GAMES_FILE, "rb") as fh:  # not by path: pyarrow wants a path in UTF-8
        rows = pq.read_table(fh, columns=["game", "seed", "seat", "ai"]).to_pydict()
    seats: dict[int, list[tuple[int, str]]] = {}
    seeds: dict[int, int] = {}
    for game, seed, seat, ai in zip(rows["game"], rows["seed"], rows["seat"], rows["ai"],
                                    strict=True):
        seats.setdefault(game, []).append((seat, ai))
        seeds[game] = seed
    return {g: (seeds[g], tuple(ai for _, ai in sorted(s))) for g, s in seats.items()}


def _keyed(games: dict[int, tuple[int, tuple[str, ...]]]) -> dict[tuple, int]:
    """(seed, AIs by seat) -> game number, for the keys one game alone holds."""
    seen: dict[tuple, list[int]] = {}
    for g, key in games.items():
        seen.setdefault(key, []).append(g)
    return {k: gs[0] for k, gs in seen.items() if len(gs) == 1}


def _paid_known(folder: Path) -> bool:
    with open(folder / CARDS_FILE, "rb") as fh:
        return PAID in pq.read_schema(fh).names


def _sums(folder: Path, where: dict[int, int], n: int, paid: bool) -> dict[str, Sums]:
    """species -> its sums over the games of `where` (game number -> paired index); what was
    paid counted as nothing in a run that does not say (`paid` False)."""
    with open(folder / CARDS_FILE, "rb") as fh:
        cards = pq.read_table(fh, columns=["game", "species", "ai", "copies", "points"]
                              + ([PAID] if paid else []))
    if not paid:
        cards = cards.append_column(PAID, pc.multiply(cards["copies"], 0))
    cards = cards.filter(pc.or_(pc.or_(pc.greater(cards["copies"], 0),
                                       pc.not_equal(cards["points"], 0)),
                                pc.greater(cards[PAID], 0)))
    grouped = cards.group_by(["game", "species", "ai"]).aggregate(
        [("copies", "sum"), ("points", "sum"), (PAID, "sum")]).to_pydict()
    out: dict[str, Sums] = {}
    for game, sid, ai, copies, points, paid in zip(
            grouped["game"], grouped["species"], grouped["ai"], grouped["copies_sum"],
            grouped["points_sum"], grouped[f"{PAID}_sum"], strict=True):
        at = where.get(game)
        if at is None:
            continue
        s = out.setdefault(sid, Sums(np.zeros(n), np.zeros(n)))
        s.points[at] += points
        s.paid[at] += paid
        s.copies.setdefault(ai, np.zeros(n))[at] += copies
    return out


def read_pair(before: Path, after: Path) -> Pair | None:
    """The games of `before` and `after` dealt from one seed with the same AIs in the same
    seats, each species' sums in each; None where they share fewer than MIN_GAMES."""
    ka, kb = _keyed(_games(before)), _keyed(_games(after))
    shared = sorted(set(ka) & set(kb), key=lambda k: ka[k])
    if len(shared) < MIN_GAMES:
        return None
    n = len(shared)
    paid_a, paid_b = _paid_known(before), _paid_known(after)
    return Pair(n, _sums(before, {ka[k]: i for i, k in enumerate(shared)}, n, paid_a),
                _sums(after, {kb[k]: i for i, k in enumerate(shared)}, n, paid_b),
                paid_a and paid_b)


@dataclass(frozen=True)
class Tested:
    """A paired figure: its value in each run, the change, its 95% interval, the p of no
    change and the change in standard errors."""

    before: float
    after: float
    change: float
    ci95: tuple[float, float]
    p: float
    z: float


def mean_change(a: np.ndarray, b: np.ndarray) -> Tested:
    """The mean of b - a over paired games, with Student's t interval and test on the
    differences: every game the change left alone adds a difference of nothing."""
    from scipy.special import stdtr, stdtrit

    from grove.simulation.statistics import LEVEL

    n = len(a)
    d = b - a
    mean = float(d.mean())
    sd = float(d.std(ddof=1)) if n > 1 else 0.0
    if sd == 0:
        return Tested(float(a.mean()), float(b.mean()), mean, (mean, mean),
                      1.0 if mean == 0 else 0.0, 0.0 if mean == 0 else math.inf)
    se = sd / math.sqrt(n)
    t = mean / se
    half = float(stdtrit(n - 1, 0.5 + 0.5 * LEVEL)) * se
    return Tested(float(a.mean()), float(b.mean()), mean, (mean - half, mean + half),
                  float(2 * stdtr(n - 1, -abs(t))), abs(t))


def ratio_change(num: tuple[np.ndarray, np.ndarray], den: tuple[np.ndarray, np.ndarray]
                 ) -> Tested | None:
    """sum(num) / sum(den) in each run (cards paid over copies) and the change, tested game
    by game: the standard error is the delta method's for a difference of two ratios of sums
    over the same games (each game's influence on the one minus its influence on the other),
    so a game the change left alone adds nothing. None where either run's den sums to 0."""
    from grove.simulation.statistics import normal_test

    n = len(num[0])
    ratios, influence = [], []
    for x, y in zip(num, den, strict=True):
        ty = float(y.sum())
        if ty <= 0:
            return None
        r = float(x.sum()) / ty
        ratios.append(r)
        influence.append(n * (x - r * y) / ty)
    d = influence[1] - influence[0]
    se = float(d.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return Tested(ratios[0], ratios[1], *normal_test(ratios[1] - ratios[0], se))


def log_ratio_change(points: tuple[np.ndarray, np.ndarray], due: tuple[np.ndarray, np.ndarray]
                     ) -> tuple[float, float, float, float] | None:
    """(log2 of points over due before, after, the change, its standard error) over paired
    games: a strength (simulation/strength.py) in both runs. The standard error is the delta
    method's for a difference of two ratios of sums taken over the same games: each game's
    influence on the one minus its influence on the other, so a game where the species scored
    its points as it did, against the same due or a due the change scaled, adds nothing. None
    where either run's copies scored nothing."""
    n = len(points[0])
    logs, influence = [], []
    for p, e in zip(points, due, strict=True):
        tp, te = float(p.sum()), float(e.sum())
        if tp <= 0 or te <= 0:
            return None
        logs.append(math.log2(tp / te))
        influence.append(n * (p / tp - e / te) / math.log(2))
    d = influence[1] - influence[0]
    se = float(d.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    change = logs[1] - logs[0]
    # sums of the same integers divided in another order differ in their last bits: a move or a
    # spread that small is none, not one of infinitely many standard errors
    return logs[0], logs[1], _exact(change), _exact(se)


def _exact(x: float) -> float:
    return 0.0 if abs(x) < 1e-12 else x
