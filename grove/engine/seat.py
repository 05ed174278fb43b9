"""What one seat may know of a game: the view a player is handed instead of the game.

A player (an AI or a person) sees its own hand; everything public (the clearing, every forest
with face-down cards as face-down, the cards the clearing's flushes put away, the winter cards
drawn, the deck's size, each hand's and cave's size); and the cards it saw enter another hand
or cave from the clearing, until they leave it. The game itself, as a referee holds it, stays
with the driver and the record.

A `Seat` reads the live table behind it, so handing one to a player costs nothing per decision
(a batch of games asks hundreds): it is a window onto the table, not a copy. What it shows is
exactly `observation()`, and the test of that is the re-deal (tests/test_seat.py): every card
the seat cannot see dealt anew (grove/engine/worlds.py) leaves the observation and every AI's choice
as they were.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from grove.compiler.cardset import CardSet, Species
from grove.compiler.model import HostKind
from grove.engine.action import Action, ActionTable, FaceDown, Pick, Place
from grove.engine.events import Event
from grove.engine.memo import Memo
from grove.engine.tally import Tally
from grove.forest.model import Forest, table

if TYPE_CHECKING:
    from grove.engine.table import Table

HIDDEN = -1  # a card number the seat cannot see, where an event or an action names one
SPECTATOR = -1  # the seat of one who watches: no hand, no cave, only what is public


@dataclass(frozen=True, slots=True)
class Others:
    """What a seat knows of a player's hand and cave (all of its own)."""

    hand: int  # how many cards it holds
    known: tuple[int, ...]  # those of them the seat saw it take from the clearing
    cave: int
    cave_known: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeatPlayer:
    """A player as a seat sees it: the `PlayerState` fields it may read."""

    name: str
    hand: tuple[int, ...]  # all of it for the seat itself; the cards known, for another
    hand_size: int
    cave: tuple[int, ...]  # likewise
    cave_size: int
    forest: Forest
    extra_turns: int
    cave_card: Species | None


class Seat:
    """Seat `seat`'s window onto a game: the attributes and questions a player may use.
    `SPECTATOR` is the seat of one who only watches: what every player may see, and no more.

    Static facts of the card set (a card's halves and name by its number, where a play would
    put what) are the same in every game and free to ask; what lies where is shown only as
    far as the seat may see it."""

    __slots__ = ("seat", "_t", "cardset", "memo", "actions", "_masked")

    def __init__(self, table: Table, seat: int):
        self.seat = seat
        self._t = table
        self.cardset: CardSet = table.cardset
        self.memo: Memo = table.memo
        self.actions: ActionTable = table.actions
        # player -> (the table's view of its forest, that view masked): kept while the table
        # keeps the view, so a person's screen, which reads every forest at every decision,
        # copies one only when it changed
        self._masked: dict[int, tuple[Forest, Forest]] = {}

    # ---- the game's public state ---------------------------------------------------------------
    @property
    def turn(self) -> int:
        return self._t.turn

    @property
    def current(self) -> int:
        return self._t.current

    @property
    def over(self) -> bool:
        return self._t.over

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self._t.players)

    @property
    def hand(self) -> tuple[int, ...]:
        """The seat's own hand, by card number (a spectator holds none)."""
        return tuple(self._t.players[self.seat].hand) if self.seat >= 0 else ()

    @property
    def cave(self) -> tuple[int, ...]:
        """The seat's own cave: it put the cards there."""
        return tuple(self._t.players[self.seat].cave) if self.seat >= 0 else ()

    @property
    def clearing(self) -> tuple[int, ...]:
        return tuple(self._t.clearing)

    @property
    def deck_size(self) -> int:
        """Cards left in the deck, winter cards included."""
        return len(self._t.deck)

    @property
    def winter(self) -> tuple[int, ...]:
        """The winter cards drawn so far."""
        return tuple(self._t.winter)

    @property
    def discarded(self) -> tuple[int, ...]:
        """The cards put out of the game in sight of all (flushed from the clearing); those the
        set-up put back into the box are seen by no one."""
        return tuple(self._t.removed[self._t.layout.boxed:])

    def others(self, j: int) -> Others:
        """What the seat knows of player j's hand and cave."""
        p = self._t.players[j]
        if j == self.seat:
            return Others(len(p.hand), tuple(p.hand), len(p.cave), tuple(p.cave))
        return Others(len(p.hand), tuple(c for c in p.hand if c in p.shown),
                      len(p.cave), tuple(c for c in p.cave if c in p.shown))

    @property
    def players(self) -> tuple[SeatPlayer, ...]:
        """Every player as the seat sees it, in seat order."""
        out = []
        for j, p in enumerate(self._t.players):
            o = self.others(j)
            out.append(SeatPlayer(p.name, o.known, o.hand, o.cave_known, o.cave, self.forest(j),
                                  p.extra_turns, p.cave_card))
        return tuple(out)

    @property
    def state(self) -> int:
        """How many actions the game has taken: each changes the table, and every player sees
        one taken (if not always what), so this names the table a player answered."""
        return len(self._t.history)

    @property
    def history(self) -> list[Action]:
        """The actions taken so far that every player saw: draws, plays, payments, picks from
        the clearing, answers. A card laid face down or put into a cave, by whoever, is left
        out (use `observed` on an action as it is taken)."""
        return [a for a in self._t.history
                if not isinstance(a, FaceDown)
                and not (isinstance(a, Pick) and a.verb in ("cave", "choose", "river"))]

    def views(self) -> list[Forest]:
        """Every forest as the seat sees it, each with the others set: what scoring reads."""
        return table(self.forests())

    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(p.hand) for p in self._t.players)

    def cave_card(self, j: int) -> Species | None:
        """Player j's drafted cave card: laid out face up, so public."""
        return self._t.players[j].cave_card

    # ---- forests -------------------------------------------------------------------------------
    def forest(self, j: int) -> Forest:
        """Player j's forest as it is now, a copy (later plays leave it as it is), with the
        numbers of the face-down cards the seat did not lay itself taken out: a face-down card
        (a sapling, a river beneath a tree) is a card of its place and nothing more."""
        view = self._t.view(j)
        if j == self.seat or not any(c.species is None and c.number is not None
                                     for c in view.cards):
            return view
        hit = self._masked.get(j)
        if hit is not None and hit[0] is view:
            return hit[1]
        masked = view.copy()
        for c in masked.cards:
            if c.species is None:
                c.number = None
        self._masked[j] = (view, masked)
        return masked

    def release(self) -> None:
        """The game is put away: the masked copies of forests let go of their cards."""
        for _, masked in self._masked.values():
            masked.release()
        self._masked.clear()

    def forests(self) -> list[Forest]:
        return [self.forest(j) for j in range(len(self._t.players))]

    def tally(self, j: int) -> Tally:
        """Player j's forest scored card by card against the others, to weigh plays with
        `Tally.weigh`: every forest is public, and a face-down card scores as its host."""
        return self._t.tally(j)

    # ---- what a card is, and where a play puts it (the same in every game) ---------------------
    def halves(self, card: int) -> list[tuple[Species, str | None, str | None]]:
        return self._t.halves(card)

    def card_name(self, card: int, lang: str = "en") -> str:
        return self._t.card_name(card, lang)

    def placing(self, place: Place) -> tuple[Species, str | None, HostKind | tuple[int, str]]:
        return self._t.placing(place)

    def species_for(self, place: Place) -> Species:
        return self._t.species_for(place)

    def play_of(self, text: str):  # noqa: ANN201 - the table's tuple
        return self._t.play_of(text)

    # ---- what happened, as the seat saw it -----------------------------------------------------
    def visible(self) -> frozenset[int]:
        """Every card number whose place the seat knows now."""
        t = self._t
        out: set[int] = set(t.clearing) | set(t.winter) | set(t.removed[t.layout.boxed:])
        for j, p in enumerate(t.players):
            if j == self.seat:
                out |= set(p.hand) | set(p.cave)
                out |= {c.number for c in p.forest.cards if c.number is not None}
            else:
                out |= {c for c in p.hand if c in p.shown}
                out |= {c for c in p.cave if c in p.shown}
                out |= {c.number for c in p.forest.cards  # face up
                        if c.number is not None and c.species is not None}
        return frozenset(out)

    def observed(self, player: int, action: Action) -> str:
        """An action as the seat saw it taken: another player's face-down card, or a card it
        put into its cave, chose from its hand or laid beneath a tree, is `?`."""
        return observed(self.seat, player, action)

    @property
    def events(self) -> list[Event]:
        """The game's events as the seat saw them (`seen_by`): another player's draw from the
        deck reads as a draw of so many cards."""
        return [seen_by(self.seat, e) for e in self._t.events]

    # ---- the whole view, as data -----------------------------------------------------------------
    def observation(self) -> tuple:
        """Everything the seat may know, as one comparable value: two games that look alike
        from this seat give equal observations (what the re-deal test compares)."""
        t = self._t
        forests = []
        for j, p in enumerate(t.players):
            hosts = []
            for h in p.forest.hosts:
                c = h.card
                mine = j == self.seat
                hosts.append((h.kind.id, c.key, c.symbol,
                              c.number if mine or c.species is not None else HIDDEN,
                              tuple(b.number if mine or b.species is not None else HIDDEN
                                    for b in h.beneath),
                              tuple((sid, tuple((x.key, x.symbol, x.number) for x in cards))
                                    for sid, cards in h.slots.items())))
            forests.append(tuple(hosts))
        return (self.seat, t.turn, t.current, t.over, self.hand, self.cave, self.clearing,
                self.deck_size, self.winter, self.discarded,
                tuple(self.others(j) for j in range(len(t.players))),
                tuple(p.cave_card.key if p.cave_card else None for p in t.players),
                tuple(p.extra_turns for p in t.players), tuple(forests))


_UNSEEN_TO = frozenset({"hand", "cave"})  # zones whose cards only their owner sees


def seen_by(seat: int, e: Event) -> Event:
    """An event as `seat` saw it happen: cards another player drew from the deck or moved
    from its hand into its hand or cave, and cards it laid face down (a sapling, a river
    beneath a tree), are `HIDDEN`. Decided by the event alone, as it happened, so a card
    played later does not name the draw that brought it."""
    if e.player == seat or e.player < 0 or not e.cards:
        return e
    hidden_move = e.kind == "move" and e.source in ("deck", "hand") and e.target in _UNSEEN_TO
    if hidden_move or (e.kind == "play" and not e.species):  # face down, and what lies beneath
        cards = (HIDDEN,) * len(e.cards)
    elif e.kind == "play" and len(e.cards) > 1:  # a face-down river beneath a tree
        cards = (e.cards[0],) + (HIDDEN,) * (len(e.cards) - 1)
    else:
        return e
    return Event(e.turn, e.player, e.kind, cards, e.species, e.source, e.target)


def observed(seat: int, player: int, action: Action) -> str:
    """`Seat.observed` for any seat: what a search keys another player's actions by."""
    if player == seat:
        return action.text
    if isinstance(action, FaceDown):
        return f"{action.kind} ?"
    if isinstance(action, Pick) and action.verb in ("cave", "choose", "river"):
        return f"{action.verb} ?"
    return action.text
