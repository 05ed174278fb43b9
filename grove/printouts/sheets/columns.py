"""The species table's column widths, as shares of the page's width, chosen per sheet.

Fixed shares suit one language and not another: the German bonus "Mache einen weiteren Zug" is
a little wider than the bonus column that holds the English one on a line, so every such row
took two lines and German base with both expansions ran to a fifth page holding two rows; the
Italian "sinistra / destra" broke inside the slot column of every row. So:

- the name column is wide enough for the widest unbreakable part of a name (`name_share`);
- the slot column is wide enough for the widest line a slot cell prints (side names joined,
  the water label, a host's name), so no slot cell breaks a line;
- of the rest, the split between effect, bonus and points that makes the table shortest, from a
  few candidates, by counting the lines each cell would take (a greedy word wrap on the font's
  widths, words as reportlab and the Thai segmenter break them). The estimate only ranks the
  candidates; reportlab lays out the one chosen. Type sizes are never touched.

A4 is the narrower paper, so it decides, as it does for `lint.py`.
"""

from __future__ import annotations

import re
from functools import lru_cache

from reportlab.pdfbase.pdfmetrics import stringWidth

from grove.printouts.sheets import layout, thai
from grove.printouts.sheets.content import Sheet, SpeciesRow
from grove.printouts.sheets.diagrams import Labels

FIXED = (0.06, 0.04)  # cost and copies: a number each (the head "Kosten" in 8 pt bold)
SLOT_SHARE = (0.07, 0.12)  # the slot column: at least, at most (a longer host name may wrap)
BONUS = (0.16, 0.17, 0.18)  # candidate shares of the bonus column
SCORE = (0.235, 0.245, 0.255)  # and of the points column; the effect column gets the rest


@lru_cache(maxsize=1 << 16)
def text_width(text: str, font: str, size: float) -> float:
    return stringWidth(text, font, size)


def break_words(text: str, sheet: Sheet) -> list[str]:
    """Where a line may break: at spaces, after a hyphen, between Thai words."""
    out: list[str] = []
    for chunk in text.split():
        if thai.has_thai(chunk):
            out += thai.segments(chunk, sheet.words)
        else:
            out += [p for p in re.split(r"(?<=-)", chunk) if p]
    return out


def lines(words: list[str], width: float, font: str, size: float) -> int:
    """Lines a greedy wrap needs for `words` in `width` points (a word wider than a line takes
    a line of its own)."""
    space = text_width(" ", font, size)
    n, used = 1, 0.0
    for w in words:
        ww = text_width(w, font, size)
        if used and used + space + ww > width:
            n, used = n + 1, ww
        else:
            used = used + space + ww if used else ww
    return n


def slot_lines(row: SpeciesRow, labels: Labels, cave: str) -> tuple[str, ...]:
    """The lines the slot cell of a row prints (as species.j2 writes it)."""
    if row.kind == "dweller":  # the water requirement's words may wrap („Bedingung / Wasser")
        return (" / ".join(labels.sides.get(s, s) for s in row.sides),
                *(labels.water.split() if row.water else ()))
    if row.kind == "cave":
        return (cave,)
    return (row.host or row.kind,)


def slot_share(sheet: Sheet, labels: Labels, cave: str) -> float:
    font, size = layout.register().regular, layout.styles().cell.fontSize
    frame = layout.page("a4").frame_width
    need = max((text_width(line, font, size) for r in sheet.all_species
                for line in slot_lines(r, labels, cave)), default=0.0)
    low, high = SLOT_SHARE
    return round(min(high, max(low, (need + 2 * layout.CELL_PAD + 0.5) / frame)), 3)


def cost_share(head: str) -> float:
    """The cost column: its share, or as wide as its head in the table's bold where that is
    wider (Thai ค่าใช้จ่าย, the overview's word, is one word)."""
    bold, size = layout.register().bold, layout.styles().cell.fontSize
    need = text_width(head, bold, size) + 2 * layout.CELL_PAD + 0.5
    return round(max(FIXED[0], need / layout.page("a4").frame_width), 3)


def _texts(row: SpeciesRow) -> tuple[list[str], str, str]:
    effect = [(f"{f.label}: " if f.id != "effect" else "") + f.text for f in row.effect]
    return effect, row.bonus, row.score


def species_widths(sheet: Sheet, name: float, slot: float, cost: float = FIXED[0]
                   ) -> tuple[float, ...]:
    """Name, cost, copies, slot, effect, bonus, points: shares of the page width summing to 1."""
    font, size = layout.register().regular, layout.styles().cell.fontSize
    frame = layout.page("a4").frame_width
    rest = 1.0 - name - cost - FIXED[1] - slot
    cells = []
    for row in sheet.all_species:
        effect, bonus, score = _texts(row)
        cells.append(([break_words(e, sheet) for e in effect], break_words(bonus, sheet),
                      break_words(score, sheet)))
    memo: dict[tuple[int, int, float], int] = {}

    def count(i: int, col: int, share: float) -> int:
        key = (i, col, share)
        if key not in memo:
            room = frame * share - 2 * layout.CELL_PAD
            part = cells[i][col]
            memo[key] = (sum(lines(p, room, font, size) for p in part) if col == 0
                         else lines(part, room, font, size) if part else 0)
        return memo[key]

    best: tuple[int, int, tuple[float, ...]] | None = None
    for k, (b, s) in enumerate((b, s) for b in BONUS for s in SCORE):
        e = round(rest - b - s, 3)
        height = sum(max(count(i, 0, e), count(i, 1, b), count(i, 2, s), 1)
                     for i in range(len(cells)))
        # the shortest table; between equals, the candidate nearest the first (the defaults)
        if best is None or (height, k) < best[:2]:
            best = (height, k, (name, cost, FIXED[1], slot, e, b, s))
    assert best is not None
    return best[2]
