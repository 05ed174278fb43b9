"""What the `grove serve` tests share: a real server in a process of its own on the loopback
address, and a player that answers any seat's decision through the HTTP API the way a person
would (a leaf of the steps, the play settled by rehearsing it), chosen from the table's state
alone, so the same game plays the same however often the server is stopped."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GROVE = [sys.executable, "-c", "from grove.cli import main; main()"]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def launched_chromium():
    """Debian's Chromium under Playwright, for a module's fixture to yield; closed after."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@dataclass
class Server:
    proc: subprocess.Popen
    url: str
    games: Path

    def stop(self, sig: int = signal.SIGTERM, wait: float = 20.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(wait)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait(5)

    def log(self) -> str:
        self.stop()
        return (self.proc.stderr.read() if self.proc.stderr else "") or ""


def start(games: Path, *extra: str, timeout: float = 60.0) -> Server:
    """`grove serve --port 0` on the loopback address; its URL read from the line it prints."""
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    # a script answers far faster than a person: the rate limit is raised for it
    proc = subprocess.Popen([*GROVE, "serve", "--port", "0", "--games", str(games),
                             "--rate", "100000", *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stderr is not None
    deadline = time.monotonic() + timeout
    line = ""
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line and proc.poll() is not None:
            break
        m = re.search(r"open (http://[\d.]+:\d+)/", line)
        if m:
            server = Server(proc, m.group(1), games)
            _wait_up(server, deadline)
            return server
    proc.kill()
    raise AssertionError(f"grove serve did not start: {line!r}")


def _wait_up(server: Server, deadline: float) -> None:
    while time.monotonic() < deadline:
        try:
            call(server.url, "GET", "/api/games")
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError("grove serve did not answer")


def call(url: str, method: str, path: str, body: Any = None,
         cookie: str | None = None) -> tuple[int, Any]:
    data = None if body is None else (body if isinstance(body, bytes) else
                                      json.dumps(body).encode())
    req = urllib.request.Request(url + path, data=data, method=method)
    req.add_header("Content-Type", "application/json")
    if cookie:
        req.add_header("Cookie", cookie)
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            raw = resp.read()
            status = resp.status
    except urllib.error.HTTPError as exc:
        raw, status = exc.read(), exc.code
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode("utf-8", "replace")


def leaves(steps: list[dict]) -> list[dict]:
    out: list[dict] = []
    for s in steps:
        out.extend(leaves(s["below"]) if s["action"] is None else [s])
    return out


class Moved(Exception):
    """The game moved on while a play was being settled."""


def answer(table: dict, ask: Any) -> list[str]:
    """The actions a scripted person takes at the seat's decision: a leaf chosen by the table's
    state, and for a paid play its river card and the first cards that pay (`ask` rehearses:
    a function from the actions so far to the server's answer)."""
    d = table["decision"]
    if d["kind"] == "pay":
        return [c["action"] for c in d["pay"]["cards"][:d["pay"]["count"]]]
    options = leaves(d["steps"])
    step = options[(table["state"] * 7 + 3) % len(options)]
    actions = [step["action"]]
    while step["settle"]:
        nxt = ask(actions)
        if "kind" not in nxt:  # the table moved on meanwhile: answered at the next look
            raise Moved(nxt.get("error", ""))
        if nxt["kind"] == "done":
            break
        if nxt["kind"] == "pay":
            actions += [c["action"] for c in nxt["pay"]["cards"][:nxt["pay"]["count"]]]
            break
        actions.append(leaves(nxt["steps"])[0]["action"])
    return actions


def play_seats(url: str, tokens: list[str], until: int | None = None,
               deadline: float = 300.0) -> dict:
    """Answer every person's decision through the API until the game ends (or the table's
    state reaches `until`); the last table seen."""
    end = time.monotonic() + deadline
    last: dict = {}
    while time.monotonic() < end:
        progressed = False
        for token in tokens:
            status, table = call(url, "GET", f"/api/seat/{token}")
            if status != 200:
                continue
            last = table
            if table["final"] is not None or (until is not None and table["state"] >= until):
                return table
            if table["decision"] is None:
                continue

            def ask(actions: list[str], token: str = token) -> dict:
                return call(url, "POST", f"/api/seat/{token}/rehearse",
                            {"actions": actions})[1]

            try:
                actions = answer(table, ask)
            except Moved:
                continue
            status, out = call(url, "POST", f"/api/seat/{token}/act",
                               {"actions": actions, "state": table["state"]})
            if status == 200:  # the next look is at the table this answer brings
                progressed = True
                while call(url, "GET", f"/api/seat/{token}")[1]["state"] == table["state"]:
                    time.sleep(0.005)
        if not progressed:
            time.sleep(0.01)
    raise AssertionError(f"the game did not end in {deadline} s (state {last.get('state')})")


def record_actions(path: Path) -> list[str]:
    return [json.loads(line)["action"] for line in path.read_text().splitlines()
            if line and json.loads(line).get("type") == "action"]


def kill(server: Server) -> None:
    server.proc.send_signal(signal.SIGKILL)
    server.proc.wait(10)
