"""One diagnostic type for schema, syntax and semantic problems, printed gcc-style.

Every stage of grove reports through `Diagnostic`, so an author sees the same shape whether the
YAML is malformed, a rule does not parse, or a name does not resolve. Codes are stable: tests and
editors key on them, so a code is never renamed, only added.
"""

from __future__ import annotations

import json
import re
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


# Bidirectional controls reorder what a terminal shows (U+202E makes `x.yaml` read `lmay.x`), and
# other controls move the cursor or ring the bell: input echoed in a diagnostic shows them escaped,
# as does a lone surrogate (from a YAML "\ud800"), which cannot even be written as UTF-8. One
# pattern finds them, so a long text with none (a run's summary, a JSON result) is scanned in C.
_ESCAPED = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029"
                      r"\u2066-\u2069\ud800-\udfff]")
WINDOW = 80  # characters of a source line shown either side of the caret's start
MAX_ECHO = 1000  # characters of a message, hint or note printed before it is cut


def _escaped(m: re.Match[str]) -> str:
    code = ord(m.group())
    return f"\\u{code:04x}" if code > 0xFF else f"\\x{code:02x}"


def escape(text: str) -> str:
    """`text` with control and bidirectional characters written as escapes, so echoed input can
    neither reorder nor rewrite what the terminal shows."""
    if text.isprintable():  # the common case, and every character kept as it is
        return text
    return _ESCAPED.sub(_escaped, text)


def shorten(text: str, limit: int = MAX_ECHO) -> str:
    """`text` cut to `limit` characters, saying how much was left out: input echoed in a message
    (a value, a name) must not turn one diagnostic into megabytes of output."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"


def echo_text(text: str) -> str:
    """A message, hint or note: cut, and escaped line by line (grove's own messages may span
    lines; a newline inside echoed input comes quoted by `repr` already)."""
    return "\n".join(escape(line) for line in shorten(text).split("\n"))


def _window(src: str, col: int, width: int) -> tuple[str, int, int]:
    """The part of a source line around a caret at 1-based `col` (`width` wide), escaped, with
    the caret's offset and width in that text; a cut end is marked with `...`."""
    width = min(max(width, 1), WINDOW)  # a caret under a whole 2 MB token is no window
    start = max(0, col - 1 - WINDOW)
    end = min(len(src), col - 1 + width + WINDOW)
    before = escape(src[start:col - 1])
    marked = escape(src[col - 1:col - 1 + width])
    after = escape(src[col - 1 + width:end])
    head = "..." if start > 0 else ""
    tail = "..." if end < len(src) else ""
    return head + before + marked + after + tail, len(head) + len(before), max(1, len(marked))


def format_text(d: Diagnostic, sources: dict[str, list[str]] | None = None) -> str:
    """gcc-style: `file:line:col: severity CODE: message`, the source line, a caret, the hint.

    Everything that comes from the input is escaped and cut (`escape`, `shorten`), and a long
    source line is shown as a window around the caret, so one error prints a few lines whatever
    the file holds."""
    where = f"{echo_text(str(d.span))}: " if d.span else ""
    out = [f"{where}{d.severity} {d.code}: {echo_text(d.message)}"]
    if d.span:
        src = _source_line(d.span, sources)
        if src is not None:
            width = 1
            if d.span.end_col and (d.span.end_line in (None, d.span.line)):
                width = max(1, d.span.end_col - d.span.col)
            shown, offset, marks = _window(src.rstrip("\n"), d.span.col, width)
            out.append("    " + shown)
            out.append("    " + " " * offset + "^" * marks)
    if d.hint:
        out.append(f"    hint: {echo_text(d.hint)}")
    out.extend(f"    note: {echo_text(n)}" for n in d.notes)
    return "\n".join(out)


def escape_json(text: str) -> str:
    """JSON text (`json.dumps(..., ensure_ascii=False)`) with bidirectional and C1 controls
    written as `\\u` escapes: the same document to a JSON reader, harmless on a terminal. Every
    JSON grove prints (diagnostics, and a command's `--json` result) passes here."""
    if text.isprintable():
        return text
    return _ESCAPED.sub(lambda m: m.group() if m.group() == "\n" else f"\\u{ord(m.group()):04x}",
                        text)


def format_json(diagnostics: Iterable[Diagnostic]) -> str:
    """One JSON object per line; bidirectional and C1 controls are written as `\\u` escapes
    (`escape_json`), long messages cut as in text."""
    def one(d: Diagnostic) -> str:
        obj = d.to_json()
        for k in ("message", "hint"):
            if isinstance(obj[k], str):
                obj[k] = shorten(obj[k])
        return escape_json(json.dumps(obj, ensure_ascii=False))

    return "\n".join(one(d) for d in diagnostics)


def sort_key(d: Diagnostic) -> tuple[str, int, int, str]:
    if d.span is None:
        return ("", 0, 0, d.code)
    return (d.span.file, d.span.line, d.span.col, d.code)
