"""The sheet as one standalone HTML page: the same templates as the PDF, diagrams as SVG.

The page carries everything it needs: the vendored fonts as `@font-face` rules with the font
files inline (base64), so Thai is set in Sarabun on a machine without a Thai font, and print
styles (`@media print`, `@page`) with the PDF's paper, margins, type sizes and column widths.
Where the PDF starts a new page inside the species table, the row that starts it says so
(`class="page-start"`), so a browser prints the sheet on as many pages as the PDF has.
"""

from __future__ import annotations

import base64
import re
from functools import cache

from grove.printouts.sheets import icons, layout, pdf, templates
from grove.printouts.sheets.content import Host, Sheet
from grove.printouts.sheets.diagrams import Diagram
from grove.printouts.sheets.diagrams import layout as diagram_layout
from grove.printouts.sheets.draw import svg
from grove.printouts.sheets.fonts import FACES, FAMILY, FONT_DIR, SYMBOL_FACES, SYMBOLS, FontProblem

FONT_STACK = f'"{FAMILY}", "{SYMBOLS}", sans-serif'  # a character Sarabun lacks: the symbols


@cache
def _font_data(filename: str) -> str:
    return base64.b64encode((FONT_DIR / filename).read_bytes()).decode("ascii")


def font_faces(faces: frozenset[tuple[int, int]] = frozenset(FACES)) -> str:
    """`@font-face` rules for the vendored fonts, the files inline: the Sarabun faces in `faces`
    ((bold, italic) pairs) and the DejaVu symbol subsets (upright; italic text uses them as
    they are, as the PDF does)."""
    rules = []
    for family, table in ((FAMILY, FACES), (SYMBOLS, SYMBOL_FACES)):
        for (bold, italic), (_, filename) in sorted(table.items()):
            if family == FAMILY and (bold, italic) not in faces:
                continue
            rules.append(
                f'@font-face {{ font-family: "{family}"; font-weight: {700 if bold else 400}; '
                f'font-style: {"italic" if italic else "normal"}; font-display: block; '
                f'src: url("data:font/ttf;base64,{_font_data(filename)}") format("truetype"); }}')
    return "\n".join(rules)


def _faces_used(page: str) -> frozenset[tuple[int, int]]:
    """The Sarabun faces a page needs: regular and bold always (headings, table heads); italic
    where it has <i>; bold italic where <i> and <b> nest."""
    used = {(0, 0), (1, 0)}
    if "<i>" in page:
        used.add((0, 1))
        if re.search(r"<b>[^<]*<i>|<i>[^<]*<b>", page):
            used.add((1, 1))
    return frozenset(used)


def _css_string(text: str) -> str:
    """`text` as a CSS string that cannot end the string or the style element."""
    out = []
    for ch in text:
        if ch in '"\\<>&' or ord(ch) < 0x20:
            out.append(f"\\{ord(ch):x} ")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def print_css(sheet: Sheet, paper: str, tight: bool = False) -> str:
    """The print styles: the PDF's page (size, margins, footer) and type; `tight`: the rules
    set closer, as the PDF sets them where that saves them a page."""
    page = layout.page(paper)
    m = layout.MARGIN
    return ((PRINT_CSS + (TIGHT_CSS if tight else ""))
            .replace("@SIZE@", f"{page.width:.2f}pt {page.height:.2f}pt")
            .replace("@MARGINS@", f"{m + 12:g}pt {m:g}pt {m:g}pt {m:g}pt")
            .replace("@GUTTER@", f"{layout.GUTTER:g}pt")
            .replace("@EDITION@", _css_string(sheet.edition)))


# Sizes in points, as grove/printouts/sheets/layout.py gives them to the PDF.
PRINT_CSS = """
@page { size: @SIZE@; margin: @MARGINS@;
  @bottom-left { content: @EDITION@; font: 6.8pt var(--sheet-font); color: #6b786a;
                 vertical-align: top; padding-top: 8pt; }
  @bottom-right { content: counter(page); font: 6.8pt var(--sheet-font); color: #6b786a;
                  vertical-align: top; padding-top: 8pt; } }
@media print {
  html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  body { max-width: none; margin: 0; padding: 0; font-size: 8.6pt; line-height: 10.9pt; }
  header h1 { font-size: 19pt; line-height: 23pt; margin: 0 0 1pt; }
  .subtitle { font-size: 10pt; line-height: 13pt; margin: 0 0 6pt; }
  h2 { font-size: 11.5pt; line-height: 14pt; margin: 7pt 0 3pt; border: 0; }
  h3 { font-size: 9pt; line-height: 11.5pt; margin: 3pt 0 1pt; }
  p { margin: 0 0 3pt; }
  ul, ol { margin: 0 0 3pt; padding-left: 11pt; }
  li { margin: 0 0 1pt; }
  section.rules { columns: 2; column-gap: @GUTTER@; column-fill: auto; }
  section.rules > :first-child, section.species > h2:first-child { margin-top: 0; }
  section.species { break-before: page; }
  table { font-size: 8pt; line-height: 9.6pt; table-layout: fixed; }
  th, td { padding: 1.4pt 2.5pt 2pt; border-bottom: 0.3pt solid #9fb59a; }
  tr.group th { font-size: 8.6pt; }
  .scroll { overflow: visible; margin-bottom: 4pt; }
  tr { break-inside: avoid; }
  tr.page-start, section.page-start { break-before: page; }
  .figures { gap: 4pt 10pt; justify-content: space-around; }
  figure { font-size: 7.4pt; line-height: 9pt; break-inside: avoid; }
}
"""

# the rules set closer, in the proportions of layout.TIGHT_LEADING and layout.TIGHT_SPACE
TIGHT_CSS = """
@media print {
  section.rules { line-height: 10.1pt; }
  section.rules h2 { margin: 4.2pt 0 1.8pt; }
  section.rules h3 { margin: 1.8pt 0 0.6pt; }
  section.rules p, section.rules ul, section.rules ol { margin-bottom: 1.8pt; }
  section.rules li { margin-bottom: 0.9pt; }
}
"""

_TABLE = re.compile(r'(<table\b[^>]*\bdata-widths="([0-9. ]+)"[^>]*>)')


def _colgroups(page: str) -> str:
    """A `<colgroup>` after every table that gives its column widths as fractions
    (`data-widths`, which the PDF reads), so the browser uses the same widths."""
    def cols(m: re.Match) -> str:
        widths = [float(x) for x in m.group(2).split()]
        total = sum(widths) or 1.0
        return m.group(1) + "<colgroup>" + "".join(
            f'<col style="width:{100 * w / total:.2f}%"/>' for w in widths) + "</colgroup>"
    return _TABLE.sub(cols, page)


_TAG = re.compile(r"<(/?)([A-Za-z][\w:-]*)\b[^>]*?(/?)>")


def _add_class(tag: str) -> str:
    """An opening tag with the class `page-start` added."""
    m = re.match(r'(<[\w:-]+\b[^>]*?\bclass=")([^"]*)"', tag)
    if m:
        return f'{m.group(1)}{m.group(2)} page-start"' + tag[m.end():]
    name = re.match(r"<[\w:-]+", tag).group()
    return f'{name} class="page-start"' + tag[len(name):]


def _children(page: str, start: int) -> list[re.Match]:
    """The opening tags of the children of the element whose content begins at `start`."""
    depth, out = 0, []
    for m in _TAG.finditer(page, start):
        if m.group(1):
            depth -= 1
            if depth < 0:
                break
            continue
        if depth == 0:
            out.append(m)
        if not m.group(3):
            depth += 1
    return out


def _mark_blocks(page: str, blocks: frozenset[tuple[int, int]]) -> str:
    """Start a new rules section, on a new page, where the PDF starts one: before the child
    `i` of the rules section, or before item `j` of its list (a browser does not break a page
    inside columns where it is told to, so the columns end there)."""
    opening = '<section class="rules">'
    start = page.find(opening)
    if start < 0 or not blocks:
        return page
    children = _children(page, start + len(opening))
    cuts: list[tuple[int, str]] = []
    for i, j in sorted(blocks):
        if i >= len(children):
            continue
        child = children[i]
        new = '</section>\n<section class="rules page-start">'
        if j < 0:
            cuts.append((child.start(), new))
            continue
        tag = child.group(2)
        items = [m for m in _children(page, child.end()) if m.group(2) == "li"]
        if tag in ("ul", "ol") and 0 < j < len(items):
            again = f'<ol start="{j + 1}">' if tag == "ol" else "<ul>"
            cuts.append((items[j].start(), f"</{tag}>{new}{again}"))
        elif j == 0:
            cuts.append((child.start(), new))
    for pos, text in sorted(cuts, reverse=True):
        page = page[:pos] + text + page[pos:]
    return page


_ICON_SPAN = re.compile(r'<span class="icon" data-icon="([^"]+)"></span>')
_ICON_RUN = re.compile(r'((?:<span class="icon" data-icon="[^"]+"></span>)+)(<b>)?([^<\s·]*)')


def _icons_and_word(sheet: Sheet, m: re.Match) -> str:
    """A run of icons and the word after it, kept on one line (a browser may break a line
    between an inline SVG and text); a <b> that starts the word starts before them."""
    icons_html = "".join(_icon(sheet, i) for i in _ICON_SPAN.findall(m.group(1)))
    return f'{m.group(2) or ""}<span class="sym">{icons_html}{m.group(3)}</span>'


def _icon(sheet: Sheet, symbol: str) -> str:
    """A symbol's icon as inline SVG, written from the parsed shapes (nothing of an author's
    file is copied as it is), named for screen readers."""
    icon, name = (sheet.icons or {}).get(symbol, (None, symbol))
    return f'<span class="icon">{icons.svg(icon, 9, name)}</span>' if icon else ""


def _mark_rows(page: str, rows: frozenset[int]) -> str:
    """Give the body rows `rows` of the long table (`data-repeat`) the class `page-start`."""
    start = page.find("<tbody>", page.find(" data-repeat="))
    if start < 0 or not rows:
        return page
    end = page.index("</tbody>", start)
    body = re.split(r"(?=<tr\b)", page[start:end])
    for i in rows:  # body[0] is "<tbody>", then one piece per row
        if 0 <= i < len(body) - 1:
            head = body[i + 1].index(">") + 1
            body[i + 1] = _add_class(body[i + 1][:head]) + body[i + 1][head:]
    return page[:start] + "".join(body) + page[end:]


_GROUP_LABEL = re.compile(r'(<tr class="group[^"]*"><th\b[^>]*>)(.*?)(</th>)', re.S)


def _pin_group_labels(page: str) -> str:
    """A group row's label in a box of its own, which the screen styles keep in view while
    the species table scrolls sideways (the cell itself spans the whole row, so it cannot)."""
    return _GROUP_LABEL.sub(r'\1<span class="pin">\2</span>\3', page)


def diagram_name(sheet: Sheet, host: Host, diagram: Diagram) -> str:
    """A slot diagram in words, from the labels it prints and its figure's caption: "Tree:
    top, left, right and bottom; +1 card to the clearing", a slot's water requirement in
    brackets after it. A face-down card says so, and a card beneath the host is named by its
    symbol ("River (face down)")."""
    labels = templates.labels(sheet.lang)
    name = f"{host.name} ({labels.face_down})" if host.face_down else host.name
    # a slot box prints its side on its first line, and what it takes below (wrapped)
    parts = [f"{b.lines[0]} ({' '.join(b.lines[1:])})" if len(b.lines) > 1 else b.lines[0]
             for b in diagram.boxes if b.role == "slot" and b.lines]
    for b in diagram.boxes:
        if b.role == "under":
            symbol = (sheet.icons or {}).get(b.icon or "", (None, ""))[1]
            parts.append(f"{symbol} ({' '.join(b.lines)})" if symbol else " ".join(b.lines))
    out = f"{name}: {templates.join_and(sheet.lang, parts)}" if parts else name
    return f"{out}; {templates.reveal(sheet.lang, host.reveal)}" if host.reveal else out


def render(sheet: Sheet, paper: str = "a4") -> str:
    """The standalone page. Its print styles break the species table where the PDF on the
    same paper starts a page (which needs the PDF laid out, with text shaping; without
    shaping the browser breaks the table where it fills a page)."""
    labels = templates.labels(sheet.lang)
    drawn = {h.id: diagram_layout(h, labels) for h in sheet.hosts}
    diagrams = {h.id: svg(drawn[h.id], FONT_STACK, sheet.icons, diagram_name(sheet, h, drawn[h.id]))
                for h in sheet.hosts}
    css = (templates.TEMPLATE_DIR / "sheet.css").read_text(encoding="utf-8")
    try:
        starts = pdf.page_starts(sheet, paper)
    except FontProblem:
        starts = pdf.Pages(0, frozenset(), frozenset())
    page = _colgroups(templates.render_page(sheet, diagrams, "@FONTS@\n" + css
                                            + print_css(sheet, paper, starts.tight)))
    page = _pin_group_labels(_mark_blocks(_mark_rows(page, starts.rows), starts.blocks))
    page = _ICON_RUN.sub(lambda m: _icons_and_word(sheet, m), page)
    return page.replace("@FONTS@", font_faces(_faces_used(page)), 1)
