"""What a name or keyword means, in the author's language: hover text.

A species shows its name, kind, cost, copies and types and the rules text its effect, bonus,
permanent effect and score print as on the sheets (`printouts.rules_text`, in the language of
`initializationOptions.lang`); a symbol or host its name; a keyword of the rules language the
line of `docs/dsl.md` that shows it.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

DSL_DOC = Path(__file__).resolve().parents[2] / "docs" / "dsl.md"


@cache
def _doc_lines() -> tuple[str, ...]:
    """The lines of docs/dsl.md's code blocks (none where grove runs without its docs)."""
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


def species_text(names: Any, kind: str, cost: int, copies: int, types: tuple[str, ...],
                 sid: str, edition: str, lang: str, rules: dict[str, str],
                 sources: dict[str, str]) -> str:
    """Markdown for a species: its facts, then each rule as the sheet prints it (or as written,
    where the card set cannot be built)."""
    name = names.get(lang) or names.get("en") or sid
    head = [f"**{name}** `{edition}:{sid}`",
            f"{kind} · cost {cost} · {copies} {'copy' if copies == 1 else 'copies'}"
            + (f" · {', '.join(types)}" if types else "")]
    body = []
    if rules:
        from grove.printouts import rules_text

        for f, text in rules.items():
            body.append(f"*{rules_text.field_label(f, lang)}*: {text}")
    else:
        body = [f"*{f}*: `{t}`" for f, t in sources.items()]
    return "\n\n".join([*head, *body])


def card_rules(species: Any, cardset: Any, lang: str) -> dict[str, str]:
    from grove.printouts import phrases, rules_text

    if lang not in phrases.available_languages():
        lang = "en"
    try:
        return rules_text.card_text(species, cardset, lang)
    except Exception:  # noqa: BLE001 - a gap in a catalog must not cost the hover its facts
        return {}
