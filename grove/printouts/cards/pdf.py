"""PDF documents of cards: pages of nine to cut (crop marks, bleed, backs), and one page per
face for the rasterisers (`png.py`).

Each face is drawn once, as a PDF form, and every card that shows it places that form: a deck
of 160 cards with 60 faces is laid out 60 times, not 160. The canvas is reportlab's in
invariant mode with fixed metadata, so the same deck gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from io import BytesIO

from reportlab.lib import colors

from grove.printouts.cards import draw
from grove.printouts.cards.faces import Deck, Face
from grove.printouts.cards.geometry import Sheet
from grove.printouts.sheets.fonts import register, require_shaping
from grove.printouts.sheets.pdf import _Canvas as IconCanvas

MARK = colors.black


def _canvas(buf: BytesIO, size: tuple[float, float], deck: Deck, subject: str):
    require_shaping()
    register()
    cls = type("CardCanvas", (IconCanvas,), {"icons": dict(deck.icons)})
    c = cls(buf, pagesize=size, invariant=1, pageCompression=1, lang=deck.lang)
    c.setTitle(deck.edition)
    c.setAuthor("grove")
    c.setCreator("grove print")
    c.setProducer("grove")
    c.setSubject(subject)
    return c


def _forms(c, faces: Sequence[Face], deck: Deck, w: float, h: float, bleed: float) -> list[str]:
    """Each face as a form, and the back as the last one; their names, in order."""
    names = []
    for i, face in enumerate(faces):
        name = f"face{i}"
        c.beginForm(name, -bleed, -bleed, w + bleed, h + bleed)
        draw.draw_face(c, face, deck, w, h, bleed)
        c.endForm()
        names.append(name)
    c.beginForm("back", -bleed, -bleed, w + bleed, h + bleed)
    draw.draw_back(c, deck, w, h, bleed)
    c.endForm()
    return names


def _place(c, form: str, x: float, y: float) -> None:
    c.saveState()
    c.translate(x, y)
    c.doForm(form)
    c.restoreState()


def sheets(deck: Deck, sheet: Sheet, backs: bool = False, unique: bool = False) -> tuple[bytes, int]:
    """The cards to print and cut: every physical card (or each face once, with its count),
    `sheet.per_page` to a page with crop marks, and after each page its backs, mirrored. The
    bytes and the number of pages."""
    faces = [f for f, _ in deck.unique()]
    index = {f: i for i, f in enumerate(faces)}
    shown = [(f, n) for f, n in deck.unique()] if unique else [(c.face, 0) for c in deck.cards]
    buf = BytesIO()
    c = _canvas(buf, (sheet.page_w, sheet.page_h), deck, "print-and-play cards")
    names = _forms(c, faces, deck, sheet.card_w, sheet.card_h, sheet.bleed)
    pages = 0
    for start in range(0, len(shown), sheet.per_page):
        chunk = shown[start:start + sheet.per_page]
        for i, (face, count) in enumerate(chunk):
            t = sheet.trim(i)
            _place(c, names[index[face]], t.x, t.y)
            if count:
                c.saveState()
                c.translate(t.x, t.y)
                draw.draw_count(c, count, sheet.card_w)
                c.restoreState()
        _marks(c, sheet)
        c.showPage()
        pages += 1
        if backs:
            for i in range(len(chunk)):
                t = sheet.trim(i, back=True)
                _place(c, "back", t.x, t.y)
            _marks(c, sheet)
            c.showPage()
            pages += 1
    if not shown:  # an empty selection still makes a valid document
        c.showPage()
        pages += 1
    c.save()
    return buf.getvalue(), pages


def _marks(c, sheet: Sheet) -> None:
    c.saveState()
    c.setStrokeColor(MARK)
    c.setLineWidth(0.25)
    for x1, y1, x2, y2 in sheet.marks():
        c.line(x1, y1, x2, y2)
    c.restoreState()


def single(deck: Deck, faces: Sequence[Face], w: float, h: float, bleed: float,
           counts: Sequence[int] = ()) -> bytes:
    """One page per face at the card's size grown by the bleed, then one of the back: what
    the PNG and Tabletop Simulator images are rasterised from."""
    buf = BytesIO()
    c = _canvas(buf, (w + 2 * bleed, h + 2 * bleed), deck, "cards, one to a page")
    names = _forms(c, faces, deck, w, h, bleed)
    for i, name in enumerate([*names, "back"]):
        _place(c, name, bleed, bleed)
        if i < len(counts) and counts[i]:
            c.saveState()
            c.translate(bleed, bleed)
            draw.draw_count(c, counts[i], w)
            c.restoreState()
        c.showPage()
    c.save()
    return buf.getvalue()
