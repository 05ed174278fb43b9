"""`grove play` and `grove replay`: a game played (by AIs or a person, written to a record,
stopped and resumed) and a record played again. They share the record: `play --record` writes
it, `replay` checks it line by line, `play --resume` goes on with it.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any

import click

from dsl.diagnostics import Diagnostic, DiagnosticError, Severity, Span, echo_text
from grove.commands.common import (
    EXIT_INTERRUPTED,
    card_sets,
    display,
    echo_json,
    expansions,
    guarded,
    language,
    usage_error,
    writable,
)
from grove.commands.records import difference, replayed


@click.command()
@click.option("--edition", default="base", show_default=True)
@click.option("--with", "with_", default="", help="expansions, comma-separated")
@click.option("--players", "n_players", type=int, default=None, help="number of players")
@click.option("--ai", default=None, help="one kind per player: random, greedy, human; with "
              "--players N, one kind plays every seat  [default: greedy, 2 players]")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--record", "record_path", type=click.Path(), default=None)
@click.option("--final", "final_path", type=click.Path(dir_okay=False), default=None,
              help="write the final forests to FILE as a forest file (YAML) for `grove score`")
@click.option("--json", "as_json", is_flag=True)
@click.option("--quiet", is_flag=True, help="no game log (a human player at a prompt still "
              "sees it)")
@click.option("--lang", default="en", show_default=True)
@click.option("--plain", is_flag=True, help="a human plays at a prompt, not on the full screen")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False), default=None,
              help="go on with the stopped game of a record (its edition, players and seed); "
              "the record is written again, to --record or the same file")
@guarded
@card_sets
def play(edition: str, with_: str, n_players: int | None, ai: str | None, seed: int,
         record_path: str | None, as_json: bool, quiet: bool, lang: str, roots,
         final_path: str | None = None, plain: bool = False,
         resume_path: str | None = None) -> None:
    """Play a complete game and print its log and scoreboard."""
    from compiler import cardset as cs
    from engine import ai as pl
    from engine import runner
    from engine.game import SetupError
    from grove import api, report
    from grove.game_log import GameLog

    language(lang)
    resume: list[str] = []
    if resume_path:
        ctx = click.get_current_context()
        given = [f"--{name.rstrip('_').replace('n_', '')}" for name in
                 ("edition", "with_", "n_players", "ai", "seed")
                 if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE]
        if given:
            usage_error(f"--resume plays on with the record's edition, players and seed; leave out "
                   f"{', '.join(given)}")
        r, cset = _resumable(resume_path, roots)
        resume = [a["action"] for a in r.actions]
        edition, seed = cset.root.id, int(r.header["seed"])
        with_ = ",".join(cset.expansions)
        names = [str(p["name"]) for p in r.header["players"]]
        kinds = [str(p["ai"]) for p in r.header["players"]]
        record_path = record_path or resume_path
    else:
        # without --ai every seat is greedy, so `--players 3` alone is a game of three
        kinds = [k.strip() for k in (ai if ai is not None else "greedy").split(",") if k.strip()]
        if n_players is None and ai is None:
            kinds *= 2
        elif n_players is not None:
            if len(kinds) == 1:
                kinds = kinds * n_players
            elif len(kinds) != n_players:
                usage_error(f"--ai names {len(kinds)} players but --players says {n_players}")
        names = [f"{k.partition(':')[0].title()} {i + 1}" for i, k in enumerate(kinds)]
    bad = [pl.problem(k) for k in kinds if k != "human" and pl.problem(k)]
    if bad or not kinds:
        usage_error(f"{bad[0]}; choose from random, greedy, mcts, mcts:N (iterations), mcts:Ns "
                    "(seconds) and human" if bad else "--ai needs at least one player")
    for out_path in (record_path, final_path):  # before the game: no output if one can't be
        if out_path:
            writable(out_path)
    if not resume_path:
        cset = cs.build(edition, expansions(with_), roots)
    if cset.setup.removed_for(frozenset(cset.expansions), len(kinds)) is None:
        usage_error(f"{edition} has no set-up for {len(kinds)} players")

    human = "human" in kinds
    screen = human and not (plain or as_json) and sys.stdin.isatty() and sys.stdout.isatty()
    said: list[str] = []  # the game log so far, for a human's `log`
    logs: dict[int, GameLog] = {}

    def log(game, action) -> None:  # an engine.action.Action
        if not human and (as_json or quiet):
            return  # nobody reads the game log: worded only where it is shown or asked for
        if id(game) not in logs:
            # a person reads the log of what their seat saw; an all-AI game's is a referee's
            logs[id(game)] = GameLog(game.seats[kinds.index("human")] if human else game, lang)
        lines = logs[id(game)].new_lines()
        said.extend(lines)
        if len(game.history) <= len(resume):
            return  # the resumed part was shown when it was played
        # a human at a prompt learns what the others did from the log, --quiet or not
        if as_json or (quiet and not human):
            return
        for line in lines:
            click.echo(echo_text(line), err=True)  # card names from an author's card files

    fh = _RecordFile(record_path) if record_path else None
    try:
        if screen:
            from grove.terminal.app import play_on_screen

            out = play_on_screen(cset, kinds, seed, names=names, record=fh, lang=lang,
                                 resume=resume)
        else:
            from grove.terminal.line import LinePlayer

            seats = [LinePlayer(sys.stdin, sys.stderr, lang, log=lambda: said) if k == "human"
                     else None for k in kinds]
            out = runner.play(cset, kinds, seed, names=names, record=fh, on_action=log,
                              players=runner.seats(kinds, seed, seats), resume=resume)
    except OSError as exc:
        if fh:
            fh.discard()  # the game did not end: no record that would read as one cut short
        usage_error(f"{display(record_path or '')}: {exc.strerror or exc}", code="IO-WRITE")
    except SetupError as exc:  # a deal the deck cannot make, or a game past its turn limit
        if fh and fh.fh is not None:  # a game that started: its record is cut short
            fh.discard()
        raise DiagnosticError([Diagnostic(
            exc.code, Severity.ERROR, None, f"{cset.root.id}: {exc}", exc.hint)]) from None
    finally:
        if fh:
            fh.close()
    if out.stopped:
        _stopped(out, record_path, as_json, lang)
        return
    if final_path:  # the final forests, as a player would keep them, written whole or not at all
        from grove import forest_file

        final = runner.final_forest(out.game)
        for p, k in zip(final["players"], kinds, strict=True):
            p["ai"] = k
        forest_file.write(final_path, final, f"the final forests of `grove play --edition "
                          f"{edition}{' --with ' + with_ if with_ else ''} --seed {seed}`; "
                          f"`grove score {display(final_path)}` scores them")
    result = api.result_json(edition, cset.expansions, out.scores, False)
    result.update({"seed": seed, "turns": out.game.turn + 1, "record": record_path})
    for p, k in zip(result["players"], kinds, strict=True):
        p["ai"] = k
    if as_json:
        echo_json(result)
        return
    click.echo(report.scoreboard(result, cset, lang))


def _stopped(out: Any, record_path: str | None, as_json: bool, lang: str) -> None:
    """A game a player stopped: how far it went and how to go on; exit 0 for a quit, 130 (as a
    shell reports SIGINT) for Ctrl-C."""
    from grove.terminal.words import Words

    w = Words(lang)
    if as_json:
        echo_json({"stopped": True, "actions": out.actions, "record": record_path})
    else:
        click.echo("\n" + w("stopped", count=out.actions), err=True)
        if record_path:
            click.echo(w("resume", record=display(record_path)), err=True)
    if out.stopped == "interrupt":
        sys.exit(EXIT_INTERRUPTED)


def _resumable(path: str, roots) -> tuple[Any, Any]:
    """The record of a game to go on with, replayed: every action it holds must replay, and the
    game must still be going (a stop line, or a record cut short)."""
    r, cset, game, problems, lines = replayed(path, roots)
    problems = [p for p in problems if not p.startswith("the record ends")]
    if problems:
        raise DiagnosticError([difference(p, path, lines) for p in problems])
    if game.decision is None:
        usage_error(f"{display(path)}: the game is over, there is nothing to resume; "
               f"`grove replay {display(path)}` shows how it ended")
    bad = [p.get("ai") for p in r.header.get("players", ()) if not isinstance(p, dict)
           or not isinstance(p.get("name"), str) or not isinstance(p.get("ai"), str)]
    if bad:
        raise DiagnosticError([Diagnostic(
            "RECORD-BAD", Severity.ERROR, Span(path, lines[0], 1),
            "the header's players lack a name or an AI kind",
            "a record is what `grove play --record FILE` writes")])
    return r, cset


class _RecordFile:
    """`play --record FILE`: opened at the record's first line, not before, so a game that cannot
    start (no set-up for the deck) neither creates FILE nor empties an older record there; each
    line is flushed as written (a killed game leaves every complete line readable)."""

    def __init__(self, path: str):
        self.path = path
        self.fh: Any = None

    def write(self, text: str) -> int:
        if self.fh is None:
            self.fh = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 - open for the game
        return self.fh.write(text)

    def flush(self) -> None:
        if self.fh is not None:
            self.fh.flush()

    def close(self) -> None:
        if self.fh is not None:
            fh, self.fh = self.fh, None
            with contextlib.suppress(OSError):  # its last lines failed too: reported already
                fh.close()

    def discard(self) -> None:
        """Remove what a game that failed wrote: a half-written record is no record."""
        self.close()
        if Path(self.path).is_file():
            Path(self.path).unlink(missing_ok=True)


@click.command()
@click.argument("record_file", type=click.Path())
@click.option("--verify", is_flag=True,
              help="say 'verified' when every line replays the same (a difference is exit 1 "
              "either way)")
@click.option("--json", "as_json", is_flag=True,
              help="print the replayed game's scores as JSON; diagnostics as JSON lines")
@guarded
@card_sets
def replay(record_file: str, verify: bool, roots, as_json: bool = False) -> None:
    """Re-run a game record."""
    from dsl.diagnostics import error
    from engine import runner
    from grove import api, report

    r, cset, game, problems, lines = replayed(record_file, roots)
    if problems and problems[0].startswith("the record ends"):  # cut short: never verified
        raise DiagnosticError([error(
            "RECORD-UNFINISHED", Span(record_file, lines[-1], 1),
            f"{problems[0]}: the record was cut short",
            "a finished game ends with an end line, a game a player quit with a stop line; "
            "play the game again to its end to get a whole record")])
    if problems:  # any difference is exit 1, with or without --verify; each at its line
        raise DiagnosticError([difference(p, record_file, lines) for p in problems])
    if r.stop is not None:  # left off on purpose: every action held replays, nothing to score
        click.echo(f"stopped after {len(r.actions)} actions: the game was left off before its "
                   "end" + (", every action replays the same" if verify else ""), err=True)
        if as_json:
            echo_json({"record": record_file, "actions": len(r.actions), "stopped": True})
        return
    scores = runner.final_scores(game)
    result = api.result_json(cset.root.id, cset.expansions, scores, False)
    if as_json:
        result.update({"record": record_file, "actions": len(r.actions), "stopped": False})
        echo_json(result)
    else:
        click.echo(report.scoreboard(result, cset))
    if verify:
        click.echo(f"verified: {len(r.actions)} actions, same game", err=True)
