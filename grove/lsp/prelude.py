"""The language server's first answers, given before pygls and lsprotocol are imported.

Importing lsprotocol's types builds some 560 attrs classes, most of the time from the server's
start to the first diagnostics an editor shows. So `grove lsp` reads the client's first messages
itself: it answers `initialize` with the answer pygls gave to the same question before (kept in
grove's cache, under the versions of grove, pygls and lsprotocol), and the first `didOpen` of a
file of a set `grove lint` has seen with lint's findings from its cache. Then it hands every
message it read to the full server, which takes them as if they came now (its own answer to
`initialize` is not sent a second time, and its diagnostics of the file are the same again).
Anything else (no answer kept, another message first, a file lint has not seen, an error) is
left to the full server at once.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from grove.dsl.diagnostics import Diagnostic, Severity
from grove.lsp.wire import BrokenFrame, Framer, frame

if TYPE_CHECKING:
    from grove.lsp.documents import Session, Target

log = logging.getLogger("grove.lsp")

# LSP's DiagnosticSeverity, by number
SEVERITY = {Severity.ERROR: 1, Severity.WARNING: 2, Severity.INFO: 3}
_KIND = "lsp"  # the cache's room for the answers kept


@dataclass
class Handover:
    """What the full server takes on: the messages read (a body, a broken frame, or None for
    the end of the stream) in order; the id of the `initialize` already answered, whose
    answer it must not send again; and, where no answer was kept, the key to keep its own."""

    read: list[bytes | BrokenFrame | None] = field(default_factory=list)
    asked: Any = None  # the id of the client's `initialize`, where the first message is one
    answered: bool = False
    keep: str | None = None


class Answers:
    """pygls' writer, but for the answer to the `initialize` the prelude answered already;
    where it had no answer kept, the server's own is kept for the next start."""

    def __init__(self, writer: Any, handover: Handover):
        self.writer = writer
        self.handover = handover
        self.waiting = handover.asked is not None and (handover.answered or bool(handover.keep))

    def write(self, data: bytes) -> None:
        if self.waiting:
            found = _message(data.partition(b"\r\n\r\n")[2])
            if found is not None and found.get("id") == self.handover.asked and (
                    "result" in found or "error" in found):
                self.waiting = False
                if self.handover.answered:
                    return
                if self.handover.keep is not None and isinstance(found.get("result"), dict):
                    keep_answer(self.handover.keep, {"jsonrpc": "2.0", "result": found["result"]})
        self.writer.write(data)

    def close(self) -> Any:
        return self.writer.close()


def message_of(d: Diagnostic) -> str:
    """A finding's message as the client shows it: the hint under it, as lint prints it."""
    return d.message + (f"\nhint: {d.hint}" if d.hint else "")


def by_file(target: Target, found: list[Diagnostic]) -> list[tuple[str, list[Diagnostic]]]:
    """The files a check's findings are published for, in order: every file that has some,
    and the checked file always (an empty list tells the client its file is clean)."""
    fallback = (target.folder / "edition.yaml") if target.folder else target.path
    files: dict[str, list[Diagnostic]] = {str(target.path): []}
    for d in found:
        file = Path(d.span.file).resolve() if d.span is not None else fallback
        files.setdefault(str(file), []).append(d)
    return sorted(files.items())


def _versions() -> str:
    """Where pygls and lsprotocol are installed, and when: another version is another file
    (importlib.metadata would tell the version itself, but its import costs more than all the
    prelude's work)."""
    import os
    from importlib.util import find_spec

    out = []
    for name in ("pygls", "lsprotocol"):
        spec = find_spec(name)
        origin = spec.origin if spec is not None else None
        st = os.stat(origin) if origin else None
        out.append(f"{origin}:{st.st_size}:{st.st_mtime_ns}" if st else f"{name}: none")
    return "\n".join(out)


def answer_key(params: Any) -> str | None:
    """The cache key of the answer to an `initialize` with these params: the same question but
    for the client's process id, to the same grove, pygls and lsprotocol."""
    from grove.compiler import cache

    if not isinstance(params, dict):
        return None
    asked = json.dumps({k: v for k, v in params.items() if k != "processId"}, sort_keys=True)
    return cache.key("lsp-initialize", _versions(), asked)


def keep_answer(key: str, answer: dict) -> None:
    from grove.compiler import cache

    cache.put(_KIND, key, json.dumps(answer))


def _kept(key: str) -> dict | None:
    from grove.compiler import cache

    found = cache.get(_KIND, key)
    try:
        answer = json.loads(found) if isinstance(found, str) else None
    except ValueError:
        return None
    return answer if isinstance(answer, dict) and isinstance(answer.get("result"), dict) else None


def _message(body: bytes) -> dict | None:
    try:
        found = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return found if isinstance(found, dict) else None


def answer(framer: Framer, out: BinaryIO, session: Session) -> Handover:
    """Read and answer what can be answered without the full server; what it must take on."""
    handover = Handover()

    def take() -> dict | None:
        item = framer.item()
        handover.read.append(item)
        return _message(item) if isinstance(item, bytes) else None

    first = take()
    if first is None or first.get("method") != "initialize" or "id" not in first:
        return handover
    handover.asked = first["id"]
    key = answer_key(first.get("params"))
    kept = _kept(key) if key is not None else None
    if kept is None:
        handover.keep = key
        return handover
    _write(out, {**kept, "id": first["id"]})
    handover.answered = True
    enc = str(kept["result"].get("capabilities", {}).get("positionEncoding") or "utf-16")
    while (message := take()) is not None and message.get("method") == "initialized":
        continue
    if message is not None and message.get("method") == "textDocument/didOpen":
        try:
            _publish_opened(message.get("params"), out, session, enc)
        except Exception as exc:  # noqa: BLE001 - the full server checks the file anew
            log.warning("grove lsp: the first diagnostics are left to the server: %r", exc)
    return handover


def _publish_opened(params: Any, out: BinaryIO, session: Session, enc: str) -> None:
    """Lint's findings for an opened file of a set lint has seen, from its cache."""
    from pygls.uris import to_fs_path

    from grove.lsp.documents import target_of

    doc = params["textDocument"]
    uri, text = doc["uri"], doc["text"]
    fs_path = to_fs_path(uri) if isinstance(uri, str) and uri.startswith("file:") else None
    if not fs_path or not isinstance(text, str):
        return
    path = Path(fs_path)
    target = target_of(path, text)
    if target.kind != "edition":
        return
    session.set_text(path, text)
    try:
        whole = session.linted(target)
        if whole is not None:
            _publish(whole, target, out, session, enc)
    finally:
        session.drop_text(path)  # the full server sets it again, as it reads the didOpen


def _publish(whole: list[Diagnostic], target: Target, out: BinaryIO, session: Session,
             enc: str) -> None:
    from pygls.uris import from_fs_path

    from grove.lsp.text import span_bounds

    for file, found in by_file(target, whole):
        own = session.text(Path(file))
        lines = own.splitlines() if own is not None else []
        diagnostics = []
        for d in found:
            (line, col), (end_line, end_col) = span_bounds(d.span, lines, enc)
            item: dict[str, Any] = {
                "range": {"start": {"line": line, "character": col},
                          "end": {"line": end_line, "character": end_col}},
                "message": message_of(d), "severity": SEVERITY.get(d.severity, 1),
                "code": d.code, "source": "grove"}
            if d.hint:
                item["data"] = {"hint": d.hint}
            diagnostics.append(item)
        _write(out, {"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics",
                     "params": {"uri": from_fs_path(file) or Path(file).as_uri(),
                                "diagnostics": diagnostics}})


def _write(out: BinaryIO, message: dict) -> None:
    out.write(frame(message))
    out.flush()
