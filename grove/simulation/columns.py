"""The columns of a run's two Parquet files, by name and type, in one place for the worker that
fills them, the sink that writes them and the readers that add them up.

`games.parquet`: a row per game and seat. `cards.parquet`: a row per game, seat and species that
seat drew or played: `copies` in its forest at the end (its drafted cave card included; 0 for a
species it drew and never played) and `drawn`, the cards bearing the species that came into its
hand or its forest; and `paid`, the cards its player paid to play its copies (the payments of the
plays of the species, as the game's `pay` events record them; a free play pays 0). Seats are
numbered from 1, as players are.
"""

from __future__ import annotations

GAME_FIXED = ("game", "seed", "seat", "ai", "total")
GAME_TAIL = ("winner", "turns")
CARD_COLUMNS = ("game", "seat", "ai", "species", "copies", "points", "winner", "drawn", "paid")
# what a run written before `drawn` or `paid` lacks: read without it, its figures of what was
# drawn or paid are null
CARD_OPTIONAL = ("drawn", "paid")

# Arrow's names of the types of everything but the scorepad rows (each an int32); names, not
# types, so that a worker, which only fills lists, never imports pyarrow
TYPES = {
    "game": "int64", "seed": "int64", "seat": "int16", "ai": "string", "total": "int32",
    "winner": "bool", "turns": "int32", "species": "string", "copies": "int32", "points": "int32",
    "drawn": "int32", "paid": "int32",
}
ROW_TYPE = "int32"

# the run's plan, kept in each file's key-value metadata under this key (JSON)
META_KEY = b"grove.simulate"


def row_columns(scorepad: tuple[str, ...]) -> dict[str, str]:
    """Scorepad row id -> its column: the row's id, or `row_<id>` where an edition names a row
    like one of the fixed columns (a row called `total` would otherwise hide the total)."""
    fixed = set(GAME_FIXED) | set(GAME_TAIL)
    return {r: f"row_{r}" if r in fixed else r for r in scorepad}


def game_columns(scorepad: tuple[str, ...]) -> tuple[str, ...]:
    return (*GAME_FIXED, *row_columns(scorepad).values(), *GAME_TAIL)

