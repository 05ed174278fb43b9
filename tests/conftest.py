"""Shared fixtures: compiled card sets are built once per test session.

The suite runs with a cache folder of its own (unless GROVE_CACHE_DIR names one), so it neither
reads nor fills the user's cache, and without GROVE_CARDS, so the shipped editions are the ones
on the search path unless a test puts others there.
"""

from __future__ import annotations

import gc
import os
import shutil
import tempfile

import pytest

from grove.compiler import cardset as cs

_OWN_CACHE: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    if not hasattr(config, "workerinput"):  # once, in the process that starts the workers
        _bytecode()
    os.environ.pop("GROVE_CARDS", None)
    os.environ.pop("GROVE_NO_CACHE", None)
    if not os.environ.get("GROVE_CACHE_DIR"):
        _OWN_CACHE.append(tempfile.mkdtemp(prefix="grove-test-cache-"))
        os.environ["GROVE_CACHE_DIR"] = _OWN_CACHE[0]


def _bytecode() -> None:
    """Compile grove's modules once, as pip does when it installs grove: the suite starts some
    hundreds of `grove` processes, and where PYTHONDONTWRITEBYTECODE is set each of them would
    compile every module it imports again (a tenth of a second of CPU each)."""
    import compileall
    from pathlib import Path

    import grove

    compileall.compile_dir(Path(grove.__file__).parent, quiet=2)


# The files whose tests take longest, longest first (`make test` lists the slowest tests). The
# suite runs a file on one worker (`--dist loadfile`: a module's fixtures, a browser, a played
# game, are made once), and the longest files go first, so that the workers end together rather
# than one idling while the other finishes a long file it was handed late. A file not named here
# keeps its place after these. Only with `--dist loadfile`: xdist's default, `load`, first hands
# each worker a run of consecutive tests, and would give one worker every long file.
LONGEST_FIRST = (
    "test_fuzz.py",  # one test of some 90 s of CPU: it must start at once, or it ends the run alone
    # the sheet files, one unit of work (`SHARED_WORKER`)
    "test_sheets_printed.py", "test_sheets_browser.py", "test_sheets_screen.py", "test_sheets.py",
    "test_sheets_thai.py", "test_sheets_pages.py", "test_sheets_icons.py",
    "test_serve_browser.py",
    "test_engine_games.py",
    "test_table_fit.py",
    "test_faults_simulate.py",
    "test_mcts.py",
    "test_play_steps.py",
    "test_play_terminal.py",
    "test_cache.py",
    "test_simulate.py",
    "test_what_must_hold.py",
    "test_readme_tour.py",
    "test_print.py",
    "test_cache_trust.py",
    "test_simulate_balance.py",
    "test_lsp_wire.py",
    "test_benchmarks_json.py",
    "test_faults_records.py",
    "test_authoring_doc.py",
    "test_report_browser.py",
    "test_faults_export.py",
    "test_simulate_against.py",
    "test_serve_api.py",
    "test_serve_process.py",
    "test_seat.py",
    "test_own_card_sets.py",
    "test_lint_scale.py",
)


# Files that read one session fixture's costly artefact run on one worker, where it is made once:
# the sheet modules read the same laid-out sheets (`laid_out`, tests/sheet_helpers.py), which on
# two workers were laid out on each.
SHARED_WORKER = {name: "the laid-out sheets" for name in (
    "test_sheets.py", "test_sheets_browser.py", "test_sheets_icons.py", "test_sheets_pages.py",
    "test_sheets_printed.py", "test_sheets_screen.py", "test_sheets_thai.py")}


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """`--dist loadfile`, a file a unit of work as before, but the files of `SHARED_WORKER`
    that name one artefact are one unit."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedFiles(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = super()._split_scope(nodeid)
            return SHARED_WORKER.get(path.rsplit("/", 1)[-1], path)

    return SharedFiles(config, log)


@pytest.hookimpl(optionalhook=True)  # an xdist hook: the workers collect, with `dist` reset
def pytest_configure_node(node) -> None:
    node.workerinput["dist"] = node.config.getoption("dist")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    dist = getattr(config, "workerinput", {}).get("dist") or config.getoption("dist", "no")
    if dist != "loadfile":
        return
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: the rest in order


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection loaded (every test module, grove, the libraries they import) lives until
    the worker ends: frozen, the collector no longer walks it at each full collection, which in
    a worker holding all of it cost the in-process tests some 7% of their time."""
    gc.freeze()


def pytest_unconfigure(config: pytest.Config) -> None:
    for d in _OWN_CACHE:
        shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="module")
def quick_pilot():
    """Textual's test pilot, after each key it presses, waits until a look of 20 ms finds the
    app idle (`textual._wait`), twice: a whole game played by keys slept more than it worked (a
    game of test_table_fit: 23 s, 13 of them asleep), and its test worker's core stood idle
    meanwhile. The same test of idleness (a look in which the app used a twentieth of it in CPU
    time) with a look of 2 ms."""
    import textual._wait as wait

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(wait, "SLEEP_GRANULARITY", 0.002)  # raising, should textual rename it
        patch.setattr(wait, "SLEEP_IDLE", 0.002 / 20)
        yield


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium under Playwright, one for a module's tests (each module that asks for
    it marks itself skipped where Chromium or Playwright is missing)."""
    from tests.serve_helpers import launched_chromium

    yield from launched_chromium()


@pytest.fixture(scope="session")
def stats():
    """scipy.stats, for the tests that compare with it, imported when one asks: it takes 0.6 s
    to import, which every test worker paid as it collected those modules."""
    from scipy import stats

    return stats


@pytest.fixture(scope="session")
def laid_out():
    """The shipped quick-reference sheets, each laid out once per test process (their PDF, page
    starts and HTML page): several modules read the same sheets (tests/sheet_helpers.py)."""
    from sheet_helpers import LaidOut

    return LaidOut()


@pytest.fixture(scope="session")
def classic():
    """Base game with both expansions."""
    return cs.build("base", ["alpine", "woodland_edge"])


@pytest.fixture(scope="session")
def base():
    return cs.build("base")
