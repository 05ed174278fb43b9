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
from grove.printouts.cards.geometry import MM, PRINTER_MARGIN, Sheet
from grove.printouts.cards.words import word
from grove.printouts.sheets.fonts import register, require_shaping
from grove.printouts.sheets.pdf import _Canvas as IconCanvas

MARK = colors.black
CUT_LINE = colors.HexColor("#9a9a9a")


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


def sheets(deck: Deck, sheet: Sheet, backs: bool = False, unique: bool = False,
           cut: str = "marks", checklist: bool = False) -> tuple[bytes, int]:
    """The cards to print and cut: every physical card (or each face once, with its count),
    `sheet.per_page` to a page with crop marks around the cards it holds (and with `cut`
    "lines" a thin line round each card, for scissors), each card stamped with the card set
    and its number, each page labelled; after each page its backs, mirrored; with
    `checklist` a last page listing every card. The bytes and the number of pages."""
    faces = [f for f, _ in deck.unique()]
    index = {f: i for i, f in enumerate(faces)}
    shown = ([(f, n, None) for f, n in deck.unique()] if unique
             else [(c.face, 0, c) for c in deck.cards])
    buf = BytesIO()
    c = _canvas(buf, (sheet.page_w, sheet.page_h), deck, "print-and-play cards")
    names = _forms(c, faces, deck, sheet.card_w, sheet.card_h, sheet.bleed)
    chunks = [shown[i:i + sheet.per_page] for i in range(0, len(shown), sheet.per_page)] or [[]]
    total = len(chunks) * (2 if backs else 1) + int(checklist)
    pages = 0
    for chunk in chunks:
        for i, (face, count, card) in enumerate(chunk):
            t = sheet.trim(i)
            _place(c, names[index[face]], t.x, t.y)
            c.saveState()
            c.translate(t.x, t.y)
            if count:
                draw.draw_count(c, count, sheet.card_w)
            if card is not None:
                draw.draw_stamp(c, deck.stamp_of(card), sheet.card_w)
            c.restoreState()
        pages += 1
        _cuts(c, sheet, len(chunk), cut)
        _label(c, sheet, deck, "print.fronts", pages, total)
        c.showPage()
        if backs:
            for i in range(len(chunk)):
                t = sheet.trim(i, back=True)
                _place(c, "back", t.x, t.y)
            pages += 1
            _cuts(c, sheet, len(chunk), cut, back=True)
            _label(c, sheet, deck, "print.backs", pages, total)
            c.showPage()
    if checklist:
        pages += 1
        draw.draw_checklist(c, deck, sheet.page_w, sheet.page_h)
        _label(c, sheet, deck, "print.checklist", pages, total)
        c.showPage()
    c.save()
    return buf.getvalue(), pages


def _cuts(c, sheet: Sheet, count: int, cut: str, back: bool = False) -> None:
    """Crop marks around the `count` cards of a page, and with `cut` "lines" each card's
    trim box drawn thin and grey: a line to follow with scissors, lost in the cut."""
    c.saveState()
    c.setStrokeColor(MARK)
    c.setLineWidth(0.25)
    for x1, y1, x2, y2 in sheet.marks(count):
        if back:  # the marks of the mirrored columns
            x1, x2 = sheet.page_w - x1, sheet.page_w - x2
        c.line(x1, y1, x2, y2)
    if cut == "lines":
        c.setStrokeColor(CUT_LINE)
        for i in range(count):
            t = sheet.trim(i, back=back)
            c.rect(t.x, t.y, t.w, t.h, stroke=1, fill=0)
    c.restoreState()


def _label(c, sheet: Sheet, deck: Deck, what: str, n: int, total: int) -> None:
    """The page's label, centred under the first column of cards, between the crop marks
    and inside a printer's unprinted edge: card set, language, fronts or backs, page n/N."""
    text = " · ".join((deck.edition, deck.lang, word(deck.lang, what),
                       word(deck.lang, "print.page", n=n, total=total)))
    t = sheet.trim(0)
    draw.draw_label(c, text, t.x + t.w / 2, PRINTER_MARGIN, t.w - 2 * MM, deck)


def single(deck: Deck, faces: Sequence[Face], w: float, h: float, bleed: float,
           counts: Sequence[int] = (), stamps: Sequence[str] = ()) -> bytes:
    """One page per face at the card's size grown by the bleed, then one of the back: what
    the PNG and Tabletop Simulator images are rasterised from."""
    buf = BytesIO()
    c = _canvas(buf, (w + 2 * bleed, h + 2 * bleed), deck, "cards, one to a page")
    names = _forms(c, faces, deck, w, h, bleed)
    for i, name in enumerate([*names, "back"]):
        _place(c, name, bleed, bleed)
        c.saveState()
        c.translate(bleed, bleed)
        if i < len(counts) and counts[i]:
            draw.draw_count(c, counts[i], w)
        if i < len(stamps) and stamps[i]:
            draw.draw_stamp(c, stamps[i], w)
        c.restoreState()
        c.showPage()
    c.save()
    return buf.getvalue()


def stamps(deck: Deck, texts: Sequence[str], w: float, h: float, bleed: float) -> bytes:
    """A page per stamp, of a page of `single`'s size (bleed included), blank but for the
    stamp drawn where `single` draws it. A face rasterised once is stamped per card with its
    lower left corner (`draw.stamp_box`; `raster.images(..., corner=...)`), so a deck's images
    stay one raster per face."""
    buf = BytesIO()
    c = _canvas(buf, (w + 2 * bleed, h + 2 * bleed), deck, "card stamps")
    for text in texts:
        c.translate(bleed, bleed)
        draw.draw_stamp(c, text, w)
        c.showPage()
    c.save()
    return buf.getvalue()
