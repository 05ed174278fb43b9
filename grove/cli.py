"""The `grove` command line: thin click commands over the public API in `grove.api`.

Every command turns `DiagnosticError` into printed diagnostics and an exit code, so no input, good
or bad, ends in a traceback. A command's result goes to stdout; diagnostics, logs and progress go
to stderr (as JSON lines with `--json` or `lint --format json`).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterable
from functools import wraps
from pathlib import Path
from typing import Any

import click

from dsl.diagnostics import Diagnostic, DiagnosticError, Severity, format_json, format_text

# The exit-code table, one for every command (README, docs/diagnostics.md):
#   0  fine (warnings alone, unless `lint --strict`)
#   1  the input was read and is wrong: lint findings, an illegal forest, a record that differs,
#      broken card data
#   2  usage or I/O: a bad option, an edition or combination asked on the command line that does
#      not exist, a file that cannot be read or written, a tool grove needs is missing
# Where diagnostics of both kinds are printed, 2 wins: grove could not do what was asked.
EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
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
    diags = [_rel(d) for d in diags]
    if fmt == "json":
        if diags:
            click.echo(format_json(diags), err=err)
        return
    for d in diags:
        click.echo(format_text(d), err=err)


def guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Bad input becomes diagnostics and an exit code; never a traceback."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
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
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    for r in rows:
        kind = "standalone" if r["standalone"] else f"expansion of {r['expansion_of']}"
        extra = f"; combines with {', '.join(r['combines_with'])}" if r["combines_with"] else ""
        click.echo(f"{r['id']:<16} {r['names']['en']} ({kind}{extra}): "
                   f"{r['species']} species, {r['cards']} cards")
        if not _shipped(r["folder"]):
            click.echo(f"{'':<16} from {_display(r['folder'])}")


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
        click.echo(json.dumps(rows, ensure_ascii=False, indent=2))
        return
    for r in rows:
        click.echo(f"{r['name']} [{r['key']}] {r['kind']}, cost {r['cost']}, "
                   f"{r['copies']}x, types {', '.join(r['types']) or '-'}")
        for f in ("effect", "bonus", "trigger", "placement", "modifier", "score"):
            if lang_given and r["text"].get(f):
                from printouts.rules_text import field_label

                click.echo(f"    {field_label(f, lang)}: {r['text'][f]}")
            elif r["rules"].get(f):
                click.echo(f"    {f}: {r['rules'][f]}")


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
    result = api.score_file(forest_file, explain=explain, roots=roots)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
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
@click.option("--quiet", is_flag=True, help="no game log")
@click.option("--lang", default="en", show_default=True)
@guarded
@card_sets
def play(edition: str, with_: str, n_players: int | None, ai: str | None, seed: int,
         record_path: str | None, as_json: bool, quiet: bool, lang: str, roots,
         final_path: str | None = None) -> None:
    """Play a complete game and print its log and scoreboard."""
    from compiler import cardset as cs
    from engine import players as pl
    from engine import runner
    from engine.game import SetupError
    from grove import api, report
    from grove.game_log import GameLog

    _language(lang)
    # without --ai every seat is greedy, so `--players 3` alone is a game of three
    kinds = [k.strip() for k in (ai if ai is not None else "greedy").split(",") if k.strip()]
    if n_players is None and ai is None:
        kinds *= 2
    elif n_players is not None:
        if len(kinds) == 1:
            kinds = kinds * n_players
        elif len(kinds) != n_players:
            _usage(f"--ai names {len(kinds)} players but --players says {n_players}")
    bad = [k for k in kinds if k not in (*pl.KINDS, "human")]
    if bad or not kinds:
        _usage(f"unknown AI kind {bad[0]!r}; choose from random, greedy, human" if bad
               else "--ai needs at least one player")
    cset = cs.build(edition, _expansions(with_), roots)
    if cset.setup.removed_for(frozenset(cset.expansions), len(kinds)) is None:
        _usage(f"{edition} has no set-up for {len(kinds)} players")

    logs: dict[int, GameLog] = {}

    def log(game, action) -> None:  # an engine.action.Action
        if quiet or as_json:
            return
        for line in logs.setdefault(id(game), GameLog(game, lang)).new_lines():
            click.echo(line, err=True)

    fh = None
    try:
        if record_path:
            fh = open(record_path, "w", encoding="utf-8")  # noqa: SIM115 - kept open for the game
        out = runner.play(cset, kinds, seed, names=[f"{k.title()} {i + 1}" for i, k in
                                                    enumerate(kinds)], record=fh, on_action=log)
    except OSError as exc:
        _usage(f"{record_path}: {exc.strerror}", code="IO-WRITE")
    except SetupError as exc:
        raise DiagnosticError([Diagnostic(
            "PLAY-SETUP", Severity.ERROR, None, f"{cset.root.id}: {exc}",
            "give the deck more cards or remove fewer in `setup: removed:`")]) from None
    finally:
        if fh:
            fh.close()
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
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
        return
    click.echo(report.scoreboard(result, cset, lang))


@main.command()
@click.argument("record_file", type=click.Path())
@click.option("--verify", is_flag=True,
              help="say 'verified' when every line replays the same (a difference is exit 1 "
              "either way)")
@guarded
@card_sets
def replay(record_file: str, verify: bool, roots) -> None:
    """Re-run a game record."""
    from compiler import cardset as cs
    from dsl.diagnostics import Span, error
    from engine import record as rec
    from engine import runner
    from grove import api, report

    where = Path(record_file)
    if not where.is_file():  # a file that is not there is a usage error (exit 2), not a bad record
        raise DiagnosticError([error("IO-NOT-FOUND", None, f"{record_file}: " + (
            "is a directory" if where.is_dir() else "no such file"))])
    try:
        r = rec.read(record_file)
    except rec.RecordError as exc:
        click.echo(f"error RECORD-BAD: {exc}", err=True)
        sys.exit(EXIT_FINDINGS)
    h = r.header
    try:
        cset = cs.build(str(h.get("edition")), list(h.get("with") or ()), roots)
        changed = rec.changed_cards(cset, h)
        if changed:  # a replay against other cards would only report a confusing difference
            raise DiagnosticError([error(
                "RECORD-CARDS-CHANGED", Span(str(record_file), 1, 1), c,
                "replay with the card set the game was played with (--cards DIR or GROVE_CARDS)")
                for c in changed])
        game, problems = runner.replay(cset, r)
    except (KeyError, TypeError, ValueError) as exc:
        click.echo(f"error RECORD-BAD: {record_file}: the header is incomplete ({exc})", err=True)
        sys.exit(EXIT_FINDINGS)
    last = Span(str(record_file), len(r.actions) + 1, 1)  # header, then one line per action
    if problems and problems[0].startswith("the record ends"):  # cut short: never verified
        raise DiagnosticError([error(
            "RECORD-UNFINISHED", last, f"{problems[0]}: the record was cut short",
            "a finished game ends with an end line, a game a player quit with a stop line; "
            "play the game again to its end to get a whole record")])
    if problems:  # any difference is exit 1, with or without --verify
        raise DiagnosticError([error("RECORD-DIFFERS", None, f"{record_file}: {problems[0]}")])
    if r.stop is not None:  # left off on purpose: every action held replays, nothing to score
        click.echo(f"stopped after {len(r.actions)} actions: the game was left off before its "
                   "end" + (", every action replays the same" if verify else ""), err=True)
        return
    scores = runner.final_scores(game)
    result = api.result_json(cset.root.id, cset.expansions, scores, False)
    click.echo(report.scoreboard(result, cset))
    if verify:
        click.echo(f"verified: {len(r.actions)} actions, same game", err=True)


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
        click.echo(f"wrote {p} ({p.stat().st_size // 1024} KiB)", err=True)


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
        click.echo(f"wrote {_display(str(f))}", err=True)
    game = f"--edition {made.edition}" + (f" --with {','.join(made.expansions)}"
                                          if made.expansions else "")
    click.echo("\n".join([
        "next:",
        f"  grove lint {folder}",
        f"  grove score --cards {folder} {_display(str(made.forest))}",
        f"  grove play --cards {folder} {game} --ai greedy,random",
        f"  grove sheet --cards {folder} {game} --lang en,de,it,th -o sheets/",
    ]))


def _shipped(folder: str) -> bool:
    from compiler.search_path import shipped_cards_dir

    return Path(folder).resolve().parent == shipped_cards_dir().resolve()


def _display(path: str) -> str:
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


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
