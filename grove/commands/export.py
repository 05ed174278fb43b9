"""`grove export`: the card database of the search path as files, in the schema of
docs/export.md (SQLite, JSON, or a folder of CSV or Parquet files)."""

from __future__ import annotations

import click

from grove.commands.common import (
    card_sets,
    display,
    force_option,
    guarded,
    output_option,
    print_diagnostics,
)
from grove.dsl.diagnostics import echo_text


@click.command(short_help="Write the card database as SQLite, JSON, CSV or Parquet (docs/export.md).")
@click.option("--format", "file_format", type=click.Choice(["sqlite", "json", "csv", "parquet"]),
              default="sqlite", show_default=True,
              help="sqlite or json: one file; csv or parquet: a folder of one file a table")
@output_option("--out", default=None, metavar="OUT",
              help="the file (sqlite, json) or folder (csv, parquet) to write; grove.sqlite, "
              "grove.json, grove-csv/ or grove-parquet/ when not given; - for standard output "
              "(json)")
@force_option()
@click.option("--edition", "editions", multiple=True, metavar="E",
              help="export this edition only (repeatable); every edition when not given")
@guarded
@card_sets
def export(file_format: str, out: str | None, force: bool, editions: tuple[str, ...], roots
           ) -> None:
    """Write the card database: editions, species, names, types, symbols, rules, rules text in
    every language, the deck (docs/export.md)."""
    from grove import api

    warnings = []
    written = api.export(file_format, out, list(editions), roots, on_warning=warnings.append,
                         force=force)
    print_diagnostics(warnings)
    for p in written:  # a path the user named: echoed escaped
        click.echo(echo_text(display(str(p))))
