"""Slot diagrams of hosts as geometry: a host card, the card tucked beneath it, its slots.

Pure layout in points with the origin at the top left (y grows downwards); `draw.py` paints it
on a reportlab canvas (PDF) or as SVG (HTML). Sizes are fixed, so `lint.py` can tell whether a
label fits its box before anything is drawn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from grove.printouts.sheets.content import Host, Slot

CARD = (36.0, 56.0)  # a host card standing (it has left/right slots)
CARD_WIDE = (56.0, 40.0)  # a host card played sideways (slots only above and below)
HALF = (40.0, 20.0)  # a top or bottom slot
# ... at most this wide where its label needs it: the overviews' "without water requirement"
# (issue 44) takes fewer lines, so a diagram grows less (two side by side are no wider than
# a tree with its left and right slots)
HALF_WIDEST = 58.0
# a left or right slot: wide enough for "requirement" on a line; the card between two of them
# is narrower, so two trees still stand side by side in a column
SIDE = (40.0, 40.0)
GAP = 3.0
LABEL_SIZE = 6.5  # points
LABEL_PAD = 2.0  # each side of a label inside its box
ICON_SIZE = 12.0  # a host's type icon, at the top of its card
ICON_TOP = 4.0
THAI = re.compile(r"[\u0e00-\u0e7f]")
UNDER_HEIGHT = 28.0  # the card beneath a tree: its icon and a label line
HATCH_STEP = 5.0  # between the strokes across a face-down card


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float
    role: str  # "host", "under" (the face-down card beneath), "slot"
    water: bool = False
    face_down: bool = False
    either: bool = False  # a slot that takes cards with or without the water requirement
    slot: str | None = None  # the id of the slot a slot box stands for
    lines: tuple[str, ...] = ()  # centred text lines
    icon: str | None = None  # a symbol icon drawn at the top of the box (ICON_SIZE)

    def label_middle(self) -> float:
        """Where the label lines are centred, from the box's top: below the icon of a card
        that shows one (a tree's river, the universal river), else the middle."""
        if self.icon and self.lines:
            return (ICON_TOP + ICON_SIZE + self.h) / 2
        return self.h / 2

    @property
    def leading(self) -> float:
        return leading(self.lines)

    @property
    def text_width(self) -> float:
        """Room for a label line."""
        return self.w - 2 * LABEL_PAD


def leading(lines: tuple[str, ...]) -> float:
    """The distance between two label lines: Thai writes vowels and tone marks above and
    below its letters, and at the Latin leading the marks of two lines met ("ล่าง" over
    "น้ำ")."""
    if any(THAI.search(line) for line in lines):
        return LABEL_SIZE * 1.6
    return LABEL_SIZE + 1.2


@dataclass(frozen=True)
class Diagram:
    host: str
    width: float
    height: float
    boxes: tuple[Box, ...]


@dataclass(frozen=True)
class Labels:
    """The words a diagram prints, in the sheet's language (from the templates' catalog)."""

    sides: dict  # side id -> short name
    water: str  # a water card, in the species table's slot column
    with_water: str  # a slot that takes only cards with the water requirement
    dry: str  # ... only cards without it
    either: str  # ... cards with or without it
    face_down: str
    capacity: str  # "×%(n)s"-style, already formatted per capacity via `times`

    def times(self, n: int) -> str:
        return self.capacity.replace("{n}", str(n))


def _row(n: int, w: float) -> float:
    return n * w + max(0, n - 1) * GAP


def _label_height(lines: tuple[str, ...]) -> float:
    """The height label lines take with room above and below for Thai marks."""
    thai = any(THAI.search(line) for line in lines)
    return (len(lines) - 1) * leading(lines) + LABEL_SIZE * (2.2 if thai else 1.8)


def line_width(text: str) -> float:
    """A label line's width in points, in the font the painters use."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from grove.printouts.sheets.fonts import register

    return stringWidth(text, register().regular, LABEL_SIZE)


def wrap(text: str, width: float) -> tuple[str, ...]:
    """A label's lines in `width` points, broken at spaces only (greedy): the overviews'
    "without water requirement" is several words a slot box holds on several lines."""
    out: list[str] = []
    for word in text.split():
        if out and line_width(f"{out[-1]} {word}") <= width:
            out[-1] = f"{out[-1]} {word}"
        else:
            out.append(word)
    return tuple(out)


def _half_width(slots: list[Slot], labels: Labels) -> float:
    """The width of a host's top and bottom slots: as narrow as their label lines allow when
    wrapped in the widest box, and never narrower than a plain one."""
    need = max((line_width(line) + 2 * LABEL_PAD for s in slots
                for line in _slot_lines(s, labels, HALF_WIDEST)), default=0.0)
    return min(HALF_WIDEST, max(HALF[0], need))


def _slot_lines(slot, labels: Labels, width: float) -> tuple[str, ...]:
    """A slot's side, and which cards it takes, in the overviews' words."""
    lines = [labels.sides.get(slot.side, slot.side)]
    if slot.capacity > 1:
        lines[0] = f"{lines[0]} {labels.times(slot.capacity)}"
    takes = (labels.with_water if slot.water else labels.dry if slot.dry
             else labels.either if slot.either else "")
    return (*lines, *wrap(takes, width - 2 * LABEL_PAD))


def hatch(box: Box) -> tuple[tuple[float, float, float, float], ...]:
    """The strokes across a face-down card, rising to the right at 45°: (x1, y1, x2, y2) in the
    diagram's coordinates, each running past the box; both painters clip them to its outline,
    so the PDF and the HTML page draw the same lines."""
    out, x = [], -box.h
    while x < box.w:
        out.append((box.x + x, box.y + box.h, box.x + x + box.h, box.y))
        x += HATCH_STEP
    return tuple(out)


def water_corner(box: Box) -> tuple[tuple[float, float], ...]:
    """The half of an "either" slot painted as water: the triangle below its rising diagonal
    (clipped to the box's outline by the painters)."""
    return ((box.x + box.w, box.y), (box.x + box.w, box.y + box.h), (box.x, box.y + box.h))


def layout(host: Host, labels: Labels) -> Diagram:
    by_side = {s: [x for x in host.slots if x.side == s] for s in ("top", "bottom", "left", "right")}
    standing = bool(by_side["left"] or by_side["right"])
    cw, ch = CARD if standing else CARD_WIDE
    under = host.play == "with_tree"
    left_w = SIDE[0] + GAP if by_side["left"] else 0.0
    right_w = SIDE[0] + GAP if by_side["right"] else 0.0
    hw = _half_width(by_side["top"] + by_side["bottom"], labels)
    top_w, bottom_w = _row(len(by_side["top"]), hw), _row(len(by_side["bottom"]), hw)
    width = max(left_w + cw + right_w, top_w, bottom_w, CARD_WIDE[0] if under else 0.0)
    cx = left_w + cw / 2 + (width - (left_w + cw + right_w)) / 2  # the host card's centre

    def half_row(slots: list[Slot], row_w: float, y: float) -> float:
        """A row of half-card slots above or below the host, centred; the y after it. A slot
        is as tall as its label lines need (two Thai lines take more than 20 pt)."""
        h = max([HALF[1], *(_label_height(_slot_lines(s, labels, hw)) for s in slots)])
        for i, s in enumerate(slots):
            boxes.append(Box(cx - row_w / 2 + i * (hw + GAP), y, hw, h, "slot",
                             s.water, either=s.either, slot=s.id,
                             lines=_slot_lines(s, labels, hw)))
        return y + h + GAP if slots else y

    boxes: list[Box] = []
    y = half_row(by_side["top"], top_w, 0.0)
    card_y = y
    boxes.append(Box(cx - cw / 2, card_y, cw, ch, "host", face_down=host.face_down,
                     lines=(labels.face_down,) if host.face_down else (), icon=host.icon))
    for side, x in (("left", cx - cw / 2 - GAP - SIDE[0]), ("right", cx + cw / 2 + GAP)):
        slots = by_side[side]
        # as tall as its label lines need, as a top slot is (with the card's height at most)
        sh = max([SIDE[1], *(min(ch, _label_height(_slot_lines(s, labels, SIDE[0])))
                             for s in slots)])
        total = _row(len(slots), sh)
        for i, s in enumerate(slots):
            sy = card_y + (ch - total) / 2 + i * (sh + GAP)
            boxes.append(Box(x, sy, SIDE[0], sh, "slot", s.water, either=s.either, slot=s.id,
                             lines=_slot_lines(s, labels, SIDE[0])))
    y = card_y + ch + GAP
    if under:  # the face-down card beneath a tree: shown sideways under it, as the river
        # (or whatever it counts as) it is, with that symbol's icon above its label
        uw, uh = CARD_WIDE[0], UNDER_HEIGHT
        boxes.append(Box(cx - uw / 2, y, uw, uh, "under", water=True,
                         lines=(labels.face_down,), icon=host.under_icon))
        y += uh + GAP
    y = half_row(by_side["bottom"], bottom_w, y)
    return Diagram(host.id, width, y - GAP, tuple(boxes))
