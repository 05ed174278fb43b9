"""A person playing `grove play` at the terminal: the full-screen view (`app.py`, Textual) when
stdin and stdout are a terminal, the line mode (`line.py`) otherwise or with `--plain`. Both read
the game through `view.py` and word it through `words.py` (the `screen` message catalogs), so the
two show the same things in the same words."""
