"""`grove play` and `grove replay`: a game played (by AIs or a person, written to a record,
stopped and resumed) and a record played again. They share the record: `play --record` writes
it, `replay` checks it line by line, `play --resume` goes on with it.
"""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any

import click

from grove.commands.common import (
    EXIT_INTERRUPTED,
    card_sets,
    display,
    echo_json,
    expansions,
    guarded,
    json_option,
    lang_option,
    language,
    output_option,
    usage_error,
    writable,
)
from grove.commands.records import FINISHABLE, difference, replayed
from grove.dsl.diagnostics import Diagnostic, DiagnosticError, Severity, Span, echo_text


@click.command(short_help="Play a complete game and print its log and scoreboard.")
@click.option("--edition", default="base", show_default=True, metavar="EDITION",
              help="a standalone edition (`grove editions` lists them)")
@click.option("--with", "with_", default="", metavar="LIST", help="expansions, comma-separated")
@click.option("--players", "n_players", type=int, default=None, help="number of players")
@click.option("--ai", default=None, metavar="LIST", help="one kind per player: random, greedy, "
              "mcts, mcts:N (iterations), mcts:Ns (seconds), a level (easy, medium, hard) or "
              "human; with --players N, one kind plays every seat  [default: greedy, 2 players]")
@click.option("--seed", type=int, default=0, show_default=True,
              help="the deal and the AIs' choices: the same seed and players play the same game")
@output_option("--record", dest="record_path", type=click.Path(), default=None, metavar="FILE",
               help="write the game record (JSON lines) to FILE as the game goes: `grove "
               "replay FILE` plays it again, `grove play --resume FILE` goes on with a stopped "
               "game")
@click.option("--final", "final_path", type=click.Path(dir_okay=False), default=None,
              metavar="FILE",
              help="write the final forests to FILE as a forest file (YAML) for `grove score`")
@json_option("print the final scores as JSON on stdout, and no game log")
@click.option("--quiet", is_flag=True, help="no game log (a human player at a prompt still "
              "sees it)")
@lang_option("the language of the game log, the screen and the scoreboard: {languages}",
             default="en", show_default=True)
@click.option("--plain", is_flag=True, help="a human plays at a prompt, not on the full screen")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False), default=None,
              metavar="FILE",
              help="go on with the stopped game of a record (its edition, players and seed); "
              "the record is written again, to --output or the same file")
@guarded
@card_sets
def play(edition: str, with_: str, n_players: int | None, ai: str | None, seed: int,
         record_path: str | None, as_json: bool, quiet: bool, lang: str, roots,
         final_path: str | None = None, plain: bool = False,
         resume_path: str | None = None) -> None:
    """Play a complete game and print its log and scoreboard."""
    from grove import api, report
    from grove.compiler import cardset as cs
    from grove.engine import ai as pl
    from grove.engine import runner
    from grove.engine.game import SetupError
    from grove.game_log import GameLog

    language(lang)
    resume: list[str] = []
    legacy = False  # a resumed record of format 1 goes on by the rules it was written under
    # before any work: a target grove may not replace (read-only, a symlink, a device) is
    # refused and left alone, and so is the record a resume would write again
    for out_path in (record_path or resume_path, final_path):
        if out_path:
            writable(out_path)
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
        legacy = r.header["format"] == 1
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
        # `greedy!red_fox 1`: the kind's name, and the species a restricted player never plays
        names = [f"{k.partition('!')[0].partition(':')[0].title()}"
                 f"{''.join('!' + b for b in pl.barred(k))} {i + 1}" for i, k in enumerate(kinds)]
        # a level is named as chosen and recorded as the spec it stands for
        kinds = [pl.resolve(k) for k in kinds]
    bad = [pl.problem(k) for k in kinds if k != "human" and pl.problem(k)]
    if bad or not kinds:
        usage_error(f"{bad[0]}; choose from random, greedy, mcts, mcts:N (iterations), mcts:Ns "
                    "(seconds), easy, medium, hard and human" if bad else "--ai needs at least one player")
    if not resume_path:
        cset = cs.build(edition, expansions(with_), roots)
    if cset.setup.removed_for(frozenset(cset.expansions), len(kinds)) is None:
        usage_error(f"{edition} has no set-up for {len(kinds)} players")
    known = {sp.key for sp in cset.species.values()} | {sp.id for sp in cset.species.values()}
    for k in kinds:  # a barred species the card set lacks would bar nothing, without a word
        if k != "human" and (missing := pl.unknown_species(k, known)) is not None:
            usage_error(f"--ai {k}: the card set has no species {missing!r}")

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

    from grove.engine.record import Keeper

    # the record file is whole at every moment; a resume's stays as it was until the new one
    # holds every action it held
    keeper = Keeper(record_path, floor=len(resume)) if record_path else None
    try:
        if screen:
            from grove.terminal.app import play_on_screen

            out = play_on_screen(cset, kinds, seed, names=names, record=keeper, lang=lang,
                                 resume=resume, legacy=legacy)
        else:
            from grove.terminal.line import LinePlayer

            seats = [LinePlayer(sys.stdin, sys.stderr, lang, log=lambda: said, roots=roots)
                     if k == "human"
                     else None for k in kinds]
            with _terminate_as_interrupt():
                out = runner.play(cset, kinds, seed, names=names, record=keeper, on_action=log,
                                  players=runner.seats(kinds, seed, seats), resume=resume,
                                  legacy=legacy)
    except OSError as exc:  # a full disk, or the file made read-only during the game
        usage_error(f"{display(record_path or '')}: {exc.strerror or exc}; "
                    f"{_kept(keeper, resume_path)}", code="IO-WRITE")
    except KeyboardInterrupt:  # a second interrupt, while the first one's stop was written
        _stopped(None, keeper, resume_path, as_json, lang)
        return
    except SetupError as exc:  # a deal the deck cannot make, or a game past its turn limit
        # (the record keeps its last whole copy: a game that turns in circles, to look into)
        raise DiagnosticError([Diagnostic(
            exc.code, Severity.ERROR, None, f"{cset.root.id}: {exc}", exc.hint)]) from None
    if out.stopped:
        _stopped(out, keeper, resume_path, as_json, lang)
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
    click.echo(report.scoreboard(result, cset, lang, final=True))
    if human and not screen:  # a person at the prompt: each forest's points card by card
        for line in report.final_cards(result, cset, lang):
            click.echo(echo_text(line), err=True)


def _stopped(out: Any, keeper: Any, resume_path: str | None, as_json: bool,
             lang: str) -> None:
    """A game a player stopped: how far its record goes and how to go on; exit 0 for a quit, 130
    (as a shell reports SIGINT) for Ctrl-C or SIGTERM. A resume stopped before it had taken
    every action again left its record as it was: that one is the one to go on with."""
    from grove.seatview.words import Words

    w = Words(lang)
    if keeper is not None and keeper.kept is not None:
        actions, record = keeper.kept, keeper.path
    elif resume_path:
        actions, record = keeper.floor if keeper else 0, resume_path
    else:
        actions, record = (out.actions if out else 0), None
    if as_json:
        echo_json({"stopped": True, "actions": actions, "record": record})
    else:
        click.echo("\n" + w("stopped", count=actions), err=True)
        if record:
            click.echo(w("resume", record=display(record)), err=True)
    if out is None or out.stopped == "interrupt":
        sys.exit(EXIT_INTERRUPTED)


def _kept(keeper: Any, resume_path: str | None) -> str:
    """What the record holds after a write failed: its last whole copy, or what it held."""
    if keeper is not None and keeper.kept is not None:
        return (f"the record holds its last whole copy ({keeper.kept} actions); "
                f"go on with `grove play --resume {display(keeper.path)}`")
    return "the record was left as it was" + (
        f"; go on with `grove play --resume {display(resume_path)}`" if resume_path else "")


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (a `kill`, a closing session) stops the game as Ctrl-C does: the record ends
    with its stop line. Only where signals land (the main thread); a SIGTERM the shell ignores
    stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.getsignal(signal.SIGTERM)
    if before is not signal.SIG_IGN:
        signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before if before is not None else signal.SIG_DFL)


def _resumable(path: str, roots) -> tuple[Any, Any]:
    """The record of a game to go on with, replayed: every action it holds must replay, and the
    game must still be going (a stop line, or a record cut short), or be over without its end
    line (killed between its last action and the end line): the resume then writes the end
    line."""
    r, cset, game, problems, lines = replayed(path, roots)
    problems = [p for p in problems if not p.startswith(FINISHABLE)]
    if problems:
        raise DiagnosticError([difference(p, path, lines, r.header) for p in problems])
    if game.decision is None and r.end is not None:
        usage_error(f"{display(path)}: the game is over, there is nothing to resume; "
               f"`grove replay {display(path)}` shows how it ended")
    return r, cset


@click.command(short_help="Play a game record again and check every line of it.")
@click.argument("record_file", type=click.Path())
@click.option("--verify", is_flag=True,
              help="say 'verified' when every line replays the same (a difference is exit 1 "
              "either way)")
@json_option("print the replayed game's scores as JSON on stdout")
@guarded
@card_sets
def replay(record_file: str, verify: bool, roots, as_json: bool = False) -> None:
    """Play a game record again and check every line of it: the same deal, the same choices,
    the same end (a difference is exit 1, at the record's line)."""
    from grove import api, report
    from grove.dsl.diagnostics import error
    from grove.engine import runner

    r, cset, game, problems, lines = replayed(record_file, roots)
    if problems and problems[0].startswith("the record ends"):  # cut short: never verified
        raise DiagnosticError([error(
            "RECORD-UNFINISHED", Span(record_file, lines[-1], 1),
            f"{problems[0]}: the record was cut short",
            f"`grove play --resume {record_file}` "
            + ("writes its end line" if game.decision is None else "goes on with the game")
            + " (a finished game ends with an end line, a game a player quit with a stop line)")])
    if problems:  # any difference is exit 1, with or without --verify; each at its line
        raise DiagnosticError([difference(p, record_file, lines, r.header) for p in problems])
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
