"""A player's turn: the actions it offers, and what the chosen one does.

A turn draws two cards (from the deck or the clearing), or plays one hand card paying its cost
with others (as a host, into a slot of a host, or face down as a sapling), whose effect and
bonus then run (grove/engine/effects.py). A player who can do neither takes the edition's stuck turn;
a turn tells the game loop whether it changed nothing, so a game in which no player can go on
ends (grove/engine/game.py).

The turn's offers are the engine's hottest path, so what a hand card can be played as is worked
out once per card and card set (its `Plan`, kept in the memo), and a turn offers its actions as
their texts (spelt by grove/engine/action.py), reading only the one chosen into a value.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence

from grove.engine import action as act
from grove.engine.action import (
    Action,
    FaceDown,
    Play,
    card_of,
    face_down_text,
    host_place_text,
    pick_text,
    play_prefix,
    play_text,
)
from grove.engine.decision import Decision, Offers
from grove.engine.effects import after_play, pay, triggers
from grove.engine.fits import Half
from grove.engine.table import Table

Steps = Generator[Decision, Action, None]
Turn = Generator[Decision, Action, bool | None]  # a turn: whether it asked and changed nothing


# A card's plan: its turn plays, by the hand cards left to pay with (up to the most a play needs,
# `Memo.most_needed`), in the order offered (as a host, then into slots, then face down). Texts
# that need nothing more are one run of `Offers` where they follow each other, (None, the run
# with its count, how many texts); a half whose slots' labels (grove/engine/live.py) complete its texts
# is (half, its `play <card> ` prefix, 0). Kept in the memo by card number; the cards that may
# offer a play twice (two halves played alike: one side, or two host halves) are kept apart.
Plan = tuple[tuple[tuple["Half | None", "tuple[str, tuple[str, ...], int] | str", int], ...], ...]


def turn_options(game: Table, i: int) -> Offers:
    """Draws, then per hand card: as a host, into each slot it fits, face down.

    Where a half fits comes from the live forest (`grove/engine/live.py`), which answers again
    only for a host that a card joined since it was last asked; a play into a slot is offered
    as the card's prefix and those answers, spelt only if read (`Offers`)."""
    p = game.players[i]
    runs: list[tuple[str, Sequence[str], int]] = []
    n = 0  # the texts offered
    if len(p.hand) < game.cardset.setup.hand_limit:
        draws = _draws(game)
        n = len(draws)
        runs.append(("", draws, n))
    memo = game.memo
    spare = len(p.hand) - 1  # hand cards left to pay with
    if spare > memo.most_needed:
        spare = memo.most_needed
    forests = game._forests
    live = forests.current(i)
    where = forests.where_in
    plans = memo.plans
    for c in p.hand:  # card numbers: no two alike (each card is in one zone, once)
        for half, run, k in (plans[c] or _plan(game, c))[spare]:
            if half is None:
                runs.append(run)  # type: ignore[arg-type]
                n += k
            else:
                labels = where(live, half)
                if labels:
                    k = len(labels)
                    runs.append((run, labels, k))  # type: ignore[arg-type]
                    n += k
    offers = Offers(runs, n)
    if memo.repeating and not memo.repeating.isdisjoint(p.hand):
        texts = tuple(dict.fromkeys(offers))
        return Offers([("", texts, len(texts))])
    return offers


def _plan(game: Table, card: int) -> Plan:
    """What a hand card can be played as, worked out once per card and card set."""
    halves = game.memo.halves[card]
    # (cards needed beside it to pay, the half or None, its prefix or the texts)
    steps: list[tuple[int, Half | None, object]] = []
    sided = []
    first: dict[str, int] = {}  # side -> cost of the first half on it, as `species_for` reads
    for sp, side, sym in halves:
        if side is None:
            # a river beneath a tree is one more card from hand
            steps += [(sp.cost + (h.play == "with_tree"), None,
                       (play_text(host_place_text(card, h.id)),))
                      for h in game.memo.hosts_from.get(sp.kind, ())]
        else:
            sided.append((first.setdefault(side, sp.cost), game._forests.half(sp, sym, side),
                          play_prefix(card)))
    steps += sided
    face_down = tuple(face_down_text(h, card) for h in game.memo.action_hosts)
    if face_down:
        steps.append((0, None, face_down))
    affords = []
    for spare in range(game.memo.most_needed + 1):
        items: list = []
        for need, half, run in steps:
            if need > spare:
                continue
            if half is not None:
                items.append((half, run, 0))
            elif items and items[-1][0] is None:  # texts that follow each other: one run
                _, (_, before, k), _ = items[-1]
                k += len(run)
                items[-1] = (None, ("", (*before, *run), k), k)
            else:
                items.append((None, ("", run, len(run)), len(run)))
        affords.append(tuple(items))
    sides = [side for _, side, _ in halves]
    if len(set(sides)) < len(sides):
        game.memo.repeating.add(card)
    plan = game.memo.plans[card] = tuple(affords)
    return plan


def turn(game: Table, i: int) -> Turn:
    """Player i's turn; its value is whether the turn changed nothing (a stuck turn that asked
    the player nothing), which the game loop counts to end a game no player can go on with."""
    p = game.players[i]
    opts = turn_options(game, i)
    if not opts.n:
        return (yield from _stuck(game, i))
    choice = yield Decision(i, "turn", opts, "draw two cards or play a card", game.actions)
    if isinstance(choice, act.Draw):
        _take(game, i, choice)
        second = _draws(game) if len(p.hand) < game.cardset.setup.hand_limit else ()
        if second:
            choice = yield Decision(i, "draw", second, "draw a second card", game.actions)
            if not isinstance(choice, act.Draw):
                raise act.IllegalAction(f"{choice.text!r} draws no card")
            _take(game, i, choice)
        return
    if isinstance(choice, FaceDown):  # a face-down host as the action (a sapling)
        played = game._place_face_down(i, choice.card, choice.kind)
        yield from triggers(game, i, played)
        return
    if not isinstance(choice, Play):
        raise act.IllegalAction(f"{choice.text!r} is no turn")
    place = choice.place
    card = place.card
    sp = game.placing(place)[0]  # what the play is of, and pays for (`species_for`)
    river = None
    host = game.cardset.hosts.get(place.kind) if place.kind is not None else None
    if host is not None and host.play == "with_tree":
        river_opts = tuple(pick_text("river", c) for c in p.hand if c != card)
        river = card_of((yield Decision(i, "river", river_opts,
                                        "a card to lie beneath as a river", game.actions)))
    payment = yield from pay(game, i, sp.cost, exclude={card, river})
    played = game._place(i, place, river=river)
    played.payment = payment
    yield from after_play(game, i, played)


def _draws(game: Table) -> tuple[str, ...]:
    """The draws on offer: the deck's top card while it lasts, and each clearing card."""
    clearing = map(game.actions.draw_texts.__getitem__, game.clearing)
    return (act.DRAW_DECK.text, *clearing) if game.deck else tuple(clearing)


def _take(game: Table, i: int, choice: act.Draw) -> None:
    if choice.card is None:
        game._to_hand(i)
    else:
        c = choice.card
        game.clearing.remove(c)
        p = game.players[i]
        p.hand.append(c)
        p.shown.add(c)
        if game.noting:
            game._note("move", i, (c,), source="clearing", target="hand")


def _stuck(game: Table, i: int) -> Turn:
    """Neither action is possible: the edition's special case, if it has one: the hand shown,
    `cards` of it put away (all it holds, if fewer) and as many drawn from the deck. True where
    the turn asked the player nothing and so changed nothing (the edition has no such rule, or
    the hand holds no card to put away): then the next turn alike will change nothing either.
    Under format 1's rules a player could stop early and put no card away: each such choice
    is a decision, so a game of them never turns without a player's say."""
    p = game.players[i]
    rule = dict(game.cardset.flags.get("stuck_turn") or {})
    most = int(rule.get("cards", 0))
    target = p.cave if rule.get("to", "cave") == "cave" else game.clearing
    moved = 0
    asked = False
    # the rules put exactly `cards` away (fewer only from a hand that holds fewer); records of
    # format 1 were played with a stop after each card, and replay so (`Table.legacy`)
    stop = (act.STOP.text,) if game.legacy else ()
    while moved < most and p.hand:
        asked = True
        opts = (*(pick_text("choose", c) for c in p.hand), *stop)
        choice = yield Decision(i, "choose", opts, f"a card to put into the {rule.get('to')}",
                                game.actions)
        if choice == act.STOP:
            break
        c = card_of(choice)
        p.hand.remove(c)
        target.append(c)
        if game.noting:
            game._note("move", i, (c,), source="hand", target=str(rule.get("to", "cave")))
        moved += 1
    if game.noting:
        game._note("stuck", i)
    for _ in range(moved):
        game._to_hand(i, limit=False)
    return not asked
