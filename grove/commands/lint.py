"""`grove lint`: card sets, editions and forest files checked; the one command whose findings
are its result (on stdout with `--format json`) and whose `--strict` makes warnings count."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from grove.commands.common import card_sets, exit_code, guarded, print_diagnostics
from grove.commands.records import record_size
from grove.dsl.diagnostics import Diagnostic, DiagnosticError, Severity, Span, sort_key
from grove.files.read import is_regular


@click.command(short_help="Check card sets, editions and forest files; never changes a file.")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="the findings as text on stderr, or as JSON lines on "
              "stdout (a program's input)")
@click.option("--strict", is_flag=True, help="warnings count as findings")
@click.option("--provisional", is_flag=True, help="list facts marked provisional")
@guarded
@card_sets
def lint(paths: tuple[str, ...], fmt: str, strict: bool, provisional: bool, roots) -> None:
    """Check card sets, editions and forest files; never changes a file."""
    from grove import api

    unread: list[Diagnostic] = []  # paths no read may open: said, and the rest linted
    readable: list[str] = []
    for p in paths:
        if not Path(p).exists():
            raise DiagnosticError([Diagnostic("IO-NOT-FOUND", Severity.ERROR, None,
                                              f"{p}: no such file or directory")])
        if not Path(p).is_dir() and not is_regular(p):  # a FIFO would hang the first read
            unread.append(Diagnostic(
                "IO-READ", Severity.ERROR, Span(p, 1, 1),
                "not a regular file (a FIFO, device or socket): grove does not read it",
                "name card-set folders, card files and forest files"))
            continue
        if Path(p).is_file():  # a file named here may be a record, read whole: size it first
            record_size(p, record=False)
        readable.append(p)
    diags = unread
    if readable or not paths:
        diags = sorted([*unread, *api.lint(readable or list(roots), provisional=provisional,
                                           roots=roots, strict=strict)], key=sort_key)
    print_diagnostics(diags, fmt, err=fmt == "text")  # as JSON, the findings are the result
    errors = sum(d.is_error for d in diags)
    warnings = sum(d.severity is Severity.WARNING for d in diags)
    if fmt == "text":
        click.echo(f"{errors} error(s), {warnings} warning(s)", err=True)
    sys.exit(exit_code(diags, strict))  # a file it could not read is exit 2, as for `score`
