"""A game record read into diagnostics: its size and encoding checked before it is read whole,
the record reader's messages given their `file:line:col`, the differences a replay finds placed
at the record's lines. `replay` and `play --resume` replay records; `lint` and `score` read files
that may be records; the printer places a RECORD-BAD that came without a position.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from grove.dsl.diagnostics import Diagnostic, DiagnosticError, Severity, Span

# A record is read whole, so its size is checked first: five random players record 40 KB
MAX_RECORD_BYTES = 4 * 1024 * 1024
# the differences `runner.replay` finds in a record that `grove play --resume` goes on with or
# finishes: cut short (no end or stop line), or a stop line after the game's last action
FINISHABLE = ("the record ends", "stop line: the game is over")
_AT = re.compile(r"(\d+)(?::(\d+))?: (.*)", re.S)


def record_size(path: str, record: bool) -> None:
    """INPUT-TOO-LARGE for a file beyond `MAX_RECORD_BYTES`, before anything reads it: the
    record reader holds a whole record (a forest file's own, lower limit is the forest reader's).
    """
    try:
        size = os.stat(path).st_size
    except OSError:
        return  # not there: the reader says so
    if size > MAX_RECORD_BYTES:
        from grove.compiler.yaml_source import MAX_FOREST_FILE_BYTES

        limits = (f"a game record of at most {MAX_RECORD_BYTES}" if record else
                  f"a forest file of at most {MAX_FOREST_FILE_BYTES} bytes or a game record of "
                  f"at most {MAX_RECORD_BYTES}")
        raise DiagnosticError([Diagnostic(
            "INPUT-TOO-LARGE", Severity.ERROR, Span(path, 1, 1),
            f"the file has {size} bytes; grove reads {limits} bytes")])


def record_text(path: str) -> None:
    """IO-ENCODING (exit 2, as for every file that is not UTF-8) at the first byte that is not,
    rather than the record reader's RECORD-BAD without a place."""
    raw = Path(path).read_bytes()
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise DiagnosticError([Diagnostic("IO-ENCODING", Severity.ERROR, Span(path, line, col),
                                          f"not UTF-8 text ({exc.reason})")]) from None


def record_bad(message: str, path: str) -> Diagnostic:
    """RECORD-BAD from the engine's record reader, whose message starts `path:line[:col]: `:
    that position becomes the diagnostic's, so it prints as `file:line:col` and with `--json`
    fills `line` and `col`, like every other diagnostic."""
    hint = "a record is what `grove play --record FILE` writes"
    m = _AT.fullmatch(message[len(path) + 1:]) if message.startswith(f"{path}:") else None
    if m:
        col = int(m[2]) if m[2] else 1
        return Diagnostic("RECORD-BAD", Severity.ERROR, Span(path, int(m[1]), col), m[3], hint)
    return Diagnostic("RECORD-BAD", Severity.ERROR, None, message, hint)


# where a message names its file, for `positioned`: the position itself is `record_bad`'s to read
_NAMED = re.compile(r"(.+?):\d+(?::\d+)?: ", re.S)


def positioned(d: Diagnostic) -> Diagnostic:
    """A RECORD-BAD raised without a position (`grove score` or `grove lint` of a record; the
    forest reader keeps the record reader's message), given the one its message starts with:
    the same diagnostic replay prints for the same record."""
    if d.code != "RECORD-BAD" or d.span is not None:
        return d
    m = _NAMED.match(d.message)
    if m is None or not os.path.isfile(m[1]):
        return d
    found = record_bad(d.message, m[1])
    return Diagnostic(d.code, d.severity, found.span, found.message, d.hint or found.hint)


def record_lines(path: str) -> list[int]:
    """The numbers of a record's non-blank lines: the reader skips blank ones, so the n-th line
    it read is the file's line `record_lines(path)[n - 1]`."""
    with open(path, encoding="utf-8") as fh:
        found = [n for n, line in enumerate(fh, 1) if line.strip()]
    return found or [1]


def difference(problem: str, path: str, lines: list[int], header: dict[str, Any] | None = None
               ) -> Diagnostic:
    """A difference `runner.replay` found (`line N: ...`, `end line: ...`, `stop line: ...`,
    `header: ...`) as RECORD-DIFFERS at the line of the record it concerns, with what to do
    about it (`header`, the record's, names the grove that wrote it and the game it began as)."""
    m = re.match(r"line (\d+): (.*)", problem, re.S)
    if m:
        n = int(m[1])
        at, message = (lines[n - 1] if n <= len(lines) else n), m[2]
    elif problem.startswith(("end line:", "stop line:")):
        at, message = lines[-1], problem
    else:
        at, message = lines[0], problem
    hint = (f"`grove play --resume {path}` writes the end line" if problem.startswith(FINISHABLE)
            else differs_hint(header or {}))
    return Diagnostic("RECORD-DIFFERS", Severity.ERROR, Span(path, at, 1), message, hint)


def differs_hint(header: dict[str, Any]) -> str:
    """What to do with a record whose game replays otherwise: another grove wrote it (its
    engine or AIs may have changed since), or the file was changed after it was written. Either
    way the game it began as can be played again, from the header, into a new record."""
    from grove import __version__

    players = header.get("players") if isinstance(header.get("players"), list) else []
    kinds = ",".join(str(p.get("ai")) for p in players if isinstance(p, dict))
    with_ = ",".join(map(str, header.get("with") or ()))
    again = (f"`grove play --edition {header.get('edition')}{' --with ' + with_ if with_ else ''}"
             f" --ai {kinds} --seed {header.get('seed')} -o NEW.jsonl` plays its game again "
             "into a new record")
    wrote, now = header.get("grove"), __version__
    if wrote and wrote != now:
        return (f"grove {wrote} wrote this record and this is grove {now}, whose games may "
                f"differ: replay it with grove {wrote}, or {again}")
    return f"the record was changed after grove wrote it; {again}, to compare the two"


def replayed(record_file: str, roots) -> tuple[Any, Any, Any, list[str], list[int]]:
    """A record read, its card set built and checked, and its game replayed: the record, the
    card set, the game, the differences found and the record's line numbers (`replay` and
    `play --resume` alike)."""
    from grove.compiler import cardset as cs
    from grove.dsl.diagnostics import error
    from grove.engine import record as rec
    from grove.engine import runner

    where = Path(record_file)
    if where.exists() and not where.is_file() and not where.is_dir():  # a read would hang
        raise DiagnosticError([error("IO-READ", None, f"{record_file}: is not a regular file "
                                     "(a FIFO, device or socket): grove does not read it")])
    if not where.is_file():  # a file that is not there is a usage error (exit 2), not a bad record
        raise DiagnosticError([error("IO-NOT-FOUND", None, f"{record_file}: " + (
            "is a directory" if where.is_dir() else "no such file"))])
    record_size(record_file, record=True)
    record_text(record_file)
    try:
        r = rec.read(record_file)
    except rec.RecordError as exc:
        raise DiagnosticError([record_bad(str(exc), record_file)]) from None
    lines = record_lines(record_file)
    h = r.header
    try:
        cset = cs.build(str(h.get("edition")), list(h.get("with") or ()), roots)
        changed = rec.changed_cards(cset, h)
        if changed:  # a replay against other cards would only report a confusing difference
            raise DiagnosticError([error(
                "RECORD-CARDS-CHANGED", Span(record_file, lines[0], 1), c,
                "replay with the card set the game was played with (--cards DIR or GROVE_CARDS)")
                for c in changed])
        game, problems = runner.replay(cset, r)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise DiagnosticError([error(
            "RECORD-BAD", Span(record_file, lines[0], 1),
            f"the header is incomplete ({type(exc).__name__}: {exc})",
            "a record is what `grove play --record FILE` writes")]) from None
    return r, cset, game, problems, lines
