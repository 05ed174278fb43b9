"""What the engine works out from a card set alone, kept across the games played with it.

Each card's halves, the plays a card can be offered as, and where a card half fits at a host
holding given cards are the same in every game of one card set. A game works them out as it
needs them and keeps them here. By default every game has a memo of its own; games of one card
set may share one (`Game(..., memo=memo)`), which a batch of simulated games does so that each
answer is worked out once for all of them. The memo changes no answer, only how often it is
worked out, and it belongs to one card set: a game refuses a memo of another.
"""

from __future__ import annotations

from typing import Any

from grove.compiler.cardset import CardSet, Species
from grove.compiler.model import HostKind
from grove.engine.action import ActionTable

# a card's halves: (species, side or None for a host card, tree symbol)
Halves = tuple[tuple[Species, str | None, str | None], ...]


class Memo:
    def __init__(self, cardset: CardSet):
        self.cardset = cardset
        species = cardset.species
        deck: list[Halves] = [tuple([(species[k], side, sym) for k, side, sym in pc.halves])
                              for pc in cardset.deck]
        self.halves: list[Halves] = deck + [()] * cardset.setup.winter_cards  # by card number
        self.plans: list[Any] = [None] * len(self.halves)  # by card number: grove/engine/turn.py
        self.repeating: set[int] = set()  # cards whose plan may offer a play twice (turn.py)
        # the most hand cards a play needs beside the card (its cost, and a river beneath it)
        self.most_needed = max((sp.cost for sp in species.values()), default=0) + 1
        # the actions that name a card, made once (asked for on every turn)
        self.actions = ActionTable(len(self.halves))
        self.hosts_from: dict[str, list[HostKind]] = {}  # species kind -> hosts it makes
        for h in cardset.hosts.values():
            if h.from_kind is not None:
                self.hosts_from.setdefault(h.from_kind, []).append(h)
        # face-down hosts a turn may play any card as
        self.action_hosts = [h.id for h in cardset.hosts.values()
                             if h.face_down and h.play == "action"]
        # where halves fit (see grove/engine/live.py): answers by host content, one side's content
        # or fullness, and by slot
        self.answers: dict[tuple, dict] = {}
        self.slot_answers: dict[tuple, bool] = {}
        self.fits: dict[tuple, Any] = {}  # (side, slot ids) -> fits.Fit, labels by host index
        self.halves_by_key: dict[tuple, Any] = {}  # (species key, symbol, side) -> fits.Half
        self.placings: dict[str, tuple] = {}  # a place's text -> `Table.placing`
        self.plays: dict[str, tuple | None] = {}  # an offered action's text -> `Table.play_of`
        self.tokens: dict[tuple, frozenset[str]] = {}  # what a card placed alike changes (tally)

    def check(self, cardset: CardSet) -> Memo:
        if cardset is not self.cardset:
            raise ValueError("this memo belongs to another card set")
        return self
