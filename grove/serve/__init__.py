"""`grove serve`: the table in a browser, for people playing together and against the AIs.

The server holds each game (`matches.py`, a thread per game running the same `runner.play` as
`grove play`); each browser gets its seat's view and nothing more (`wire.py`, the only
serialiser) and sends back what its person picks (`players.py` checks it against the decision).
`app.py` puts the routes together (pages, the HTTP API of docs/serve.md, a WebSocket per seat);
`faces.py` serves the card faces `grove print` draws; `static/` and `templates/` are the pages,
plain modules with no build step. The words and the steps of a play are grove/seatview/'s,
which the terminal lays out too."""
