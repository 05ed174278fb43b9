"""`grove migrate DIR`: an author's card sets rewritten in the current format, in place.

Lint already reads every old format (with FORMAT-OLD warnings); migrate makes the files say what
grove reads them as, so the warnings go away. The steps are those of `compiler.formats`, applied
to a round-trip copy that keeps comments, key order and layout; each file is replaced whole
(grove/files/write.py) or left as it was. `--check` writes nothing and says what would change.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import click

from grove.commands.common import (
    EXIT_FINDINGS,
    EXIT_OK,
    display,
    exit_code,
    guarded,
    print_diagnostics,
)
from grove.compiler.limits import MAX_CARD_FILE_BYTES
from grove.dsl.diagnostics import Diagnostic, DiagnosticError, Severity, Span, sort_key


def _edition_files(folder: Path) -> list[Path]:
    from grove.compiler.search_path import EDITION_FILE, edition_folders

    return [f / EDITION_FILE for f in edition_folders(folder) if (f / EDITION_FILE).exists()]


def _read(path: Path) -> str:
    from grove.files.read import NotRegular, read_text

    try:
        return read_text(path, MAX_CARD_FILE_BYTES)
    except (NotRegular, OSError, UnicodeDecodeError) as exc:
        raise DiagnosticError([Diagnostic("IO-READ", Severity.ERROR, Span(str(path), 1, 1),
                                          f"cannot read: {exc}")]) from None


@click.command(short_help="Rewrite the card sets in a folder in the current format, in place.")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--check", is_flag=True,
              help="write nothing: list what would change (exit 1 if anything would)")
@guarded
def migrate(folder: str, check: bool) -> None:
    """Rewrite the card sets in FOLDER in the current format, keeping comments and layout."""
    from grove.compiler.formats import CURRENT, migrate_text
    from grove.files.write import Refused, write_text

    root = Path(folder)
    if not root.is_dir():
        raise DiagnosticError([Diagnostic("IO-NOT-FOUND", Severity.ERROR, None,
                                          f"{folder}: no such folder")])
    files = _edition_files(root)
    if not files:
        raise DiagnosticError([Diagnostic(
            "IO-NOT-FOUND", Severity.ERROR, None, f"{folder} holds no edition.yaml",
            "name a card-set folder (one holding edition.yaml) or a folder of them")])
    problems: list[Diagnostic] = []
    changed = 0
    for path in files:
        try:
            done = migrate_text(_read(path), str(path))
        except DiagnosticError as exc:  # one broken set does not stop the others
            problems.extend(exc.diagnostics)
            continue
        if not done.changed:
            continue
        # each change as lint words it, less the hint to run migrate: this is migrate
        print_diagnostics([replace(d, hint=None) for d in sorted(done.changes, key=sort_key)],
                          err=False)
        if check:
            changed += 1
            continue
        try:
            write_text(path, done.text)
        except (Refused, OSError) as exc:
            problems.append(Diagnostic("IO-WRITE", Severity.ERROR, Span(str(path), 1, 1),
                                       f"cannot write: {exc}"))
            continue
        changed += 1
        click.echo(f"{display(str(path))}: now in format {CURRENT}", err=True)
    print_diagnostics(problems)
    verb = "would change" if check else "changed"
    click.echo(f"{changed} of {len(files)} edition file(s) {verb}", err=True)
    if problems:
        sys.exit(exit_code(problems) or EXIT_FINDINGS)
    sys.exit(EXIT_FINDINGS if check and changed else EXIT_OK)
