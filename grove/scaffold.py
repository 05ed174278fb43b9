"""`grove new`: the first five minutes of an author, a card set that works before it is changed.

A standalone set or an expansion of an edition on the search path is written from the templates
in grove/templates/new: an edition.yaml, a species file, a deck, an example forest and a sample
icon (`icons/<symbol>.svg`, as every shipped edition carries its own), the YAML files each with a
`# yaml-language-server: $schema=` line naming the schemas of this grove, so an editor checks them
from the first keystroke. The new set lints clean (strict), scores its example forest, plays a
game and prints a sheet in en, de, it and th; the tests hold it to that.

The example forest lies in `forests/` below the edition folder (the folder's own YAML files are
all card files), where `grove lint NAME` finds and checks it too.

The folder is written whole or not at all: the files go to a temporary folder beside the target,
which is renamed into place.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from grove.compiler.search_path import Roots
from grove.dsl.diagnostics import DiagnosticError, error
from grove.files.write import new_folder

TEMPLATES = Path(__file__).parent / "templates" / "new"
ID = re.compile(r"[a-z][a-z0-9_]*")  # matched whole (fullmatch): `$` lets a final newline in
# ids the templates use themselves: a set named like one of them would collide with it
TEMPLATE_IDS = frozenset({"rowan", "aspen", "robin", "violet", "wren", "clover", "tree", "bird",
                          "plant", "trees", "top", "bottom", "cave"})
FOREST_FILE = "forests/example.yaml"  # below the edition folder, whose own files are card files
ICON_FOLDER = "icons"  # <symbol id>.svg: the set's icons, card data like the rest
# nouns an expansion's template species need, declared by the expansion if its base lacks them
_TYPES = {
    "bird": {"names": "{en: Bird, de: Vogel, it: Uccello, th: นก}",
             "plural": "{en: Birds, de: Vögel, it: Uccelli, th: นก}",
             "article": "{de: m, it: m_v}", "classifier": "{th: ตัว}"},
    "plant": {"names": "{en: Plant, de: Pflanze, it: Pianta, th: พืช}",
              "plural": "{en: Plants, de: Pflanzen, it: Piante, th: พืช}",
              "article": "{de: f, it: f}", "classifier": "{th: ต้น}"},
}


@dataclass(frozen=True)
class NewCardSet:
    folder: Path
    files: tuple[Path, ...]
    edition: str  # the standalone edition to name in --edition
    expansions: tuple[str, ...]  # and in --with
    forest: Path


def _usage(code: str, message: str, hint: str | None = None) -> DiagnosticError:
    return DiagnosticError([error(code, None, message, hint)])


def _title(name: str) -> str:
    return " ".join(w.capitalize() for w in name.split("_"))


def _expansion_context(base_id: str, name: str, roots: Roots | None) -> dict[str, Any]:
    """What the expansion's templates need of the edition it expands."""
    from grove.compiler.cardset import nearest_edition
    from grove.compiler.universe import load_universe

    universe = load_universe(roots)
    base = universe.editions.get(base_id)
    if base is None:
        raise _usage("EDITION-UNKNOWN", f"unknown edition '{base_id}'",
                     f"{nearest_edition(base_id, universe.editions)}editions: "
                     f"{', '.join(sorted(universe.editions))}")
    if base.expansion_of is not None:
        raise _usage("EDITION-NOT-STANDALONE", f"'{base_id}' is itself an expansion of "
                     f"'{base.expansion_of}'", f"use --expansion-of {base.expansion_of}")
    symbols = [s.id for s in base.symbols if s.kind == "tree"]
    for host in base.hosts:
        sides = {s.side: s.id for s in host.slots}
        card = next((s for s in base.species if s.kind == host.from_kind), None)
        if host.from_kind and card and "top" in sides and "bottom" in sides and symbols:
            break
    else:
        raise _usage("NEW-NO-HOST", f"'{base_id}' has no host with a top and a bottom slot, or "
                     "no tree symbol, for the example cards to use",
                     "start a standalone set: grove new NAME")
    types = {s.id for s in base.symbols if s.kind == "type"}
    row = next((r for r in base.removed if not r.with_), None)
    counts = dict(sorted(row.counts.items())) if row else {2: 0}
    return {
        "base": base_id, "symbols": [symbols[0], symbols[min(1, len(symbols) - 1)]],
        "host": host.id, "host_card": card.id, "top": sides["top"], "bottom": sides["bottom"],
        "counts": "{" + ", ".join(f"{k}: {v}" for k, v in counts.items()) + "}",
        "missing_types": [{"id": t, **_TYPES[t]} for t in ("bird", "plant") if t not in types],
    }


def create(name: str, out: str | None = None, expansion_of: str | None = None,
           roots: Roots | None = None) -> NewCardSet:
    """Write a new card set named `name` into `out` (default: ./NAME); returns what it wrote."""
    import jinja2

    from grove.schema import SCHEMA_DIR

    if not ID.fullmatch(name):
        raise _usage("USAGE-BAD-NAME", f"{name!r} is not a card-set id",
                     "ids are lower_snake_case: letters, digits and underscores, starting with a "
                     "letter (my_forest)")
    if name in TEMPLATE_IDS:
        raise _usage("USAGE-BAD-NAME", f"'{name}' is a name the new set's own cards use",
                     "choose another id")
    from grove.compiler.universe import load_universe

    if name in load_universe(roots).editions:
        raise _usage("USAGE-BAD-NAME", f"an edition '{name}' is already on the search path",
                     "choose another id, or the new set would hide that one")
    folder = Path(out) if out else Path(name)
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise _usage("IO-EXISTS", f"{folder} exists and is not an empty folder",
                     "name a new folder with -o DIR")
    kind = "expansion" if expansion_of else "standalone"
    from grove.compiler.formats import CURRENT

    context: dict[str, Any] = {
        "id": name, "title": _title(name), "schema_dir": SCHEMA_DIR.resolve().as_posix(),
        "format": CURRENT,  # a set says the format it is written in (grove/compiler/formats.py)
        "folder": str(folder), "forest": str(folder / FOREST_FILE),
    }
    if expansion_of:
        context.update(_expansion_context(expansion_of, name, roots))
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined, autoescape=False)  # noqa: S701 - YAML
    icon = "rowan" if kind == "standalone" else name  # a tree symbol; the expansion's own
    names = {"edition.yaml": "edition.yaml", "species.yaml": "species.yaml",
             "deck.yaml": "deck.yaml", "forest.yaml": FOREST_FILE,
             "icon.svg": f"{ICON_FOLDER}/{icon}.svg"}
    rendered = {file: env.get_template(f"{kind}_{part}.j2").render(context)
                for part, file in names.items()}
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = new_folder(folder)  # the umask's mode, as the files in it have
    except OSError as exc:
        raise _usage("IO-WRITE", f"{folder}: {exc.strerror}") from None
    try:
        for file, text in rendered.items():
            (tmp / file).parent.mkdir(exist_ok=True)
            (tmp / file).write_text(text, encoding="utf-8")
        if folder.exists():
            folder.rmdir()  # empty, as checked above
        tmp.rename(folder)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise _usage("IO-WRITE", f"{folder}: {exc.strerror}") from None
    return NewCardSet(folder, tuple(folder / f for f in rendered), expansion_of or name,
                      (name,) if expansion_of else (), folder / FOREST_FILE)


# ---- the example forest files ---------------------------------------------------------------
def examples_dir() -> Path:
    """Where the example forest files lie: `grove/examples`, in a checkout and in an installed
    grove alike (package data)."""
    return Path(__file__).parent / "examples"


_SCHEMA_LINE = re.compile(r"^# yaml-language-server: \$schema=\S*forest\.schema\.json$", re.M)


def copy_examples(out: str | Path = "examples") -> tuple[Path, ...]:
    """Copy the example forest files into `out` (made if missing), their schema line naming
    this grove's forest schema; returns the files written. A file already there with other
    contents is never overwritten: nothing is written then (IO-EXISTS); the same contents are
    left as they are."""
    from grove.files.read import read_text
    from grove.files.write import write_text
    from grove.schema import SCHEMA_DIR

    folder = Path(out)
    line = f"# yaml-language-server: $schema={(SCHEMA_DIR / 'forest.schema.json').resolve().as_posix()}"
    wanted = {folder / f.name: _SCHEMA_LINE.sub(line, f.read_text(encoding="utf-8"), count=1)
              for f in sorted(examples_dir().glob("*.yaml"))}
    if not wanted:
        raise _usage("IO-READ", f"no example files in {examples_dir()}",
                     "reinstall grove: its examples are part of the package")
    if folder.exists() and not folder.is_dir():
        raise _usage("IO-EXISTS", f"{folder} exists and is not a folder",
                     "name another folder: grove examples DIR")
    todo = {}
    for path, text in wanted.items():
        if path.exists() or path.is_symlink():
            try:
                same = read_text(path, 1 << 20) == text
            except (OSError, UnicodeDecodeError):
                same = False
            if not same:
                raise _usage("IO-EXISTS", f"{path} exists with other contents; nothing was "
                             "written", "name another folder: grove examples DIR")
            continue
        todo[path] = text
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for path, text in todo.items():
            write_text(path, text)
    except OSError as exc:
        raise _usage("IO-WRITE", f"{folder}: {exc.strerror}") from None
    return tuple(todo)
