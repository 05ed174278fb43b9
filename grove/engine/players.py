"""AI players. The whole interface is one method: `choose(seat, decision) -> Action`, one of
`decision.actions`, where `seat` is the player's view of the game (grove/engine/seat.py)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from grove.engine.action import DRAW_DECK, SKIP, STOP, YES, Action, Draw, Play, card_of
from grove.engine.decision import Offers
from grove.engine.game import Decision
from grove.engine.seat import Seat

if TYPE_CHECKING:
    from grove.compiler.cardset import Species
    from grove.compiler.model import HostKind
    from grove.engine.tally import Tally

# what a card's cost counts against its play, in points a paid card: the cards paid go to the
# clearing, where they may serve another player
COST_WEIGHT = 0.75


def gain(tally: Tally, base: float, sp: Species, sym: str | None, at: HostKind | tuple[int, str],
         free: bool = False, key: str | None = None) -> float:
    """What a play of half `sp` at `at` adds to the forest of `tally` (its total `base`),
    its cost counted against it unless it is free."""
    return tally.weigh(sp, sym, at, key) - base - (0 if free else COST_WEIGHT * sp.cost)


class RandomPlayer:
    """Any legal action, uniformly; seeded so games repeat."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self._bits = self.rng.getrandbits

    def choose(self, seat: Seat, decision: Decision) -> Action:
        # uniformly among the texts: the chosen one alone is read into a value, from the
        # game's table of actions as the decision would (a call less on every decision). The
        # draw is `Random.choice`'s (the fewest random bits that cover the count, drawn again
        # while too large), written out as the deal's shuffle is (`engine.setup.shuffle`): it
        # rests on the generator's bits alone, which Python keeps the same across versions,
        # and calls neither `len()` of the offers nor `_randbelow`. The same games as before
        opts = decision.options
        turn = opts.__class__ is Offers  # a turn's: its count and texts without len() and []
        n = opts.n if turn else len(opts)
        k = n.bit_length()
        r = self._bits(k)
        while r >= n:
            r = self._bits(k)
        return seat.actions.read(opts.at(r) if turn else opts[r])


class GreedyPlayer:
    """The action with the best immediate gain in points, counting sets and majorities.

    A card's worth is the change of its owner's forest score if it were placed now, scored
    against the other forests (so a Linden weighs the majority); drawing is chosen when no play
    gains more than what its cost gives away.
    """

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self._keep: dict[str, tuple[int, str]] = {}  # a payment's text -> `_pay`'s order

    def choose(self, seat: Seat, decision: Decision) -> Action:
        if decision.kind in ("turn", "place"):
            return self._best_play(seat, decision)
        if decision.kind == "pay":
            return self._pay(seat, decision)
        if decision.kind in ("optional", "redraw"):  # a redraw is offered only without a tree
            return YES
        opts = decision.actions
        if decision.kind == "choose":
            picks = [o for o in opts if o != STOP]
            return picks[0] if picks else opts[0]
        return opts[0] if decision.kind != "draw" else self._draw(seat, opts)

    def _draw(self, seat: Seat, opts: tuple[Action, ...]) -> Action:
        return self.rng.choice(opts)

    def _pay(self, seat: Seat, decision: Decision) -> Action:
        # keep what scores; pay with cards whose halves are cheap to give away. A card is
        # worth the same all game, so each payment text is weighed once (a hundred payments
        # a game, each offering most of the hand)
        keep = self._keep
        for text in decision.options:
            if text not in keep:
                keep[text] = (_worth(seat.memo.halves[card_of(decision.read(text))]), text)
        return decision.read(min(decision.options, key=keep.__getitem__))

    def _best_play(self, seat: Seat, decision: Decision) -> Action:
        i = decision.player
        tally = seat.tally(i)  # the forest scored once; each play re-runs what it changes
        base = tally.total
        best, best_gain = None, 0.5
        plays = seat.memo.plays  # `seat.play_of` as far as known: a call less for each text
        weigh = tally.weigh
        for text in decision.options:
            play = plays.get(text, False)
            if play is False:
                play = seat.play_of(text)
            if play is None:
                continue
            # a play's worth depends only on which half goes where: the tally keeps it for
            # copies, and for the next turn while the forest stands still
            sp, sym, at, free, key = play
            value = weigh(sp, sym, at, key) - base  # `gain`, written out in greedy's hot loop
            if not free:
                value -= COST_WEIGHT * sp.cost
            if value > best_gain:
                best, best_gain = text, value
        if best is not None:
            return decision.read(best)
        # nothing gains: draw (the deck's top card first), else skip, else a sapling, reading
        # the texts only as far as that needs (a greedy player draws on half its turns)
        opts = decision.options
        if DRAW_DECK.text in opts:
            return DRAW_DECK
        sapling = None
        for text in opts:
            o = decision.read(text)
            if isinstance(o, Draw):
                return o
            if sapling is None and not isinstance(o, Play) and o != SKIP:
                sapling = o
        if SKIP.text in opts:
            return SKIP
        return sapling if sapling is not None else decision.read(opts[0])


def _worth(halves: tuple) -> int:
    """What a card is worth keeping: the cost of its dearest half."""
    return max([sp.cost for sp, _, _ in halves], default=0)


class CarelessPlayer:
    """Greedy, but at a share of its turns (`careless`, 0 to 1) any legal play instead: an
    opponent a beginner can beat (the level `easy`; docs/ai.md gives its rate against greedy).
    A turn's other decisions (the payment, the second draw) follow greedy's rules."""

    def __init__(self, seed: int = 0, careless: float = 0.5):
        self.careless = careless
        self.coin = random.Random(seed * 2 + 1)
        self.greedy = GreedyPlayer(seed)
        self.random = RandomPlayer(seed)

    def choose(self, seat: Seat, decision: Decision) -> Action:
        if decision.kind == "turn" and self.coin.random() < self.careless:
            return self.random.choose(seat, decision)
        return self.greedy.choose(seat, decision)
