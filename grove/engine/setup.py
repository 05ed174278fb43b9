"""Setting a game up: the deal from a seeded shuffle (the cave draft is in grove/engine/game.py).

Kept apart from the turn so the order of the shuffles, on which every seed's game depends, is
in one short place: the deck is shuffled, the set-up's cards removed, the rest split in three
with the winter cards shuffled into the bottom third, and each player dealt a hand.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass

from grove.compiler.cardset import CardSet, PhysicalCard
from grove.compiler.model import Setup


class SetupError(ValueError):
    """The card set cannot deal a game for these players: its data, not the engine, is wrong.
    `code` and `hint` are what a command says of it (docs/diagnostics.md)."""

    code = "PLAY-SETUP"
    hint = "give the deck more cards or remove fewer in `setup: removed:`"


class TurnLimit(SetupError):
    """A game went on past `turn_limit`, which no game that moves on can reach: its card set
    lets it turn in circles (a rule the engine cannot foresee), so it is stopped, not run
    until the machine runs out of memory."""

    code = "PLAY-TURN-LIMIT"
    hint = ("a game that goes on this long turns in circles: look for effects that hand back "
            "what a turn took, and run `grove lint` on the card set")


@dataclass(frozen=True, slots=True)
class Layout:
    """What every player knows of where the dealt cards lie, beyond what they see."""

    boxed: int  # how many cards the set-up put back into the box, unseen (the first of removed)
    # how many cards at the deck's bottom make up its winter part (the bottom third and the
    # winter cards), the first winter card the top one of them (grove/engine/worlds.py re-deals by it)
    winter_part: int


@dataclass
class Deal:
    """The cards of a game as dealt: every card by number, and where each lies."""

    cards: list[PhysicalCard | None]  # by card number; None: a winter card
    winter_ids: set[int]
    removed: list[int]  # the cards the set-up puts back into the box
    deck: list[int]  # pop() takes the top card
    hands: list[list[int]]  # one per player
    layout: Layout


def shuffle(rng: random.Random, cards: list) -> None:
    """Shuffle in place as `Random.shuffle` of CPython 3.11 does (Fisher-Yates, each position
    drawn with the fewest random bits that cover it, drawn again while too large), so every
    seed deals what it dealt before.

    Written out here because only the generator's bits (`getrandbits`) are promised to stay the
    same across Python versions, not `shuffle` built on them: the deal, and so every game
    record, is this module's own. It also makes no call per card but the generator's (a game
    shuffles two hundred cards)."""
    bits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        k = (i + 1).bit_length()
        j = bits(k)
        while j > i:
            j = bits(k)
        cards[i], cards[j] = cards[j], cards[i]


def deal(cardset: CardSet, n: int, rng: random.Random, expansions: Iterable[str] | None
         ) -> Deal:
    setup = cardset.setup
    if n < 1:
        raise SetupError("a game needs at least one player")
    cards: list[PhysicalCard | None] = list(cardset.deck)
    first_winter = len(cards)
    cards += [None] * setup.winter_cards
    winter_ids = set(range(first_winter, len(cards)))
    exps = frozenset(expansions if expansions is not None else cardset.expansions)
    remove = setup.removed_for(exps, n)
    if remove is None:
        raise SetupError(f"the edition has no set-up for {n} players")
    order = list(range(first_winter))
    shuffle(rng, order)
    removed = order[:remove]
    rest = order[remove:]
    need = n * setup.hand_size
    if len(rest) < need + 3:
        raise SetupError(f"too many players for the deck: {len(rest)} cards left for {n} "
                         f"players after the set-up removes {remove}, who need "
                         f"{need} for their hands and 3 more")
    third = len(rest) // 3
    top, middle, bottom = rest[:third], rest[third:2 * third], rest[2 * third:]
    winter = sorted(winter_ids)
    bottom = bottom + winter[1:]
    shuffle(rng, bottom)
    bottom = [winter[0], *bottom]
    pile = top + middle + bottom  # index 0 is the top of the deck
    deck = list(reversed(pile))
    hands = [[deck.pop() for _ in range(setup.hand_size)] for _ in range(n)]
    return Deal(cards, winter_ids, removed, deck, hands, Layout(len(removed), len(bottom)))


def turn_limit(setup: Setup, cards: int, dearest: int, players: int) -> int:
    """The most turns a game of `players` may take, with `cards` cards (winter cards included)
    and a play needing at most `dearest` hand cards beside the card: many times what a game
    takes. Given the card set's figures, not the card set, as a game has them at hand (its
    memo) and works this out once at its start.

    Every turn but a stuck one that moves no card changes the game for good or fills a hand:
    it plays a card into a forest (which it never leaves: at most every card once), moves
    stuck cards out of a hand for as many from the deck (at most every card once), or draws
    into a hand below its limit, which gets room again only from a play (the card, what pays
    for it, and what its effect moves away) or a stuck turn. So a game that moves on takes at
    most about `cards * (hand_limit + dearest + 4)` such turns, and between two of them each
    player at most one turn that changes nothing (a round of those ends the game,
    grove/engine/game.py); an effect that hands a hand back its cards could go further, and this
    bound is what stops it. Base, two players: 8,757 turns; a random game takes 160 or so."""
    moving = cards * (setup.hand_limit + dearest + 4) + players * setup.hand_limit
    return (players + 1) * (moving + 1)
