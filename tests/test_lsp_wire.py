"""`grove lsp` answers a broken stream or exits; it never waits for ever, crashes or reads without
bound.

Each test starts the real `grove lsp` as a subprocess and speaks raw bytes to it over pipes,
keeping its stdin open (as an editor does) so that a server waiting for bytes that will never
come would show as a timeout, not as an end of input. The server is told to give up on a
message after 1 s of silence (`GROVE_LSP_STALL_S=1`), so each test takes a second or two; every
wait has a timeout, and each process is killed at the end whatever happened.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from lsp_helpers import SERVER

from grove.lsp import wire

WAIT = 30.0  # seconds any answer may take on a busy machine; a hang is far longer


class Raw:
    """A `grove lsp` process and the messages it writes, read on a thread of their own."""

    def __init__(self, **env: str):
        self.proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE,
                                     env={**os.environ, "GROVE_LSP_STALL_S": "1", **env})
        self.messages: queue.Queue = queue.Queue()
        self.stderr: list[bytes] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = out.read(1)
                if not byte:
                    self.messages.put(None)
                    return
                header += byte
            length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
            self.messages.put(json.loads(out.read(length)))

    def send(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def request(self, msg_id: int, method: str, params: dict | None = None) -> None:
        self.send(wire.frame({"jsonrpc": "2.0", "id": msg_id, "method": method,
                              "params": params or {}}))

    def answer(self, msg_id: int | None) -> dict:
        """The next message answering `msg_id` (log messages and notices are passed over)."""
        while True:
            msg = self.messages.get(timeout=WAIT)
            assert msg is not None, f"the server ended: {self.err()}"
            if "method" not in msg and msg.get("id") == msg_id:
                return msg

    def exited(self) -> int:
        return self.proc.wait(timeout=WAIT)

    def err(self) -> str:
        return b"".join(self.stderr).decode("utf-8", "replace")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=WAIT)


@pytest.fixture()
def server() -> Iterator[Raw]:
    raw = Raw()
    raw.request(1, "initialize", {"capabilities": {}})
    assert "result" in raw.answer(1)
    raw.send(wire.frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    yield raw
    raw.close()


def broke(raw: Raw, words: str) -> None:
    """The server answered with a JSON-RPC parse error naming the fault, and exited 1."""
    error = raw.answer(None)["error"]
    assert error["code"] == wire.PARSE_ERROR and words in error["message"], error
    assert raw.exited() == wire.EXIT_BROKEN
    assert "Traceback" not in raw.err() and words in raw.err()


def test_a_good_session_ends_cleanly(server: Raw):
    server.request(2, "shutdown")
    assert server.answer(2)["result"] is None
    server.send(wire.frame({"jsonrpc": "2.0", "method": "exit"}))
    assert server.exited() == 0


def test_a_body_that_is_not_json_is_answered_and_the_server_reads_on(server: Raw):
    body = b"{not json"
    server.send(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    assert server.answer(None)["error"]["code"] == wire.PARSE_ERROR
    server.send(b"Content-Length: 2\r\n\r\n[]")  # JSON, but no message
    assert server.answer(None)["error"]["code"] == wire.INVALID_REQUEST
    server.request(2, "shutdown")
    assert server.answer(2)["result"] is None


@pytest.mark.parametrize(("header", "words"), [
    (b"Content-Type: application/json\r\n\r\n{}", "without Content-Length"),
    (b"Content-Length: -5\r\n\r\n{}", "not a count of bytes"),
    (b"Content-Length: 1000000000000\r\n\r\n{}", "more than the"),
    (b"Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}", "more than one Content-Length"),
    (b"Content-Length 2\r\n\r\n{}", "not 'Name: value'"),
])
def test_a_broken_header_is_answered_at_once(server: Raw, header: bytes, words: str):
    server.send(header)
    broke(server, words)


def test_a_body_shorter_than_its_length_is_answered(server: Raw):
    """The client waits for an answer to a message the server still reads: after 1 s of
    silence inside it, the server says so and exits."""
    server.send(b'Content-Length: 500\r\n\r\n{"jsonrpc": "2.0", "id": 7, "method": "shutdown"}')
    broke(server, "stopped inside a message")


def test_a_body_longer_than_its_length_is_answered(server: Raw):
    """The first bytes are no JSON (answered, read on); the rest is no header (answered, exit)."""
    body = b'{"jsonrpc": "2.0", "id": 7, "method": "shutdown"}'
    server.send(b"Content-Length: 10\r\n\r\n" + body)
    assert server.answer(None)["error"]["code"] == wire.PARSE_ERROR
    broke(server, "stopped inside a message")


def test_a_message_without_any_header(server: Raw):
    server.send(b'{"jsonrpc": "2.0", "id": 7, "method": "shutdown"}')
    broke(server, "stopped inside a message")


def test_a_header_that_never_ends_is_bounded(server: Raw):
    server.send(b"X-Padding: " + b"a" * (wire.MAX_HEADER_BYTES + 10))
    broke(server, "longer than")


def test_the_stream_ending_inside_a_message(server: Raw):
    server.send(b"Content-Length: 100\r\n\r\n{")
    server.proc.stdin.close()
    broke(server, "ended 99 bytes short")


@pytest.fixture()
def odd_files(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.yaml"
    zero.symlink_to("/dev/zero")
    huge = tmp_path / "huge.yaml"
    with open(huge, "wb") as fh:
        fh.truncate(8 << 30)  # sparse: 8 GB of zeros that take no disk
    return {"fifo": fifo, "zero": zero, "huge": huge}


@pytest.mark.parametrize("kind", ["fifo", "zero", "huge"])
def test_requests_on_a_fifo_device_or_huge_file_are_answered(server: Raw, odd_files, kind: str):
    """Hover, definition and the outline of a file the editor never opened read it from disk:
    a FIFO without a writer, /dev/zero or 8 GB must give an empty answer, at once. Closing a
    document reads the file on disk again to check it."""
    uri = odd_files[kind].as_uri()
    at = {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}
    for n, (method, params) in enumerate([
            ("textDocument/hover", at), ("textDocument/definition", at),
            ("textDocument/documentSymbol", {"textDocument": {"uri": uri}})], start=10):
        server.request(n, method, params)
        assert server.answer(n).get("result") in (None, []), method
    server.send(wire.frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": "a: 1\n"}}}))
    server.send(wire.frame({"jsonrpc": "2.0", "method": "textDocument/didClose", "params": {
        "textDocument": {"uri": uri}}}))
    server.request(20, "shutdown")
    assert server.answer(20)["result"] is None
    assert "Traceback" not in server.err()


def test_the_framer_alone(tmp_path: Path):
    """Messages back to back in one read, and the end of the stream between messages."""
    r, w = os.pipe()
    os.write(w, wire.frame({"a": 1}) + b"Content-Length: 2\r\nContent-Type: x\r\n\r\n{}")
    os.close(w)
    framer = wire.Framer(r, stall_s=1)
    assert json.loads(framer.next()) == {"a": 1}
    assert framer.next() == b"{}"
    assert framer.next() is None
    os.close(r)


def test_the_stall_knob():
    assert wire.stall_seconds({}) == wire.STALL_S
    assert wire.stall_seconds({"GROVE_LSP_STALL_S": "0.5"}) == 0.5
    for bad in ("0", "-1", "inf", "nan", "soon"):
        assert wire.stall_seconds({"GROVE_LSP_STALL_S": bad}) == wire.STALL_S


@pytest.mark.skipif(os.name != "posix", reason="select() tells a pipe's bytes on POSIX only")
def test_the_framer_says_whether_more_is_waiting():
    """A change with nothing behind it is checked at once, one with messages queued behind it
    waits for them (grove/lsp/server.py): the framer tells bytes in its buffer or in the pipe."""
    r, w = os.pipe()
    framer = wire.Framer(r, stall_s=1)
    assert not framer.holds_more()  # an editor that sent one keystroke and waits
    os.write(w, wire.frame({"a": 1}) + wire.frame({"b": 2}))
    assert framer.holds_more()  # in the pipe, not read yet
    assert json.loads(framer.next()) == {"a": 1}
    assert framer.holds_more()  # the second message, read into the buffer with the first
    assert json.loads(framer.next()) == {"b": 2}
    assert not framer.holds_more()
    os.close(w)
    os.close(r)
