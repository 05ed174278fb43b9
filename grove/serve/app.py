"""`build_app(settings)`: the browser table as a Starlette app.

The routes: the lobby (`/`), a seat's table (`/play/TOKEN`), a spectator's (`/watch/TOKEN`),
the card faces (`/faces/KEY/N.png`) and their words (`/faces/KEY/words.json`), the HTTP API
(`/api/...`, docs/serve.md) and a seat's WebSocket (`/ws/TOKEN`), which sends the seat's table
each time it changes and takes the same requests as the API. Every request that touches a game
names a seat by its token, and speaks for that seat only; whatever a client sends, the answer is
a status and a message, and the game is as it was (`Refused`, `players.Unfit`). The lifespan
reads the games folder back (every unfinished game goes on) and stops every game at the end,
each record with its stop line.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from grove.engine.seat import SPECTATOR
from grove.serve.matches import LANGS, Match, Matches, Refused
from grove.serve.players import MOST_ACTIONS
from grove.serve.wire import dumps

HERE = Path(__file__).parent
FONTS = HERE.parent / "printouts" / "fonts"
OWNER = "grove_owner"  # the cookie that says who made a game: the lobby shows them its links


@dataclass(frozen=True)
class Settings:
    """A server's settings: where games are kept, and the limits nothing a browser sends may
    pass (docs/serve.md)."""

    games: Path
    roots: Any = None
    most_games: int = 50  # games running at once
    message_bytes: int = 16_384  # a request body or a WebSocket message, at most
    rate: float = 20.0  # requests a second a seat may send, on average ...
    burst: int = 60  # ... and at once
    answer_seconds: float = 30.0  # how long a request waits for the game to take it


@dataclass
class Bucket:
    """A token bucket per seat: `rate` a second, `burst` at once."""

    rate: float
    burst: int
    level: float = 0.0
    at: float = field(default_factory=time.monotonic)

    def take(self) -> bool:
        now = time.monotonic()
        self.level = max(0.0, self.level - (now - self.at) * self.rate)
        self.at = now
        if self.level + 1 > self.burst:
            return False
        self.level += 1
        return True


class Server:
    """What the routes share: the settings, the games, the buckets."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.matches = Matches(settings.games, settings.roots, most=settings.most_games)
        self.buckets: dict[str, Bucket] = {}
        from jinja2 import Environment, FileSystemLoader, select_autoescape

        self.pages = Environment(loader=FileSystemLoader(HERE / "templates"),
                                 autoescape=select_autoescape(["html"]))

    def limit(self, key: str) -> None:
        bucket = self.buckets.setdefault(key, Bucket(self.settings.rate, self.settings.burst))
        if not bucket.take():
            raise Refused(429, "too many requests; slow down")


def _error(exc: Refused) -> JSONResponse:
    return JSONResponse({"error": str(exc)}, status_code=exc.status)


async def _body(request: Request, most: int) -> Any:
    """The request's JSON, read no further than `most` bytes."""
    data = b""
    async for chunk in request.stream():
        data += chunk
        if len(data) > most:
            raise Refused(413, f"a request body is {most} bytes at most")
    return _json(data.decode("utf-8", "surrogateescape"))


def _json(text: str) -> Any:
    """A request's JSON; anything else, nesting too deep for the parser included, is a 400."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise Refused(400, "the body is not JSON") from None


def _texts(body: Any) -> tuple[list[str], int | None]:
    """`{"action": TEXT}` or `{"actions": [TEXT, ...]}`, and the `state` it answers, if said."""
    if not isinstance(body, dict):
        raise Refused(400, 'the body is {"action": TEXT} or {"actions": [TEXT, ...]}')
    texts = body.get("actions", [body["action"]] if "action" in body else None)
    state = body.get("state")
    if not isinstance(texts, list) or not 0 < len(texts) <= MOST_ACTIONS or not all(
            isinstance(t, str) and 0 < len(t) <= 200 for t in texts):
        raise Refused(400, 'the body is {"action": TEXT} or {"actions": [TEXT, ...]}: '
                           f"{MOST_ACTIONS} at most, each an action's text as the table "
                           "offers it")
    if state is not None and (not isinstance(state, int) or isinstance(state, bool)):
        raise Refused(400, "`state` is the table's state, a whole number")
    return texts, state


async def _settled(server: Server, fut: Any) -> Any:
    try:
        return await asyncio.wait_for(asyncio.wrap_future(fut), server.settings.answer_seconds)
    except TimeoutError:
        raise Refused(409, "the game has moved on; look again") from None


def _waiting_on(match: Match, seat: int) -> Any:
    """The decision the game asks `seat` now, or why there is none."""
    if match.state != "running":
        raise Refused(409, f"the game is {match.state}")
    waiting = match.waiting
    if seat == SPECTATOR:
        raise Refused(403, "a spectator takes no actions")
    if waiting is None or waiting[0] != seat:
        raise Refused(409, "it is not your decision")
    return waiting[1]


async def act(server: Server, match: Match, seat: int, body: Any) -> dict[str, Any]:
    texts, state = _texts(body)
    _waiting_on(match, seat)
    why = await _settled(server, match.answer(seat, texts,
                                              state if state is not None else match.asked_state))
    if why is not None:
        raise Refused(409, why)
    return {"ok": True}


async def rehearse(server: Server, match: Match, seat: int, body: Any) -> dict[str, Any]:
    """What a play asks next before it is taken (its river card, its payment), or that it is
    settled: asked of a world of the seat's view, as the terminal does (steps.rehearse)."""
    from grove.seatview.steps import rehearse as ask_next
    from grove.serve.players import Unfit, taken
    from grove.serve.wire import asked

    texts, _ = _texts(body)
    decision = _waiting_on(match, seat)
    wire = match.wire(seat)

    def run() -> dict[str, Any]:
        try:
            actions = taken(wire.seat, decision, seat, tuple(texts), None)
        except Unfit as exc:
            return {"error": str(exc)}
        nxt = ask_next(wire.seat, actions[0], actions[1:], decision)
        if nxt is None:
            return {"kind": "done"}
        return asked(wire, nxt, actions[0])

    out = await _settled(server, match.ask(run))
    if "error" in out:
        raise Refused(409, out["error"])
    return out


async def hint(server: Server, match: Match, seat: int) -> dict[str, Any]:
    decision = _waiting_on(match, seat)
    wire = match.wire(seat)
    lines = await _settled(server, match.ask(lambda: wire.view.hint(decision)))
    return {"lines": lines}


def build_app(settings: Settings) -> Starlette:
    """The app: routes, the static files and a lifespan that reads the games folder back."""
    server = Server(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        settings.games.mkdir(parents=True, exist_ok=True)
        problems = await asyncio.to_thread(server.matches.load)
        for p in problems:
            print(f"grove serve: left out {p}", flush=True)
        app.state.server = server
        try:
            yield
        finally:
            await asyncio.to_thread(server.matches.stop_all)

    async def guarded(request: Request, handler: Any) -> Response:
        try:
            return await handler()
        except Refused as exc:
            return _error(exc)

    # ---- pages ---------------------------------------------------------------------------------
    async def lobby(request: Request) -> Response:
        page = server.pages.get_template("lobby.html").render(langs=LANGS)
        return HTMLResponse(page)

    def table_page(spectate: bool):
        async def page(request: Request) -> Response:
            token = request.path_params["token"]
            try:
                match, seat = server.matches.seat(token)
            except Refused:
                return HTMLResponse("<!doctype html><title>grove</title><p>No seat has this "
                                    "link. <a href='/'>The lobby</a></p>", status_code=403)
            if spectate != (seat == SPECTATOR):
                return HTMLResponse("<!doctype html><title>grove</title><p>This link is "
                                    "not for this page.</p>", status_code=403)
            lang = match.setup.seats[seat].lang if seat >= 0 else match.setup.lang
            return HTMLResponse(server.pages.get_template("table.html").render(
                token=token, lang=lang, title=f"grove · {match.setup.edition}"))
        return page

    async def face(request: Request) -> Response:
        found = server.matches.faces.get(request.path_params["key"])
        name = request.path_params["name"]
        if found is not None and name == "words.json":
            return Response(await asyncio.to_thread(lambda: found.words),
                            media_type="application/json",
                            headers={"Cache-Control": "public, max-age=31536000, immutable"})
        if found is None or not name.endswith(".png"):
            return Response("no such face", status_code=404)
        stem = name.removesuffix(".png")
        if stem != "back" and not (stem.isdigit() and int(stem) < found.count):
            return Response("no such face", status_code=404)
        png = await asyncio.to_thread(found.png, "back" if stem == "back" else int(stem))
        return Response(png, media_type="image/png",
                        headers={"Cache-Control": "public, max-age=31536000, immutable"})

    # ---- the API -------------------------------------------------------------------------------
    async def games_create(request: Request) -> Response:
        async def run() -> Response:
            server.limit("create:" + (request.client.host if request.client else ""))
            body = await _body(request, settings.message_bytes)
            owner = request.cookies.get(OWNER) or secrets.token_urlsafe(18)
            match = await asyncio.to_thread(server.matches.create, body, owner)
            out = match.summary(True)
            resp = JSONResponse(out, status_code=201)
            resp.set_cookie(OWNER, owner, max_age=10 * 365 * 86400, httponly=True,
                            samesite="strict")
            return resp
        return await guarded(request, run)

    async def games_list(request: Request) -> Response:
        owner = request.cookies.get(OWNER)
        return JSONResponse({"games": [
            m.summary(owner is not None and secrets.compare_digest(owner, m.setup.owner))
            for m in sorted(server.matches.by_id.values(), key=lambda m: -m.setup.created)]})

    async def game_record(request: Request) -> Response:
        match = server.matches.by_id.get(request.path_params["id"])
        if match is None or not match.record.is_file():
            return _error(Refused(404, "no such game, or no record yet"))
        text = await asyncio.to_thread(match.record.read_text, encoding="utf-8")
        return Response(text, media_type="application/x-ndjson")

    def seat_route(kind: str):
        async def route(request: Request) -> Response:
            async def run() -> Response:
                token = request.path_params["token"]
                match, seat = server.matches.seat(token)
                if kind == "view":  # a table kept as JSON: free to ask as often as wished
                    view = await _view(match, seat)
                    if view is None:
                        raise Refused(503, match.error or "the game is starting; ask again")
                    return Response(view, media_type="application/json")
                server.limit(token)
                body = await _body(request, settings.message_bytes) if kind != "hint" else None
                if kind == "act":
                    return JSONResponse(await act(server, match, seat, body))
                if kind == "rehearse":
                    return JSONResponse(await rehearse(server, match, seat, body))
                return JSONResponse(await hint(server, match, seat))
            return await guarded(request, run)
        return route

    async def stats(request: Request) -> Response:
        """The server's own time per answer (from an answer taken to the next table kept, AI
        thinking included only where an AI moved in between) and the games it holds."""
        import statistics

        times = sorted(t for m in list(server.matches.by_id.values()) for t in list(m.handled))
        cpu = sorted(t for m in list(server.matches.by_id.values()) for t in list(m.handled_cpu))
        q = statistics.quantiles(times, n=20) if len(times) >= 20 else []
        return JSONResponse({
            "games": len(server.matches.by_id), "running": server.matches.running(),
            "answers": len(times),
            "p50_ms": round(statistics.median(times) * 1e3, 2) if times else None,
            "p95_ms": round(q[-1] * 1e3, 2) if q else None,
            "cpu_p50_ms": round(statistics.median(cpu) * 1e3, 2) if cpu else None})

    async def editions(request: Request) -> Response:
        from grove import api

        rows = await asyncio.to_thread(api.editions, settings.roots)
        return JSONResponse({"editions": [
            {"id": r["id"], "names": r["names"], "standalone": r["standalone"],
             "combines_with": r["combines_with"]} for r in rows if not r["broken"]]})

    # ---- the WebSocket -------------------------------------------------------------------------
    async def socket(ws: WebSocket) -> None:
        token = ws.path_params["token"]
        try:
            match, seat = server.matches.seat(token)
        except Refused:
            await ws.close(code=4403)
            return
        await ws.accept()
        with _told(match, watching=seat == SPECTATOR) as changed:
            sender = asyncio.create_task(_send_tables(ws, match, seat, changed))
            try:
                while True:
                    message = await ws.receive()
                    if message["type"] == "websocket.disconnect":
                        break
                    reply = await _on_message(server, match, seat, token, message)
                    if reply is not None:
                        await ws.send_text(dumps(reply))
            except (WebSocketDisconnect, RuntimeError):
                pass  # the browser left: its seat waits for it to come back
            finally:
                sender.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await sender

    routes = [
        Route("/", lobby),
        Route("/play/{token}", table_page(False)),
        Route("/watch/{token}", table_page(True)),
        Route("/faces/{key}/{name}", face),
        Route("/api/editions", editions),
        Route("/api/stats", stats),
        Route("/api/games", games_create, methods=["POST"]),
        Route("/api/games", games_list, methods=["GET"]),
        Route("/api/games/{id}/record", game_record),
        Route("/api/seat/{token}", seat_route("view")),
        Route("/api/seat/{token}/act", seat_route("act"), methods=["POST"]),
        Route("/api/seat/{token}/rehearse", seat_route("rehearse"), methods=["POST"]),
        Route("/api/seat/{token}/hint", seat_route("hint"), methods=["POST"]),
        WebSocketRoute("/ws/{token}", socket),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
        # the fonts grove's printouts carry: Thai reads the same on a machine that has none
        Mount("/fonts", StaticFiles(directory=FONTS), name="fonts"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


async def _send_tables(ws: WebSocket, match: Match, seat: int, changed: asyncio.Event) -> None:
    """The seat's table now, and again each time it changes (the newest only: a table a slow
    browser missed is no longer the table)."""
    sent = None
    while True:
        view = match.views.get(seat)
        if view is not None and view is not sent:
            await ws.send_text(view)
            sent = view
        elif match.error and sent is None:
            await ws.send_text(dumps({"type": "error", "message": match.error}))
            sent = match.error
        if view is None and seat == SPECTATOR:  # not worded while no one watched: asked for
            match.watch()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(changed.wait(), 1.0)
        else:
            await changed.wait()
        changed.clear()


async def _view(match: Match, seat: int, wait: float = 10.0) -> str | None:
    """The seat's table kept as JSON; None while the game starts. The spectator's, not worded
    while no one watched, is asked for and awaited a while (`Match.watch`)."""
    view = match.views.get(seat)
    if view is not None or seat != SPECTATOR:
        return view
    loop = asyncio.get_running_loop()
    with _told(match) as changed:
        end = loop.time() + wait
        while (view := match.views.get(seat)) is None and loop.time() < end:
            match.watch()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(changed.wait(), 0.5)
            changed.clear()
        return view


@contextlib.contextmanager
def _told(match: Match, watching: bool = False) -> Iterator[asyncio.Event]:
    """An event set each time the match publishes a table, while the block runs (the match
    tells from its engine's thread). `watching`: a spectator's socket, for which the
    spectator's table is worded meanwhile."""
    loop = asyncio.get_running_loop()
    changed = asyncio.Event()

    def listener() -> None:
        loop.call_soon_threadsafe(changed.set)

    match.listeners.add(listener)
    match.watchers += watching
    try:
        yield changed
    finally:
        match.listeners.discard(listener)
        match.watchers -= watching


async def _on_message(server: Server, match: Match, seat: int, token: str,
                      message: dict[str, Any]) -> dict[str, Any] | None:
    """A message from a seat's browser: `act`, `rehearse` or `hint`, as the API takes them;
    the answer to it, or an error, never an exception."""
    kind = None
    try:
        server.limit(token)
        text = message.get("text")
        if text is None:
            raise Refused(400, "send text messages (JSON)")
        if len(text.encode("utf-8", "surrogatepass")) > server.settings.message_bytes:
            raise Refused(413, f"a message is {server.settings.message_bytes} bytes at most")
        body = _json(text)
        if not isinstance(body, dict) or body.get("type") not in ("act", "rehearse", "hint"):
            raise Refused(400, 'a message is {"type": "act" | "rehearse" | "hint", ...}')
        kind = body["type"]
        if kind == "act":
            return {"type": "acted", **await act(server, match, seat, body)}
        if kind == "rehearse":
            return {"type": "rehearsed", **await rehearse(server, match, seat, body)}
        return {"type": "hint", **await hint(server, match, seat)}
    except Refused as exc:
        return {"type": "error", "for": kind, "status": exc.status, "message": str(exc)}
