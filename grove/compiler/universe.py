"""Every edition on the search path, loaded: the context in which one edition is compiled.

Each edition folder is read once per content: its files' digest keys the on-disk cache (see
`compiler.cache`), so a command run again reads pickles, not YAML. Which expansions a standalone
edition has is found here, from the expansions that name it (`expansion_of`), never from a list
in the standalone edition's own files: an author's expansion of the base game needs no edit to
the base game.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from grove.compiler import cache
from grove.compiler.limits import MAX_CARD_FILE_BYTES
from grove.compiler.search_path import (
    Roots,
    edition_folders,
    edition_listing,
    search_path,
)
from grove.dsl.diagnostics import Diagnostic, error

if TYPE_CHECKING:  # the card data's classes: a command answered from the cache needs none
    from grove.compiler.model import EditionDef


@dataclass(frozen=True, eq=False)  # one per search path and content: identity is equality
class Universe:
    roots: Roots
    editions: Mapping[str, EditionDef]  # id -> the first edition of that id on the path
    diagnostics: tuple[Diagnostic, ...]
    shadowed: tuple[tuple[EditionDef, EditionDef], ...] = ()  # (hidden, the one that wins)
    key: str = field(default="", compare=False)  # digest of every folder on the path and its files
    # holds text an editor has not saved (see `with_unsaved`): what is built from it is never
    # written to the on-disk cache, whose entries must name files as they are on disk
    unsaved: bool = False

    def expansions_of(self, root_id: str) -> tuple[str, ...]:
        """The expansions that name `root_id` in `expansion_of`, in id order."""
        return tuple(sorted(e.id for e in self.editions.values() if e.expansion_of == root_id))

    def lineage(self, edition: EditionDef) -> list[EditionDef]:
        """The edition and every edition it expands, root first."""
        chain = [edition]
        seen = {edition.id}
        while chain[0].expansion_of:
            parent = self.editions.get(chain[0].expansion_of)
            if parent is None or parent.id in seen:
                break
            seen.add(parent.id)
            chain.insert(0, parent)
        return chain

    def family(self, root: EditionDef) -> list[EditionDef]:
        """A standalone edition and every expansion of it on the search path."""
        return [root, *(self.editions[x] for x in self.expansions_of(root.id))]


# the language server assembles a universe for every keystroke: the folders it did not change
# come from memory, not unpickled from the disk again
@lru_cache(maxsize=32)
def _load(folder: Path, digest: str) -> tuple[EditionDef | None, tuple[Diagnostic, ...]]:
    def build() -> tuple[EditionDef | None, tuple[Diagnostic, ...]]:
        from grove.compiler.loader import load_edition  # YAML and schemas: only when not cached

        loaded = load_edition(folder)
        ed = replace(loaded.edition, digest=digest) if loaded.edition is not None else None
        return ed, tuple(loaded.diagnostics)

    return cache.cached("edition", cache.key("edition", str(folder), digest), build)


def folder_digests(roots: Roots) -> tuple[tuple[str, str], ...]:
    """(folder, content digest) of every edition folder on the path, in search order; a folder
    reached through two roots (itself, and the folder that holds it) counts once."""
    folders = dict.fromkeys(str(f) for root in roots for f in edition_folders(Path(root)))
    return tuple((f, _digest(Path(f))) for f in folders)


def _digest(folder: Path) -> str:
    """The digest of an edition folder's files, and of the names of those no read may open
    (`stray_files`), whose diagnostics are part of what loading the folder says. A file larger
    than the loader reads (INPUT-TOO-LARGE) counts by its name, size and time, unread: its
    contents would be read whole for the digest alone (a 1 GB file took 1 GB to lint)."""
    readable, unread = edition_listing(folder)
    files, big = [], []
    for f in readable:
        try:
            st = os.stat(f)
        except OSError:
            continue  # gone since it was listed: the loader says so
        if st.st_size > MAX_CARD_FILE_BYTES:
            big.append(f"{f.name}:{st.st_size}:{st.st_mtime_ns}")
        else:
            files.append((f, st))
    digest = cache.files_digest(files)
    strays = [*big, *(p.name for p in unread)]
    if not strays:
        return digest
    return hashlib.sha256("\0".join([digest, *strays]).encode()).hexdigest()


def load_universe(roots: Roots | None = None) -> Universe:
    roots = roots if roots is not None else search_path()
    return _universe(roots, folder_digests(roots))


@lru_cache(maxsize=16)
def _universe(roots: Roots, folders: tuple[tuple[str, str], ...]) -> Universe:
    return _assemble(roots, folders, lambda folder, digest: _load(Path(folder), digest))


if TYPE_CHECKING:
    Loaded = tuple[EditionDef | None, tuple[Diagnostic, ...]]


def with_unsaved(roots: Roots, folder: str, loaded: Loaded, digest: str) -> Universe:
    """The universe of `roots` with one edition folder as an editor holds it: `loaded` is that
    folder read with its unsaved texts, `digest` names those texts. Every other folder comes
    from the cache as `load_universe` reads it, so what differs is that one edition alone."""
    folders = folder_digests(roots)
    if not any(f == folder for f, _ in folders):
        folders = ((folder, digest), *folders)
    folders = tuple((f, f"unsaved:{digest}" if f == folder else d) for f, d in folders)

    def load(f: str, d: str) -> Loaded:
        if f != folder:
            return _load(Path(f), d)
        ed = replace(loaded[0], digest=digest) if loaded[0] is not None else None
        return ed, loaded[1]

    return _assemble(roots, folders, load, unsaved=True)


def _assemble(roots: Roots, folders: tuple[tuple[str, str], ...],
              load: Callable[[str, str], Loaded], *, unsaved: bool = False) -> Universe:
    editions: dict[str, EditionDef] = {}
    diags: list[Diagnostic] = []
    shadowed: list[tuple[EditionDef, EditionDef]] = []
    root_of: dict[str, str] = {}  # folder -> the first root it was found through
    for r in roots:
        for f in edition_folders(Path(r)):
            root_of.setdefault(str(f), r)
    seen_in_root: dict[tuple[str, str], EditionDef] = {}
    for folder, digest in folders:
        ed, found = load(folder, digest)
        if ed is None:
            diags.extend(found)
            continue
        root = root_of.get(folder, folder)
        if (root, ed.id) in seen_in_root:
            diags.append(error("EDITION-DUPLICATE", ed.span,
                               f"edition '{ed.id}' is declared twice in {root}",
                               f"the other is in {seen_in_root[(root, ed.id)].folder}"))
            continue
        seen_in_root[(root, ed.id)] = ed
        if ed.id in editions:
            shadowed.append((ed, editions[ed.id]))
            continue
        editions[ed.id] = ed
        diags.extend(found)
    return Universe(roots, editions, tuple(diags), tuple(shadowed), key_of(folders), unsaved)


def key_of(folders: tuple[tuple[str, str], ...]) -> str:
    """A universe's key, from its `folder_digests` alone: what was built from a universe is
    found in the cache without loading the universe."""
    h = hashlib.sha256()  # every folder read, those that failed to load or are hidden included:
    for folder, digest in folders:  # their diagnostics are part of what lint reports
        h.update(f"{folder}\0{digest}\n".encode())
    return h.hexdigest()
