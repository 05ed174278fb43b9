"""`grove serve`'s HTTP API, in process (Starlette's TestClient runs the app and its lifespan):
a whole game played by its seats' links, its record replayed; every refusal a status and a
message with the game unchanged; a server stopped and started again on its games folder goes
on to the same end."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from grove.compiler import cardset as cs
from grove.engine import record as rec
from grove.engine import runner
from grove.engine.seat import SPECTATOR
from grove.serve.app import Settings, build_app
from tests.serve_helpers import answer, record_actions

FAST = {"rate": 1e4, "burst": 10_000}


def _client(folder: Path, **limits) -> TestClient:
    return TestClient(build_app(Settings(folder, **(FAST | limits))))


def _table(c: TestClient, token: str, changed_from: int | None = None) -> dict:
    for _ in range(2000):
        r = c.get(f"/api/seat/{token}")
        if r.status_code == 200:
            t = r.json()
            if changed_from is None or t["state"] != changed_from or t["final"]:
                return t
        time.sleep(0.005)
    raise AssertionError("no table")


def _token(link: str) -> str:
    return link.rsplit("/", 1)[1]


def _play(c: TestClient, tokens: list[str], until: int | None = None) -> dict:
    """Every person's decisions answered through the API, as `serve_helpers.answer` chooses."""
    while True:
        acted = False
        for tok in tokens:
            t = _table(c, tok)
            if t["final"] or (until is not None and t["state"] >= until):
                return t
            if not t["decision"]:
                continue

            def ask(actions: list[str], tok: str = tok) -> dict:
                return c.post(f"/api/seat/{tok}/rehearse", json={"actions": actions}).json()

            r = c.post(f"/api/seat/{tok}/act", json={"actions": answer(t, ask),
                                                     "state": t["state"]})
            assert r.status_code == 200, r.text
            _table(c, tok, t["state"])
            acted = True
        if not acted:
            time.sleep(0.005)


def _replays(path: Path) -> None:
    r = rec.read(path)
    cset = cs.build(r.header["edition"], r.header["with"])
    _, problems = runner.replay(cset, r)
    assert problems == []
    assert r.end is not None


def test_a_whole_game_by_the_seats_links_and_its_record_replays(tmp_path):
    with _client(tmp_path) as c:
        r = c.post("/api/games", json={"edition": "base", "with": [], "seats": ["human", "human"],
                                      "seed": 7, "lang": "de"})
        assert r.status_code == 201
        game = r.json()
        tokens = [_token(x) for x in game["links"]["seats"]]
        first = _table(c, tokens[0])
        key, face = first["faces_key"], first["hand"][0]["face"]
        for name, status in ((f"{face}.png", 200), ("back.png", 200), ("99999.png", 404),
                             ("../../etc/passwd", 404), ("-1.png", 404)):
            r = c.get(f"/faces/{key}/{name}")
            assert r.status_code == status, name
            assert status != 200 or r.content.startswith(b"\x89PNG")
        # every face's words, read once for a hover: no table message carries them
        words = c.get(f"/faces/{key}/words.json")
        assert words.status_code == 200 and "immutable" in words.headers["cache-control"]
        assert len(words.json()) > face and words.json()[face]["title"]
        assert "faces" not in first
        final = _play(c, tokens)
        assert final["final"]["title"].startswith("Endstand")  # the seat's language
        assert len(final["final"]["cards"]) > 10
        listed = c.get("/api/games").json()["games"]
        assert [g["state"] for g in listed] == ["finished"]
        assert "links" in listed[0]  # the cookie of the one who made it
        record = c.get(f"/api/games/{game['id']}/record")
        assert record.status_code == 200
    _replays(tmp_path / f"{game['id']}.jsonl")
    with TestClient(build_app(Settings(tmp_path))) as other:  # another browser: no links
        assert "links" not in other.get("/api/games").json()["games"][0]


def test_a_level_names_its_ai_and_the_record_keeps_the_spec(tmp_path):
    with _client(tmp_path) as c:
        r = c.post("/api/games", json={"edition": "base", "seats": ["hard", "easy"], "seed": 1})
        assert r.status_code == 201
        assert [s["kind"] for s in r.json()["seats"]] == ["mcts", "greedy:0.5"]
        assert [s["name"] for s in r.json()["seats"]] == ["Hard 1", "Easy 2"]
        c.get(f"/api/games/{r.json()['id']}")  # nothing there: the record is at .../record


@pytest.mark.parametrize("body, status, words", [
    ({"edition": "nowhere", "seats": ["human", "greedy"]}, 400, "nowhere"),
    ({"edition": "base", "seats": ["human"]}, 400, "2 to 5"),
    ({"edition": "base", "seats": ["human"] * 6}, 400, "2 to 5"),
    ({"edition": "base", "seats": ["human", "wizard"]}, 400, "wizard"),
    ({"edition": "base", "seats": ["human", "mcts:0"]}, 400, "mcts"),
    ({"edition": "base", "seats": ["human", "greedy!no_such_bird"]}, 400, "no_such_bird"),
    ({"edition": "base", "seats": ["human", "greedy"], "seed": -1}, 400, "seed"),
    ({"edition": "base", "seats": ["human", "greedy"], "lang": "fr"}, 400, "lang"),
    ({"edition": "base", "seats": [{"kind": "human", "name": "\x1b[2J"}, "greedy"]}, 400, "name"),
    ([1, 2], 400, "object"),
])
def test_a_game_asked_for_wrongly_is_refused_with_why(tmp_path, body, status, words):
    with _client(tmp_path) as c:
        r = c.post("/api/games", json=body)
        assert r.status_code == status
        assert words in r.json()["error"]
        assert c.get("/api/games").json()["games"] == []


def test_every_refusal_leaves_the_game_as_it_was(tmp_path):
    with _client(tmp_path, message_bytes=2000) as c:
        game = c.post("/api/games", json={"edition": "base", "seats": ["human", "human"],
                                          "seed": 3}).json()
        a, b = (_token(x) for x in game["links"]["seats"])
        spectator = _token(game["links"]["spectator"])
        t = _table(c, a)
        assert t["decision"] and not _table(c, b)["decision"]
        offered = answer(t, lambda acts: c.post(f"/api/seat/{a}/rehearse",
                                                json={"actions": acts}).json())
        cases = [
            ("nobody", {"action": offered[0]}, 403),
            (b, {"action": offered[0]}, 409),  # another seat's decision
            (spectator, {"action": offered[0]}, 403),
            (a, {"action": "play 999 tree"}, 409),
            (a, {"action": "not an action"}, 409),
            (a, {"actions": offered, "state": t["state"] + 5}, 409),  # stale
            (a, {"actions": []}, 400),
            (a, {"action": 7}, 400),
            (a, {"actions": ["draw deck"] * 40}, 400),
            (a, {"actions": offered, "state": "x"}, 400),
        ]
        for token, body, status in cases:
            r = c.post(f"/api/seat/{token}/act", json=body)
            assert r.status_code == status, (body, r.text)
            assert r.json()["error"]
        for raw in (b"{", b"\xff\xfe", b"[" * 5000, json.dumps({"action": "x" * 5000}).encode()):
            r = c.post(f"/api/seat/{a}/act", content=raw)
            assert r.status_code in (400, 413)
        assert _table(c, a) == t  # nothing moved
        r = c.post(f"/api/seat/{a}/act", json={"actions": offered, "state": t["state"]})
        assert r.status_code == 200


def test_too_many_requests_are_refused_and_the_seat_goes_on(tmp_path):
    with _client(tmp_path, rate=1.0, burst=5) as c:
        game = c.post("/api/games", json={"edition": "base", "seats": ["human", "greedy"],
                                          "seed": 3}).json()
        a = _token(game["links"]["seats"][0])
        _table(c, a)
        codes = [c.post(f"/api/seat/{a}/act", json={"action": "nothing"}).status_code
                 for _ in range(8)]
        assert codes[:5] == [409] * 5 and set(codes[5:]) == {429}


def test_a_server_started_again_goes_on_to_the_same_end(tmp_path):
    body = {"edition": "base", "seats": ["human", "greedy", "human"], "seed": 11}
    whole, stopped = tmp_path / "whole", tmp_path / "stopped"
    with _client(whole) as c:
        g = c.post("/api/games", json=body).json()
        _play(c, [_token(x) for x in g["links"]["seats"] if x])
    for until in (7, 40, 90):  # stopped three times, each time further on
        with _client(stopped) as c:
            if until == 7:
                g2 = c.post("/api/games", json=body).json()
            tokens = [_token(x) for x in g2["links"]["seats"] if x]
            assert _play(c, tokens, until)["state"] >= until
    with _client(stopped) as c:  # the links are the same, the game goes on where it stood
        final = _play(c, tokens)
        assert final["final"]
    assert record_actions(stopped / f"{g2['id']}.jsonl") == record_actions(
        whole / f"{g['id']}.jsonl")
    _replays(stopped / f"{g2['id']}.jsonl")


def test_the_spectators_table_is_worded_when_someone_watches(tmp_path):
    """No spectator, no spectator's table worded at each move (a third of a two-seat game's
    work); one who asks, by the API or a socket, gets the table where the game stands: while a
    person decides, while an AI thinks, and after the end."""
    with _client(tmp_path) as c:
        game = c.post("/api/games", json={"edition": "base", "seats": ["human", "greedy"],
                                          "seed": 4}).json()
        person, spectator = _token(game["links"]["seats"][0]), _token(game["links"]["spectator"])
        match = c.app.state.server.matches.by_id[game["id"]]
        t = _play(c, [person], until=6)
        assert SPECTATOR not in match.views and match.views[0]
        seen = _table(c, spectator)
        assert seen["seat"] == -1 and seen["state"] == t["state"] and seen["decision"] is None
        assert seen["forests"] and seen["hand"] == []
        with c.websocket_connect(f"/ws/{spectator}") as ws:
            first = ws.receive_json()
            assert first["type"] == "table" and first["state"] == t["state"]
            t = _play(c, [person], until=t["state"] + 4)
            while (msg := ws.receive_json())["state"] < t["state"]:
                pass  # a table at every move while watched
            assert msg["state"] == t["state"]
        final = _play(c, [person])
        assert final["final"]
        seen = _table(c, spectator)
        assert seen["final"] and seen["state"] == final["state"]
