"""`grove editions`: the editions grove finds, shipped or an author's, and what combines."""

from __future__ import annotations

from pathlib import Path

import click

from grove.commands.common import card_sets, display, echo_json, guarded
from grove.dsl.diagnostics import echo_text


@click.command()
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
        errors = f"; {r['errors']} error(s), see `grove lint`" if r["errors"] else ""
        if r["broken"]:
            click.echo(echo_text(f"{r['id']:<16} (not loaded{errors})"))
            click.echo(f"{'':<16} from {echo_text(display(r['folder']))}")
            continue
        kind = "standalone" if r["standalone"] else f"expansion of {r['expansion_of']}"
        extra = f"; combines with {', '.join(r['combines_with'])}" if r["combines_with"] else ""
        click.echo(echo_text(f"{r['id']:<16} {r['names']['en']} ({kind}{extra}): "
                              f"{r['species']} species, {r['cards']} cards{errors}"))
        if not _shipped(r["folder"]):
            click.echo(f"{'':<16} from {echo_text(display(r['folder']))}")


def _shipped(folder: str) -> bool:
    from grove.compiler.search_path import shipped_cards_dir

    return Path(folder).resolve().parent == shipped_cards_dir().resolve()
