"""A complete game as a sequence of decisions: `legal_actions()` and `apply(action)`.

The turn is written as a generator that yields a `Decision` whenever a player must choose (a turn
action, a payment card, which clearing card to take, where a free card goes) and resumes with the
chosen action. So an AI, a human at the terminal and a replay all drive the game the same way,
and the whole game is reproducible from its seed and its list of actions.

Actions are values (engine/action.py): a decision offers them, a player answers with one, and a
record keeps its text. The game is split by job: this module holds the game's state, its cards'
zones and forests and the game loop; engine/setup.py deals and drafts the caves, engine/turn.py
offers and carries out a turn, and engine/effects.py runs the operations a card's effect asks for
(compiled effects never decide anything themselves: the engine settles each operation's choices
before the card's next action runs).
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field

from compiler.cardset import CardSet, PhysicalCard, Species
from compiler.codegen import Pred
from compiler.model import HostKind
from compiler.view import ForestView, Placed
from engine.action import (
    NO,
    YES,
    Action,
    Decision,
    IllegalAction,
    Place,
    host_place_text,
    parse,
    parse_place,
    slot_place_text,
)
from engine.effects import Played, loose, run
from engine.events import Event
from engine.live import LiveForests, Trial, build_view
from engine.memo import Memo
from engine.setup import SetupError, deal, draft_caves
from engine.turn import turn

__all__ = ["Decision", "Game", "GameOver", "HostState", "IllegalAction", "Piece", "PlayerState",
           "SetupError"]


class GameOver(Exception):
    """The third winter card (or an empty deck) ends the game at once, even mid-turn."""


@dataclass
class Piece:
    card: int
    species: Species
    symbol: str | None
    side: str
    turn: int  # game turn it entered the forest


@dataclass
class HostState:
    kind: HostKind
    card: int
    species: Species | None
    symbol: str | None
    turn: int
    slots: dict[str, list[Piece]] = field(default_factory=dict)
    beneath: list[int] = field(default_factory=list)


@dataclass
class PlayerState:
    name: str
    hand: list[int] = field(default_factory=list)
    cave: list[int] = field(default_factory=list)
    forest: list[HostState] = field(default_factory=list)
    extra_turns: int = 0
    turn_started: int = 0
    cave_card: Species | None = None
    pieces: int = 0  # cards placed into slots so far (cards never leave a forest)


class Game:
    def __init__(self, cardset: CardSet, players: list[str], seed: int = 0,
                 expansions: Iterable[str] | None = None, *, memo: Memo | None = None):
        self.cardset = cardset
        self.seed = seed
        self.rng = random.Random(seed)
        dealt = deal(cardset, len(players), self.rng, expansions)
        self.cards: list[PhysicalCard | None] = dealt.cards  # by card number; None: a winter card
        self.winter_ids = dealt.winter_ids
        self.removed: list[int] = dealt.removed
        self.deck: list[int] = dealt.deck  # pop() takes the top card
        self.clearing: list[int] = []
        self.winter: list[int] = []
        self.players = [PlayerState(name, hand) for name, hand in
                        zip(players, dealt.hands, strict=True)]
        self.turn = 0
        self.current = 0
        self.over = False
        self.history: list[Action] = []
        self.events: list[Event] = []
        self._views: dict[int, tuple[tuple[int, int, int], ForestView]] = {}  # see view()
        # what holds in every game of this card set, worked out once (engine/memo.py)
        self.memo = memo.check(cardset) if memo is not None else Memo(cardset)
        self._forests = LiveForests(self.players, self.memo)  # the engine's own views
        self._halves = self.memo.halves
        self._hosts_from = self.memo.hosts_from
        self.actions = self.memo.actions  # the card set's actions, made once (engine/action.py)
        self._proc = self._play()
        self._decision: Decision | None = next(self._proc)

    def restart_turn(self, player: int = 0, caves: Iterable[str] | None = None) -> None:
        """Begin again at `player`'s turn from the state as it now is.

        For scenario tests and puzzles: arrange hands, forests and the clearing by hand, then
        play on from a fresh turn. No set-up decisions are asked again, unless `caves` names the
        cave cards (species keys) to lay out for the cave draft, which then runs first."""
        self.current = player
        self._views.clear()
        self._forests.clear()
        laid = None if caves is None else [self.cardset.species[k] for k in caves]
        self._proc = self._play(draft=laid is not None, caves=laid)
        self._decision = next(self._proc)

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

    # ---- the decision interface --------------------------------------------------------------
    @property
    def decision(self) -> Decision | None:
        return self._decision

    def legal_actions(self) -> tuple[str, ...]:
        """The texts of the actions legal now, as a record holds them."""
        return self._decision.options if self._decision else ()

    def apply(self, action: Action | str) -> None:
        """Take an action of the current decision, given as a value or as its text."""
        if self._decision is None:
            raise IllegalAction("the game is over")
        if isinstance(action, str):
            if action not in self._decision.options:
                parse(action)  # a text that spells no action says so
                raise IllegalAction(f"{action!r} is not a legal action now")
            action = self.actions.read(action)
        elif action.text not in self._decision.options:
            raise IllegalAction(f"{action.text!r} is not a legal action now")
        self.history.append(action)
        try:
            self._decision = self._proc.send(action)
        except StopIteration:
            self._decision = None

    # ---- zones ---------------------------------------------------------------------------------
    def zones(self) -> dict[str, list[int]]:
        """Every card by zone; each card is in exactly one (checked by the tests)."""
        out = {"deck": list(self.deck), "clearing": list(self.clearing),
               "removed": list(self.removed), "winter": list(self.winter)}
        for i, p in enumerate(self.players):
            out[f"hand:{i}"] = list(p.hand)
            out[f"cave:{i}"] = list(p.cave)
            forest = []
            for h in p.forest:
                forest.append(h.card)
                forest.extend(h.beneath)
                forest.extend(pc.card for pieces in h.slots.values() for pc in pieces)
            out[f"forest:{i}"] = forest
        return out

    def _draw_top(self) -> int:
        """The top deck card that is not a winter card; winter cards go beside the clearing."""
        while True:
            if not self.deck:
                raise GameOver
            c = self.deck.pop()
            if c in self.winter_ids:
                self.winter.append(c)
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
        self._note("move", i, (c,), source="deck", target="hand")
        return c

    def _note(self, kind: str, player: int, cards: tuple[int, ...] = (), species: str = "",
              source: str = "", target: str = "") -> None:
        self.events.append(Event(self.turn, player, kind, cards, species, source, target))

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
    def view(self, i: int) -> ForestView:
        """Player i's forest as scoring sees it; cached until the forest or cave changes.

        Cards never leave a forest, so its size and the cave's size identify its state."""
        p = self.players[i]
        key = (len(p.forest), p.pieces, len(p.cave))
        hit = self._views.get(i)
        if hit is not None and hit[0] == key:
            return hit[1]
        v = self._build_view(i)
        self._views[i] = (key, v)
        return v

    def _build_view(self, i: int) -> ForestView:
        return build_view(self.players[i])

    def views(self) -> list[ForestView]:
        vs = [self.view(i) for i in range(len(self.players))]
        for v in vs:
            v.others = [o for o in vs if o is not v]
        return vs

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
        side = place.side
        return next(s for s, sd, _ in self._halves[place.card] if sd == side)

    def species_on(self, card: int, side: str | None) -> Species:
        return next(s for s, sd, _ in self._halves[card] if sd == side)

    def trial(self, i: int, choice: Place | str | None) -> Trial:
        """Player i's forest with a play (a `Place`, or its text: `<card> <host kind>` or
        `<card> <side> <host>.<slot>`) made for a moment, the other forests set: for a player
        weighing its options, as `with game.trial(i, choice) as view:`. Taken back on leaving;
        `None` weighs the forest as it is. Read the view only inside the `with` block."""
        if choice is None:
            return self._forests.trial(i, None, None, None)
        place = parse_place(choice) if isinstance(choice, str) else choice
        card = place.card
        if place.kind is not None:
            kind = self.cardset.hosts[place.kind]
            sp, _, sym = next(x for x in self._halves[card] if x[1] is None)
            return self._forests.trial(i, sp, sym, kind)
        sp, _, sym = next(x for x in self._halves[card] if x[1] == place.side)
        return self._forests.trial(i, sp, sym, (place.host, place.slot))

    def _place(self, i: int, choice: Place, hand_card: int, *, river: int | None = None,
               source: str = "hand") -> Played:
        """Put a card from hand into the forest as `choice` says; return what was played.

        `source` is for the log: "hand" when paid for, "free", or "clearing" (rummaged)."""
        p = self.players[i]
        p.hand.remove(hand_card)
        if choice.kind is not None:  # a new host
            kind = self.cardset.hosts[choice.kind]
            sp, _, sym = next((s, sd, sy) for s, sd, sy in self._halves[hand_card] if sd is None)
            host = HostState(kind, hand_card, sp, sym, self.turn,
                             {s.id: [] for s in kind.slots})
            if river is not None:
                p.hand.remove(river)
                host.beneath.append(river)
            p.forest.append(host)
            self._forests.host_added(i, kind, sp, sym)
            self._note("play", i, (hand_card, *host.beneath), sp.key, source, kind.id)
            self._reveal(kind.reveal)
            return Played(i, len(p.forest) - 1, None, sp, sym, [], False)
        side, hi, slot_id = choice.side, choice.host, choice.slot
        sp, _, sym = next((s, sd, sy) for s, sd, sy in self._halves[hand_card] if sd == side)
        p.forest[hi].slots[slot_id].append(Piece(hand_card, sp, sym, side, self.turn))
        p.pieces += 1
        self._forests.card_added(i, hi, slot_id, sp, sym)
        self._note("play", i, (hand_card,), sp.key, source, f"{hi}.{slot_id}")
        return Played(i, hi, slot_id, sp, sym, [], False)

    def _place_face_down(self, i: int, card: int, host_id: str) -> Played:
        p = self.players[i]
        kind = self.cardset.hosts[host_id]
        p.hand.remove(card)
        p.forest.append(HostState(kind, card, None, None, self.turn,
                                  {s.id: [] for s in kind.slots}))
        self._forests.host_added(i, kind, None, None)
        self._note("play", i, (card,), target=host_id)
        self._reveal(kind.reveal)
        return Played(i, len(p.forest) - 1, None, None, None, [], True)  # type: ignore[arg-type]

    def _reveal(self, n: int) -> None:
        for _ in range(n):
            c = self._draw_top()
            self.clearing.append(c)
            self._note("move", -1, (c,), source="deck", target="clearing")

    def _placed_of(self, view: ForestView, played: Played) -> Placed:
        host = view.hosts[played.host]
        if played.slot is None:
            return host.card
        return host.slots[played.slot][-1]

    # ---- the game loop -------------------------------------------------------------------------
    def _play(self, draft: bool = True, caves: list[Species] | None = None
              ) -> Generator[Decision, Action, None]:
        try:
            if draft:
                yield from draft_caves(self, caves)
            while True:
                p = self.players[self.current]
                p.turn_started = self.turn
                yield from turn(self, self.current)
                self._end_of_turn()
                if p.extra_turns:
                    p.extra_turns -= 1
                    self.turn += 1
                    continue
                self.turn += 1
                self.current = (self.current + 1) % len(self.players)
        except GameOver:
            self.over = True
            self._note("end", -1)

    def _end_of_turn(self) -> None:
        if len(self.clearing) >= self.cardset.setup.clearing_limit:
            self.removed.extend(self.clearing)
            self._note("flush", -1, tuple(self.clearing), source="clearing", target="removed")
            self.clearing.clear()

    # ---- after a card is placed: the permanent effects it sets off -----------------------------
    def _triggers(self, i: int, played: Played) -> Generator[Decision, Action, None]:
        carriers = self._forests.trigger_hosts(i)  # hosts with a card that has a permanent effect
        if not carriers:
            return
        p = self.players[i]
        view = self._forests.view(i)
        new = self._placed_of(view, played)
        for hi, host in enumerate(p.forest):
            if hi not in carriers:
                continue
            pieces = [(host.species, host.turn, view.hosts[hi].card)] if host.species else []
            pieces += [(pc.species, pc.turn, view.hosts[hi].slots[sid][k])
                       for sid, pcs in host.slots.items() for k, pc in enumerate(pcs)]
            for sp, entered, placed in pieces:
                trig = sp.trigger
                if trig is None or placed is new:
                    continue
                if trig.next_turn and entered >= p.turn_started:
                    continue
                if trig.verb == "play" and not trig.matches(new, placed):
                    continue
                if trig.verb == "place":
                    if played.slot is None or new.side != trig.where_side:
                        continue
                    if trig.where_host and not trig.where_host(new.host.card, placed):
                        continue
                    if not trig.matches(new, placed):
                        continue
                if trig.optional:
                    yes = yield Decision(i, "optional", (YES.text, NO.text),
                                         f"use {sp.name('en')}'s permanent effect", self.actions)
                    if yes != YES:
                        continue
                self._note("trigger", i, species=sp.key)
                yield from run(self, i, Played(i, hi, None, sp, None, [], True), trig.steps,
                               me=placed)
