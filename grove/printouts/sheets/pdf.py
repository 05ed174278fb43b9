"""The sheet's XHTML blocks -> reportlab flowables -> PDF bytes.

The templates decide what is said and in which order; this module only maps a handful of block
elements (h1-h3, p, ul/ol, table, figure) onto reportlab's own flowables and page templates.
Inline markup (b, i, br) is passed through to `Paragraph` unchanged.
"""

from __future__ import annotations

import dataclasses
import re
import threading
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cache
from io import BytesIO
from pathlib import Path
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas as canvas_mod
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    FrameBreak,
    KeepTogether,
    LayoutError,
    ListFlowable,
    ListItem,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Spacer,
    Table,
    TableStyle,
)

from grove.printouts.sheets import layout, templates, textlayer, thai
from grove.printouts.sheets.content import Sheet
from grove.printouts.sheets.diagrams import Diagram
from grove.printouts.sheets.diagrams import layout as diagram_layout
from grove.printouts.sheets.draw import DiagramFlowable
from grove.printouts.sheets.fonts import register, require_shaping, with_fallback
from grove.printouts.sheets.icons import draw as draw_icon
from grove.printouts.sheets.thai import SegmentedParagraph

_ICON_SPAN = re.compile(r'<span class="icon" data-icon="([^"]+)"\s*(?:/>|></span>)')
PIXEL = Path(__file__).resolve().parent / "pixel.png"
_icon_uris: dict[str, str] = {}  # symbol id -> the placeholder image that stands for its icon
_uri_icons: dict[str, str] = {}  # and back
_naming = threading.Lock()


def _placeholder(symbol: str) -> str:
    """The file name of a one-pixel image that stands for a symbol's icon in paragraph markup:
    reportlab lays out <img> inline with the text, and `_Canvas` draws the icon in its place.
    Every symbol spells the path of the same file its own way ("sheets/./././pixel.png"), so
    the name tells the canvas which icon it is. Named under a lock: the server draws card
    faces in threads, and two symbols given one number would draw each other's icon."""
    with _naming:
        uri = _icon_uris.get(symbol)
        if uri is None:
            uri = str(PIXEL.parent) + "/." * (len(_icon_uris) + 1) + "/" + PIXEL.name
            _icon_uris[symbol], _uri_icons[uri] = uri, symbol
    return uri


def placeholder_symbol(file_name: object) -> str | None:
    """The symbol a placeholder image stands for (None for any other image)."""
    return _uri_icons.get(file_name) if isinstance(file_name, str) else None


def with_icons(markup: str, size: float) -> str:
    """Paragraph markup with the template's icon spans as inline images of `size` points
    (and a little room after each)."""
    if 'class="icon"' not in markup:
        return markup
    return _ICON_SPAN.sub(lambda m: f'<img src="{_placeholder(m.group(1))}" '
                          f'width="{size * ICON_ROOM:.2f}" height="{size:.2f}" valign="middle"/>',
                          markup)


ICON_SCALE, ICON_ROOM = layout.ICON_SCALE, layout.ICON_ROOM


class _Canvas(canvas_mod.Canvas):
    """The sheet's canvas: it draws the icon a placeholder image stands for, each icon once
    per document as a form that every place it appears refers to."""

    icons: dict = {}

    def drawImage(self, image, x, y, width=None, height=None, *args, **kw):  # noqa: N802
        symbol = placeholder_symbol(getattr(image, "fileName", None))
        icon = self.icons.get(symbol) if symbol else None
        if icon is None:
            return super().drawImage(image, x, y, width, height, *args, **kw)
        self.icon_form(symbol, icon[0], x, y, height)
        return (width, height)

    def icon_form(self, symbol: str, icon, x: float, y: float, size: float) -> None:
        """Draw `icon` `size` points square at (x, y), as the form of its symbol (made on
        first use). A slot diagram's icons are drawn so too: every icon of the sheet is a form
        object in the PDF, which is how tests/test_sheets_printed.py finds their boxes."""
        forms = self.__dict__.setdefault("_icon_forms", set())
        name = "icon_" + re.sub(r"[^A-Za-z0-9]", "_", symbol)
        if name not in forms:
            self.beginForm(name, 0, 0, 24, 24)
            draw_icon(self, icon, 0, 0, 24)
            self.endForm()
            forms.add(name)
        self.saveState()
        self.translate(x, y)
        self.scale(size / 24, size / 24)
        self.doForm(name)
        self.restoreState()


class GroupedTable(Table):
    """A table whose group heading rows (`group_rows`: "Trees", "Top halves") are repeated,
    under the repeated column headings, where a group continues on a new page."""

    group_rows: tuple[int, ...] = ()
    keep_groups: bool = True  # the group rule below; off where it would cost the sheet a page

    def _getFirstPossibleSplitRowPosition(self, availHeight, ignoreSpans=0):  # noqa: N802, N803
        """reportlab's last row that fits, moved up where the break would leave a group a single
        row on either side of it (issue 44: base de, Smoky en and th carried one "Top halves"
        row over under its repeated heading; Dartmoor de began "Bottom halves" with one row at
        a page's foot), or would part a short group (Dartmoor's caves)."""
        n = super()._getFirstPossibleSplitRowPosition(availHeight, ignoreSpans)
        if not self.keep_groups:
            return n
        head = self.repeatRows  # in `_splitRows` below: the heading rows and a group's heading
        head = head if isinstance(head, int) else len(head) - 1
        return group_break(n, self.group_rows, len(self._rowHeights), head)

    def _splitRows(self, availHeight, doInRowSplit=0):  # noqa: N802, N803 - reportlab's names
        head = self.repeatRows
        n = self._getFirstPossibleSplitRowPosition(availHeight, ignoreSpans=doInRowSplit)
        group = max((g for g in self.group_rows if head <= g < n), default=None)
        if not isinstance(head, int) or group is None or n in self.group_rows:
            parts = super()._splitRows(availHeight, doInRowSplit)
            after = [g - n + head for g in self.group_rows if g >= n]
        else:
            self.repeatRows = (*range(head), group)
            try:
                parts = super()._splitRows(availHeight, doInRowSplit)
            finally:
                self.repeatRows = head
            after = [head] + [g - n + head + 1 for g in self.group_rows if g >= n]
        if len(parts) == 2:
            parts[1].repeatRows = head
            parts[1].group_rows = tuple(after)
            parts[0].group_rows = tuple(g for g in self.group_rows if g < n)
            parts[0].keep_groups = parts[1].keep_groups = self.keep_groups
            if self.group_rows:  # the rest starts the next page: where the group rule broke
                # early, it fit under the first part and split there again (Dartmoor th, Letter)
                return [parts[0], FrameBreak, parts[1]]
        return parts


def group_break(n: int, groups: tuple[int, ...], rows: int, head: int) -> int:
    """Where a table of `rows` rows, its group headings at `groups` and `head` heading rows
    repeated on every page, breaks instead of before row `n` (the last that fits): no group with
    fewer than `layout.GROUP_ROWS_AT_BREAK` rows on one side of the break, no group of
    `layout.GROUP_KEPT_WHOLE` rows or fewer parted. A group that starts at the top of the page
    and breaks anyway (it does not fit on a page) keeps the first rule if it can, else breaks
    where reportlab found."""
    if n >= rows or n in groups or n <= head:
        return n
    g = max((x for x in groups if x < n), default=None)
    if g is None:
        return n
    end = min((x for x in groups if x > g), default=rows)
    least, size = layout.GROUP_ROWS_AT_BREAK, end - g - 1
    before, after = n - g - 1, end - n
    if size <= layout.GROUP_KEPT_WHOLE or before < least:
        better = g
    elif after < least:
        better = end - least if end - least - g - 1 >= least else g
    else:
        return n
    if better > head:
        return better
    # the group starts the page: only the rows after its heading may move
    if before >= least and after < least and end - least - g - 1 >= least:
        return end - least
    return n


def _fitted(style: ParagraphStyle, text: str, width: float) -> ParagraphStyle:
    """`style`, its size lowered (to 70% at most) so that `text` fits on one line of `width`:
    "Forest Shuffle: Smoky Mountains" broke before its last word in English."""
    need = stringWidth(text, style.fontName, style.fontSize)
    if need <= width:
        return style
    size = max(style.fontSize * 0.7, style.fontSize * width / need * 0.98)
    return ParagraphStyle(f"{style.name}-fitted", parent=style, fontSize=size,
                          leading=style.leading * size / style.fontSize)


def inner(elem: ET.Element) -> str:
    """An element's content as paragraph markup (its own tag left out)."""
    return escape(elem.text or "") + "".join(ET.tostring(c, encoding="unicode") for c in elem)


@dataclass(frozen=True)
class Cell:
    """A table cell, kept for the overflow check: its markup, style and the width it has."""

    markup: str
    style: ParagraphStyle
    width: float
    table: str
    row: int
    col: int
    key: str | None  # the species of the row, where the template says (data-key)
    text: str  # the plain text

    words: frozenset[str] = frozenset()  # the sheet's names (thai.dictionary_words)

    def paragraph(self) -> SegmentedParagraph:
        return SegmentedParagraph(with_icons(self.markup, self.style.fontSize * ICON_SCALE),
                                  layout.for_text(self.style, self.markup), words=self.words)


@dataclass(frozen=True)
class Story:
    flowables: tuple[Flowable, ...]
    cells: tuple[Cell, ...]  # every paragraph in a fixed-width table column
    diagrams: tuple[Diagram, ...]
    page: layout.Page
    xhtml: str
    rows_drawn: list = dataclasses.field(default_factory=list, compare=False)
    blocks_drawn: list = dataclasses.field(default_factory=list, compare=False)
    tight: bool = False  # the rules set closer
    keep_groups: bool = True  # the species table's group rule


class _Noted(SegmentedParagraph):
    """A paragraph that notes the page it is drawn on under a key (a row of the species table,
    a block of the rules section), so the HTML page can start its pages where the PDF does."""

    def __init__(self, markup: str | None, style, sink: list | None = None, key=None,
                 words: frozenset[str] = frozenset(), **kw):
        if sink is None:  # a part of a split paragraph, as reportlab's Paragraph.split makes it
            super().__init__(markup, style, words=words, **kw)
        else:
            super().__init__(with_icons(markup or "", style.fontSize * ICON_SCALE), style,
                             words=words)
        self._sink, self._key = sink, key

    def split(self, availWidth, availHeight):  # noqa: N803 - reportlab's names
        """A paragraph the rules set closer may break across columns: each part notes its
        page under the same key."""
        parts = super().split(availWidth, availHeight)
        for part in parts:
            if part is not self:
                part._sink, part._key, part._words = self._sink, self._key, self._words
        return parts

    def draw(self) -> None:
        if self._sink is not None:  # and the frame ("left", "right"): where a list parts
            frame = getattr(getattr(self.canv, "_doctemplate", None), "frame", None)
            self._sink.append((self._key, self.canv.getPageNumber(), getattr(frame, "id", "")))
        super().draw()


class _Builder:
    """Blocks -> flowables; with `measure_only`, just the table cells and diagrams (for lint)."""

    def __init__(self, sheet: Sheet, page: layout.Page, measure_only: bool = False,
                 tight: bool = False, keep_groups: bool = True):
        self.sheet = sheet
        self.keep_groups = keep_groups
        self.page = page
        self.measure_only = measure_only
        self.st = layout.styles(tight)
        self.cells: list[Cell] = []
        self.diagrams: list[Diagram] = []
        self.rows_drawn: list[tuple[int, int, str]] = []  # (body row of the long table, page, frame)
        self.blocks_drawn: list[tuple[tuple[int, int], int, str]] = []  # ((block, item), page, frame)
        self.at: tuple[int, int] | None = None  # the rules block (and list item) being built
        self.top: ET.Element | None = None  # that block

    def para(self, markup: str, style) -> SegmentedParagraph:
        if self.at is not None:
            return _Noted(markup, layout.for_text(style, markup), self.blocks_drawn, self.at,
                          self.sheet.words)
        return SegmentedParagraph(with_icons(markup, style.fontSize * ICON_SCALE),
                                  layout.for_text(style, markup), words=self.sheet.words)

    def blocks(self, parent: ET.Element, width: float) -> list[Flowable]:
        out: list[Flowable] = []
        for e in parent:
            out.extend(self.block(e, width))
        return out

    def block(self, e: ET.Element, width: float) -> list[Flowable]:
        st = self.st
        tag, cls = e.tag, e.get("class", "")
        if self.measure_only and tag in ("h1", "h2", "h3", "p", "ul", "ol"):
            return []
        if tag == "header":
            return self.blocks(e, width)
        if tag == "h1":
            return [self.para(inner(e), _fitted(st.title, "".join(e.itertext()), width))]
        if tag in ("h2", "h3"):
            return [self.para(inner(e), getattr(st, tag))]
        if tag == "p":
            return [self.para(inner(e), st.subtitle if cls == "subtitle" else st.body)]
        if tag in ("ul", "ol"):
            items = []
            for j, li in enumerate(x for x in e if x.tag == "li"):
                if self.at is not None and e is self.top:  # a list of the rules section
                    self.at = (self.at[0], j)
                items.append(ListItem(self.para(inner(li), st.bullet)))
            kind = dict(bulletType="1", bulletFormat="%s.") if tag == "ol" else dict(
                bulletType="bullet", start="•")

            def listed(part: list, first: int, after: float) -> ListFlowable:
                more = dict(start=first) if tag == "ol" else {}
                return ListFlowable(part, leftIndent=11, bulletFontName=st.body.fontName,
                                    bulletFontSize=st.body.fontSize - 1, spaceAfter=after,
                                    **{**kind, **more})
            if len(items) < 3:
                return [listed(items, 1, 3)]
            # the last item goes to a new column only with the one before it: a set-up bullet
            # stood alone at the top of the next column (issue 44, Smoky Mountains de)
            return [listed(items[:-2], 1, 0),
                    KeepTogether([listed(items[-2:], len(items) - 1, 3)])]
        if tag == "table":  # and room under its last rule, which the next bullets touched
            return [self.table(e, width), Spacer(1, 4)]
        if tag == "div" and "figures" in cls:
            return [self.figures(e, width)]
        if tag == "div" and "keep" in cls:
            return [KeepTogether(self.blocks(e, width))]
        return self.blocks(e, width)

    def table(self, e: ET.Element, width: float) -> Table:
        st = self.st
        fractions = [float(x) for x in (e.get("data-widths") or "").split()]
        widths = [width * f for f in fractions]
        name = e.get("class", "table")
        rows: list[list] = []
        style: list[tuple] = [
            # the font a cell's own drawing is set in (its paragraphs carry theirs): reportlab's
            # default, Helvetica, was named in every PDF without being embedded
            ("FONT", (0, 0), (-1, -1), st.cell.fontName, st.cell.fontSize),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), layout.CELL_PAD),
            ("RIGHTPADDING", (0, 0), (-1, -1), layout.CELL_PAD),
            ("TOPPADDING", (0, 0), (-1, -1), 1.6),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2.2),
            ("LINEBELOW", (0, 0), (-1, -1), 0.3, layout.RULE),
        ]
        head_rows = 0
        groups: list[int] = []
        for section in e:
            for tr in section:
                r = len(rows)
                row: list = []
                for c, cell in enumerate(tr):
                    numeric = "num" in cell.get("class", "")
                    if section.tag == "thead":
                        pst = st.head_num if numeric else st.head
                    elif "group" in tr.get("class", ""):
                        pst = st.group
                    else:
                        pst = st.cell_num if numeric else st.cell
                    span = int(cell.get("colspan", "1"))
                    markup = inner(cell)
                    cw = sum(widths[c:c + span]) - 2 * layout.CELL_PAD
                    self.cells.append(Cell(markup, pst, cw, name, r, c, tr.get("data-key"),
                                           "".join(cell.itertext()), self.sheet.words))
                    if self.measure_only:
                        row.append(None)
                    elif c == 0 and section.tag == "tbody" and e.get("data-repeat"):
                        row.append(_Noted(markup, layout.for_text(pst, markup),
                                          self.rows_drawn, r - head_rows, self.sheet.words))
                    else:
                        row.append(self.para(markup, pst))
                    row.extend([""] * (span - 1))
                    if span > 1:
                        style.append(("SPAN", (c, r), (c + span - 1, r)))
                if section.tag == "thead":
                    head_rows += 1
                    style.append(("BACKGROUND", (0, r), (-1, r), layout.ACCENT))
                elif "group" in tr.get("class", ""):
                    style.append(("BACKGROUND", (0, r), (-1, r), layout.BAND))
                    style.append(("NOSPLIT", (0, r), (-1, r + 1)))  # a heading keeps a row
                    groups.append(r)
                rows.append(row)
        repeat = head_rows if e.get("data-repeat") else 0
        t = GroupedTable(rows, colWidths=widths, repeatRows=repeat, hAlign="LEFT", splitByRow=1)
        t.group_rows = tuple(groups) if repeat else ()
        t.keep_groups = self.keep_groups
        t.setStyle(TableStyle(style))
        return t

    def figures(self, e: ET.Element, width: float) -> Flowable:
        labels = templates.labels(self.sheet.lang)
        hosts = {h.id: h for h in self.sheet.hosts}
        font = register().regular
        cells = []
        for fig in e.iter("figure"):
            host = hosts.get(fig.get("data-host", ""))
            if host is None:
                continue
            d = diagram_layout(host, labels)
            self.diagrams.append(d)
            caption = next((c for c in fig if c.tag == "figcaption"), None)
            captioned = caption is not None and not self.measure_only
            cells.append((DiagramFlowable(d, font, self.sheet.icons),
                          self.para(inner(caption), self.st.caption) if captioned else ""))
        if not cells:
            return KeepTogether([])
        widest = max(d.width for d in self.diagrams[-len(cells):]) + 6  # room between two
        per_row = max(1, min(len(cells), int(width // widest)))
        cw = width / per_row
        # a row of diagrams, then a row of their captions: the diagrams of a row stand on one
        # line whatever their captions' lengths (Dartmoor's tree and shrub stood apart)
        grid: list[list] = []
        style: list[tuple] = [("FONT", (0, 0), (-1, -1), font, self.st.caption.fontSize),
                              ("ALIGN", (0, 0), (-1, -1), "CENTER")]
        for i in range(0, len(cells), per_row):
            row = cells[i:i + per_row] + [("", "")] * (per_row - len(cells[i:i + per_row]))
            r = len(grid)
            grid += [[c[0] for c in row], [c[1] for c in row]]
            # Thai stacks its vowel and tone marks above the line, into the box above a caption
            # set flush under it (issue 44): room for them
            marks = any(thai.has_thai(c[1].getPlainText()) for c in row if c[1])
            style += [("VALIGN", (0, r), (-1, r), "BOTTOM"), ("VALIGN", (0, r + 1), (-1, r + 1), "TOP"),
                      ("BOTTOMPADDING", (0, r), (-1, r), 3),
                      ("TOPPADDING", (0, r + 1), (-1, r + 1), 2.5 if marks else 0),
                      ("BOTTOMPADDING", (0, r + 1), (-1, r + 1), 4)]
        t = Table(grid, colWidths=[cw] * per_row, hAlign="LEFT")
        t.setStyle(TableStyle(style))
        return t


def story(sheet: Sheet, paper: str = "a4", measure_only: bool = False,
          tight: bool = False, keep_groups: bool = True) -> Story:
    """The flowables of a sheet, and what the overflow check needs to know about them
    (`measure_only`: no flowables, only that; `tight`: the rules set closer; `keep_groups`:
    the species table keeps two rows of a group on each side of a page break)."""
    page = layout.page(paper)
    xhtml = with_fallback(templates.render_sheet(sheet))
    root = ET.fromstring(xhtml)
    b = _Builder(sheet, page, measure_only, tight, keep_groups)
    out: list[Flowable] = []
    for part in root:
        if part.tag == "section" and "species" in part.get("class", ""):
            out += [NextPageTemplate("wide"), PageBreak()]
            out += b.blocks(part, page.frame_width)
        elif part.tag == "section":
            for i, child in enumerate(part):
                b.at, b.top = (i, -1), child
                out += b.block(child, page.column_width)
            b.at = None
        else:
            out += b.blocks(part, page.column_width)
    while out and isinstance(out[-1], Spacer):  # room after the last table, where nothing
        out.pop()  # follows, began a blank page when that table filled its last (base it)
    return Story(tuple(out), tuple(b.cells), tuple(b.diagrams), page, xhtml, b.rows_drawn,
                 b.blocks_drawn, tight, keep_groups)


def _footer(sheet: Sheet, page: layout.Page):
    font = register().regular

    def draw(canvas, doc) -> None:
        canvas.saveState()
        canvas.setFont(font, 6.8)
        canvas.setFillColor(colors.HexColor("#6b786a"))
        y = layout.MARGIN - 14
        canvas.drawString(layout.MARGIN, y, sheet.edition, shaping=True)
        canvas.drawRightString(page.width - layout.MARGIN, y, str(doc.page))
        canvas.restoreState()

    return draw


def render(sheet: Sheet, paper: str = "a4") -> bytes:
    """The PDF of one sheet. Invariant mode: the same sheet gives the same bytes."""
    return _build(sheet, paper).data


@dataclass(frozen=True)
class Pages:
    """Where the PDF starts its pages, for the HTML page's print styles: `rows`, body rows of
    the species table that start a page (other than the table's first); `blocks`, (child of
    the rules section, item of that child's list or -1) that start one (other than the first);
    `tight`, the rules are set closer (layout.styles)."""

    count: int
    rows: frozenset[int]
    blocks: frozenset[tuple[int, int]]
    tight: bool = False


def _starts(drawn: list) -> frozenset:
    first: dict[int, int] = {}
    for item, page, *_ in drawn:
        first.setdefault(item, page)
    items = sorted(first.items())
    return frozenset(i for (i, p), (_, before) in zip(items[1:], items, strict=False)
                     if p > before)


def page_starts(sheet: Sheet, paper: str = "a4") -> Pages:
    built = _build(sheet, paper)
    return Pages(built.count, _starts(built.rows), _starts(built.blocks), built.tight)


class _Doc(BaseDocTemplate):
    """A document that notes how far down its frame the last flowable ended."""

    used: float = 0.0  # points of the last page's frame taken, from its top

    def afterFlowable(self, flowable) -> None:  # noqa: N802 - reportlab's name
        frame = self.frame  # None after a page break, before the next page begins
        if frame is not None:
            self.used = frame._y2 - frame._topPadding - frame._y


@dataclass(frozen=True)
class _Built:
    data: bytes
    count: int
    rows: list
    blocks: list
    used: float  # of the last page's frame, in points
    tight: bool  # the rules set closer
    keep_groups: bool = True  # the table's group rule (GroupedTable.keep_groups)

    @property
    def rules_pages(self) -> int:
        return min((p for _, p, *_ in self.rows), default=self.count + 1) - 1

    @property
    def parted_lists(self) -> int:
        """Lists of the rules whose items are drawn in more than one column: the set-up's
        last bullets at the top of the next column (issue 44, Smoky Mountains de)."""
        where: dict[int, set] = {}
        for (block, item), page, frame in self.blocks:
            if item >= 0:
                where.setdefault(block, set()).add((page, frame))
        return sum(1 for frames in where.values() if len(frames) > 1)


def _build(sheet: Sheet, paper: str) -> _Built:
    """The PDF, its page count and where its pages start. The species table fills its pages to
    the bottom margin; where its last page would hold only a few rows (issue 44: Dartmoor de
    printed 2 rows on a fifth page), every page of the table is made shorter by the least that
    moves enough rows onto the last page, never by more than `layout.BALANCE_MOST` of a page
    (an even spread left every page of Smoky de and Dartmoor de 20% empty at the foot). The
    rules are set closer where that saves them a page (issue 44: Smoky Mountains de on US
    Letter ran 4 lines onto a second page). The table's group rule (two rows of a group on
    each side of a break) gives way where it would cost a page."""
    # the passes that differ only in the table's frame height share a story (a third of a
    # pass): reportlab wraps and splits its flowables anew at every build
    @cache
    def variant(tight: bool, keep_groups: bool) -> Story:
        return story(sheet, paper, tight=tight, keep_groups=keep_groups)

    def laid_out(wide: float | None, tight: bool = False, keep_groups: bool = True) -> _Built:
        return _drawn(sheet, variant(tight, keep_groups), wide)

    full = laid_out(None)
    if full.rules_pages > 1 or full.parted_lists:
        # set closer where that saves the rules a page, or keeps a list in one column
        # without costing one (issue 44: Smoky Mountains de's last two set-up bullets)
        tight = laid_out(None, tight=True)
        if tight.rules_pages < full.rules_pages or (
                tight.rules_pages == full.rules_pages and tight.count <= full.count
                and tight.parted_lists < full.parted_lists):
            full = tight
    height = layout.page(paper).frame_height
    least = layout.LEAST_LAST_PAGE * height
    if full.used < least:
        # a last page of a few rows may be the group rule's: without it they fit a page
        # before (Smoky Mountains th on Letter: 5 pages with it, 4 without)
        loose = laid_out(None, full.tight, keep_groups=False)
        if loose.count < full.count:
            full = loose
    first = min((p for _, p, *_ in full.rows), default=full.count)
    k = full.count - first + 1  # the species table's pages
    if k < 2 or full.used >= least:
        return full
    # what the last page lacks, taken from each page before it; more, a row at a time, where
    # the rows a page break moves do not make it up
    short = (least - full.used) / (k - 1)
    while short <= layout.BALANCE_MOST * height:
        try:
            tried = laid_out(height - short, full.tight, full.keep_groups)
        except LayoutError:  # a row taller than the shorter page: the pages stay whole
            break
        if tried.count != full.count:
            break
        if tried.used >= least:
            return tried
        short += layout.BALANCE_ROOM
    return full


def _laid_out(sheet: Sheet, paper: str, wide: float | None, tight: bool = False,
              keep_groups: bool = True) -> _Built:
    """The PDF with the species table's frames `wide` points high (None: the whole page)."""
    return _drawn(sheet, story(sheet, paper, tight=tight, keep_groups=keep_groups), wide)


def _drawn(sheet: Sheet, s: Story, wide: float | None) -> _Built:
    """`_laid_out` of a story made before: each pass notes anew where its rows are drawn."""
    require_shaping()
    s.rows_drawn.clear()  # its paragraphs note where they are drawn: this pass's alone
    s.blocks_drawn.clear()
    page = s.page
    buf = BytesIO()
    doc = _Doc(buf, pagesize=(page.width, page.height), invariant=1,
               leftMargin=layout.MARGIN, rightMargin=layout.MARGIN,
               topMargin=layout.MARGIN, bottomMargin=layout.MARGIN,
               title=sheet.edition, author="grove", creator="grove", producer="grove",
               subject="quick reference", lang=sheet.lang,
               # the canvas starts each page in this font; reportlab's default,
               # Helvetica, was named in every PDF without being embedded
               initialFontName=layout.register().regular)
    x, y, h = layout.MARGIN, layout.MARGIN, page.frame_height
    cw = page.column_width
    on_page = _footer(sheet, page)
    doc.addPageTemplates([
        PageTemplate("rules", [Frame(x, y, cw, h, id="left", leftPadding=0, rightPadding=0),
                               Frame(x + cw + layout.GUTTER, y, cw, h, id="right",
                                     leftPadding=0, rightPadding=0)], onPage=on_page),
        PageTemplate("wide", [Frame(x, y + h - (wide or h), page.frame_width, wide or h,
                                    id="wide", leftPadding=0, rightPadding=0)], onPage=on_page),
    ])
    canvas_class = type("SheetCanvas", (_Canvas,), {"icons": dict(sheet.icons or {})})
    try:
        doc.build(list(s.flowables), canvasmaker=canvas_class)
    finally:
        textlayer.forget()
    return _Built(buf.getvalue(), doc.page, list(s.rows_drawn), list(s.blocks_drawn), doc.used,
                  s.tight, s.keep_groups)
