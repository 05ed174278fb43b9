"""The formats of a card set's files, and the steps that lift an old one to the current one.

An author's card set must not stop working because grove moved on. edition.yaml may say which
format it is written in (`format: 2026-12-02`); without the key it is read as the oldest format
that fits, which is the same as saying: every upgrade step applies where its old shape is found.
Each step below knows one field that changed, finds its old shape and rewrites it in place. The
loader runs the steps on the values it read, before schema validation, and warns (FORMAT-OLD)
at the old field; `grove migrate` runs the same steps on a round-trip copy of the file and
writes it back with its comments and layout. One list of steps serves both, so what lint
accepts and what migrate writes cannot drift apart.
"""

from __future__ import annotations

import datetime
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import CommentMark
from ruamel.yaml.tokens import CommentToken

from grove.compiler.yaml_source import Document, PathKey
from grove.dsl.diagnostics import Diagnostic, Span, error, escape, shorten, warning

# Every format grove has read, oldest first: a format is named by the day it began.
FORMATS = ("2026-12-02", "2026-12-03")
CURRENT = FORMATS[-1]
FORMAT_KEY = "format"

# What grove printed for a scorepad row given as a plain id in the format of 2026-12-02 (the
# catalog grove/report.py held then); a row it did not know printed as its id.
_OLD_ROW_NAMES = {
    "trees": {"en": "Trees", "de": "Bäume", "it": "Alberi", "th": "ต้นไม้"},
    "top": {"en": "Top", "de": "Oben", "it": "Sopra", "th": "ด้านบน"},
    "bottom": {"en": "Bottom", "de": "Unten", "it": "Sotto", "th": "ด้านล่าง"},
    "left": {"en": "Left", "de": "Links", "it": "Sinistra", "th": "ด้านซ้าย"},
    "right": {"en": "Right", "de": "Rechts", "it": "Destra", "th": "ด้านขวา"},
    "cave": {"en": "Cave", "de": "Höhle", "it": "Grotta", "th": "ถ้ำ"},
    "moors": {"en": "Moors", "de": "Moore", "it": "Brughiere", "th": "ทุ่งพรุ"},
    "rivers": {"en": "Rivers", "de": "Flüsse", "it": "Fiumi", "th": "แม่น้ำ"},
}


@dataclass(frozen=True)
class Found:
    """One old field in a document: where it is (a path for `Document.span`) and what to say."""

    path: tuple[PathKey, ...]
    message: str


@dataclass(frozen=True)
class Step:
    """One change of the format. Files written in format `until` or earlier may hold the old
    shape; `find` lists each place it occurs and `fix` rewrites them all in place."""

    until: str
    what: str  # one line for docs and `grove migrate --check`
    find: Callable[[CommentedMap], list[Found]]
    fix: Callable[[CommentedMap], None]


def _find_combines_with(data: CommentedMap) -> list[Found]:
    if "combines_with" not in data:
        return []
    return [Found(("combines_with",),
                  "`combines_with` is the format of 2026-12-02 and is ignored: since 2026-12-03 "
                  "each expansion names its base with `expansion_of`, and the removal rows of a "
                  "combination live in the expansion's `setup.removed`")]


def _comment_lines(container: Any, key: Any) -> str:
    """The whole-line comments (and blank lines) after `key`'s line, which the round-trip
    loader keeps with `key` though they lead into what follows it."""
    entry = getattr(container, "ca", None) and container.ca.items.get(key)
    slot = 2 if isinstance(container, CommentedMap) else 0
    token = entry[slot] if entry and len(entry) > slot else None
    if token is None:
        return ""
    eol, _, rest = token.value.partition("\n")
    token.value = eol + "\n" if eol.strip() else "\n"
    if not eol.strip():
        entry[slot] = None
    return rest


def _append_comment_lines(container: Any, key: Any, text: str) -> None:
    """`text` (comment lines) put back after `key`'s value: after the last line it ends on."""
    if not text:
        return
    value = container[key]
    if isinstance(value, (CommentedMap, CommentedSeq)) and value and not value.fa.flow_style():
        last = next(reversed(value)) if isinstance(value, CommentedMap) else len(value) - 1
        _append_comment_lines(value, last, text)
        return
    slot = 2 if isinstance(container, CommentedMap) else 0
    entry = container.ca.items.setdefault(key, [None, None, None, None])
    if entry[slot] is None:
        entry[slot] = CommentToken("\n" + text, CommentMark(0), None)
    else:
        entry[slot].value += text


def _fix_combines_with(data: CommentedMap) -> None:
    keys = list(data)
    at = keys.index("combines_with")
    rest = _comment_lines(data, "combines_with")
    data.pop("combines_with")
    data.ca.items.pop("combines_with", None)
    if at > 0:  # the comments that followed it now follow the key before it
        _append_comment_lines(data, keys[at - 1], rest)


def _plain_rows(data: CommentedMap) -> list[int]:
    rows = data.get("scorepad")
    if not isinstance(rows, list):
        return []
    return [i for i, r in enumerate(rows) if isinstance(r, str)]


def _row_names(data: CommentedMap, row: str) -> dict[str, str]:
    """The names a plain row gets: those grove printed for it then, else the plural (or names)
    of the host whose category it is, else its id, as grove printed it."""
    if row in _OLD_ROW_NAMES:
        return dict(_OLD_ROW_NAMES[row])
    hosts = data.get("hosts")
    for host in (hosts.values() if isinstance(hosts, dict) else ()):
        if isinstance(host, dict) and host.get("category") == row:
            names = host.get("plural") or host.get("names")
            if isinstance(names, dict) and names:
                return {str(k): str(v) for k, v in names.items()}
    return {"en": row}


def _find_plain_rows(data: CommentedMap) -> list[Found]:
    out = []
    for i in _plain_rows(data):
        row = str(data["scorepad"][i])
        names = ", ".join(f"{k}: {v}" for k, v in _row_names(data, row).items())
        out.append(Found(("scorepad", i),
                         f"scorepad row `{row}` as a plain id is the format of 2026-12-02: since "
                         f"2026-12-03 a row names itself, read as `{{id: {row}, names: "
                         f"{{{names}}}}}`"))
    return out


def _fix_plain_rows(data: CommentedMap) -> None:
    rows = data["scorepad"]
    for i in _plain_rows(data):
        row = str(rows[i])
        names = CommentedMap(_row_names(data, row))
        names.fa.set_flow_style()
        entry = CommentedMap([("id", row), ("names", names)])
        entry.fa.set_flow_style()
        rows[i] = entry
    if isinstance(rows, CommentedSeq) and rows.fa.flow_style():
        rows.fa.set_block_style()  # rows of flow mappings read one a line, as the shipped sets
        # the comment lines after `scorepad: [...]` go after the last row, not before the first
        _append_comment_lines(data, "scorepad", _comment_lines(data, "scorepad"))


STEPS: tuple[Step, ...] = (
    Step("2026-12-02", "`combines_with` removed: expansions name their base (`expansion_of`)",
         _find_combines_with, _fix_combines_with),
    Step("2026-12-02", "`scorepad` rows: a plain id becomes `{id, names}`",
         _find_plain_rows, _fix_plain_rows),
)


def _declared(data: CommentedMap) -> Any:
    value = data.get(FORMAT_KEY)
    return value.isoformat() if isinstance(value, datetime.date) else value


def _steps_for(declared: Any) -> tuple[Step, ...]:
    """The steps a file in format `declared` needs (None: the oldest format that fits)."""
    start = FORMATS[0] if declared is None else str(declared)
    return tuple(s for s in STEPS if start <= s.until)


def _unknown(declared: Any) -> str | None:
    """Why `declared` is no format grove reads, or None if it is one (or absent)."""
    if declared is None or declared in FORMATS:
        return None
    said = shorten(escape(str(declared)), 40)
    if isinstance(declared, str) and re.fullmatch(r"\d{4}-\d\d-\d\d", declared) \
            and declared > CURRENT:
        return f"format {said} is newer than this grove reads (up to {CURRENT})"
    return f"format '{said}' is none grove has read ({', '.join(FORMATS)})"


def upgrade(doc: Document, schema: str) -> tuple[Diagnostic, ...]:
    """Lift `doc` (a file of `schema`, as read) to the current format in memory: every old
    field is rewritten as its replacement says, with a FORMAT-OLD warning at it. A `format` the
    YAML read as a date is kept as its text, which the schema expects."""
    data = doc.data
    if schema != "edition" or not isinstance(data, CommentedMap):
        return ()
    declared = _declared(data)
    if declared is not None:
        data[FORMAT_KEY] = declared
    why = _unknown(declared)
    if why is not None:
        return (error("FORMAT-UNKNOWN", doc.span([FORMAT_KEY]), why,
                      f"write one of {', '.join(FORMATS)}, or use a newer grove"),)
    out = []
    for step in _steps_for(declared):
        found = step.find(data)
        out.extend(warning("FORMAT-OLD", doc.span(list(f.path), key=True), f.message,
                           "`grove migrate` rewrites the file in the current format")
                   for f in found)
        if found:
            step.fix(data)
    return tuple(out)


@dataclass(frozen=True)
class Migration:
    """What `migrate_text` did to one file: the new text and each change, where it was."""

    text: str
    changes: tuple[Diagnostic, ...]

    @property
    def changed(self) -> bool:
        return bool(self.changes)


def _round_trip() -> YAML:
    y = YAML(typ="rt", pure=True)
    y.preserve_quotes = True
    y.width = 4096  # never re-wrap an author's long line
    y.indent(mapping=2, sequence=4, offset=2)  # the shipped sets' `  - item` under a key
    return y


def migrate_text(raw: str, path: str) -> Migration:
    """`raw` (an edition.yaml in any format grove reads) rewritten in the current format by a
    round trip that keeps comments, key order and quoting; unchanged text if nothing is old.
    Raises `DiagnosticError` for text that is no YAML mapping or names an unknown format."""
    from grove.compiler.yaml_source import loads
    from grove.dsl.diagnostics import DiagnosticError

    doc = loads(raw, path)  # YAML errors as grove's diagnostics, and the positions of the values
    if not isinstance(doc.data, CommentedMap):
        raise DiagnosticError([error("SCHEMA-TYPE", Span(path, 1, 1),
                                     "expected a mapping at the top")])
    changes = list(upgrade(doc, "edition"))
    if any(d.is_error for d in changes):
        raise DiagnosticError(changes)
    declared = _declared(doc.data)
    if declared is not None and declared != CURRENT:  # nothing old in it, but it says so
        changes.append(warning("FORMAT-OLD", doc.span([FORMAT_KEY]),
                               f"written in format {declared}; the current one, {CURRENT}, "
                               "reads it the same", "`grove migrate` writes the current one"))
    if not changes:
        return Migration(raw, ())
    y = _round_trip()
    data = y.load(raw)
    for step in _steps_for(_declared(data)):
        if step.find(data):
            step.fix(data)
    stamp = datetime.date.fromisoformat(CURRENT)
    if FORMAT_KEY in data:
        data[FORMAT_KEY] = stamp
    else:
        data.insert(min(1, len(data)), FORMAT_KEY, stamp)
    out = io.StringIO()
    y.dump(data, out)
    return Migration(out.getvalue(), tuple(changes))

