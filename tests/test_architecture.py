"""The house's shape, as docs/architecture.md draws it: rooms import downwards, never in a circle.

Imports are read from the source (every `import`, at the top of a module or inside a function,
under TYPE_CHECKING too), so a lazy import that hides a cycle counts as one.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("files", "dsl", "forest", "compiler", "engine", "printouts", "simulation", "database",
            "grove", "benchmarks")
# a room may import only from the rooms below it (docs/architecture.md)
BELOW = {
    "files": set(),
    "dsl": {"files"},
    "forest": {"files", "dsl"},
    "compiler": {"files", "dsl", "forest"},
    "engine": {"files", "dsl", "forest", "compiler"},
    "printouts": {"files", "dsl", "forest", "compiler"},
    "simulation": {"files", "dsl", "forest", "compiler", "engine"},
    "database": {"files", "dsl", "forest", "compiler", "printouts"},
    "grove": {"files", "dsl", "forest", "compiler", "engine", "printouts", "simulation",
              "database"},
    "benchmarks": {"files", "dsl", "forest", "compiler", "engine", "printouts", "simulation",
                   "database", "grove"},
}


# data, read by the compiler, not rooms: grove/cards (the shipped editions), grove/schema
DATA = {"cards", "schema"}


def _folder(room: str) -> Path:
    """Every room but the face and the benchmarks lives under grove/ (one import name)."""
    return ROOT / room if room in ("grove", "benchmarks") else ROOT / "grove" / room


def _room(module: str) -> str:
    """The room a module belongs to: `grove.engine.game` is the engine's, `grove.api` the face's."""
    parts = module.split(".")
    return parts[1] if parts[0] == "grove" and len(parts) > 1 and parts[1] in BELOW else parts[0]


def _modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for path in _folder(pkg).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            # the face's walk passes through the rooms and the data inside it
            if _room(name) == pkg and not DATA & set(parts[1:2]):
                out[name] = path
    return out


def _imports(path: Path, known: dict[str, Path]) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return {m for m in found if m in known}


@cache  # three tests read it: each module parsed once, not three times (read, never changed)
def _graph() -> dict[str, set[str]]:
    known = _modules()
    return {m: _imports(p, known) - {m} for m, p in known.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_no_import_cycle_anywhere():
    assert _cycles(_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


# The package itself (grove/__init__.py: its docstring and `__version__`) runs before any
# module of any room is imported, so every room may read it, as long as it imports nothing.
PACKAGE = "grove"


def test_rooms_import_only_from_below():
    wrong = sorted(f"{m} imports {d}" for m, deps in _graph().items() for d in deps
                   if d != PACKAGE and _room(d) != _room(m) and _room(d) not in BELOW[_room(m)])
    assert wrong == []


def test_the_package_itself_imports_nothing():
    tree = ast.parse((ROOT / "grove" / "__init__.py").read_text(encoding="utf-8"))
    assert not [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)]


# sub-rooms of printouts/: the print-and-play cards (grove/printouts/cards/) reuse the sheets' fonts,
# shaping, Thai line breaking and icons; the sheets know nothing of the cards
# and of the face: a seat's table in words (grove/seatview/) is read by both screens a person
# plays on, the terminal and the browser table, and imports neither; neither screen imports the
# other
SUBROOMS_ABOVE = {"grove.printouts.cards": {"grove.printouts.sheets"},
                  "grove.terminal": {"grove.seatview", "grove.serve"},
                  "grove.serve": {"grove.seatview", "grove.terminal"}}


def test_sub_rooms_import_only_from_below():
    wrong = sorted(f"{m} imports {d}" for m, deps in _graph().items() for d in deps
                   for upper, lowers in SUBROOMS_ABOVE.items() for lower in lowers
                   if m.startswith(lower) and d.startswith(upper))
    assert wrong == []
