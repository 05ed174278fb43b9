"""A species as a row: the facts and rules `grove cards --json` prints, one dict per species.

`grove cards`, `grove find` and `grove export` all list species through `cards`, so the three
can never disagree on what a species is. Rules text is rendered from the compiled rules; a
listing without text (`lang=""`) builds no programs and is a fraction of the cost.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from grove.compiler.search_path import Roots

if TYPE_CHECKING:
    from grove.compiler.cardset import CardSet, Species
    from grove.compiler.universe import Universe


def listed(edition: str, expansions: list[str] | tuple[str, ...], roots: Roots | None, *,
           programs: bool, universe: Universe | None = None) -> tuple[CardSet, list[str]]:
    """The card set an edition's cards are listed from, and the keys of the species listed: an
    expansion lists its own cards, built on the game it expands (its rules see that game)."""
    from grove.compiler.cardset import build
    from grove.compiler.universe import load_universe

    universe = universe if universe is not None else load_universe(roots)
    ed = universe.editions.get(edition)
    if ed is not None and ed.expansion_of:
        cset = build(ed.expansion_of, [edition, *expansions], roots, programs=programs,
                     universe=universe)
        return cset, [s.key for s in ed.species]
    cset = build(edition, expansions, roots, programs=programs, universe=universe)
    return cset, list(cset.species)


def species_row(s: Species, cset: CardSet, lang: str, rendered: bool) -> dict[str, Any]:
    """One species as `grove cards --json` prints it; `text` holds its rules in `lang` when
    `rendered` (the card set then carries compiled programs)."""
    text: dict[str, str] = {}
    if rendered:  # the renderer's import is paid only by a listing that shows text
        from grove.printouts import rules_text

        text = rules_text.card_text(s, cset, lang)
    return {
        "key": s.key, "id": s.id, "name": s.name(lang or "en"), "names": dict(s.names),
        "kind": s.kind, "types": sorted(s.tags & {y.id for y in cset.symbols}),
        "cost": s.cost, "copies": s.copies, "symbol": s.symbol,
        "sides": list(s.sides), "water": s.water,
        "symbols": {side or "card": list(s.symbols_for(side))
                    for side in dict.fromkeys(sd for sd, _ in s.variants)},
        "rules": {f: rt.text for f, rt in s.rule_texts.items()},
        "text": text,
        "provisional": s.provisional,
    }


def renders(lang: str) -> bool:
    """Whether rules text can be rendered in `lang` (a catalog of it exists)."""
    from grove.printouts import phrases

    return bool(lang) and lang in phrases.available_languages()


def cards(edition: str, expansions: list[str] | tuple[str, ...], lang: str = "en",
          roots: Roots | None = None) -> list[dict[str, Any]]:
    """Every species an edition lists, as rows; rules text in `lang` ("" for none)."""
    cset, keys = listed(edition, expansions, roots, programs=bool(lang))
    rendered = renders(lang)
    return [species_row(cset.species[k], cset, lang, rendered) for k in keys]
