"""Every effect, bonus and permanent effect of every edition, each run in a prepared state.

The scenarios are data (`tests/scenarios/*.yaml`, format in `tests/scenario_runner.py`); the
coverage test below holds them to the card sets: a rule that no scenario fires is a failure.
"""

from __future__ import annotations

import pytest
from scenario_runner import load_all, run

from grove.compiler import cardset as cs

SCENARIOS = load_all()
# the card sets whose rules must all be exercised: each standalone with every expansion
COVERED = [("base", ("alpine", "woodland_edge")), ("dartmoor", ()), ("smoky_mountains", ())]


@pytest.mark.parametrize("sc", SCENARIOS, ids=[s.ident for s in SCENARIOS])
def test_scenario(sc):
    run(sc)


def _rules(edition: str, exps: tuple[str, ...]) -> set[str]:
    cset = cs.build(edition, exps)
    want = set()
    for sp in cset.species.values():
        for kind in ("effect", "bonus", "trigger"):
            if getattr(sp, kind) is not None:
                want.add(f"{kind} {sp.key}")
    return want


def test_every_rule_of_every_edition_fires_in_some_scenario():
    seen: set[str] = set()
    for sc in SCENARIOS:  # run() refuses a scenario that does not pin what fired
        _, _, events = run(sc)
        seen |= {f"{e.kind} {e.species}" for e in events if e.kind in ("effect", "bonus", "trigger")}
    missing = sorted(set().union(*(_rules(e, x) for e, x in COVERED)) - seen)
    assert not missing, f"{len(missing)} rules no scenario fires: {missing}"
