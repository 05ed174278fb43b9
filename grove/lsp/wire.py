"""The LSP wire: messages framed by a `Content-Length` header, read so that a broken client can
neither hang, crash nor swallow the server.

pygls' own reader waits for ever on a header without a Content-Length or on a body shorter than
its header says, skips a negative length as if it were no header, and asks for a buffer of
whatever length is written (10^12: MemoryError, and the server is gone). Here every header is
checked and bounded, a message once begun must go on arriving (no pause of `STALL_S` seconds
inside it), and a stream that cannot be read on is answered with a JSON-RPC error (id null)
before the server exits with status 1: after a broken frame, no byte after it can be trusted to
start a message. A message that is framed well but is not JSON gets the same error and the
server reads on, since its frame still says where the next message starts.
"""

from __future__ import annotations

import json
import logging
import os
import select
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, BinaryIO

if TYPE_CHECKING:
    import asyncio

    from pygls.lsp.server import LanguageServer

log = logging.getLogger("grove.lsp")

MAX_HEADER_BYTES = 8 * 1024
# An editor sends a document's whole text in one message; a card file may have 512 KiB and the
# server looks into 1 MiB of text at most, so 32 MiB leaves room for JSON's escapes of any text
# it will read, and stops a length that no client means.
MAX_BODY_BYTES = 32 << 20
STALL_S = 10.0  # a message begun and then silent this long is broken (GROVE_LSP_STALL_S)
EXIT_BROKEN = 1
PARSE_ERROR = -32700  # JSON-RPC: the bytes received are no JSON message
INVALID_REQUEST = -32600  # JSON-RPC: JSON, but not a message the server can take
_CHUNK = 1 << 16
# select() tells a pipe's bytes from no bytes on POSIX only; elsewhere a stall is not timed
_CAN_WAIT = os.name == "posix"


class BrokenFrame(Exception):
    """The stream is not LSP's framing, or it stopped inside a message; the message says how."""


def stall_seconds(environ: dict[str, str] | os._Environ = os.environ) -> float:
    """`STALL_S`, or `GROVE_LSP_STALL_S` where it is a positive number of seconds."""
    try:
        value = float(environ.get("GROVE_LSP_STALL_S", ""))
    except ValueError:
        return STALL_S
    return value if 0 < value < float("inf") else STALL_S


def content_length(header: bytes) -> int:
    """The body's length a header block announces (its lines without the blank one), checked:
    ASCII `Name: value` lines, exactly one Content-Length, a count of bytes a message may have."""
    try:
        text = header.decode("ascii")
    except UnicodeDecodeError:
        raise BrokenFrame("a message header that is not ASCII") from None
    lengths = []
    for line in text.split("\r\n"):
        name, colon, value = line.partition(":")
        if not colon or not name or name != name.strip():
            raise BrokenFrame(f"a header line that is not 'Name: value': {line[:80]!r}")
        if name.lower() == "content-length":
            lengths.append(value.strip())
    if not lengths:
        raise BrokenFrame("a message header without Content-Length")
    if len(lengths) > 1:
        raise BrokenFrame("a message header with more than one Content-Length")
    value = lengths[0]
    if not (value.isascii() and value.isdigit()):
        raise BrokenFrame(f"Content-Length {value[:40]!r} is not a count of bytes")
    if len(value) > 12 or int(value) > MAX_BODY_BYTES:
        raise BrokenFrame(f"Content-Length {value[:40]} is more than the {MAX_BODY_BYTES} bytes "
                          f"a message may have")
    return int(value)


class Framer:
    """Reads one message body after another from a file descriptor (stdin)."""

    def __init__(self, fd: int, stall_s: float = STALL_S):
        self.fd = fd
        self.stall_s = stall_s
        self.buf = bytearray()

    def _more(self, begun: bool) -> bool:
        """Append what arrives to the buffer; False at the end of the stream. Inside a message
        (`begun`) the next bytes must come within `stall_s`."""
        if begun and _CAN_WAIT:
            ready, _, _ = select.select([self.fd], [], [], self.stall_s)
            if not ready:
                raise BrokenFrame(f"the client stopped inside a message: no byte for "
                                  f"{self.stall_s:g} s (is its Content-Length right?)")
        chunk = os.read(self.fd, _CHUNK)
        self.buf += chunk
        return bool(chunk)

    def next(self) -> bytes | None:
        """The next message's body, or None when the stream ended between messages."""
        while (end := self.buf.find(b"\r\n\r\n")) < 0:
            if len(self.buf) > MAX_HEADER_BYTES:
                raise BrokenFrame(f"a message header longer than {MAX_HEADER_BYTES} bytes, or "
                                  f"no header at all")
            if not self._more(begun=bool(self.buf)):
                if self.buf:
                    raise BrokenFrame("the stream ended inside a message header")
                return None
        if end > MAX_HEADER_BYTES:
            raise BrokenFrame(f"a message header longer than {MAX_HEADER_BYTES} bytes")
        length = content_length(bytes(self.buf[:end]))
        del self.buf[:end + 4]
        while len(self.buf) < length:
            if not self._more(begun=True):
                raise BrokenFrame(f"the stream ended {length - len(self.buf)} bytes short of "
                                  f"the message's Content-Length")
        body = bytes(self.buf[:length])
        del self.buf[:length]
        return body

    def holds_more(self) -> bool:
        """Whether bytes of a message not yet taken are here or waiting in the pipe (where
        select() can tell; elsewhere always, so that a caller that drains waits as it did)."""
        if self.buf or not _CAN_WAIT:
            return True
        try:
            return bool(select.select([self.fd], [], [], 0)[0])
        except (OSError, ValueError):  # the stream is closed: nothing more comes
            return False

    def item(self) -> bytes | BrokenFrame | None:
        """`next`, with a broken frame or a stream that cannot be read given, not raised."""
        try:
            return self.next()
        except BrokenFrame as exc:
            return exc
        except OSError as exc:
            return BrokenFrame(f"stdin could not be read: {exc.strerror or exc}")


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def error_message(code: int, text: str) -> dict:
    """A JSON-RPC error answering a message whose id could not be read."""
    return {"jsonrpc": "2.0", "id": None, "error": {"code": code, "message": f"grove lsp: {text}"}}


def _request_id(body: bytes) -> int | str | None:
    """The id of the request `body` holds, where it has one a JSON-RPC id may be."""
    try:
        found = json.loads(body).get("id")
    except (ValueError, AttributeError, RecursionError):
        return None
    return found if isinstance(found, (int, str)) and not isinstance(found, bool) else None


def serve(server: LanguageServer, stdin: BinaryIO, stdout: BinaryIO,
          stall_s: float = STALL_S, framer: Framer | None = None,
          early: Sequence[bytes | BrokenFrame | None] = (),
          wrap: Callable[[Any], Any] | None = None) -> int:
    """Run `server` on the two streams: 0 when the stream ends, the client's `exit` code, or
    `EXIT_BROKEN` after answering a stream that broke. `early` are the messages read before
    the server was built (grove/lsp/prelude.py), taken first, from `framer`, which read them;
    `wrap` wraps the writer."""
    import asyncio  # here: the prelude reads with this module before anything needs asyncio

    from pygls.io_ import StdoutWriter

    writer = StdoutWriter(stdout) if wrap is None else wrap(StdoutWriter(stdout))
    server.protocol.set_writer(writer)
    server._stop_event = threading.Event()  # pygls' shutdown() sets it
    try:
        return asyncio.run(_loop(server, framer or Framer(stdin.fileno(), stall_s), writer,
                                 list(early)))
    except SystemExit as exc:  # the client's `exit`: 0 after `shutdown`, else 1 (pygls)
        return exc.code if isinstance(exc.code, int) else 0
    except (BrokenPipeError, KeyboardInterrupt):
        return 0
    finally:
        server.shutdown()


def _reader(framer: Framer, queue: asyncio.Queue, loop: asyncio.AbstractEventLoop) -> None:
    """The thread that reads stdin: hands each message to the loop and waits until it is taken
    (one message waits at most: a client sending faster than the server answers does not fill
    the memory), and stops after the end of the stream or a broken frame."""
    import asyncio

    while True:
        item = framer.item()
        try:
            asyncio.run_coroutine_threadsafe(queue.put(item), loop).result()
        except (RuntimeError, asyncio.CancelledError):  # the loop has stopped: nobody listens
            return
        if not isinstance(item, bytes):
            return


async def _loop(server: LanguageServer, framer: Framer, writer,
                early: list[bytes | BrokenFrame | None]) -> int:
    import asyncio

    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue(maxsize=1)
    # what the handlers ask before they drain: a message read but not yet taken, or more to read
    server.queued = lambda: not queue.empty() or framer.holds_more()
    if all(isinstance(item, bytes) for item in early):  # else the stream has ended or broken
        threading.Thread(target=_reader, args=(framer, queue, loop), name="grove-lsp-stdin",
                         daemon=True).start()
    protocol = server.protocol
    while not server._stop_event.is_set():
        item = early.pop(0) if early else await queue.get()
        if item is None:
            return 0
        if isinstance(item, BrokenFrame):
            log.error("grove lsp: %s; the server stops", item)
            writer.write(frame(error_message(PARSE_ERROR, f"{item}; the server stops")))
            return EXIT_BROKEN
        try:
            message = json.loads(item, object_hook=protocol.structure_message)
        except ValueError as exc:  # not JSON (nor UTF-8): the frame was right, read on
            writer.write(frame(error_message(PARSE_ERROR, f"a message that is not JSON: {exc}")))
            continue
        except Exception as exc:  # noqa: BLE001 - JSON of no message's shape, or nested too deep
            # a request whose fields are out of range (a hover at line -1) is answered by its
            # own id, so the client waiting on it is not left waiting for ever
            answer = error_message(INVALID_REQUEST, f"a message of no known shape: "
                                                    f"{type(exc).__name__}")
            answer["id"] = _request_id(item)
            writer.write(frame(answer))
            continue
        try:
            protocol.handle_message(message)
        except Exception as exc:  # noqa: BLE001 - JSON that is no request, notice or answer
            log.error("grove lsp: a message that could not be taken: %r", exc)
            writer.write(frame(error_message(INVALID_REQUEST, "a JSON value that is not a "
                                                              "JSON-RPC message")))
    return 0
