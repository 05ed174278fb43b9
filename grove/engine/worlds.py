"""Worlds a seat cannot tell from the real game: every card it cannot see dealt anew.

A seat sees its hand, the public table and what it saw enter other hands (grove/engine/seat.py). The
rest (the other hands' unseen cards, their caves, their face-down cards, the cards the set-up
put back into the box, the deck's order) could be any arrangement of the cards the seat has not
seen. `redeal` draws one such arrangement, uniformly, and puts it on a table; `world` does so
on a copy, at the start of a turn, for a search to play on (a determinization).

The winter cards stay where every player knows they may lie: the deal puts the first at the top
of the deck's winter part and shuffles the rest into it (grove/engine/setup.py), so a redeal places
the ones not yet drawn by that rule, not where they really are.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from grove.engine.game import Game
from grove.engine.seat import Seat
from grove.engine.setup import shuffle
from grove.engine.tally import Alike

if TYPE_CHECKING:
    from grove.engine.table import Table


def redeal(table: Table, seat: int, rng: random.Random) -> None:
    """Deal every card seat `seat` cannot see anew, in place, uniformly among the arrangements
    consistent with what it sees. A game goes on from a redeal at any decision: the cards
    changed are none the deciding seat may read."""
    places: list[tuple[list, int]] = []  # (a zone, an index in it) holding an unseen card
    faces = []  # the unseen cards in forests: face down, numbered in the forest itself
    for j, p in enumerate(table.players):
        if j == seat:
            continue
        places += [(p.hand, k) for k, c in enumerate(p.hand) if c not in p.shown]
        places += [(p.cave, k) for k, c in enumerate(p.cave) if c not in p.shown]
        faces += [c for c in p.forest.cards if c.species is None and c.number is not None]
    places += [(table.removed, k) for k in range(table.layout.boxed)]
    winter = table.winter_ids
    deck = table.deck
    left = sorted(c for c in deck if c in winter)
    # sorted before the shuffle: the world drawn must follow from what the seat sees and the
    # generator alone, not from the order the unseen cards really lie in
    pool = sorted([zone[k] for zone, k in places] + [c for c in deck if c not in winter]
                  + [c.number for c in faces])
    unseen = set(pool)
    for p in table.players:  # a card once shown and gone again must not come back as known
        p.shown -= unseen
    shuffle(rng, pool)
    at = _winter_places(table, len(left), rng)
    it = iter(pool)
    for zone, k in places:
        zone[k] = next(it)
    winters = iter(left)
    deck[:] = [next(winters) if k in at else next(it) for k in range(len(deck))]
    for c in faces:
        c.number = next(it)
    table._views.clear()


def _winter_places(table: Table, n: int, rng: random.Random) -> set[int]:
    """Where in the deck (0 is its bottom card) the `n` winter cards not yet drawn go: the
    first at the top of the winter part while none is drawn, the rest anywhere below it."""
    if not n:
        return set()
    part = min(len(table.deck), table.layout.winter_part)
    slots = list(range(part))
    first = []
    if not table.winter and part == table.layout.winter_part and part:
        first = [slots.pop()]
    shuffle(rng, slots)
    return set(first + slots[:n - len(first)])


def world(seat: Seat, rng: random.Random, alike: Alike | None = None) -> Game:
    """A copy of the game behind `seat`, at the start of the current turn, with every card the
    seat cannot see dealt anew and a random generator of its own: any of the games the seat
    cannot tell from it, for a search to play on, its tallies sharing what they weigh with the
    other worlds of `alike` (grove/engine/tally.py). The one reader of the game behind a view,
    and it reads it only to deal the unseen cards away."""
    game = seat._t
    assert isinstance(game, Game)
    g = game.copy(rng.getrandbits(32), alike)
    redeal(g, seat.seat, rng)
    return g
