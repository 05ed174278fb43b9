"""Tabletop Simulator: deck sheets and the saved object that deals them.

Tabletop Simulator cuts a custom deck's face image into a grid of at most 10 x 7 cards and
reads images up to 4096 pixels a side. Each sheet here holds up to 70 cards in that grid, every
cell the same whole number of pixels; the saved object is a `DeckCustom` whose `CustomDeck`
names each sheet with its grid, and which holds one `Card` per physical card, its `CardID` the
sheet's number times 100 plus the card's place on it. Images are named by relative path: the
docs (docs/print.md) say where to host them and how to point the object at them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from io import BytesIO

from PIL import Image

MAX_COLS, MAX_ROWS, MAX_PX = 10, 7, 4096
BACK = "back.png"


@dataclass(frozen=True)
class Grid:
    cols: int
    rows: int
    card_px: tuple[int, int]

    @property
    def size(self) -> tuple[int, int]:
        return self.cols * self.card_px[0], self.rows * self.card_px[1]


def card_px(w: float, h: float) -> tuple[int, int]:
    """The largest whole-pixel card of the card's shape that a 10 x 7 sheet of 4096 pixels
    holds."""
    pw = min(MAX_PX // MAX_COLS, math.floor((MAX_PX // MAX_ROWS) * w / h))
    ph = min(MAX_PX // MAX_ROWS, round(pw * h / w))
    return pw, ph


def grids(count: int, px: tuple[int, int]) -> list[Grid]:
    """A grid per sheet for `count` cards: full 10 x 7 sheets, the last one as small as holds
    its cards."""
    out, left = [], count
    while left > 0:
        n = min(left, MAX_COLS * MAX_ROWS)
        cols = min(MAX_COLS, n)
        out.append(Grid(cols, math.ceil(n / cols), px))
        left -= n
    return out


def sheet_name(i: int) -> str:
    return f"deck-{i + 1}.png"


def paste(cards: list[bytes], grid: Grid, marks: Sequence[Image.Image] = (), top: int = 0
          ) -> Image.Image:
    """One sheet of card images (PNG bytes, each `grid.card_px`), row by row; each card's
    mark (its stamp, RGBA), where given, laid over its left edge from pixel row `top`."""
    out = Image.new("RGB", grid.size, "white")
    for i, data in enumerate(cards):
        row, col = divmod(i, grid.cols)
        x, y = col * grid.card_px[0], row * grid.card_px[1]
        with Image.open(BytesIO(data)) as img:
            out.paste(img, (x, y))
        if i < len(marks):  # kept inside its cell: a face's image may round a row taller
            mark = marks[i].crop((0, 0, marks[i].width, max(1, grid.card_px[1] - top)))
            out.paste(mark, (x, y + top), mark)
    return out


@dataclass(frozen=True)
class Pile:
    """One deck of the saved object: its name, its cards' names in order, its sheets and the
    number of its first sheet among all (`sheet_name`)."""

    name: str
    nicknames: tuple[str, ...]
    sheets: tuple[Grid, ...]
    first: int


def _transform(x: float, scale: tuple[float, float]) -> dict:
    # a card's scale is relative to Tabletop Simulator's own card, a poker card (provisional:
    # read from its standard deck's proportions; the image's own shape does not resize it)
    return {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": round(scale[0], 4), "scaleY": 1.0, "scaleZ": round(scale[1], 4)}


def url(base: str, name: str) -> str:
    """An image's address: `base` joined to its name, or the bare name (relative) without."""
    return f"{base.rstrip('/')}/{name}" if base else name


def _pile(p: Pile, x: float, base: str, scale: tuple[float, float]) -> dict:
    """A `DeckCustom` of the pile's cards, or the card itself where the pile has one (a deck
    of Tabletop Simulator holds at least two)."""
    custom = {str(p.first + i + 1): {"FaceURL": url(base, sheet_name(p.first + i)),
                                     "BackURL": url(base, BACK), "NumWidth": g.cols,
                                     "NumHeight": g.rows, "BackIsHidden": True,
                                     "UniqueBack": False, "Type": 0}
              for i, g in enumerate(p.sheets)}
    cards, ids, place = [], [], 0
    for i, g in enumerate(p.sheets):
        key = str(p.first + i + 1)
        for k in range(min(g.cols * g.rows, len(p.nicknames) - place)):
            card_id = int(key) * 100 + k
            ids.append(card_id)
            cards.append({"Name": "Card", "Nickname": p.nicknames[place], "CardID": card_id,
                          "CustomDeck": {key: custom[key]}, "Transform": _transform(x, scale)})
            place += 1
    if len(cards) == 1:
        return cards[0]
    return {"Name": "DeckCustom", "Nickname": p.name, "Transform": _transform(x, scale),
            "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": cards}


def saved_object(piles: list[Pile], base: str = "", scale: tuple[float, float] = (1.0, 1.0)
                 ) -> str:
    """The saved object (JSON): each pile a deck of its own, side by side, its images named
    relative to the object's folder or, with `base`, by absolute address."""
    objects = [_pile(p, i * 3.0 * scale[0], base, scale) for i, p in enumerate(piles)]
    return json.dumps({"SaveName": "", "GameMode": "", "Date": "", "Table": "", "Sky": "",
                       "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "",
                       "ObjectStates": objects, "TabStates": {}, "VersionNumber": ""},
                      ensure_ascii=False, indent=2) + "\n"
