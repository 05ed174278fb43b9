"""Where cards and crop marks go on a page: numbers only, in points, from the paper, the card
size and the bleed, so tests can hold the marks against the card grid.

Cards sit in a grid centred on the page, cell against cell; a cell is the card's trim box
grown by the bleed on every side. Crop marks run outwards from the grid's edge, in line with
every trim edge, so they stay visible after the bleed is cut away. A page of backs mirrors the
columns: printed on the other side of the sheet (flipped on its long edge), each back falls
behind its front.
"""

from __future__ import annotations

from dataclasses import dataclass

MM = 72 / 25.4
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # mm
POKER = (63.0, 88.0)  # mm
MIN_SIDE, MAX_SIDE = 20, 300  # mm: the sides `--size` may give
MARK_GAP = 1.0 * MM  # between the grid's edge and a mark
MARK_LENGTH = 5.0 * MM
MIN_MARK = 1.5 * MM  # shorter than this, a mark is left out
# what most printers leave unprinted at a page's edge (lasers 4.2 mm, a sixth of an inch;
# inkjets 3 to 4 mm): a mark reaching further out would be lost, so none does (Letter's
# poker grid leaves 7.7 mm above and below, so its marks there are short)
PRINTER_MARGIN = 4.2 * MM


class LayoutError(ValueError):
    """The card does not fit the paper."""


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True)
class Sheet:
    """One page's grid: `cols` x `rows` cells of the card's trim size grown by `bleed`."""

    page_w: float
    page_h: float
    card_w: float
    card_h: float
    bleed: float
    cols: int
    rows: int

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def cell_w(self) -> float:
        return self.card_w + 2 * self.bleed

    @property
    def cell_h(self) -> float:
        return self.card_h + 2 * self.bleed

    @property
    def grid(self) -> Box:
        w, h = self.cols * self.cell_w, self.rows * self.cell_h
        return Box((self.page_w - w) / 2, (self.page_h - h) / 2, w, h)

    def cell(self, i: int, back: bool = False) -> Box:
        """The bleed box of place `i` on a page (row by row from the top left); on a page of
        backs, the place behind it."""
        row, col = divmod(i, self.cols)
        if back:
            col = self.cols - 1 - col
        g = self.grid
        return Box(g.x + col * self.cell_w, g.y + g.h - (row + 1) * self.cell_h,
                   self.cell_w, self.cell_h)

    def trim(self, i: int, back: bool = False) -> Box:
        c = self.cell(i, back)
        return Box(c.x + self.bleed, c.y + self.bleed, self.card_w, self.card_h)

    def trim_xs(self) -> list[float]:
        g = self.grid
        return sorted({round(g.x + c * self.cell_w + self.bleed + d, 6)
                       for c in range(self.cols) for d in (0.0, self.card_w)})

    def trim_ys(self) -> list[float]:
        g = self.grid
        return sorted({round(g.y + r * self.cell_h + self.bleed + d, 6)
                       for r in range(self.rows) for d in (0.0, self.card_h)})

    def used(self, count: int | None = None) -> Box:
        """The part of the grid `count` cards fill (rows from the top, a whole row wide where
        a row is full): a page's last cards leave the rows below them unmarked."""
        g = self.grid
        n = self.per_page if count is None else max(0, min(count, self.per_page))
        cols, rows = min(n, self.cols), -(-n // self.cols)
        return Box(g.x, g.y + g.h - rows * self.cell_h, cols * self.cell_w, rows * self.cell_h)

    def marks(self, count: int | None = None) -> list[tuple[float, float, float, float]]:
        """Crop marks as lines (x1, y1, x2, y2) around the cards of a page (`count` of them,
        all by default): above and below them at every trim x, left and right at every trim
        y, as long as the margin inside a printer's unprinted edge allows."""
        g = self.used(count)
        if g.w <= 0:
            return []
        xs = [x for x in self.trim_xs() if x <= g.x + g.w + 1e-6]
        ys = [y for y in self.trim_ys() if y >= g.y - 1e-6]
        out = []
        below = min(MARK_LENGTH, g.y - MARK_GAP - PRINTER_MARGIN)
        above = min(MARK_LENGTH, self.page_h - (g.y + g.h + MARK_GAP) - PRINTER_MARGIN)
        for x in xs:
            if below >= MIN_MARK:
                out.append((x, g.y - MARK_GAP - below, x, g.y - MARK_GAP))
            if above >= MIN_MARK:
                out.append((x, g.y + g.h + MARK_GAP, x, g.y + g.h + MARK_GAP + above))
        left = min(MARK_LENGTH, g.x - MARK_GAP - PRINTER_MARGIN)
        right = min(MARK_LENGTH, self.page_w - (g.x + g.w + MARK_GAP) - PRINTER_MARGIN)
        for y in ys:
            if left >= MIN_MARK:
                out.append((g.x - MARK_GAP - left, y, g.x - MARK_GAP, y))
            if right >= MIN_MARK:
                out.append((g.x + g.w + MARK_GAP, y, g.x + g.w + MARK_GAP + right, y))
        return out


def parse_size(text: str) -> tuple[float, float]:
    """"63x88" -> (63.0, 88.0) in mm; ValueError when it is no size a card can have."""
    parts = text.lower().replace("mm", "").split("x")
    if len(parts) != 2:
        raise ValueError(f"card size {text!r}: write it as WIDTHxHEIGHT in mm, as 63x88")
    w, h = (float(p) for p in parts)
    if not (MIN_SIDE <= w <= MAX_SIDE and MIN_SIDE <= h <= MAX_SIDE):
        raise ValueError(f"card size {text!r}: each side must be {MIN_SIDE} to {MAX_SIDE} mm")
    return w, h


def _fit(length: float, cell: float) -> int:
    """Cells along one side of the page: as many as leave room for crop marks on both sides
    (a card fewer where the bleed would eat the margin), or as fit at all if not even one
    does."""
    room = 2 * (MARK_GAP + MIN_MARK)
    n = int((length - room + 1e-6) // cell)
    return n if n >= 1 else int((length + 1e-6) // cell)


def sheet(paper: str, size_mm: tuple[float, float] = POKER, bleed_mm: float = 0.0) -> Sheet:
    """The grid of as many cards as fit with their crop marks (a poker card: nine; with a
    bleed of 3 mm six on A4, and from 2 mm six on Letter; a 44 x 68 mm card sixteen on A4);
    `LayoutError` when not one card fits."""
    if not 0 <= bleed_mm <= 10:
        raise LayoutError(f"bleed {bleed_mm:g} mm: give 0 to 10 mm")
    pw, ph = (v * MM for v in PAPERS[paper])
    w, h, b = size_mm[0] * MM, size_mm[1] * MM, bleed_mm * MM
    cols, rows = _fit(pw, w + 2 * b), _fit(ph, h + 2 * b)
    if cols < 1 or rows < 1:
        raise LayoutError(f"a {size_mm[0]:g}x{size_mm[1]:g} mm card with {bleed_mm:g} mm bleed "
                          f"does not fit on {paper} paper")
    return Sheet(pw, ph, w, h, b, cols, rows)
