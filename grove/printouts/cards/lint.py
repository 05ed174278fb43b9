"""`grove lint` findings about the print-and-play cards: PRINT-OVERFLOW, a text that fits its
box on a poker-size card at no type size, in any language a card can be printed in.

It fits each face's text (no drawing, no PDF) for every standalone edition asked, with the
combination of expansions the sheets check it with (`printouts.sheets.lint`), so an author
learns at lint time what `grove print` would refuse.
"""

from __future__ import annotations

from collections.abc import Iterable

from grove.compiler import cardset as cs_mod
from grove.compiler.search_path import Roots
from grove.compiler.universe import Universe, load_universe
from grove.dsl.diagnostics import Diagnostic, DiagnosticError
from grove.printouts import printable
from grove.printouts.cards import draw, geometry
from grove.printouts.cards.faces import read_deck
from grove.printouts.cards.output import overflow_diagnostic
from grove.printouts.sheets import catalog
from grove.printouts.sheets.lint import _roots_to_check as combinations


def lint(roots: Roots, wanted: Iterable[str], universe: Universe | None = None
         ) -> list[Diagnostic]:
    universe = universe if universe is not None else load_universe(roots)
    w, h = (v * geometry.MM for v in geometry.POKER)
    out: list[Diagnostic] = []
    for root, exps in sorted((r, x) for r, xs in combinations(universe, wanted).items()
                             for x in xs):
        try:
            cs = cs_mod.build(root, exps, roots, universe=universe)
        except DiagnosticError:
            continue  # the other checks say why
        if printable.findings(cs.editions):  # no printout can hold it: text_lint says so
            continue
        for lang in catalog.languages():
            deck = read_deck(cs, lang)
            for face, _ in deck.unique():
                out.extend(overflow_diagnostic(cs, o) for o in draw.check(face, deck, w, h))
    return list(dict.fromkeys(out))
