"""A person at the table stops a game: what the screens (grove/terminal/) raise and the runner
records. The screens themselves are the terminal room's; the engine knows no prompt."""

from __future__ import annotations


class Quit(Exception):
    """A player stops the game: `runner.play` ends its record with a stop line, from which
    `grove play --resume` goes on. Raised from a player's `choose` (or from the `on_action`
    hook, for a stop asked for while another player is choosing)."""
