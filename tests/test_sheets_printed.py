"""What the printed sheet shows, read from the PDF itself with pypdfium2 (issue 44): no last page
holding a few rows, and no icon printed over text. Every shipped edition and combination, in all
four languages, on both papers `grove sheet` offers; each sheet is laid out once for the test
process (the session fixture `laid_out`, tests/sheet_helpers.py).

- The last page: the species table's last page held 2 rows (Dartmoor de), 4 (Smoky Mountains de,
  base with both expansions en), 1 (base with Woodland Edge de); base it ended on a blank page.
  The bar is a third of the page's frame, the lowest printed character's distance from the
  frame's top: a page a reader turns to for a few rows is the fault, and a third of a page is
  some 7 to 10 rows of the table (measured: Dartmoor de's 14 balanced rows fill 64%, base en's
  21 fill 68%), more than the stray row or two a page break leaves, while an evenly filled
  table (each of two or more pages at least half full) stays clear of it.
- The species table's pages: each but the last runs to the bottom margin, short of it only by
  what the next page's first row needed (with the rows the group rule keeps with it) and its
  share of what balancing gave the last page; the rows are counted per page by the cost
  column's numbers. No group has fewer than two rows on either side of a page break (issue 44).
- Icons: every icon is a form object in the PDF (pdf._Canvas.icon_form, the inline icons and the
  slot diagrams' alike); its ink box must not meet the ink box of any printed character.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import pypdfium2 as pdfium
import pytest
from reportlab.platypus import SimpleDocTemplate, Table

from grove.compiler import cardset as cs
from grove.printouts.sheets import catalog, html, layout, pdf
from grove.printouts.sheets.content import build_sheet
from grove.printouts.sheets.thai import SegmentedParagraph

SHEETS = {"base": ("base", ()), "base+alpine": ("base", ("alpine",)),
          "base+woodland_edge": ("base", ("woodland_edge",)),
          "base+alpine+woodland_edge": ("base", ("alpine", "woodland_edge")),
          "smoky_mountains": ("smoky_mountains", ()), "dartmoor": ("dartmoor", ())}
LANGS = ("en", "de", "it", "th")
PAPERS = ("a4", "letter")
CASES = [(s, lang, paper) for s in SHEETS for lang in LANGS for paper in PAPERS]
LEAST = 1 / 3  # of a page's frame, on the last page
TOUCH = 0.1  # points two ink boxes must share, each way, to count as meeting (rounding)
BAND = 20.0  # points: a band of a page, where `overlaps` looks for the icons near a character


def _id(case) -> str:
    return "-".join(case)


@pytest.fixture(scope="module")
def printed(laid_out):
    """(sheet, lang, paper) -> (the PDF's pages, the icons the sheet draws, its species
    table's groups and cost column), each sheet laid out once. The icons: one per icon span
    of the sheet's markup and one per slot diagram's box that shows one (from the story,
    without laying it out)."""
    out = {}
    for key, (edition, exps) in SHEETS.items():
        for lang in LANGS:
            sheet = laid_out.sheet(edition, exps, lang)
            story = pdf.story(sheet, measure_only=True)
            icons = story.xhtml.count('class="icon"') + sum(
                1 for d in story.diagrams for b in d.boxes if b.icon in (sheet.icons or {}))
            table = _table(sheet, story.xhtml)
            for paper in PAPERS:
                out[(key, lang, paper)] = (
                    pdfium.PdfDocument(laid_out.pdf(edition, exps, lang, paper)), icons, table)
    return out


@pytest.fixture(scope="module")
def table_pages(printed):
    """case -> its species table's pages as printed (`_table_pages`), read once: the fill and
    the group tests read the same pages, character by character."""
    @cache
    def of(case: tuple) -> list[_TablePage]:
        doc, _, table = printed[case]
        return _table_pages(doc, case[1], case[2], table)

    return of


@dataclass(frozen=True)
class _Table:
    """What the species table holds, from the sheet: its groups' row counts in order, and where
    its cost column prints (shares of the frame's width), whose one number per row counts the
    rows a page prints."""

    groups: tuple[int, ...]
    cost: tuple[float, float]


def _table(sheet, xhtml: str) -> _Table:
    widths = [float(w) for w in re.search(
        r'<table class="species" data-widths="([^"]+)"', xhtml).group(1).split()]
    return _Table(tuple(len(g.rows) for g in sheet.species), (widths[0], widths[0] + widths[1]))


def _chars(page) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every printed character with its ink box (left, bottom, right, top); blanks left out."""
    tp = page.get_textpage()
    out = []
    for i in range(tp.count_chars()):
        box = tp.get_charbox(i)
        if box[2] - box[0] > 0 and box[3] - box[1] > 0:
            out.append((tp.get_text_range(i, 1), box))
    return out


def _icons(page) -> list[tuple[float, float, float, float]]:
    return [o.get_bounds() for o in page.get_objects() if o.type == pdfium.raw.FPDF_PAGEOBJ_FORM]


def last_page_share(doc: pdfium.PdfDocument, paper: str, page: int = -1) -> float:
    """How far down its frame the last page (or `page`) prints, as a share of the frame's
    height; the running foot (edition and page number, under the frame) left out."""
    frame = layout.page(paper)
    top = frame.height - layout.MARGIN
    bottoms = [box[1] for _, box in _chars(doc[page % len(doc)]) if box[3] > layout.MARGIN]
    return (top - min(bottoms)) / frame.frame_height if bottoms else 0.0


def overlaps(doc: pdfium.PdfDocument) -> list[str]:
    """Each printed character whose ink meets an icon's, with the text around it. A character
    is held only to the icons of the bands of the page its height crosses (`BAND` points high:
    a page has some 3,000 characters and 40 icons)."""
    found = []
    for n in range(len(doc)):
        page = doc[n]
        bands: dict[int, list[tuple[float, float, float, float]]] = {}
        for icon in _icons(page):
            for b in range(int(icon[1] // BAND), int(icon[3] // BAND) + 1):
                bands.setdefault(b, []).append(icon)
        tp = page.get_textpage()
        for i in range(tp.count_chars()):
            left, bottom, right, top = tp.get_charbox(i)
            near = dict.fromkeys(icon for b in range(int(bottom // BAND), int(top // BAND) + 1)
                                 for icon in bands.get(b, ()))
            for il, ib, ir, it in near:
                if (min(right, ir) - max(left, il) > TOUCH
                        and min(top, it) - max(bottom, ib) > TOUCH):
                    around = tp.get_text_range(max(0, i - 10), 20).replace("\n", " ")
                    found.append(f"p.{n + 1} {around!r} at ({il:.0f}, {ib:.0f})")
    return found


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_no_last_page_holds_a_few_rows(printed, case):
    doc, *_ = printed[case]
    share = last_page_share(doc, case[2])
    assert len(doc) == 1 or share >= LEAST, f"{len(doc)} pages, the last {share:.0%} full"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_the_rules_end_on_no_page_of_a_few_lines(printed, case):
    """The rules' last page (the page before the species table's heading starts a page),
    where the rules take more than one, holds a third of a page too."""
    doc, *_ = printed[case]
    heading = catalog.translations(case[1]).gettext("All species")
    starts = [n for n in range(len(doc)) if heading in
              [ln.strip() for ln in doc[n].get_textpage().get_text_range().splitlines()]]
    assert starts, heading
    rules = starts[0]
    assert rules == 1 or last_page_share(doc, case[2], rules - 1) >= LEAST


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_no_icon_meets_a_text(printed, case):
    """And every icon the sheet draws is in the PDF: a row that wraps keeps its icon (issue 44:
    Smoky th's yellow-bellied sapsucker lost its bird)."""
    doc, icons, _ = printed[case]
    assert sum(len(_icons(doc[n])) for n in range(len(doc))) == icons > 50
    assert overlaps(doc) == []


def test_the_check_sees_an_icon_printed_over_a_name(tmp_path):
    """The fault the issue found, made on purpose: a name too wide for its column, its icon
    after it on the same line, prints past the column onto the next cell's text."""
    style = layout.for_text(layout.styles().cell, "")
    icon = '<span class="icon" data-icon="tree"></span>'
    sheet = build_sheet(cs.build("base", []), "en")
    name = pdf.with_icons(f"<b>Prachtlibelle</b>&#160;{icon}", 9.6)
    table = Table([[SegmentedParagraph(name, style), SegmentedParagraph("Kosten", style)]],
                  colWidths=[45, 60])
    path = tmp_path / "over.pdf"
    canvas = type("C", (pdf._Canvas,), {"icons": dict(sheet.icons)})
    SimpleDocTemplate(str(path)).build([table], canvasmaker=canvas)
    doc = pdfium.PdfDocument(path.read_bytes())
    assert len(_icons(doc[0])) == 1
    assert overlaps(doc)
    # and the same name in a column wide enough is clear
    table = Table([[SegmentedParagraph(name, style), SegmentedParagraph("Kosten", style)]],
                  colWidths=[140, 60])
    SimpleDocTemplate(str(path)).build([table], canvasmaker=canvas)
    assert overlaps(pdfium.PdfDocument(path.read_bytes())) == []


def test_the_last_page_check_sees_a_stray_row(laid_out):
    """A long table on full pages, then one row on a page of its own, fails the bar; the same
    rows spread by `pdf._build` pass it."""
    # base with Woodland Edge, de: 2 rows on its fifth page (Dartmoor de, the first found, now
    # fits four full pages)
    sheet = laid_out.sheet("base", ("woodland_edge",), "de")
    doc = pdfium.PdfDocument(pdf._laid_out(sheet, "a4", None).data)
    assert last_page_share(doc, "a4") < LEAST
    balanced = pdfium.PdfDocument(laid_out.pdf("base", ("woodland_edge",), "de", "a4"))
    assert len(balanced) == len(doc) and last_page_share(balanced, "a4") >= LEAST


def test_rules_that_spill_are_set_closer_on_paper_and_in_the_print_styles(laid_out):
    """Letter's page is 50 pt shorter than A4's: the German Smoky Mountains rules ran 4 lines
    onto a second page (issue 44), and since the rules grew (winter, start player, permanent
    effects) they spill on A4 too. They are set closer there, on one page, and the HTML page's
    print styles set them as closely; the base game's English rules fit at full spacing and
    stay so."""
    smoky = ("smoky_mountains", (), "de")
    for paper in ("letter", "a4"):
        starts = laid_out.page_starts(*smoky, paper)
        assert starts.tight
        assert starts.blocks == frozenset()  # no rules block starts a second page
        assert html.TIGHT_CSS in laid_out.html(*smoky, paper)
    assert not laid_out.page_starts("base", (), "en", "a4").tight
    assert html.TIGHT_CSS not in laid_out.html("base", (), "en", "a4")


def _set_up_lines(sheet) -> list[str]:
    """The set-up section's heading and the start of each of its bullets, as printed."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(pdf.story(sheet, measure_only=True).xhtml)
    heading = catalog.translations(sheet.lang).gettext("Setup")
    items = next(e for e in root.iter("ul") if e.get("class") == "setup")
    return [heading] + [" ".join("".join(li.itertext()).split())[:8] for li in items]


def _hits(page, text: str) -> list[tuple[float, float]]:
    """(left, top) of each printed occurrence of `text` on `page` (PDF points from the foot)."""
    tp = page.get_textpage()
    searcher = tp.search(text, match_case=True)
    found = []
    while (hit := searcher.get_next()) is not None:
        left, _, _, top = tp.get_charbox(hit[0])
        found.append((left, top))
    return found


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_the_set_up_never_leaves_a_bullet_alone(printed, laid_out, case):
    """Issue 44: Smoky Mountains de ended its set-up with two bullets at the top of the right
    column, and a set-up bullet must never stand alone at the top of the next column. Read from
    the PDF (pypdfium2): on the rules' first page, the set-up's heading stands with its first
    bullet, the bullets follow in reading order (left column, then right), and where they
    continue in the next column, at least two go there."""
    doc, *_ = printed[case]
    key, lang, paper = case
    sheet = laid_out.sheet(*SHEETS[key], lang)
    middle = layout.page(paper).width / 2
    at: list[tuple[int, float]] = []  # (column, top) of the heading and each bullet
    for text in _set_up_lines(sheet):
        hits = sorted(((int(x >= middle), -y) for x, y in _hits(doc[0], text)))
        after = [h for h in hits if not at or h > at[-1]]
        assert after, (text, at)
        at.append(after[0])
    columns = [c for c, _ in at]
    assert columns[0] == columns[1], "the set-up's heading ends its column"
    if columns[-1] != columns[0]:
        assert columns.count(columns[-1]) >= 2, f"one bullet alone in the next column: {at}"


@dataclass(frozen=True)
class _TablePage:
    """One page of the species table as printed, in points from the page's foot: the top of
    each row's cost number (top row first), the top of the line just above the first row (its
    group's heading), and the bottom of the lowest printed character (the running foot left
    out)."""

    rows: tuple[float, ...]
    heading: float
    bottom: float


def _table_pages(doc: pdfium.PdfDocument, lang: str, paper: str,
                 table: _Table) -> list[_TablePage]:
    heading = catalog.translations(lang).gettext("All species")
    first = next(n for n in range(len(doc)) if heading in [
        ln.strip() for ln in doc[n].get_textpage().get_text_range().splitlines()])
    frame = layout.page(paper).frame_width
    left, right = (layout.MARGIN + frame * share for share in table.cost)
    out = []
    for n in range(first, len(doc)):
        printed = _chars(doc[n])
        chars = [box for _, box in printed if box[3] > layout.MARGIN]
        tops: list[float] = []
        for ch, box in printed:
            # a cost of two digits is one row; a cave's cost is a dash
            if ((ch.isdigit() or ch == "–") and left < (box[0] + box[2]) / 2 < right
                    and all(abs(t - box[3]) > 1 for t in tops)):
                tops.append(box[3])
        tops.sort(reverse=True)
        above = [box for box in chars if box[1] > tops[0] + 0.5] if tops else []
        line = min((box[1] for box in above), default=0.0)
        out.append(_TablePage(tuple(tops), max((box[3] for box in above if box[1] < line + 2),
                                               default=0.0), min(box[1] for box in chars)))
    return out


def _breaks(pages: list[_TablePage], table: _Table):
    """Each page break of the species table: (page before it, rows of the break's group before
    it, rows of that group after it, the group's rows). A break before a group's heading has
    0 rows before it."""
    starts, at = [], 0
    for size in table.groups:
        starts.append(at)
        at += size
    assert sum(len(p.rows) for p in pages) == at, "a species row the check did not find"
    done = 0
    for n, page in enumerate(pages[:-1]):
        done += len(page.rows)
        g = max(i for i, s in enumerate(starts) if s <= done)
        yield n, done - starts[g], starts[g] + table.groups[g] - done, table.groups[g]


def _moved(page: _TablePage, before: int, after: int, size: int) -> float:
    """The height of what would have to move back over the break with the page's first row:
    that row, or under the group rule (pdf.group_break) the rows kept with it and, where the
    group starts on this page, its heading. The last row on a page is as tall as its text
    reaches, and 4 points of padding."""
    least = layout.GROUP_ROWS_AT_BREAK
    if before == 0:
        rows = size if size <= layout.GROUP_KEPT_WHOLE or size - least < least else least
    else:
        rows = 1 if after - 1 >= least else after
    tops = [*page.rows, page.bottom - 4]
    top = page.heading if before == 0 else tops[0]
    return top - tops[min(rows, len(page.rows))]


ROOM = 0.02  # of a page's frame: the room under a row's last line, and a step of the balancing


def _foot_gaps(pages: list[_TablePage], paper: str, table: _Table) -> list[str]:
    """Each page of the species table but the last that ends higher above its frame's bottom
    than the first row of the next page (with what the group rule keeps with it) needed, plus
    its share of what the last page lacked (where the table's pages are made shorter so that
    the last holds a third: what the table's pages hold, less the pages before the last, is
    what the last would hold with every page full), plus `ROOM`."""
    height = layout.page(paper).frame_height
    fills = [(layout.MARGIN + height - p.bottom) / height for p in pages]
    k = len(pages)
    lack = max(0.0, layout.LEAST_LAST_PAGE - (sum(fills) - (k - 1))) / max(k - 1, 1)
    found = []
    for n, before, after, size in _breaks(pages, table):
        gap = (pages[n].bottom - layout.MARGIN) / height
        moved = _moved(pages[n + 1], before, after, size) / height
        if gap > moved + lack + ROOM:
            found.append(f"table page {n + 1}: {gap:.0%} empty at its foot, where the next "
                         f"page's first row took {moved:.0%} (and balancing {lack:.0%})")
    return found


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_the_species_table_fills_its_pages(printed, table_pages, case):
    """Every page of the species table but the last runs down to the bottom margin, short of it
    only by what the next row needed (issue 44: Smoky Mountains de and Dartmoor de ended every
    table page some 20% above the footer, the rows spread evenly over the pages)."""
    assert _foot_gaps(table_pages(case), case[2], printed[case][2]) == []


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_no_group_has_a_single_row_at_a_page_break(printed, table_pages, laid_out, case):
    """A group of the species table (Trees, Top halves, ...) has at least two rows on each side
    of a page break, and a group of five rows or fewer (Dartmoor's caves) is not parted (issue
    44: base de and Smoky en and th carried one "Top halves" row over, under its repeated
    heading; Dartmoor de began "Bottom halves" with one row at a page's foot), unless keeping
    them together would cost the sheet a page (Smoky Mountains th on Letter)."""
    doc, _, table = printed[case]
    if _parted(table_pages(case), table):
        sheet = laid_out.sheet(*SHEETS[case[0]], case[1])
        assert laid_out.built(*SHEETS[case[0]], *case[1:]).keep_groups is False
        assert pdf._laid_out(sheet, case[2], None, keep_groups=True).count > len(doc)


def _parted(pages: list[_TablePage], table: _Table) -> list[str]:
    """Each page break that parts a group with fewer than two rows on one side, or parts a group
    of five rows or fewer."""
    return [f"after table page {n + 1}: {before} rows of a group of {size}, {after} after"
            for n, before, after, size in _breaks(pages, table)
            if before and (size <= 5 or min(before, after) < 2)]


def test_the_group_check_sees_a_single_row():
    """Without the group rule, Smoky Mountains en carried one "Top halves" row over (issue 44):
    the check finds it."""
    sheet = build_sheet(cs.build("smoky_mountains", []), "en")
    table = _table(sheet, pdf.story(sheet, measure_only=True).xhtml)
    doc = pdfium.PdfDocument(pdf._laid_out(sheet, "a4", None, keep_groups=False).data)
    assert _parted(_table_pages(doc, "en", "a4", table), table)


def test_the_fill_check_sees_pages_spread_evenly():
    """The layout the readers found, every page of Smoky Mountains de's table made 17% shorter
    so that its rows spread evenly, fails the check; the sheet as rendered passes it."""
    sheet = build_sheet(cs.build("smoky_mountains", []), "de")
    table = _table(sheet, pdf.story(sheet, measure_only=True).xhtml)
    height = layout.page("a4").frame_height
    even = pdfium.PdfDocument(pdf._laid_out(sheet, "a4", 0.83 * height).data)
    assert len(_foot_gaps(_table_pages(even, "de", "a4", table), "a4", table)) >= 2


# a table of one heading row: the heading of a group of 8 rows at 1, of one of 9 rows at 10
@pytest.mark.parametrize(("n", "groups", "rows", "expected"), [
    (13, (1, 10), 20, 13),  # 2 rows of the second group before the break, 7 after: stays
    (12, (1, 10), 20, 10),  # 1 row before it: the heading goes to the next page with it
    (19, (1, 10), 20, 18),  # 1 row would go on alone: 2 go
    (9, (1, 10), 20, 8),  # the first group's last row would go on alone
    (8, (1, 10), 20, 8),
    (10, (1, 10), 20, 10),  # before a heading
    (7, (1, 4, 10), 20, 4),  # a group of 5 rows (5 to 9) is not parted
    (11, (1,), 12, 10),  # a group that starts the page keeps 2 rows for the next
    (3, (1, 10), 20, 3),  # only one row fits under the first heading: reportlab's break
    (5, (1,), 7, 5),  # a group of 5 that does not fit on its page breaks 3 + 2
])
def test_a_group_breaks_with_two_rows_on_each_side(n, groups, rows, expected):
    assert pdf.group_break(n, groups, rows, 1) == expected
