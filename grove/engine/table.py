"""A game's table: every card in its zone, the players' hands, caves and forests.

The state a game is played on, and the small moves the turn and the effects make on it (draw,
place a card, reveal, note an event). It knows nothing of whose decision it is: `grove/engine/game.py`
drives the game loop over it, `grove/engine/turn.py` offers and carries out a turn, and
`grove/engine/effects.py` settles what a card's effect asks for; both take the table they act on.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass, field

from grove.compiler.cardset import CardSet, PhysicalCard, Species
from grove.compiler.codegen import Pred
from grove.compiler.model import HostKind
from grove.engine.action import Action, Place, Play, host_place_text, parse_place, slot_place_text
from grove.engine.events import Event
from grove.engine.live import LiveForests
from grove.engine.memo import Memo
from grove.engine.setup import deal
from grove.engine.tally import Alike, Tally, play_key
from grove.forest.host import Placed, loose
from grove.forest.model import Forest, Trial, table


class GameOver(Exception):
    """The third winter card (or an empty deck) ends the game at once, even mid-turn."""


@dataclass(slots=True)
class Played:
    """A card just placed, for its effect and bonus: where it went and what paid for it."""

    player: int
    host: int
    slot: str | None
    species: Species
    symbol: str | None
    payment: list[int]
    free: bool
    bonus_allowed: bool = True  # a free play "using its effect" runs the effect only


@dataclass
class PlayerState:
    name: str
    hand: list[int] = field(default_factory=list)
    cave: list[int] = field(default_factory=list)
    forest: Forest = field(init=False)
    extra_turns: int = 0
    turn_started: int = 0
    cave_card: Species | None = None
    # cards every player saw enter this hand or cave (taken from the clearing): public until
    # they leave it. Read only by a seat's view (grove/engine/seat.py), never kept current on leaving
    shown: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.forest = Forest(self.name)


class Table:
    """A game's state: every card by number in its zone, and each player's hand, cave and
    forest, with what the turn and the effects do to them (`grove/engine/turn.py`,
    `grove/engine/effects.py`). `Game` plays on it."""

    def __init__(self, cardset: CardSet, players: list[str], seed: int = 0,
                 expansions: Iterable[str] | None = None, *, memo: Memo | None = None,
                 events: bool = True, legacy: bool = False):
        """`events`: whether the game keeps what it did (`events`, which the game log words).
        A batch of simulated games reads none, and noting them took 2% of a random game.
        `legacy`: play by the rules records of format 1 were written under (no set-up redraw,
        a stuck turn that may put fewer than its cards away), so those records still replay."""
        self.cardset = cardset
        self.legacy = legacy
        self.seed = seed
        self.rng = random.Random(seed)
        dealt = deal(cardset, len(players), self.rng, expansions)
        self.cards: list[PhysicalCard | None] = dealt.cards  # by card number; None: a winter card
        self.winter_ids = dealt.winter_ids
        self.removed: list[int] = dealt.removed
        # what every player knows of where unseen cards lie (one attribute for all of it: past
        # 30 attributes CPython 3.11 stops sharing a table's dict keys, and every attribute
        # read of the engine's slows, 1.5% of a random game)
        self.layout = dealt.layout
        self.deck: list[int] = dealt.deck  # pop() takes the top card
        self.clearing: list[int] = []
        self.winter: list[int] = []
        self.players = [PlayerState(name, hand) for name, hand in
                        zip(players, dealt.hands, strict=True)]
        self.turn = 0
        self.current = 0
        self.over = False
        self.history: list[Action] = []
        # whether the game keeps events: each `_note` is behind `if game.noting:`, because in a
        # game that keeps none the call alone, with its keyword arguments, took 2.5% of a random
        # game's instructions (370 calls)
        self.noting = events
        # what `events` holds, as the fields of each; None where the game keeps no events
        self._facts: list[tuple] | None = [] if events else None
        self._events: list[Event] = []
        self._views: dict[int, tuple[tuple[int, int, int], Forest]] = {}  # see view()
        # what holds in every game of this card set, worked out once (grove/engine/memo.py)
        self.memo = memo.check(cardset) if memo is not None else Memo(cardset)
        self._forests = LiveForests(self.players, self.memo)  # the engine's own views
        self._halves = self.memo.halves
        self._hosts_from = self.memo.hosts_from
        self._placings = self.memo.placings
        self._plays = self.memo.plays
        self.actions = self.memo.actions  # the card set's actions, made once (grove/engine/action.py)

    def _copy_to(self, other: Table, seed: int, alike: Alike | None = None) -> None:
        """Make `other` (a bare instance) this table as it stands, its forests new objects and
        its own random generator seeded with `seed`, keeping no events: a search plays on
        copies (grove/engine/worlds.py), whose tallies share what they weigh (`alike`). Every
        attribute `__init__` sets is set here too."""
        other.cardset = self.cardset
        other.legacy = self.legacy
        other.seed = seed
        other.rng = random.Random(seed)
        other.cards = self.cards
        other.winter_ids = self.winter_ids
        other.removed = list(self.removed)
        other.layout = self.layout
        other.deck = list(self.deck)
        other.clearing = list(self.clearing)
        other.winter = list(self.winter)
        players = []
        for p in self.players:
            q = PlayerState(p.name, list(p.hand), list(p.cave), p.extra_turns, p.turn_started,
                            p.cave_card, set(p.shown))
            q.forest = p.forest.copy()
            players.append(q)
        other.players = players
        other.turn = self.turn
        other.current = self.current
        other.over = self.over
        other.history = []
        other.noting = False
        other._facts = None
        other._events = []
        other._views = {}
        other.memo = self.memo
        other._forests = LiveForests(players, self.memo, alike)
        other._halves = self._halves
        other._hosts_from = self._hosts_from
        other._placings = self._placings
        other._plays = self._plays
        other.actions = self.actions

    def move_card(self, card: int, to: list[int]) -> None:
        """Take a card from wherever it is (outside any forest) and put it on `to`."""
        for zone in (self.deck, self.clearing, self.removed, *(p.hand for p in self.players),
                     *(p.cave for p in self.players)):
            if card in zone:
                zone.remove(card)
                to.append(card)
                return
        raise ValueError(f"card {card} is not in a zone outside the forests")

    def find_card(self, species_key: str, side: str | None = None,
                  exclude: Iterable[int] = ()) -> int:
        """A card (by id) with that species (on that side) from the deck, clearing or box."""
        out = set(exclude)
        free = set(self.deck) | set(self.clearing) | set(self.removed)
        for cid, pc in enumerate(self.cards):
            if pc is None or cid in out or cid not in free:
                continue
            if any(k == species_key and (side is None or sd == side) for k, sd, _ in pc.halves):
                return cid
        raise ValueError(f"no free card of {species_key}")

    # ---- zones ---------------------------------------------------------------------------------
    def zones(self) -> dict[str, list[int]]:
        """Every card by zone; each card is in exactly one (checked by the tests)."""
        out = {"deck": list(self.deck), "clearing": list(self.clearing),
               "removed": list(self.removed), "winter": list(self.winter)}
        for i, p in enumerate(self.players):
            out[f"hand:{i}"] = list(p.hand)
            out[f"cave:{i}"] = list(p.cave)
            out[f"forest:{i}"] = [c.number for c in p.forest.cards if c.number is not None]
        return out

    def _draw_top(self) -> int:
        """The top deck card that is not a winter card; winter cards go beside the clearing."""
        while True:
            if not self.deck:
                raise GameOver
            c = self.deck.pop()
            if c in self.winter_ids:
                self.winter.append(c)
                if self.noting:
                    self._note("winter", -1, (c,))
                if len(self.winter) >= self.cardset.setup.winter_cards:
                    raise GameOver
                continue
            return c

    def _to_hand(self, i: int, limit: bool = True) -> int | None:
        p = self.players[i]
        if limit and len(p.hand) >= self.cardset.setup.hand_limit:
            return None
        c = self._draw_top()
        p.hand.append(c)
        if self.noting:
            self._note("move", i, (c,), source="deck", target="hand")
        return c

    def _note(self, kind: str, player: int, cards: tuple[int, ...] = (), species: str = "",
              source: str = "", target: str = "") -> None:
        """Keep one event, where the game keeps them (callers ask `noting` first)."""
        facts = self._facts
        if facts is not None:
            facts.append((self.turn, player, kind, cards, species, source, target))

    @property
    def events(self) -> list[Event]:
        """What the game did, in order (grove/engine/events.py). Noted as plain tuples and made into
        events when read: a game notes hundreds and a batch of games reads none, and making
        each as it happened cost 3% more of a random game's instructions."""
        facts, events = self._facts, self._events
        if facts is None:
            raise ValueError("this game keeps no events: it was made with events=False")
        if len(events) < len(facts):
            events.extend([Event(*f) for f in facts[len(events):]])
        return events

    # ---- what a card is ------------------------------------------------------------------------
    def halves(self, card: int) -> list[tuple[Species, str | None, str | None]]:
        return list(self._halves[card])

    def card_name(self, card: int, lang: str = "en") -> str:
        hs = self.halves(card)
        if not hs:
            return "winter"
        return " / ".join(sp.name(lang) for sp, _, _ in hs)

    def _zone_placed(self, card: int) -> list[Placed]:
        """A card outside the forest as something filters can test: one per half."""
        return [loose(sp, sym) for sp, _, sym in self._halves[card]]

    def _matches(self, card: int, pred: Pred, me: Placed) -> bool:
        return any(pred(x, me) for x in self._zone_placed(card))

    # ---- views ---------------------------------------------------------------------------------
    def view(self, i: int) -> Forest:
        """Player i's forest as it is now, as a copy that later plays leave as it is (for
        scoring and tests); the same copy until the forest or the cave changes."""
        forest = self._forests.view(i)
        key = (len(forest.log), forest.cave, id(forest.cave_card))
        hit = self._views.get(i)
        if hit is not None and hit[0] == key:
            return hit[1]
        v = forest.copy()
        self._views[i] = (key, v)
        return v

    def views(self) -> list[Forest]:
        return table([self.view(i) for i in range(len(self.players))])

    def release(self) -> None:
        """The game is put away: its forests and the views of them are released
        (`Forest.release`), so a batch of games frees each game as it ends. Read nothing of it
        afterwards."""
        for p in self.players:
            p.forest.release()
        for _, view in self._views.values():
            view.release()
        self._views.clear()
        self._forests.clear()

    # ---- placement -----------------------------------------------------------------------------
    def placements(self, i: int, card: int, pred: Pred | None = None, me: Placed | None = None
                   ) -> list[str]:
        """Where a hand card may go: `<card> <side> <host>.<slot>` or `<card> <host kind>`
        (the text of an `engine.action.Place`)."""
        return [text for _, text in self._placements(i, card, pred, me)]

    def _placements(self, i: int, card: int, pred: Pred | None = None,
                    me: Placed | None = None) -> list[tuple[str | None, str]]:
        """`placements`, each with the side of the half that goes there (None: a new host);
        with `pred`, only the halves that match it for card `me`."""
        out: list[tuple[str | None, str]] = []
        for sp, side, sym in self._halves[card]:
            if pred is not None and me is not None and not pred(loose(sp, sym), me):
                continue
            if side is None:
                # a river beneath a tree comes only with the tree played as the turn's action
                out += [(None, host_place_text(card, h.id))
                        for h in self._hosts_from.get(sp.kind, ()) if h.play != "with_tree"]
                continue
            out += [(side, slot_place_text(card, w))
                    for w in self._forests.where(i, self._forests.half(sp, sym, side))]
        return out

    def species_for(self, place: Place) -> Species:
        """The species a play of the card to `place` is of (and pays for): its first half on
        the place's side, or its host half for a new host."""
        return self.placing(place)[0]

    def species_on(self, card: int, side: str | None) -> Species:
        return next(s for s, sd, _ in self._halves[card] if sd == side)

    def tally(self, i: int) -> Tally:
        """Player i's forest scored card by card, against the others as they are now, to weigh
        plays with `Tally.weigh`."""
        return self._forests.tally(i, self.cardset)

    def trial(self, i: int, choice: Place | str | None) -> Trial:
        """Player i's forest with a play (a `Place`, or its text: `<card> <host kind>` or
        `<card> <side> <host>.<slot>`) made for a moment, the other forests set: for a player
        weighing its options, as `with game.trial(i, choice) as view:`. Taken back on leaving;
        `None` weighs the forest as it is. Read the view only inside the `with` block."""
        if choice is None:
            return self._forests.trial(i, None, None, None)
        place = parse_place(choice) if isinstance(choice, str) else choice
        return self._forests.trial(i, *self.placing(place))

    def placing(self, place: Place) -> tuple[Species, str | None, HostKind | tuple[int, str]]:
        """What a play to `place` puts where: the card's half (species and tree symbol) and
        the new host's kind, or `(host, slot)`, as `Forest.trial` and `Tally.weigh` take it.
        The same in every game of the card set, so kept in the memo by the place's text."""
        hit = self._placings.get(place.text)
        if hit is None:
            card = place.card
            if place.kind is not None:
                sp, _, sym = next(x for x in self._halves[card] if x[1] is None)
                hit = (sp, sym, self.cardset.hosts[place.kind])
            else:
                sp, _, sym = next(x for x in self._halves[card] if x[1] == place.side)
                hit = (sp, sym, (place.host, place.slot))  # type: ignore[assignment]
            self._placings[place.text] = hit
        return hit

    def play_of(self, text: str) -> tuple[Species, str | None, HostKind | tuple[int, str], bool,
                                          str] | None:
        """What an offered action puts where, as `placing` says, whether it is free, and the
        play's key for `Tally.weigh`; None for an action that plays no card. For a player that
        weighs every text of a turn: one lookup a text, kept in the memo."""
        hit = self._plays.get(text, False)
        if hit is False:
            action = self.actions.read(text)
            if isinstance(action, Play):
                sp, sym, at = self.placing(action.place)
                hit = (sp, sym, at, action.free, play_key(sp, sym, at))
            else:
                hit = None
            self._plays[text] = hit
        return hit  # type: ignore[return-value]

    def _place(self, i: int, choice: Place, *, river: int | None = None,
               source: str = "hand") -> Played:
        """Put a card from hand into the forest as `choice` says; return what was played.

        `source` is for the log: "hand" when paid for, "free", or "clearing" (rummaged)."""
        p = self.players[i]
        hand_card = choice.card
        p.hand.remove(hand_card)
        sp, sym, at = self.placing(choice)
        if not isinstance(at, tuple):  # a new host of kind `at`
            kind = at
            beneath = [river] if river is not None else []
            if river is not None:
                p.hand.remove(river)
            host = p.forest.place_host(kind, sp, sym, number=hand_card, turn=self.turn,
                                       beneath=beneath)
            if self.noting:
                self._note("play", i, (hand_card, *beneath), sp.key, source, kind.id)
            self._reveal(kind.reveal)
            return Played(i, host.index, None, sp, sym, [], False)
        hi, slot_id = at
        p.forest.place_card(hi, slot_id, sp, sym, number=hand_card, turn=self.turn)
        if self.noting:
            self._note("play", i, (hand_card,), sp.key, source, f"{hi}.{slot_id}")
        return Played(i, hi, slot_id, sp, sym, [], False)

    def _place_face_down(self, i: int, card: int, host_id: str) -> Played:
        p = self.players[i]
        kind = self.cardset.hosts[host_id]
        p.hand.remove(card)
        host = p.forest.place_host(kind, None, None, number=card, turn=self.turn)
        if self.noting:
            self._note("play", i, (card,), target=host_id)
        self._reveal(kind.reveal)
        return Played(i, host.index, None, None, None, [], True)  # type: ignore[arg-type]

    def _reveal(self, n: int) -> None:
        for _ in range(n):
            c = self._draw_top()
            self.clearing.append(c)
            if self.noting:
                self._note("move", -1, (c,), source="deck", target="clearing")

    def _placed_of(self, forest: Forest, played: Played) -> Placed:
        host = forest.hosts[played.host]
        if played.slot is None:
            return host.card
        return host.slots[played.slot][-1]

    def _flush_clearing(self) -> None:
        """A turn ended with the clearing full: its cards leave the game."""
        self.removed.extend(self.clearing)
        if self.noting:
            self._note("flush", -1, tuple(self.clearing), source="clearing", target="removed")
        self.clearing.clear()
