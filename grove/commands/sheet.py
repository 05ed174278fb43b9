"""`grove sheet`: quick-reference sheets of an edition printed, as PDF or HTML, per language.

A word of the card set that no sheet can carry (a lone surrogate, a control character:
grove/printouts/printable.py) is reported as TEXT-UNPRINTABLE before anything is rendered, and nothing
is written (exit 1)."""

from __future__ import annotations

import click

from grove.commands.common import card_sets, expansions, guarded, lang_option, output_option
from grove.dsl.diagnostics import echo_text


@click.command(short_help="Print quick-reference sheets of an edition, as PDF or HTML, per "
               "language.")
@click.option("--edition", required=True, metavar="EDITION", help="a standalone edition")
@click.option("--with", "with_", default="", metavar="LIST", help="expansions, comma-separated")
@lang_option("languages, comma-separated: {languages}", "langs", required=True, metavar="LIST")
@output_option(dest="out", default=None, metavar="FILE|DIR",
               help="file for one language; folder for several (default: "
               "sheet-EDITION-LANG.pdf here)")
@click.option("--format", "fmt", type=click.Choice(["pdf", "html"]), default="pdf",
              show_default=True, help="a PDF to print, or one HTML page to read on a screen")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="the paper size of a PDF")
@guarded
@card_sets
def sheet(edition: str, with_: str, langs: str, out: str | None, fmt: str, paper: str,
          roots) -> None:
    """Print quick-reference sheets: turn, set-up, slot diagrams, symbols, every species."""
    from grove import api

    # a DiagnosticError goes to `guarded`, like every command's: the common printer escapes and
    # cuts what it echoes, and the common table gives the exit code
    _refuse_unprintable(edition, expansions(with_), roots)
    paths = api.sheet(edition, expansions(with_), expansions(langs), out, fmt, paper, roots)
    for p in paths:
        click.echo(f"wrote {echo_text(str(p))} ({p.stat().st_size // 1024} KiB)", err=True)


def _refuse_unprintable(edition: str, exps: list[str], roots) -> None:
    """TEXT-UNPRINTABLE for any edition of the card set to print (the base game's words are
    printed too): a sheet cannot hold such a word, so none is rendered."""
    from grove.compiler.universe import load_universe
    from grove.dsl.diagnostics import DiagnosticError
    from grove.printouts.printable import findings

    universe = load_universe(roots)  # the one `api.sheet` reads (kept per search path)
    found = findings(universe.editions[e] for e in dict.fromkeys([edition, *exps])
                     if e in universe.editions)
    if found:
        raise DiagnosticError(found)
