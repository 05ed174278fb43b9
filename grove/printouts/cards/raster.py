"""Card faces as images: the PDF of one face to a page (`pdf.single`) rasterised with PDFium
(pypdfium2), so a PNG shows exactly what the printed card shows, with no second layout.

PNG files are written by Pillow with fixed settings and no time stamp, so the same deck gives
the same bytes; each carries its resolution (pHYs) so an image program prints it at size.
"""

from __future__ import annotations

from collections.abc import Iterator
from io import BytesIO

import pypdfium2 as pdfium
from PIL import Image


def images(pdf_bytes: bytes, scale: float) -> Iterator[Image.Image]:
    """Each page of a PDF as an RGB image, `scale` pixels to the point."""
    doc = pdfium.PdfDocument(pdf_bytes)
    try:
        for i in range(len(doc)):
            page = doc[i]
            try:
                yield page.render(scale=scale, draw_annots=False).to_pil().convert("RGB")
            finally:
                page.close()
    finally:
        doc.close()


def exact(img: Image.Image, size: tuple[int, int]) -> Image.Image:
    """`img` at exactly `size` pixels (a page's size times a scale rounds to a pixel either
    way; a deck sheet needs every cell the same): a pixel too many is cut off, anything
    else scaled."""
    if img.size == size:
        return img
    if 0 <= img.width - size[0] <= 1 and 0 <= img.height - size[1] <= 1:
        return img.crop((0, 0, *size))
    return img.resize(size, Image.Resampling.LANCZOS)


def png(img: Image.Image, dpi: float | None = None) -> bytes:
    buf = BytesIO()
    extra = {"dpi": (dpi, dpi)} if dpi else {}
    img.save(buf, format="PNG", optimize=False, compress_level=6, **extra)
    return buf.getvalue()
