"""A cold `grove lint` does work in proportion to the species of a card set, not their square.

Work is counted, not timed: the Python calls made (cProfile's count), which a busy machine does
not move. Generated sets of three sizes (benchmarks/lint_scale.py) are linted with the disk
cache off and nothing else on the search path, and the calls each species more costs between
the two smaller sets and between the two larger must stay about the same: work that grows with
the square of the species makes the second four times the first. What every lint costs alike
(the grammar, the schemas) falls out of both. The rules' check is held to it on its own too, at
larger sizes, since a rescan of the species for every rule, as `_max_count_fn` did until
December 2026, was a small part of the whole at a few hundred species (and 90% of it at 10,000).
About 20 s on one core.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:  # the benchmarks are run from the checkout, not installed
    sys.path.insert(0, str(REPO))

from benchmarks.lint_scale import write_set  # noqa: E402


def _calls(folder: Path) -> int:
    """The Python calls of one lint of `folder` alone (no shipped editions beside it)."""
    from grove import api

    prof = cProfile.Profile()
    prof.enable()
    try:
        found = api.lint([str(folder)], roots=(str(folder.resolve()),))
    finally:
        prof.disable()
    assert not [d for d in found if d.is_error], found[:3]
    return sum(nc for _, nc, _, _, _ in pstats.Stats(prof).stats.values())  # type: ignore[attr-defined]


def _growth(calls: dict[int, int]) -> float:
    """How much more each species costs between the larger two sets than the smaller two."""
    a, b, c = sorted(calls)
    return ((calls[c] - calls[b]) / (c - b)) / ((calls[b] - calls[a]) / (b - a))


def test_cold_lint_grows_with_the_species_not_their_square(tmp_path, monkeypatch):
    monkeypatch.setenv("GROVE_NO_CACHE", "1")
    _calls(write_set(tmp_path / "warm", 16, "warm"))  # grammar, schemas, fonts: once a process
    calls = {n: _calls(write_set(tmp_path / f"s{n}", n, f"s{n}")) for n in (25, 100, 400)}
    assert _growth(calls) < 1.3, f"Python calls of a cold lint by species: {calls}"


def test_checking_the_rules_grows_with_the_species_not_their_square(tmp_path, monkeypatch):
    """Counted before it was fixed: 1.8 (50, 200, 800 species); after, 1.0."""
    from grove.compiler import cardset
    from grove.compiler.universe import load_universe

    monkeypatch.setenv("GROVE_NO_CACHE", "1")
    calls = {}
    for n in (16, 50, 200, 800):
        folder = write_set(tmp_path / f"s{n}", n, f"s{n}")
        universe = load_universe((str(folder.resolve()),))
        prof = cProfile.Profile()
        prof.enable()
        found = cardset.check_edition(universe.editions[f"s{n}"], universe)
        prof.disable()
        assert not [d for d in found.diagnostics if d.is_error]
        calls[n] = sum(nc for _, nc, _, _, _ in pstats.Stats(prof).stats.values())  # type: ignore[attr-defined]
    del calls[16]  # the first parses the grammar
    assert _growth(calls) < 1.3, f"Python calls of checking the rules by species: {calls}"


@pytest.mark.parametrize("species", [9, 40])
def test_the_generated_sets_lint_clean(tmp_path, monkeypatch, species):
    """What the benchmark times is a card set lint passes, so it times the whole of lint."""
    from grove import api

    monkeypatch.setenv("GROVE_NO_CACHE", "1")
    folder = write_set(tmp_path / "s", species)
    found = api.lint([str(folder)], roots=(str(folder.resolve()),))
    assert not [d for d in found if d.is_error], found[:5]
    assert any(e.id == "scale" for e in _editions(folder))


def _editions(folder: Path):
    from grove.compiler.universe import load_universe

    return load_universe((str(folder.resolve()),)).editions.values()
