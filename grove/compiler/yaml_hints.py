"""Hints for YAML syntax errors that say what the author did, not what the parser expected.

The YAML reader reports its own state ("mapping values are not allowed here", "expected <block
end>, but found '<block mapping start>'"), which names neither the mistake nor the fix. The usual
mistakes are few: a key indented too far or too little, a tab, a missing colon, an unclosed
bracket or quote. Each is recognised from the error and the lines around it, and the hint names the
column the key belongs at, taken from the keys beside it (or above it) in the author's own file.
Positions here count from 0, as the reader's marks do; the hints count from 1, as editors do.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_KEY = re.compile(r"^\s*(?:-\s+)?(?P<key>[^\s:#'\"{\[][^:#]*?|'[^']*'|\"[^\"]*\"):(?:\s|$)")
_OPENER = re.compile(r":\s*(?:#.*)?$")  # a key whose value is the block below it


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" \t"))


def _is_content(text: str) -> bool:
    stripped = text.strip()
    return bool(stripped) and not stripped.startswith("#")


def _previous(lines: Sequence[str], n: int) -> int | None:
    """The nearest line above `n` that holds more than blanks or a comment."""
    for i in range(min(n, len(lines)) - 1, -1, -1):
        if _is_content(lines[i]):
            return i
    return None


def _key(text: str) -> str | None:
    m = _KEY.match(text)
    return m.group("key").strip() if m else None


def _ancestors(lines: Sequence[str], n: int) -> list[tuple[int, str]]:
    """(column, key) of line `n` and of each block it lies in, innermost first: the columns a
    key after line `n` may start at."""
    out: list[tuple[int, str]] = []
    limit = None
    for i in range(n, -1, -1):
        text = lines[i]
        if not _is_content(text) or "\t" in text[:_indent(text)]:
            continue
        col = _indent(text)
        if text.lstrip().startswith("- "):
            col += 2  # a key after `- ` belongs beside the item's first key
        if limit is None or col < limit:
            out.append((col, _key(text) or text.strip()))
            limit = col
            if col == 0:
                break
    return out


def _siblings(lines: Sequence[str], n: int) -> tuple[int, str | None]:
    """The column the key on line `n` belongs at and a key already there: that of the line
    above it, or one step in from it when that line opens a block."""
    p = _previous(lines, n)
    if p is None:
        return 0, None
    text = lines[p]
    col = _indent(text) + (2 if text.lstrip().startswith("- ") else 0)
    if _OPENER.search(text) and _key(text):
        return col + 2, None
    return col, _key(text)


def _where(col: int, beside: str | None) -> str:
    return f"column {col + 1}" + (f", where `{beside}` starts" if beside else "")


def _tab(lines: Sequence[str], line: int) -> str:
    n = next((i for i in range(min(line, len(lines) - 1), -1, -1)
              if "\t" in lines[i][:_indent(lines[i])] or "\t" in lines[i]), line)
    text = lines[n] if n < len(lines) else ""
    col, beside = _siblings(lines, n)
    key = _key(text.replace("\t", " "))
    what = f"`{key}`" if key else "it"
    return (f"line {n + 1} is indented with a tab; YAML indents with spaces only: put {what} "
            f"at {_where(col, beside)}")


def _too_little(lines: Sequence[str], line: int) -> str | None:
    if line >= len(lines) or not _is_content(lines[line]):
        return None
    p = _previous(lines, line)
    if p is None:
        return None
    key = _key(lines[line]) or lines[line].strip()
    here = _indent(lines[line])
    dash = _list_dash(lines, line, here)
    if dash is not None:  # an entry's dash out of line: the dash is what moves, not its key
        return (f"the dash of this list entry starts at column {here + 1}, but the entries "
                f"above start theirs at column {dash + 1}: put `- ` at column {dash + 1}")
    choices = [(c, k) for c, k in _ancestors(lines, p) if c != here]
    inner = [(c, k) for c, k in choices if c > here][-1:]
    outer = [(c, k) for c, k in choices if c < here][:1]
    options = [f"at column {c + 1} beside `{k}`" for c, k in (*inner, *outer)]
    if not options:
        return None
    return (f"`{key}` starts at column {here + 1}, which lines up with no key above it: "
            f"put it " + " or ".join(options))


def _list_dash(lines: Sequence[str], line: int, here: int) -> int | None:
    """The column of the dashes of the list a `- ` entry at column `here` of `line` belongs
    to, where the entry's dash stands elsewhere: the nearest entry above at another column
    with nothing between that starts left of it."""
    if not lines[line].lstrip().startswith("- "):
        return None
    for i in range(line - 1, -1, -1):
        text = lines[i]
        if not _is_content(text):
            continue
        col = _indent(text)
        if text.lstrip().startswith("- ") and col != here and abs(col - here) <= 2:
            return col
        if col < min(here, 2) or col == 0:
            return None
    return None


def _missing_colon(text: str) -> str:
    words = text.strip().split(None, 1)
    fix = f"{words[0]}: {words[1]}" if len(words) == 2 else f"{words[0]}:"
    return f"`{text.strip()}` has no `:` after its key: write `{fix}`"


def _mapping_value(lines: Sequence[str], line: int, col: int) -> str:
    text = lines[line] if line < len(lines) else ""
    key = _key(text)
    p = _previous(lines, line)
    before = lines[p] if p is not None else ""
    if p is not None and _indent(before) <= _indent(text) and ":" not in before \
            and not before.lstrip().startswith(("-", "{", "[", "'", '"')):
        return f"line {p + 1}: " + _missing_colon(before) + \
            "; without it YAML reads that line and the next as one text"
    if key is not None and col <= text.index(":", _indent(text)):
        at, beside = _siblings(lines, line)
        if _indent(text) > at:
            return (f"`{key}` is indented further (column {_indent(text) + 1}) than the key it "
                    f"follows: put it at {_where(at, beside)}")
    return "a value containing ': ' must be quoted"


def _unclosed(problem: str, opener: tuple[int, int] | None) -> str:
    closing = "}" if "'}'" in problem else "]"
    opening = "{" if closing == "}" else "["
    at = f" at line {opener[0] + 1}, column {opener[1] + 1}" if opener else ""
    return f"the `{opening}`{at} is never closed: end it with `{closing}` on its line"


# a value (after `key:`, `- `, `{`, `[` or `,`) that opens a quote
_QUOTE_OPENS = re.compile(r"""(?:^\s*(?:-\s+)*(?:[^\s:#'"{\[][^:#]*?:\s+)?|[{\[,]\s*|:\s+)(?P<q>['"])""")


def _unclosed_quote(text: str) -> int | None:
    """The column of a quote that opens a value on this line and is not closed on it."""
    for m in _QUOTE_OPENS.finditer(text):
        q, at = m.group("q"), m.start("q")
        rest = text[at + 1:]
        # inside the value a quote doubled ('') or escaped (\") is no closing one
        rest = rest.replace("''", "") if q == "'" else re.sub(r"\\.", "", rest)
        if q not in rest:
            return at
    return None


def _quote_hint(lines: Sequence[str], at: tuple[int, int]) -> str:
    line, col = at
    q = lines[line][col] if line < len(lines) and col < len(lines[line]) else "'"
    return (f"the `{q}` at line {line + 1}, column {col + 1} is never closed, so YAML reads on "
            f"past its line: end the value with `{q}` on that line")


def open_quote(problem: str, lines: Sequence[str], what: str | None,
               context: tuple[int, int] | None) -> tuple[int, int] | None:
    """Where a quoted value that is never closed begins (from 0), when the reader's error
    comes from one: it says so itself (`what`, its context: "while scanning a quoted
    scalar"), or a `{` or `[` it calls unclosed opens a line whose quote is not closed (the
    quote swallowed the closing bracket). The error is then the author's at that quote, not
    where the reader gave up (often the end of the file)."""
    if context is None:
        return None
    if what and "quoted scalar" in what:
        return context
    if re.search(r"expected ',' or '[}\]]'", problem) and context[0] < len(lines):
        col = _unclosed_quote(lines[context[0]])
        if col is not None:
            return context[0], col
    return None


def _quote_above(lines: Sequence[str], line: int) -> tuple[int, int] | None:
    """The nearest line at or above `line` that opens a quote it does not close: where the
    reader, reading on to the next quote in the file, went astray."""
    for n in range(min(line, len(lines) - 1), -1, -1):
        text = lines[n]
        if _is_content(text):
            col = _unclosed_quote(text)
            if col is not None:
                return n, col
    return None


def hint(problem: str, lines: Sequence[str], line: int, col: int,
         context: tuple[int, int] | None, what: str | None = None) -> str | None:
    """What the author most likely did wrong, for the error `problem` the reader raised at
    (`line`, `col`), with `context` where it says the construct began (both from 0) and
    `what` the construct it was reading ("while scanning a quoted scalar")."""
    quote = open_quote(problem, lines, what, context)
    if quote is not None:
        return _quote_hint(lines, quote)
    if "duplicate key" in problem:
        return "each key may appear once in a mapping"
    if "\\t" in problem or "\t" in problem or "tab" in problem:
        return _tab(lines, line)
    if "expected <block end>" in problem:
        return _too_little(lines, line)
    if "could not find expected ':'" in problem and context is not None \
            and context[0] < len(lines):
        return f"line {context[0] + 1}: " + _missing_colon(lines[context[0]])
    if "mapping values are not allowed" in problem:
        return _mapping_value(lines, line, col)
    if re.search(r"expected ',' or '[}\]]'", problem):
        return _unclosed(problem, context)
    quote = _quote_above(lines, line)  # a quote closed only by the next one in the file
    return _quote_hint(lines, quote) if quote is not None else None
