"""Go to definition and the outline of a file.

A name leads to its declaration: a species to its `- id:` line, a symbol or host to its entry in
`edition.yaml`. The outline lists the species of a card file (the players of a forest file, the
symbols and hosts of an edition), read off the lines so that it stays while a line is half
typed.
"""

from __future__ import annotations

import re
from pathlib import Path

from lsprotocol import types

from grove.dsl.diagnostics import Span
from grove.lsp.text import MAX_LINE, span_range, utf16_col

_ENTRY = re.compile(r"^(?P<lead>\s*-\s+)(?P<key>id|name):\s*(?P<value>[^\s#{}\[\],]+)")
_TOP = re.compile(r"^(?P<key>[a-z_]+)\s*:")
_MAP_KEY = re.compile(r"^(?P<indent>\s+)(?P<key>[a-z][a-z0-9_]*)\s*:")


def location(span: Span, lines_of, enc: str = "utf-16") -> types.Location:
    """The declaration's place; its line's text (from `lines_of(file)`) sizes the range, as
    a diagnostic's (`text.span_range`)."""
    return types.Location(Path(span.file).resolve().as_uri(),
                          span_range(span, lines_of(span.file), enc))


def _symbol(name: str, detail: str | None, kind: types.SymbolKind, lines: list[str],
            first: int, last: int, col: int, end_col: int, enc: str) -> types.DocumentSymbol:
    last_text = lines[last][:MAX_LINE] if last < len(lines) else ""
    return types.DocumentSymbol(
        name=name, detail=detail, kind=kind,
        range=types.Range(types.Position(first, 0),
                          types.Position(last, utf16_col(last_text, len(last_text), enc))),
        selection_range=types.Range(types.Position(first, utf16_col(lines[first], col, enc)),
                                    types.Position(first, utf16_col(lines[first], end_col, enc))))


def _entries(lines: list[str], list_key: str, key: str, kind: types.SymbolKind,
             detail_of, enc: str) -> list[types.DocumentSymbol]:
    """One symbol per `- KEY: value` entry of the top-level list `list_key`."""
    out: list[types.DocumentSymbol] = []
    inside = False
    open_: tuple[str, int, int, int] | None = None
    last_content = 0

    def close(upto: int) -> None:
        if open_ is not None:
            name, first, col, end_col = open_
            out.append(_symbol(name, detail_of(lines, first, upto), kind, lines, first,
                               max(first, upto), col, end_col, enc))

    for n, raw in enumerate(lines):
        line = raw[:MAX_LINE]
        top = _TOP.match(line)
        if top:
            if inside:
                close(last_content)
                open_ = None
            inside = top["key"] == list_key
            continue
        if not inside:
            continue
        m = _ENTRY.match(line)
        if m and m["key"] == key:
            close(last_content)
            open_ = (m["value"], n, m.start("value"), m.end("value"))
        if line.strip() and not line.lstrip().startswith("#"):
            last_content = n
    if inside:
        close(last_content)
    return out


def _species_detail(lines: list[str], first: int, last: int) -> str | None:
    for line in lines[first:last + 1]:
        m = re.search(r"\ben:\s*([^,}]+)", line)
        if m and "names" in line:
            return m.group(1).strip()
    return None


def _edition_symbols(lines: list[str], enc: str) -> list[types.DocumentSymbol]:
    """The symbols (by kind) and hosts an edition.yaml declares."""
    out: list[types.DocumentSymbol] = []
    section: str | None = None
    sub: str | None = None
    for n, raw in enumerate(lines):
        line = raw[:MAX_LINE]
        top = _TOP.match(line)
        if top:
            section, sub = top["key"], None
            continue
        m = _MAP_KEY.match(line)
        if not m or section not in ("symbols", "hosts"):
            continue
        depth = len(m["indent"])
        if section == "symbols" and depth == 2:
            sub = m["key"]
        elif (section == "symbols" and depth == 4) or (section == "hosts" and depth == 2):
            what = f"{sub} symbol" if section == "symbols" else "host"
            kind = types.SymbolKind.EnumMember if section == "symbols" else types.SymbolKind.Struct
            out.append(_symbol(m["key"], what, kind, lines, n, n, depth, depth + len(m["key"]),
                               enc))
    return out


def outline(file_name: str, schema: str, lines: list[str], enc: str = "utf-16"
            ) -> list[types.DocumentSymbol]:
    if file_name == "edition.yaml":
        return _edition_symbols(lines, enc)
    if schema == "cardset":
        return _entries(lines, "species", "id", types.SymbolKind.Class, _species_detail, enc)
    if schema == "forest":
        return _entries(lines, "players", "name", types.SymbolKind.Object, lambda *_: "player",
                        enc)
    return []
