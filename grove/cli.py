"""The `grove` command line: thin click commands over the public API in `grove.api`.

Every command turns `DiagnosticError` into printed diagnostics and an exit code, so no input, good
or bad, ends in a traceback. A command's result goes to stdout; diagnostics, logs and progress go
to stderr (as JSON lines with `--json` or `lint --format json`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
import warnings
from collections.abc import Callable, Iterable
from functools import wraps
from pathlib import Path
from typing import Any

import click

from dsl.diagnostics import (
    Diagnostic,
    DiagnosticError,
    Severity,
    Span,
    echo_text,
    escape,
    escape_json,
    format_json,
    format_text,
)

# The exit-code table, one for every command (README, docs/diagnostics.md):
#   0  fine (warnings alone, unless `lint --strict`)
#   1  the input was read and is wrong: lint findings, an illegal forest, a record that differs,
#      broken card data
#   2  usage or I/O: a bad option, an edition or combination asked on the command line that does
#      not exist, a file that cannot be read or written, a tool grove needs is missing
# Where diagnostics of both kinds are printed, 2 wins: grove could not do what was asked.
EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
# `grove simulate` stopped by Ctrl-C or SIGTERM, after writing what it holds: the shell's code
# for a command ended by SIGINT (128 + 2), so a script sees that the run is not whole
EXIT_INTERRUPTED = 130
USAGE_PREFIXES = ("IO-", "USAGE-")
# Codes that are usage errors when nothing in a file is to blame (no span): the same code with a
# position is a finding in a card file (`expansion_of` names an unknown edition), hence exit 1.
USAGE_CODES = frozenset({"EDITION-UNKNOWN", "EDITION-COMBINATION", "EDITION-NOT-STANDALONE",
                         "EDITION-SETUP-MISSING", "NEW-NO-HOST", "SHEET-SHAPING"})


def is_usage(d: Diagnostic) -> bool:
    """Whether `d` means exit 2 (usage or I/O) rather than 1 (the input is wrong)."""
    return d.code.startswith(USAGE_PREFIXES) or (d.code in USAGE_CODES and d.span is None)


def exit_code(diags: Iterable[Diagnostic], strict: bool = False) -> int:
    """The exit code for what a command printed: the one table, so commands cannot disagree."""
    diags = list(diags)
    if any(is_usage(d) for d in diags):
        return EXIT_USAGE
    if any(d.is_error or (strict and d.severity is Severity.WARNING) for d in diags):
        return EXIT_FINDINGS
    return EXIT_OK


def _rel(d: Diagnostic) -> Diagnostic:
    if d.span is None:
        return d
    try:
        rel = os.path.relpath(d.span.file)
    except ValueError:
        return d
    if rel.startswith(".."):
        return d
    from dataclasses import replace

    return replace(d, span=replace(d.span, file=rel))


def print_diagnostics(diags: Iterable[Diagnostic], fmt: str = "text", err: bool = True) -> None:
    """Every diagnostic grove prints passes here, so each is escaped and cut (`format_text`,
    `format_json`) whichever command found it. `err=False` is for `lint --format json`, whose
    findings are its result and go to stdout."""
    diags = [_rel(_positioned(d)) for d in diags]
    if fmt == "json":
        if diags:
            click.echo(format_json(diags), err=err)
        return
    for d in diags:
        click.echo(format_text(d, _source_of(d)), err=err)


def _source_of(d: Diagnostic) -> dict[str, list[str]] | None:
    """The one source line `format_text` shows for `d`, read no further than it needs: the
    printer would read the whole file, and a file of 400 MB (refused at 1:1 as too large) then
    took 840 MB to say so. A line longer than the window around the caret is read only as far as
    the window, and one character more so the printer still marks it as cut."""
    from dsl.diagnostics import WINDOW

    if d.span is None:
        return None
    width = max(1, (d.span.end_col or d.span.col) - d.span.col)
    need = d.span.col + min(width, WINDOW) + WINDOW + 1
    try:
        with open(d.span.file, encoding="utf-8") as fh:
            for n in range(1, d.span.line + 1):
                line = fh.readline(need)
                if not line:
                    return {d.span.file: []}
                if n < d.span.line:
                    while not line.endswith("\n"):  # the rest of a long line before it
                        line = fh.readline(1 << 16)
                        if not line:
                            return {d.span.file: []}
    except (OSError, UnicodeDecodeError):
        return {d.span.file: []}
    return {d.span.file: [""] * (d.span.line - 1) + [line.rstrip("\n")]}


def echo_json(obj: Any) -> None:
    """A command's `--json` result on stdout: names and rules text from the input pass through
    `escape_json`, as diagnostics do, so a U+202E in a player's name cannot reorder a terminal."""
    click.echo(escape_json(json.dumps(obj, ensure_ascii=False, indent=2)))


def guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Bad input becomes diagnostics and an exit code; never a traceback."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        # the YAML library warns of a reused anchor by printing the input's lines raw on stderr,
        # around grove's own diagnostics; reusing an anchor is allowed YAML, so it says nothing
        warnings.filterwarnings("ignore", module=r"ruamel\.")
        # `--json` (or lint's `--format json`; sheet's --format is pdf or html): a program reads
        # stderr too, so the diagnostics come as JSON lines there
        fmt = "json" if kwargs.get("as_json") or kwargs.get("fmt") == "json" else "text"
        try:
            return fn(*args, **kwargs)
        except DiagnosticError as exc:
            print_diagnostics(exc.diagnostics, fmt)
            sys.exit(exit_code(exc.diagnostics) or EXIT_FINDINGS)
        except BrokenPipeError:
            sys.exit(EXIT_OK)

    return wrapper


def card_sets(fn: Callable[..., Any]) -> Callable[..., Any]:
    """`--cards DIR` (repeatable): an author's card-set folders, searched before `GROVE_CARDS`
    and the shipped editions; the command receives the search path as `roots`."""

    @click.option("--cards", "cards_dirs", multiple=True, type=click.Path(file_okay=False),
                  metavar="DIR", help="a card-set folder to search first (repeatable; also "
                  "GROVE_CARDS=DIR:DIR)")
    @wraps(fn)
    def wrapper(*args: Any, cards_dirs: tuple[str, ...] = (), **kwargs: Any) -> Any:
        from compiler.search_path import search_path

        return fn(*args, roots=search_path(cards_dirs), **kwargs)

    return wrapper


def _expansions(value: str | None) -> list[str]:
    return [x.strip() for x in (value or "").split(",") if x.strip()]


class _Group(click.Group):
    """click reports a bad option itself, as text. With `--json` (or `--format json`) on the
    command line a program reads stderr as JSON lines, so there the error comes as one, with
    the same exit code (2)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta["grove.argv"] = list(args)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            argv = ctx.meta.get("grove.argv", [])
            pairs = set(zip(argv, argv[1:], strict=False))
            if "--json" not in argv and ("--format", "json") not in pairs \
                    and "--format=json" not in argv:
                # click echoes the option or value it refuses: escaped and cut like any input
                message = echo_text(exc.format_message())
                exc.format_message = lambda: message  # type: ignore[method-assign]
                raise
            where = exc.ctx.command_path if exc.ctx else "grove"
            print_diagnostics([Diagnostic("USAGE-BAD-OPTION", Severity.ERROR, None,
                                          exc.format_message(), f"{where} --help")], "json")
            sys.exit(EXIT_USAGE)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="grove")
def main() -> None:
    """grove: card database and rules toolchain for the Forest Shuffle family."""


@main.command()
@click.option("--json", "as_json", is_flag=True, help="print JSON to stdout")
@guarded
@card_sets
def editions(as_json: bool, roots) -> None:
    """List the editions grove knows, what combines with what, and where each was found."""
    from grove import api

    rows = api.editions(roots)
    if as_json:
        echo_json(rows)
        return
    for r in rows:  # an author's edition: its id, names and folder are input, echoed escaped
        kind = "standalone" if r["standalone"] else f"expansion of {r['expansion_of']}"
        extra = f"; combines with {', '.join(r['combines_with'])}" if r["combines_with"] else ""
        click.echo(echo_text(f"{r['id']:<16} {r['names']['en']} ({kind}{extra}): "
                              f"{r['species']} species, {r['cards']} cards"))
        if not _shipped(r["folder"]):
            click.echo(f"{'':<16} from {echo_text(_display(r['folder']))}")


@main.command()
@click.argument("edition")
@click.option("--with", "with_", default="", help="expansions, comma-separated")
@click.option("--lang", default=None, help="print the rules as rule-book text (en, de, it, th)")
@click.option("--json", "as_json", is_flag=True)
@guarded
@card_sets
def cards(edition: str, with_: str, lang: str | None, as_json: bool, roots) -> None:
    """List every species of an edition with its facts and rules."""
    from grove import api

    lang_given, lang = lang is not None, _language(lang or "en")

    rows = api.cards(edition, _expansions(with_), lang if lang_given or as_json else "", roots)
    if as_json:
        echo_json(rows)
        return
    for r in rows:  # names and rules come from card files, perhaps an author's: echoed escaped
        click.echo(echo_text(f"{r['name']} [{r['key']}] {r['kind']}, cost {r['cost']}, "
                              f"{r['copies']}x, types {', '.join(r['types']) or '-'}"))
        for f in ("effect", "bonus", "trigger", "placement", "modifier", "score"):
            if lang_given and r["text"].get(f):
                from printouts.rules_text import field_label

                click.echo(f"    {field_label(f, lang)}: {echo_text(r['text'][f])}")
            elif r["rules"].get(f):
                click.echo(f"    {f}: {echo_text(r['rules'][f])}")


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
@click.option("--strict", is_flag=True, help="warnings count as findings")
@click.option("--provisional", is_flag=True, help="list facts marked provisional")
@guarded
@card_sets
def lint(paths: tuple[str, ...], fmt: str, strict: bool, provisional: bool, roots) -> None:
    """Check card sets, editions and forest files; never changes a file."""
    from grove import api

    for p in paths:
        if not Path(p).exists():
            raise DiagnosticError([Diagnostic("IO-NOT-FOUND", Severity.ERROR, None,
                                              f"{p}: no such file or directory")])
        if Path(p).is_file():  # a file named here may be a record, read whole: size it first
            _record_size(p, record=False)
    diags = api.lint(list(paths) or list(roots), provisional=provisional, roots=roots)
    print_diagnostics(diags, fmt, err=fmt == "text")  # as JSON, the findings are the result
    errors = sum(d.is_error for d in diags)
    warnings = sum(d.severity is Severity.WARNING for d in diags)
    if fmt == "text":
        click.echo(f"{errors} error(s), {warnings} warning(s)", err=True)
    sys.exit(exit_code(diags, strict))  # a file it could not read is exit 2, as for `score`


@main.command()
@click.argument("forest_file", type=click.Path())
@click.option("--explain", is_flag=True, help="show every card's points and the rule behind them")
@click.option("--json", "as_json", is_flag=True)
@click.option("--lang", default="en", show_default=True)
@guarded
@card_sets
def score(forest_file: str, explain: bool, as_json: bool, lang: str, roots) -> None:
    """Score the forests of a finished game: a forest file (YAML or JSON), or a game record
    (`grove play --record`), whose end line holds the final forests."""
    from grove import api, report

    _language(lang)
    _record_size(forest_file, record=False)
    result = api.score_file(forest_file, explain=explain, roots=roots)
    if as_json:
        echo_json(result)
        return
    click.echo(report.scoreboard(result, api.cardset_of(result, roots), lang, explain=explain))


@main.command()
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
    from engine import players as pl
    from engine import runner
    from engine.game import SetupError
    from grove import api, report
    from grove.game_log import GameLog

    _language(lang)
    resume: list[str] = []
    if resume_path:
        ctx = click.get_current_context()
        given = [f"--{name.rstrip('_').replace('n_', '')}" for name in
                 ("edition", "with_", "n_players", "ai", "seed")
                 if ctx.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE]
        if given:
            _usage(f"--resume plays on with the record's edition, players and seed; leave out "
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
                _usage(f"--ai names {len(kinds)} players but --players says {n_players}")
        names = [f"{k.title()} {i + 1}" for i, k in enumerate(kinds)]
    bad = [k for k in kinds if k not in (*pl.KINDS, "human")]
    if bad or not kinds:
        _usage(f"unknown AI kind {bad[0]!r}; choose from random, greedy, human" if bad
               else "--ai needs at least one player")
    for out_path in (record_path, final_path):  # before the game: no output if one can't be
        if out_path:
            _writable(out_path)
    if not resume_path:
        cset = cs.build(edition, _expansions(with_), roots)
    if cset.setup.removed_for(frozenset(cset.expansions), len(kinds)) is None:
        _usage(f"{edition} has no set-up for {len(kinds)} players")

    human = "human" in kinds
    screen = human and not (plain or as_json) and sys.stdin.isatty() and sys.stdout.isatty()
    said: list[str] = []  # the game log so far, for a human's `log`
    logs: dict[int, GameLog] = {}

    def log(game, action) -> None:  # an engine.action.Action
        if not human and (as_json or quiet):
            return  # nobody reads the game log: worded only where it is shown or asked for
        if id(game) not in logs:
            logs[id(game)] = GameLog(game, lang)
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
        _usage(f"{_display(record_path or '')}: {exc.strerror or exc}", code="IO-WRITE")
    except SetupError as exc:
        raise DiagnosticError([Diagnostic(
            "PLAY-SETUP", Severity.ERROR, None, f"{cset.root.id}: {exc}",
            "give the deck more cards or remove fewer in `setup: removed:`")]) from None
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
                          f"`grove score {_display(final_path)}` scores them")
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
            click.echo(w("resume", record=_display(record_path)), err=True)
    if out.stopped == "interrupt":
        sys.exit(EXIT_INTERRUPTED)


def _resumable(path: str, roots) -> tuple[Any, Any]:
    """The record of a game to go on with, replayed: every action it holds must replay, and the
    game must still be going (a stop line, or a record cut short)."""
    r, cset, game, problems, lines = _replayed(path, roots)
    problems = [p for p in problems if not p.startswith("the record ends")]
    if problems:
        raise DiagnosticError([_difference(p, path, lines) for p in problems])
    if game.decision is None:
        _usage(f"{_display(path)}: the game is over, there is nothing to resume; "
               f"`grove replay {_display(path)}` shows how it ended")
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


@main.command()
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

    r, cset, game, problems, lines = _replayed(record_file, roots)
    if problems and problems[0].startswith("the record ends"):  # cut short: never verified
        raise DiagnosticError([error(
            "RECORD-UNFINISHED", Span(record_file, lines[-1], 1),
            f"{problems[0]}: the record was cut short",
            "a finished game ends with an end line, a game a player quit with a stop line; "
            "play the game again to its end to get a whole record")])
    if problems:  # any difference is exit 1, with or without --verify; each at its line
        raise DiagnosticError([_difference(p, record_file, lines) for p in problems])
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


def _replayed(record_file: str, roots) -> tuple[Any, Any, Any, list[str], list[int]]:
    """A record read, its card set built and checked, and its game replayed: the record, the
    card set, the game, the differences found and the record's line numbers (`replay` and
    `play --resume` alike)."""
    from compiler import cardset as cs
    from dsl.diagnostics import error
    from engine import record as rec
    from engine import runner

    where = Path(record_file)
    if not where.is_file():  # a file that is not there is a usage error (exit 2), not a bad record
        raise DiagnosticError([error("IO-NOT-FOUND", None, f"{record_file}: " + (
            "is a directory" if where.is_dir() else "no such file"))])
    _record_size(record_file, record=True)
    _record_text(record_file)
    try:
        r = rec.read(record_file)
    except rec.RecordError as exc:
        raise DiagnosticError([_record_bad(str(exc), record_file)]) from None
    lines = _record_lines(record_file)
    h = r.header
    try:
        cset = cs.build(str(h.get("edition")), list(h.get("with") or ()), roots)
        changed = rec.changed_cards(cset, h)
        if changed:  # a replay against other cards would only report a confusing difference
            raise DiagnosticError([error(
                "RECORD-CARDS-CHANGED", Span(record_file, lines[0], 1), c,
                "replay with the card set the game was played with (--cards DIR or GROVE_CARDS)")
                for c in changed])
        game, problems = runner.replay(cset, r)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DiagnosticError([error(
            "RECORD-BAD", Span(record_file, lines[0], 1),
            f"the header is incomplete ({type(exc).__name__}: {exc})",
            "a record is what `grove play --record FILE` writes")]) from None
    return r, cset, game, problems, lines


# A record is read whole, so its size is checked first: five random players record 40 KB
MAX_RECORD_BYTES = 4 * 1024 * 1024
_AT = re.compile(r"(\d+)(?::(\d+))?: (.*)", re.S)


def _record_size(path: str, record: bool) -> None:
    """INPUT-TOO-LARGE for a file beyond `MAX_RECORD_BYTES`, before anything reads it: the
    record reader holds a whole record (a forest file's own, lower limit is the forest reader's).
    """
    try:
        size = os.stat(path).st_size
    except OSError:
        return  # not there: the reader says so
    if size > MAX_RECORD_BYTES:
        from compiler.yaml_source import MAX_FOREST_FILE_BYTES

        limits = (f"a game record of at most {MAX_RECORD_BYTES}" if record else
                  f"a forest file of at most {MAX_FOREST_FILE_BYTES} bytes or a game record of "
                  f"at most {MAX_RECORD_BYTES}")
        raise DiagnosticError([Diagnostic(
            "INPUT-TOO-LARGE", Severity.ERROR, Span(path, 1, 1),
            f"the file has {size} bytes; grove reads {limits} bytes")])


def _record_text(path: str) -> None:
    """IO-ENCODING (exit 2, as for every file that is not UTF-8) at the first byte that is not,
    rather than the record reader's RECORD-BAD without a place."""
    raw = Path(path).read_bytes()
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise DiagnosticError([Diagnostic("IO-ENCODING", Severity.ERROR, Span(path, line, col),
                                          f"not UTF-8 text ({exc.reason})")]) from None


def _record_bad(message: str, path: str) -> Diagnostic:
    """RECORD-BAD from the engine's record reader, whose message starts `path:line[:col]: `:
    that position becomes the diagnostic's, so it prints as `file:line:col` and with `--json`
    fills `line` and `col`, like every other diagnostic."""
    hint = "a record is what `grove play --record FILE` writes"
    if message.startswith(f"{path}:"):
        m = _AT.fullmatch(message[len(path) + 1:])
        if m:
            col = int(m[2]) if m[2] else 1
            return Diagnostic("RECORD-BAD", Severity.ERROR, Span(path, int(m[1]), col), m[3],
                              hint)
        return Diagnostic("RECORD-BAD", Severity.ERROR, None, message, hint)
    return Diagnostic("RECORD-BAD", Severity.ERROR, None, message, hint)


_NAMED = re.compile(r"(.+?):\d+(?::\d+)?: ", re.S)


def _positioned(d: Diagnostic) -> Diagnostic:
    """A RECORD-BAD raised without a position (`grove score` or `grove lint` of a record; the
    forest reader keeps the record reader's message), given the one its message starts with:
    the same diagnostic replay prints for the same record."""
    if d.code != "RECORD-BAD" or d.span is not None:
        return d
    m = _NAMED.match(d.message)
    if m is None or not os.path.isfile(m[1]):
        return d
    found = _record_bad(d.message, m[1])
    return Diagnostic(d.code, d.severity, found.span, found.message, d.hint or found.hint)


def _record_lines(path: str) -> list[int]:
    """The numbers of a record's non-blank lines: the reader skips blank ones, so the n-th line
    it read is the file's line `_record_lines(path)[n - 1]`."""
    with open(path, encoding="utf-8") as fh:
        found = [n for n, line in enumerate(fh, 1) if line.strip()]
    return found or [1]


def _difference(problem: str, path: str, lines: list[int]) -> Diagnostic:
    """A difference `runner.replay` found (`line N: ...`, `end line: ...`, `stop line: ...`,
    `header: ...`) as RECORD-DIFFERS at the line of the record it concerns."""
    m = re.match(r"line (\d+): (.*)", problem, re.S)
    if m:
        n = int(m[1])
        at, message = (lines[n - 1] if n <= len(lines) else n), m[2]
    elif problem.startswith(("end line:", "stop line:")):
        at, message = lines[-1], problem
    else:
        at, message = lines[0], problem
    return Diagnostic("RECORD-DIFFERS", Severity.ERROR, Span(path, at, 1), message)


@main.command()
@click.option("--edition", required=True, help="a standalone edition")
@click.option("--with", "with_", default="", help="expansions, comma-separated")
@click.option("--lang", "langs", required=True, help="languages, comma-separated (en, de, it, th)")
@click.option("-o", "--output", "out", default=None,
              help="file for one language; folder for several (default: sheet-EDITION-LANG.pdf here)")
@click.option("--format", "fmt", type=click.Choice(["pdf", "html"]), default="pdf", show_default=True)
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@guarded
@card_sets
def sheet(edition: str, with_: str, langs: str, out: str | None, fmt: str, paper: str,
          roots) -> None:
    """Print quick-reference sheets: turn, set-up, slot diagrams, symbols, every species."""
    from grove import api

    # a DiagnosticError goes to `guarded`, like every command's: the common printer escapes and
    # cuts what it echoes, and the common table gives the exit code
    paths = api.sheet(edition, _expansions(with_), _expansions(langs), out, fmt, paper, roots)
    for p in paths:
        click.echo(f"wrote {echo_text(str(p))} ({p.stat().st_size // 1024} KiB)", err=True)


@main.command()
@click.argument("name")
@click.option("--expansion-of", "expansion_of", default=None, metavar="EDITION",
              help="make an expansion of this standalone edition")
@click.option("-o", "--output", "out", default=None, help="the folder to create (default: ./NAME)")
@guarded
@card_sets
def new(name: str, expansion_of: str | None, out: str | None, roots) -> None:
    """Start a card set of your own: a folder that lints, scores, plays and prints as it is."""
    from grove import scaffold

    made = scaffold.create(name, out, expansion_of, roots)
    folder = _display(str(made.folder))
    for f in made.files:
        click.echo(f"wrote {echo_text(_display(str(f)))}", err=True)
    game = f"--edition {made.edition}" + (f" --with {','.join(made.expansions)}"
                                          if made.expansions else "")
    click.echo("\n".join(escape(line) for line in [  # the folder is the user's: escaped
        "next:",
        f"  grove lint {folder}",
        f"  grove score --cards {folder} {_display(str(made.forest))}",
        f"  grove play --cards {folder} {game} --ai greedy,random",
        f"  grove sheet --cards {folder} {game} --lang en,de,it,th -o sheets/",
    ]))


@main.command()
@click.option("--stdio", is_flag=True, help="talk over stdin and stdout (the only way; editors "
              "pass it)")
@guarded
@card_sets
def lsp(stdio: bool, roots) -> None:
    """A language server for card files and forest files, on stdin and stdout.

    Diagnostics as `grove lint` reports them while you type, completion of keys and of the
    rules language, hover with the rules text (initializationOptions {"lang": "de"}), go to
    definition, an outline and quick fixes. docs/editors.md sets up an editor."""
    del stdio
    import logging

    from grove.lsp.documents import Session
    from grove.lsp.server import build_server

    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    build_server(Session(roots)).start_io()


@main.command()
@click.option("--edition", required=True, help="a standalone edition")
@click.option("--with", "with_", default="", help="expansions, comma-separated")
@click.option("--ai", required=True, help="one AI kind per seat, comma-separated: random, greedy")
@click.option("--games", type=int, required=True, help="how many games to play")
@click.option("--seed", type=int, default=0, show_default=True,
              help="the run's seed; each game's seed follows from it and the game's number")
@click.option("--rotate", is_flag=True, help="move the AIs one seat on from game to game")
@click.option("--jobs", type=int, default=None,
              help="worker processes (or local cluster workers)  [default: the cores]")
@click.option("--cluster", default=None, metavar="local|ADDRESS",
              help="play on Dask: 'local' starts a local cluster of --jobs workers, an address "
              "joins a running scheduler")
@click.option("--out", default=None, type=click.Path(),
              help="the run's folder  [default: simulate-EDITION-SEED]")
@click.option("--json", "as_json", is_flag=True, help="print the summary as JSON")
@guarded
@card_sets
def simulate(edition: str, with_: str, ai: str, games: int, seed: int, rotate: bool,
             jobs: int | None, cluster: str | None, out: str | None, as_json: bool,
             roots) -> None:
    """Play a batch of games and write games.parquet, cards.parquet, summary.json and
    report.html: win rates by seat and AI, and what each species brings."""
    from tqdm import tqdm

    from grove import api

    bar = tqdm(total=games if games > 0 else None, unit="game", file=sys.stderr,
               disable=as_json or not sys.stderr.isatty(), dynamic_ncols=True, smoothing=0.05)
    try:
        outcome = api.simulate(edition, _expansions(with_), ai.split(","), games, seed, rotate,
                               jobs, cluster, out, roots, on_progress=bar.update)
    except KeyboardInterrupt:  # before the first game: nothing was written
        bar.close()
        print_diagnostics([Diagnostic("SIM-STOPPED", Severity.WARNING, None,
                                      "stopped before the first game; nothing was written")],
                          "json" if as_json else "text")
        sys.exit(EXIT_INTERRUPTED)
    finally:
        bar.close()
    summary = outcome.summary
    diags = [Diagnostic("SIM-GAME-FAILED", Severity.ERROR, None,
                        f"game {f['game']} (seed {f['seed']}, --ai {','.join(f['ai'])}) failed: "
                        f"{f['error']}",
                        f"grove play --edition {edition}"
                        f"{' --with ' + with_ if with_ else ''} --ai {','.join(f['ai'])} "
                        f"--seed {f['seed']} plays it again")
             for f in summary["failed"][:10]]
    if summary["games_failed"] > len(diags):
        diags.append(Diagnostic("SIM-GAME-FAILED", Severity.ERROR, None,
                                f"{summary['games_failed']} games failed in all; summary.json "
                                "lists the first 100"))
    if outcome.interrupted:
        diags.append(Diagnostic("SIM-STOPPED", Severity.WARNING, None,
                                f"the run was stopped and holds the {summary['games']} of "
                                f"{summary['games_asked']} games that had finished"))
    if as_json:
        echo_json(summary)
    else:
        click.echo(echo_text(_simulate_text(summary)))
        click.echo(f"wrote {echo_text(_display(str(outcome.folder)))}/"
                   "{games.parquet,cards.parquet,summary.json,report.html}", err=True)
    print_diagnostics(diags, "json" if as_json else "text")
    if outcome.interrupted:
        sys.exit(EXIT_INTERRUPTED)
    sys.exit(EXIT_FINDINGS if summary["games_failed"] else EXIT_OK)


def _simulate_text(s: dict[str, Any]) -> str:
    def pct(x: float | None) -> str:
        return "-" if x is None else f"{100 * x:.1f}%"

    def ci(c: list[float] | None, scale: float = 100, unit: str = "%") -> str:
        return "" if c is None else f" ({scale * c[0]:.1f} to {scale * c[1]:.1f}{unit})"

    def mean(x: float | None) -> str:
        return "-" if x is None else f"{x:.1f}"

    edition = s["edition"] + (f" with {', '.join(s['with'])}" if s["with"] else "")
    lines = [f"{edition}: {s['games']} games, seed {s['seed']}, AIs {', '.join(s['ai'])}"
             + (" rotated" if s["rotate"] else "")]
    for r in s["seats"]:
        lines.append(f"  seat {r['seat']:<10} wins {pct(r['win_rate'])}{ci(r['win_ci95'])}, "
                     f"mean total {mean(r['mean_total'])}{ci(r['total_ci95'], 1, '')}")
    for r in s["ais"]:
        lines.append(f"  {r['ai']:<15} wins {pct(r['win_rate'])}{ci(r['win_ci95'])}, "
                     f"mean total {mean(r['mean_total'])}{ci(r['total_ci95'], 1, '')}")
    t = s["turns"]
    lines.append(f"  turns           mean {mean(t['mean'])}, min {t['min']}, max {t['max']}")
    return "\n".join(lines)


@main.command()
@click.argument("run_a", type=click.Path())
@click.argument("run_b", type=click.Path())
@click.option("--correction", type=click.Choice(["holm", "bh"]), default="holm", show_default=True,
              help="for the number of figures compared: Holm, or Benjamini-Hochberg")
@click.option("--json", "as_json", is_flag=True, help="print the comparison as JSON")
@guarded
def compare(run_a: str, run_b: str, correction: str, as_json: bool) -> None:
    """Two runs of `grove simulate` side by side: every seat, AI, turn and species figure, and
    which moved beyond chance."""
    from grove import api

    result = api.compare(run_a, run_b, correction)
    if as_json:
        echo_json(result)
        return
    a, b = result["a"], result["b"]
    lines = [f"A: {a['run']}: {a['edition']}, {a['games']} games, seed {a['seed']}",
             f"B: {b['run']}: {b['edition']}, {b['games']} games, seed {b['seed']}"]
    name = {"holm": "Holm", "bh": "Benjamini-Hochberg"}[correction]
    if result["changed"]:
        lines.append(f"{'figure':<28} {'what':<24} {'A':>10} {'B':>10} {'p':>10}")
        for c in result["changed"]:
            lines.append(f"{c['id']:<28} {c['what']:<24} {_figure(c['a']):>10} "
                         f"{_figure(c['b']):>10} {c['p']:>10.3g}")
        lines.append(f"{len(result['changed'])} of {result['compared']} figures changed beyond "
                     f"chance ({name}, {result['alpha']:.0%})")
    else:
        lines.append(f"nothing changed beyond chance: {result['compared']} figures compared "
                     f"({name}, {result['alpha']:.0%})")
    click.echo(echo_text("\n".join(lines)))


def _figure(x: float | None) -> str:
    return "-" if x is None else f"{x:.4g}"


def _shipped(folder: str) -> bool:
    from compiler.search_path import shipped_cards_dir

    return Path(folder).resolve().parent == shipped_cards_dir().resolve()


def _display(path: str) -> str:
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def _writable(path: str) -> None:
    """IO-WRITE before any work when `path` cannot be an output file: its folder is missing, or
    it is a folder. (A full disk shows only when written: `play` then removes its record.)"""
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    if p.is_dir() or not folder.is_dir():
        why = "is a folder" if p.is_dir() else f"no folder {_display(str(folder))}"
        _usage(f"{_display(path)}: cannot write: {why}", code="IO-WRITE")


def _usage(message: str, code: str = "USAGE-BAD-OPTION") -> None:
    raise DiagnosticError([Diagnostic(code, Severity.ERROR, None, message)])


def _language(lang: str) -> str:
    """`lang` if grove has a catalog for it: an unknown one would quietly print English, so it
    is a usage error (exit 2) that lists the languages. Reads the catalog folder only, so a
    command that renders no rules text does not pay for the renderer."""
    from printouts.phrases import available_languages

    known = available_languages()
    if lang not in known:
        _usage(f"unknown language {lang!r}; choose from {', '.join(known)}", "USAGE-LANGUAGE")
    return lang
