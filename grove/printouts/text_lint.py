"""Missing translations as lint findings: TEXT-MISSING-TRANSLATION (and, from printable.py,
words no printout can carry: TEXT-UNPRINTABLE).

`grove lint` hands over the editions it checks; each is built in every card set it takes part
in (a base game alone and with each combination of the expansions it names, since an
expansion's hosts change the wording of base cards), and `rules_text.translation_findings`
lists what en, de, it or th lack there: a phrase for a DSL node, a name in the card data, or
a word (article class, classifier, plural) of a host, type symbol, group or species.

One warning per gap, at the first place (file:line:col) that needs it. The hint points where the
word belongs: a noun's article, classifier or plural, and a scorepad row's name, in the card
file that declares the noun (the author's own file, wherever it lies); a phrase of the language
(a DSL node's wording, or an `@` noun such as `@card`) in grove's catalog, with its msgctxt.
A warning, not an error: the text still renders (with an English word or a gender-free
wording), scoring and play never read it, and an author adding an edition must be able to lint
it before every language is done; `grove lint --strict`, as the tests run it on the shipped
cards, makes it fail.

The compiler never imports this module: the arrows run grove -> printouts -> compiler.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable
from pathlib import Path

from grove.compiler import cardset as cs
from grove.compiler.search_path import Roots
from grove.compiler.universe import Universe, load_universe
from grove.dsl.diagnostics import Diagnostic, DiagnosticError, Severity, sort_key
from grove.printouts import case_lint, phrases, printable
from grove.printouts import rules_text as rt

CODE = "TEXT-MISSING-TRANSLATION"

_WHAT = {
    "article": "no article class (grammatical gender) for '{key}'",
    "classifier": "no classifier for '{key}'",
    "plural": "no plural of '{key}'",
    "name": "no name for {key}",
    "species_word": "no one word for a species of '{key}'",
}


def combinations(universe: Universe, edition_id: str) -> list[tuple[str, tuple[str, ...]]]:
    """(base, expansions) of every card set the edition takes part in; none for an expansion
    its base does not name (it cannot be built)."""
    ed = universe.editions[edition_id]
    root = ed if ed.expansion_of is None else universe.editions.get(ed.expansion_of)
    if root is None or root.expansion_of is not None:
        return []
    others = list(universe.expansions_of(root.id))
    out = []
    for k in range(len(others) + 1):
        for combo in itertools.combinations(others, k):
            if root is ed or ed.id in combo:
                out.append((root.id, combo))
    return out


def _display(path: Path | str) -> str:
    rel = os.path.relpath(path)
    return str(path) if rel.startswith("..") else rel


def _message(gap: rt.Gap, places: list[rt.Finding]) -> str:
    what = _WHAT.get(gap.kind, "{text}").format(key=gap.key, text=str(gap))
    more = f" and {len(places) - 1} more" if len(places) > 1 else ""
    return f"missing {gap.lang} translation: {what} (needed by {places[0].where}{more})"


_FIELD = {"article": "article", "classifier": "classifier", "plural": "plural", "name": "names",
          "species_word": "species_word"}


def _data_hint(gap: rt.Gap) -> str:
    """Where a word of the card data goes: the field of the noun, in the file declaring it."""
    assert gap.decl is not None
    value = "..."
    if gap.kind == "article":
        classes = rt.article_classes(gap.lang)
        value = f"<{'|'.join(classes)}>" if classes else "..."
    elif gap.kind == "classifier":
        value = "<classifier>"
    line = f" (line {gap.decl.line})" if gap.kind != "name" else ""
    return (f"add '{gap.lang}: {value}' to '{_FIELD[gap.kind]}' of {gap.noun} in "
            f"{_display(gap.decl.file)}{line}")


def _hint(gap: rt.Gap, where: str) -> str | None:
    catalog = _display(phrases.catalog_path(gap.lang))
    if gap.decl is not None and gap.kind in _FIELD:
        return _data_hint(gap)
    if gap.kind in rt.LEXICON_CONTEXT:
        return f'add msgctxt "{gap.msgctxt}" msgid "{gap.key}" to {catalog}'
    if gap.kind == "placeholder":
        return f'make the placeholders of msgctxt "{gap.key}" in {catalog} match the msgid'
    if gap.kind in ("phrase", "catalog"):
        return f'add msgctxt "{gap.key}" to {catalog}, with the msgid of the en catalog'
    if gap.kind == "name":
        return f"add `{gap.lang}: ...` to its `names`"
    if gap.kind == "node":
        return ("give the node an entry in printouts.rules_text.NODE_PHRASES, a case in the "
                "Renderer and its msgctxts in every catalog")
    return None


def _order(f: rt.Finding) -> tuple:
    """Cards first (where an author reads the text), then the symbol or host that lacks the
    word, then what has no place in the card data; in file order within each."""
    declared = f.where.startswith(("symbol ", "host ", "scorepad row "))
    span = (f.span.file, f.span.line, f.span.col) if f.span else ("", 0, 0)
    return (f.span is None, declared, span, f.where)


def diagnostics(findings: Iterable[rt.Finding]) -> list[Diagnostic]:
    """One warning per gap, placed at the first card that needs it."""
    by_gap: dict[rt.Gap, list[rt.Finding]] = {}
    for f in findings:
        by_gap.setdefault(f.gap, []).append(f)
    out = []
    for gap, places in by_gap.items():
        places = sorted(dict.fromkeys(places), key=_order)
        out.append(Diagnostic(CODE, Severity.WARNING, places[0].span, _message(gap, places),
                              _hint(gap, places[0].where)))
    return sorted(out, key=sort_key)


def _belongs(f: rt.Finding, folders: list[str]) -> bool:
    return f.span is None or any(f.span.file.startswith(d) for d in folders)


def lint(roots: Roots, wanted: Iterable[str], universe: Universe | None = None
         ) -> list[Diagnostic]:
    """TEXT-MISSING-TRANSLATION for the editions in `wanted` (ids), found in every card set
    they take part in; card sets that do not build are left to the other checks."""
    universe = universe if universe is not None else load_universe(roots)
    ids = [e for e in sorted(wanted) if e in universe.editions]
    folders = [os.path.join(universe.editions[e].folder, "") for e in ids]
    sets = dict.fromkeys(c for e in ids for c in combinations(universe, e))
    findings: list[rt.Finding] = []
    for base, expansions in sets:
        try:
            cset = cs.build(base, expansions, roots, universe=universe)
        except DiagnosticError:
            continue
        findings.extend(f for f in rt.translation_findings(cset) if _belongs(f, folders))
    # and words that cannot be printed at all (TEXT-UNPRINTABLE), once per value; case forms
    # no sentence can print (TEXT-CASE-NO-NAME, TEXT-CASE-UNUSED)
    return (diagnostics(findings) + printable.findings(universe.editions[e] for e in ids)
            + case_lint.findings(universe.editions[e] for e in ids))
