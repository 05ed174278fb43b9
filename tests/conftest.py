"""Shared fixtures: compiled card sets are built once per test session.

The suite runs with a cache folder of its own (unless GROVE_CACHE_DIR names one), so it neither
reads nor fills the user's cache, and without GROVE_CARDS, so the shipped editions are the ones
on the search path unless a test puts others there.
"""

from __future__ import annotations

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


def pytest_unconfigure(config: pytest.Config) -> None:
    for d in _OWN_CACHE:
        shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="session")
def classic():
    """Base game with both expansions."""
    return cs.build("base", ["alpine", "woodland_edge"])


@pytest.fixture(scope="session")
def base():
    return cs.build("base")
