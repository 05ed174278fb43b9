"""Icons of tree and type symbols: small vector drawings, so a player can match the sheet with the
symbols on the cards on the table.

An icon is an SVG file named after its symbol, `<symbol id>.svg`, with the view box
`0 0 24 24`, made of `path`, `circle`, `ellipse`, `rect`, `polygon` and `polyline` elements
(`fill`, `stroke`, `stroke-width`, `stroke-linecap`, `stroke-linejoin`; colours as `#rgb`,
`#rrggbb`, `none` or `currentColor`; path commands M L H V C S Q T Z, no arcs). Icons are card
data: each edition carries its own in an `icons/` folder beside its `edition.yaml`, the shipped
editions as much as an author's, and a symbol with none there is printed by name alone.

Nothing of the file is copied into a sheet as it is: it is read into numbers and colours, and the
PDF draws those on its canvas while the HTML page writes them out again as an SVG element. So a
script or an external reference in a file could do no harm on a sheet; it is refused all the same
(`IconError.unsafe`), because whoever opens the file itself in a browser or an editor gets it.
"""

from __future__ import annotations

import re
import xml.parsers.expat
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

VIEW = 24.0
MAX_BYTES = 32 * 1024
_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_TOKEN = re.compile(rf"[MmLlHhVvCcSsQqTtZzAa]|{_NUMBER}")
_COLOUR = re.compile(r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")
_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "Z": 0}
_K = 0.5522847498  # cubic Bézier handle for a quarter circle
SHAPES = frozenset({"path", "circle", "ellipse", "rect", "polygon", "polyline"})
# elements that run code, pull in other files or styles: refused as unsafe, not only unsupported
_UNSAFE_ELEMENTS = frozenset({"script", "foreignObject", "image", "use", "a", "style", "iframe",
                              "object", "embed", "feImage", "animate", "animateMotion",
                              "animateTransform", "set", "handler", "listener"})
# a reference out of the file (an internal url(#id) is only unsupported: there is nothing to name)
_EXTERNAL = re.compile(r"url\s*\(\s*['\"]?\s*(?!#)|javascript:|data:", re.IGNORECASE)
# attributes that would change the drawing in ways the reader does not follow
_UNSUPPORTED = frozenset({"transform", "style", "clip-path", "mask", "filter", "fill-rule",
                          "opacity", "fill-opacity", "stroke-opacity", "stroke-dasharray"})


class IconError(ValueError):
    """An icon file that is not the small SVG described above: where in the file (1-based line
    and column, where known) and whether it is unsafe (script, event handler, external
    reference, DOCTYPE) rather than only unsupported."""

    def __init__(self, message: str, line: int = 1, col: int = 1, unsafe: bool = False):
        super().__init__(message)
        self.message, self.line, self.col, self.unsafe = message, line, col, unsafe


@dataclass(frozen=True)
class Shape:
    ops: tuple[tuple, ...]  # ("M", x, y) | ("L", x, y) | ("C", x1, y1, x2, y2, x, y) | ("Z",)
    fill: str | None  # "#rrggbb", "currentColor" or None
    stroke: str | None
    width: float
    cap: str
    join: str


@dataclass(frozen=True)
class Icon:
    id: str
    shapes: tuple[Shape, ...]


def _colour(value: str | None, default: str | None) -> str | None:
    if value is None:
        return default
    value = value.strip()
    if value == "none":
        return None
    if value == "currentColor":
        return value
    if not _COLOUR.match(value):
        raise IconError(f"colour {value!r}: use #rgb, #rrggbb, none or currentColor")
    if len(value) == 4:
        value = "#" + "".join(c * 2 for c in value[1:])
    return value.lower()


def _numbers(text: str) -> list[float]:
    return [float(x) for x in re.findall(_NUMBER, text or "")]


def _path(d: str) -> tuple[tuple, ...]:
    """Path data -> absolute M, L, C and Z operations."""
    tokens = _TOKEN.findall(d or "")
    if "".join(tokens).strip() == "" or not tokens[0].isalpha():
        raise IconError("path data must start with a command")
    ops: list[tuple] = []
    x = y = sx = sy = 0.0
    last_c: tuple[float, float] | None = None  # the last cubic control point (for S)
    last_q: tuple[float, float] | None = None  # the last quadratic control point (for T)
    i, cmd = 0, ""
    while i < len(tokens):
        if tokens[i].isalpha():
            cmd = tokens[i]
            i += 1
            if cmd in "Aa":
                raise IconError("arcs are not supported: use circle or ellipse, or curves")
            if cmd in "Zz":
                ops.append(("Z",))
                x, y = sx, sy
                last_c = last_q = None
                continue
        elif not cmd or cmd in "Zz":
            raise IconError("a number without a command in path data")
        n = _ARITY[cmd.upper()]
        if len(tokens[i:i + n]) < n or any(t.isalpha() for t in tokens[i:i + n]):
            raise IconError(f"path command {cmd} needs {n} numbers")
        args = [float(t) for t in tokens[i:i + n]]
        i += n
        rel = cmd.islower()
        up = cmd.upper()
        if up == "H":
            args = [args[0] + (x if rel else 0), y]
            up, rel = "L", False
        elif up == "V":
            args = [x, args[0] + (y if rel else 0)]
            up, rel = "L", False
        if rel:
            args = [a + (x if k % 2 == 0 else y) for k, a in enumerate(args)]
        if up == "M":
            ops.append(("M", *args))
            x, y = sx, sy = args
            cmd = "l" if rel else "L"  # further pairs are lines
            last_c = last_q = None
        elif up == "L":
            ops.append(("L", *args))
            x, y = args
            last_c = last_q = None
        elif up in ("C", "S"):
            if up == "S":
                c1 = (2 * x - last_c[0], 2 * y - last_c[1]) if last_c else (x, y)
                args = [*c1, *args]
            ops.append(("C", *args))
            last_c, last_q = (args[2], args[3]), None
            x, y = args[4], args[5]
        else:  # Q, T: quadratic, as a cubic
            if up == "T":
                q = (2 * x - last_q[0], 2 * y - last_q[1]) if last_q else (x, y)
                args = [*q, *args]
            qx, qy, ex, ey = args
            ops.append(("C", x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y),
                        ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey), ex, ey))
            last_q, last_c = (qx, qy), None
            x, y = ex, ey
    if not ops or ops[0][0] != "M":
        raise IconError("path data must start with M")
    return tuple(ops)


def _ellipse(cx: float, cy: float, rx: float, ry: float) -> tuple[tuple, ...]:
    kx, ky = rx * _K, ry * _K
    return (("M", cx + rx, cy),
            ("C", cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
            ("C", cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
            ("C", cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
            ("C", cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy), ("Z",))


@dataclass(frozen=True)
class _Element:
    """An element of an icon file with where it starts, for messages at line and column."""

    tag: str
    attrs: dict
    line: int
    col: int
    offset: int  # byte offset of its "<" in the file
    children: list = field(default_factory=list)


def _read_tree(text: str) -> tuple[_Element, bytes]:
    """The file's elements, parsed by expat with their positions. A DOCTYPE (entities, external
    subsets) or a processing instruction (an xml-stylesheet) stops the parse as unsafe."""
    data = text.encode("utf-8")
    parser = xml.parsers.expat.ParserCreate()
    stack: list[_Element] = []
    roots: list[_Element] = []

    def here() -> tuple[int, int]:
        return parser.CurrentLineNumber, parser.CurrentColumnNumber + 1

    def start(tag: str, attrs: dict) -> None:
        e = _Element(tag, attrs, *here(), parser.CurrentByteIndex)
        (stack[-1].children if stack else roots).append(e)
        stack.append(e)

    def doctype(*_args) -> None:  # at the "<!" that opens the declaration
        i = data.rfind(b"<!", 0, parser.CurrentByteIndex + 2)
        raise IconError("no DOCTYPE or entities in an icon file", *position(data, max(i, 0)),
                        unsafe=True)

    def instruction(target: str, _data: str) -> None:
        raise IconError(f"no processing instruction (<?{target} ...?>) in an icon file", *here(),
                        unsafe=True)

    parser.StartElementHandler = start
    parser.EndElementHandler = lambda _tag: stack.pop()
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = doctype
    parser.ProcessingInstructionHandler = instruction
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as exc:
        raise IconError(f"not XML: {xml.parsers.expat.ErrorString(exc.code)}", exc.lineno,
                        exc.offset + 1) from None
    return roots[0], data


def _local(name: str) -> str:
    return name.rsplit(":", 1)[-1]


def _attr_at(data: bytes, e: _Element, name: str) -> tuple[int, int]:
    """Line and column of attribute `name` in the start tag of `e` (the tag's own where the
    attribute cannot be found)."""
    end = data.find(b">", e.offset)
    m = re.compile(rb"\s(" + re.escape(name.encode("utf-8")) + rb")\s*=").search(
        data, e.offset, end if end >= 0 else len(data))
    if m is None:
        return e.line, e.col
    return position(data, m.start(1))


def position(data: bytes, index: int) -> tuple[int, int]:
    """Line and column (1-based, in characters) of a byte offset in an icon file."""
    before = data[:index]
    start = before.rfind(b"\n") + 1
    return before.count(b"\n") + 1, len(before[start:].decode("utf-8", "replace")) + 1


def _check_element(e: _Element, data: bytes) -> None:
    tag = _local(e.tag)
    if tag in _UNSAFE_ELEMENTS:
        raise IconError(f"element <{tag}> is not allowed in an icon: it can run code or load "
                        "other files", e.line, e.col, unsafe=True)
    for name, value in e.attrs.items():
        local = _local(name).lower()
        if local.startswith("on"):
            raise IconError(f"event handler '{name}' is not allowed in an icon",
                            *_attr_at(data, e, name), unsafe=True)
        if local == "href" or _EXTERNAL.search(value):
            raise IconError(f"external reference in '{name}' is not allowed in an icon",
                            *_attr_at(data, e, name), unsafe=True)
        if local in _UNSUPPORTED:
            raise IconError(f"attribute '{name}' is not supported: give each shape its own "
                            "coordinates and fill, stroke and stroke-width",
                            *_attr_at(data, e, name))


def _ops(e: _Element, data: bytes) -> tuple[tuple, ...]:
    tag = _local(e.tag)
    a = e.attrs

    def num(name: str, default: float = 0.0) -> float:
        v = _numbers(a.get(name, ""))
        return v[0] if v else default

    try:
        if tag == "path":
            return _path(a.get("d", ""))
        if tag == "circle":
            r = num("r")
            return _ellipse(num("cx"), num("cy"), r, r)
        if tag == "ellipse":
            return _ellipse(num("cx"), num("cy"), num("rx"), num("ry"))
        if tag == "rect":
            x, y, w, h = num("x"), num("y"), num("width"), num("height")
            return (("M", x, y), ("L", x + w, y), ("L", x + w, y + h), ("L", x, y + h), ("Z",))
        pts = _numbers(a.get("points", ""))
        if len(pts) < 4 or len(pts) % 2:
            raise IconError(f"{tag} needs pairs of points")
        ops = [("M", pts[0], pts[1])] + [("L", pts[k], pts[k + 1]) for k in range(2, len(pts), 2)]
        return tuple(ops + ([("Z",)] if tag == "polygon" else []))
    except IconError as exc:
        if exc.line == 1 and exc.col == 1:  # at the attribute that holds the shape's numbers
            name = {"path": "d", "polygon": "points", "polyline": "points"}.get(tag)
            line, col = _attr_at(data, e, name) if name else (e.line, e.col)
            raise IconError(exc.message, line, col) from None
        raise


def parse(text: str, symbol: str = "") -> Icon:
    """An icon file's text -> its shapes (IconError, at its line and column, for anything
    else)."""
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise IconError(f"larger than {MAX_BYTES // 1024} KiB")
    root, data = _read_tree(text)
    if _local(root.tag) != "svg":
        raise IconError("the root element must be <svg>", root.line, root.col)
    _check_element(root, data)
    box = _numbers(root.attrs.get("viewBox", ""))
    if box != [0.0, 0.0, VIEW, VIEW]:
        raise IconError(f'viewBox must be "0 0 {VIEW:g} {VIEW:g}"',
                        *_attr_at(data, root, "viewBox"))
    inherited = {k: root.attrs.get(k) for k in ("fill", "stroke", "stroke-width",
                                                "stroke-linecap", "stroke-linejoin")}
    shapes = []
    for e in root.children:
        tag = _local(e.tag)
        _check_element(e, data)
        if tag in ("title", "desc"):
            if e.children:
                raise IconError(f"<{tag}> holds text only", e.children[0].line,
                                e.children[0].col)
            continue
        if tag == "g":
            raise IconError("groups are not supported: give each shape its colours",
                            e.line, e.col)
        if tag not in SHAPES:
            raise IconError(f"element <{tag}> is not allowed in an icon", e.line, e.col)
        if e.children:
            _check_element(e.children[0], data)
            raise IconError(f"<{tag}> has no elements inside it in an icon",
                            e.children[0].line, e.children[0].col)
        attrs = {k: e.attrs.get(k, v) for k, v in inherited.items()}
        width = _numbers(attrs["stroke-width"] or "1")
        fill, stroke = (_colour_of(e, root, data, "fill", "currentColor"),
                        _colour_of(e, root, data, "stroke", None))
        shapes.append(Shape(_ops(e, data), fill, stroke, width[0] if width else 1.0,
                            attrs["stroke-linecap"] or "butt", attrs["stroke-linejoin"] or "miter"))
    if not shapes:
        raise IconError("no shapes", root.line, root.col)
    return Icon(symbol, tuple(shapes))


def _colour_of(e: _Element, root: _Element, data: bytes, name: str, default: str | None
               ) -> str | None:
    """A shape's colour, its own or the one it inherits from <svg>; an error at whichever
    attribute gave it."""
    owner = e if name in e.attrs else root
    try:
        return _colour(owner.attrs.get(name), default)
    except IconError as exc:
        raise IconError(exc.message, *_attr_at(data, owner, name)) from None


@lru_cache(maxsize=512)
def _read(path: str, mtime_ns: int, size: int, symbol: str) -> Icon:
    return parse(Path(path).read_text(encoding="utf-8"), symbol)


def load(path: Path, symbol: str) -> Icon:
    st = path.stat()
    if st.st_size > MAX_BYTES:  # refused before it is read
        raise IconError(f"larger than {MAX_BYTES // 1024} KiB")
    return _read(str(path), st.st_mtime_ns, st.st_size, symbol)


def icon_path(folders: list[str], symbol: str) -> Path | None:
    """The icon file of a symbol: the first card-set folder with one."""
    for folder in folders:
        p = Path(folder) / "icons" / f"{symbol}.svg"
        if p.is_file():
            return p
    return None


def find(folders: list[str], symbol: str) -> Icon | None:
    """The icon of `symbol` (None when there is none, or when its file is broken: `grove lint`
    reports that as ICON-BAD, a sheet prints the name alone)."""
    path = icon_path(folders, symbol)
    if path is None:
        return None
    try:
        return load(path, symbol)
    except (OSError, UnicodeDecodeError, IconError):
        return None


# ---- output --------------------------------------------------------------------------------
def _fmt(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".") or "0"


def path_data(ops: tuple[tuple, ...]) -> str:
    return " ".join(op[0] + " ".join(_fmt(v) for v in op[1:]) for op in ops)


def _paths(icon: Icon, ink: str) -> str:
    parts = []
    for s in icon.shapes:
        fill = ink if s.fill == "currentColor" else (s.fill or "none")
        stroke = ink if s.stroke == "currentColor" else (s.stroke or "none")
        extra = (f' stroke="{stroke}" stroke-width="{_fmt(s.width)}" stroke-linecap="{s.cap}" '
                 f'stroke-linejoin="{s.join}"' if s.stroke else "")
        parts.append(f'<path d="{path_data(s.ops)}" fill="{fill}"{extra}/>')
    return "".join(parts)


def nested_svg(icon: Icon, x: float, y: float, size: float, ink: str = "#2f3b2f") -> str:
    """The icon as an SVG element inside another SVG (a slot diagram), at (x, y)."""
    return (f'<svg x="{_fmt(x)}" y="{_fmt(y)}" width="{_fmt(size)}" height="{_fmt(size)}" '
            f'viewBox="0 0 24 24">{_paths(icon, ink)}</svg>')


def svg(icon: Icon, size: float, title: str = "", ink: str = "#2f3b2f") -> str:
    """An inline SVG element of `size` points, written from the parsed shapes."""
    from html import escape

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="icon" viewBox="0 0 24 24" '
             f'width="{_fmt(size)}pt" height="{_fmt(size)}pt" role="img" '
             f'aria-label="{escape(title)}">']
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    parts.append(_paths(icon, ink))
    parts.append("</svg>")
    return "".join(parts)


_CAPS = {"butt": 0, "round": 1, "square": 2}
_JOINS = {"miter": 0, "round": 1, "bevel": 2}


def draw(canvas, icon: Icon, x: float, y: float, size: float, ink=None) -> None:
    """Paint `icon` on a reportlab canvas, its box `size` points square with the lower left
    corner at (x, y)."""
    from reportlab.lib import colors

    ink = ink or colors.HexColor("#2f3b2f")
    scale = size / VIEW
    canvas.saveState()
    canvas.translate(x, y + size)
    canvas.scale(scale, -scale)
    for s in icon.shapes:
        p = canvas.beginPath()
        for op in s.ops:
            if op[0] == "M":
                p.moveTo(op[1], op[2])
            elif op[0] == "L":
                p.lineTo(op[1], op[2])
            elif op[0] == "C":
                p.curveTo(*op[1:])
            else:
                p.close()
        if s.fill:
            canvas.setFillColor(ink if s.fill == "currentColor" else colors.HexColor(s.fill))
        if s.stroke:
            canvas.setStrokeColor(ink if s.stroke == "currentColor" else colors.HexColor(s.stroke))
            canvas.setLineWidth(s.width)
            canvas.setLineCap(_CAPS.get(s.cap, 0))
            canvas.setLineJoin(_JOINS.get(s.join, 0))
        canvas.drawPath(p, stroke=1 if s.stroke else 0, fill=1 if s.fill else 0)
    canvas.restoreState()


__all__ = ["Icon", "IconError", "Shape", "draw", "find", "icon_path",
           "load", "nested_svg", "parse", "path_data", "svg"]
