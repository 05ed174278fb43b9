"""Words of a card file that no printout can carry: TEXT-UNPRINTABLE.

YAML's escapes let a card file hold text that cannot be printed: a lone surrogate ("\\ud800")
is no Unicode character at all, so it cannot be written as UTF-8 to a terminal, a JSON file or
a sheet, and a control character ("\\x1b", "\\x07", DEL, C1) is nothing a page can show (XML,
which the sheets are built from, refuses the C0 controls outright). Each such value is reported
once, as an error at the value that holds it, by every command that prints the words: `grove
lint`, `grove cards` (which still lists the cards, the characters escaped as they are here, so
the author sees which they are) and `grove sheet` (which writes nothing). Tab, line feed and
carriage return are text: a rule written as a YAML block has line breaks.

The walk goes over every value of an edition's declared facts, so a word printed anywhere (a
name, a plural, a scorepad row, a rule) is covered without a list of fields to keep in step;
spans, the folder and the digest are grove's own and are not looked into.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping

from grove.compiler.model import EditionDef
from grove.dsl.diagnostics import Diagnostic, Severity, Span, sort_key

CODE = "TEXT-UNPRINTABLE"
_NOT_DATA = frozenset({"span", "field_spans", "folder", "file", "digest", "provisional"})


def is_unprintable(ch: str) -> bool:
    o = ord(ch)
    return ((o < 0x20 and ch not in "\t\n\r") or 0x7F <= o <= 0x9F or 0xD800 <= o <= 0xDFFF
            or o in (0xFFFE, 0xFFFF))


def shown(ch: str) -> str:
    """A character as a YAML double-quoted escape, the way an author would have written it."""
    o = ord(ch)
    return f"\\x{o:02x}" if o <= 0xFF else f"\\u{o:04x}"


def unprintable(text: str) -> list[str]:
    """The characters of `text` no printout can carry, each once, in order."""
    if text.isprintable():  # the common case: nothing to look for
        return []
    return list(dict.fromkeys(ch for ch in text if is_unprintable(ch)))


def escaped(text: str) -> str:
    """`text` with its unprintable characters written as escapes (`shown`)."""
    return "".join(shown(ch) if is_unprintable(ch) else ch for ch in text)


def _bad_values(obj: object, where: str, span: Callable[[], Span | None],
                top: bool = False) -> Iterator[tuple[str, str, Callable[[], Span | None]]]:
    """(text, what holds it, its nearest span) for every string inside `obj` that holds an
    unprintable character; the span is looked up only for those (a field's span is a lookup
    in the YAML reader's mapping, slower than the whole walk)."""
    if isinstance(obj, str):
        if not obj.isprintable() and unprintable(obj):
            yield obj, where, span
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        own = getattr(obj, "span", None)
        here_span = (lambda: own) if isinstance(own, Span) else span
        fields = getattr(obj, "field_spans", None) or {}
        label = getattr(obj, "id", None) or getattr(obj, "field", None)
        here = f"{where} {label}" if isinstance(label, str) and label and not top else where
        for f in dataclasses.fields(obj):
            if f.name not in _NOT_DATA:
                yield from _bad_values(
                    getattr(obj, f.name), f"{here}: {f.name}",
                    lambda name=f.name: fields.get(name) or here_span())
    elif isinstance(obj, Mapping):
        for k, v in obj.items():
            yield from _bad_values(k, where, span)
            yield from _bad_values(v, f"{where}.{k}" if isinstance(k, str) else where, span)
    elif isinstance(obj, (tuple, list, frozenset, set)):
        for item in obj:
            yield from _bad_values(item, where, span)


def findings(editions: Iterable[EditionDef]) -> list[Diagnostic]:
    """One TEXT-UNPRINTABLE error per value of these editions that holds an unprintable
    character, at the value (or the nearest thing with a place)."""
    out: dict[tuple[str, Span | None], Diagnostic] = {}
    for ed in editions:
        for text, where, span_of in _bad_values(ed, f"edition {ed.id}", lambda ed=ed: ed.span,
                                                top=True):
            bad, span = unprintable(text), span_of()
            if (where, span) in out:
                continue
            chars = ", ".join(shown(ch) for ch in bad)
            out[(where, span)] = Diagnostic(
                CODE, Severity.ERROR, span,
                f"{escaped(where)} holds {'a character' if len(bad) == 1 else 'characters'} "
                f"no printout can carry ({chars}): '{escaped(text)[:200]}'",
                "remove the escape: a lone surrogate is no character (write the character "
                "itself, or a \\U escape of its code point), a control character is not text")
    return sorted(out.values(), key=sort_key)
