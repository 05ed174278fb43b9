"""Where a person stands while choosing one decision's answer, on any screen: the lists opened
on the way (the card, then where it goes), a paid play being settled beforehand (its river card,
its payment, rehearsed on a world of the seat's view by `steps.rehearse`), the confirmation of a
play, the cards picked to pay with and a number half typed.

`Picker` holds that state for one decision; the screen (terminal/app.py) and the line mode
(terminal/line.py) turn keys and typed lines into its moves and draw what each move answers: a
list to show, a payment to show, the actions to hand the engine, or why nothing was done. Both
share one rule so: nothing is taken before a play is confirmed (a payment's last card or `c`,
or a confirmation of its own where nothing is paid), and back undoes every step before that.
Nothing of a screen is imported here; tests/test_seatview_picking.py walks real games with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from grove.engine.action import Action, Pick, Play
from grove.engine.decision import Decision
from grove.seatview.steps import Step, confirmed, rehearse, rehearsed, steps
from grove.seatview.view import Payment, View


def next_queued(queued: list[Action], decision: Decision) -> Action | None:
    """The next of a confirmed play's queued steps (its river card, its payment), taken off
    `queued` where `decision` offers it; where it does not, the game went another way and the
    rest is dropped. How every screen answers what a play it confirmed whole brings."""
    if queued:
        action = queued.pop(0)
        if action.text in decision.options:
            return action
        queued.clear()
    return None


@dataclass(frozen=True)
class Listing:
    """A list to show, and the question it answers: the decision's (with the lines picked on
    the way, `path`), or a river card's or a card to pay with of the play being settled."""

    items: tuple[Step, ...]
    asked: Decision
    path: tuple[str, ...] = ()
    confirming: bool = False  # the one line that takes a play (`confirm: play Oak ...`)


@dataclass(frozen=True)
class Paying:
    """A payment to show: the cards that may pay and those picked so far; `at`, the line a
    pick just put in or took back (None when the payment starts)."""

    asked: Decision
    payment: Payment
    cards: tuple[int, ...]
    picked: tuple[int, ...]
    at: int | None = None


@dataclass(frozen=True)
class Answer:
    """The actions to hand the engine, in order: a play and what it brings (its river card,
    its payment), or one action."""

    actions: tuple[Action, ...]


@dataclass(frozen=True)
class Refused:
    """Nothing done, and why: a text of the `screen` catalog (`seatview/words.py`), filled in."""

    key: str
    values: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Typed:
    """A first digit that a second may follow (`1` on a list of 12: 1, or 10 to 12): the
    line it names so far, taken by `Picker.typed_out` once no second digit comes."""

    index: int


Move = Listing | Paying | Answer | Refused | Typed | None  # None: nothing changes


class Picker:
    """One decision's answer, chosen in steps. `start` gives the first thing to show; `pick`,
    `back`, `digit`, `toggle` and `confirm` each give the next (`Move`). `pay_in_steps`: a
    payment is a list per card, as the engine asks it, whose last card takes the play (the
    line mode); else one list of the hand, cards picked and put back, then `confirm`."""

    def __init__(self, view: View, decision: Decision, *, pay_in_steps: bool = False):
        self.view, self.decision, self.pay_in_steps = view, decision, pay_in_steps
        self.lists: list[tuple[Step, ...]] = []  # the lists opened, the first at the bottom
        self.path: list[str] = []  # the decision's lines picked on the way to the list shown
        self.settling: Action | None = None  # a play settled before it is taken ...
        self.settled: list[Action] = []  # ... and its answers so far (a river card, a card paid)
        self.confirming: list[Action] | None = None  # a play asked once more, with its answers
        self.payment: Payment | None = None  # while paying: the payment, its decision ...
        self.pay_decision: Decision | None = None
        self.pay_cards: list[int] = []  # ... the cards that may pay, those picked
        self.picked: list[int] = []
        self.typed = ""  # a number being typed

    @property
    def options(self) -> tuple[Step, ...]:
        """The list shown now (empty while paying)."""
        return self.lists[-1] if self.lists and self.payment is None else ()

    @property
    def count(self) -> int:
        """The lines a number may pick now: the list's, or the payment's cards."""
        return len(self.pay_cards) if self.payment is not None else len(self.options)

    def paid(self) -> list[int]:
        """The cards picked so far to pay for the play being settled."""
        if self.payment is not None:
            return list(self.picked)
        return [a.card for a in self.settled if isinstance(a, Pick) and a.verb == "pay"]

    def start(self) -> Listing | Paying:
        """The first list of the decision, or its payment (an effect's play, already taken)."""
        if self.decision.kind == "pay" and not self.pay_in_steps:
            return self._start_pay(self.decision, None)
        self.lists = [steps(self.view, self.decision)]
        return self._listing(self.decision)

    def pick(self, index: int) -> Move:
        """The line `index` of the list shown (while paying: a card put in or taken back)."""
        self.typed = ""
        if self.payment is not None:
            return self.toggle(index)
        items = self.options
        if not 0 <= index < len(items):
            return Refused("line.range", {"number": index + 1, "count": len(items)})
        step = items[index]
        if self.confirming is not None:  # the confirmation's one line
            return Answer(tuple(self.confirming))
        if step.action is None:
            # a river card's and a payment's lists are never long enough to be cut in runs
            self.lists.append(step.below)
            self.path.append(step.label)
            return self._listing(self.decision)
        if self.settling is not None:  # a river card, or a card paid, of the play settled
            self.settled.append(step.action)
            return self._settle()
        if rehearsed(self.decision, step.action):
            self.settling, self.settled = step.action, []
            return self._settle()
        if confirmed(step.action):  # a play with nothing to settle: asked once more
            return self._confirm([step.action], step.card)
        return Answer((step.action,))

    def back(self) -> Move:
        """A step back: from the confirmation or the payment to the river card or the places,
        from a list to the one it came from. None where there is nothing before, or where an
        effect's play is already taken and its payment owed."""
        self.typed = ""
        if self.confirming is not None:
            self.confirming = None
            self.lists.pop()
            return self._unsettle() if self.settling is not None else self._listing(self.decision)
        if self.payment is not None:
            if self.settling is None:
                return None
            self.payment, self.pay_decision, self.pay_cards, self.picked = None, None, [], []
            return self._unsettle()
        if self.settling is not None:  # a river card's or a card to pay with's list
            self.lists.pop()
            return self._unsettle()
        if len(self.lists) > 1:
            self.lists.pop()
            del self.path[len(self.lists) - 1:]
            return self._listing(self.decision)
        return None

    def digit(self, digit: int) -> Move:
        """A digit typed: the number so far picks its line at once where no longer number
        could follow, else waits for a second digit (`Typed`). `1`, `3` is 13, never 3: on a
        list of 12 it is refused, said why."""
        self.typed += str(digit)
        number, count = int(self.typed), self.count
        if not 1 <= number <= count:
            self.typed = ""
            return Refused("line.range", {"number": number, "count": count})
        if number * 10 > count:
            return self.pick(number - 1)
        return Typed(number - 1)

    def typed_out(self) -> Move:
        """The number typed, taken: no second digit came (a pause, or Enter)."""
        if not self.typed:
            return None
        return self.pick(int(self.typed) - 1)

    def toggle(self, index: int) -> Move:
        """A card to pay with put in, or taken back; no more than the payment's count."""
        pay = self.payment
        if pay is None or not 0 <= index < len(self.pay_cards):
            return None
        card = self.pay_cards[index]
        if card in self.picked:
            self.picked.remove(card)
        elif len(self.picked) >= pay.count:
            return Refused("pay_full", {"count": pay.count})
        else:
            self.picked.append(card)
        return self._paying(index)

    def confirm(self) -> Move:
        """The play asked once more, taken; or the payment, once exactly its count is picked."""
        self.typed = ""
        if self.confirming is not None:
            return Answer(tuple(self.confirming))
        pay, decision = self.payment, self.pay_decision
        if pay is None or decision is None:
            return None
        if len(self.picked) != pay.count:
            return Refused("pay_need", {"count": pay.count})
        pays = [decision.read(Pick("pay", c).text) for c in self.picked]
        before = [self.settling, *self.settled] if self.settling is not None else []
        return Answer((*before, *pays))

    # ---- the steps between -----------------------------------------------------------------
    def _settle(self) -> Listing | Paying | Answer:
        """The next thing the play being settled asks (`steps.rehearse`): a river card (a list
        of its own), a card to pay with, or nothing more. Then a play paid card by card is
        taken (its last card was the confirmation); any other is asked once more."""
        assert self.settling is not None
        asked = rehearse(self.view.game, self.settling, self.settled, self.decision)
        if asked is None:
            if self.pay_in_steps and self.paid():
                return Answer((self.settling, *self.settled))
            card = self.settling.card if isinstance(self.settling, Play) else None
            return self._confirm([self.settling, *self.settled], card)
        if asked.kind == "pay" and not self.pay_in_steps:
            return self._start_pay(asked, self.settling)
        self.lists.append(steps(self.view, asked))
        return self._listing(asked)

    def _unsettle(self) -> Listing:
        """Back to the list the last answer settled was picked from, asked again, or (none
        settled) back to the places."""
        if self.settled:
            self.settled.pop()
            assert self.settling is not None
            asked = rehearse(self.view.game, self.settling, self.settled, self.decision)
            return self._listing(asked or self.decision)
        self.settling = None
        return self._listing(self.decision)

    def _confirm(self, actions: list[Action], card: int | None) -> Listing:
        """A play with nothing (more) to pay, asked once more before it is taken, as a paid one
        is: one line, which takes it; back goes to the place (or the river card)."""
        d = self.decision
        self.confirming = actions
        self.lists.append((Step(self.view.words("step.confirm", play=self.view.describe(
            actions[0], d.player, d)), actions[0], card=card),))
        return self._listing(d)

    def _start_pay(self, decision: Decision, play: Action | None) -> Paying:
        self.pay_decision = decision
        self.payment = self.view.payment(decision, play)
        self.pay_cards = self.view.hand(decision.player, decision)
        self.picked = []
        return self._paying(None)

    def _paying(self, at: int | None) -> Paying:
        assert self.payment is not None and self.pay_decision is not None
        return Paying(self.pay_decision, self.payment, tuple(self.pay_cards), tuple(self.picked),
                      at)

    def _listing(self, asked: Decision) -> Listing:
        path = tuple(self.path) if asked is self.decision else ()
        return Listing(self.options, asked, path, self.confirming is not None)
