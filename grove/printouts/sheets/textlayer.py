"""The text layer of shaped text: what a PDF reader copies, searches and reads aloud.

reportlab writes each glyph that text shaping produces under a code whose ToUnicode entry is the
glyph's own character. Thai shaping substitutes glyphs (a tone mark lowered over a short
consonant, ำ split into a nikhahit and an aa, a nikhahit and a tone mark drawn as one glyph);
reportlab gives a substituted glyph a private-use character and its ToUnicode entry nothing a
reader understands, so `pdftotext` lost the marks (หนึง for หนึ่ง) and split ำ.

Here every shaped cluster whose glyphs do not spell its characters gets codes of its own: its
widest glyph a code whose ToUnicode entry is all the characters of the cluster, its other
glyphs codes that map to nothing. The glyphs, their widths and positions are unchanged; only what the
text layer says they stand for. `install()` wraps reportlab's `shapeFragWord` (used by
paragraphs and by `drawString(..., shaping=True)`) and its ToUnicode CMap writer, once per
process; a code is kept per font, glyph and text, so a sheet's bytes do not depend on what was
rendered before it (the PDF holds codes of its own subsets and texts, never these numbers).
"""

from __future__ import annotations

import threading

from reportlab.pdfbase import pdfmetrics, ttfonts
from reportlab.platypus import paragraph as rl_paragraph

_FIRST_CODE = 0xF0000  # supplementary private use: clear of the font's characters and of
# reportlab's own private-use characters (from U+E000)
_lock = threading.RLock()
_codes: dict[tuple[str, int, str], int] = {}  # (face name, glyph id, text) -> code
_texts: dict[str, dict[int, str]] = {}  # face name -> code -> the text it stands for
_next = [_FIRST_CODE]
_installed = [False]


def _face_name(font) -> str:
    name = font.face.name
    return name.decode("latin-1") if isinstance(name, bytes) else str(name)


def _code(font, gid: int, text: str, width_of: int) -> int:
    """A character of `font` that draws glyph `gid` and stands for `text` in the text layer."""
    face_name = _face_name(font)
    key = (face_name, gid, text)
    with _lock:
        code = _codes.get(key)
        if code is None:
            face = font.face
            while _next[0] in face.charToGlyph:
                _next[0] += 1
            code = _codes[key] = _next[0]
            _next[0] += 1
            face.charToGlyph[code] = gid
            face.glyphToChar.setdefault(gid, []).append(code)
            face.charWidths[code] = face.charWidths.get(width_of, 0)
            _texts.setdefault(face_name, {})[code] = text
    return code


def _stands_for(font, ch: str) -> str:
    code = ord(ch)
    return _texts.get(_face_name(font), {}).get(code, "" if 0xE000 <= code <= 0xF8FF else ch)


def _source(word: list) -> str:
    return "".join(s for f, s in word[1:] if not hasattr(f, "cbDefn"))


def relabel(word: list, shaped: list) -> list:
    """`shaped` (reportlab's shaping of the frag word `word`) with every cluster whose glyphs do
    not spell its characters drawn under codes that do."""
    if shaped is word or not isinstance(shaped, list):
        return shaped
    text = _source(word)
    glyphs = []  # (part index, position in the part, cluster, font, advance)
    for n, part in enumerate(shaped[1:], 1):
        frag, s = part
        data = getattr(s, "__shapeData__", None)
        if data is None or len(data) != len(s):
            continue
        font = pdfmetrics.getFont(frag.fontName)
        glyphs.extend((n, i, d.cluster, font, d.x_advance) for i, d in enumerate(data))
    if not glyphs:
        return shaped
    starts = sorted({g[2] for g in glyphs if 0 <= g[2] < len(text)})
    ends = dict(zip(starts, [*starts[1:], len(text)], strict=True))
    by_cluster: dict[int, list] = {}
    for g in glyphs:
        by_cluster.setdefault(g[2], []).append(g)
    new = {n: list(shaped[n][1]) for n in range(1, len(shaped))}
    changed = False
    for cluster, members in by_cluster.items():
        if cluster not in ends:
            continue
        chars = text[cluster:ends[cluster]]
        spelled = "".join(_stands_for(f, shaped[n][1][i]) for n, i, _, f, _ in members)
        if spelled == chars:
            continue
        # the widest glyph (the aa of ำ, not the nikhahit drawn over the consonant) carries
        # the text, so a reader sees no gap inside the word
        carrier = max(range(len(members)), key=lambda k: (members[k][4], k))
        for k, (n, i, _, font, _) in enumerate(members):
            ch = shaped[n][1][i]
            gid = font.face.charToGlyph.get(ord(ch))
            if gid is None:
                continue
            new[n][i] = chr(_code(font, gid, chars if k == carrier else "", ord(ch)))
        changed = True
    if not changed:
        return shaped
    out = shaped.__class__([shaped[0]])
    for n in range(1, len(shaped)):
        frag, s = shaped[n]
        part = (frag, ttfonts.ShapedStr("".join(new[n]), shapeData=s.__shapeData__))
        out.append(part if isinstance(shaped[n], tuple) else list(part))
    return out


def forget() -> None:
    """Drop the remembered shaped words (a document is built: its frags are not seen again)."""
    with _lock:
        _shaped.clear()


def _to_unicode_cmap(fontname: str, subset: list) -> str:
    """reportlab's ToUnicode CMap, with the codes of `relabel` standing for their texts."""
    face = fontname.split("+", 1)[-1]
    texts = _texts.get(face, {})
    if not any(c in texts for c in subset):
        return _original_cmap(fontname, subset)

    def dest(code: int) -> str:
        text = texts.get(code, chr(code))
        return "".join(f"{b:02X}" for b in text.encode("utf-16-be"))

    return "\n".join([
        "/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap",
        "/CIDSystemInfo", f"<< /Registry ({fontname})", f"/Ordering ({fontname})",
        "/Supplement 0", ">> def", f"/CMapName /{fontname} def", "/CMapType 2 def",
        "1 begincodespacerange", f"<00> <{len(subset) - 1:02X}>", "endcodespacerange",
        f"{len(subset)} beginbfchar",
        *(f"<{i:02X}> <{dest(v)}>" for i, v in enumerate(subset)),
        "endbfchar", "endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"])


_original_cmap = ttfonts.makeToUnicodeCMap
_original_shape = ttfonts.shapeFragWord


_shaped: dict = {}  # (word class, (id(frag), text) ...) -> (the frags, the shaped word)
_SHAPED_MAX = 20_000


def _shape(w, *args, **kw):
    """reportlab's shaping with `relabel`, remembered per word: a table wraps each cell more
    than once and every wrap shapes every word again. A word is the same when it has the same
    text in the very same frag objects (kept with the result, so an id is never reused)."""
    if args or kw or isinstance(w, ttfonts.ShapedFragWord):
        return relabel(w, _original_shape(w, *args, **kw))
    parts = w[1:]
    key = (w.__class__, w[0], tuple((id(f), s) for f, s in parts))
    hit = _shaped.get(key)
    if hit is not None and all(a is f for a, (f, _) in zip(hit[0], parts, strict=True)):
        return hit[1]
    out = relabel(w, _original_shape(w))
    with _lock:
        if len(_shaped) >= _SHAPED_MAX:
            _shaped.clear()
        _shaped[key] = (tuple(f for f, _ in parts), out)
    return out


def install() -> None:
    """Route reportlab's shaping and ToUnicode maps through this module (once)."""
    with _lock:
        if _installed[0]:
            return
        ttfonts.makeToUnicodeCMap = _to_unicode_cmap
        ttfonts.shapeFragWord = _shape  # shapeStr, and so drawString(..., shaping=True)
        rl_paragraph.shapeFragWord = _shape
        _installed[0] = True
