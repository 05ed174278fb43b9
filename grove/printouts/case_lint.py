"""`grove lint` on the case forms of a host's names (`cases:`, `beneath_cases:`, `cases.py`):

- TEXT-CASE-NO-NAME (warning): forms in a language the name itself is not given in
  (`cases: {de: ...}` beside `names:` without `de`): a sentence would print the English name
  and never the forms, so the forms are most likely under the wrong key;
- TEXT-CASE-UNUSED (info): a case no sentence of that language asks for (an Italian
  accusative, a Thai dative): harmless, never printed, so only a note.

Which cases a language asks for is read from its catalogs (`%(host_acc)s`, `{host_acc}`), so
a language that starts to decline needs nothing here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from grove.compiler.model import EditionDef
from grove.dsl.diagnostics import Diagnostic, Severity
from grove.printouts.cases import CASES
from grove.printouts.phrases import CATALOG_DIR

_ASKED = re.compile(r"[%{][(]?\w+_(" + "|".join(CASES) + r")\b")


@cache
def asked_cases(lang: str) -> frozenset[str]:
    """The cases some sentence of the language's catalogs asks for."""
    folder = CATALOG_DIR / lang / "LC_MESSAGES"
    if not folder.is_dir():
        return frozenset()
    found: set[str] = set()
    for po in folder.glob("*.po"):
        for line in po.read_text(encoding="utf-8").splitlines():
            if line.startswith("msgstr"):
                found |= set(_ASKED.findall(line))
    return frozenset(found)


def findings(editions: Iterable[EditionDef]) -> list[Diagnostic]:
    out = []
    for ed in editions:
        for host in ed.hosts:
            for field, name_field, names, forms in (
                    ("cases", "names", host.names, host.cases),
                    ("beneath_cases", "beneath", host.beneath, host.beneath_cases)):
                for lang, by_case in forms.items():
                    if lang not in names:
                        out.append(Diagnostic(
                            "TEXT-CASE-NO-NAME", Severity.WARNING, host.span,
                            f"host '{host.id}' gives {lang} forms in '{field}' but its "
                            f"'{name_field}' has no {lang} name",
                            f"add '{lang}: ...' to the name, or move the forms to its language"))
                        continue
                    unused = sorted(set(by_case) - asked_cases(lang))
                    if unused:
                        out.append(Diagnostic(
                            "TEXT-CASE-UNUSED", Severity.INFO, host.span,
                            f"host '{host.id}': no {lang} sentence asks for the "
                            f"{', '.join(unused)} form in '{field}'; it is never printed"))
    return out
