"""docs/rules-trace.md, the trace of the five rules overviews, names only what exists.

Every row names where grove holds a statement, the test that checks the engine follows it and the
sheet message that states it in the overview's language (docs/rules-trace.md says how). A row that
names a test, a scenario, a file or a message that is gone fails here, so the trace cannot rot
unnoticed when a test is renamed or a message reworded.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from scenario_runner import load_all

from grove.compiler import cardset as cs
from grove.printouts import rules_text
from grove.printouts.sheets.content import WATER, build_sheet

ROOT = Path(__file__).resolve().parent.parent
TRACE = ROOT / "docs" / "rules-trace.md"
CATALOGS = ROOT / "grove" / "printouts" / "catalogs"
SEEDS = {"000": "de", "001": "de", "002": "en", "003": "th", "004": "it"}
STATUS = re.compile(r"^(follows( \(.+\))?|not followed: .+|not in grove: .+|not in this overview: .+)$")
_ROW = re.compile(r"^\| (\d{3})\.(\d+) \|")


def _rows() -> list[tuple[str, str, list[str]]]:
    """(row id, the overview's language, its cells) for every row of the trace."""
    out = []
    for line in TRACE.read_text(encoding="utf-8").splitlines():
        m = _ROW.match(line)
        if m:
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            out.append((f"{m[1]}.{m[2]}", SEEDS[m[1]], cells))
    return out


def _named(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


@cache
def _catalog(lang: str, domain: str):
    with open(CATALOGS / lang / "LC_MESSAGES" / f"{domain}.po", "rb") as fh:
        return read_po(fh, locale=lang, domain=domain)


@cache
def _functions(path: Path) -> frozenset[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return frozenset(n.name for n in ast.walk(tree)
                     if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))


@cache
def _scenarios(path: Path) -> frozenset[str]:
    return frozenset(sc.name for sc in _every_scenario(path.parent) if Path(sc.file) == path)


@cache
def _every_scenario(folder: Path) -> tuple:
    """The scenarios of every file of a folder, read once for the rows of all its files."""
    return tuple(load_all(folder))


def _test_problem(ref: str) -> str | None:
    file, sep, name = ref.partition("::")
    path = ROOT / file
    if not sep or not path.is_file():
        return f"no test file {file!r}"
    if path.suffix == ".py":
        return None if name in _functions(path) else f"{file} has no test {name!r}"
    return None if name in _scenarios(path) else f"{file} has no scenario {name!r}"


def _message_problem(ref: str, lang: str) -> str | None:
    domain, _, key = ref.partition(":")
    if domain == "data":
        return None if (ROOT / key).is_file() else f"no card data file {key!r}"
    if domain not in ("sheet", "grove", "screen"):
        return f"{ref!r} names no catalog"
    cat = _catalog(lang, domain)
    if key.startswith("ctx="):
        found = [m for m in cat if m.id and m.context == key[4:]]
    elif key.startswith("id^="):
        found = [m for m in cat if m.id and (m.id if isinstance(m.id, str)
                                             else m.id[0]).startswith(key[4:])]
    else:
        return f"{ref!r} is neither ctx= nor id^="
    if not found:
        return f"{lang} {domain}.po has no message {key!r}"
    if not all(found[0].string if isinstance(found[0].string, tuple) else (found[0].string,)):
        return f"{lang} {domain}.po leaves {key!r} untranslated"
    return None


def test_the_trace_covers_each_overview_and_every_row_is_whole():
    rows = _rows()
    assert {r[0][:3] for r in rows} == set(SEEDS)
    assert len({r[0] for r in rows}) == len(rows), "a row id is used twice"
    for rid, _, cells in rows:
        assert len(cells) == 6, f"{rid}: {len(cells)} cells, not 6"
        assert STATUS.match(cells[5]), f"{rid}: status {cells[5]!r}"
        if cells[5] == "follows" or cells[5].startswith("follows "):
            assert _named(cells[3]), f"{rid}: a statement grove follows names its test"


@pytest.mark.parametrize("rid,lang,cells", _rows(), ids=[r[0] for r in _rows()])
def test_every_name_in_a_row_exists(rid, lang, cells):
    # a path names a file; a span without a slash is the data key held there (`hand_limit`)
    problems = [f"held in: no file {ref!r}" for ref in _named(cells[2])
                if "/" in ref and not (ROOT / ref).exists()]
    problems += [p for ref in _named(cells[3]) if (p := _test_problem(ref))]
    problems += [p for ref in _named(cells[4]) if (p := _message_problem(ref, lang))]
    assert not problems, f"{rid}: " + "; ".join(problems)


@pytest.mark.parametrize("lang", ["en", "de", "it", "th"])
def test_every_text_of_a_water_card_says_so(lang):
    """Seed 002: "some split cards show the water requirement below their cost". The card
    text every printout and the terminal's `show` read says it first, the sheet's species row
    carries its icon and the sheet's legend explains it."""
    smoky = cs.build("smoky_mountains")
    water = [sp for sp in smoky.species.values() if sp.water]
    assert len(water) > 10
    where = rules_text.water_text(smoky, lang)
    for sp in water:
        assert next(iter(rules_text.card_text(sp, smoky, lang).items())) == ("water", where)
    assert all("water" not in rules_text.card_text(sp, smoky, lang)
               for sp in smoky.species.values() if not sp.water)
    sheet = build_sheet(smoky, lang)
    rows = [r for g in sheet.species for r in g.rows]
    assert all((WATER in r.icons) == r.water for r in rows)
    assert sheet.water == rules_text.field_label("water", lang) and sheet.water_where == where
    assert WATER not in build_sheet(cs.build("base"), lang).icons
