"""Card faces as images: the PDF of one face to a page (`pdf.single`) rasterised with PDFium
(pypdfium2), so a PNG shows exactly what the printed card shows, with no second layout.

PNG files are written by Pillow with fixed settings and no time stamp, so the same deck gives
the same bytes; each carries its resolution (pHYs) so an image program prints it at size.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from io import BytesIO

import pypdfium2 as pdfium
from PIL import Image


def images(pdf_bytes: bytes, scale: float, *, corner: tuple[float, float] | None = None
           ) -> Iterator[Image.Image]:
    """Each page of a PDF as an RGB image, `scale` pixels to the point. With `corner` (width
    and height in points), only each page's lower left corner of that size, as RGBA,
    transparent where nothing is drawn (a stamp to lay over a card): its pixels are those a
    render of the whole page has there, from the row `corner_top` says."""
    doc = pdfium.PdfDocument(pdf_bytes)
    try:
        for i in range(len(doc)):
            page = doc[i]
            try:
                if corner is None:
                    yield page.render(scale=scale, draw_annots=False).to_pil().convert("RGB")
                    continue
                pw, ph = page.get_size()
                # cut at bitmap level (pypdfium2 rounds each cut up to a pixel): the corner
                # stays on the whole page's pixel grid
                crop = (0, 0, max(0.0, pw - corner[0]), max(0.0, ph - corner[1]))
                yield page.render(scale=scale, draw_annots=False, crop=crop,
                                  fill_color=(255, 255, 255, 0)).to_pil().convert("RGBA")
            finally:
                page.close()
    finally:
        doc.close()


def corner_top(page_h: float, corner_h: float, scale: float) -> int:
    """The pixel row of a page's image at which its lower left corner of `corner_h` points,
    as `images(..., corner=...)` renders it, starts."""
    return math.ceil(max(0.0, page_h - corner_h) * scale)


def stamped(img: Image.Image, mark: Image.Image, top: int) -> Image.Image:
    """`img` with `mark` (RGBA, from `images(..., corner=...)`) laid over its left edge from
    pixel row `top`; `img` itself is left as it was."""
    out = img.copy()
    out.paste(mark, (0, top), mark)
    return out


def exact(img: Image.Image, size: tuple[int, int]) -> Image.Image:
    """`img` at exactly `size` pixels (a page's size times a scale rounds to a pixel either
    way; a deck sheet needs every cell the same): a pixel too many is cut off, anything
    else scaled."""
    if img.size == size:
        return img
    if 0 <= img.width - size[0] <= 1 and 0 <= img.height - size[1] <= 1:
        return img.crop((0, 0, *size))
    return img.resize(size, Image.Resampling.LANCZOS)


def png(img: Image.Image, dpi: float | None = None, level: int = 6) -> bytes:
    """`img` as PNG bytes; `level`: zlib's, 6 for the files a person keeps, lower where the
    image is waited for and its bytes only cross a network once."""
    buf = BytesIO()
    extra = {"dpi": (dpi, dpi)} if dpi else {}
    img.save(buf, format="PNG", optimize=False, compress_level=level, **extra)
    return buf.getvalue()
