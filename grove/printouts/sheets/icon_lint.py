"""`grove lint` findings about the icons an edition carries (`<folder>/icons/<symbol>.svg`).

A sheet quietly prints a symbol's name alone when its icon cannot be drawn, so an author would
not learn why the icon is missing; lint says so, at the line and column of the fault:

- ICON-BAD: a file grove cannot draw (not UTF-8, not XML, larger than `icons.MAX_BYTES`, a view
  box other than 0 0 24 24, an element or attribute the format does not have);
- ICON-UNSAFE: a script, an event handler, an external reference, a DOCTYPE or a processing
  instruction: harmless on a sheet (nothing is copied), refused for whoever opens the file;
- ICON-UNKNOWN-SYMBOL: a file named for no tree or type symbol of the edition or of the editions
  it expands, so no sheet would ever draw it (a typo in the name, most likely).

Files in `icons/` that are not `.svg` are passed over.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from pathlib import Path

from grove.compiler import cache
from grove.compiler.search_path import Roots
from grove.compiler.universe import Universe, load_universe
from grove.dsl.diagnostics import Diagnostic, Span, error, warning
from grove.printouts.sheets import icons

FOLDER = "icons"


def icon_files(folder: str | Path) -> list[Path]:
    """The icon files of an edition folder, by name."""
    d = Path(folder) / FOLDER
    if not d.is_dir():
        return []
    return sorted(p for p in d.iterdir() if p.suffix == ".svg" and p.is_file())


def digest(universe: Universe) -> str:
    """Of every icon file of every edition on the path: lint's cached findings depend on them.
    A file too large to be an icon counts by its size alone (its finding does not depend on
    more, and it is never read)."""
    parts = []
    for e in sorted(universe.editions.values(), key=lambda e: e.id):
        for p in icon_files(e.folder):
            size = p.stat().st_size
            parts.append(f"{p}\0{size if size > icons.MAX_BYTES else cache.file_digest(p)}")
    return cache.key("icons", *parts)


def check_file(path: Path, symbols: Iterable[str], edition: str) -> list[Diagnostic]:
    """Findings for one icon file; `symbols`: the tree and type symbols it may be named for."""
    out: list[Diagnostic] = []
    known = sorted(set(symbols))
    name = path.stem
    if name not in known:
        close = difflib.get_close_matches(name, known, n=1)
        out.append(warning(
            "ICON-UNKNOWN-SYMBOL", Span(str(path), 1, 1),
            f"icon '{path.name}' is named for no tree or type symbol of edition '{edition}', "
            "so no sheet draws it",
            f"did you mean '{close[0]}.svg'?" if close else
            "name the file after a symbol id of edition.yaml: " + ", ".join(known[:12])
            + (" ..." if len(known) > 12 else "")))
    if path.stat().st_size > icons.MAX_BYTES:  # not read: it could be any size
        out.append(error("ICON-BAD", Span(str(path), 1, 1),
                         f"icon '{path.name}' is larger than {icons.MAX_BYTES // 1024} KiB",
                         "an icon is a few shapes in a 24 x 24 box; simplify the drawing"))
        return out
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        out.append(error("ICON-BAD", Span(str(path), *icons.position(data, exc.start)),
                         f"icon '{path.name}' is not UTF-8 text", "save it as UTF-8"))
        return out
    try:
        icons.parse(text, name)
    except icons.IconError as exc:
        where, what = Span(str(path), exc.line, exc.col), f"icon '{path.name}': {exc.message}"
        if exc.unsafe:
            out.append(error("ICON-UNSAFE", where, what,
                             "remove it: an icon is drawn from its shapes alone"))
        else:
            out.append(error("ICON-BAD", where, what,
                             "an icon is an <svg viewBox=\"0 0 24 24\"> of path, circle, ellipse, "
                             "rect, polygon and polyline elements (docs/sheets.md, Icons)"))
    return out


def lint(roots: Roots, wanted: Iterable[str], universe: Universe | None = None
         ) -> list[Diagnostic]:
    """Findings for the icons of every edition in `wanted` (in `universe` where the caller has
    it loaded already, as lint and the language server have)."""
    universe = universe if universe is not None else load_universe(roots)
    out: list[Diagnostic] = []
    for eid in sorted(set(wanted)):
        e = universe.editions.get(eid)
        if e is None:
            continue
        symbols = [s.id for ed in universe.lineage(e) for s in ed.symbols
                   if s.kind in ("tree", "type")]
        for path in icon_files(e.folder):
            out += check_file(path, symbols, e.id)
    return out
