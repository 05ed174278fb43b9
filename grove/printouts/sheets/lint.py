"""`grove lint` findings about the printed sheets: text that does not fit its box, characters
the font cannot print.

It builds each sheet's flowables (no page layout, no PDF), so it is cheap enough to run with
every lint: a table cell overflows when its widest unbreakable word (Thai words as the segmenter
cuts them) is wider than the column; a diagram label when it is wider than its box. A4 is the
narrower paper, so it decides the widths.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from functools import cache

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus.paragraph import _getFragWords, _processed_frags

from grove.compiler import cardset as cs_mod
from grove.compiler.cardset import CardSet
from grove.compiler.search_path import Roots
from grove.compiler.universe import Universe, load_universe
from grove.dsl.diagnostics import Diagnostic, DiagnosticError, Severity
from grove.printouts import printable
from grove.printouts.sheets import catalog, fonts, layout, pdf
from grove.printouts.sheets.content import build_sheet
from grove.printouts.sheets.diagrams import LABEL_SIZE
from grove.printouts.sheets.thai import fine_segments, has_thai

PAPER = "a4"


_HYPHENATED = re.compile(r"^[A-Za-z\u00c0-\u024f]+(-[A-Za-z\u00c0-\u024f]+)+$")


def _word_need(word: list) -> tuple[float, str]:
    """Width a frag word needs on one line: a Latin compound may break after its hyphens
    (the styles allow reportlab's embedded hyphenation), so its widest part counts."""
    text = "".join(t for _, t in word[1:] if isinstance(t, str))
    if has_thai(text) and word[1:]:  # a Thai word wider than its line breaks finer (thai.py)
        frag = word[1][0]
        return max((stringWidth(p, frag.fontName, frag.fontSize), p)
                   for p in fine_segments(text))
    core = text.strip("()[]\"'.,;:!?")
    if _HYPHENATED.match(core) and word[1:]:
        frag = word[1][0]
        parts = re.split(r"(?<=-)", text)
        widest = max(parts, key=lambda p: stringWidth(p, frag.fontName, frag.fontSize))
        return stringWidth(widest, frag.fontName, frag.fontSize), widest
    return word[0], text


def _widest_word(para) -> tuple[float, str]:
    words = para.frags if _processed_frags(para.frags) else _getFragWords(para.frags)
    return max((_word_need(w) for w in words), key=lambda x: x[0], default=(0.0, ""))


@cache
def _word_width(word: str, font: str, size: float) -> float:
    return stringWidth(word, font, size)


def _may_overflow(cell: pdf.Cell) -> bool:
    """A quick upper bound: every word set in bold (the widest face) fits, so the cell fits.
    Only the few cells that fail it are built as paragraphs and measured exactly."""
    bold = fonts.BOLD
    for chunk in cell.text.split():
        for word in fine_segments(chunk):
            for part in re.split(r"(?<=-)", word) if _HYPHENATED.match(word) else (word,):
                if _word_width(part, bold, cell.style.fontSize) > cell.width:
                    return True
    return False


# cells this long are wrapped and measured for height: shorter ones fit any page
LONG_CELL = 300
# the tallest a table row may be: the shorter paper's frame, less the repeated header row
_TALLEST = min(layout.page(p).frame_height for p in layout.PAPERS) - 60


def check_sheet(cs: CardSet, lang: str) -> list[Diagnostic]:
    """Findings for one card set printed in one language."""
    sheet = build_sheet(cs, lang)
    story = pdf.story(sheet, PAPER, measure_only=True)
    where = f"sheet {lang} ({PAPER})"
    spans = {r.key: r.span for r in sheet.all_species}
    hosts = {h.id: h for h in sheet.hosts}
    out: list[Diagnostic] = []
    for cell in story.cells:
        if len(cell.text) > LONG_CELL:  # a long name wraps to a row no page holds
            _, height = cell.paragraph().wrap(cell.width, 1e9)
            if height > _TALLEST:
                span = spans.get(cell.key or "") or cs.root.span
                out.append(Diagnostic(
                    "SHEET-OVERFLOW", Severity.WARNING, span,
                    f"{where}: '{cell.text[:40]}...' ({len(cell.text)} characters) wraps to "
                    f"{height:.0f} pt in column {cell.col + 1} of the {cell.table} table, "
                    f"taller than a page holds ({_TALLEST:.0f} pt)",
                    "shorten the text: no page can lay out this row"))
        if not _may_overflow(cell):
            continue
        need, word = _widest_word(cell.paragraph())
        if need > cell.width + 0.01:
            span = spans.get(cell.key or "") or cs.root.span
            out.append(Diagnostic(
                "SHEET-OVERFLOW", Severity.WARNING, span,
                f"{where}: '{word}' is {need:.1f} pt wide but column {cell.col + 1} of the "
                f"{cell.table} table has {cell.width:.1f} pt"))
    font = fonts.register().regular
    for d in story.diagrams:
        for box in d.boxes:
            for line in box.lines:
                need = stringWidth(line, font, LABEL_SIZE)
                if need > box.text_width + 0.01:
                    h = hosts.get(d.host)
                    out.append(Diagnostic(
                        "SHEET-OVERFLOW", Severity.WARNING, h.span if h else cs.root.span,
                        f"{where}: label '{line}' in the {d.host} diagram is {need:.1f} pt wide, "
                        f"its box has {box.text_width:.1f} pt"))
    text = "".join(ET.fromstring(story.xhtml).itertext())
    text += "".join(line for d in story.diagrams for b in d.boxes for line in b.lines)
    for face in (fonts.REGULAR, fonts.BOLD):
        missing = fonts.missing_glyphs(text, face)
        if missing:
            shown = " ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in missing)
            out.append(Diagnostic("SHEET-MISSING-GLYPH", Severity.ERROR, cs.root.span,
                                  f"{where}: font {face} has no glyph for {shown}"))
    return out


def _roots_to_check(universe, wanted: Iterable[str]) -> dict[str, list[list[str]]]:
    """standalone edition -> the combinations of expansions to print with it: for each edition
    asked, the largest combination with a removal row that holds it (a sheet can be printed only
    for a game that can be set up), so an author's expansion is checked with what it declares."""
    out: dict[str, list[list[str]]] = {}
    for eid in wanted:
        e = universe.editions.get(eid)
        if e is None:
            continue
        root = e.id if e.expansion_of is None else e.expansion_of
        base = universe.editions.get(root)
        if base is None:
            continue
        combos = {row.with_ for x in universe.family(base) for row in x.removed}
        fits = [c for c in combos if e.id in c or e.id == root]
        if fits:
            best = sorted(max(fits, key=lambda c: (len(c), sorted(c))))
            if best not in out.setdefault(root, []):
                out[root].append(best)
    return out


def lint(roots: Roots, wanted: Iterable[str], universe: Universe | None = None
         ) -> list[Diagnostic]:
    """Sheet findings for every standalone edition among (or expanded by) `wanted`, in every
    language with a sheet catalog. Editions that do not build are left to the other checks."""
    universe = universe if universe is not None else load_universe(roots)
    out: list[Diagnostic] = []
    for root, exps in sorted((r, x) for r, xs in _roots_to_check(universe, wanted).items()
                             for x in xs):
        try:
            cs = cs_mod.build(root, exps, roots, universe=universe)
        except DiagnosticError:
            continue
        if printable.findings(cs.editions):  # no sheet can hold it: text_lint says so once
            continue
        for lang in catalog.languages():
            try:
                out.extend(check_sheet(cs, lang))
            except Exception as exc:  # noqa: BLE001 - a broken sheet is a finding, not a crash
                out.append(Diagnostic("SHEET-RENDER", Severity.ERROR, cs.root.span,
                                      f"sheet {lang}: cannot be built: {exc}"))
    return list(dict.fromkeys(out))
