"""A decision's options as a person chooses them: in steps, no list longer than `LIMIT`.

The engine offers a turn's actions flat: every draw, and every hand card into every place it
fits (late in a game 60 to 100 of them). A person chooses a play in two steps instead, first
the card (or a draw), then where it goes (as a new host, a half into a slot, face down), each
place with the points the forest would gain there, weighed by the engine's own tally (what the
greedy player weighs). The steps are only a grouping of the engine's options: every leaf is one
of the actions offered, so the engine, the AIs and the records see the same game.

The first list holds at most the draws (the deck and each clearing card), the hand cards and an
answer (`stop`, `skip`): the hand and the clearing, 25 at most. A list of places longer than
`LIMIT` (a forest of many trees) is grouped by the half's side, and any list still longer is
cut into runs, so no list a person reads is longer than `LIMIT`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from grove.engine.action import Action, FaceDown, Pick, Play
from grove.engine.decision import Decision
from grove.seatview.view import paid_later  # the Mole's decisions: words the view also reads

if TYPE_CHECKING:
    from grove.engine.seat import Seat
    from grove.seatview.view import View

LIMIT = 25  # options a list shows at most: the hand and the clearing hold no more


@dataclass(frozen=True)
class Step:
    """One line of a list: an action (a leaf), or the list it opens (`below`)."""

    label: str
    action: Action | None = None
    below: tuple[Step, ...] = ()
    card: int | None = None  # the card the line is about: the screen shows its text
    points: int | None = None  # what the forest would gain by the play, where it is one


def steps(view: View, decision: Decision) -> tuple[Step, ...]:
    """The first list of `decision`: its options grouped as a person chooses them."""
    actions = list(decision.actions)
    if not any(isinstance(a, Play | FaceDown) for a in actions):
        return bounded(view, tuple(Step(o.label, o.action, card=_card(o.action))
                                   for o in view.options(decision)))
    w = view.words
    top: list[Step] = []
    cards: dict[str, list[Action]] = {}  # a card's name -> its plays; copies alike are one
    at: dict[str, tuple[int, int]] = {}  # ... its line in `top`, and the copy that stands
    for a in actions:
        if isinstance(a, Play | FaceDown):
            name = view.card_name(a.card)
            if name not in cards:
                cards[name] = []
                at[name] = (len(top), a.card)
                top.append(Step(name))  # filled in below
            if a.card == at[name][1]:
                cards[name].append(a)
        else:
            top.append(Step(view.describe(a, decision.player, decision), a, card=_card(a)))
    down: dict[str, int] = {}  # a host kind -> what a card laid face down as one gains
    for name, plays in cards.items():
        places = _places(view, plays, decision.player, down)
        free = not paid_later(decision) and all(isinstance(a, Play) and a.free for a in plays)
        top[at[name][0]] = Step(w("step.free_card" if free else "step.card", card=name),
                             below=places, card=plays[0].card)
    return bounded(view, _unique(top))


def _places(view: View, plays: list[Action], player: int,
            down: dict[str, int]) -> tuple[Step, ...]:
    """Where a card may go, each place once, with its points; grouped by the half's side when
    more than `LIMIT`. `down` keeps what a face-down card gains by its host kind: the same for
    every card of the hand (it shows no species), and each a game copied to find out."""
    w = view.words
    seat = view.game
    tally = seat.tally(player)
    base = tally.total
    out: list[tuple[str | None, Step]] = []  # (the half's side, the place)
    for a in plays:
        if isinstance(a, FaceDown):
            if a.kind not in down:
                down[a.kind] = face_down_points(seat, a, player)
            gain = down[a.kind]
            out.append((None, Step(w("where.face_down", host=view.host_name(a.kind),
                                     points=w("points", points=f"{gain:+d}", count=gain)), a,
                                   card=a.card, points=gain)))
            continue
        assert isinstance(a, Play)
        sp, sym, where = seat.placing(a.place)
        gain = tally.weigh(sp, sym, where) - base
        points = w("points", points=f"{gain:+d}", count=gain)
        place = a.place
        if place.kind is not None:
            label = w("where.host", host=view.host_name(place.kind), points=points)
        else:
            host = seat.players[player].forest.hosts[place.host]
            named = (view.species_label(host.card.species) if host.card.species
                     else view.host_name(host.kind.id))
            label = w("where.slot", half=view.species_label(seat.species_for(place)),
                      where=named, number=place.host + 1, slot=view.slot_name(place.slot),
                      points=points)
        out.append((place.side, Step(label, a, card=a.card, points=gain)))
    places = _unique([s for _, s in out])
    if len(places) <= LIMIT:
        return places
    grouped: list[Step] = []
    sides: dict[str, list[Step]] = {}
    for side, s in out:
        if side is None:
            grouped.append(s)
        else:
            if side not in sides:
                sides[side] = []
                grouped.append(Step(side))  # filled in below
            sides[side].append(s)
    for k, s in enumerate(grouped):
        if s.action is None and s.label in sides:
            below = _unique(sides[s.label])
            first = below[0]
            assert isinstance(first.action, Play)
            half = view.species_label(seat.species_for(first.action.place))
            best = max(b.points for b in below if b.points is not None)
            grouped[k] = Step(w("where.side", half=half, side=view.side_name(s.label),
                                count=len(below),
                                points=w("points", points=f"{best:+d}", count=best)),
                              below=bounded(view, below), card=first.card, points=best)
    return bounded(view, tuple(grouped))


def face_down_points(seat: Seat, action: FaceDown, player: int) -> int:
    """What the forest would gain by a card laid face down (a sapling scores as its host for
    the rules that count hosts): the play taken on a world of the seat's view and the forest
    scored there by the engine (`scoring.score`), before and after, against the others."""
    import random

    from grove.engine.scoring import score
    from grove.engine.worlds import world

    g = world(seat, random.Random(0))
    try:
        before = score(g.views()[player], g.cardset).total
        g.apply(action)
        return score(g.views()[player], g.cardset).total - before
    finally:
        g.release()


def bounded(view: View, items: Sequence[Step]) -> tuple[Step, ...]:
    """`items`, cut into runs of `LIMIT` where they are more (each run a line of its own,
    named by its first and last lines), so that no list is longer than `LIMIT`."""
    items = tuple(items)
    if len(items) <= LIMIT:
        return items
    runs = [items[k:k + LIMIT] for k in range(0, len(items), LIMIT)]
    return bounded(view, [Step(view.words("step.run", first=r[0].label,
                                          last=_after_shared(r[0].label, r[-1].label)),
                               below=r, points=_best(r)) for r in runs])


def _after_shared(first: str, last: str) -> str:
    """`last` without the words it starts with as `first` does: a run of one card's places
    reads "Tree Ferns at 3 Oak, left (+1 point now) … 26 Sapling, top (+0 points now)", not
    the card twice. Whole words only, and never all of `last`."""
    a, b = first.split(" "), last.split(" ")
    k = 0
    while k < min(len(a), len(b)) - 1 and a[k] == b[k]:
        k += 1
    return " ".join(b[k:])


def _best(items: Sequence[Step]) -> int | None:
    """The most points a line of `items` gains, where they say."""
    known = [s.points for s in items if s.points is not None]
    return max(known) if known else None


def _unique(items: Sequence[Step]) -> tuple[Step, ...]:
    """Lines that read the same (two copies of a card with the same symbol) are one line."""
    seen: dict[str, Step] = {}
    for s in items:
        seen.setdefault(s.label, s)
    return tuple(seen.values())


def _card(action: Action) -> int | None:
    from grove.engine.action import IllegalAction, card_of

    try:
        return card_of(action)
    except IllegalAction:
        return None


def leaves(items: Sequence[Step]) -> list[Step]:
    """Every action a list reaches, in order: what a test counts against the decision's."""
    out: list[Step] = []
    for s in items:
        out.extend(leaves(s.below) if s.action is None else [s])
    return out


def rehearsed(decision: Decision, action: Action) -> bool:
    """Whether a person settles what `action` brings (the river, the payment) before it is
    taken: a turn's paid play, and each of the Mole's further plays."""
    return isinstance(action, Play) and (decision.kind == "turn" and not action.free
                                         or paid_later(decision))


def confirmed(action: Action) -> bool:
    """Whether a person confirms `action` once more before it is taken: a play into the
    forest, which no step after it (a payment) would otherwise hold back, so one key does not
    lay a card for good. Draws and answers are taken at once."""
    return isinstance(action, Play | FaceDown)


def rehearse(seat: Seat, action: Action, answers: Sequence[Action],
             decision: Decision | None = None) -> Decision | None:
    """The next decision `action` (an option of `decision`) brings before its card is placed
    (a card to lie beneath as a river, a card to pay with), after `answers`; None once there
    is none (the payment is complete).

    A turn's play is asked of a world of the seat's view (engine/worlds.py: a copy of the
    game with the cards the seat cannot see dealt anew), so nothing is done until the person
    confirms, and the engine itself says what the play asks: the same options the game will
    offer, for the seat's own hand is the same in every world. The Mole's plays come mid-turn,
    where no world can be dealt (a copy starts at a turn's start): their payment is the
    engine's rule read from the seat's own hand (`later_payment`)."""
    import random

    from grove.engine.worlds import world

    if decision is not None and paid_later(decision):
        return later_payment(seat, decision, action, answers)
    g = world(seat, random.Random(0))
    try:
        g.apply(action)
        for a in answers:
            g.apply(a)
        d = g.decision
        if d is None or d.player != seat.seat or d.kind not in ("river", "pay"):
            return None
        return d
    finally:
        g.release()


def later_payment(seat: Seat, decision: Decision, action: Action,
                  answers: Sequence[Action]) -> Decision | None:
    """The payment decision the engine asks next for a Mole's play (`effects.pay` as
    `_play_paying` calls it), after `answers` (the cards paid so far); None once paid.

    The Mole's rule: only cards held when its effect began may pay, not the card played, each
    once. Those are the hand now but the cards that reached it since the effect began (a
    permanent effect's draw), as the seat's own events tell (its last `effect`)."""
    from grove.engine.action import pick_text

    assert isinstance(action, Play)
    i = decision.player
    cost = seat.species_for(action.place).cost
    paid = [a.card for a in answers if isinstance(a, Pick) and a.verb == "pay"]
    if len(paid) >= cost:
        return None
    events = seat.events
    start = max((k for k, e in enumerate(events) if e.kind == "effect" and e.player == i),
                default=-1)
    gained = {c for e in events[start + 1:] if e.kind == "move" and e.player == i
              and e.target == "hand" for c in e.cards}
    skip = {action.card, *paid, *gained}
    options = tuple(pick_text("pay", c) for c in seat.hand if c not in skip)
    return Decision(i, "pay", options, f"pay {cost - len(paid)} more", decision.table)
