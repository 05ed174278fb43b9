"""Open documents -> the edition or forest file they belong to, checked with the editor's text.

An editor's buffer is not the file on disk until it is saved, yet the author wants to see the
findings of what they have typed. The session keeps the text of every open document; checking
a card file reads its edition folder with those texts laid over the files on disk (every other
edition comes from the cache as `grove lint` reads it) and runs the same checks as
`grove lint FOLDER`, so the codes, messages and positions are lint's own. Only the edition of
the changed file is read again, and of its files only those whose text changed: what was read
of the others is kept by their content.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from grove.compiler.search_path import EDITION_FILE, Roots, edition_files, search_path
from grove.dsl.diagnostics import Diagnostic, DiagnosticError

if TYPE_CHECKING:
    from grove.compiler.cardset import CardSet
    from grove.compiler.universe import Universe

log = logging.getLogger("grove.lsp")

FOREST_SUFFIXES = (".yaml", ".yml", ".json")
# A file on disk larger than this is not read for a request (the server looks into 1 MiB of
# text at most, and lint refuses a card file over 512 KiB).
MAX_FILE_BYTES = 4 << 20


@dataclass(frozen=True)
class Target:
    """What an open document is to grove: a file of an edition folder, a forest file (or a
    YAML file that may become one), or nothing grove reads."""

    kind: str  # "edition" | "forest" | "other"
    path: Path
    folder: Path | None = None  # the edition folder, for kind "edition"


# A forest file says so: a top-level `players` key (YAML or JSON), or the forest schema named
# in its first lines. Any other YAML or JSON file (a CI workflow, a package.json) is left alone.
_FOREST_KEY = re.compile(r'^(?:players|"players"|\{\s*"players")\s*:|^\s+"players"\s*:', re.M)
_FOREST_SCHEMA = re.compile(r"forest\.schema\.json")


def looks_like_forest(text: str | None) -> bool:
    if not text:
        return False
    return bool(_FOREST_KEY.search(text) or _FOREST_SCHEMA.search(text[:2000]))


def target_of(path: Path, text: str | None = None) -> Target:
    """What the file at `path` is, given its text (the editor's, else the file's): a YAML file
    beside an `edition.yaml` is a card file; a YAML or JSON file elsewhere is a forest file
    only when it looks like one."""
    path = path.resolve()
    if path.suffix == ".yaml" and (path.parent / EDITION_FILE).is_file():
        return Target("edition", path, path.parent)
    if path.suffix in FOREST_SUFFIXES and looks_like_forest(text):
        return Target("forest", path)
    return Target("other", path)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class Session:
    """The server's state: the search path, the texts of open documents, what was read.

    One per server; the handlers ask it, never a module-level store."""

    def __init__(self, roots: Roots | None = None):
        if roots is None:
            try:
                roots = search_path()
            except DiagnosticError as exc:  # GROVE_CARDS names no folder: say so, go on
                log.warning("%s; using the shipped editions only",
                            "; ".join(d.message for d in exc.diagnostics))
                roots = search_path(env={})
        self.roots: Roots = roots
        self.texts: dict[str, str] = {}  # path -> the editor's text of an open document
        self._universes: OrderedDict[tuple, Universe] = OrderedDict()
        self._cardsets: OrderedDict[tuple, CardSet | None] = OrderedDict()
        # folder -> its last card set that built: the rules text while a typo breaks the build
        self._last_good: dict[str, CardSet] = {}
        # folder -> the names of its last read whose every file loaded: what hover and
        # definition fall back on while a half-typed line breaks a whole file's YAML
        self._last_scope: dict[str, object] = {}

    # -- open documents
    def set_text(self, path: Path, text: str) -> None:
        self.texts[str(path.resolve())] = text

    def drop_text(self, path: Path) -> None:
        self.texts.pop(str(path.resolve()), None)

    def text(self, path: Path) -> str | None:
        """The editor's text of `path`, else the file's, else None (unreadable, not text, not a
        regular file, or larger than the server reads: a FIFO or /dev/zero named by a request
        must neither hang the server nor fill its memory)."""
        from grove.files.read import read_text

        p = str(path.resolve())
        if p in self.texts:
            return self.texts[p]
        try:
            return read_text(path, MAX_FILE_BYTES)
        except (OSError, UnicodeDecodeError):
            return None

    # -- reading an edition with the editor's texts
    def _reader(self):
        """Each file as the editor holds it, else as it is on disk; the loader parses a text
        it read before only once (`read_document`)."""
        from grove.compiler.loader import read_document

        def read(path: Path, schema: str):
            return read_document(path, schema, self.texts.get(str(path.resolve())))

        return read

    def _folder_digest(self, folder: Path) -> str:
        """A digest of the folder's files as the editor sees them."""
        from grove.compiler.cache import file_digest

        h = hashlib.sha256()
        for f in edition_files(folder):
            raw = self.texts.get(str(f.resolve()))
            try:
                content = digest(raw) if raw is not None else file_digest(f)
            except OSError:
                content = "unreadable"
            h.update(f"{f.name}\0{content}\n".encode())
        return h.hexdigest()

    def roots_for(self, folder: Path) -> Roots:
        from grove.api import lint_roots

        return lint_roots(folder, self.roots)

    def unsaved(self, folder: Path) -> bool:
        """Whether the editor holds a text of a file of `folder` other than the file's own."""
        from grove.compiler.cache import file_digest

        for f in edition_files(folder):
            raw = self.texts.get(str(f.resolve()))
            if raw is None:
                continue
            try:
                if digest(raw) != file_digest(f):
                    return True
            except OSError:
                return True
        return False

    def universe(self, folder: Path) -> Universe:
        """The universe `grove lint FOLDER` reads, with the folder as the editor holds it: while
        nothing of it is unsaved, the very universe lint loads (from the on-disk cache where
        lint filled it, so that a file opened answers at once)."""
        from grove.compiler.universe import folder_digests, load_universe, with_unsaved

        folder = folder.resolve()
        roots = self.roots_for(folder)
        if not self.unsaved(folder):
            return load_universe(roots)
        from grove.compiler.loader import load_edition  # YAML and schemas: only for unsaved text
        # the folder as the editor holds it, and every folder on the path as it is on disk (a
        # file saved in another edition meanwhile makes another universe)
        k = (str(folder), self._folder_digest(folder), folder_digests(roots))
        found = self._universes.get(k)
        if found is not None:
            self._universes.move_to_end(k)
            return found
        loaded = load_edition(folder, self._reader())
        found = with_unsaved(roots, str(folder), (loaded.edition, tuple(loaded.diagnostics)),
                             k[1])
        self._universes[k] = found
        while len(self._universes) > 8:
            self._universes.popitem(last=False)
        return found

    def check_edition(self, folder: Path, *, cards: bool = True, printouts: bool = True
                      ) -> list[Diagnostic]:
        """What `grove lint FOLDER` reports, for the folder as the editor holds it (its
        loading and checking, its printouts, or both: `api.lint_edition`)."""
        from grove.api import lint_edition

        return lint_edition(self.universe(folder), folder, cards=cards, printouts=printouts)

    def printout_checks(self, target: Target) -> list[Callable[[], list[Diagnostic]]]:
        """The printouts' part of `check_edition`, in pieces to run one at a time."""
        from grove.api import printout_checks

        if target.kind != "edition" or target.folder is None:
            return []
        return printout_checks(self.universe(target.folder), target.folder)

    def warm_pieces(self, target: Target) -> list[Callable[[], object]]:
        """What the first change to a file of an edition builds that opening it need not (its
        findings can come from lint's cache): every file of the folder read through the
        session's reader, kept by content, and the rules' grammar. The server builds them one
        at a time after a file's first diagnostics, while the author reads them."""
        from grove.compiler import lark_tables
        from grove.compiler.loader import load_edition

        if target.kind != "edition" or target.folder is None:
            return []
        folder = target.folder
        return [lambda: load_edition(folder, self._reader()), lark_tables.rules]

    def linted(self, target: Target) -> list[Diagnostic] | None:
        """All of what `grove lint FOLDER` found, where lint's cache holds it for the folder as
        the editor holds it (nothing unsaved); None otherwise."""
        from grove.api import lint_cached

        if target.kind != "edition" or target.folder is None:
            return None
        universe = self.universe(target.folder)
        return None if universe.unsaved else lint_cached(universe, target.folder)

    def check_forest(self, path: Path) -> list[Diagnostic]:
        from grove.api import lint_forest_text

        text = self.text(path)
        if text is None:
            return []
        return lint_forest_text(path, text, self.roots)

    def check(self, target: Target, *, cards: bool = True, printouts: bool = True
              ) -> list[Diagnostic]:
        if target.kind == "edition" and target.folder is not None:
            return self.check_edition(target.folder, cards=cards, printouts=printouts)
        if target.kind == "forest" and cards:
            return self.check_forest(target.path)
        return []

    # -- what the features read
    def edition_id(self, folder: Path) -> str | None:
        universe = self.universe(folder)
        for e in universe.editions.values():
            if Path(e.folder).resolve() == folder.resolve():
                return e.id
        return None

    def scope(self, folder: Path):
        """The names a card of this edition can see (`NameScope`), or None if it does not load."""
        from grove.compiler.names import NameScope

        universe = self.universe(folder)
        eid = self.edition_id(folder)
        if eid is None:
            return None
        ed = universe.editions[eid]
        found = NameScope(universe.lineage(ed), list(universe.editions.values()))
        if "" not in ed.left_out and not ed.deck_left_out:  # every file of it was read
            self._last_scope[str(folder.resolve())] = found
        return found

    def scopes(self, folder: Path) -> list:
        """The names to look a word up in: the folder's as the editor holds it, then those of
        its last read in which every file loaded (a line typed half-way can make a file's
        YAML unreadable, and with it every species of the file)."""
        now = self.scope(folder)
        last = self._last_scope.get(str(folder.resolve()))
        out = [now] if now is not None else []
        return out + [last] if last is not None and last is not now else out

    def cardset(self, folder: Path) -> CardSet | None:
        """The compiled card set an edition's cards are read in (an expansion with its base
        game), for rules text: while the edition has errors, the last one that built (None if
        none did)."""
        universe = self.universe(folder)
        eid = self.edition_id(folder)
        if eid is None:
            return None
        ed = universe.editions[eid]
        root, exps = (ed.expansion_of, (ed.id,)) if ed.expansion_of else (ed.id, ())
        found = self._build(universe, root, exps)
        if found is not None:
            self._last_good[str(folder.resolve())] = found
            return found
        return self._last_good.get(str(folder.resolve()))

    def forest_cardset(self, edition: str, expansions: Iterable[str]) -> CardSet | None:
        from grove.compiler.universe import load_universe

        try:
            universe = load_universe(self.roots)
        except DiagnosticError:
            return None
        return self._build(universe, edition, tuple(expansions))

    def _build(self, universe: Universe, root: str, exps: tuple[str, ...]) -> CardSet | None:
        from grove.compiler import cardset as cs

        k = (universe.roots, universe.key, root, exps)
        if k in self._cardsets:
            return self._cardsets[k]
        try:
            found: CardSet | None = cs.build(root, exps, universe.roots, universe=universe)
        except DiagnosticError:
            found = None
        self._cardsets[k] = found
        while len(self._cardsets) > 8:
            self._cardsets.popitem(last=False)
        return found
