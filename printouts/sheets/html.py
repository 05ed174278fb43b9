"""The sheet as one standalone HTML page: the same templates as the PDF, diagrams as SVG."""

from __future__ import annotations

from printouts.sheets import templates
from printouts.sheets.content import Sheet
from printouts.sheets.diagrams import layout
from printouts.sheets.draw import svg
from printouts.sheets.fonts import FAMILY


def render(sheet: Sheet) -> str:
    labels = templates.labels(sheet.lang)
    diagrams = {h.id: svg(layout(h, labels), FAMILY) for h in sheet.hosts}
    css = (templates.TEMPLATE_DIR / "sheet.css").read_text(encoding="utf-8")
    return templates.render_page(sheet, diagrams, css)
