"""What a player does, as a value: one `Action` type, one `parse`, one text.

The engine offers actions in `Decision`s, players choose among them, and records keep their text.
Every action has exactly one text and every text exactly one action (`parse(a.text) == a`,
`parse(t).text == t`), so records written before actions were values replay unchanged. This is
the only place that knows how an action is spelt:

    draw deck                     take the top card of the deck
    draw clearing C               take card C from the clearing
    play C <host kind>            the turn's play: C as a new host (`play 12 tree`)
    play C <side> <host>.<slot>   ... or C's half on that side into a slot (`play 7 left 0.left`)
    free C ...                    a card an effect lets a player place, in the same two shapes
    <host kind> C                 C face down as a host, as the turn's action (`sapling 12`)
    pay C, choose C, river C      a hand card to pay with, to pick, to lie beneath a tree
    cave C                        a drawn card to put into the cave
    cave <species id>             a cave card in the cave draft (species ids start with a letter)
    stop, skip, yes, no           the answers that name no card

C is a card's number in the game. An action names where a card goes as a `Place`, which is also
what `Game.trial` and `Game.placements` speak (`12 tree`, `7 left 0.left`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

PickVerb = Literal["pay", "choose", "cave", "river"]
Answer = Literal["stop", "skip", "yes", "no"]
_PICKS: tuple[PickVerb, ...] = ("pay", "choose", "cave", "river")
_ANSWERS: tuple[Answer, ...] = ("stop", "skip", "yes", "no")


class IllegalAction(ValueError):
    """An action that is not legal now, or a text that spells no action."""


def _spell(obj: object, text: str) -> None:
    object.__setattr__(obj, "text", text)  # the frozen value's text, worked out once


@dataclass(frozen=True, slots=True)
class Place:
    """Where a card goes: as a new host of a kind, or one of its halves into a host's slot."""

    card: int
    kind: str | None = None  # a new host of this kind (`12 tree`); else ...
    side: str | None = None  # ... the card's half on this side (`7 left 0.left`) ...
    host: int = -1  # ... into the host at this index of the forest ...
    slot: str = ""  # ... in this slot
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _spell(self, f"{self.card} {self.kind}" if self.kind is not None
               else f"{self.card} {self.side} {self.host}.{self.slot}")

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Draw:
    """Take a card into the hand: from the clearing, or the deck's top card (`card` None)."""

    card: int | None = None
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _spell(self, "draw deck" if self.card is None else f"draw clearing {self.card}")

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Play:
    """Place a card: the turn's play, paid for (`play ...`), or one an effect grants (`free ...`)."""

    place: Place
    free: bool = False
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _spell(self, ("free " if self.free else "play ") + self.place.text)

    @property
    def card(self) -> int:
        return self.place.card

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class FaceDown:
    """Play a card face down as a host of `kind`, as the turn's action (a sapling)."""

    kind: str
    card: int
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _spell(self, f"{self.kind} {self.card}")

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Pick:
    """Name one card for what the decision asks: pay with it, choose it, put it into the cave,
    lay it beneath a tree as a river."""

    verb: PickVerb
    card: int
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _spell(self, f"{self.verb} {self.card}")

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class CaveCard:
    """Take the cave card of this species (its id) in the cave draft."""

    species: str
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _spell(self, f"cave {self.species}")

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Say:
    """An answer that names no card: stop taking, skip a free play, use a permanent effect."""

    word: Answer
    text: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _spell(self, self.word)

    def __str__(self) -> str:
        return self.text


Action = Draw | Play | FaceDown | Pick | CaveCard | Say

DRAW_DECK = Draw()
STOP, SKIP, YES, NO = (Say(w) for w in _ANSWERS)
_SAID = {"stop": STOP, "skip": SKIP, "yes": YES, "no": NO}


@dataclass(frozen=True)
class Decision:
    """What a player must choose now, and the actions that may answer it."""

    player: int
    kind: str  # "turn", "draw", "pay", "choose", "place", "optional", "river", "cave"
    actions: tuple[Action, ...]
    about: str = ""

    @property
    def options(self) -> tuple[str, ...]:
        """The actions' texts, as a record holds them."""
        return tuple(a.text for a in self.actions)


def card_of(action: Action) -> int:
    """The card an action names: a pick, a play, a face-down host, a draw from the clearing."""
    match action:
        case Pick(card=card) | FaceDown(card=card) | Draw(card=int() as card):
            return card
        case Play(place=place):
            return place.card
    raise IllegalAction(f"{action.text!r} names no card")


# ---- text -> action ---------------------------------------------------------------------------
def parse(text: str) -> Action:
    """The action a text spells; `IllegalAction` says why a text spells none."""
    words = text.split(" ")
    action = _read(words) if 1 <= len(words) <= 5 else None
    if action is None or action.text != text:  # a text spells its action one way only
        raise IllegalAction(f"{text!r} is not an action: expected e.g. 'draw deck', "
                            "'draw clearing 12', 'play 12 tree', 'play 7 left 0.left', "
                            "'free 7 left 0.left', 'sapling 12', 'pay 12', 'choose 12', "
                            "'cave 12', 'river 12', 'stop', 'skip', 'yes' or 'no'")
    return action


def parse_place(text: str) -> Place:
    """Where a card goes, as `Game.trial` and `Game.placements` spell it (`12 tree`)."""
    place = _place(text.split(" "))
    if place is None or place.text != text:
        raise IllegalAction(f"{text!r} is not a place: expected '<card> <host kind>' or "
                            "'<card> <side> <host>.<slot>'")
    return place


def _number(word: str) -> int | None:
    # ASCII digits only; the text check then refuses "07" and the like
    return int(word) if word.isascii() and word.isdigit() else None


def _read(words: list[str]) -> Action | None:
    head, rest = words[0], words[1:]
    if not rest:
        return _SAID.get(head)
    if head == "draw":
        if rest == ["deck"]:
            return DRAW_DECK
        card = _number(rest[1]) if len(rest) == 2 and rest[0] == "clearing" else None
        return None if card is None else Draw(card)
    if head in ("play", "free"):
        place = _place(rest)
        return None if place is None else Play(place, head == "free")
    if len(rest) != 1 or not head:
        return None
    card = _number(rest[0])
    if head in _PICKS:
        if card is not None:
            return Pick(head, card)  # type: ignore[arg-type]  # narrowed by _PICKS
        return CaveCard(rest[0]) if head == "cave" and rest[0][:1].isalpha() else None
    return None if card is None else FaceDown(head, card)


def _place(words: list[str]) -> Place | None:
    card = _number(words[0]) if words else None
    if card is None:
        return None
    if len(words) == 2:
        return Place(card, kind=words[1]) if words[1] else None
    if len(words) != 3:
        return None
    host, dot, slot = words[2].partition(".")
    at = _number(host)
    if not dot or at is None or not words[1] or not slot:
        return None
    return Place(card, side=words[1], host=at, slot=slot)


# ---- the actions of a card set, made once -------------------------------------------------------
class _Plays(dict):
    """One card's plays (or free plays) by where they go: a host kind (`tree`) or a slot label
    (`left 0.left`, as the live forests name slots); each made the first time it is asked for."""

    def __init__(self, card: int, free: bool):
        super().__init__()
        self.card = card
        self.free = free

    def __missing__(self, where: str) -> Play:
        place = _place([str(self.card), *where.split(" ")])
        if place is None:
            raise IllegalAction(f"{where!r} is not a place for card {self.card}")
        play = self[where] = Play(place, self.free)
        return play


class _ByCard(dict):
    """Actions of one shape by card number, each made the first time it is asked for."""

    def __init__(self, make: Callable[[int], Action]):
        super().__init__()
        self.make = make

    def __missing__(self, card: int) -> Action:
        action = self[card] = self.make(card)
        return action


class ActionTable:
    """The actions that name one card, by card number, made once for the games of a card set.

    The engine offers thousands of actions a game; these are the same objects every time, so
    offering one costs a dict lookup, never a new value or a text. Each is made when first
    asked for, so a single game pays only for the actions it offers."""

    def __init__(self) -> None:
        self.draws: dict[int, Action] = _ByCard(Draw)  # draw clearing C
        self.pays: dict[int, Action] = _ByCard(lambda c: Pick("pay", c))
        self.chooses: dict[int, Action] = _ByCard(lambda c: Pick("choose", c))
        self.to_cave: dict[int, Action] = _ByCard(lambda c: Pick("cave", c))
        self.rivers: dict[int, Action] = _ByCard(lambda c: Pick("river", c))
        self._plays: dict[tuple[int, bool], _Plays] = {}

    def plays(self, card: int, free: bool = False) -> dict[str, Play]:
        """Card `card`'s plays by where they go: a host kind id or a slot label."""
        table = self._plays.get((card, free))
        if table is None:
            table = self._plays[(card, free)] = _Plays(card, free)
        return table
