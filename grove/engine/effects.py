"""Running a card's effect, bonus or permanent effect: the operations it asks for, settled.

Compiled rules never decide anything themselves (grove/compiler/codegen.py): each action of a card
asks its context for an operation, kept as a small frozen value (grove/engine/operations.py). The
engine then settles that operation, asking the player whenever it leaves a choice, before the
card's next action runs; what each operation does is the one generator `_do` dispatches it to
by its type.

The functions here take the table they act on (grove/engine/table.py: the state and the forests).
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

from grove.compiler.codegen import AmountFn
from grove.engine import action as act
from grove.engine.action import NO, YES, Action, card_of, pick_text, play_text
from grove.engine.decision import Decision
from grove.engine.operations import (
    Ctx,
    Draw,
    DrawSplit,
    ExtraTurn,
    FreePlay,
    Move,
    Op,
    PlayAs,
    PlayPaying,
    Rummage,
)
from grove.engine.table import Played, Table
from grove.forest.host import Placed

# what a further play of a play-and-pay effect is asked as: a play written free whose cost is
# asked right after it, as decisions of their own (the screens settle both in one step)
PAID_LATER = "another card to play"

Steps = Generator[Decision, Action, None]


# ---- after a card is placed -------------------------------------------------------------------
def after_play(game: Table, i: int, played: Played) -> Steps:
    yield from triggers(game, i, played)
    if played.free:
        return
    yield from resolve(game, i, played)


def resolve(game: Table, i: int, played: Played) -> Steps:
    """A played card's effect, then its bonus if the payment earned it."""
    sp = played.species
    if sp.effect is not None:
        if game.noting:
            game._note("effect", i, species=sp.key)
        yield from run(game, i, played, sp.effect.steps)
    if sp.bonus is not None and played.bonus_allowed and _bonus_earned(game, played):
        if game.noting:
            game._note("bonus", i, species=sp.key)
        yield from run(game, i, played, sp.bonus.steps)


def _bonus_earned(game: Table, played: Played) -> bool:
    if not played.payment:
        return not game.cardset.flags.get("bonus_needs_payment", True)
    halves = game.memo.halves
    return all(any(sym == played.symbol for _, _, sym in halves[c]) for c in played.payment)


def run(game: Table, i: int, played: Played, steps: Sequence, me: Placed | None = None) -> Steps:
    """Run a rule's actions in order, each operation settled before the next action runs."""
    for step in steps:
        forest = game._forests.views()[i]  # with every other forest, for majorities
        # the card whose rule this is: a card of the forest (which later placements leave in
        # place), or a cave card outside any forest
        card = me if me is not None else game._placed_of(forest, played)
        ctx = Ctx(card, forest)
        step(ctx)
        for op in ctx.ops:
            yield from _do(game, i, card, op)


def _do(game: Table, i: int, me: Placed, op: Op) -> Steps:
    match op:
        case Draw(n):
            for _ in range(n):
                game._to_hand(i)
        case DrawSplit():
            yield from _draw_split(game, i, op)
        case ExtraTurn():
            game.players[i].extra_turns += 1
            if game.noting:
                game._note("extra_turn", i)
        case Move():
            yield from _move(game, i, me, op)
        case FreePlay():
            yield from _free_play(game, i, me, op)
        case Rummage():
            yield from _rummage(game, i, me, op)
        case PlayAs():
            yield from _play_as(game, i, me, op)
        case PlayPaying():
            yield from _play_paying(game, i)


def _draw_split(game: Table, i: int, op: DrawSplit) -> Steps:
    p = game.players[i]
    drawn = [game._to_hand(i, limit=False) for _ in range(op.n)]
    for _ in range(op.to_cave):
        opts = tuple(pick_text("cave", c) for c in drawn if c is not None and c in p.hand)
        if not opts:
            break
        c = card_of((yield Decision(i, "choose", opts, "a drawn card for your cave",
                                    game.actions)))
        p.hand.remove(c)
        p.cave.append(c)
        if game.noting:
            game._note("move", i, (c,), source="hand", target="cave")


def _zone(game: Table, i: int, name: str) -> list[int]:
    p = game.players[i]
    return {"hand": p.hand, "clearing": game.clearing, "cave": p.cave,
            "removed": game.removed}[name]


def _move_one(game: Table, i: int, c: int, source: list[int], src: str, dst: str) -> None:
    """Card `c` from `source` (zone `src`) to player `i`'s zone `dst`: a card taken from the
    clearing is known to be in that hand, and the move is noted for the game log."""
    source.remove(c)
    _zone(game, i, dst).append(c)
    if src == "clearing":
        game.players[i].shown.add(c)
    if game.noting:
        game._note("move", i, (c,), source=src, target=dst)


def _move(game: Table, i: int, me: Placed, op: Move) -> Steps:
    p = game.players[i]
    amt, pred, src, dst = op.amount, op.pred, op.source, op.target
    limit = game.cardset.setup.hand_limit
    n = amt.n(Ctx(me, game._forests.view(i)))
    moved = 0
    if src == "deck":
        count = n if amt.kind in ("n", "up_to") else len(game.deck)
        for _ in range(count):
            if dst == "hand" and len(p.hand) >= limit:
                break
            c = game._draw_top()
            _zone(game, i, dst).append(c)
            if game.noting:
                game._note("move", i, (c,), source="deck", target=dst)
            moved += 1
    else:
        source = _zone(game, i, src)
        if amt.kind == "all":
            chosen = [c for c in source if game._matches(c, pred, me)]
            for c in chosen:
                if dst == "hand" and len(p.hand) >= limit:
                    break
                _move_one(game, i, c, source, src, dst)
                moved += 1
        else:
            most = n if amt.kind in ("n", "up_to") else len(source)
            while moved < most:
                if dst == "hand" and len(p.hand) >= limit:
                    break
                cands = [c for c in source if game._matches(c, pred, me)]
                if not cands:
                    break
                opts = tuple(pick_text("choose", c) for c in cands)
                if amt.kind != "n":
                    opts += (act.STOP.text,)
                choice = yield Decision(i, "choose", opts, f"a card from {src} to {dst}",
                                        game.actions)
                if choice == act.STOP:
                    break
                c = card_of(choice)
                _move_one(game, i, c, source, src, dst)
                moved += 1
    if op.draw_as_many:
        for _ in range(moved):
            game._to_hand(i)


# what a payment asks, spelt once for the costs cards have: spelling the number on each of a
# hundred payments a game took half a percent of a random game's instructions
_MOST_SPELT = 16
_PAY_MORE = tuple(f"pay {left} more" for left in range(_MOST_SPELT))


def pay(game: Table, i: int, cost: int, exclude: set[int | None]
        ) -> Generator[Decision, Action, list[int]]:
    """Player i pays `cost` hand cards (not those in `exclude`) into the clearing, one decision
    each: for the turn's play (grove/engine/turn.py) as for the Mole's further plays."""
    p = game.players[i]
    paid: list[int] = []
    texts = game.actions.pay_texts
    skip = {*exclude}  # and the cards paid so far
    while len(paid) < cost:
        opts = tuple([texts[c] for c in p.hand if c not in skip])
        left = cost - len(paid)
        about = _PAY_MORE[left] if left < _MOST_SPELT else f"pay {left} more"
        choice = yield Decision(i, "pay", opts, about, game.actions)
        c = choice.card  # a `pay C`: the game took only an action it offered
        paid.append(c)
        skip.add(c)
    for c in paid:
        p.hand.remove(c)
        game.clearing.append(c)
    if paid and game.noting:
        game._note("pay", i, tuple(paid), source="hand", target="clearing")
    return paid


def _most(game: Table, i: int, me: Placed, amt: AmountFn) -> int | None:
    """How many cards an amount lets a player take from their hand at most; None for "any
    number", which also takes cards that reach the hand meanwhile (a permanent effect's draw)."""
    if amt.kind not in ("n", "up_to"):
        return None
    return amt.n(Ctx(me, game._forests.view(i)))


def _free_play(game: Table, i: int, me: Placed, op: FreePlay) -> Steps:
    p = game.players[i]
    most = _most(game, i, me, op.amount)
    done = 0
    while most is None or done < most:
        opts = tuple(play_text(x, free=True) for c in dict.fromkeys(p.hand)
                     for x in game.placements(i, c, op.pred, me))
        if not opts:
            return
        # "play a paw card free" must be obeyed when a card fits (rules: it is ignored only
        # without such a card); "up to" and "any number" may stop
        skip = () if op.amount.kind == "n" else (act.SKIP.text,)
        choice = yield Decision(i, "place", opts + skip, "a card to play for free", game.actions)
        if not isinstance(choice, act.Play):
            return
        played = game._place(i, choice.place, source="free")
        played.free = not op.with_effect
        played.bonus_allowed = False
        yield from after_play(game, i, played)
        done += 1


def _rummage(game: Table, i: int, me: Placed, op: Rummage) -> Steps:
    pred = op.pred

    def candidates() -> list[int]:
        return [c for c in game.clearing if game._matches(c, pred, me)]

    revealed = 0
    while not candidates() and revealed < op.reveal:
        game._reveal(1)
        revealed += 1
    p = game.players[i]
    opts: list[str] = []
    for c in candidates():
        opts += [play_text(x, free=True) for x in game.placements(i, c, pred, me)]
    if not opts:
        return
    choice = yield Decision(i, "place", tuple(opts), "a clearing card for your forest",
                            game.actions)
    if not isinstance(choice, act.Play):
        raise act.IllegalAction(f"{choice.text!r} places no card")
    card = choice.card
    game.clearing.remove(card)
    p.hand.append(card)  # _place takes the card from the hand
    played = game._place(i, choice.place, source="clearing")
    played.free = True
    yield from after_play(game, i, played)


def _play_as(game: Table, i: int, me: Placed, op: PlayAs) -> Steps:
    p = game.players[i]
    most = _most(game, i, me, op.amount)
    done = 0
    while (most is None or done < most) and p.hand:
        opts = tuple(pick_text("choose", c) for c in p.hand if game._matches(c, op.pred, me))
        if not opts:
            return
        if op.amount.kind != "n":
            opts += (act.STOP.text,)
        choice = yield Decision(i, "choose", opts, f"a hand card to play as {op.host}",
                                game.actions)
        if choice == act.STOP:
            return
        played = game._place_face_down(i, card_of(choice), op.host)
        yield from triggers(game, i, played)
        done += 1


def _play_paying(game: Table, i: int) -> Steps:
    """The Mole: place further cards paying their costs, then resolve them in order."""
    p = game.players[i]
    queue: list[Played] = []
    allowed = set(p.hand)  # cards gained meanwhile may neither be played nor pay
    while True:
        opts: list[str] = []
        spare = sum(h in allowed for h in p.hand) - 1  # the cards left to pay with
        for c in dict.fromkeys(p.hand):
            if c not in allowed:
                continue
            for side, x in game._placements(i, c):
                sp = game.species_on(c, side)
                if sp.cost <= spare:
                    opts.append(play_text(x, free=True))
        if not opts:
            break
        choice = yield Decision(i, "place", (*opts, act.STOP.text), PAID_LATER, game.actions)
        if not isinstance(choice, act.Play):
            break
        card = choice.card
        sp = game.species_for(choice.place)
        # only cards held when the Mole was played may pay
        payment = yield from pay(game, i, sp.cost, exclude=set(p.hand) - (allowed - {card}))
        played = game._place(i, choice.place)
        played.payment = payment
        allowed -= {card, *payment}
        yield from triggers(game, i, played)
        queue.append(played)
    for played in queue:
        yield from resolve(game, i, played)


def triggers(game: Table, i: int, played: Played) -> Steps:
    """The permanent effects in player i's forest that a card just placed sets off, in forest
    order (each optional one asked first)."""
    carriers = game._forests.trigger_hosts(i)  # hosts with a card that has a permanent effect
    if not carriers:
        return
    p = game.players[i]
    forest = game._forests.view(i)
    new = game._placed_of(forest, played)
    seen = len(forest.log)
    # the carriers in forest order, asked from the k-th on: a forest holds a few among dozens
    # of hosts
    order = sorted(carriers)
    k = 0
    hi = -1  # the last host asked
    while True:
        if len(forest.log) != seen:
            # a permanent effect that ran placed cards: one of them may carry another
            seen = len(forest.log)
            order = sorted(h for h in game._forests.trigger_hosts(i) if h > hi)
            k = 0
        if k == len(order):
            return
        hi = order[k]
        k += 1
        host = forest.hosts[hi]
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
                yes = yield Decision(i, "optional", (YES.text, NO.text),
                                     f"use {sp.name('en')}'s permanent effect", game.actions)
                if yes != YES:
                    continue
            if game.noting:
                game._note("trigger", i, species=sp.key)
            yield from run(game, i, Played(i, hi, None, sp, None, [], True), trig.steps,
                           me=placed)
