"""Render sheets and write them to disk whole (`files.write`), with one clear error for bad
input."""

from __future__ import annotations

import os
from pathlib import Path

from grove.compiler.cardset import CardSet
from grove.dsl.diagnostics import Diagnostic, DiagnosticError, Severity
from grove.files.folders import made_for
from grove.files.write import refusal, write_bytes
from grove.printouts.sheets import catalog, html, pdf
from grove.printouts.sheets.content import build_sheet
from grove.printouts.sheets.fonts import FontProblem, require_shaping
from grove.printouts.sheets.layout import PAPERS

FORMATS = ("pdf", "html")


def _fail(code: str, message: str) -> DiagnosticError:
    return DiagnosticError([Diagnostic(code, Severity.ERROR, None, message)])


def default_name(cs: CardSet, lang: str, fmt: str) -> str:
    return f"sheet-{'+'.join(e.id for e in cs.editions)}-{lang}.{fmt}"


def targets(cs: CardSet, langs: list[str], out: str | None, fmt: str) -> list[Path]:
    """Where each language's sheet goes: `out` is the file for a single language (or a folder
    to put it in), and the folder for several."""
    names = [default_name(cs, lang, fmt) for lang in langs]
    if out is None:
        return [Path(n) for n in names]
    target = Path(out)
    if len(langs) == 1 and not target.is_dir() and not out.endswith(os.sep):
        return [target]
    return [target / n for n in names]


def render(cs: CardSet, lang: str, fmt: str, paper: str) -> bytes:
    sheet = build_sheet(cs, lang)
    if fmt == "html":
        return html.render(sheet, paper).encode("utf-8")
    from reportlab.platypus.doctemplate import LayoutError

    try:
        return pdf.render(sheet, paper)
    except LayoutError:  # what lint's sheet check finds, said as the reason, not a traceback
        from dataclasses import replace

        from grove.printouts.sheets.lint import check_sheet

        found = [replace(d, severity=Severity.ERROR) for d in check_sheet(cs, lang)
                 if d.code == "SHEET-OVERFLOW"]
        raise DiagnosticError(found or [Diagnostic(
            "SHEET-OVERFLOW", Severity.ERROR, cs.root.span,
            f"sheet {lang} ({paper}): a row is taller than a page holds",
            "shorten the longest names and rules text; `grove lint` lists what may not fit")]
        ) from None


def write_sheets(cs: CardSet, langs: list[str], out: str | None, fmt: str = "pdf",
                 paper: str = "a4") -> list[Path]:
    known = catalog.languages()
    bad = [lang for lang in langs if lang not in known]
    if bad or not langs:
        raise _fail("USAGE-LANGUAGE", f"unknown language {bad[0]!r}; sheets exist in "
                    f"{', '.join(known)}" if bad else "give at least one language with --lang")
    if fmt not in FORMATS:
        raise _fail("USAGE-FORMAT", f"unknown format {fmt!r}; choose pdf or html")
    if paper not in PAPERS:
        raise _fail("USAGE-PAPER", f"unknown paper {paper!r}; choose {' or '.join(PAPERS)}")
    langs = list(dict.fromkeys(langs))
    paths = targets(cs, langs, out, fmt)
    for path in paths:  # before rendering: a target grove may not replace is left alone
        why = refusal(path) if path.parent.is_dir() else None  # a folder to make: made below
        if why is not None:
            raise _fail("IO-WRITE", f"{path}: cannot write the sheet: {why}")
    try:
        if fmt == "pdf":
            require_shaping()
        rendered = [render(cs, lang, fmt, paper) for lang in langs]
    except FontProblem as exc:
        raise _fail("SHEET-SHAPING", str(exc)) from None
    try:
        folder = [out] if out is not None and paths[0].parent == Path(out) else []
        with made_for(*folder):  # `out` is the folder: made, and removed if nothing lands
            for path, data in zip(paths, rendered, strict=True):
                write_bytes(path, data)  # the old file or the whole new one, never half
    except OSError as exc:
        where = exc.filename or out or "."
        raise _fail("IO-WRITE", f"{where}: cannot write the sheet: "
                    f"{exc.strerror or exc}") from None
    return paths
