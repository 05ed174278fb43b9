"""`grove print`: a deck rendered whole in memory, then written file by file through
`files.write` (each file whole or not at all), with one clear error for bad input.

Formats: `pdf` (one file of pages to cut), `png` (a folder of one image per physical card and
one of the back, at 300 dpi), `tts` (a folder of Tabletop Simulator deck sheets, the back and
the saved object).
"""

from __future__ import annotations

import difflib
import math
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image

from grove.compiler.cardset import CardSet
from grove.dsl.diagnostics import Diagnostic, DiagnosticError, Severity
from grove.files.folders import made_for
from grove.files.output import is_stdout, named_file_refusal
from grove.files.write import refusal, write_bytes
from grove.printouts.cards import draw, geometry, pdf, raster, tts
from grove.printouts.cards.faces import PILES, Card, Deck, Face, UnknownSpecies, read_deck
from grove.printouts.cards.words import word
from grove.printouts.sheets import catalog
from grove.printouts.sheets.fonts import FontProblem

FORMATS = ("pdf", "png", "tts")
DPI = 300


@dataclass(frozen=True)
class Options:
    lang: str
    fmt: str = "pdf"
    paper: str = "a4"
    size: str = "63x88"
    bleed: float = 0.0
    backs: bool = False
    unique: bool = False
    only: tuple[str, ...] = ()
    cut: str = "marks"  # "marks": crop marks only; "lines": a thin line round each card too
    checklist: bool = False  # a last page listing every card and its count (pdf)
    url_base: str = ""  # tts: the address the images are served from, for absolute URLs
    version: str = ""  # grove's version, for each card's stamp


def _fail(code: str, message: str, hint: str | None = None) -> DiagnosticError:
    return DiagnosticError([Diagnostic(code, Severity.ERROR, None, message, hint)])


def overflow_diagnostic(cs: CardSet, exc: draw.Overflow) -> Diagnostic:
    sp = cs.species.get(exc.part.species)
    return Diagnostic("PRINT-OVERFLOW", Severity.ERROR, sp.span if sp else cs.root.span,
                      str(exc), "shorten the text or print a larger card (--size)")


def _overflowing(deck: Deck, size_mm: tuple[float, float]) -> list[tuple[Face, draw.Overflow]]:
    w, h = (v * geometry.MM for v in size_mm)
    return [(face, o) for face, _ in deck.unique() for o in draw.check(face, deck, w, h)]


def _fits(faces: Sequence[Face], deck: Deck, size_mm: tuple[float, float]) -> bool:
    """Whether every face fits a card of `size_mm`: the search for the least size asks only
    that, so it stops at the first face that does not."""
    w, h = (v * geometry.MM for v in size_mm)
    return not any(draw.check(face, deck, w, h) for face in faces)


def _least_size(faces: Sequence[Face], deck: Deck,
                size_mm: tuple[float, float]) -> tuple[int, int] | None:
    """The smallest card of the proportions of `size_mm`, in whole mm, on which every face of
    `deck` fits: searched between the size asked and the one of those proportions that covers
    a poker card (a taller or wider card only gives a text more room), or the largest that
    `--size` allows. None where that one does not hold them either. `faces` are every face of
    the deck, those that overflow at the size asked first: near the least size they are the
    ones that still do not fit, so a size too small is known from a face or two."""
    w, h = size_mm

    def size(width: int) -> tuple[int, int]:
        return width, math.ceil(width * h / w - 1e-9)

    top = math.ceil(max(geometry.POKER[0] / w, geometry.POKER[1] / h, 1.0) * w)
    while top > w and max(size(top)) > geometry.MAX_SIDE:
        top -= 1
    if top <= w or not _fits(faces, deck, size(top)):
        return None
    low, high = math.floor(w), top  # fits at `high`, not at the size asked
    while high - low > 1:
        mid = (low + high) // 2
        low, high = (low, mid) if _fits(faces, deck, size(mid)) else (mid, high)
    return size(high)


def _check(cs: CardSet, deck: Deck, size_mm: tuple[float, float]) -> None:
    """PRINT-OVERFLOW for each text that fits its box at no type size; but a card smaller
    than a poker card that is too small for its faces, where a larger one holds them all, is
    one USAGE-CARD-TOO-SMALL naming the smallest size that does, not an overflow per face."""
    found = _overflowing(deck, size_mm)
    if not found:
        return
    poker = tuple(int(v) for v in geometry.POKER)
    smaller = size_mm[0] < poker[0] or size_mm[1] < poker[1]
    overflowing = dict.fromkeys(face for face, _ in found)
    faces = [*overflowing, *(f for f, _ in deck.unique() if f not in overflowing)]
    least = _least_size(faces, deck, size_mm) if smaller else None
    if least is not None or (smaller and _fits(faces, deck, poker)):
        asked = "x".join(f"{v:g}" for v in size_mm)
        counted = f"{len(overflowing)} of the {len(deck.unique())} faces"
        said = (f"the smallest card of these proportions that holds them all is "
                f"{least[0]}x{least[1]} mm" if least is not None else
                f"no card of these proportions up to {geometry.MAX_SIDE} mm holds them all; "
                f"a poker card, {poker[0]}x{poker[1]}, does")
        least = least or poker
        raise _fail("USAGE-CARD-TOO-SMALL",
                    f"--size {asked}: a card this small cannot hold {counted}; {said}",
                    f"print with --size {least[0]}x{least[1]} or larger")
    raise DiagnosticError(list(dict.fromkeys(overflow_diagnostic(cs, o) for _, o in found)))


CUTS = ("marks", "lines")
# the options each format reads beyond the card set, language and size; any other given is
# refused, never silently ignored (a tts deck has no pages, so no backs, bleed or cut)
APPLIES = {"pdf": {"paper", "bleed", "backs", "unique", "cut", "checklist"},
           "png": {"bleed", "unique"},
           "tts": {"url_base"}}
DEFAULTS = Options("")


def _not_for_format(opts: Options) -> list[str]:
    """The options given that `opts.fmt` does not read, as the command line spells them."""
    return [f"--{k.replace('_', '-')}" for k in ("paper", "bleed", "backs", "unique", "cut",
                                                 "checklist", "url_base")
            if getattr(opts, k) != getattr(DEFAULTS, k) and k not in APPLIES.get(opts.fmt, ())]


def stamp(cs: CardSet, version: str) -> str:
    """What each card's stamp names: the card set's editions and grove's version (editions
    carry no version of their own yet, so the version of grove that printed it stands in)."""
    ids = "+".join(e.id for e in cs.editions)
    return f"{ids} v{version}" if version else ids


def default_name(cs: CardSet, opts: Options) -> str:
    stem = f"cards-{'+'.join(e.id for e in cs.editions)}-{opts.lang}"
    return {"pdf": f"{stem}.pdf", "png": stem, "tts": f"{stem}-tts"}[opts.fmt]


def render(cs: CardSet, opts: Options) -> dict[str, bytes]:
    """File name (relative to the output) -> bytes; a single file for `pdf` (named "")."""
    if opts.lang not in catalog.languages():
        raise _fail("USAGE-LANGUAGE", f"unknown language {opts.lang!r}; cards print in "
                    f"{', '.join(catalog.languages())}")
    if opts.fmt not in FORMATS:
        raise _fail("USAGE-FORMAT", f"unknown format {opts.fmt!r}; choose pdf, png or tts")
    if opts.paper not in geometry.PAPERS:
        raise _fail("USAGE-PAPER", f"unknown paper {opts.paper!r}; choose a4 or letter")
    refused = _not_for_format(opts)
    if refused:
        raise _fail("USAGE-PRINT-OPTION", f"{', '.join(refused)} cannot be used with --format "
                    f"{opts.fmt}", "drop the option, or choose a format it applies to "
                    "(docs/print.md lists which)")
    if opts.url_base and not opts.url_base.startswith(("https://", "http://", "file:///")):
        raise _fail("USAGE-PRINT-OPTION", f"--url-base {opts.url_base}: give an address that "
                    "starts with https://, http:// or file:///")
    if opts.cut not in CUTS:
        raise _fail("USAGE-PRINT-OPTION", f"--cut {opts.cut}: choose {' or '.join(CUTS)}")
    try:
        size = geometry.parse_size(opts.size)
        sheet = geometry.sheet(opts.paper, size, opts.bleed)
    except ValueError as exc:  # LayoutError too
        raise _fail("USAGE-CARD-SIZE", str(exc)) from None
    try:
        deck = read_deck(cs, opts.lang, opts.only, stamp(cs, opts.version))
    except UnknownSpecies as exc:
        close = difflib.get_close_matches(exc.name, exc.known, n=1)
        raise _fail("USAGE-SPECIES", f"--only: no species or card {exc.name!r} in this card set",
                    f"did you mean '{close[0]}'?" if close else "`grove cards` lists them"
                    ) from None
    w, h, bleed = sheet.card_w, sheet.card_h, sheet.bleed
    _check(cs, deck, size)
    try:
        if opts.fmt == "pdf":
            return {"": pdf.sheets(deck, sheet, opts.backs, opts.unique, opts.cut,
                                   opts.checklist)[0]}
        if opts.fmt == "png":
            return _pngs(deck, w, h, bleed, opts.unique)
        return _tts(cs, deck, w, h, opts.url_base)
    except FontProblem as exc:
        raise _fail("SHEET-SHAPING", str(exc)) from None


def face_png(cs: CardSet, number: int, lang: str, size: str = "63x88", dpi: float = 150.0,
             version: str = "") -> bytes:
    """The face of card `number` (1-based, in the whole deck's order as `grove print`
    numbers it: deck, caves, winter cards) of card set `cs` in `lang`, as PNG bytes, drawn
    exactly as `grove print` draws it, with its stamp. For views that show one card at a time
    (`grove serve`'s table): the card's text is fitted as for print, so a card that would
    not print raises `DiagnosticError` (PRINT-OVERFLOW), as does an unknown card number or
    language (USAGE-SPECIES, USAGE-LANGUAGE)."""
    if lang not in catalog.languages():
        raise _fail("USAGE-LANGUAGE", f"unknown language {lang!r}; cards print in "
                    f"{', '.join(catalog.languages())}")
    try:
        size_mm = geometry.parse_size(size)
        w, h = (v * geometry.MM for v in size_mm)
        deck = read_deck(cs, lang, [str(number)], stamp(cs, version))
    except UnknownSpecies:
        raise _fail("USAGE-SPECIES", f"no card {number} in this card set") from None
    except ValueError as exc:
        raise _fail("USAGE-CARD-SIZE", str(exc)) from None
    card = deck.cards[0]
    _check(cs, deck, size_mm)
    try:
        img = next(raster.images(pdf.single(deck, [card.face], w, h, 0.0,
                                            stamps=[deck.stamp_of(card)]), dpi / 72))
        img = raster.exact(img, (round(w * dpi / 72), round(h * dpi / 72)))
    except FontProblem as exc:
        raise _fail("SHEET-SHAPING", str(exc)) from None
    return raster.png(img, dpi)


def _marks(deck: Deck, cards: Sequence[Card], w: float, h: float, bleed: float, scale: float
           ) -> tuple[dict[Card, Image.Image], int]:
    """Each card's stamp as a clear image of the lower left corner of its face's image (bleed
    included), `scale` pixels to the point, and the pixel row where that corner starts."""
    bw, bh = draw.stamp_box(w)
    corner = (bleed + bw, bleed + bh)
    marks = raster.images(pdf.stamps(deck, [deck.stamp_of(c) for c in cards], w, h, bleed),
                          scale, corner=corner)
    return (dict(zip(cards, marks, strict=True)),
            raster.corner_top(h + 2 * bleed, corner[1], scale))


def _pngs(deck: Deck, w: float, h: float, bleed: float, unique: bool) -> dict[str, bytes]:
    """An image per card (or per face, `unique`) and the back. Each face is drawn and
    rasterised once; each card that shows it is that image with the card's own stamp laid
    over it, as the PDF places the face's form and stamps each card."""
    shown = deck.unique()
    faces = [f for f, _ in shown]
    counts = [n for _, n in shown] if unique else []
    scale = DPI / 72
    px = (round((w + 2 * bleed) * scale), round((h + 2 * bleed) * scale))
    rendered = (raster.exact(img, px) for img in raster.images(
        pdf.single(deck, faces, w, h, bleed, counts), scale))
    out: dict[str, bytes] = {}
    if unique:  # a face for several cards: no card number to stamp, as in the PDF
        for i, (face, img) in enumerate(zip(faces, rendered, strict=False)):
            out[f"{i + 1:03d}-{face.stem}.png"] = raster.png(img, DPI)
    else:
        marks, top = _marks(deck, deck.cards, w, h, bleed, scale)
        by_face: dict[Face, list[Card]] = {}
        for card in deck.cards:
            by_face.setdefault(card.face, []).append(card)
        images: dict[int, bytes] = {}
        for face, img in zip(faces, rendered, strict=False):  # one face's pixels at a time
            for card in by_face[face]:
                images[card.number] = raster.png(raster.stamped(img, marks[card], top), DPI)
        out = {f"{c.number:03d}-{c.face.stem}.png": images[c.number] for c in deck.cards}
    out["back.png"] = raster.png(next(rendered), DPI)
    rendered.close()
    return out


def _tts(cs: CardSet, deck: Deck, w: float, h: float, url_base: str) -> dict[str, bytes]:
    """The sheets of each pile (the forest deck, the caves, the winter cards) apart, so the
    saved object sets each out as its own deck and none is shuffled into another. Each card
    carries its stamp, laid over its face's image as the sheet is pasted together."""
    px = tts.card_px(w, h)
    faces = [f for f, _ in deck.unique()]
    # each face kept as PNG bytes (a tenth of its pixels) until a sheet is pasted together
    kept = [raster.png(raster.exact(img, px)) for img in raster.images(
        pdf.single(deck, faces, w, h, 0.0), px[0] / w)]
    by_face = dict(zip(faces, kept, strict=False))
    marks, top = _marks(deck, deck.cards, w, h, 0.0, px[0] / w)
    out: dict[str, bytes] = {}
    piles = []
    for pile in PILES:
        cards = [c for c in deck.cards if c.pile == pile]
        if not cards:
            continue
        grids = tts.grids(len(cards), px)
        first, start = len(out), 0
        for i, g in enumerate(grids):
            n = min(g.cols * g.rows, len(cards) - start)
            part = cards[start:start + n]
            out[tts.sheet_name(first + i)] = raster.png(tts.paste(
                [by_face[c.face] for c in part], g, [marks[c] for c in part], top))
            start += n
        title = deck.edition if pile == "forest" else (
            f"{deck.edition}: {word(deck.lang, 'print.cave' if pile == 'caves' else 'print.winter')}")
        piles.append(tts.Pile(title, tuple(c.face.title for c in cards), tuple(grids), first))
    out[tts.BACK] = kept[-1]
    scale = (w / (geometry.POKER[0] * geometry.MM), h / (geometry.POKER[1] * geometry.MM))
    obj = tts.saved_object(piles, url_base, scale)
    out[f"{'+'.join(e.id for e in cs.editions)}-{deck.lang}.json"] = obj.encode("utf-8")
    return out


def write(cs: CardSet, opts: Options, out: str | None, force: bool = False) -> list[Path]:
    """Render, then write: the PDF to `out` (a file, or a folder to put it in), the images of
    `png` and `tts` into the folder `out`. The files written. The `-o` rules of
    files/output.py are asked before anything is rendered: no standard output, a PDF's name
    says PDF, a file the user named is replaced only when grove wrote it or with `force`."""
    if is_stdout(out):
        raise _fail("USAGE-BAD-OPTION", "-o - (standard output) is not for grove print: it "
                    "writes a PDF file or a folder of images",
                    "name the file or folder: -o cards.pdf, -o cards/")
    name = default_name(cs, opts)
    named = None
    if opts.fmt == "pdf":
        named = Path(out) if out else Path(name)
        if out and (named.is_dir() or out.endswith(os.sep)):
            named = named / name
        why = (named_file_refusal(named, "pdf", force) if out and named.parent.is_dir()
               else None)
        if why is not None:
            raise _fail("IO-WRITE", f"{out}: cannot write the cards: {why}")
    files = render(cs, opts)
    if named is not None:
        paths = {"": named}
    else:
        folder = Path(out) if out else Path(name)
        paths = {k: folder / k for k in files}
    for path in paths.values():  # before writing anything: a target grove may not replace
        why = refusal(path) if path.parent.is_dir() else None
        if why is not None:
            raise _fail("IO-WRITE", f"{path}: cannot write the cards: {why}")
    try:
        with made_for(*sorted({str(p.parent) for p in paths.values()})):  # gone if left empty
            for k, path in paths.items():
                write_bytes(path, files[k])  # the old file or the whole new one, never half
    except OSError as exc:
        raise _fail("IO-WRITE", f"{exc.filename or out or '.'}: cannot write the cards: "
                    f"{exc.strerror or exc}") from None
    return list(paths.values())
