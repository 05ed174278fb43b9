"""One diagnostic type for schema, syntax and semantic problems, printed gcc-style.

Every stage of grove reports through `Diagnostic`, so an author sees the same shape whether the
YAML is malformed, a rule does not parse, or a name does not resolve. Codes are stable: tests and
editors key on them, so a code is never renamed, only added.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Span:
    """A region of a source file; lines and columns are 1-based, `end_col` is exclusive."""

    file: str
    line: int
    col: int
    end_line: int | None = None
    end_col: int | None = None

    def __reduce__(self) -> tuple:
        # the default for a frozen slotted class sets each field through object.__setattr__:
        # a card set holds thousands of spans, and this halves the time to read it from cache
        return (Span, (self.file, self.line, self.col, self.end_line, self.end_col))

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def display(self) -> str:
        """`file:line:col` with the file relative to the working folder where it lies below it."""
        import os

        rel = os.path.relpath(self.file) if os.path.isabs(self.file) else self.file
        name = self.file if rel.startswith("..") else rel
        return f"{name}:{self.line}:{self.col}"

    def shifted(self, line: int, col: int) -> Span:
        """This span, read as relative to a text that starts at (line, col) of `self.file`."""
        first = self.line == 1
        end_first = self.end_line == 1
        return Span(
            self.file,
            line + self.line - 1,
            (col + self.col - 1) if first else self.col,
            None if self.end_line is None else line + self.end_line - 1,
            None if self.end_col is None else ((col + self.end_col - 1) if end_first else self.end_col),
        )


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    severity: Severity
    span: Span | None
    message: str
    hint: str | None = None
    notes: tuple[str, ...] = field(default=())

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "severity": str(self.severity),
            "file": self.span.file if self.span else None,
            "line": self.span.line if self.span else None,
            "col": self.span.col if self.span else None,
            "end_line": self.span.end_line if self.span else None,
            "end_col": self.span.end_col if self.span else None,
            "message": self.message,
            "hint": self.hint,
        }


def error(code: str, span: Span | None, message: str, hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, Severity.ERROR, span, message, hint)


def warning(code: str, span: Span | None, message: str, hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, Severity.WARNING, span, message, hint)


def info(code: str, span: Span | None, message: str, hint: str | None = None) -> Diagnostic:
    return Diagnostic(code, Severity.INFO, span, message, hint)


class DiagnosticError(Exception):
    """Raised where a stage cannot go on; carries every diagnostic found so far."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = tuple(diagnostics)
        super().__init__("; ".join(d.message for d in self.diagnostics))


def _source_line(span: Span, sources: dict[str, list[str]] | None) -> str | None:
    lines = None
    if sources is not None and span.file in sources:
        lines = sources[span.file]
    else:
        try:
            with open(span.file, encoding="utf-8") as fh:
                lines = fh.read().splitlines()
        except (OSError, UnicodeDecodeError):
            return None
    if 1 <= span.line <= len(lines):
        return lines[span.line - 1]
    return None


def format_text(d: Diagnostic, sources: dict[str, list[str]] | None = None) -> str:
    """gcc-style: `file:line:col: severity CODE: message`, the source line, a caret, the hint."""
    where = f"{d.span}: " if d.span else ""
    out = [f"{where}{d.severity} {d.code}: {d.message}"]
    if d.span:
        src = _source_line(d.span, sources)
        if src is not None:
            width = 1
            if d.span.end_col and (d.span.end_line in (None, d.span.line)):
                width = max(1, d.span.end_col - d.span.col)
            out.append("    " + src.rstrip("\n"))
            out.append("    " + " " * (d.span.col - 1) + "^" * width)
    if d.hint:
        out.append(f"    hint: {d.hint}")
    out.extend(f"    note: {n}" for n in d.notes)
    return "\n".join(out)


def format_json(diagnostics: Iterable[Diagnostic]) -> str:
    return "\n".join(json.dumps(d.to_json(), ensure_ascii=False) for d in diagnostics)


def sort_key(d: Diagnostic) -> tuple[str, int, int, str]:
    if d.span is None:
        return ("", 0, 0, d.code)
    return (d.span.file, d.span.line, d.span.col, d.code)
