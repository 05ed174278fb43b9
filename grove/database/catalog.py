"""The species of every edition on a search path, as rows, with the names their rules count:
what a query searches and an export writes.

Each edition's rows are built once per language and kept in the on-disk cache under its
universe's key (the digest of every card file on the path) and the digest of this room's code,
so a warm `grove find` reads pickled rows and never compiles or renders a rule. An edition that
does not build is left out of a search over everything, with a warning that says so; asked by
name, its errors are the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grove.compiler.search_path import Roots
from grove.dsl.diagnostics import Diagnostic, DiagnosticError, error, warning

if TYPE_CHECKING:
    from grove.compiler.universe import Universe


@dataclass(frozen=True)
class Catalog:
    """The rows searched, in edition order, and the editions they came from."""

    rows: tuple[dict[str, Any], ...]
    editions: tuple[str, ...]
    lang: str
    warnings: tuple[Diagnostic, ...] = ()


@lru_cache(maxsize=1)
def _code() -> str:
    """This room's code, for the cache key: the cache's own fingerprint of grove covers the
    compiler and the printouts, not this folder."""
    from grove.compiler import cache

    here = Path(__file__).resolve().parent
    return cache.files_digest(sorted(p for p in here.iterdir() if p.suffix in (".py", ".lark")))


def edition_rows(universe: Universe, edition: str, lang: str) -> list[dict[str, Any]]:
    """An edition's species as rows (`grove cards --json`'s, with rules text in `lang`), each
    with its `edition` and `reads`, the names its rules count (`database.reads`)."""

    def build() -> list[dict[str, Any]]:
        from grove.compiler.names import NameScope
        from grove.database import rows
        from grove.database.reads import species_reads

        cset, keys = rows.listed(edition, (), universe.roots, programs=True, universe=universe)
        scope = NameScope(universe.lineage(universe.editions[edition]),
                          list(universe.editions.values()))
        rendered = rows.renders(lang)
        out = []
        for k in keys:
            s = cset.species[k]
            row = {"edition": edition, **rows.species_row(s, cset, lang, rendered)}
            row["reads"] = sorted(species_reads(s, scope))
            out.append(row)
        return out

    if universe.unsaved:  # an editor's text: nothing of it goes into the cache
        return build()
    from grove.compiler import cache

    return cache.cached("find", cache.key("find", universe.key, edition, lang, _code()), build)


def unknown_edition(name: str, universe: Universe) -> DiagnosticError:
    return DiagnosticError([error(
        "EDITION-UNKNOWN", None, f"unknown edition '{name}'",
        f"editions: {', '.join(sorted(universe.editions))}; grove finds an author's card set "
        "with --cards DIR or GROVE_CARDS")])


def load(editions: Sequence[str] | None = None, lang: str = "en", roots: Roots | None = None,
         universe: Universe | None = None) -> Catalog:
    """The rows of `editions` (every edition on the path when None or empty). Every edition's
    rows from the files on disk are one cache entry, found by the digests of the folders
    alone: a warm `grove find` loads no edition."""
    from grove.compiler.universe import folder_digests, key_of, load_universe

    if universe is None and not editions:
        from grove.compiler import cache
        from grove.compiler.search_path import search_path

        roots = roots if roots is not None else search_path()
        k = cache.key("catalog", key_of(folder_digests(roots)), lang, _code())
        return cache.cached("catalog", k, lambda: _load((), lang, load_universe(roots)))
    return _load(editions or (), lang, universe if universe is not None else load_universe(roots))


def _load(editions: Sequence[str], lang: str, universe: Universe) -> Catalog:
    asked = list(dict.fromkeys(editions or ()))
    for e in asked:
        if e not in universe.editions:
            raise unknown_edition(e, universe)
    found: list[dict[str, Any]] = []
    searched: list[str] = []
    skipped: list[Diagnostic] = []
    for e in asked or sorted(universe.editions):
        try:
            found += edition_rows(universe, e, lang)
        except DiagnosticError as exc:
            if asked:
                raise
            n = sum(d.is_error for d in exc.diagnostics)
            skipped.append(warning(
                "FIND-EDITION-SKIPPED", None,
                f"edition '{e}' is left out: it does not build ({n} error{'s' * (n != 1)})",
                f"grove lint {universe.editions[e].folder} says what is wrong"))
            continue
        searched.append(e)
    return Catalog(tuple(found), tuple(searched), lang, tuple(skipped))
