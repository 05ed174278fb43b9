"""`grove lsp`: the language server (`grove.lsp`) started on stdin and stdout for an editor."""

from __future__ import annotations

import click

from grove.commands.common import card_sets, guarded


@click.command(short_help="A language server for card files and forest files, on stdin and "
               "stdout.")
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
