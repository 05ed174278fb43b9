"""A person playing `grove play` at the terminal: the full-screen view (`app.py`, Textual) when
stdin and stdout are a terminal, the line mode (`line.py`) otherwise or with `--plain`. Both read
the game through grove/seatview/ (the table in words, the steps of a play, the `screen` message
catalogs), which the browser table (grove/serve/) reads too, so every screen shows the same
things in the same words."""
