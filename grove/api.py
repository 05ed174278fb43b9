"""The public face of grove: load, lint, score. The CLI is a thin layer over these functions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from compiler import cardset as cs
from compiler.cardset import CardSet
from compiler.yaml_source import load
from dsl.diagnostics import Diagnostic, DiagnosticError, Severity, error, sort_key
from engine import placement, scoring
from grove import forest_file


def editions() -> list[dict[str, Any]]:
    universe = cs.load_universe()
    rows = []
    for e in universe.editions.values():
        rows.append({
            "id": e.id, "names": dict(e.names), "standalone": e.standalone,
            "expansion_of": e.expansion_of, "combines_with": list(e.combines_with),
            "species": len(e.species), "cards": sum(c.count for c in e.deck),
        })
    return rows


def load_cardset(edition: str, expansions: list[str] | None = None) -> CardSet:
    return cs.build(edition, expansions or ())


def cards(edition: str, expansions: list[str], lang: str = "en") -> list[dict[str, Any]]:
    universe = cs.load_universe()
    ed = universe.editions.get(edition)
    if ed is not None and ed.expansion_of:  # `grove cards alpine` lists Alpine's own cards
        cset = cs.build(ed.expansion_of, [edition, *expansions])
        keys = [s.key for s in ed.species]
    else:
        cset = cs.build(edition, expansions)
        keys = list(cset.species)
    from printouts import rules_text

    rendered = lang in rules_text.available_languages()
    rows = []
    for k in keys:
        s = cset.species[k]
        rows.append({
            "key": s.key, "id": s.id, "name": s.name(lang), "names": dict(s.names),
            "kind": s.kind, "types": sorted(s.tags & {y.id for y in cset.symbols}),
            "cost": s.cost, "copies": s.copies, "symbol": s.symbol,
            "sides": list(s.sides), "water": s.water,
            "symbols": {side or "card": list(s.symbols_for(side))
                        for side in dict.fromkeys(sd for sd, _ in s.variants)},
            "rules": {f: rt.text for f, rt in s.rule_texts.items()},
            "text": rules_text.card_text(s, cset, lang) if rendered else {},
            "provisional": s.provisional,
        })
    return rows


def _looks_like_forest(path: Path) -> bool:
    try:
        doc = load(path)
    except DiagnosticError:
        return False
    return isinstance(doc.data, dict) and "players" in doc.data


def lint(paths: list[str], provisional: bool = False) -> list[Diagnostic]:
    """Lint card folders, edition folders, single card files and forest files."""
    out: list[Diagnostic] = []
    folders: list[Path] = []
    files: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            folders.append(p)
        elif p.suffix in (".yaml", ".yml", ".json") and (p.parent / "edition.yaml").is_file():
            files.append(p)
        elif _looks_like_forest(p):
            try:
                ff = forest_file.read(p)
                out.extend(placement.check_forests(ff.cardset, list(ff.players)))
            except DiagnosticError as exc:
                out.extend(exc.diagnostics)
        else:
            try:
                load(p)
                out.append(error("LINT-UNKNOWN-FILE", None,
                                 f"{p}: neither a forest file nor part of an edition folder"))
            except DiagnosticError as exc:
                out.extend(exc.diagnostics)
    roots_extra = folders + [f.parent for f in files]
    if roots_extra:
        shipped = cs.default_cards_dir().resolve()
        extra = [r for r in roots_extra if r.resolve() != shipped]
        roots = cs.roots_for(extra)
        universe = cs.load_universe(roots)
        folders_asked = [f.resolve() for r in roots_extra for f in cs.edition_folders(r.resolve())]
        wanted: set[str] = {e.id for e in universe.editions.values()
                            if Path(e.folder).resolve() in folders_asked}
        found = cs.lint(roots, wanted, [str(f) for f in folders_asked])
        if files and not folders:
            names = {str(f.resolve()) for f in files}
            found = [d for d in found if d.span is None or str(Path(d.span.file).resolve())
                     in names]
        out.extend(found)
        # printed sheets: text that overflows its box, characters the fonts lack
        from printouts.sheets import lint as sheet_lint

        out.extend(sheet_lint.lint(roots, wanted))
        if provisional:
            for eid in sorted(wanted or ()):
                for span, reason in universe.editions[eid].provisional:
                    out.append(Diagnostic("PROVISIONAL", Severity.INFO, span,
                                          f"provisional: {reason}"))
        # rule-book text: a phrase, name or lexicon entry missing in en/de/it/th
        from printouts import text_lint

        out.extend(text_lint.lint(roots, wanted))
    return sorted(out, key=sort_key)


def score_file(path: str, explain: bool = False) -> dict[str, Any]:
    """Score a forest file, or the final forests of a grove game record (the end line holds them
    all), so a finished game is scored straight from its record; the forests must be legal."""
    reader = forest_file.read_record if forest_file.is_record(path) else forest_file.read
    ff = reader(path)
    problems = placement.check_forests(ff.cardset, list(ff.players))
    if problems:
        raise DiagnosticError(problems)
    scores = scoring.score_forests(ff.cardset, list(ff.players), explain)
    return result_json(ff.edition, ff.expansions, scores, explain)


def result_json(edition: str, expansions, scores: list[scoring.PlayerScore], explain: bool
                ) -> dict[str, Any]:
    players = []
    for s in scores:
        cards = []
        for c in s.cards:
            entry: dict[str, Any] = {"card": c.card, "host": c.host, "slot": c.slot,
                                     "points": c.points}
            if explain:
                entry["rules"] = c.rules
            cards.append(entry)
        p: dict[str, Any] = {"name": s.name, "total": s.total, "by_category": s.by_category,
                             "cards": cards}
        if s.ai:
            p["ai"] = s.ai
        players.append(p)
    return {"edition": edition, "with": list(expansions), "players": players,
            "winners": scoring.winners(scores)}


def cardset_of(result: dict[str, Any]) -> CardSet:
    return cs.build(result["edition"], result["with"])


def sheet(edition: str, expansions: list[str], langs: list[str], out: str | None = None,
          fmt: str = "pdf", paper: str = "a4") -> list[Path]:
    """Quick-reference sheets, one file per language; returns the files written.

    Everything is rendered before anything is written, and each file is written to a temporary
    name and renamed, so a failure never leaves a half-written sheet behind."""
    from printouts.sheets import output

    return output.write_sheets(cs.build(edition, expansions), langs, out, fmt, paper)
