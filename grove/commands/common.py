"""What every `grove` command shares, so that no two commands can differ in it: the one
exit-code table, the one printer every diagnostic passes through, `guarded` (bad input becomes
diagnostics and an exit code, never a traceback), `--cards DIR`, the `--json` result, and the
usage errors a command raises before it does any work.
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any, NoReturn

import click

from grove.commands.records import positioned
from grove.dsl.diagnostics import (
    Diagnostic,
    DiagnosticError,
    Severity,
    escape_json,
    format_json,
    format_text,
)
from grove.files.read import is_regular

# The exit-code table, one for every command (README, docs/diagnostics.md):
#   0  fine (warnings alone, unless `lint --strict`)
#   1  the input was read and is wrong: lint findings, an illegal forest, a record that differs,
#      broken card data
#   2  usage or I/O: a bad option, an edition or combination asked on the command line that does
#      not exist, a file that cannot be read or written, a tool grove needs is missing
# Where diagnostics of both kinds are printed, 2 wins: grove could not do what was asked.
EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
# a command stopped by Ctrl-C (INTERRUPTED, cli.py), or `grove simulate` by Ctrl-C or SIGTERM
# after writing what it holds: the shell's code for a command ended by SIGINT (128 + 2), so a
# script sees that the work is not whole
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
    diags = [_rel(positioned(d)) for d in diags]
    if fmt == "json":
        if diags:
            click.echo(format_json(diags), err=err)
        return
    lines = _source_lines(diags)
    for d in diags:
        click.echo(format_text(d, _source_of(d, lines)), err=err)


class _OneLine:
    """A file's lines as `format_text` indexes them, holding only the one line it shows: a list
    of every line before it would make 40,000 diagnostics cost the square of that."""

    def __init__(self, number: int, text: str) -> None:
        self.number, self.text = number, text

    def __len__(self) -> int:
        return self.number

    def __getitem__(self, index: int) -> str:
        return self.text if index == self.number - 1 else ""


def _source_of(d: Diagnostic, lines: dict[str, dict[int, str]]) -> dict[str, Any] | None:
    """The one source line `format_text` shows for `d`, from what `_source_lines` read."""
    if d.span is None:
        return None
    text = lines.get(d.span.file, {}).get(d.span.line)
    return {d.span.file: [] if text is None else _OneLine(d.span.line, text)}


def _source_lines(diags: list[Diagnostic]) -> dict[str, dict[int, str]]:
    """The source lines the diagnostics show, each file read once from its start to the last
    line shown (reading it again for each diagnostic took 67 s for 4,151 findings in one file),
    and no further than each needs: the printer would read the whole file, and a file of 400 MB
    (refused at 1:1 as too large) then took 840 MB to say so. A line longer than the window
    around the caret is read only as far as the window, and one character more so the printer
    still marks it as cut."""
    from grove.dsl.diagnostics import WINDOW

    wanted: dict[str, dict[int, int]] = {}
    for d in diags:
        # IO-READ is about a file grove does not read (a FIFO, a link out of its card set's
        # folder to /etc/shadow): the printer does not read it either
        if d.span is None or d.span.line < 1 or d.code == "IO-READ":
            continue
        width = max(1, (d.span.end_col or d.span.col) - d.span.col)
        need = d.span.col + min(width, WINDOW) + WINDOW + 1
        w = wanted.setdefault(d.span.file, {})
        w[d.span.line] = max(w.get(d.span.line, 0), need)
    return {path: _read_lines(path, w) for path, w in wanted.items()}


def _read_lines(path: str, wanted: dict[int, int]) -> dict[int, str]:
    """Lines `wanted` of `path` (number: characters to read of it), in one pass."""
    if not is_regular(path):  # a FIFO's first line would never come: show none
        return {}
    got: dict[int, str] = {}
    try:
        with open(path, encoding="utf-8") as fh:
            last = max(wanted)
            for n in range(1, last + 1):
                line = fh.readline(wanted.get(n, 1 << 16))
                if not line:
                    break
                if n in wanted:
                    got[n] = line.rstrip("\n")
                # the rest of the last line shown is never read: a file refused at 1:1 as too
                # large, 1 GB of one line, took 6 s of reading to skip to its end
                if n == last:
                    break
                while not line.endswith("\n"):  # the rest of a long line
                    line = fh.readline(1 << 16)
                    if not line:
                        return got
    except (OSError, UnicodeDecodeError):
        return got
    return got


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
        from grove.compiler.search_path import search_path

        return fn(*args, roots=search_path(cards_dirs), **kwargs)

    return wrapper


def expansions(value: str | None) -> list[str]:
    """`--with a,b` (and `--lang en,de`) as a list; blanks and stray commas are nothing."""
    return [x.strip() for x in (value or "").split(",") if x.strip()]


def display(path: str) -> str:
    """A path as a user would type it: relative when it is below here, else as given."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def writable(path: str) -> None:
    """IO-WRITE before any work when `path` may not be an output file (`files.write.refusal`):
    its folder is missing or not writable, or it is there and not the user's regular file to
    replace (a folder, a device, a symlink, a read-only file). Such a target is left alone."""
    from grove.files.write import refusal

    why = refusal(path)
    if why is not None:
        usage_error(f"{display(path)}: cannot write: {why}", code="IO-WRITE")


def usage_error(message: str, code: str = "USAGE-BAD-OPTION") -> NoReturn:
    """A usage error (exit 2 by the table) raised before a command does any work."""
    raise DiagnosticError([Diagnostic(code, Severity.ERROR, None, message)])


def language(lang: str) -> str:
    """`lang` if grove has a catalog for it: an unknown one would quietly print English, so it
    is a usage error (exit 2) that lists the languages. Reads the catalog folder only, so a
    command that renders no rules text does not pay for the renderer."""
    from grove.printouts.phrases import available_languages

    known = available_languages()
    if lang not in known:
        usage_error(f"unknown language {lang!r}; choose from {', '.join(known)}", "USAGE-LANGUAGE")
    return lang


class _LangOption(click.Option):
    """`--lang`: its help names the languages grove has catalogs for (`{languages}` in the
    help), read from the catalog folder when the help is shown, so a catalog added is listed
    and a command that is only run pays nothing for it."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        from grove.printouts.phrases import available_languages

        written = self.help
        self.help = (written or "").replace("{languages}", ", ".join(available_languages()))
        try:
            return super().get_help_record(ctx)
        finally:
            self.help = written


def lang_option(help: str, *dest: str, **kwargs: Any
                ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`--lang` as every command spells it; `help` says `{languages}` where the list goes."""
    kwargs.setdefault("default", None)
    kwargs.setdefault("metavar", "LANG")
    return click.option("--lang", *dest, cls=_LangOption, help=help, **kwargs)


def output_option(*aliases: str, dest: str = "out", help: str, **kwargs: Any
                  ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`-o/--output`, the one name of what a command writes, on every command that writes;
    `aliases` are the names an older grove gave the option, still read."""
    return click.option("-o", "--output", *aliases, dest, help=help, **kwargs)


def force_option() -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`--force`: replace an `-o` file that grove did not write (grove/files/output.py)."""
    return click.option("--force", is_flag=True,
                        help="replace the -o file even when grove did not write it")


def json_option(help: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """`--json`: the result as JSON on stdout, and the diagnostics as JSON lines on stderr."""
    return click.option("--json", "as_json", is_flag=True,
                        help=f"{help}; diagnostics come as JSON lines on stderr")
