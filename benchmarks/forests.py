"""Random legal forests dealt from a card set's deck, for the benchmark and the agreement test.

Cards are dealt from one shuffled copy of the physical deck, so no species appears more often
across all players than the deck holds it. Each dealt card becomes a tree or shrub, a dweller in a
free slot (or joining a slot its rules let it share: hares, a second toad, butterflies above a
Stinging Nettle), a sapling, or a card in the cave.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from grove.compiler.cardset import CardSet, PhysicalCard, Species
from grove.compiler.model import HostKind
from grove.forest.model import Forest

HARE = "base:european_hare"
TOAD = "base:common_toad"
NETTLE = "woodland_edge:stinging_nettle"


@dataclass
class _Host:
    kind: HostKind
    species: Species | None
    symbol: str | None
    slots: dict[str, list[tuple[Species, str | None]]] = field(default_factory=dict)


def _is_butterfly(sp: Species) -> bool:
    return "butterfly" in sp.types


def _may_join(sp: Species, cards: list[tuple[Species, str | None]], host: _Host, side: str
              ) -> bool:
    """Whether `sp` may be added to a non-empty slot holding `cards` (the game's sharing rules)."""
    keys = [c.key for c, _ in cards]
    if sp.key == HARE:
        return all(k == HARE for k in keys)
    if sp.key == TOAD:
        return keys == [TOAD]
    if side == "top" and _is_butterfly(sp) and all(_is_butterfly(c) for c, _ in cards):
        bottoms = [c for sid, cs in host.slots.items() if host.kind.slot(sid).side == "bottom"
                   for c, _ in cs]
        return any(c.key == NETTLE for c in bottoms)
    return False


class _Player:
    def __init__(self, name: str):
        self.name = name
        self.hosts: list[_Host] = []
        self.cave = 0

    def forest(self) -> Forest:
        forest = Forest(self.name, self.cave)
        for h in self.hosts:
            forest.place_host(h.kind, h.species, h.symbol)
        for i, h in enumerate(self.hosts):
            for sid, cards in h.slots.items():
                for sp, symbol in cards:
                    forest.place_card(i, sid, sp, symbol)
        return forest


def _new_host(kind: HostKind, species: Species | None, symbol: str | None) -> _Host:
    return _Host(kind, species, symbol, {s.id: [] for s in kind.slots})


def _place(cs: CardSet, p: _Player, card: PhysicalCard, rng: random.Random,
           sapling_rate: float, cave_rate: float, share_weight: float) -> None:
    if rng.random() < cave_rate:
        p.cave += 1
        return
    halves = card.halves
    if len(halves) == 1 and halves[0][1] is None:  # a tree or a shrub
        key, _, symbol = halves[0]
        sp = cs.species[key]
        kind = cs.host_for_kind(sp.kind)
        assert kind is not None, sp.kind
        p.hosts.append(_new_host(kind, sp, symbol))
        return
    if not p.hosts or rng.random() < sapling_rate:
        p.hosts.append(_new_host(cs.hosts["sapling"], None, None))
        return
    options: list[tuple[float, _Host, str, Species, str | None]] = []
    for key, side, symbol in halves:
        sp = cs.species[key]
        for h in p.hosts:
            for slot in h.kind.slots:
                if slot.side != side:
                    continue
                cards = h.slots[slot.id]
                if not cards:
                    options.append((1.0, h, slot.id, sp, symbol))
                elif _may_join(sp, cards, h, side):
                    options.append((share_weight, h, slot.id, sp, symbol))
    if not options:
        p.hosts.append(_new_host(cs.hosts["sapling"], None, None))
        return
    _, h, sid, sp, symbol = rng.choices(options, weights=[o[0] for o in options])[0]
    h.slots[sid].append((sp, symbol))


def random_forests(
    cs: CardSet,
    rng: random.Random,
    players: int,
    cards: int | None = None,
    *,
    sapling_rate: float = 0.05,
    cave_rate: float = 0.06,
    share_weight: float = 4.0,
) -> list[Forest]:
    """Deal `cards` cards (default: the whole deck) round the table into legal forests.

    Dwellers prefer slots they may share (weight `share_weight` against 1 for an empty slot), so
    hare stacks, toad pairs and butterflies above Stinging Nettles turn up often. Trees come out of
    the deck in random order; the first few cards are dealt as trees first so that dwellers have
    somewhere to go.
    """
    deck = list(cs.deck)
    rng.shuffle(deck)
    if cards is not None:
        deck = deck[:cards]
    # put a couple of host cards first for every player, like an opening hand would
    hosts_first = [c for c in deck if len(c.halves) == 1 and c.halves[0][1] is None]
    opening = hosts_first[: 2 * players]
    rest = [c for c in deck if all(c is not o for o in opening)]
    table = [_Player(f"P{i + 1}") for i in range(players)]
    for i, card in enumerate(opening + rest):
        _place(cs, table[i % players], card, rng, sapling_rate, cave_rate, share_weight)
    return [p.forest() for p in table]


def large_forests(cs: CardSet, players: int = 5, seed: int = 2024) -> list[Forest]:
    """The whole deck of `cs` dealt to `players` players: the benchmark's large table."""
    return random_forests(cs, random.Random(seed), players, None, sapling_rate=0.03,
                          cave_rate=0.04)
