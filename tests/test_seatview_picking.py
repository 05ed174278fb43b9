"""The steps of a play as a person takes them (grove/seatview/picking.py), without a screen:
real decisions of greedy games of three editions walked through `pick`, `digit`, `back`,
`toggle` and `confirm` to every action their lists offer, both ways a payment is taken (the
screen's one list of the hand, the line mode's card by card). Checked against the engine: what
the picker answers is taken by the game itself, on a copy at the turn's start, and completes
the play (nothing it brings is left to ask). Back undoes every step, back to the same list;
no play is taken on one key, a free one neither.

A few seconds per edition: every decision of one seat, until the game's tenth turn and then
every fourth turn, has every line walked.
"""

from __future__ import annotations

import pytest

from grove.engine import runner
from grove.engine.action import Action, FaceDown, Pick, Play
from grove.engine.game import Game
from grove.seatview.picking import Answer, Listing, Paying, Picker, Refused, Typed
from grove.seatview.steps import Step, leaves, paid_later, rehearsed, steps
from grove.seatview.view import View


def _paths(items: tuple[Step, ...], above: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """The index path to every leaf of a list."""
    out: list[tuple[int, ...]] = []
    for k, s in enumerate(items):
        out.extend(_paths(s.below, (*above, k)) if s.action is None else [(*above, k)])
    return out


def _type(picker: Picker, index: int):
    """Line `index` typed as its number, digit by digit; a number a second digit could follow
    is taken as the screen takes it after its pause."""
    move = None
    for digit in str(index + 1):
        move = picker.digit(int(digit))
    return picker.typed_out() if isinstance(move, Typed) else move


def _same(a, b) -> bool:
    """Two moves show the same thing (a rehearsed decision is a new value each time)."""
    if isinstance(a, Listing) and isinstance(b, Listing):
        return (a.items, a.path, a.confirming, a.asked.kind, tuple(a.asked.options)) == (
            b.items, b.path, b.confirming, b.asked.kind, tuple(b.asked.options))
    if isinstance(a, Paying) and isinstance(b, Paying):
        return (a.payment, a.cards, a.picked, tuple(a.asked.options)) == (
            b.payment, b.cards, b.picked, tuple(b.asked.options))
    return a == b


def _forward(picker: Picker, shown, step):
    """One step forward from `shown`; then back, which must show `shown` again; then the
    step once more, which must show what it showed the first time."""
    move = step()
    if isinstance(move, Answer):
        return move
    assert _same(picker.back(), shown)
    again = step()
    assert _same(again, move)
    return again


def _walk(view: View, decision, path: tuple[int, ...], in_steps: bool) -> tuple[Answer, int]:
    """The leaf at `path` taken through a fresh picker, each step undone once and done again:
    the answer, and how many confirmations it met."""
    picker = Picker(view, decision, pay_in_steps=in_steps)
    shown = picker.start()
    confirmations = 0
    if isinstance(shown, Paying):  # an effect's play, already taken: its payment owed
        assert picker.back() is None
        for k in range(shown.payment.count):
            shown = picker.toggle(k)
        return picker.confirm(), 0
    assert picker.back() is None  # nothing before the first list
    for k in path[:-1]:
        shown = _forward(picker, shown, lambda k=k: _type(picker, k))
        assert isinstance(shown, Listing) and shown.path[-1] == picker.lists[-2][k].label
    leaf = picker.options[path[-1]]
    shown = _forward(picker, shown, lambda: _type(picker, path[-1]))
    if isinstance(leaf.action, Play | FaceDown):  # never taken on one key, a free one neither
        assert not isinstance(shown, Answer), leaf.label
    while not isinstance(shown, Answer):
        if isinstance(shown, Paying):
            for k in range(shown.payment.count):
                assert isinstance(picker.confirm(), Refused)  # not before the payment is whole
                shown = picker.toggle(k)
            assert isinstance(picker.toggle(shown.payment.count), Refused | type(None))
            shown = picker.confirm()
        elif shown.confirming:
            confirmations += 1
            assert len(shown.items) == 1 and shown.items[0].action is not None
            shown = picker.confirm()
        else:  # a river card, or (in steps) a card to pay with
            assert shown.asked is not decision and shown.asked.kind in ("river", "pay")
            shown = _forward(picker, shown, lambda: picker.pick(0))
    return shown, confirmations


def _legal(game: Game, decision, leaf: Action, answer: Answer, in_steps: bool) -> None:
    """The answer begins with the leaf, and the game takes it whole: on a copy at a turn's
    start, each action in turn, with nothing the play brings left to ask after them."""
    actions = answer.actions
    assert actions[0] == leaf and leaf.text in decision.options
    if decision.kind == "pay":  # an effect's payment: on the screen picked whole (the engine
        # asks it card by card, the queue answers the rest), in steps card by card
        texts = [a.text for a in actions]
        whole = int(decision.about.split()[1])
        assert len(set(texts)) == len(texts) == (1 if in_steps else whole)
        assert set(texts) <= set(decision.options)
        return
    if decision.kind != "turn":
        if paid_later(decision) and isinstance(leaf, Play):
            assert all(isinstance(a, Pick) and a.verb == "pay" for a in actions[1:])
        else:
            assert len(actions) == 1
        return
    copy = game.copy(0)
    try:
        assert tuple(copy.decision.options) == tuple(decision.options)
        for a in actions:
            copy.apply(a)
        after = copy.decision
        if rehearsed(decision, leaf):
            assert after is None or after.player != decision.player or after.kind not in (
                "river", "pay")
        else:
            assert len(actions) == 1
    finally:
        copy.release()


@pytest.mark.parametrize(("edition", "seed"), [("base", 3), ("smoky_mountains", 1),
                                               ("dartmoor", 2)])
def test_every_line_of_real_decisions_is_answered_legally_and_back_undoes_each_step(
        edition, seed):
    from grove.compiler import cardset as cs

    cset = cs.build(edition)
    game = Game(cset, ["Ana", "Ben"], seed)
    players = runner.seats(["greedy", "greedy"], seed)
    kinds: set[str] = set()
    confirmations = {False: 0, True: 0}
    free = 0
    walked = 0
    while game.decision is not None:
        d = game.decision
        if d.player == 0 and (game.turn <= 10 or game.turn % 4 == 0):
            view = View(game.seats[0], "en")
            for in_steps in (False, True):
                # an effect's payment: on the screen one list of the hand, picked and confirmed
                items = steps(view, d) if d.kind != "pay" or in_steps else ()
                paths = _paths(items) if items else [()]
                reached = set()
                for path in paths:
                    answer, confirmed_ = _walk(view, d, path, in_steps)
                    leaf = answer.actions[0]
                    if path:
                        got = items
                        for k in path[:-1]:
                            got = got[k].below
                        assert leaf == got[path[-1]].action
                    _legal(game, d, leaf, answer, in_steps)
                    reached.add(leaf.text)
                    confirmations[in_steps] += confirmed_
                    if confirmed_ and isinstance(leaf, Play | FaceDown) and (
                            len(answer.actions) == 1):
                        free += 1  # a play with nothing paid, confirmed
                if items:
                    assert reached == {s.action.text for s in leaves(items)}
                walked += 1
            kinds.add(d.kind)
        game.apply(players[d.player].choose(game.seats[d.player], d))
    assert walked >= 20 and "turn" in kinds
    # plays with nothing paid asked to confirm on both ways of paying
    assert confirmations[False] > 0 and confirmations[True] > 0 and free > 0


def _costless_turn(base) -> tuple[Game, Play, Play]:
    """Seed 3's first turn that offers a play of cost 0 beside a paid one (a greedy game of
    two), with one of each."""
    game = Game(base, ["Ana", "Ben"], 3)
    players = runner.seats(["greedy", "greedy"], 3)
    for _ in range(200):
        d = game.decision
        seat = game.seats[d.player]
        costless = [a for a in d.actions if isinstance(a, Play) and not a.free
                    and seat.species_for(a.place).cost == 0]
        paid = [a for a in d.actions if isinstance(a, Play) and seat.species_for(a.place).cost > 0]
        if d.kind == "turn" and costless and paid:
            return game, costless[0], paid[0]
        game.apply(players[d.player].choose(seat, d))
    pytest.fail("no turn offered a play of cost 0 and a paid one")


def _picker(base) -> Picker:
    game = Game(base, ["Ana", "Ben"], 3)
    view = View(game.seats[0], "en")
    picker = Picker(view, game.decision)
    picker.start()
    return picker


def test_two_digits_are_one_number(base):
    """`1`, `3` is the number 13: on a list of 12 it is refused, said why, and nothing is
    taken (it never takes line 3); on a list of 13 it takes line 13. A `1` alone, once the
    pause is over, takes line 1."""
    picker = _picker(base)
    twelve = tuple(Step(f"line {k}", below=(Step(f"below {k}"),)) for k in range(1, 13))
    picker.lists.append(twelve)
    assert picker.digit(1) == Typed(0)
    assert picker.digit(3) == Refused("line.range", {"number": 13, "count": 12})
    assert picker.lists[-1] is twelve and picker.typed == ""
    thirteen = (*twelve, Step("line 13", below=(Step("below 13"),)))
    picker.lists[-1] = thirteen
    picker.digit(1)
    move = picker.digit(3)
    assert isinstance(move, Listing) and move.items == thirteen[12].below
    assert move.path[-1] == "line 13"
    assert isinstance(picker.back(), Listing) and picker.lists[-1] is thirteen
    assert picker.digit(1) == Typed(0)
    move = picker.typed_out()
    assert isinstance(move, Listing) and move.items == thirteen[0].below
    assert picker.typed_out() is None  # nothing typed
    assert picker.digit(0) == Refused("line.range", {"number": 0, "count": 1})


def test_a_free_play_is_confirmed_like_a_paid_one_and_back_undoes_it(base):
    """A play of cost 0 (the first turn of seed 3 that offers one beside a paid play) is asked
    once more, on the screen's picker and the line mode's, where a paid play waits for its
    payment: its place's pick takes nothing; back goes to the places; its one line or
    confirm takes it."""
    game, costless, paid = _costless_turn(base)
    d = game.decision
    view = View(game.seats[d.player], "en")
    for in_steps in (False, True):
        for play in (costless, paid):
            picker = Picker(view, d, pay_in_steps=in_steps)
            picker.start()
            path = _path_to(picker.options, play)
            for k in path[:-1]:
                picker.pick(k)
            places = picker.options
            move = picker.pick(path[-1])
            assert not isinstance(move, Answer)  # nothing taken on the place's key
            if play is costless:
                assert isinstance(move, Listing) and move.confirming
                assert move.items[0].label.startswith("confirm: play ")
            else:
                assert isinstance(move, Paying if not in_steps else Listing)
            back = picker.back()
            assert isinstance(back, Listing) and back.items == places and not back.confirming
            assert picker.settling is None and picker.confirming is None
            if play is costless:
                picker.pick(path[-1])
                assert picker.pick(0) == Answer((play,))  # its one line
                picker.back()
                picker.pick(path[-1])
                assert picker.confirm() == Answer((play,))  # or `c`


def _path_to(items: tuple[Step, ...], action: Action) -> tuple[int, ...]:
    for path in _paths(items):
        found = items
        for k in path[:-1]:
            found = found[k].below
        if found[path[-1]].action == action:
            return path
    raise AssertionError(f"{action.text} is in no list")


def test_the_line_mode_confirms_a_free_play_and_back_undoes_it(base):
    """`grove play --plain` took a play of cost 0 on its place's number, where the screen
    and the browser ask once more: now it shows the one line that takes it and how to go
    back; `back` lists the places again, nothing taken; the place, then 1, take the play."""
    import io

    from grove.terminal.line import LinePlayer

    game, costless, _ = _costless_turn(base)
    d = game.decision
    path = _path_to(steps(View(game.seats[d.player], "en"), d), costless)
    numbers = [str(k + 1) for k in path]
    typed = [*numbers, "back", numbers[-1], "1"]
    out = io.StringIO()
    player = LinePlayer(io.StringIO("\n".join(typed) + "\n"), out)
    assert player.choose(game.seats[d.player], d) == costless
    assert player.queue == []
    text = out.getvalue()
    confirm = "1. confirm: play "
    assert text.count(confirm) == 2  # asked, taken back, asked again
    assert text.count("1 takes this play; back: the step before") == 2
    first, second = text.index(confirm), text.rindex(confirm)
    places = steps(View(game.seats[d.player], "en"), d)[path[0]].below
    # back: the places listed again between the two confirmations
    assert all(f"{k:>3}. {s.label}" in text[first:second] for k, s in enumerate(places, 1))

    # without the confirmation the input ends: the play is not taken, the game stops
    from grove.engine.human import Quit

    player = LinePlayer(io.StringIO("\n".join(numbers) + "\n"), io.StringIO())
    with pytest.raises(Quit):
        player.choose(game.seats[d.player], d)
