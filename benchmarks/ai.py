"""The strength ladder (`python -m benchmarks --only ai`): the search player against greedy.

Each row plays deals of one edition: in a two-player row every deal twice with the seats
swapped, in a four-player row once with the searching seat in each chair, so neither the deal
nor the seat favours a side. A game is won by the highest total (a tie for first shares the
win). `win_ci95` is the Wilson interval of the win rate; `seconds_per_decision` is the CPU time
of the searching seat's turn decisions (the ones it searches), per decision. Deals are played
on worker processes, one per core.

The rows are the issue's: `mcts` at its default budget against greedy in 2-player base, Smoky
Mountains and Dartmoor and as one of four in base; and the budget curve `mcts:100` to
`mcts:3000` in 2-player base. Each row has its own number of games (`ROWS`); `--ai-games` sets
one for every row (a quick look takes fewer), `--ai-rows` picks rows by name and `--ai-budget`
plays the default budget's rows at another; `--ai-knobs horizon=1,epsilon=0.2` plays every row
with other search settings, so each choice of docs/ai.md is measured on the same deals as the
default.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import subprocess
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Any

# (name, edition, players, the searching AI, games): 400 games where the target asks
# for them (two-player base), for the curve's cheap rows, and at 1,000 iterations, which are
# `base`'s deals again; 100 elsewhere, an interval of at most +-10 points (+-5 at nine wins in
# ten), which tells 60% on two players or 40% of four from chance at a quarter of the hours; at
# 3,000 iterations a deal costs three of the default's, and the rise is read paired with 1,000
ROWS = [
    ("base", "base", 2, "mcts", 400),
    ("smoky", "smoky_mountains", 2, "mcts", 100),
    ("dartmoor", "dartmoor", 2, "mcts", 100),
    ("base4", "base", 4, "mcts", 100),
    ("curve100", "base", 2, "mcts:100", 400),
    ("curve300", "base", 2, "mcts:300", 400),
    ("curve1000", "base", 2, "mcts:1000", 400),
    ("curve3000", "base", 2, "mcts:3000", 100),
    # the level `easy` (grove/engine/ai.py LEVELS): a beginner's opponent, to be read against
    # greedy (`medium`, so 50% by its definition) and the default (`hard`, the `base` row)
    ("easy", "base", 2, "greedy:0.5", 200),
]
AGAINST = "greedy"
SEED = 20261204  # the deals: the same in every run, never those of the tests
JOURNAL = Path(__file__).with_name("ladder.jsonl")
PROBE = "mcts:20"  # cheap, yet it runs every part of the search a row's games run


@dataclass(frozen=True)
class Deal:
    edition: str
    players: int
    ai: str
    seed: int
    knobs: tuple[tuple[str, float], ...] = ()  # the search's settings that differ from Knobs()


class _Timed:
    """A player whose turn decisions are timed in CPU seconds."""

    def __init__(self, player: Any):
        self.player = player
        self.seconds = 0.0
        self.decisions = 0

    def choose(self, seat: Any, decision: Any) -> Any:
        if decision.kind != "turn":
            return self.player.choose(seat, decision)
        start = time.process_time()
        action = self.player.choose(seat, decision)
        self.seconds += time.process_time() - start
        self.decisions += 1
        return action


def _game(deal: Deal, me: int) -> tuple[Any, list[int], _Timed]:
    """The deal played out with the searching AI in chair `me`: the game, its totals and the
    searching seat's timer."""
    from grove.compiler.cardset import build
    from grove.engine.ai import make
    from grove.engine.game import Game
    from grove.engine.scoring import score

    cardset = build(deal.edition)
    kinds = [deal.ai if j == me else AGAINST for j in range(deal.players)]
    game = Game(cardset, [f"P{j + 1}" for j in range(deal.players)], deal.seed, events=False)
    players = [make(k, deal.seed * 31 + j) for j, k in enumerate(kinds)]
    if deal.knobs:
        search = players[me]
        search.knobs = dataclasses.replace(search.knobs, **dict(deal.knobs))  # type: ignore[attr-defined]
    timed = _Timed(players[me])
    players[me] = timed  # type: ignore[call-overload]
    game.play_out(players)
    return game, [score(v, cardset).total for v in game.views()], timed


def play_deal(deal: Deal) -> tuple[float, int, float, int, float]:
    """One deal played with the searching AI in every chair: its wins (ties shared), games,
    CPU seconds of its searched decisions and how many, and its margins summed (its total over
    the others' mean, a game's)."""
    wins = seconds = margin = 0.0
    games = decisions = 0
    for me in range(deal.players):
        game, totals, timed = _game(deal, me)
        best = max(totals)
        if totals[me] == best:
            wins += 1 / totals.count(best)
        margin += totals[me] - (sum(totals) - totals[me]) / (len(totals) - 1)
        games += 1
        seconds += timed.seconds
        decisions += timed.decisions
        game.release()
    return wins, games, seconds, decisions, margin


def probe(deal: Deal) -> str:
    """The hash of a short game's moves and totals, played as the row's games are but at the
    probe's budget: the same hash, the same play (docstring above)."""
    return _probe(dataclasses.replace(deal, ai=PROBE, seed=SEED - 1))


@cache
def _probe(deal: Deal) -> str:
    """Once a process for each probe deal: the rows of one edition and table share it."""
    game, totals, _ = _game(deal, 0)
    text = "\n".join(a.text for a in game.history) + "\n" + repr(totals)
    game.release()
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _resolved(ai: str) -> str:
    """`mcts` as the budget it stands for today, so a new default starts its rows afresh."""
    from grove.engine.mcts import DEFAULT_ITERATIONS

    return f"mcts:{DEFAULT_ITERATIONS}" if ai == "mcts" else ai


def _key(deal: Deal, fingerprint: str) -> str:
    return _journal_key(deal.edition, deal.players, _resolved(deal.ai), dict(deal.knobs),
                        deal.seed, fingerprint)


def _journal_key(edition: str, players: int, ai: str, settings: dict[str, float], seed: int,
                 fingerprint: str) -> str:
    """A deal's key in the journal, its settings those that differ from today's defaults: the
    same for a deal being played as for one read back."""
    return json.dumps([edition, players, ai, _changed(settings), seed, fingerprint])


def _changed(settings: dict[str, float]) -> dict[str, float]:
    """The settings that differ from today's defaults. A setting named at what is now its
    default plays as the default does (the probe's hash in the key vouches for it), so a screen
    of a setting that became the default goes on as the default's row."""
    from grove.engine.mcts import Knobs

    default = Knobs()
    return {name: value for name, value in settings.items() if getattr(default, name) != value}


def read_journal(path: Path | None) -> dict[str, list[float]]:
    """Every deal the journal holds, by key: [wins, games, seconds, decisions, margins] (no
    margins in a deal played before they were kept). A line a killed
    run left half-written is passed over."""
    done: dict[str, list[float]] = {}
    if path is None or not path.exists():
        return done
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
            done[_journal_key(*json.loads(entry["key"]))] = entry["result"]
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
    return done


def against(deals: list[Deal], done: dict[str, list[float]], keys: dict[Deal, str],
            other: Callable[[Deal], Deal], fingerprint: str) -> dict[str, Any] | None:
    """The row's win rate minus another player's (`other` turns a deal of the row into that
    player's deal: the default settings, a smaller budget; `fingerprint` is that deal's probe
    hash), deal by deal, over the deals the journal holds for both (None where it holds none of
    the other's): pairing the deals takes out the deal's own luck, which two rows of 100 games
    each leave in. The interval is Student's t on the per-deal differences. `margin` is the
    same for the points a game won or lost by, where the journal holds them (deals played
    before it did have only wins): a finer measure than a win, it tells two players apart in
    fewer games."""
    wins, margins = [], []
    for deal in deals:
        mine, theirs = done.get(keys[deal]), done.get(_key(other(deal), fingerprint))
        if mine is not None and theirs is not None:
            # wins are shares of ties (1/2, 1/3, 1/4) and margins over the others' mean thirds
            # of a point at most: in twelfths, both are whole numbers
            wins.append(round(12 * (mine[0] - theirs[0])))
            if len(mine) > 4 and len(theirs) > 4:
                margins.append(round(12 * (mine[4] - theirs[4])))
    games = 12 * deals[0].players
    out = _paired(wins, games)
    if out is not None:
        out["margin"] = _paired(margins, games, 2)
    return out


def lower_budget(ai: str, edition: str, players: int,
                 table: list[tuple[str, str, int, str, int]]) -> str | None:
    """The largest iteration budget below the row's among the table's rows of the same edition
    and players: the step down the budget curve a row is set against, so the curve's rise is
    read from the same deals rather than from two rows' separate luck."""
    n = _iterations(ai)
    if n is None:
        return None
    below = [m for _, e, p, a, _ in table
             if e == edition and p == players and (m := _iterations(a)) is not None and m < n]
    return f"mcts:{max(below)}" if below else None


def _iterations(ai: str) -> int | None:
    name, _, budget = _resolved(ai).partition(":")
    return int(budget) if name == "mcts" and budget.isdigit() else None


def _paired(diffs: list[int], per: int, digits: int = 4) -> dict[str, Any] | None:
    """The mean of per-deal differences (in 1/per of a game's unit) with its t interval."""
    from grove.simulation.statistics import mean_interval

    if len(diffs) < 2:
        return None
    low, high = mean_interval(len(diffs), sum(diffs), sum(d * d for d in diffs)) or (0.0, 0.0)
    return {"deals": len(diffs), "difference": round(sum(diffs) / len(diffs) / per, digits),
            "ci95": [round(low / per, digits), round(high / per, digits)]}


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, cwd=Path(__file__).parent, timeout=10)
        return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def _append(path: Path | None, key: str, result: tuple[float, int, float, int],
            commit: str) -> None:
    if path is None:
        return
    line = json.dumps({"key": key, "result": list(result), "commit": commit}) + "\n"
    with open(path, "a+b") as journal:
        if journal.tell():  # a killed run's torn line must not swallow this one
            journal.seek(-1, os.SEEK_END)
            if journal.read(1) != b"\n":
                line = "\n" + line
        journal.write(line.encode("utf-8"))
        journal.flush()
        os.fsync(journal.fileno())


def knobs(text: str | None) -> tuple[tuple[str, float], ...]:
    """`horizon=1,epsilon=0.2` as the settings it changes, each checked against Knobs."""
    from grove.engine.mcts import Knobs

    names = {f.name: f.type for f in dataclasses.fields(Knobs)}
    out = []
    for part in (text or "").split(","):
        if not part.strip():
            continue
        name, _, value = part.partition("=")
        name = name.strip()
        if name not in names:
            raise SystemExit(f"--ai-knobs: no setting {name!r} (settings: {', '.join(names)})")
        try:
            number = int(value) if names[name] == "int" else float(value)
        except ValueError:
            raise SystemExit(f"--ai-knobs: {name} takes a number, not {value!r}") from None
        out.append((name, number))
    return tuple(_changed(dict(out)).items())


def ladder(names: list[str] | None, games: int | None, jobs: int, budget: str | None = None,
           settings: str | None = None, journal: Path | None = JOURNAL,
           table: list[tuple[str, str, int, str, int]] = ROWS) -> list[dict[str, Any]]:
    """The rows named, in the order named (all without names), `games` games each (None: each
    row's own); `budget` plays the rows of the default budget at another (`300`, `2s`) for a
    quicker look, `settings` the search with other knobs; `journal` (None: none) keeps every
    deal played and gives back those played before."""
    from grove.simulation.statistics import wilson

    changed = knobs(settings)
    chosen = _rows(names, table)
    done = read_journal(journal)
    commit = _commit()
    rows = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for _, edition, players, ai, own in chosen:
            if budget and ai == "mcts":
                ai = f"mcts:{budget}"
            deals = [Deal(edition, players, ai, SEED + k, changed)
                     for k in range(-(-(games or own) // players))]
            fingerprint = probe(deals[0])
            keys = {deal: _key(deal, fingerprint) for deal in deals}
            results = [done[keys[deal]] for deal in deals if keys[deal] in done]
            if results:
                print(f"      {len(results)} deals from the journal", flush=True)
            futures = {pool.submit(play_deal, deal): deal for deal in deals
                       if keys[deal] not in done}
            for k, future in enumerate(as_completed(futures), 1):
                result = future.result()
                _append(journal, keys[futures[future]], result, commit)
                done[keys[futures[future]]] = list(result)
                results.append(list(result))
                if k % 10 == 0 and k < len(futures):  # a row at a second a decision takes hours
                    w, g = (sum(r[i] for r in results) for i in (0, 1))
                    print(f"      ... {g:.0f} games: {100 * w / g:.1f}%", flush=True)
            wins, played, seconds, decisions = (sum(r[i] for r in results) for i in range(4))
            played, decisions = int(played), int(decisions)
            low, high = wilson(wins, played) or (0.0, 1.0)  # type: ignore[arg-type]
            row = {"edition": edition, "players": players, "a": ai, "b": AGAINST,
                   "games": played, "win_rate": round(wins / played, 4),
                   "win_ci95": [round(low, 4), round(high, 4)],
                   "seconds_per_decision": round(seconds / max(decisions, 1), 4)}
            kept = [r for r in results if len(r) > 4]  # deals played before margins were kept
            if kept:
                row["margin"] = round(sum(r[4] for r in kept) / sum(r[1] for r in kept), 2)
            if changed:
                row["knobs"] = dict(changed)
                plain = partial(dataclasses.replace, knobs=())
                row["against_default"] = against(deals, done, keys, plain,
                                                 probe(plain(deals[0])))
                _print_paired("the default", row["against_default"])
            lower = lower_budget(ai, edition, players, table)
            if lower is not None:
                # the probe plays at its own budget whatever the row's: the row's hash serves
                paired = against(deals, done, keys, partial(dataclasses.replace, ai=lower),
                                 fingerprint)
                row["against_lower"] = paired and {"b": lower, **paired}
                _print_paired(lower, paired)
            print(f"   {edition:<16} {players}p  {ai:<10} vs {AGAINST}: "
                  f"{100 * row['win_rate']:5.1f}% of {played} games "
                  f"[{100 * low:4.1f}, {100 * high:4.1f}]  "
                  f"{row['seconds_per_decision']:.3f} s a decision", flush=True)
            rows.append(row)
    return rows


def _rows(names: list[str] | None, table: list[tuple[str, str, int, str, int]]
          ) -> list[tuple[str, str, int, str, int]]:
    """The table's rows by name, in the order given: a row takes hours, so a misspelt name
    stops the run before any game rather than quietly playing nothing."""
    if not names:
        return table
    by_name = {row[0]: row for row in table}
    for name in names:
        if name not in by_name:
            raise SystemExit(f"--ai-rows: no row {name!r} (rows: {', '.join(by_name)})")
    return [by_name[name] for name in dict.fromkeys(names)]


def _print_paired(other: str, paired: dict[str, Any] | None) -> None:
    if paired is None:
        return
    margin = paired["margin"]
    print(f"      against {other} on the same {paired['deals']} deals: "
          f"{100 * paired['difference']:+.1f} points "
          f"[{100 * paired['ci95'][0]:+.1f}, {100 * paired['ci95'][1]:+.1f}]"
          + (f", a game's margin {margin['difference']:+.1f} points "
             f"[{margin['ci95'][0]:+.1f}, {margin['ci95'][1]:+.1f}]" if margin else ""),
          flush=True)


def bench_ai(opts: Any) -> dict[str, Any]:
    jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    games = f"{opts.ai_games} games a row" if opts.ai_games else "each row its own games"
    print(f"== the strength ladder: the search player against {AGAINST}, seats rotated, "
          f"{games}, on {jobs} process{'es' if jobs != 1 else ''} "
          "(CPU seconds per searched decision)"
          + (f", search settings {opts.ai_knobs}" if opts.ai_knobs else ""))
    journal = None if opts.ai_journal == "none" else Path(opts.ai_journal or JOURNAL)
    return {"ai": ladder(opts.ai_rows, opts.ai_games, jobs or 1, opts.ai_budget, opts.ai_knobs,
                         journal)}


# the search's pace by table size: decisions of the default `mcts` at points of greedy games
PACE_PLAYERS = (2, 3, 4, 5)
PACE_SEEDS = (11, 12)
PACE_ROUNDS = (3, 9, 15)  # the rounds of greedy play before each decision searched


def pace(players: int, seeds: tuple[int, ...] = PACE_SEEDS,
         rounds: tuple[int, ...] = PACE_ROUNDS, ai: str = "mcts") -> list[float]:
    """CPU seconds of the search's turn decisions at a table of `players` in base: in each
    seed's greedy game, the decision after each of `rounds` rounds, searched by a seat of its
    own (the game goes on as greedy plays). A person waits for these; the ladder's figure is a
    whole row's mean and comes in hours."""
    from grove.compiler.cardset import build
    from grove.engine.ai import make
    from grove.engine.game import Game

    cardset = build("base")
    out = []
    for seed in seeds:
        game = Game(cardset, [f"P{j + 1}" for j in range(players)], seed, events=False)
        greedy = [make(AGAINST, j) for j in range(players)]
        turns = 0
        for stop in rounds:
            while game.decision is not None:
                d = game.decision
                if d.kind == "turn":
                    if turns >= stop * players and len(d.options) > 1:
                        break
                    turns += 1
                game.apply(greedy[d.player].choose(game.seats[d.player], d))
            if game.decision is None:
                break
            d = game.decision
            search = make(ai, seed * 31 + d.player)
            start = time.process_time()
            search.choose(game.seats[d.player], d)
            out.append(time.process_time() - start)
        game.release()
    return out


def bench_search(opts: Any) -> dict[str, Any]:
    print("== the search's pace: CPU seconds a decision of the default mcts, base, "
          f"{len(PACE_SEEDS) * len(PACE_ROUNDS)} decisions of greedy games at each table size")
    rows = {}
    for players in PACE_PLAYERS:
        seconds = pace(players)
        mean = sum(seconds) / len(seconds)
        rows[str(players)] = {"decisions": len(seconds), "seconds": round(mean, 3),
                              "range": [round(min(seconds), 3), round(max(seconds), 3)]}
        print(f"   {players} players: {mean:.3f} s a decision "
              f"[{min(seconds):.3f} .. {max(seconds):.3f}]", flush=True)
    return {"search": rows}
