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

A decision offers its actions as texts and as values (grove/engine/decision.py).
The engine offers thousands of actions a game, most of them plays of one card into one slot of
one forest, and makes only their texts (with the spelling functions below); a value is read from
a text when a player looks at it, once per text for the games of a card set (`ActionTable`).
A player that picks one action at random so reads one, and the generator that runs the game
gets the chosen action as a value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

PickVerb = Literal["pay", "choose", "cave", "river"]
Answer = Literal["stop", "skip", "yes", "no"]
_ANSWERS: tuple[Answer, ...] = ("stop", "skip", "yes", "no")


class IllegalAction(ValueError):
    """An action that is not legal now, or a text that spells no action."""


# ---- the spelling: an action's text, also for the texts the engine offers ------------------
# The engine offers texts (cheap to make by the thousand) and reads only the chosen one into an
# action; these functions are the one place both the values and the engine spell them.
def draw_text(card: int | None) -> str:
    return "draw deck" if card is None else f"draw clearing {card}"


def pick_text(verb: PickVerb, card: int) -> str:
    return f"{verb} {card}"


def face_down_text(kind: str, card: int) -> str:
    return f"{kind} {card}"


def cave_card_text(species: str) -> str:
    return f"cave {species}"


def host_place_text(card: int, kind: str) -> str:
    return f"{card} {kind}"


def slot_label(side: str, host: int, slot: str) -> str:
    """A slot as a place names it, `<side> <host>.<slot>`; grove/engine/live.py names the slots a
    half fits in so, and `slot_place_text` puts the card before it."""
    return f"{side} {host}.{slot}"


def slot_place_text(card: int, label: str) -> str:
    return f"{card} {label}"


def play_text(place: str, free: bool = False) -> str:
    """`play <place>` for the turn's play, `free <place>` for an effect's free play."""
    return ("free " if free else "play ") + place


def play_prefix(card: int) -> str:
    """The text of card `card`'s turn plays into a slot, but for the slot's label."""
    return play_text(f"{card} ")


def _spell(obj: object, text: str) -> None:
    object.__setattr__(obj, "text", text)  # the frozen value's text, worked out once


# Every action keeps its text, spelt when it is made; `parse` passes the text it read instead
# (its checks make sure that text is the spelling), so reading a text spells nothing again.
def _text() -> str:
    return field(default="", repr=False, compare=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Place:
    """Where a card goes: as a new host of a kind, or one of its halves into a host's slot."""

    card: int
    kind: str | None = None  # a new host of this kind (`12 tree`); else ...
    side: str | None = None  # ... the card's half on this side (`7 left 0.left`) ...
    host: int = -1  # ... into the host at this index of the forest ...
    slot: str = ""  # ... in this slot
    text: str = _text()

    def __post_init__(self) -> None:
        if not self.text:
            _spell(self, host_place_text(self.card, self.kind) if self.kind is not None
                   else slot_place_text(self.card, slot_label(str(self.side), self.host,
                                                              self.slot)))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Draw:
    """Take a card into the hand: from the clearing, or the deck's top card (`card` None)."""

    card: int | None = None
    text: str = _text()

    def __post_init__(self) -> None:
        if not self.text:
            _spell(self, draw_text(self.card))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Play:
    """Place a card: the turn's play, paid for (`play ...`), or one an effect grants (`free ...`)."""

    place: Place
    free: bool = False
    text: str = _text()

    def __post_init__(self) -> None:
        if not self.text:
            _spell(self, play_text(self.place.text, self.free))

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
    text: str = _text()

    def __post_init__(self) -> None:
        if not self.text:
            _spell(self, face_down_text(self.kind, self.card))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Pick:
    """Name one card for what the decision asks: pay with it, choose it, put it into the cave,
    lay it beneath a tree as a river."""

    verb: PickVerb
    card: int
    text: str = _text()

    def __post_init__(self) -> None:
        if not self.text:
            _spell(self, pick_text(self.verb, self.card))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class CaveCard:
    """Take the cave card of this species (its id) in the cave draft."""

    species: str
    text: str = _text()

    def __post_init__(self) -> None:
        if not self.text:
            _spell(self, cave_card_text(self.species))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class Say:
    """An answer that names no card: stop taking, skip a free play, use a permanent effect."""

    word: Answer
    text: str = _text()

    def __post_init__(self) -> None:
        if not self.text:
            _spell(self, self.word)

    def __str__(self) -> str:
        return self.text


Action = Draw | Play | FaceDown | Pick | CaveCard | Say

DRAW_DECK = Draw()
STOP, SKIP, YES, NO = (Say(w) for w in _ANSWERS)
_SAID = {"stop": STOP, "skip": SKIP, "yes": YES, "no": NO}


def card_of(action: Action) -> int:
    """The card an action names: a pick, a play, a face-down host, a draw from the clearing."""
    match action:
        case Pick(card=card) | FaceDown(card=card) | Draw(card=int() as card):
            return card
        case Play(place=place):
            return place.card
    raise IllegalAction(f"{action.text!r} names no card")


# ---- text -> action ---------------------------------------------------------------------------
# The grammar above as one pattern (read in C: the engine reads hundreds of texts a game). A
# number is spelt without leading zeros; a word is anything but a space. Verbs come first, so
# `draw 5` is no face-down host of kind `draw`.
_N = r"(0|[1-9][0-9]*)"
_W = r"([^ ]+)"
_PLACE = rf"{_N} (?:{_W}|{_W} {_N}\.{_W})"
_GRAMMAR = re.compile(
    rf"(play|free) {_PLACE}"  # groups 1-6
    rf"|(pay|choose|river|cave) {_N}"  # 7-8
    r"|draw (?:(deck)|clearing " + _N + ")"  # 9-10
    r"|(stop|skip|yes|no)"  # 11
    r"|cave ([a-zA-Z][^ ]*)"  # 12: a cave card's species id
    rf"|(?!(?:play|free|pay|choose|river|cave|draw) ){_W} {_N}"  # 13-14: face down
)
_PLACE_ONLY = re.compile(_PLACE)


def parse(text: str) -> Action:
    """The action a text spells; `IllegalAction` says why a text spells none.

    Only an action's own spelling is read (one space between words, numbers without leading
    zeros), so the action's text is the text read, byte for byte."""
    m = _GRAMMAR.fullmatch(text)
    if m is None:
        raise IllegalAction(f"{text!r} is not an action: expected e.g. 'draw deck', "
                            "'draw clearing 12', 'play 12 tree', 'play 7 left 0.left', "
                            "'free 7 left 0.left', 'sapling 12', 'pay 12', 'choose 12', "
                            "'cave 12', 'river 12', 'stop', 'skip', 'yes' or 'no'")
    g = m.groups()
    if g[0] is not None:
        return Play(_place(g[1:6], text[5:]), g[0] == "free", text=text)
    if g[6] is not None:
        return Pick(g[6], int(g[7]), text=text)  # type: ignore[arg-type]  # one of _PICKS
    if g[8] is not None:
        return DRAW_DECK
    if g[9] is not None:
        return Draw(int(g[9]), text=text)
    if g[10] is not None:
        return _SAID[g[10]]
    if g[11] is not None:
        return CaveCard(g[11], text=text)
    return FaceDown(g[12], int(g[13]), text=text)


def parse_place(text: str) -> Place:
    """Where a card goes, as `Game.trial` and `Game.placements` spell it (`12 tree`)."""
    m = _PLACE_ONLY.fullmatch(text)
    if m is None:
        raise IllegalAction(f"{text!r} is not a place: expected '<card> <host kind>' or "
                            "'<card> <side> <host>.<slot>'")
    return _place(m.groups(), text)


def _place(g: Sequence[str | None], text: str) -> Place:
    """The place of a match of `_PLACE`: card, then kind, or side, host and slot."""
    card, kind, side, host, slot = g
    if kind is not None:
        return Place(int(card), kind=kind, text=text)  # type: ignore[arg-type]
    return Place(int(card), side=side, host=int(host), slot=slot, text=text)  # type: ignore


# ---- the texts a card set's games offer, and the actions they stand for ----------------------
class ActionTable:
    """The texts of the actions that name one card, by card number, and each action read from
    a text the engine offered, once for the games of a card set (it lives in their memo)."""

    def __init__(self, cards: int):
        numbers = range(cards)
        self.draw_texts = [draw_text(c) for c in numbers]  # `draw clearing C`, every turn
        self.pay_texts = [pick_text("pay", c) for c in numbers]
        # the action a text stands for: the same value for the same text, game after game
        self.read: Callable[[str], Action] = _Read().__getitem__


class _Read(dict):
    """Actions by text, each parsed the first time it is asked for."""

    def __missing__(self, text: str) -> Action:
        action = self[text] = parse(text)
        return action
