"""Shared fixtures: compiled card sets are built once per test session."""

from __future__ import annotations

import pytest

from compiler import cardset as cs


@pytest.fixture(scope="session")
def classic():
    """Base game with both expansions."""
    return cs.build("base", ["alpine", "woodland_edge"])


@pytest.fixture(scope="session")
def base():
    return cs.build("base")
