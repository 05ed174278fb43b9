"""A complete game as a sequence of decisions: `legal_actions()` and `apply(action)`.

The turn is written as a generator that yields a `Decision` whenever a player must choose (a turn
action, a payment card, which clearing card to take, where a free card goes) and resumes with the
chosen action. So an AI, a human at the terminal and a replay all drive the game the same way,
and the whole game is reproducible from its seed and its list of actions.

Compiled effects never decide anything themselves: each action of a card asks the `_Ctx` for an
operation, and the engine settles that operation's choices before the card's next action runs.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterable
from dataclasses import dataclass, field

from compiler.cardset import CardSet, PhysicalCard, Species
from compiler.codegen import AmountFn, Pred
from engine.events import Event
from engine.live import Half, LiveForests
from engine.memo import Memo
from engine.tally import Tally
from forest.model import Forest, Placed, Trial, loose, table


class GameOver(Exception):
    """The third winter card (or an empty deck) ends the game at once, even mid-turn."""


class SetupError(ValueError):
    """The card set cannot deal a game for these players: its data, not the engine, is wrong."""


class IllegalAction(ValueError):
    pass


@dataclass(frozen=True)
class Decision:
    player: int
    kind: str  # "turn", "draw", "pay", "choose", "place", "optional", "river"
    options: tuple[str, ...]
    about: str = ""


@dataclass
class PlayerState:
    name: str
    hand: list[int] = field(default_factory=list)
    cave: list[int] = field(default_factory=list)
    forest: Forest = field(init=False)
    extra_turns: int = 0
    turn_started: int = 0
    cave_card: Species | None = None

    def __post_init__(self) -> None:
        self.forest = Forest(self.name)


@dataclass(frozen=True)
class _Plan:
    """A card's turn plays, with the hand cards each needs beside it (see `_turn_options`)."""

    hosts: tuple[tuple[int, str], ...]  # (cards needed to pay, `play <card> <host kind>`)
    halves: tuple[tuple[int, Half, str], ...]  # (cards needed, the half, `play <card> `)
    face_down: tuple[str, ...]  # `<host kind> <card>`
    repeats: bool  # two halves are played alike (one side; two host halves): a play may repeat


@dataclass
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


class Game:
    def __init__(self, cardset: CardSet, players: list[str], seed: int = 0,
                 expansions: Iterable[str] | None = None, *, memo: Memo | None = None):
        setup = cardset.setup
        n = len(players)
        if n < 1:
            raise SetupError("a game needs at least one player")
        self.cardset = cardset
        self.seed = seed
        self.rng = random.Random(seed)
        self.cards: list[PhysicalCard | None] = list(cardset.deck)  # None: a winter card
        first_winter = len(self.cards)
        self.cards += [None] * setup.winter_cards
        self.winter_ids = set(range(first_winter, len(self.cards)))
        exps = frozenset(expansions if expansions is not None else cardset.expansions)
        remove = setup.removed_for(exps, n)
        if remove is None:
            raise SetupError(f"the edition has no set-up for {n} players")
        order = list(range(first_winter))
        self.rng.shuffle(order)
        self.removed: list[int] = order[:remove]
        rest = order[remove:]
        need = n * setup.hand_size
        if len(rest) < need + 3:
            raise SetupError(f"too many players for the deck: {len(rest)} cards left for {n} "
                             f"players after the set-up removes {remove}, who need "
                             f"{need} for their hands and 3 more")
        third = len(rest) // 3
        top, middle, bottom = rest[:third], rest[third:2 * third], rest[2 * third:]
        winter = sorted(self.winter_ids)
        bottom = bottom + winter[1:]
        self.rng.shuffle(bottom)
        bottom = [winter[0], *bottom]
        pile = top + middle + bottom  # index 0 is the top of the deck
        self.deck: list[int] = list(reversed(pile))  # pop() takes the top card
        self.clearing: list[int] = []
        self.winter: list[int] = []
        self.players = [PlayerState(name) for name in players]
        for p in self.players:
            for _ in range(setup.hand_size):
                p.hand.append(self.deck.pop())
        self.turn = 0
        self.current = 0
        self.over = False
        self.history: list[str] = []
        self.events: list[Event] = []
        self._views: dict[int, tuple[tuple[int, int, int], Forest]] = {}  # see view()
        # what holds in every game of this card set, worked out once (engine/memo.py)
        self.memo = memo.check(cardset) if memo is not None else Memo(cardset)
        self._forests = LiveForests(self.players, self.memo)  # the engine's own views
        self._halves = self.memo.halves
        self._plans: list[_Plan | None] = self.memo.plans  # see _plan()
        self._hosts_from = self.memo.hosts_from
        self._action_hosts = self.memo.action_hosts
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
        return self._decision.options if self._decision else ()

    def apply(self, action: str) -> None:
        if self._decision is None:
            raise IllegalAction("the game is over")
        if action not in self._decision.options:
            raise IllegalAction(f"{action!r} is not a legal action now")
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

    # ---- placement -----------------------------------------------------------------------------
    def placements(self, i: int, card: int, pred: Pred | None = None, me: Placed | None = None
                   ) -> list[str]:
        """Where a hand card may go: `<card> <side> <host>.<slot>` or `<card> <host kind>`."""
        out = []
        for sp, side, sym in self._halves[card]:
            if pred is not None and me is not None and not pred(loose(sp, sym), me):
                continue
            if side is None:
                # a river beneath a tree comes only with the tree played as the turn's action
                out += [f"{card} {h.id}" for h in self._hosts_from.get(sp.kind, ())
                        if h.play != "with_tree"]
                continue
            out += [f"{card} {w}"
                    for w in self._forests.where(i, self._forests.half(sp, sym, side))]
        return out

    def tally(self, i: int) -> Tally:
        """Player i's forest scored card by card, against the others as they are now, to weigh
        plays with `Tally.total_with` inside `trial`."""
        return Tally(self._forests.views()[i], self.cardset)

    def trial(self, i: int, choice: str | None) -> Trial:
        """Player i's forest with a play (`<card> <host kind>` or `<card> <side> <host>.<slot>`,
        as in a play action) made for a moment, the other forests set: for a player weighing
        its options, as `with game.trial(i, choice) as view:`. Taken back on leaving; `None`
        weighs the forest as it is. Read the view only inside the `with` block."""
        if choice is None:
            return self._forests.trial(i, None, None, None)
        parts = choice.split()
        card = int(parts[0])
        if len(parts) == 2:
            kind = self.cardset.hosts[parts[1]]
            sp, _, sym = next(x for x in self._halves[card] if x[1] is None)
            return self._forests.trial(i, sp, sym, kind)
        hi, slot = parts[2].split(".", 1)
        sp, _, sym = next(x for x in self._halves[card] if x[1] == parts[1])
        return self._forests.trial(i, sp, sym, (int(hi), slot))

    def _place(self, i: int, choice: str, hand_card: int, *, river: int | None = None,
               source: str = "hand") -> Played:
        """Put a card from hand into the forest as `choice` says; return what was played.

        `source` is for the log: "hand" when paid for, "free", or "clearing" (rummaged)."""
        p = self.players[i]
        parts = choice.split()
        p.hand.remove(hand_card)
        if len(parts) == 2:  # a new host
            kind = self.cardset.hosts[parts[1]]
            sp, _, sym = next((s, sd, sy) for s, sd, sy in self._halves[hand_card] if sd is None)
            beneath = [river] if river is not None else []
            if river is not None:
                p.hand.remove(river)
            host = p.forest.place_host(kind, sp, sym, number=hand_card, turn=self.turn,
                                       beneath=beneath)
            self._note("play", i, (hand_card, *beneath), sp.key, source, kind.id)
            self._reveal(kind.reveal)
            return Played(i, host.index, None, sp, sym, [], False)
        side = parts[1]
        hi_s, slot_id = parts[2].split(".", 1)
        hi = int(hi_s)
        sp, _, sym = next((s, sd, sy) for s, sd, sy in self._halves[hand_card] if sd == side)
        p.forest.place_card(hi, slot_id, sp, sym, number=hand_card, turn=self.turn)
        self._note("play", i, (hand_card,), sp.key, source, f"{hi}.{slot_id}")
        return Played(i, hi, slot_id, sp, sym, [], False)

    def _place_face_down(self, i: int, card: int, host_id: str) -> Played:
        p = self.players[i]
        kind = self.cardset.hosts[host_id]
        p.hand.remove(card)
        host = p.forest.place_host(kind, None, None, number=card, turn=self.turn)
        self._note("play", i, (card,), target=host_id)
        self._reveal(kind.reveal)
        return Played(i, host.index, None, None, None, [], True)  # type: ignore[arg-type]

    def _reveal(self, n: int) -> None:
        for _ in range(n):
            c = self._draw_top()
            self.clearing.append(c)
            self._note("move", -1, (c,), source="deck", target="clearing")

    def _placed_of(self, forest: Forest, played: Played) -> Placed:
        host = forest.hosts[played.host]
        if played.slot is None:
            return host.card
        return host.slots[played.slot][-1]

    # ---- the game loop -------------------------------------------------------------------------
    def _play(self, draft: bool = True, caves: list[Species] | None = None
              ) -> Generator[Decision, str, None]:
        try:
            if draft:
                yield from self._draft_caves(caves)
            while True:
                p = self.players[self.current]
                p.turn_started = self.turn
                yield from self._turn(self.current)
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

    def _draft_caves(self, laid: list[Species] | None = None) -> Generator[Decision, str, None]:
        """One cave per player is laid out; players pick in reverse turn order, then each
        cave's effect resolves in that same order."""
        if not self.cardset.setup.cave_draft or not self.cardset.caves:
            return
        if laid is None:
            pool = sorted(self.cardset.caves, key=lambda sp: sp.key)
            self.rng.shuffle(pool)
            laid = pool[:len(self.players)]
        order = list(reversed(range(len(self.players))))
        for i in order:
            opts = tuple(f"cave {sp.id}" for sp in laid)
            pick = (yield Decision(i, "cave", opts, "a cave card")).split()[1]
            sp = next(x for x in laid if x.id == pick)
            laid.remove(sp)
            self.players[i].cave_card = sp
            self._note("cave_card", i, species=sp.key)
        for i in order:
            sp = self.players[i].cave_card
            if sp is not None and sp.effect is not None:
                self._note("effect", i, species=sp.key)
                me = loose(sp, None)
                yield from self._run(i, Played(i, -1, None, sp, None, [], True), sp.effect.steps,
                                     me=me)

    def _end_of_turn(self) -> None:
        if len(self.clearing) >= self.cardset.setup.clearing_limit:
            self.removed.extend(self.clearing)
            self._note("flush", -1, tuple(self.clearing), source="clearing", target="removed")
            self.clearing.clear()

    def _turn_options(self, i: int) -> list[str]:
        """Draws, then per hand card: as a host, into each slot it fits, face down.

        Where a half fits comes from the live forest (`engine/live.py`), which answers again
        only for a host that a card joined since it was last asked."""
        p = self.players[i]
        opts: list[str] = []
        if len(p.hand) < self.cardset.setup.hand_limit:
            if self.deck:
                opts.append("draw deck")
            opts += map(self.memo.draw_texts.__getitem__, self.clearing)
        spare = len(p.hand) - 1  # hand cards left to pay with
        where = self._forests.where
        repeats = False  # only a card with two halves played alike can offer a play twice
        for c in dict.fromkeys(p.hand):
            plan = self._plans[c] or self._plan(c)
            for need, text in plan.hosts:
                if need <= spare:
                    opts.append(text)
            for need, half, prefix in plan.halves:
                if need <= spare:
                    opts += [prefix + w for w in where(i, half)]
            opts += plan.face_down
            if plan.repeats:
                repeats = True
        return list(dict.fromkeys(opts)) if repeats else opts

    def _plan(self, card: int) -> _Plan:
        """What a hand card can be played as, worked out once per card and game."""
        halves = self._halves[card]
        hosts = []
        sided = []
        first: dict[str, int] = {}  # side -> cost of the first half on it, as `_species_for` reads
        for sp, side, sym in halves:
            if side is None:
                # a river beneath a tree is one more card from hand
                hosts += [(sp.cost + (h.play == "with_tree"), f"play {card} {h.id}")
                          for h in self._hosts_from.get(sp.kind, ())]
            else:
                sided.append((first.setdefault(side, sp.cost), self._forests.half(sp, sym, side),
                              f"play {card} "))
        sides = [side for _, side, _ in halves]
        plan = _Plan(tuple(hosts), tuple(sided), tuple([f"{h} {card}" for h in self._action_hosts]),
                     len(set(sides)) < len(sides))
        self._plans[card] = plan
        return plan

    def _turn(self, i: int) -> Generator[Decision, str, None]:
        p = self.players[i]
        opts = self._turn_options(i)
        if not opts:
            yield from self._stuck(i)
            return
        choice = yield Decision(i, "turn", tuple(opts), "draw two cards or play a card")
        if choice.startswith("draw "):
            self._take(i, choice)
            if len(p.hand) < self.cardset.setup.hand_limit and (self.deck or self.clearing):
                second = ["draw deck"] if self.deck else []
                second += map(self.memo.draw_texts.__getitem__, self.clearing)
                choice = yield Decision(i, "draw", tuple(second), "draw a second card")
                self._take(i, choice)
            return
        parts = choice.split()
        if parts[0] != "play":  # a face-down host as the action (a sapling)
            card = int(parts[1])
            played = self._place_face_down(i, card, parts[0])
            yield from self._triggers(i, played)
            return
        card = int(parts[1])
        rest = " ".join([parts[1], *parts[2:]])
        sp = self._species_for(card, rest)
        river = None
        host = self.cardset.hosts.get(parts[2]) if len(parts) == 3 else None
        if host is not None and host.play == "with_tree":
            river_opts = tuple(f"river {c}" for c in p.hand if c != card)
            river = int((yield Decision(i, "river", river_opts, "a card to lie beneath as a river"))
                        .split()[1])
        payment = yield from self._pay(i, sp.cost, exclude={card, river})
        played = self._place(i, rest, card, river=river)
        played.payment = payment
        yield from self._after_play(i, played)

    def _species_for(self, card: int, choice: str) -> Species:
        parts = choice.split()
        if len(parts) == 2:
            return next(s for s, sd, _ in self._halves[card] if sd is None)
        return next(s for s, sd, _ in self._halves[card] if sd == parts[1])

    def _take(self, i: int, choice: str) -> None:
        if choice == "draw deck":
            self._to_hand(i)
        else:
            c = int(choice.split()[2])
            self.clearing.remove(c)
            self.players[i].hand.append(c)
            self._note("move", i, (c,), source="clearing", target="hand")

    def _pay(self, i: int, cost: int, exclude: set) -> Generator[Decision, str, list[int]]:
        p = self.players[i]
        paid: list[int] = []
        while len(paid) < cost:
            texts = self.memo.pay_texts
            opts = tuple([texts[c] for c in p.hand if c not in exclude and c not in paid])
            choice = yield Decision(i, "pay", opts, f"pay {cost - len(paid)} more")
            paid.append(int(choice.split()[1]))
        for c in paid:
            p.hand.remove(c)
            self.clearing.append(c)
        if paid:
            self._note("pay", i, tuple(paid), source="hand", target="clearing")
        return paid

    def _stuck(self, i: int) -> Generator[Decision, str, None]:
        """Neither action is possible: the edition's special case, if it has one."""
        p = self.players[i]
        rule = dict(self.cardset.flags.get("stuck_turn") or {})
        most = int(rule.get("cards", 0))
        target = p.cave if rule.get("to", "cave") == "cave" else self.clearing
        moved = 0
        while moved < most and p.hand:
            opts = tuple(f"choose {c}" for c in p.hand) + ("stop",)
            choice = yield Decision(i, "choose", opts, f"a card to put into the {rule.get('to')}")
            if choice == "stop":
                break
            c = int(choice.split()[1])
            p.hand.remove(c)
            target.append(c)
            self._note("move", i, (c,), source="hand", target=str(rule.get("to", "cave")))
            moved += 1
        self._note("stuck", i)
        for _ in range(moved):
            self._to_hand(i, limit=False)

    # ---- after a card is placed ----------------------------------------------------------------
    def _after_play(self, i: int, played: Played) -> Generator[Decision, str, None]:
        yield from self._triggers(i, played)
        if played.free:
            return
        yield from self._resolve(i, played)

    def _resolve(self, i: int, played: Played) -> Generator[Decision, str, None]:
        """A played card's effect, then its bonus if the payment earned it."""
        sp = played.species
        if sp.effect is not None:
            self._note("effect", i, species=sp.key)
            yield from self._run(i, played, sp.effect.steps)
        if sp.bonus is not None and played.bonus_allowed and self._bonus_earned(played):
            self._note("bonus", i, species=sp.key)
            yield from self._run(i, played, sp.bonus.steps)

    def _bonus_earned(self, played: Played) -> bool:
        if not played.payment:
            return not self.cardset.flags.get("bonus_needs_payment", True)
        return all(any(sym == played.symbol for _, _, sym in self.halves(c))
                   for c in played.payment)

    def _triggers(self, i: int, played: Played) -> Generator[Decision, str, None]:
        carriers = self._forests.trigger_hosts(i)  # hosts with a card that has a permanent effect
        if not carriers:
            return
        p = self.players[i]
        forest = self._forests.view(i)
        new = self._placed_of(forest, played)
        seen = len(forest.log)
        for hi, host in enumerate(forest.hosts):
            if hi not in carriers:
                if len(forest.log) == seen:
                    continue
                # a permanent effect that ran placed cards: one of them may carry another
                carriers = self._forests.trigger_hosts(i)
                seen = len(forest.log)
                if hi not in carriers:
                    continue
            for placed in (host.card, *host.attached()):
                sp = placed.species
                trig = sp.trigger if sp is not None else None
                if trig is None or placed is new:
                    continue
                if trig.next_turn and placed.turn >= p.turn_started:
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
                    yes = yield Decision(i, "optional", ("yes", "no"),
                                         f"use {sp.name('en')}'s permanent effect")
                    if yes != "yes":
                        continue
                self._note("trigger", i, species=sp.key)
                yield from self._run(i, Played(i, hi, None, sp, None, [], True), trig.steps,
                                     me=placed)

    def _run(self, i: int, played: Played, steps, me: Placed | None = None
             ) -> Generator[Decision, str, None]:
        for step in steps:
            view = self._forests.views()[i]  # with every other forest, for majorities
            card = me if me is not None else self._placed_of(view, played)
            # `me` may come from an older view: counts must see the forest as it is now
            if me is not None:
                card = _find(view, me) or card
            ctx = _Ctx(card, view)
            step(ctx)
            for op in ctx.ops:
                yield from self._do(i, card, op)

    def _do(self, i: int, me: Placed, op: tuple) -> Generator[Decision, str, None]:
        p = self.players[i]
        kind = op[0]
        if kind == "draw":
            for _ in range(op[1]):
                self._to_hand(i)
        elif kind == "draw_split":
            drawn = [self._to_hand(i, limit=False) for _ in range(op[1])]
            for _ in range(op[2]):
                opts = tuple(f"cave {c}" for c in drawn if c is not None and c in p.hand)
                if not opts:
                    break
                c = int((yield Decision(i, "choose", opts, "a drawn card for your cave")).split()[1])
                p.hand.remove(c)
                p.cave.append(c)
                self._note("move", i, (c,), source="hand", target="cave")
        elif kind == "extra_turn":
            p.extra_turns += 1
            self._note("extra_turn", i)
        elif kind == "move":
            yield from self._move(i, me, *op[1:])
        elif kind == "free_play":
            yield from self._free_play(i, me, op[1], op[2], op[3])
        elif kind == "rummage":
            yield from self._rummage(i, me, op[1], op[2])
        elif kind == "play_as":
            yield from self._play_as(i, me, op[1], op[2], op[3])
        elif kind == "play_paying":
            yield from self._play_paying(i)

    def _zone(self, i: int, name: str) -> list[int]:
        p = self.players[i]
        return {"hand": p.hand, "clearing": self.clearing, "cave": p.cave,
                "removed": self.removed}[name]

    def _move(self, i: int, me: Placed, amt: AmountFn, pred: Pred, src: str, dst: str,
              draw_as_many: bool) -> Generator[Decision, str, None]:
        p = self.players[i]
        limit = self.cardset.setup.hand_limit
        n = amt.n(_Ctx(me, self._forests.view(i)))
        moved = 0
        if src == "deck":
            count = n if amt.kind in ("n", "up_to") else len(self.deck)
            for _ in range(count):
                if dst == "hand" and len(p.hand) >= limit:
                    break
                c = self._draw_top()
                self._zone(i, dst).append(c)
                self._note("move", i, (c,), source="deck", target=dst)
                moved += 1
        else:
            source = self._zone(i, src)
            if amt.kind == "all":
                chosen = [c for c in source if self._matches(c, pred, me)]
                for c in chosen:
                    if dst == "hand" and len(p.hand) >= limit:
                        break
                    source.remove(c)
                    self._zone(i, dst).append(c)
                    self._note("move", i, (c,), source=src, target=dst)
                    moved += 1
            else:
                most = n if amt.kind in ("n", "up_to") else len(source)
                while moved < most:
                    if dst == "hand" and len(p.hand) >= limit:
                        break
                    cands = [c for c in source if self._matches(c, pred, me)]
                    if not cands:
                        break
                    opts = tuple(f"choose {c}" for c in cands)
                    if amt.kind != "n":
                        opts += ("stop",)
                    choice = yield Decision(i, "choose", opts, f"a card from {src} to {dst}")
                    if choice == "stop":
                        break
                    c = int(choice.split()[1])
                    source.remove(c)
                    self._zone(i, dst).append(c)
                    self._note("move", i, (c,), source=src, target=dst)
                    moved += 1
        if draw_as_many:
            for _ in range(moved):
                self._to_hand(i)

    def _most(self, i: int, me: Placed, amt: AmountFn) -> int | None:
        """How many cards an amount lets a player take from their hand at most; None for "any
        number", which also takes cards that reach the hand meanwhile (a permanent effect's draw)."""
        if amt.kind not in ("n", "up_to"):
            return None
        return amt.n(_Ctx(me, self._forests.view(i)))

    def _free_play(self, i: int, me: Placed, amt: AmountFn, pred: Pred, with_effect: bool
                   ) -> Generator[Decision, str, None]:
        p = self.players[i]
        most = self._most(i, me, amt)
        done = 0
        while most is None or done < most:
            opts = tuple(f"free {x}" for c in dict.fromkeys(p.hand)
                         for x in self.placements(i, c, pred, me))
            if not opts:
                return
            # "play a paw card free" must be obeyed when a card fits (rules: it is ignored only
            # without such a card); "up to" and "any number" may stop
            skip = () if amt.kind == "n" else ("skip",)
            choice = yield Decision(i, "place", opts + skip, "a card to play for free")
            if choice == "skip":
                return
            rest = choice.split(maxsplit=1)[1]
            card = int(rest.split()[0])
            played = self._place(i, rest, card, source="free")
            played.free = not with_effect
            played.bonus_allowed = False
            yield from self._after_play(i, played)
            done += 1

    def _rummage(self, i: int, me: Placed, pred: Pred, reveal: int
                 ) -> Generator[Decision, str, None]:
        def candidates() -> list[int]:
            return [c for c in self.clearing if self._matches(c, pred, me)]

        revealed = 0
        while not candidates() and revealed < reveal:
            self._reveal(1)
            revealed += 1
        p = self.players[i]
        opts = []
        for c in candidates():
            opts += [f"free {x}" for x in self.placements(i, c, pred, me)]
        if not opts:
            return
        choice = yield Decision(i, "place", tuple(opts), "a clearing card for your forest")
        rest = choice.split(maxsplit=1)[1]
        card = int(rest.split()[0])
        self.clearing.remove(card)
        p.hand.append(card)  # _place takes the card from the hand
        played = self._place(i, rest, card, source="clearing")
        played.free = True
        yield from self._after_play(i, played)

    def _play_as(self, i: int, me: Placed, amt: AmountFn, pred: Pred, host: str
                 ) -> Generator[Decision, str, None]:
        p = self.players[i]
        most = self._most(i, me, amt)
        done = 0
        while (most is None or done < most) and p.hand:
            opts = tuple(f"choose {c}" for c in p.hand if self._matches(c, pred, me))
            if not opts:
                return
            if amt.kind != "n":
                opts += ("stop",)
            choice = yield Decision(i, "choose", opts, f"a hand card to play as {host}")
            if choice == "stop":
                return
            played = self._place_face_down(i, int(choice.split()[1]), host)
            yield from self._triggers(i, played)
            done += 1

    def _play_paying(self, i: int) -> Generator[Decision, str, None]:
        """The Mole: place further cards paying their costs, then resolve them in order."""
        p = self.players[i]
        queue: list[Played] = []
        allowed = set(p.hand)  # cards gained meanwhile may neither be played nor pay
        while True:
            opts = []
            for c in dict.fromkeys(p.hand):
                if c not in allowed:
                    continue
                for x in self.placements(i, c):
                    sp = self._species_for(c, x)
                    if sp.cost <= len([h for h in p.hand if h in allowed]) - 1:
                        opts.append(f"free {x}")
            if not opts:
                break
            choice = yield Decision(i, "place", tuple(opts) + ("stop",), "another card to play")
            if choice == "stop":
                break
            rest = choice.split(maxsplit=1)[1]
            card = int(rest.split()[0])
            sp = self._species_for(card, rest)
            # only cards held when the Mole was played may pay
            payment = yield from self._pay(i, sp.cost, exclude=set(p.hand) - (allowed - {card}))
            played = self._place(i, rest, card)
            played.payment = payment
            allowed -= {card, *payment}
            yield from self._triggers(i, played)
            queue.append(played)
        for played in queue:
            yield from self._resolve(i, played)



def _find(view: Forest, old: Placed) -> Placed | None:
    """The card of `view` at the place `old` had in its view, if it is of the same species.

    A view lists card i at index i, so that place is the only candidate."""
    k = old.index
    if 0 <= k < len(view.cards):
        c = view.cards[k]
        if c.key == old.key and c.index == k:
            return c
    return None


class _Ctx:
    """What a compiled action sees: the card and its forest; what it asks for is queued."""

    def __init__(self, card: Placed, view: Forest):
        self.card = card
        self.view = view
        self.ops: list[tuple] = []

    def draw(self, n: int) -> None:
        self.ops.append(("draw", n))

    def draw_split(self, n: int, to_cave: int) -> None:
        self.ops.append(("draw_split", n, to_cave))

    def move(self, amount, pred, source, target, draw_as_many) -> None:
        self.ops.append(("move", amount, pred, source, target, draw_as_many))

    def extra_turn(self) -> None:
        self.ops.append(("extra_turn",))

    def free_play(self, amount, pred, with_effect) -> None:
        self.ops.append(("free_play", amount, pred, with_effect))

    def rummage(self, pred, reveal) -> None:
        self.ops.append(("rummage", pred, reveal))

    def play_as(self, amount, pred, host) -> None:
        self.ops.append(("play_as", amount, pred, host))

    def play_paying(self) -> None:
        self.ops.append(("play_paying",))
