"""The word under the cursor -> what it names: a species, symbol or host, with where it is
declared. Hover and go to definition both start here.

In a card file a name is looked up as the rules of that edition see it (`NameScope`: itself and
the editions it expands), an `- id:` as the species it declares; in a forest file, in the card
set of the edition (and expansions) the file names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grove.dsl.diagnostics import Span
from grove.lsp.documents import Session, Target
from grove.lsp.text import word_at


@dataclass(frozen=True)
class Named:
    kind: str  # "species" | "type" | "group" | "tree" | "host"
    key: str  # species key (edition:id), or the symbol's or host's id
    span: Span | None  # where it is declared
    decl: Any  # the SpeciesDef, Species, Symbol or HostKind
    cardset: Any = None  # the card set to render a species' rules in (a forest file's game)


def forest_game(text: str) -> tuple[str | None, tuple[str, ...]]:
    """The edition and expansions a forest file names, read off its lines."""
    ed = re.search(r"^edition:\s*([a-z][a-z0-9_]*)", text, re.M)
    w = re.search(r"^with:\s*\[([^\]]*)\]", text, re.M)
    exps = tuple(x.strip() for x in w.group(1).split(",") if x.strip()) if w else ()
    return (ed.group(1) if ed else None), exps


def _in_symbol_call(line: str, start: int) -> bool:
    return bool(re.search(r"symbol\s*\(\s*$", line[:start]))


def lookup(session: Session, target: Target, lines: list[str], line_no: int, col: int
           ) -> tuple[Named | None, str, int, int]:
    """(what the word at the cursor names, the word, its start, its end)."""
    line = lines[line_no] if line_no < len(lines) else ""
    word, start, end = word_at(line, col)
    if not word or not re.match(r"^[a-z]", word):
        return None, word, start, end
    if target.kind == "edition" and target.folder is not None:
        return _in_edition(session, target.folder, line, word, start), word, start, end
    if target.kind == "forest":
        text = "\n".join(lines)
        edition, exps = forest_game(text)
        cset = session.forest_cardset(edition, exps) if edition else None
        if cset is None:
            return None, word, start, end
        sp = cset.species_named(word)
        if sp is not None:
            return Named("species", sp.key, sp.span, sp, cset), word, start, end
        if word in cset.hosts:
            h = cset.hosts[word]
            return Named("host", h.id, h.span, h, cset), word, start, end
        sym = cset.symbol(word)
        if sym is not None:
            return Named(sym.kind, sym.id, sym.span, sym, cset), word, start, end
    return None, word, start, end


def _in_edition(session: Session, folder: Path, line: str, word: str, start: int
                ) -> Named | None:
    scope = session.scope(folder)
    if scope is None:
        return None
    own = scope.visible[-1].id
    # no card set: it is built when a hover asks for rules text (`Session.cardset`), not here
    if re.match(r"^\s*-\s+id:\s*$", line[:start]):  # the species this entry declares
        sd = scope.species.get(f"{own}:{word}")
        return Named("species", sd.key, sd.span, sd) if sd else None
    if _in_symbol_call(line, start) or re.match(r"^\s*symbol:\s*$", line[:start]):
        sym = scope.tree_symbols.get(word)
        return Named("tree", word, sym.span, sym) if sym else None
    r = scope.resolve(word)
    if r is None:
        sym = scope.tree_symbols.get(word)  # a deck half's symbol, `[red_fox, oak]`
        return Named("tree", word, sym.span, sym) if sym else None
    if r.kind == "species":
        sd = scope.species[r.key]
        return Named("species", sd.key, sd.span, sd)
    table = {"group": scope.groups, "type": scope.types, "host": scope.hosts}[r.kind]
    decl = table[r.key]
    return Named(r.kind, r.key, decl.span, decl)
