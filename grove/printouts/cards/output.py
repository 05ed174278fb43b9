"""`grove print`: a deck rendered whole in memory, then written file by file through
`files.write` (each file whole or not at all), with one clear error for bad input.

Formats: `pdf` (one file of pages to cut), `png` (a folder of one image per physical card and
one of the back, at 300 dpi), `tts` (a folder of Tabletop Simulator deck sheets, the back and
the saved object).
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from pathlib import Path

from grove.compiler.cardset import CardSet
from grove.dsl.diagnostics import Diagnostic, DiagnosticError, Severity
from grove.files.folders import made_for
from grove.files.write import refusal, write_bytes
from grove.printouts.cards import draw, geometry, pdf, raster, tts
from grove.printouts.cards.faces import Deck, UnknownSpecies, read_deck
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


def _fail(code: str, message: str, hint: str | None = None) -> DiagnosticError:
    return DiagnosticError([Diagnostic(code, Severity.ERROR, None, message, hint)])


def overflow_diagnostic(cs: CardSet, exc: draw.Overflow) -> Diagnostic:
    sp = cs.species.get(exc.part.species)
    return Diagnostic("PRINT-OVERFLOW", Severity.ERROR, sp.span if sp else cs.root.span,
                      str(exc), "shorten the text or print a larger card (--size)")


def _check(cs: CardSet, deck: Deck, w: float, h: float) -> None:
    found = [overflow_diagnostic(cs, o) for face, _ in deck.unique()
             for o in draw.check(face, deck, w, h)]
    if found:
        raise DiagnosticError(list(dict.fromkeys(found)))


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
    try:
        size = geometry.parse_size(opts.size)
        sheet = geometry.sheet(opts.paper, size, opts.bleed)
    except ValueError as exc:  # LayoutError too
        raise _fail("USAGE-CARD-SIZE", str(exc)) from None
    try:
        deck = read_deck(cs, opts.lang, opts.only)
    except UnknownSpecies as exc:
        close = difflib.get_close_matches(exc.name, exc.known, n=1)
        raise _fail("USAGE-SPECIES", f"--only: no species {exc.name!r} in this card set",
                    f"did you mean '{close[0]}'?" if close else "`grove cards` lists them"
                    ) from None
    w, h, bleed = sheet.card_w, sheet.card_h, sheet.bleed
    _check(cs, deck, w, h)
    try:
        if opts.fmt == "pdf":
            return {"": pdf.sheets(deck, sheet, opts.backs, opts.unique)[0]}
        if opts.fmt == "png":
            return _pngs(deck, w, h, bleed, opts.unique)
        return _tts(cs, deck, w, h)
    except FontProblem as exc:
        raise _fail("SHEET-SHAPING", str(exc)) from None


def _pngs(deck: Deck, w: float, h: float, bleed: float, unique: bool) -> dict[str, bytes]:
    shown = deck.unique()
    faces = [f for f, _ in shown]
    counts = [n for _, n in shown] if unique else []
    scale = DPI / 72
    px = (round((w + 2 * bleed) * scale), round((h + 2 * bleed) * scale))
    rendered = [raster.png(raster.exact(img, px), DPI) for img in raster.images(
        pdf.single(deck, faces, w, h, bleed, counts), scale)]
    by_face = dict(zip(faces, rendered, strict=False))
    out = {}
    if unique:
        for i, face in enumerate(faces):
            out[f"{i + 1:03d}-{face.stem}.png"] = by_face[face]
    else:
        for card in deck.cards:
            out[f"{card.number:03d}-{card.face.stem}.png"] = by_face[card.face]
    out["back.png"] = rendered[-1]
    return out


def _tts(cs: CardSet, deck: Deck, w: float, h: float) -> dict[str, bytes]:
    px = tts.card_px(w, h)
    faces = [f for f, _ in deck.unique()]
    # each face kept as PNG bytes (a tenth of its pixels) until a sheet is pasted together
    kept = [raster.png(raster.exact(img, px)) for img in raster.images(
        pdf.single(deck, faces, w, h, 0.0), px[0] / w)]
    by_face = dict(zip(faces, kept, strict=False))
    grids = tts.grids(len(deck.cards), px)
    out = {}
    start = 0
    for i, g in enumerate(grids):
        n = min(g.cols * g.rows, len(deck.cards) - start)
        out[tts.sheet_name(i)] = raster.png(tts.paste(
            [by_face[c.face] for c in deck.cards[start:start + n]], g))
        start += n
    out[tts.BACK] = kept[-1]
    name = f"{deck.edition} ({deck.lang})"
    obj = tts.saved_object(name, [c.face.title for c in deck.cards], grids)
    out[f"{'+'.join(e.id for e in cs.editions)}-{deck.lang}.json"] = obj.encode("utf-8")
    return out


def write(cs: CardSet, opts: Options, out: str | None) -> list[Path]:
    """Render, then write: the PDF to `out` (a file, or a folder to put it in), the images of
    `png` and `tts` into the folder `out`. The files written."""
    files = render(cs, opts)
    name = default_name(cs, opts)
    if opts.fmt == "pdf":
        target = Path(out) if out else Path(name)
        if out and (target.is_dir() or out.endswith(os.sep)):
            target = target / name
        paths = {"": target}
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
