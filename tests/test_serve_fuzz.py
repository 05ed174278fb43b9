"""Nothing a browser sends can harm the server: a thousand malformed and hostile messages over
the seats' WebSockets each get an error message, none a traceback, and the game, its record
and every seat's table are as they were; the seat then plays on."""

from __future__ import annotations

import json
import logging
import random
import time
from pathlib import Path

from starlette.testclient import TestClient

from grove.serve.app import Settings, build_app
from tests.serve_helpers import answer

HOSTILE = 1000


def _wait_table(ws) -> dict:
    while True:
        msg = ws.receive_json()
        if msg["type"] == "table" and (msg["decision"] or msg["waiting"]):
            return msg


def _messages(rng: random.Random, table: dict, offered: list[str]) -> list[tuple[str, object]]:
    """Hostile messages: each ("text" | "bytes", payload)."""
    state = table["state"]
    kinds = [
        lambda: ("text", "{"),
        lambda: ("text", "null"),
        lambda: ("text", json.dumps([1, 2, 3])),
        lambda: ("text", json.dumps({"type": "shout"})),
        lambda: ("text", json.dumps({"type": "act"})),
        lambda: ("text", json.dumps({"type": "act", "action": None})),
        lambda: ("text", json.dumps({"type": "act", "actions": "draw deck"})),
        lambda: ("text", json.dumps({"type": "act", "actions": [1, 2]})),
        lambda: ("text", json.dumps({"type": "act", "action": "play 9999 tree"})),
        lambda: ("text", json.dumps({"type": "act", "action": "x" * rng.randrange(1, 300)})),
        lambda: ("text", json.dumps({"type": "act", "actions": offered, "state": state + 1})),
        lambda: ("text", json.dumps({"type": "act", "actions": offered, "state": state - 1})),
        lambda: ("text", json.dumps({"type": "act", "actions": offered + offered})),
        lambda: ("text", json.dumps({"type": "act", "actions": offered, "state": True})),
        lambda: ("text", json.dumps({"type": "rehearse", "actions": ["pay 1", "pay 2"]})),
        lambda: ("text", json.dumps({"type": "rehearse", "actions": ["draw deck", "draw deck"]})),
        lambda: ("text", json.dumps({"type": "act", "actions": ["x"] * 100})),
        lambda: ("text", "[" * rng.randrange(1000, 5000)),
        lambda: ("text", json.dumps({"type": "act", "action": "draw deck", "pad": "x" * 70_000})),
        lambda: ("text", json.dumps({"type": "act", "action": "\u0000"})),
        lambda: ("bytes", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))),
        lambda: ("bytes", b"\xff\xfe\xfd"),
    ]
    return [rng.choice(kinds)() for _ in range(HOSTILE)]


def test_a_thousand_hostile_messages_leave_the_game_as_it_was(tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    app = build_app(Settings(tmp_path, rate=1e5, burst=100_000, message_bytes=16_384))
    rng = random.Random(8)
    with TestClient(app) as c:
        game = c.post("/api/games", json={"edition": "base", "seats": ["human", "human"],
                                          "seed": 5}).json()
        a, b = (link.rsplit("/", 1)[1] for link in game["links"]["seats"])
        record = tmp_path / f"{game['id']}.jsonl"
        with c.websocket_connect(f"/ws/{a}") as wa, c.websocket_connect(f"/ws/{b}") as wb:
            table = _wait_table(wa)
            _wait_table(wb)
            offered = answer(table, lambda acts: c.post(f"/api/seat/{a}/rehearse",
                                                        json={"actions": acts}).json())
            kept = _settled(record)
            errors = 0
            for k, (kind, payload) in enumerate(_messages(rng, table, offered)):
                ws = wb if k % 3 == 0 else wa  # a third of them from the seat not deciding
                if kind == "text":
                    ws.send_text(payload)
                else:
                    ws.send_bytes(payload)
                reply = ws.receive_json()
                assert reply["type"] == "error", (payload, reply)
                assert reply["message"] and reply["status"] in (400, 403, 409, 413)
                errors += 1
            assert errors == HOSTILE
            assert c.get(f"/api/seat/{a}").json() == table
            assert record.read_bytes() == kept
            wa.send_text(json.dumps({"type": "act", "actions": offered,
                                     "state": table["state"]}))
            reply = wa.receive_json()
            while reply["type"] == "table":  # the table the answer brings may come first
                assert reply["state"] > table["state"]
                reply = wa.receive_json()
            assert reply == {"type": "acted", "ok": True}
        for _ in range(200):  # the game went on with the one good answer
            if c.get(f"/api/seat/{a}").json()["state"] > table["state"]:
                break
            time.sleep(0.01)
        assert c.get(f"/api/seat/{a}").json()["state"] > table["state"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def _settled(record: Path, quiet: float = 1.0, bound: float = 60.0) -> bytes:
    """The record once its copies are written: a server writes them behind the game, by a
    thread of its own, so the copy of where the game stands may land after the table did.
    The game waits on a person meanwhile, so bytes unchanged for `quiet` seconds are the last."""
    end = time.monotonic() + bound
    last, since = None, time.monotonic()
    while time.monotonic() < end:
        now = record.read_bytes() if record.exists() else None
        if now != last:
            last, since = now, time.monotonic()
        elif now is not None and time.monotonic() - since >= quiet:
            return now
        time.sleep(0.02)
    raise AssertionError(f"{record} was not written within {bound} s")


def test_a_wrong_token_gets_no_socket(tmp_path):
    from starlette.websockets import WebSocketDisconnect

    with TestClient(build_app(Settings(tmp_path))) as c:
        try:
            with c.websocket_connect("/ws/not-a-seat") as ws:
                ws.receive_json()
        except WebSocketDisconnect as exc:
            assert exc.code == 4403
        else:
            raise AssertionError("a socket was opened for a token no seat has")
