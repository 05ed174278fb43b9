"""`grove examples`: the example forest files the README's tour scores, copied where a new user
stands, wherever grove is installed."""

from __future__ import annotations

from pathlib import Path

import click

from grove.commands.common import display, guarded
from grove.dsl.diagnostics import echo_text, escape


@click.command(short_help="Copy grove's example forest files into a folder, to score and edit.")
@click.argument("folder", default="examples", required=False)
@guarded
def examples(folder: str) -> None:
    """Copy grove's example forest files into FOLDER (default: ./examples), to score and edit."""
    from grove import scaffold

    written = scaffold.copy_examples(folder)
    for f in written:
        click.echo(f"wrote {echo_text(display(str(f)))}", err=True)
    if not written:
        click.echo(f"{echo_text(display(folder))} already holds the examples", err=True)
    names = sorted(p.name for p in scaffold.examples_dir().glob("*.yaml"))
    first = "base_three_players.yaml" if "base_three_players.yaml" in names else names[0]
    click.echo("next:")
    click.echo(escape(f"  grove score {display(str(Path(folder) / first))} --explain"))
