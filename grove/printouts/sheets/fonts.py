"""The vendored Sarabun family: registration with reportlab, the shaping check, glyph coverage.

Thai stacks vowels and tone marks on their consonant only after OpenType shaping (uharfbuzz), so
a sheet refuses to render rather than print floating marks when shaping is unavailable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics, ttfonts

from grove.printouts.sheets import textlayer

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"
FAMILY = "Sarabun"
FACES = {  # (bold, italic) -> registered name, file
    (0, 0): ("Sarabun", "Sarabun-Regular.ttf"),
    (1, 0): ("Sarabun-Bold", "Sarabun-Bold.ttf"),
    (0, 1): ("Sarabun-Italic", "Sarabun-Italic.ttf"),
    (1, 1): ("Sarabun-BoldItalic", "Sarabun-BoldItalic.ttf"),
}
REGULAR, BOLD = FACES[(0, 0)][0], FACES[(1, 0)][0]
SYMBOLS = "GroveSymbols"  # fallback family for the few characters Sarabun lacks (♀, arrows)
SYMBOL_FACES = {(0, 0): ("GroveSymbols", "DejaVuSans-Symbols.ttf"),
                (1, 0): ("GroveSymbols-Bold", "DejaVuSans-Bold-Symbols.ttf")}


class FontProblem(Exception):
    """The sheet cannot be typeset correctly: a missing font file or no text shaping."""


@dataclass(frozen=True)
class Family:
    regular: str
    bold: str
    italic: str
    bold_italic: str


@cache
def register() -> Family:
    """Register the four faces once per process (reportlab's font registry is process-wide),
    with the text layer of shaped text (`textlayer`)."""
    textlayer.install()
    for family, faces in ((FAMILY, FACES), (SYMBOLS, SYMBOL_FACES)):
        for (bold, italic), (name, filename) in faces.items():
            path = FONT_DIR / filename
            if not path.is_file():
                raise FontProblem(f"font file missing: {path}")
            pdfmetrics.registerFont(ttfonts.TTFont(name, str(path), shapable=True))
            addMapping(family, bold, italic, name)
            if family == SYMBOLS:  # no italic symbols: italic text falls back upright
                addMapping(family, bold, 1, name)
    return Family(*(FACES[k][0] for k in ((0, 0), (1, 0), (0, 1), (1, 1))))


def shaping_problem() -> str | None:
    """Why reportlab would lay out text unshaped, or None when shaping is active."""
    if ttfonts.uharfbuzz is None:
        return ("text shaping is not available: reportlab cannot import uharfbuzz "
                "(pip install 'reportlab[shaping]')")
    family = register()
    for name in (family.regular, family.bold):
        if not pdfmetrics.getFont(name).shapable:
            return f"text shaping is switched off for font {name} (reportlab unShapedFontGlob)"
    return None


def require_shaping() -> None:
    problem = shaping_problem()
    if problem:
        raise FontProblem(problem)


@cache
def _cmap(name: str) -> frozenset[int]:
    register()
    return frozenset(pdfmetrics.getFont(name).face.charToGlyph)


_INVISIBLE = frozenset("\n\t\u200b\u00ad")


def missing_glyphs(text: str, font: str = REGULAR) -> list[str]:
    """Characters of `text` that neither the font nor the symbol fallback can print, in order
    of first appearance."""
    cmap, extra = _cmap(font), _cmap(SYMBOLS)
    bad = {ch for ch in set(text) - _INVISIBLE if ord(ch) not in cmap and ord(ch) not in extra}
    return [ch for ch in dict.fromkeys(text) if ch in bad]


@cache
def _fallback_run() -> re.Pattern[str]:
    only_symbols = sorted(_cmap(SYMBOLS) - _cmap(REGULAR))
    return re.compile("[" + "".join(re.escape(chr(c)) for c in only_symbols) + "]+")


def with_fallback(markup: str) -> str:
    """Paragraph markup with every run of characters that Sarabun lacks but the symbol font has
    set in the symbol font (reportlab uses one font per run; it does not fall back by itself)."""
    return _fallback_run().sub(lambda m: f'<font face="{SYMBOLS}">{m.group()}</font>', markup)
