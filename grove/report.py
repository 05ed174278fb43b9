"""Readable text for people: the scoreboard with the rows of the edition's paper scorepad.

Row names come from the card data (`scorepad:` in edition.yaml names each row per language), so
an edition's own rows, Dartmoor's moors or an author's ponds, need nothing here; the words of
the language ("Total", "Winner") come from the rules-text catalog (msgctxt `scoreboard.*`).
"""

from __future__ import annotations

from typing import Any

from compiler.cardset import CardSet
from compiler.model import scorepad_names
from printouts import phrases

_WORDS = ("scoreboard.total", "scoreboard.winner")


def _word(ctxt: str, lang: str) -> str:
    """A word of the language from its catalog; English where the language has no catalog."""
    return phrases.words(lang, _WORDS)[ctxt]


def row_name(names: Any, row: str, lang: str) -> str:
    """A scorepad row's name in `lang`, else in English, else its id."""
    names = names or {}
    return names.get(lang) or names.get("en") or row


def scoreboard(result: dict[str, Any], cardset: CardSet, lang: str = "en",
               explain: bool = False) -> str:
    players = result["players"]
    rows = list(cardset.scorepad)
    names = scorepad_names(cardset.editions)
    labels = {r: row_name(names.get(r), r, lang) for r in rows}
    total = _word("scoreboard.total", lang)
    width = max([len(t) for t in [*labels.values(), total]] + [6])
    colw = max([len(p["name"]) for p in players] + [5]) + 2
    lines = [" " * width + "".join(p["name"].rjust(colw) for p in players)]
    for r in rows:
        lines.append(labels[r].ljust(width) +
                     "".join(str(p["by_category"].get(r, 0)).rjust(colw) for p in players))
    lines.append("-" * (width + colw * len(players)))
    lines.append(total.ljust(width) +
                 "".join(str(p["total"]).rjust(colw) for p in players))
    label = _word("scoreboard.winner", lang)
    lines.append(f"{label}: {', '.join(result['winners'])}")
    if explain:
        for p in players:
            lines.append("")
            lines.append(f"{p['name']}:")
            for c in p["cards"]:
                sp = cardset.species_named(c["card"])
                name = sp.name(lang) if sp else c["card"]
                lines.append(f"  {c['points']:>4}  {name} (host {c['host'] + 1}, {c['slot']})")
                for r in c.get("rules", []):
                    note = f" [{r['note']}]" if r.get("note") else ""
                    lines.append(f"          {r['points']:>3} = {r['rule']}  @ {r['at']}{note}")
    return "\n".join(lines)
