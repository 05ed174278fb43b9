"""`mcts`: a player that searches, information-set Monte Carlo tree search over a seat's view.

Each iteration deals the cards the seat cannot see anew (a world, grove/engine/worlds.py), so the
search never plays on the real deck or the real hands; walks the tree of the seat's own turn
choices, the other seats' turns in between played by the rollout policy; and plays on from the
last new node for a few turns with an epsilon-greedy policy, then scores what it reached, each
hand counted for what its cards' best plays would make in the turns left. The tree is keyed
by the seat's own choices, so every world that agrees with what the seat saw shares one tree
(Cowling, Powley and Whitehouse's information sets, seen by one observer). By default it holds
the turn's choices alone, and each choice's n-th try meets the n-th world dealt: a deeper tree
judged a choice by untried later ones, and unpaired worlds drowned the choices' differences in
their own luck (docs/ai.md measures both).

It knows the cards only through the compiled rules (the greedy policy weighs a play with the
tally of the forest it would join), so it plays every edition and an author's set unchanged.
The small decisions (which cards pay, where a free card goes, a second draw) are answered by
the policy: searching them gained nothing measurable (docs/ai.md).

With an iteration budget and a seed a choice is the same every time: each search draws from a
generator seeded by the player's seed and the decision alone, so a resumed game needs no search
of the choices it replays.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field

from grove.engine.action import DRAW_DECK, Action, Draw, play_text
from grove.engine.decision import Decision
from grove.engine.game import Game, Player
from grove.engine.players import GreedyPlayer, RandomPlayer, gain
from grove.engine.restricted import RestrictedPlayer, narrow
from grove.engine.seat import Seat
from grove.engine.tally import Alike
from grove.engine.worlds import world

DEFAULT_ITERATIONS = 1000  # about a second a decision on one core of this machine (docs/ai.md)
MAX_SECONDS = 3600.0  # a decision may take an hour, and no more ...
# ... by iterations too: at the default's second a thousand, an hour's worth (mcts:10000000 was
# accepted and took seven hours a decision)
MAX_ITERATIONS = DEFAULT_ITERATIONS * int(MAX_SECONDS)


@dataclass(frozen=True)
class Budget:
    """How long a search runs: a number of iterations, or a time in seconds."""

    iterations: int | None = DEFAULT_ITERATIONS
    seconds: float | None = None

    @classmethod
    def parse(cls, text: str) -> Budget:
        """`mcts`'s argument: `300` iterations or `2s` (also `0.5s`, `1500ms`)."""
        t = text.strip().lower()
        try:
            if t.endswith("ms"):
                value = float(t[:-2]) / 1000
            elif t.endswith("s"):
                value = float(t[:-1])
            else:
                n = int(t)
                if not 1 <= n <= MAX_ITERATIONS:
                    raise ValueError(_too_long(text))
                return cls(n, None)
        except ValueError as exc:
            if str(exc) == _too_long(text):
                raise
            raise ValueError(f"mcts budget {text!r}: give iterations (mcts:300) or a time "
                             "(mcts:2s, mcts:500ms)") from None
        if not 0.001 <= value <= MAX_SECONDS or not math.isfinite(value):
            raise ValueError(_too_long(text))
        return cls(None, value)

    def __str__(self) -> str:
        return f"{self.seconds:g}s" if self.seconds is not None else str(self.iterations)


def _too_long(text: str) -> str:
    """The one message for a budget out of bounds, by iterations or by time alike."""
    return (f"mcts budget {text!r}: at most an hour a decision: 1 to {MAX_ITERATIONS} "
            "iterations, or a time from 1 ms to an hour")


@dataclass(frozen=True)
class Knobs:
    """The search's settings; docs/ai.md says how each was chosen."""

    horizon: int = 2  # rounds the rollout plays past the choice, then the evaluation
    epsilon: float = 0.1  # how often a rollout's player answers at random instead of greedily
    explore: float = 0.7  # UCB's exploration constant, on rewards in [0, 1]
    widen: float = 2.0  # the search considers ceil(widen * sqrt(visits)) choices at a node ...
    first: int = 6  # ... and at least this many, best prior first
    scale: float = 12.0  # a margin of this many points is worth tanh(1) of a win
    hand: float = 0.6  # points a card in hand is worth at the horizon (what it can still pay) ...
    potential: float = 0.5  # ... or this share of what its best play would gain there, if more
    depth: int = 1  # the seat's decisions the tree holds from the turn (0: as many as it grows)
    expand: int = 0  # tries a choice waits before the tree holds the seat's next decision
    later: float = 0.0  # below the turn: ceil(later * sqrt(visits)) choices, at least 1 (0: as
    # at the turn), so a later decision starts from greedy's choice and widens as it is tried
    paired: int = 1  # 1: a choice's n-th try meets the world every choice's n-th try meets


@dataclass
class Node:
    """One of the seat's decisions in the tree: its choices, best prior first, and their
    statistics (`visits`, summed `reward` and `margin`), by action text."""

    order: list[str]
    visits: dict[str, int] = field(default_factory=dict)
    reward: dict[str, float] = field(default_factory=dict)
    margin: dict[str, float] = field(default_factory=dict)
    children: dict[str, Node] = field(default_factory=dict)
    n: int = 0
    weighed: set[str] = field(default_factory=set)  # every text ordered or left out as a copy


@dataclass(frozen=True)
class Ranked:
    """A choice the search weighed: how often it was tried and what it came to."""

    text: str
    visits: int
    win: float  # the mean reward, in [0, 1]
    margin: float  # the mean margin over the other players at the horizon, in points


class MctsPlayer:
    """The search player; `choose(seat, decision)` like every player."""

    drawing = False  # no state from one choice to the next: a resume need not search again

    def __init__(self, seed: int = 0, budget: Budget | None = None, knobs: Knobs | None = None):
        self.seed = seed
        self.budget = budget or Budget()
        self.knobs = knobs or Knobs()
        self.policy = GreedyPlayer(seed)
        self.barred: frozenset[str] = frozenset()  # species its own seat never plays

    def restrict(self, barred: frozenset[str]) -> None:
        """Play its own later turns without these species (grove/engine/restricted.py)."""
        self.barred = barred

    def choose(self, seat: Seat, decision: Decision) -> Action:
        if decision.kind == "turn" and len(decision.options) > 1:
            ranked = self.search(seat, decision)
            return decision.read(ranked[0].text)
        if decision.kind == "draw":
            return self._second_draw(seat, decision)
        return self.policy.choose(seat, decision)

    # ---- the search ------------------------------------------------------------------------------
    def search(self, seat: Seat, decision: Decision) -> list[Ranked]:
        """Every choice of a turn decision the search tried, the most visited first."""
        root = self.grow(seat, decision)
        ranked = [Ranked(t, n, root.reward[t] / n, root.margin[t] / n)
                  for t, n in root.visits.items()]
        ranked.sort(key=lambda r: (-r.visits, -r.win, r.text))
        return ranked

    def grow(self, seat: Seat, decision: Decision) -> Node:
        """The tree a turn decision's search grows, its root returned."""
        name = f"{self.seed}:{seat.turn}:{decision.player}:{len(decision.options)}"
        rng = random.Random(name)
        k = self.knobs
        root = Node(self._prior(seat, decision))
        budget = self.budget
        deadline = (time.perf_counter() + budget.seconds) if budget.seconds is not None else None
        done = 0
        kept = _Kept()
        while True:
            if budget.iterations is not None and done >= budget.iterations:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self._iterate(seat, root, name, rng, kept, k)
            done += 1
        return root

    def _iterate(self, seat: Seat, root: Node, name: str, rng: random.Random, kept: _Kept,
                 k: Knobs) -> None:
        me = seat.seat
        first = _select(root, None, k)  # every world offers the turn's own choices
        if k.paired:
            # the n-th try of each choice meets the same world and the same rollout dice, so
            # two choices' means differ by what the choices do, not by the worlds they met
            rng = random.Random(f"{name}:{root.visits.get(first, 0)}")
        w = world(seat, rng, kept.alike)
        players: list[Player] = [_Rollout(kept.policies, j, rng, k.epsilon)
                                 for j in range(len(w.players))]
        if self.barred:
            players[me] = RestrictedPlayer(players[me], self.barred)
        path: list[tuple[Node, str]] = []
        node: Node | None = root
        stop = w.turn + k.horizon * len(w.players)
        while w.decision is not None:
            d = w.decision
            if node is not None and d.player == me and d.kind == "turn" and self.barred:
                d = narrow(w.seats[me], d, self.barred)
            if node is not None and d.player == me and d.kind == "turn" and len(d.options) > 1:
                legal = None
                if node is not root:
                    # a later turn's choices differ from world to world (the seat's draws
                    # do): the ones this world offers first join the node's order, best first
                    legal = set(d.options)
                    new = legal - node.weighed
                    if new:
                        node.order += self._prior(w.seats[me], d, new)
                        node.weighed |= new
                text = first if node is root else _select(node, legal, k, later=True)
                path.append((node, text))
                w.apply(d.read(text))
                child = node.children.get(text)
                if child is None:  # a new node: the rest of this iteration is the rollout
                    if (not k.depth or len(path) < k.depth) and node.visits.get(text, 0) >= k.expand:
                        node.children[text] = Node([])
                    node = None
                else:
                    node = child
                continue
            if w.turn >= stop and node is None:
                break
            w.apply(players[d.player].choose(w.seats[d.player], d))
        margin, reward = _value(w, me, k, kept.best)
        for n, text in path:
            n.n += 1
            n.visits[text] = n.visits.get(text, 0) + 1
            n.reward[text] = n.reward.get(text, 0.0) + reward
            n.margin[text] = n.margin.get(text, 0.0) + margin
        w.release()

    def _prior(self, seat: Seat, decision: Decision, only: set[str] | None = None
               ) -> list[str]:
        """A turn's choices (or those of them in `only`), the likeliest first: plays by what
        greedy sees them gain now (a card into one of several places that gain the same once),
        the draws between."""
        i = decision.player
        tally = seat.tally(i)
        base = tally.total
        scored: list[tuple[float, str]] = []
        seen: set[tuple] = set()
        for text in decision.options:
            if only is not None and text not in only:
                continue
            play = seat.play_of(text)
            if play is None:
                scored.append((0.5 if text == DRAW_DECK.text else 0.3, text))
                continue
            sp, sym, at, free, key = play
            value = gain(tally, base, sp, sym, at, free, key)
            same = (text.split(" ", 2)[1], value)  # the card, and what it gains there
            if same in seen:
                continue
            seen.add(same)
            scored.append((value, text))
        scored.sort(key=lambda x: -x[0])
        return [t for _, t in scored]

    def _second_draw(self, seat: Seat, decision: Decision) -> Action:
        """The clearing card whose best play now gains most, else the deck's top card."""
        best, best_gain = None, 0.5
        tally = seat.tally(decision.player)
        base = tally.total
        for text in decision.options:
            action = decision.read(text)
            if not isinstance(action, Draw) or action.card is None:
                continue
            for sp, side, sym in seat.halves(action.card):
                if side is None:
                    for h in seat.memo.hosts_from.get(sp.kind, ()):
                        value = gain(tally, base, sp, sym, h)
                        if value > best_gain:
                            best, best_gain = action, value
        if best is not None:
            return best
        return DRAW_DECK if DRAW_DECK.text in decision.options else decision.actions[0]


@dataclass
class _Kept:
    """What a turn's search keeps from world to world: its worlds' forests are the turn's,
    grown by a few cards, so the same plays are weighed in the same forests again and again."""

    policies: dict = field(default_factory=dict)  # seat -> its rollout's greedy and random players
    alike: Alike = field(default_factory=Alike)  # what the worlds' tallies weighed (tally.py)
    # (a forest's state in `alike`, a card) -> what the card's best play there gains, where no
    # play of it read another forest (`_hand_worth`)
    best: dict[tuple[int, int], float] = field(default_factory=dict)


class _Rollout:
    """A rollout's player: greedy, or with probability epsilon any legal action."""

    __slots__ = ("greedy", "rand", "rng", "epsilon")

    def __init__(self, policies: dict, seat: int, rng: random.Random, epsilon: float):
        if seat not in policies:  # greedy's payment cache is worth keeping across worlds
            policies[seat] = (GreedyPlayer(seat), RandomPlayer(seat))
        self.greedy, self.rand = policies[seat]
        self.rng = rng
        self.epsilon = epsilon

    def choose(self, seat: Seat, decision: Decision) -> Action:
        if decision.kind == "turn" and self.rng.random() < self.epsilon:
            self.rand.rng.seed(self.rng.getrandbits(32))
            return self.rand.choose(seat, decision)
        return self.greedy.choose(seat, decision)


def _select(node: Node, legal: set[str] | None, k: Knobs, later: bool = False) -> str:
    """UCB1 among the first choices the node's visits allow (progressive widening), counting
    for each the visits in which it was legal (its availability)."""
    if later and k.later:
        width = max(1, math.ceil(k.later * math.sqrt(node.n + 1)))
    else:
        width = max(k.first, math.ceil(k.widen * math.sqrt(node.n + 1)))
    best, best_score = None, -1.0
    considered = 0
    total = math.log(node.n + 1)
    for text in node.order:
        if legal is not None and text not in legal:
            continue
        considered += 1
        if considered > width:
            break
        n = node.visits.get(text, 0)
        if n == 0:
            return text
        score = node.reward[text] / n + k.explore * math.sqrt(total / n)
        if score > best_score:
            best, best_score = text, score
    assert best is not None
    return best


def _value(w: Game, me: int, k: Knobs, best: dict[tuple[int, int], float] | None = None
           ) -> tuple[float, float]:
    """The margin of the searching seat over the others' mean where the rollout stopped (the
    scores so far, and what each hand can still make), and that as a reward in [0, 1]. `best`:
    hand cards' best gains kept from other worlds (`_Kept`)."""
    left = _cards_left(w)
    values = [w.tally(j).total + (0.0 if w.over else _hand_worth(w, j, k, best, left))
              for j in range(len(w.players))]
    others = [v for j, v in enumerate(values) if j != me]
    margin = values[me] - sum(others) / len(others) if others else values[me]
    return margin, 0.5 + 0.5 * math.tanh(margin / k.scale)


def _hand_worth(w: Game, j: int, k: Knobs, kept: dict[tuple[int, int], float] | None = None,
                left: int | None = None) -> float:
    """What player j's hand can still make: each card the more of a flat `hand` (what it can
    pay) and `potential` times what its best play would gain now (its cost counted as greedy
    counts it), for as many cards as j has turns left in this world, the best first: a card
    still in hand when the game ends makes nothing. A card's best gain is taken from `kept`
    where another world weighed it in a forest placed alike, and kept there. `left`: the
    world's `_cards_left`, where the caller has it."""
    turns = _turns_left(w, j, left)
    hand = w.players[j].hand
    if not turns or not hand:
        return 0.0
    if not k.potential:
        return k.hand * min(turns, len(hand))
    tally = w.tally(j)
    base = tally.total
    if tally.alike is None:
        kept = None
    worths = []
    for c in hand:
        best = kept.get((tally.state, c)) if kept is not None else None
        if best is None:
            best = 0.0
            steady = True
            for place in w.placements(j, c):
                # the turn's play to that place, as greedy weighs it: read once per card set
                play = w.play_of(play_text(place))
                value = gain(tally, base, *play)
                steady = steady and tally.steady(play[4])
                if value > best:
                    best = value
            if kept is not None and steady:
                kept[(tally.state, c)] = best
        worths.append(max(k.hand, k.potential * best))
    worths.sort(reverse=True)
    return sum(worths[:turns])


def _turns_left(w: Game, j: int, left: int | None = None) -> int:
    """How many more turns player j has in this world: the deck's cards above the winter card
    that ends the game (`left`, `_cards_left`), at about one a turn (a draw takes two, a play
    none)."""
    if left is None:
        left = _cards_left(w)
    n = len(w.players)
    wait = (j - w.current) % n  # turns before j's next one
    return max(0, -((wait - left) // n))  # ceil((left - wait) / n)


def _cards_left(w: Game) -> int:
    """The deck's cards above the winter card that ends the game."""
    need = w.cardset.setup.winter_cards - len(w.winter)
    left = 0
    winter = w.winter_ids
    for c in reversed(w.deck):
        if c in winter:
            need -= 1
            if need <= 0:
                break
        else:
            left += 1
    return left
