"""What a name or keyword means, in the author's language: hover text.

A species shows its name, kind, cost, copies and types and the rules text its effect, bonus,
permanent effect and score print as on the sheets (`printouts.rules_text`, in the language of
`initializationOptions.lang`); a symbol or host its name; a keyword of the rules language the
line of `docs/dsl.md` that shows it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

# docs/dsl.md, reached through the package (grove/dsl/dsl.md links to it), so an installed
# grove, which has no docs folder, still has it
DSL_DOC = Path(__file__).parents[1] / "dsl" / "dsl.md"


@cache
def _doc_lines() -> tuple[str, ...]:
    """The lines of docs/dsl.md's code blocks (none if the file was left out of a build)."""
    try:
        text = DSL_DOC.read_text(encoding="utf-8")
    except OSError:
        return ()
    out, inside = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            inside = not inside
        elif inside and line.strip():
            out.append(line.rstrip())
    return tuple(out)


def keyword_line(word: str) -> str | None:
    """The first line of docs/dsl.md whose example (before its explanation) uses `word`."""
    pattern = re.compile(rf"(?<![\w`]){re.escape(word)}(?![\w`])")
    for line in _doc_lines():
        example = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        if pattern.search(example):
            return re.sub(r"\s{2,}", "  —  ", line.strip())
    return None


@dataclass(frozen=True)
class Facts:
    """A species' facts as the hover words them: its kind (the host it makes, or the sides a
    dweller goes on, in the author's language where the card set says), cost, copies, types."""

    kind: str
    cost: int
    copies: int
    types: tuple[str, ...]  # the type symbols' names in the language
    host: str | None = None  # the name of the host a tree-like kind makes
    sides: tuple[str, ...] = ()  # a dweller's sides


def facts_line(f: Facts, lang: str) -> str:
    """`Waldbewohner (links, rechts) · Kosten 2 · ×5 · Pfotentier`: the words of the screen's
    and game log's catalogs (English where a language lacks one); the copies as the sheets
    count them, `×5`."""
    from grove.game_log import sentences
    from grove.seatview.words import Words

    w = Words(lang)
    if f.host:
        kind = f.host
    elif f.kind == "dweller":
        log = sentences(lang)
        sides = ", ".join(log.get(f"log.side.{s}", s) for s in f.sides)
        kind = w("kind.dweller", sides=sides)
        if not sides:  # no card set to say where it goes: the word alone
            kind = re.sub(r"\s*[(（]\s*[)）]", "", kind)
    else:
        kind = w(f"kind.{f.kind}") if f"kind.{f.kind}" in w.texts else f.kind
    parts = [kind, w("cost", cost=f.cost), f"×{f.copies}"]
    if f.types:
        parts.append(", ".join(f.types))
    return " · ".join(parts)


def species_text(names: Any, facts: Facts, sid: str, edition: str, lang: str,
                 rules: dict[str, str], sources: dict[str, str]) -> str:
    """Markdown for a species: its facts, then each rule as the sheet prints it (or as written,
    where the card set cannot be built)."""
    name = names.get(lang) or names.get("en") or sid
    head = [f"**{name}** `{edition}:{sid}`", facts_line(facts, lang)]
    body = []
    if rules:
        from grove.printouts import rules_text

        for f, text in rules.items():
            body.append(f"*{rules_text.field_label(f, lang)}*: {text}")
    else:
        from grove.printouts import rules_text

        body = [f"*{rules_text.field_label(f, lang)}*: `{t}`" for f, t in sources.items()]
    return "\n\n".join([*head, *body])


def card_rules(species: Any, cardset: Any, lang: str) -> dict[str, str]:
    from grove.printouts import phrases, rules_text

    if lang not in phrases.available_languages():
        lang = "en"
    try:
        return rules_text.card_text(species, cardset, lang)
    except Exception:  # noqa: BLE001 - a gap in a catalog must not cost the hover its facts
        return {}
