"""`grove new`: an author's card set started from the template, and the commands to try it."""

from __future__ import annotations

import click

from grove.commands.common import card_sets, display, guarded
from grove.dsl.diagnostics import echo_text, escape


@click.command()
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
    folder = display(str(made.folder))
    for f in made.files:
        click.echo(f"wrote {echo_text(display(str(f)))}", err=True)
    game = f"--edition {made.edition}" + (f" --with {','.join(made.expansions)}"
                                          if made.expansions else "")
    click.echo("\n".join(escape(line) for line in [  # the folder is the user's: escaped
        "next:",
        f"  grove lint {folder}",
        f"  grove score --cards {folder} {display(str(made.forest))}",
        f"  grove play --cards {folder} {game} --ai greedy,random",
        f"  grove sheet --cards {folder} {game} --lang en,de,it,th -o sheets/",
    ]))
