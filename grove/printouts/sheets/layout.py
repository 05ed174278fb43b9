"""Page geometry and paragraph styles of the PDF sheet: one place for every size.

The rules pages run in two columns; the species table gets the full width. `lint.py` reads the
same numbers to tell whether a text fits its box.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle

from grove.printouts.sheets.fonts import register

PAPERS = {"a4": A4, "letter": LETTER}
MARGIN = 30.0
GUTTER = 14.0
CELL_PAD = 2.5  # left and right padding inside a table cell
ICON_SCALE = 1.2  # an inline icon's size, in font sizes
ICON_ROOM = 1.2  # the width it takes on its line, in icon sizes
# the species table's last page holds at least this share of a page (a third, and a little for
# the room under its last line), or every page of the table is made shorter, by the least that
# moves enough rows there (pdf._build): by at most BALANCE_MOST of a page, in steps of
# BALANCE_ROOM points where the rows a page break moves fall short
LEAST_LAST_PAGE = 0.36
BALANCE_MOST = 0.25
BALANCE_ROOM = 12.0
# a group of the species table (Trees, Top halves, ...) keeps at least this many rows on each
# side of a page break, and one of this many rows or fewer is not parted (pdf.group_break)
GROUP_ROWS_AT_BREAK = 2
GROUP_KEPT_WHOLE = 5
INK = colors.HexColor("#1f2a1f")
ACCENT = colors.HexColor("#2e5d34")
RULE = colors.HexColor("#9fb59a")
BAND = colors.HexColor("#e7efe3")


@dataclass(frozen=True)
class Page:
    paper: str
    width: float
    height: float

    @property
    def frame_width(self) -> float:
        return self.width - 2 * MARGIN

    @property
    def frame_height(self) -> float:
        return self.height - 2 * MARGIN - 12  # room for the footer line

    @property
    def column_width(self) -> float:
        return (self.frame_width - GUTTER) / 2


def page(paper: str) -> Page:
    w, h = PAPERS[paper]
    return Page(paper, w, h)


@dataclass(frozen=True)
class Styles:
    title: ParagraphStyle
    subtitle: ParagraphStyle
    h2: ParagraphStyle
    h3: ParagraphStyle
    body: ParagraphStyle
    bullet: ParagraphStyle
    caption: ParagraphStyle
    cell: ParagraphStyle
    cell_num: ParagraphStyle
    head: ParagraphStyle
    head_num: ParagraphStyle
    group: ParagraphStyle
    footer: ParagraphStyle


# the rules set closer, where at full spacing they run a few lines onto a page of their own
# (issue 44: Smoky Mountains de on US Letter, again once the rules' winter heading, start player
# and permanent effects were added); the type keeps its size, only the air goes
TIGHT_LEADING = 10.2
TIGHT_SPACE = 0.5  # of the space before and after blocks


@cache
def styles(tight: bool = False) -> Styles:
    """Every style shapes its text (Thai needs it; Latin text is unchanged by it). `tight`:
    the rules' lines and blocks closer together (pdf._build chooses it where they spill)."""
    f = register()
    air = TIGHT_SPACE if tight else 1.0
    base = ParagraphStyle("sheet-body", fontName=f.regular, fontSize=8.6,
                          leading=TIGHT_LEADING if tight else 11.2,
                          textColor=INK, shaping=1, alignment=TA_LEFT, spaceAfter=3 * air,
                          splitLongWords=0, embeddedHyphenation=1, hyphenationMinWordLength=4)

    def s(name: str, parent: ParagraphStyle = base, **kw) -> ParagraphStyle:
        return ParagraphStyle(f"sheet-{name}", parent=parent, **kw)

    cell = s("cell", fontSize=8, leading=10, spaceAfter=0)  # 8 pt: the least a table is read at
    head = s("head", parent=cell, fontName=f.bold, textColor=colors.white)
    return Styles(
        title=s("title", fontName=f.bold, fontSize=19, leading=23, textColor=ACCENT, spaceAfter=1),
        subtitle=s("subtitle", fontSize=10, leading=13, spaceAfter=6),
        h2=s("h2", fontName=f.bold, fontSize=11.5, leading=14, textColor=ACCENT,
             spaceBefore=7 * air, spaceAfter=3 * air, keepWithNext=1),
        h3=s("h3", fontName=f.bold, fontSize=9, leading=11.5, spaceBefore=3 * air,
             spaceAfter=1 * air, keepWithNext=1),
        body=base,
        bullet=s("bullet", spaceAfter=1.5 * air),
        caption=s("caption", fontSize=7.4, leading=9, alignment=TA_CENTER, spaceAfter=0),
        cell=cell,
        cell_num=s("cell-num", parent=cell, alignment=TA_CENTER),
        head=head,
        head_num=s("head-num", parent=head, alignment=TA_CENTER),
        group=s("group", parent=cell, fontName=f.bold, fontSize=8.6, textColor=ACCENT),
        footer=s("footer", fontSize=6.5, leading=8, textColor=colors.HexColor("#6b786a")),
    )


def needs_shaping(text: str) -> bool:
    """Text with a complex script (Thai) or combining marks; plain Latin, German and Italian
    text looks the same unshaped (only kerning differs) and lays out several times faster."""
    return any(ord(ch) >= 0x0300 and (0x0E00 <= ord(ch) <= 0x0E7F or 0x0300 <= ord(ch) <= 0x036F)
               for ch in text)


def for_text(style: ParagraphStyle, text: str) -> ParagraphStyle:
    """`style`, with shaping switched off where the text does not need it."""
    if needs_shaping(text):
        return style
    return _unshaped(style)


@cache
def _unshaped(style: ParagraphStyle) -> ParagraphStyle:
    return ParagraphStyle(f"{style.name}-plain", parent=style, shaping=0)
