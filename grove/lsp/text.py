"""Where the cursor stands in a YAML text an author is typing: positions, words, the key path.

An editor sends positions in UTF-16 code units, grove counts characters; and the text at the
cursor is most often half-typed YAML that no parser reads. So the path of keys to the cursor is
found from the lines themselves, by their indentation, which a half-typed line does not break.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from grove.dsl.diagnostics import Span

if TYPE_CHECKING:  # lsprotocol's import is most of a server's start (grove/lsp/prelude.py)
    from lsprotocol import types

# The longest line the features look at around a cursor, and how far up they look for its
# parents: a hostile text costs the same bounded work as a real card file.
MAX_LINE = 4000
MAX_LINES_UP = 5000

_WORD = re.compile(r"[A-Za-z0-9_:]")
_KEY = re.compile(r"^(?P<indent>[ ]*)(?P<dashes>(?:-[ ]+)*)(?P<key>[A-Za-z_][A-Za-z0-9_]*)[ ]*:(?:[ ]|$)")
_DASHES = re.compile(r"^(?P<indent>[ ]*)(?P<dashes>(?:-[ ]+)*)")


def _units(ch: str, enc: str) -> int:
    if enc == "utf-8":
        return len(ch.encode("utf-8", "surrogatepass"))
    if enc == "utf-32":
        return 1
    return 2 if ord(ch) > 0xFFFF else 1


def utf16_col(line: str, chars: int, enc: str = "utf-16") -> int:
    """The offset, in the client's code units (UTF-16 unless it chose another encoding), of
    character `chars` of `line`."""
    head = line[:chars]
    if enc == "utf-32" or head.isascii():
        return len(head)
    return sum(_units(ch, enc) for ch in head)


def char_col(line: str, units: int, enc: str = "utf-16") -> int:
    """The character index at offset `units` (in the client's code units) of `line`."""
    n = 0
    for i, ch in enumerate(line):
        if n >= units:
            return i
        n += _units(ch, enc)
    return len(line)


def span_range(span: Span | None, lines: list[str], enc: str = "utf-16") -> types.Range:
    """A grove span (1-based, characters) as an LSP range (0-based, UTF-16); a span with no end
    covers the word it starts on, or one character."""
    from lsprotocol import types

    (line, col), (end_line, end_col) = span_bounds(span, lines, enc)
    return types.Range(types.Position(line, col), types.Position(end_line, end_col))


def span_bounds(span: Span | None, lines: list[str], enc: str = "utf-16"
                ) -> tuple[tuple[int, int], tuple[int, int]]:
    """`span_range` as plain numbers, ((line, character), (line, character)), for the answers
    given before lsprotocol is imported."""
    if span is None:
        return (0, 0), (0, 0)
    line = max(span.line - 1, 0)
    text = lines[line] if line < len(lines) else ""
    col = max(span.col - 1, 0)
    if span.end_line is not None and span.end_col is not None:
        end_line = max(span.end_line - 1, 0)
        end_text = lines[end_line] if end_line < len(lines) else ""
        end_col = max(span.end_col - 1, 0)
    else:
        end_line, end_text = line, text
        end_col = col
        while end_col < len(text) and _WORD.match(text[end_col]):
            end_col += 1
        while end_col > col and text[end_col - 1] == ":":  # a key's colon is not its word
            end_col -= 1
        if end_col == col:
            end_col = min(col + 1, len(text)) if text else col
    return (line, utf16_col(text, col, enc)), (end_line, utf16_col(end_text, end_col, enc))


def word_at(line: str, col: int) -> tuple[str, int, int]:
    """(word, start, end) of the id under or just before character `col` of `line`."""
    start = col
    while start > 0 and _WORD.match(line[start - 1]):
        start -= 1
    end = col
    while end < len(line) and _WORD.match(line[end]):
        end += 1
    while end > start and line[end - 1] == ":":  # `kind:` is the key kind
        end -= 1
    while start < end and line[start] == ":":
        start += 1
    return line[start:end], start, end


@dataclass(frozen=True)
class Context:
    """What the cursor stands in.

    `path` holds the keys from the top to the mapping the cursor is in, `[]` for each sequence
    item (`species`, `[]` inside a species entry); `key` is the key of the cursor's line, if it
    has one and the cursor is past its colon; `value` is the value's text from its start to
    the cursor (a block scalar's lines joined), `value_at` where that text starts (line, char)."""

    path: tuple[str, ...]
    key: str | None
    value: str | None
    value_at: tuple[int, int] | None

    @property
    def on_key(self) -> bool:
        return self.key is None


def _indent_of(line: str) -> tuple[int, list[int], str | None, str]:
    """(column of the line's key or content, columns of its `- ` marks, its key, its value)."""
    m = _KEY.match(line)
    if m:
        dashes = [len(m["indent"]) + d.start() for d in re.finditer(r"-", m["dashes"])]
        return m.start("key"), dashes, m["key"], line[m.end():].strip()
    d = _DASHES.match(line)
    assert d is not None
    dashes = [len(d["indent"]) + x.start() for x in re.finditer(r"-", d["dashes"])]
    return d.end(), dashes, None, line[d.end():].strip()


def _blank(line: str) -> bool:
    s = line.strip()
    return not s or s.startswith("#")


def context(lines: list[str], line_no: int, col: int) -> Context:
    """The context of character `col` of line `line_no`."""
    line = lines[line_no][:MAX_LINE] if line_no < len(lines) else ""
    key: str | None = None
    value: str | None = None
    value_at: tuple[int, int] | None = None
    m = _KEY.match(line)
    if m and col >= m.end() - (1 if line[m.end() - 1:m.end()] == " " else 0):
        key = m["key"]
        start = m.end()
        while start < len(line) and line[start] == " ":
            start += 1
        value, value_at = line[start:col], (line_no, start)
        target = m.start("key")
    block: list[str] = []
    path: list[str] = []
    if key is None:
        d = _DASHES.match(line)
        assert d is not None
        target = d.end() if line.strip(" -") else max(col, d.end())
        marks = [len(d["indent"]) + x.start() for x in re.finditer(r"-", d["dashes"])]
        if marks:  # `- ` opens an entry of a list: the keys typed after it are the entry's
            path[:0] = ["[]"] * len(marks)
            target = min(marks)
    if key is None and not path:  # inside a block scalar (`score: |`)? its key is above
        content_col = len(line) - len(line.lstrip(" "))
        for n in range(line_no - 1, max(-1, line_no - 200), -1):
            above = lines[n][:MAX_LINE]
            if _blank(above):
                block.insert(0, above)
                continue
            kcol, _, k, v = _indent_of(above)
            if k is not None and v[:1] in ("|", ">") and kcol < content_col:
                key, value_at = k, (n + 1, content_col)
                body = [b[content_col:] for b in block]
                value = "\n".join([*body, line[content_col:col]])
                target = kcol
                line_no = n
                m = _KEY.match(above)
                if m and m["dashes"]:  # `- score: |`: the item mark opens the entry
                    path.insert(0, "[]")
                    target = min(len(m["indent"]) + d.start()
                                 for d in re.finditer(r"-", m["dashes"]))
                break
            if kcol >= content_col or k is None:
                block.insert(0, above)
                continue
            break
    elif key is not None and m and m["dashes"]:
        path.insert(0, "[]")
        target = min(len(m["indent"]) + d.start() for d in re.finditer(r"-", m["dashes"]))
    for n in range(line_no - 1, max(-1, line_no - MAX_LINES_UP), -1):
        if target <= 0:
            break
        above = lines[n][:MAX_LINE]
        if _blank(above):
            continue
        kcol, dashes, k, v = _indent_of(above)
        inner = [d for d in dashes if d < target]
        if k is not None and kcol < target and (not v or v[:1] in ("|", ">", "&")):
            path.insert(0, k)
            path[:0] = ["[]"] * len(inner)
            target = min([kcol, *inner])
        elif inner:
            path[:0] = ["[]"] * len(inner)
            target = min(inner)
        elif kcol < target:  # a scalar line less indented: the text is not as expected
            target = kcol
    return Context(tuple(path), key, value, value_at)


def key_column(line: str) -> int:
    """Where a key on this line starts (after its indentation and any `- ` marks)."""
    d = _DASHES.match(line)
    assert d is not None
    return d.end()


def sibling_keys(lines: list[str], line_no: int, key_col: int) -> set[str]:
    """The keys already written in the mapping whose keys stand at `key_col` around the line,
    so completion does not offer a key twice."""
    out: set[str] = set()
    here = lines[line_no][:MAX_LINE] if line_no < len(lines) else ""
    _, dashes, _, _ = _indent_of(here)
    # a line that opens an entry (`  - `) starts a mapping of its own: the keys above it are
    # the previous entry's
    for step in (1,) if dashes and key_col == key_column(here) else (-1, 1):
        n = line_no + step
        while 0 <= n < len(lines) and abs(n - line_no) < MAX_LINES_UP:
            line = lines[n][:MAX_LINE]
            n += step
            if _blank(line):
                continue
            kcol, dashes, k, _ = _indent_of(line)
            if kcol < key_col:
                break
            if kcol == key_col and dashes and step == 1:
                break  # the next entry of the list
            if kcol == key_col and k is not None:
                out.add(k)
            if kcol == key_col and dashes:
                break  # the first line of this entry
    return out
