"""Where each part of a forest was written in its file, kept beside the forest, not inside it.

A forest read from a file (`grove/forest_file.py`) comes with one `Positions` per player; a
forest a game grew has none. Diagnostics about a forest (`engine/placement.check_forests`) point
at these spans and fall back to the nearest enclosing one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from grove.dsl.diagnostics import Span


@dataclass(frozen=True)
class HostPositions:
    span: Span | None = None  # the host's entry
    card: Span | None = None  # where the host card's id is written
    slots: dict[str, Span] = field(default_factory=dict)  # slot id -> its key
    cards: dict[tuple[str, int], Span] = field(default_factory=dict)  # (slot id, k) -> the card


@dataclass(frozen=True)
class Positions:
    """One player's entry in a forest file: its name and its hosts."""

    span: Span | None = None  # the player's name
    hosts: tuple[HostPositions, ...] = ()

    def host(self, index: int) -> HostPositions:
        return self.hosts[index] if index < len(self.hosts) else HostPositions(self.span)
