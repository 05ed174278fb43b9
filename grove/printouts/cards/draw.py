"""One card face laid out and drawn on a reportlab canvas, its text fitted to its boxes.

Where each part of a card goes comes from the card data: a host card (a tree, a shrub, a moor,
a river ...) is one part on the whole card, with a tab on each edge for each slot its host has
on that side (blue for a slot that takes only cards with the water requirement); a split card
has a region per half, by the half's side: top and bottom halves upright, one above the other;
left and right halves side by side on the card turned a quarter clockwise, as it lies beside a
tree. Any other card stacks its parts.

Text is set with the sheets' fonts, shaping and Thai line breaking (`SegmentedParagraph`), and
fitted: from a comfortable size down to a smallest readable one. Text that fits at none of them
is an `Overflow`, never clipped.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth

from grove.printouts.cards.faces import Deck, Face, Part
from grove.printouts.cards.geometry import MM
from grove.printouts.cards.words import word
from grove.printouts.sheets import layout
from grove.printouts.sheets.draw import INK, WATER_FILL
from grove.printouts.sheets.fonts import register, with_fallback
from grove.printouts.sheets.icons import draw as draw_icon
from grove.printouts.sheets.pdf import with_icons
from grove.printouts.sheets.thai import SegmentedParagraph, segments

PAD = 3.0 * MM  # from the trim edge to any text: what a cut a little off leaves whole
BADGE = 5.0 * MM  # the cost disc, the water drop and the tree symbol's icon
TAB = (11.0 * MM, 2.2 * MM)  # a slot tab along its edge, and how far it reaches in (< PAD)
TITLE_SIZES = (8.5, 8.0, 7.5, 7.0, 6.5, 6.0)
BODY_SIZES = (7.0, 6.6, 6.2, 5.8, 5.4, 5.0)
GAP = 1.2  # points between the paragraphs of a part
FILL = {"host": colors.HexColor("#dcebd3"), "split": colors.HexColor("#efe7d2"),
        "plain": colors.HexColor("#dde6ee")}
# a host card's colour and rim by its `Face.tone`: the trees' green first, then the other
# host kinds in the edition's order; water hosts blue
TONES = ((colors.HexColor("#dcebd3"), colors.HexColor("#6f9a62")),
         (colors.HexColor("#ece3c2"), colors.HexColor("#a08a3c")),
         (colors.HexColor("#e6d6e4"), colors.HexColor("#8c5f86")),
         (colors.HexColor("#e9dccd"), colors.HexColor("#8f6a45")))
WATER_TONE = (colors.HexColor("#d3e4f1"), colors.HexColor("#3f7fb3"))
PANEL = colors.HexColor("#fffdf7")
LINE = colors.HexColor("#9fb59a")
SLOT_FILL = colors.white
COIN = colors.HexColor("#f3d27a")


@dataclass(frozen=True)
class Overflow(Exception):
    """Text of a part that fits its box at no size: which card, part and text, how much room
    it needed at the smallest size and how much there was."""

    part: Part
    what: str  # "name", or the label of the field
    need: float
    room: float
    lang: str

    def __str__(self) -> str:
        size = TITLE_SIZES[-1] if self.what == "name" else BODY_SIZES[-1]
        return (f"card {self.part.id} ({self.lang}): the {self.what or 'text'} of "
                f"{self.part.name} does not fit its box at {size:g} pt (needs "
                f"{self.need:.0f} pt, has {self.room:.0f} pt)")


@dataclass(frozen=True)
class Region:
    """Where a part goes on a card, in the card's trim coordinates: `x`, `y` of the lower left
    corner and `w`, `h` as the part reads them (turned: `w` runs up the card)."""

    x: float
    y: float
    w: float
    h: float
    turned: bool


def regions(face: Face, w: float, h: float) -> tuple[Region, ...]:
    """A region for each part of `face` on a card of `w` x `h` points."""
    parts = face.parts
    sides = tuple(p.side for p in parts)
    if face.kind == "split" and set(sides) == {"left", "right"} and len(parts) == 2:
        # turned a quarter clockwise: the card's height runs left to right
        order = sorted(range(2), key=lambda i: sides[i] != "left")
        out = [Region(0.0, 0.0, 0.0, 0.0, True)] * 2
        for n, i in enumerate(order):
            out[i] = Region(n * h / 2, 0.0, h / 2, w, True)
        return tuple(out)
    if face.kind == "split" and set(sides) <= {"top", "bottom"} and len(set(sides)) == len(parts):
        return tuple(Region(0.0, h / 2 if p.side == "top" else 0.0, w, h / 2, False)
                     for p in parts)
    step = h / len(parts)
    return tuple(Region(0.0, h - (i + 1) * step, w, step, False) for i in range(len(parts)))


@cache
def _style(kind: str, size: float) -> ParagraphStyle:
    f = register()
    base = layout.styles().body
    if kind == "title":
        return ParagraphStyle(f"card-title-{size}", parent=base, fontName=f.bold, fontSize=size,
                              leading=size * 1.15, alignment=TA_CENTER, spaceAfter=0)
    if kind == "sub":
        return ParagraphStyle(f"card-sub-{size}", parent=base, fontSize=size,
                              leading=size * 1.25, alignment=TA_CENTER, spaceAfter=0)
    return ParagraphStyle(f"card-body-{size}", parent=base, fontSize=size, leading=size * 1.2,
                          spaceAfter=0)


THAI = re.compile("[\u0e00-\u0e7f]")
THAI_LEADING = 1.55  # times the size: a tone mark over an upper vowel clears the line above


@cache
def _thai(style: ParagraphStyle) -> ParagraphStyle:
    return ParagraphStyle(f"{style.name}-th", parent=style,
                          leading=max(style.leading, style.fontSize * THAI_LEADING))


def _para(markup: str, style: ParagraphStyle, words: frozenset[str]) -> SegmentedParagraph:
    """A paragraph of `markup`, Thai set with room for its stacked marks between lines."""
    if THAI.search(markup):
        style = _thai(style)
    markup = with_fallback(markup)
    return SegmentedParagraph(with_icons(markup, style.fontSize * 1.15),
                              layout.for_text(style, markup), words=words)


def _wrap(p: SegmentedParagraph, width: float) -> tuple[float, bool]:
    """The paragraph's height at `width`, and whether every line fits across it (reportlab
    lets a word wider than the line run out of its box). A box with no width holds nothing:
    reportlab then sets no lines at all, so it is answered before."""
    if width < 1.0:
        return math.inf, False
    _, height = p.wrap(width, 1e6)
    bl = getattr(p, "blPara", None)
    if bl is None:
        return math.inf, False
    extra = [ln.extraSpace if hasattr(ln, "extraSpace") else ln[0] for ln in bl.lines]
    return height, min(extra, default=0.0) >= -0.01


def _icon_span(sid: str) -> str:
    return f'<span class="icon" data-icon="{escape(sid)}"/>'


def _subline(part: Part) -> str:
    """What kind of card it is, in icons and words: host, types, tree symbol."""
    bits = [escape(part.host)] if part.host else []
    bits += [(_icon_span(s.id) if s.icon else "") + escape(s.name) for s in part.types
             if s.name != part.host]
    if part.tree:
        bits.append((_icon_span(part.tree.id) if part.tree.icon else "") + escape(part.tree.name))
    return " · ".join(bits)


def _title_box(part: Part) -> tuple[float, float]:
    """Where the name goes across the top: from past the cost disc to short of the water drop
    and the tree symbol's icon (its x, and what that leaves of the line's width)."""
    step = BADGE + 0.8 * MM
    left = step if part.cost is not None else 0.0
    right = (int(part.water) + int(bool(part.tree and part.tree.icon))) * step
    return left, left + right


@dataclass(frozen=True)
class Fitted:
    """A part's paragraphs at the sizes that fit, with their heights (top to bottom)."""

    title: SegmentedParagraph
    title_h: float
    body: tuple[tuple[SegmentedParagraph, float], ...]
    header_h: float


def fit(part: Part, region: Region, deck: Deck) -> Fitted:
    """The part's text at the largest sizes that fit its region; `Overflow` if none does."""
    inner_w = region.w - 2 * PAD
    inner_h = region.h - 2 * PAD  # a slot tab reaches less far in than PAD
    title_w = inner_w - _title_box(part)[1]
    title = None
    # a host's name (a tree's, a river's) is set on one line at any size that allows it, so
    # "Moor Birch" is never cut in two; other names take two lines at the larger size first
    for lines in ((1, 2) if part.host else (2,)):
        for size in TITLE_SIZES:
            p = _para(escape(part.name), _style("title", size), deck.words)
            h, fits = _wrap(p, title_w)
            if fits and h <= lines * p.style.leading + 0.01:
                title, title_h = p, h
                break
        if title is not None:
            break
    if title is None:  # what it needs: its widest word, or two lines' worth
        raise Overflow(part, "name", max(p.minWidth(), title_w * (h / p.style.leading)), title_w * 2,
                       deck.lang)
    header_h = max(BADGE, title_h) + 1.2 * MM
    room = inner_h - header_h
    blocks = [_subline(part)] if _subline(part) else []
    blocks += [(f"<b>{escape(f.label)}:</b> " if f.label else "") + escape(f.text)
               for f in part.fields]
    need = 0.0
    for size in BODY_SIZES:
        out, need, wide = [], 0.0, ""
        for n, markup in enumerate(blocks):
            p = _para(markup, _style("sub" if n == 0 and _subline(part) else "body", size),
                      deck.words)
            h, fits = _wrap(p, inner_w)
            if not fits:
                wide = markup
            out.append((p, h))
            need += h + (GAP if n else 0.0)
        if not wide and need <= room + 0.01:
            return Fitted(title, title_h, tuple(out), header_h)
    label = next((f.label for f in part.fields if wide and wide.endswith(escape(f.text))), "")
    raise Overflow(part, label or "text", need, room, deck.lang)


def check(face: Face, deck: Deck, w: float, h: float) -> list[Overflow]:
    """Every part of `face` that does not fit on a card of `w` x `h` points."""
    found = (_overflow(part, region, deck)
             for part, region in zip(face.parts, regions(face, w, h), strict=True))
    return [o for o in found if o is not None]


@lru_cache(maxsize=4096)
def _overflow(part: Part, region: Region, deck: Deck) -> Overflow | None:
    """Whether a part fits its region, once per part and region: the halves of a deck's
    split cards come back on many faces. Most parts pass `_surely_fits` and are never set."""
    if _surely_fits(part, region, deck.words):
        return None
    try:
        fit(part, region, deck)
    except Overflow as exc:
        return exc
    return None


def _surely_fits(part: Part, region: Region, words: frozenset[str]) -> bool:
    """A quick bound for lint: lines filled greedily with every piece measured in bold (the
    widest face) and a wide space after it, each icon as wide as it is drawn, the title on
    two lines; if that fits at the largest sizes, the text does (wider pieces never need
    fewer lines). Only parts that fail it are set as paragraphs (`fit`)."""
    bold = register().bold
    inner_w, inner_h = region.w - 2 * PAD, region.h - 2 * PAD
    title_w = inner_w - _title_box(part)[1]
    size = TITLE_SIZES[0]
    if _greedy_lines([_width(p, bold, size) * 1.05 + size * 0.4 for p in _pieces(part.name, words)],
                     title_w) > 2:
        return False
    thai = THAI_LEADING / 1.25 if THAI.search(part.name + _subline_text(part)) or any(
        THAI.search(f.text) for f in part.fields) else 1.0  # Thai lines stand further apart
    room = inner_h - max(BADGE, 2 * size * 1.25 * thai) - 1.2 * MM
    size = BODY_SIZES[0]
    icons = sum(1 for s in (*part.types, part.tree) if s is not None and s.icon)
    texts = [_subline_text(part)] + [f"{f.label}: {f.text}" for f in part.fields]
    for n, text in enumerate(texts):
        widths = [_width(p, bold, size) * 1.05 + size * 0.4 for p in _pieces(text, words)]
        if n == 0:
            widths += [size * 1.6] * icons
        lines = _greedy_lines(widths, inner_w)
        room -= lines * size * 1.25 * thai + GAP
    return room >= 0


def _greedy_lines(widths: list[float], line: float) -> int | float:
    """Lines a greedy fill takes (infinite when a piece is wider than the line)."""
    lines, used = 1, 0.0
    for w in widths:
        if w > line:
            return float("inf")
        if used + w > line:
            lines, used = lines + 1, 0.0
        used += w
    return lines


def _subline_text(part: Part) -> str:
    return " · ".join([*([part.host] if part.host else []), *(s.name for s in part.types),
                       *([part.tree.name] if part.tree else [])])


def _pieces(text: str, words: frozenset[str]) -> list[str]:
    """The pieces a line may break between (Thai as the segmenter cuts it)."""
    return [seg for chunk in text.split() for seg in segments(chunk, words)]


@cache
def _width(text: str, font: str, size: float) -> float:
    return stringWidth(text, font, size)


# ---- drawing -----------------------------------------------------------------------------
def draw_face(c, face: Face, deck: Deck, w: float, h: float, bleed: float) -> None:
    """`face` on canvas `c` with its trim box at (0, 0)-(w, h), its colour out to the bleed.
    `Overflow` when a text does not fit (before anything is drawn)."""
    fitted = [fit(p, r, deck) for p, r in zip(face.parts, regions(face, w, h), strict=True)]
    c.saveState()
    fill, rim = _tone(face)
    c.setFillColor(fill)
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
    c.setFillColor(PANEL)
    if rim is not None:  # a host's frame: its kind at a glance, a river's blue, a moor's heath
        c.setStrokeColor(rim)
        c.setLineWidth(1.4 if face.tone else 0.8)
        c.setDash([3, 1.6] if face.tone > 0 else [])
    c.roundRect(1.5 * MM, 1.5 * MM, w - 3 * MM, h - 3 * MM, 2 * MM, stroke=int(rim is not None),
                fill=1)
    c.setDash([])
    if face.kind == "host":
        _tabs(c, face, w, h)
    rs = regions(face, w, h)
    if len(rs) > 1:  # the line between halves
        c.setStrokeColor(LINE)
        c.setLineWidth(0.6)
        c.setDash([2, 1.5])
        if rs[0].turned:
            c.line(1.5 * MM, h / 2, w - 1.5 * MM, h / 2)
        else:
            for r in rs[1:]:
                c.line(1.5 * MM, r.y + r.h, w - 1.5 * MM, r.y + r.h)
        c.setDash([])
    for part, region, f in zip(face.parts, rs, fitted, strict=True):
        c.saveState()
        if region.turned:  # the part's x runs up the card, its y to the left
            c.translate(w, 0)
            c.rotate(90)
        c.translate(region.x, region.y)
        _part(c, part, f, region.w, region.h, deck, face.tone if face.kind == "host" else None)
        c.restoreState()
    if face.kind == "plain" and not face.parts[0].species and face.stem == "winter":
        _snowflake(c, w / 2, h / 2, min(w, h) * 0.3)
    c.restoreState()


def _tone(face: Face) -> tuple:
    """The card's fill and a host's rim colour (None for other cards)."""
    if face.kind != "host":
        return FILL[face.kind], None
    if face.tone < 0:
        return WATER_TONE
    return TONES[face.tone % len(TONES)]


def _picture(part: Part, deck: Deck, own_kind: bool):
    """A host card's large picture: a tree's its tree symbol's icon; any other host's
    (`own_kind`: a river, a shrub, a moor) the first of its types that has one, its tree
    symbol staying in the corner: every host shows what it is."""
    for s in ((*part.types, part.tree) if own_kind else (part.tree, *part.types)):
        if s is not None and s.icon and s.id in deck.icons:
            return deck.icons[s.id][0]
    return None


def _snowflake(c, x: float, y: float, r: float) -> None:
    """The winter card's mark: found among the cards of a pile at a glance."""
    c.saveState()
    c.setStrokeColor(colors.HexColor("#4a90c8"))
    c.setLineWidth(r * 0.07)
    c.setLineCap(1)
    for k in range(6):
        a = math.pi / 3 * k
        dx, dy = math.cos(a), math.sin(a)
        c.line(x, y, x + r * dx, y + r * dy)
        for t, arm in ((0.55, 0.3), (0.8, 0.2)):  # two pairs of twigs on each ray
            bx, by = x + r * t * dx, y + r * t * dy
            for turn in (math.pi / 4, -math.pi / 4):
                ca, sa = math.cos(a + turn), math.sin(a + turn)
                c.line(bx, by, bx + r * arm * ca, by + r * arm * sa)
    c.restoreState()


def _part(c, part: Part, f: Fitted, w: float, h: float, deck: Deck, tone: int | None) -> None:
    """One part in its region; `tone` the host's (`Face.tone`), None on any other card."""
    top = h - PAD
    if part.cost is not None:
        cx, cy = PAD + BADGE / 2, top - BADGE / 2
        c.setFillColor(COIN)
        c.setStrokeColor(INK)
        c.setLineWidth(0.5)
        c.circle(cx, cy, BADGE / 2, stroke=1, fill=1)
        c.setFillColor(INK)
        c.setFont(register().bold, 8)
        c.drawCentredString(cx, cy - 2.8, str(part.cost))
    right = w - PAD - BADGE
    if part.water:
        _drop(c, right, top - BADGE, BADGE)
        right -= BADGE + 0.8 * MM
    icon = deck.icons.get(part.tree.id) if part.tree and part.tree.icon else None
    if icon is not None:
        draw_icon(c, icon[0], right, top - BADGE, BADGE)
    picture = _picture(part, deck, tone != 0) if tone is not None else None
    if picture is not None:  # a host card's free space shows its symbol, large
        used = f.header_h + sum(ph + GAP for _, ph in f.body)
        size = min(w * 0.4, top - used - PAD - 2 * MM)
        if size > 8 * MM:
            draw_icon(c, picture, (w - size) / 2, PAD + (top - used - PAD - size) / 2, size)
    f.title.drawOn(c, PAD + _title_box(part)[0], top - max(BADGE, f.title_h) / 2 - f.title_h / 2)
    y = top - f.header_h
    for p, ph in f.body:
        y -= ph
        p.drawOn(c, PAD, y)
        y -= GAP


def _drop(c, x: float, y: float, size: float) -> None:
    """The water requirement: a drop."""
    p = c.beginPath()
    cx = x + size / 2
    p.moveTo(cx, y + size)
    p.curveTo(cx + size * 0.15, y + size * 0.7, cx + size * 0.42, y + size * 0.45,
              cx + size * 0.42, y + size * 0.3)
    p.curveTo(cx + size * 0.42, y + size * 0.08, cx + size * 0.2, y, cx, y)
    p.curveTo(cx - size * 0.2, y, cx - size * 0.42, y + size * 0.08, cx - size * 0.42,
              y + size * 0.3)
    p.curveTo(cx - size * 0.42, y + size * 0.45, cx - size * 0.15, y + size * 0.7, cx, y + size)
    p.close()
    c.setFillColor(colors.HexColor("#4a90c8"))
    c.setStrokeColor(INK)
    c.setLineWidth(0.4)
    c.drawPath(p, stroke=1, fill=1)


def _tabs(c, face: Face, w: float, h: float) -> None:
    """A tab on the edge for each slot of the host: where a card may be tucked."""
    by_side: dict[str, list] = {}
    for s in face.slots:
        by_side.setdefault(s.side, []).append(s)
    length, depth = TAB
    for side, slots in by_side.items():
        along = w if side in ("top", "bottom") else h
        step = along / (len(slots) + 1)
        for i, s in enumerate(slots, 1):
            mid = i * step
            if side in ("top", "bottom"):
                x, y = mid - length / 2, (h - depth if side == "top" else 0.0)
                bw, bh = length, depth
            else:
                x, y = (0.0 if side == "left" else w - depth), mid - length / 2
                bw, bh = depth, length
            c.setFillColor(WATER_FILL if s.water else SLOT_FILL)
            c.setStrokeColor(INK)
            c.setLineWidth(0.5)
            c.rect(x, y, bw, bh, stroke=1, fill=1)
            if s.capacity > 1:
                c.setFillColor(INK)
                c.setFont(register().bold, 5.5)
                c.drawCentredString(x + bw / 2, y + bh / 2 - 2, f"×{s.capacity}")


def draw_back(c, deck: Deck, w: float, h: float, bleed: float) -> None:
    """The one back every card shares: the card set's name on the game's colours."""
    c.saveState()
    c.setFillColor(colors.HexColor("#2e5d34"))
    c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
    c.setStrokeColor(colors.HexColor("#cfe3c4"))
    c.setLineWidth(1.2)
    c.roundRect(3 * MM, 3 * MM, w - 6 * MM, h - 6 * MM, 2.5 * MM, stroke=1, fill=0)
    style = ParagraphStyle("card-back", parent=_style("title", 14), textColor=colors.white,
                           fontSize=14, leading=17)
    p = _para(escape(deck.edition), style, deck.words)
    _, ph = p.wrap(w - 10 * MM, h)
    p.drawOn(c, 5 * MM, (h - ph) / 2)
    c.restoreState()


def draw_count(c, count: int, w: float) -> None:
    """How many cards show this face (`--unique`), in the lower right corner."""
    c.saveState()
    c.setFillColor(INK)
    c.setFont(register().bold, 7)
    c.drawRightString(w - 2.2 * MM, 2.2 * MM, f"×{count}")
    c.restoreState()


STAMP = colors.HexColor("#6b6b6b")
STAMP_AT = (2.0 * MM, 1.0 * MM)  # the stamp's baseline starts here, from the card's lower left
STAMP_PT = 4.5  # its largest type size


def stamp_box(w: float) -> tuple[float, float]:
    """The lower left corner of a card of width `w` that holds its stamp, whatever its text:
    what a card image drawn without one is stamped with (`pdf.stamps`)."""
    return STAMP_AT[0] + w * 0.24 + 1.0 * MM, STAMP_AT[1] + STAMP_PT * 1.4


def draw_stamp(c, text: str, w: float) -> None:
    """The card's stamp in its lower left corner ("base v0.1.0 67/166"): which card set and
    which card a loose print is. Below the text's padding and short of the first bottom slot
    tab; set smaller for a long stamp, and only the number where even that is too long."""
    room = w * 0.24
    font = register().regular
    size = min(STAMP_PT, STAMP_PT * room / max(stringWidth(text, font, STAMP_PT), 1e-6))
    if size < 3.0:
        text = text.rsplit(" ", 1)[-1]
        size = min(STAMP_PT, STAMP_PT * room / max(stringWidth(text, font, STAMP_PT), 1e-6))
    c.saveState()
    c.setFillColor(STAMP)
    c.setFont(font, size)
    c.drawString(*STAMP_AT, text)
    c.restoreState()


def _small(markup: str, size: float, deck: Deck, center: bool = False) -> SegmentedParagraph:
    style = _style("sub" if center else "body", size)
    return _para(markup, style, deck.words)


def draw_label(c, text: str, x: float, y: float, width: float, deck: Deck) -> None:
    """A page's label, centred on `x` with its baseline near `y`, set small enough to stay
    within `width` (between two crop marks)."""
    for size in (6.0, 5.0, 4.0, 3.0):
        p = _small(escape(text), size, deck, center=True)
        h, fits = _wrap(p, width)
        if fits and h <= size * 1.3:
            break
    c.saveState()
    p.drawOn(c, x - width / 2, y - size * 0.3)
    c.restoreState()


def draw_checklist(c, deck: Deck, page_w: float, page_h: float) -> None:
    """A page listing every face of the cards printed: its card numbers, how many, its name;
    in as many columns, at as small a size, as the list needs to fit the page."""
    rows = []
    for face, count in deck.unique():
        numbers = [card.number for card in deck.cards if card.face == face]
        rows.append(f"{_ranges(numbers)}  <b>×{count}</b>  {escape(face.title)}")
    top = page_h - 18 * MM
    room = top - 14 * MM
    size, cols = 7.0, 2
    step = THAI_LEADING if deck.lang == "th" else 1.25
    while size > 4.0 and -(-len(rows) // cols) * size * step > room:
        cols, size = (cols + 1, size) if cols < 3 else (2, size - 0.5)
    head = _para(f"<b>{escape(deck.edition)}</b> · {escape(word(deck.lang, 'print.checklist'))}"
                 f" · {len(deck.cards)} {escape(word(deck.lang, 'print.cards'))}",
                 _style("body", 9.0), deck.words)
    head.wrap(page_w - 24 * MM, 40)
    head.drawOn(c, 12 * MM, top + 4 * MM)
    per_col = max(1, -(-len(rows) // cols))
    col_w = (page_w - 24 * MM) / cols
    for i, markup in enumerate(rows):
        col, row = divmod(i, per_col)
        p = _small(markup, size, deck)
        _, ph = p.wrap(col_w - 2 * MM, size * 3)
        p.drawOn(c, 12 * MM + col * col_w, top - (row + 1) * size * step)


def _ranges(numbers: list[int]) -> str:
    """1, 2, 3, 7 -> "1-3, 7": a face's card numbers as a person reads them."""
    out: list[tuple[int, int]] = []
    for n in sorted(numbers):
        if out and out[-1][1] == n - 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in out)
