"""`grove serve` as a process, on the loopback address: killed (SIGKILL) at moments of a game
in progress and started again on its games folder, it goes on to the same end as a game never
stopped; SIGTERM stops it with every record whole; frames no browser sends (text that is not
UTF-8, frames over the size limit) close that socket and nothing else, with no traceback."""

from __future__ import annotations

import random
import signal

from tests.serve_helpers import call, kill, play_seats, record_actions, start

GAME = {"edition": "base", "seats": ["human", "greedy", "human"], "seed": 5, "lang": "it"}


def _create(url: str) -> tuple[str, list[str]]:
    status, game = call(url, "POST", "/api/games", GAME)
    assert status == 201, game
    return game["id"], [link.rsplit("/", 1)[1] for link in game["links"]["seats"] if link]


def test_a_server_killed_at_random_moments_goes_on_to_the_same_end(tmp_path):
    whole = start(tmp_path / "whole")
    try:
        gid, tokens = _create(whole.url)
        assert play_seats(whole.url, tokens)["final"]
    finally:
        assert "Traceback" not in whole.log()
    expected = record_actions(tmp_path / "whole" / f"{gid}.jsonl")

    rng = random.Random(2)
    folder = tmp_path / "killed"
    server = start(folder)
    gid2, tokens = _create(server.url)
    reached = 0
    for _ in range(3):  # killed three times, at a state drawn at random, mid-answer or not
        reached = rng.randrange(reached + 5, reached + 60)
        play_seats(server.url, tokens, until=reached)
        kill(server)
        server = start(folder)
    try:
        assert play_seats(server.url, tokens)["final"]
    finally:
        assert "Traceback" not in server.log()
    assert record_actions(folder / f"{gid2}.jsonl") == expected


def test_sigterm_stops_every_game_with_its_record_whole_and_bad_frames_close_one_socket(
        tmp_path):
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    server = start(tmp_path)
    gid, tokens = _create(server.url)
    play_seats(server.url, tokens, until=10)
    ws_url = server.url.replace("http", "ws") + f"/ws/{tokens[0]}"
    for frame, text in ((b"\xff\xfe\x80", True), (b"x" * 70_000, False)):
        with connect(ws_url, max_size=None) as ws:
            ws.recv(timeout=20)  # the table
            ws.send(frame, text=text)
            try:
                while True:
                    ws.recv(timeout=20)
            except ConnectionClosed:
                pass  # that socket is closed; the server goes on
    assert call(server.url, "GET", f"/api/seat/{tokens[0]}")[0] == 200  # the server goes on
    # uvicorn ends by the signal itself once its shutdown is done
    assert server.stop(signal.SIGTERM) in (0, -signal.SIGTERM)
    log = server.log()
    assert "Traceback" not in log
    lines = (tmp_path / f"{gid}.jsonl").read_text().splitlines()
    assert '"type": "stop"' in lines[-1]
