"""What the language-server tests share: the server command, opening and changing documents,
and waiting for the diagnostics a real client receives."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from lsprotocol import types

SERVER = [sys.executable, "-c", "from grove.cli import main; main()", "lsp"]
TIMEOUT = 60.0


def uri(path: Path) -> str:
    return path.resolve().as_uri()


async def wait_diagnostics(client, file_uri: str,
                           until: Callable[[Sequence[types.Diagnostic]], bool],
                           timeout: float = TIMEOUT) -> Sequence[types.Diagnostic]:
    """The diagnostics of `file_uri` once they satisfy `until` (published ones, as received)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        found = client.diagnostics.get(file_uri)
        if found is not None and until(found):
            return found
        left = end - loop.time()
        if left <= 0:
            raise AssertionError(f"no fitting diagnostics for {file_uri}: {found}")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), left)


def open_doc(client, path: Path, text: str | None = None, version: int = 1) -> str:
    u = uri(path)
    client.text_document_did_open(types.DidOpenTextDocumentParams(types.TextDocumentItem(
        uri=u, language_id="yaml", version=version,
        text=path.read_text(encoding="utf-8") if text is None else text)))
    return u


def change_doc(client, file_uri: str, text: str, version: int) -> None:
    """The whole text replaced, as a client without incremental sync sends it."""
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=file_uri, version=version),
        [types.TextDocumentContentChangeWholeDocument(text=text)]))


def pos(text: str, needle: str, offset: int = 0, nth: int = 0) -> types.Position:
    """The position of the `nth` occurrence of `needle` in `text`, moved by `offset` chars."""
    at = -1
    for _ in range(nth + 1):
        at = text.index(needle, at + 1)
    at += offset
    line = text.count("\n", 0, at)
    return types.Position(line, at - (text.rfind("\n", 0, at) + 1))


def path_of(file_uri: str) -> Path:
    from pygls.uris import to_fs_path

    return Path(to_fs_path(file_uri) or file_uri).resolve()


def labels(result) -> list[str]:
    items = result.items if isinstance(result, types.CompletionList) else (result or [])
    return [i.label for i in items]
