"""Playing a whole game with players, and replaying a record of one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import IO, Any

from grove import __version__
from grove.compiler.cardset import CardSet
from grove.engine import record as rec
from grove.engine.action import Action, IllegalAction, parse
from grove.engine.ai import make
from grove.engine.game import Game, Player
from grove.engine.human import Quit
from grove.engine.scoring import PlayerScore, score, winners


@dataclass
class Outcome:
    game: Game
    scores: list[PlayerScore]  # empty for a stopped game
    winners: list[str]
    stopped: str | None = None  # "quit" or "interrupt": the record ends with a stop line
    actions: int = 0  # the actions taken (and recorded), resumed ones included


def final_scores(game: Game) -> list[PlayerScore]:
    return [score(v, game.cardset, cards=True) for v in game.views()]


def seats(kinds: list[str], seed: int, given: Sequence[Player | None] = ()) -> list[Player]:
    """A player for every seat: the one `given` for it, else a new one of its kind, seeded from
    the game's seed and the seat (so a game, and a resumed one, repeats)."""
    return [given[i] if i < len(given) and given[i] is not None else make(k, seed * 31 + i)
            for i, k in enumerate(kinds)]  # type: ignore[misc]


def play(cardset: CardSet, kinds: list[str], seed: int, *, names: list[str] | None = None,
         record: IO[str] | rec.Sink | None = None,
         on_action: Callable[[Game, Action], None] | None = None,
         players: list[Player] | None = None, resume: Sequence[str] = (),
         legacy: bool = False,
         on_start: Callable[[Game], None] | None = None) -> Outcome:
    """Play a game to its end, or until a player stops it (`Quit`, or Ctrl-C).

    `resume` holds the actions of a stopped game's record (their texts): they are taken first,
    in order, and recorded again, so the new record starts as the old one did. An AI is asked
    for each of its resumed actions all the same, so its random draws stay in step and the game
    goes on exactly as one never stopped; a human's are simply taken. A stopped game's record
    ends with a stop line after every action it holds; a stop after the game's last action
    recorded finishes the game instead (a stop line may not follow it).

    `record` is a stream (each line written as it comes) or a `record.Sink` (the command line's
    `record.Keeper`, whose file is whole at every moment). `legacy`: go on by the rules of a
    record of format 1 (`Table.legacy`), a stopped one being resumed, and write format 1 again.
    `on_start` is handed the game before its first decision (a screen that shows the table from
    the start)."""
    names = names or [f"P{i + 1}" for i in range(len(kinds))]
    game = Game(cardset, names, seed, legacy=legacy)
    if on_start:
        on_start(game)
    players = players or seats(kinds, seed)
    writer = record if isinstance(record, rec.Sink) else (
        rec.Writer(record) if record is not None else None)
    if writer:
        # the package's constant: importlib.metadata scans sys.path, and a Ctrl-C could land in
        # the ZipFile its scan leaves to be finalised
        writer.header({"type": "header", "format": 1 if legacy else rec.FORMAT,
                       "grove": __version__,
                       "edition": cardset.root.id, "with": list(cardset.expansions),
                       "digest": rec.digest(cardset), "seed": seed,
                       "players": [{"name": n, "ai": k}
                                   for n, k in zip(names, kinds, strict=True)]},
                      waits=_waits(game, kinds))
    done = 0
    try:
        while game.decision is not None:
            d = game.decision
            if done < len(resume):
                action = _resumed(game, resume[done], done)
                if kinds[d.player] != "human" and getattr(players[d.player], "drawing", True):
                    # the AI's random draws, as when it first chose (a search seeds each
                    # decision afresh, so it need not search again: `drawing` False)
                    players[d.player].choose(game.seats[d.player], d)
            else:
                action = players[d.player].choose(game.seats[d.player], d)
            turn = game.turn
            game.apply(action)
            if writer:
                writer.action({"type": "action", "turn": turn, "player": d.player,
                               "action": action.text},
                              over=game.decision is None, waits=_waits(game, kinds))
            done += 1
            if on_action:
                on_action(game, action)
    except (Quit, KeyboardInterrupt) as exc:
        # a game that ended, its last action recorded, is finished below: its record needs the
        # end line. Else the stop line counts the lines the record holds, not `done`, which an
        # interrupt may catch between an action and its count
        if game.decision is not None or (writer and writer.actions != len(game.history)):
            if writer:
                writer.stop()
            return Outcome(game, [], [], "quit" if isinstance(exc, Quit) else "interrupt", done)
    # the game is over: its scores and end line come before a Ctrl-C or SIGTERM is heard (a few
    # milliseconds), so a stop there cannot leave a record whose last action wants its end line
    ended = False
    try:
        with rec.signals_held():
            scores = final_scores(game)
            for s, k in zip(scores, kinds, strict=True):
                s.ai = k
            if writer:
                writer.end(end_line(game, scores))
            ended = True
    except KeyboardInterrupt:
        if not ended:  # heard before the signals were held: the record keeps its last copy
            raise
    return Outcome(game, scores, winners(scores), None, done)


def _waits(game: Game, kinds: list[str]) -> bool:
    """Whether a person decides next: the game may wait there for hours, so a file record is
    made whole before."""
    return game.decision is not None and kinds[game.decision.player] == "human"


def _resumed(game: Game, text: str, n: int) -> Action:
    """The n-th action of a record being resumed, which must be legal where it stands."""
    if text not in game.legal_actions():
        raise IllegalAction(f"action {n + 1} of the record, {text!r}, is not legal there")
    return game.actions.read(text)


def end_line(game: Game, scores: list[PlayerScore], shorthand: bool = True) -> dict[str, Any]:
    """The last line of a finished game's record; `shorthand` as in `record.forest_entries`."""
    return {
        "type": "end", "turns": game.turn + 1,
        "scores": [{"name": s.name, "total": s.total, "by_category": s.by_category}
                   for s in scores],
        "winners": winners(scores),
        "forest": final_forest(game, shorthand),
    }


def final_forest(game: Game, shorthand: bool = True) -> dict[str, Any]:
    """Every player's forest as a forest file holds it: what a record's end line keeps and what
    `grove play --final` writes, so both score as the game ended."""
    return {"edition": game.cardset.root.id, "with": list(game.cardset.expansions),
            "players": [rec.player_entry(game, i, shorthand) for i in range(len(game.players))]}


def replay(cardset: CardSet, r: rec.Record) -> tuple[Game, list[str]]:
    """Re-run a record; the list says where it differs from what the record holds.

    A record ends with an end line (the game finished), a stop line (a player quit: every action
    it holds is checked and the game must still be going), or neither (cut short: a problem, so a
    truncated record is never taken for a verified game)."""
    problems = [f"header: {c}" for c in rec.changed_cards(cardset, r.header)]
    names = [p["name"] for p in r.header["players"]]
    game = Game(cardset, names, int(r.header["seed"]), legacy=r.header["format"] == 1)
    for n, a in enumerate(r.actions, 2):
        if game.decision is None:
            problems.append(f"line {n}: the game is already over")
            return game, problems
        try:
            action = parse(a["action"])
        except IllegalAction as exc:
            problems.append(f"line {n}: {exc}")
            return game, problems
        if action not in game.decision.actions:
            problems.append(f"line {n}: {a['action']!r} is not legal here")
            return game, problems
        if a.get("player") != game.decision.player:
            problems.append(f"line {n}: player {a.get('player')} acts, but it is player "
                            f"{game.decision.player}'s decision")
            return game, problems
        game.apply(action)
    if r.stop is not None:
        if game.decision is None:
            problems.append(f"stop line: the game is over after {len(r.actions)} actions, so "
                            "its record ends with an end line, not a stop line")
        return game, problems
    if game.decision is not None:
        problems.append(f"the record ends after {len(r.actions)} actions, before the game does, "
                        "with no end line and no stop line")
        return game, problems
    if r.end is None:
        problems.append(f"the record ends after {len(r.actions)} actions, the game's last, "
                        "but has no end line")
        return game, problems
    expected = end_line(game, final_scores(game))
    for key in ("scores", "winners", "forest", "turns"):
        if expected[key] == r.end.get(key):
            continue
        if key == "forest" and end_line(game, final_scores(game),
                                        False)["forest"] == r.end.get("forest"):
            continue  # a record written before the side shorthand: numbered slot ids
        problems.append(f"end line: {key} differ")
    return game, problems
