"""Paint a `Diagram`: as a reportlab flowable (canvas drawing, shaped text) or as inline SVG."""

from __future__ import annotations

from html import escape

from reportlab.lib import colors
from reportlab.platypus import Flowable

from grove.printouts.sheets.diagrams import (
    ICON_SIZE,
    ICON_TOP,
    LABEL_SIZE,
    Box,
    Diagram,
    hatch,
    water_corner,
)
from grove.printouts.sheets.icons import draw as draw_icon
from grove.printouts.sheets.icons import nested_svg

INK = colors.HexColor("#2f3b2f")
HOST_FILL = colors.HexColor("#cfe3c4")
SLOT_FILL = colors.HexColor("#ffffff")
WATER_FILL = colors.HexColor("#cde6f5")
BACK_FILL = colors.HexColor("#e4dccb")
HATCH = colors.HexColor("#c9bda3")  # the strokes across a face-down card


def _fill(box: Box) -> colors.Color:
    if box.face_down:
        return BACK_FILL
    if box.water:
        return WATER_FILL
    return HOST_FILL if box.role == "host" else SLOT_FILL


def _hex(c: colors.Color) -> str:
    return "#" + c.hexval()[2:]


class DiagramFlowable(Flowable):
    """A host's slot diagram; text goes through reportlab's shaping like every paragraph."""

    def __init__(self, diagram: Diagram, font: str, icons: dict | None = None):
        super().__init__()
        self.diagram = diagram
        self.font = font
        self.icons = icons or {}
        self.width, self.height = diagram.width + 1, diagram.height + 1

    def wrap(self, availWidth, availHeight):  # noqa: N803 - reportlab's names
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        top = self.diagram.height + 0.5
        c.saveState()
        c.setLineWidth(0.6)
        c.setStrokeColor(INK)
        for b in self.diagram.boxes:
            y = top - b.y - b.h
            c.setFillColor(_fill(b))
            c.roundRect(0.5 + b.x, y, b.w, b.h, _radius(b), stroke=0, fill=1)
            if b.face_down or b.either:
                self._inside(b, y, top)
            c.setDash([] if b.role != "slot" else [2, 1.5])
            c.roundRect(0.5 + b.x, y, b.w, b.h, _radius(b), stroke=1, fill=0)
            icon = self.icons.get(b.icon) if b.icon else None
            if icon is not None:
                at = (0.5 + b.x + (b.w - ICON_SIZE) / 2, y + b.h - ICON_TOP - ICON_SIZE, ICON_SIZE)
                if hasattr(c, "icon_form"):  # the sheet's canvas: one form per icon
                    c.icon_form(b.icon, icon[0], *at)
                else:
                    draw_icon(c, icon[0], *at)
            c.setFillColor(INK)
            c.setFont(self.font, LABEL_SIZE)
            first = y + b.h - b.label_middle() + (len(b.lines) - 1) * b.leading / 2 - LABEL_SIZE * 0.35
            for i, line in enumerate(b.lines):
                c.drawCentredString(0.5 + b.x + b.w / 2, first - i * b.leading, line, shaping=True)
        c.restoreState()

    def _inside(self, b: Box, y: float, top: float) -> None:
        """What is painted inside a box's outline, clipped to it: the water half of an
        "either" slot, the strokes across a face-down card."""
        c = self.canv
        c.saveState()
        p = c.beginPath()
        p.roundRect(0.5 + b.x, y, b.w, b.h, _radius(b))
        c.clipPath(p, stroke=0, fill=0)
        if b.either:
            corner = c.beginPath()
            (x0, y0), *rest = water_corner(b)
            corner.moveTo(0.5 + x0, top - y0)
            for x, yy in rest:
                corner.lineTo(0.5 + x, top - yy)
            corner.close()
            c.setFillColor(WATER_FILL)
            c.drawPath(corner, stroke=0, fill=1)
        if b.face_down:
            c.setStrokeColor(HATCH)
            c.setDash([])
            for x1, y1, x2, y2 in hatch(b):
                c.line(0.5 + x1, top - y1, 0.5 + x2, top - y2)
        c.restoreState()


def _radius(b: Box) -> float:
    return 1.5 if b.role == "slot" else 2.5


def svg(diagram: Diagram, font_family: str, icons: dict | None = None, name: str = "") -> str:
    """The same diagram as an SVG element for the HTML sheet: the same boxes, fills, water
    halves and face-down hatching as the PDF (clipped to each box by an SVG clip path);
    `name`, what it shows in words, is its accessible name (an image hides its labels)."""
    w, h = diagram.width + 1, diagram.height + 1
    label = f' aria-label="{escape(name)}"' if name else ""
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="diagram" width="{w:.0f}pt" '
             f'height="{h:.0f}pt" viewBox="0 0 {w:.1f} {h:.1f}" role="img"{label}>']
    for n, b in enumerate(diagram.boxes):
        dash = ' stroke-dasharray="2 1.5"' if b.role == "slot" else ""
        rect = (f'x="{b.x + 0.5:.1f}" y="{b.y + 0.5:.1f}" width="{b.w:.1f}" height="{b.h:.1f}" '
                f'rx="{_radius(b)}"')
        parts.append(f'<rect {rect} fill="{_hex(_fill(b))}"/>')
        if b.face_down or b.either:
            clip = f"clip-{escape(diagram.host)}-{n}"
            parts.append(f'<clipPath id="{clip}"><rect {rect}/></clipPath>'
                         f'<g clip-path="url(#{clip})">')
            if b.either:
                points = " ".join(f"{x + 0.5:.1f},{y + 0.5:.1f}" for x, y in water_corner(b))
                parts.append(f'<polygon class="water-half" points="{points}" '
                             f'fill="{_hex(WATER_FILL)}"/>')
            if b.face_down:
                parts.append(f'<g class="hatch" stroke="{_hex(HATCH)}" stroke-width="1">')
                parts += [f'<line x1="{x1 + 0.5:.1f}" y1="{y1 + 0.5:.1f}" x2="{x2 + 0.5:.1f}" '
                          f'y2="{y2 + 0.5:.1f}"/>' for x1, y1, x2, y2 in hatch(b)]
                parts.append("</g>")
            parts.append("</g>")
        parts.append(f'<rect {rect} fill="none" stroke="{_hex(INK)}" stroke-width="0.6"{dash}/>')
        icon = (icons or {}).get(b.icon) if b.icon else None
        if icon is not None:
            parts.append(nested_svg(icon[0], 0.5 + b.x + (b.w - ICON_SIZE) / 2,
                                    b.y + 0.5 + ICON_TOP, ICON_SIZE, _hex(INK)))
        first = b.y + 0.5 + b.label_middle() - (len(b.lines) - 1) * b.leading / 2 + LABEL_SIZE * 0.35
        for i, line in enumerate(b.lines):
            parts.append(f'<text x="{b.x + 0.5 + b.w / 2:.1f}" y="{first + i * b.leading:.1f}" '
                         f'font-family="{escape(font_family)}" font-size="{LABEL_SIZE}" '
                         f'text-anchor="middle" fill="{_hex(INK)}">{escape(line)}</text>')
    parts.append("</svg>")
    return "".join(parts)
