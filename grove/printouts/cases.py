"""Names in a language's grammatical cases (issue 44): the German overview's „universeller
Fluss" reads „als universellen Fluss" and „an einem universellen Fluss", so a name of the card
data carries its case forms (`cases:` beside `names:`, `beneath_cases:` beside `beneath:`) and
a sentence of the catalogs asks for the form it needs: `%(host_acc)s` in a rules phrase or a
sheet sentence, `{host_acc}` on the screen and in the game log.

A name without case forms (every name of a language that does not decline, and an author's
set that gives none) answers every case with itself, so a sentence may always ask.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

CASES = ("nom", "acc", "dat", "gen")


class Declined(str):
    """A name (as `str`, the form `names:` gives) that also knows its other case forms."""

    forms: Mapping[str, str]

    def __new__(cls, text: str, forms: Mapping[str, str] | None = None) -> Declined:
        obj = super().__new__(cls, text)
        obj.forms = dict(forms or {})
        return obj

    def case(self, case: str) -> str:
        return self.forms.get(case) or str(self)


def declined(text: str, forms: Mapping[str, str] | None,
             shape: Callable[[str], str] | None = None) -> str:
    """`text` with its case forms where the data gives any, else `text` itself; `shape` (a
    name as its place writes it: lower case mid-sentence, escaped on a screen) applied to the
    name and to each form alike."""
    if shape is not None:
        text, forms = shape(text), {c: shape(f) for c, f in (forms or {}).items()}
    return Declined(text, forms) if forms else text


def case_of(value: Any, case: str) -> Any:
    """The form of `value` in `case`: its own where it has one, else the value unchanged."""
    return value.case(case) if isinstance(value, Declined) else value


def case_key(key: str, values: Mapping[str, Any]) -> tuple[str, str] | None:
    """(name, case) where `key` asks for a case of a value the sentence is given (`host_acc`
    of `host`); None for any other key."""
    name, _, case = key.rpartition("_")
    return (name, case) if case in CASES and name in values and key not in values else None


def with_cases(values: Mapping[str, Any]) -> dict[str, Any]:
    """`values`, and each of them in every case as `<key>_<case>`: for a format string that
    may ask for any of them (the screen's `{host_acc}`, a sheet's `%(beneath_acc)s`)."""
    out = dict(values)
    for key, value in values.items():
        for case in CASES:
            out.setdefault(f"{key}_{case}", case_of(value, case))
    return out


def capitalised(text: str) -> str:
    """A name where it starts a sentence or a label: the data gives it as a sentence's middle
    writes it („universeller Fluss", "universal river")."""
    return text[:1].upper() + text[1:]
