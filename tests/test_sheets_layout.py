"""The species table's columns (grove/printouts/sheets/columns.py): no slot cell breaks a line, and
German base with both expansions is back on four A4 pages, with the type sizes every language
shares."""

from __future__ import annotations

import re

import pytest

from grove.compiler import cardset as cs
from grove.printouts.sheets import columns, layout, pdf, templates
from grove.printouts.sheets.content import build_sheet

LANGS = ("en", "de", "it", "th")
EDITIONS = {"base+alpine+woodland_edge": ("base", ("alpine", "woodland_edge")),
            "smoky_mountains": ("smoky_mountains", ())}


@pytest.fixture(scope="module")
def cardsets():
    return {k: cs.build(e, list(x)) for k, (e, x) in EDITIONS.items()}


def _line_count(cell) -> int:
    para = cell.paragraph()
    para.wrap(cell.width, 10_000)
    return len(para.blPara.lines)


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("lang", LANGS)
def test_no_slot_cell_breaks_a_line(cardsets, edition, lang):
    """Italian "sinistra / destra" wrapped in every row of the 8.5% slot column; the column now
    takes the width of the widest line a slot cell prints, from the effect column."""
    story = pdf.story(build_sheet(cardsets[edition], lang), measure_only=True)
    slots = [c for c in story.cells if c.table == "species" and c.col == 3 and c.key]
    assert len(slots) > 50
    wrapped = [c.text for c in slots
               if _line_count(c) != len(re.findall(r"<br\s*/?>", c.markup)) + 1]
    assert not wrapped, wrapped[:3]


def test_the_italian_slot_column_is_wider_than_it_was(cardsets):
    sheet = build_sheet(cardsets["base+alpine+woodland_edge"], "it")
    widths = templates.species_widths(sheet)
    assert abs(sum(widths) - 1.0) < 1e-6
    assert widths[3] > 0.085  # the old fixed share, which "sinistra / destra" did not fit
    assert columns.SLOT_SHARE[0] <= widths[3] <= columns.SLOT_SHARE[1]


def test_german_base_with_both_expansions_fits_on_five_pages(cardsets):
    """It ran to a fifth A4 page holding two rows at 7.2 pt: the bonus "Mache einen weiteren
    Zug" did not fit the bonus column. The species table is printed at 8 pt now (issue 33: the
    least a table is read at), which takes a page more in German and Italian; the columns are
    still split per sheet, so no page is left holding a stray row or two."""
    cset = cardsets["base+alpine+woodland_edge"]
    assert layout.styles().cell.fontSize >= 8 and layout.styles().body.fontSize == 8.6
    for lang in ("de", "it"):
        pages = pdf.page_starts(build_sheet(cset, lang), "a4")
        assert pages.count <= 5, lang
        last_start = max(pages.rows)
        rows = len(build_sheet(cset, lang).all_species) + len(build_sheet(cset, lang).species)
        assert rows - last_start > 5, lang


def test_the_split_ranks_by_lines(cardsets):
    """The estimate the split is chosen by: a greedy wrap; a wider column never needs more
    lines, and the German bonus takes one line in the column chosen for it."""
    sheet = build_sheet(cardsets["base+alpine+woodland_edge"], "de")
    font, size = layout.register().regular, layout.styles().cell.fontSize
    words = ["Mache", "einen", "weiteren", "Zug"]
    frame = layout.page("a4").frame_width
    counts = [columns.lines(words, frame * share - 2 * layout.CELL_PAD, font, size)
              for share in (0.12, 0.16, 0.17, 0.2)]
    assert counts == sorted(counts, reverse=True) and counts[0] > 1
    bonus = templates.species_widths(sheet)[5]
    assert columns.lines(words, frame * bonus - 2 * layout.CELL_PAD, font, size) == 1


# ---- issue 44: an icon never prints over a name ----------------------------------------------
EVERY_SHEET = {"base": ("base", ()), "base+alpine": ("base", ("alpine",)),
               "base+woodland_edge": ("base", ("woodland_edge",)),
               "base+alpine+woodland_edge": ("base", ("alpine", "woodland_edge")),
               "smoky_mountains": ("smoky_mountains", ()), "dartmoor": ("dartmoor", ())}


# a line may run into its cell's own right padding by a hair (measured: at most 0.3 pt, a
# bold name's rounding) without coming near the next column's text, 2 x CELL_PAD away
OVERRUN = layout.CELL_PAD / 2


def _overflowing_icon_lines(sheet) -> list[str]:
    """The lines of table cells that hold an icon and are wider than their column: reportlab
    prints such a line past its width, and the icon lands on the name or the next column's
    text (issue 44: Alpen-Apollofalter, Blauflügel-Prachtlibelle, Dartmoor-Kaninchen)."""
    out = []
    for cell in pdf.story(sheet, measure_only=True).cells:
        if 'class="icon"' not in cell.markup:
            continue
        para = cell.paragraph()
        para.wrap(cell.width, 10_000)
        for line in para.blPara.lines:
            if getattr(line, "extraSpace", 0) < -OVERRUN:
                out.append(f"{cell.text!r} over by {-line.extraSpace:.1f} pt")
        # a row that wraps keeps its icons (issue 44: a Thai name cut finer lost its bird)
        drawn = sum(getattr(f, "cbDefn", None) is not None
                    for line in para.blPara.lines for f in getattr(line, "words", ()))
        wanted = cell.markup.count('class="icon"')
        if drawn != wanted:
            out.append(f"{cell.text!r} draws {drawn} of {wanted} icons")
    return out


@pytest.mark.parametrize("edition", EVERY_SHEET)
@pytest.mark.parametrize("lang", LANGS)
def test_no_icon_runs_over_a_name(edition, lang):
    base, expansions = EVERY_SHEET[edition]
    assert _overflowing_icon_lines(build_sheet(cs.build(base, list(expansions)), lang)) == []
