"""Readable text for people: the scoreboard with the rows of the edition's paper scorepad."""

from __future__ import annotations

from typing import Any

from compiler.cardset import CardSet

_ROW_NAMES = {
    "en": {"trees": "Trees", "top": "Top", "bottom": "Bottom", "left": "Left", "right": "Right",
           "cave": "Cave", "moors": "Moors", "rivers": "Rivers", "total": "Total"},
    "de": {"trees": "Bäume", "top": "Oben", "bottom": "Unten", "left": "Links", "right": "Rechts",
           "cave": "Höhle", "moors": "Moore", "rivers": "Flüsse", "total": "Summe"},
    "it": {"trees": "Alberi", "top": "Sopra", "bottom": "Sotto", "left": "Sinistra",
           "right": "Destra", "cave": "Grotta", "moors": "Brughiere", "rivers": "Fiumi",
           "total": "Totale"},
    "th": {"trees": "ต้นไม้", "top": "ด้านบน", "bottom": "ด้านล่าง", "left": "ด้านซ้าย",
           "right": "ด้านขวา", "cave": "ถ้ำ", "moors": "ทุ่งพรุ", "rivers": "แม่น้ำ",
           "total": "รวม"},
}


def row_name(row: str, lang: str) -> str:
    return _ROW_NAMES.get(lang, _ROW_NAMES["en"]).get(row) or _ROW_NAMES["en"].get(row, row)


def scoreboard(result: dict[str, Any], cardset: CardSet, lang: str = "en",
               explain: bool = False) -> str:
    players = result["players"]
    rows = list(cardset.scorepad)
    width = max([len(row_name(r, lang)) for r in [*rows, "total"]] + [6])
    colw = max([len(p["name"]) for p in players] + [5]) + 2
    lines = [" " * width + "".join(p["name"].rjust(colw) for p in players)]
    for r in rows:
        lines.append(row_name(r, lang).ljust(width) +
                     "".join(str(p["by_category"].get(r, 0)).rjust(colw) for p in players))
    lines.append("-" * (width + colw * len(players)))
    lines.append(row_name("total", lang).ljust(width) +
                 "".join(str(p["total"]).rjust(colw) for p in players))
    label = {"en": "Winner", "de": "Sieg", "it": "Vince", "th": "ผู้ชนะ"}.get(lang, "Winner")
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
