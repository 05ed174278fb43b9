"""`grove serve` under load: 20 games at once, every seat played by a client over the WebSocket
protocol on the loopback address (each picks a line of its steps at random, settles a play
by rehearsing it, and answers), the server in a process of its own. The figures: the server's
own time per answer (from an answer taken to the next table kept: the game's move and every
seat's table worded, no AI in the games, so no thinking counted), read from `/api/stats`, and
the server's memory per game (its resident size with the games running, less before them).
Bounded: 20 games, each to its end, and 15 minutes at most.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

GAMES = 20
P95_TARGET_MS = 50.0
MB_TARGET = 30.0
LIMIT_S = 900.0


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=60) as r:
        return json.loads(r.read())


def _post(url: str, body: Any) -> Any:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read())


def _leaves(steps: list[dict]) -> list[dict]:
    return [x for s in steps for x in (_leaves(s["below"]) if s["action"] is None else [s])]


async def _seat(ws_url: str, rng: random.Random, deadline: float) -> int:
    """One seat played to the game's end over its WebSocket; the answers it gave."""
    from websockets.asyncio.client import connect

    answers = 0
    seen: list[dict] = []  # tables that came while a request waited for its answer
    async with connect(ws_url, max_size=None) as ws:
        answered = -1
        while time.monotonic() < deadline:
            msg = seen.pop() if seen else json.loads(await ws.recv())
            seen.clear()
            if msg.get("type") != "table":
                continue
            if msg["final"]:
                return answers
            d = msg["decision"]
            if not d or msg["state"] == answered:
                continue
            if d["kind"] == "pay":
                actions = [c["action"] for c in d["pay"]["cards"][:d["pay"]["count"]]]
            else:
                step = rng.choice(_leaves(d["steps"]))
                actions = [step["action"]]
                while step["settle"]:
                    await ws.send(json.dumps({"type": "rehearse", "actions": actions}))
                    reply = await _reply(ws, "rehearsed", seen)
                    if reply is None or reply.get("kind") == "done":
                        break
                    if reply["kind"] == "pay":
                        p = reply["pay"]
                        actions += [c["action"] for c in p["cards"][:p["count"]]]
                        break
                    actions.append(_leaves(reply["steps"])[0]["action"])
            await ws.send(json.dumps({"type": "act", "actions": actions, "state": msg["state"]}))
            if await _reply(ws, "acted", seen) is not None:
                answered = msg["state"]
                answers += 1
    raise TimeoutError("a game of the serve benchmark did not end in time")


async def _reply(ws: Any, kind: str, seen: list[dict]) -> dict | None:
    """The answer to the request just sent; None for an error. A table that comes meanwhile
    (the server may send the next table before its answer) is kept in `seen`."""
    while True:
        msg = json.loads(await ws.recv())
        if msg.get("type") == kind:
            return msg
        if msg.get("type") == "error":
            return None
        if msg.get("type") == "table":
            seen.append(msg)


def bench_serve(opts: Any) -> dict[str, Any]:
    import psutil

    folder = Path(tempfile.mkdtemp(prefix="grove-serve-bench-"))
    proc = subprocess.Popen([sys.executable, "-c", "from grove.cli import main; main()", "serve",
                             "--port", "0", "--games", str(folder), "--rate", "100000"],
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        m = None
        for line in proc.stderr:  # its first line says where it listens
            m = re.search(r"open (http://\S+)/", line)
            if m:
                break
        assert m, "grove serve did not start"
        url = m.group(1)
        for _ in range(200):
            try:
                _get(url + "/api/games")
                break
            except OSError:
                time.sleep(0.05)
        server = psutil.Process(proc.pid)
        # a first game's card set and faces, so the memory counted is the games'
        warm = _post(url + "/api/games", {"edition": "base", "seats": ["human", "human"],
                                          "seed": 0})
        for _ in range(600):  # its first table (503 while it starts)
            try:
                _get(url + "/api/seat/" + warm["links"]["seats"][0].rsplit("/", 1)[1])
                break
            except OSError:
                time.sleep(0.1)
        time.sleep(5.0)  # its faces drawn in the background
        before = server.memory_info().rss
        cpu_before = sum(server.cpu_times()[:2])
        games = [_post(url + "/api/games", {"edition": "base", "seats": ["human", "human"],
                                            "seed": k + 1}) for k in range(GAMES)]
        ws = url.replace("http", "ws")
        deadline = time.monotonic() + LIMIT_S
        peak = [before]

        async def run() -> list[int]:
            async def watch() -> None:
                while True:
                    peak[0] = max(peak[0], server.memory_info().rss)
                    await asyncio.sleep(0.5)

            watcher = asyncio.create_task(watch())
            seats = [_seat(f"{ws}/ws/{link.rsplit('/', 1)[1]}", random.Random(k * 2 + j),
                           deadline)
                     for k, g in enumerate(games) for j, link in enumerate(g["links"]["seats"])]
            t0 = time.monotonic()
            done = await asyncio.gather(*seats)
            watcher.cancel()
            print(f"   {GAMES} games, {sum(done)} answers over WebSockets in "
                  f"{time.monotonic() - t0:.0f} s")
            return done

        asyncio.run(run())
        stats = _get(url + "/api/stats")
        cpu = sum(server.cpu_times()[:2]) - cpu_before
    finally:
        proc.terminate()
        proc.wait(30)
    per_game = (peak[0] - before) / GAMES / 2**20
    p95 = stats["p95_ms"]
    print(f"== grove serve: {GAMES} two-seat games at once, every seat a client over WebSockets")
    print(f"   the server's time per answer: p50 {stats['p50_ms']:.1f} ms, p95 {p95:.1f} ms "
          f"(target <= {P95_TARGET_MS:.0f} ms {'met' if p95 <= P95_TARGET_MS else 'MISSED'})")
    # the server's CPU per answer (its tables for every seat, the game, the sockets): what
    # a loaded machine does not inflate, unlike the times above
    cpu_ms = cpu * 1000 / max(1, stats["answers"])
    print(f"   the server's CPU per answer: {cpu_ms:.1f} ms in all, the game's thread "
          f"{stats['cpu_p50_ms']:.2f} ms (p50)")
    print(f"   memory: {per_game:.1f} MB a game (target <= {MB_TARGET:.0f} MB "
          f"{'met' if per_game <= MB_TARGET else 'MISSED'})")
    return {"serve": {"games": GAMES, "answers": stats["answers"], "p50_ms": stats["p50_ms"],
                      "p95_ms": p95, "p95_target_ms": P95_TARGET_MS,
                      "cpu_ms_per_answer": round(cpu_ms, 2),
                      "engine_cpu_p50_ms": stats["cpu_p50_ms"],
                      "mb_per_game": round(per_game, 1), "mb_target": MB_TARGET}}
