"""Where grove looks for card sets: the author's folders first, then the shipped `cards/`.

An author's card set is a folder anywhere: `--cards DIR` (repeatable) and `GROVE_CARDS` (folders
separated like `PATH`) put it on the search path, ahead of the editions grove ships, so an
edition id found twice is the author's (lint says which one it hides). A folder on the path is
either one edition folder (it holds an `edition.yaml`) or a folder of edition folders.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from grove.dsl.diagnostics import DiagnosticError, error

Roots = tuple[str, ...]
ENV = "GROVE_CARDS"
EDITION_FILE = "edition.yaml"


def shipped_cards_dir() -> Path:
    from grove.cards import CARDS_DIR

    return CARDS_DIR


def search_path(cards: Iterable[str | Path] = (), env: Mapping[str, str] | None = None,
                *, shipped: bool = True) -> Roots:
    """`--cards` folders in the order given, then `GROVE_CARDS`, then the shipped editions.

    A folder that does not exist is a usage error, not a silent miss: an author who mistypes
    the path would otherwise be told that their edition is unknown."""
    env = os.environ if env is None else env
    given = [str(c) for c in cards]
    from_env = [p for p in env.get(ENV, "").split(os.pathsep) if p.strip()]
    out: list[str] = []
    for p, origin in [*((g, "--cards") for g in given), *((e, ENV) for e in from_env)]:
        folder = Path(p).expanduser()
        if not folder.is_dir():
            raise DiagnosticError([error(
                "IO-NOT-FOUND", None, f"{origin} names '{p}', which is not a folder",
                "give a card-set folder (one holding edition.yaml) or a folder of them")])
        out.append(str(folder.resolve()))
    if shipped:
        out.append(str(shipped_cards_dir().resolve()))
    return tuple(dict.fromkeys(out))


def own_set(path: str | Path) -> str | None:
    """The edition folder a forest file sits in (`thicket/forests/example.yaml` is in
    `thicket/`), looked for up to three folders up, or None."""
    here = Path(path).resolve().parent
    for folder in [here, *list(here.parents)[:3]]:
        if (folder / EDITION_FILE).is_file():
            return str(folder)
    return None


def roots_near(path: str | Path, roots: Roots | None) -> Roots | None:
    """`roots`, and after them the card set the file at `path` sits in where the set is not on
    them: what the scoreboard builds the card set from again, as the read did."""
    own = own_set(path)
    looked = tuple(roots if roots is not None else search_path())
    return roots if own is None or own in looked else (*looked, own)


def edition_folders(root: Path) -> list[Path]:
    """The edition folders at `root`: itself if it holds an edition.yaml, else its children.
    An edition.yaml that is there but no regular file (a FIFO, a device) makes a folder an
    edition folder all the same, so the loader says it cannot read it (and nothing reads it
    as a forest file, which would wait on a FIFO forever)."""
    if _has_edition_file(root):
        return [root]
    try:
        children = sorted(root.iterdir())
    except OSError:
        return []
    return [f for f in children if _has_edition_file(f)]


def _has_edition_file(folder: Path) -> bool:
    path = folder / EDITION_FILE
    try:
        return path.exists() and not path.is_dir()
    except OSError:
        return False


def edition_files(folder: Path) -> list[Path]:
    """The files an edition is read from: every YAML file of its folder that is a regular file,
    by name (the others are `stray_files`: nothing reads them)."""
    return edition_listing(folder)[0]


def links_outside(folder: Path, path: Path) -> bool:
    """Whether `path` in an edition folder is a symbolic link to a file outside the folder
    (`shadow.yaml -> /etc/shadow`): such a file is refused unread, so no diagnostic quotes a
    line of a file the card set does not hold."""
    try:
        if not path.is_symlink():
            return False
        return not os.path.realpath(path).startswith(os.path.realpath(folder) + os.sep)
    except (OSError, ValueError):
        return True


def stray_files(folder: Path) -> list[Path]:
    """The YAML names of an edition folder that are no regular file and no folder: a FIFO,
    device or socket (or a link to one), which a read would wait on or never finish, or a link
    to a file outside the folder (`links_outside`). They are reported, not read, and their
    names are part of the folder's digest (universe.py)."""
    return edition_listing(folder)[1]


def edition_listing(folder: Path) -> tuple[list[Path], list[Path]]:
    """(`edition_files`, `stray_files`) of a folder, by name, from one listing of it: the
    folder's digest asks for both before every command's cache lookup, and the entry types
    the listing carries spare most of a stat a name."""
    try:
        with os.scandir(folder) as listing:
            entries = sorted((e for e in listing if e.name.endswith(".yaml")),
                             key=lambda e: e.name)
    except OSError:
        return [], []
    files, strays = [], []
    for entry in entries:
        path = folder / entry.name
        try:
            if entry.is_file():  # through a link, to its target
                (strays if entry.is_symlink() and links_outside(folder, path) else files
                 ).append(path)
            elif not entry.is_dir() and (not entry.is_symlink() or path.exists()):
                strays.append(path)  # a FIFO, device or socket, or a link to one
        except OSError:
            continue
    return files, strays
