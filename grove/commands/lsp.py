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
    import sys

    from grove.lsp import prelude, wire
    from grove.lsp.documents import Session

    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    session = Session(roots)
    # the first answers before pygls and lsprotocol are imported, most of the start's time
    framer = wire.Framer(sys.stdin.buffer.fileno(), wire.stall_seconds())
    handover = prelude.answer(framer, sys.stdout.buffer, session)
    from grove.lsp.server import build_server

    build_server(session).start_io(framer=framer, handover=handover)
