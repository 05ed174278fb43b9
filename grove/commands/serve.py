"""`grove serve`: the browser table (grove/serve/), on uvicorn in this process. Click options
and the server's start, nothing more."""

from __future__ import annotations

import click

from grove.commands.common import card_sets, guarded, usage_error


@click.command(short_help="Serve the table in a browser: play with friends and against the AIs.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="the address to listen on: this machine only, unless you name another "
              "(0.0.0.0: every address, for players on your network)")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="the port (0: any free one)")
@click.option("--games", "games_dir", type=click.Path(file_okay=False), default="grove-games",
              show_default=True, metavar="DIR",
              help="where each game's record and links are kept; a server started again on "
              "the same folder goes on with every unfinished game")
@click.option("--max-games", type=click.IntRange(1, 1000), default=50, show_default=True,
              help="games running at once")
@click.option("--max-message", type=click.IntRange(1024, 1 << 20), default=16_384,
              show_default=True, metavar="BYTES",
              help="a request body or WebSocket message, at most; a larger one is refused")
@click.option("--rate", type=click.FloatRange(0.1, 1e6), default=20.0, show_default=True,
              help="requests a second one seat may send, on average (three seconds' worth at "
              "once); more are refused until it slows down")
@guarded
@card_sets
def serve(host: str, port: int, games_dir: str, max_games: int, max_message: int, rate: float,
          roots) -> None:
    """Serve the table in a browser: a lobby to make a game (edition, seats, each a person or
    an AI), a private link for each person's seat and one for spectators. docs/serve.md."""
    import socket
    from pathlib import Path

    import uvicorn

    from grove.serve.app import Settings, build_app

    folder = Path(games_dir)
    if folder.exists() and not folder.is_dir():
        usage_error(f"--games {games_dir}: is not a folder")
    settings = Settings(folder.resolve(), roots, most_games=max_games, message_bytes=max_message,
                        rate=rate, burst=max(1, int(rate * 3)))
    try:  # the port taken is said here, not as uvicorn's traceback
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host, port))
            port = probe.getsockname()[1]
    except OSError as exc:
        usage_error(f"cannot listen on {host}:{port}: {exc.strerror or exc}", code="IO-WRITE")
    where = "this machine only" if host in ("127.0.0.1", "localhost", "::1") else (
        "every address of this machine: anyone on your network can open it")
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    click.echo(f"grove serve: open http://{shown}:{port}/ ({where}); games kept in "
               f"{folder}; Ctrl-C stops", err=True)
    config = uvicorn.Config(build_app(settings), host=host, port=port, log_level="warning",
                            ws_max_size=settings.message_bytes, lifespan="on", ws="wsproto")
    uvicorn.Server(config).run()
