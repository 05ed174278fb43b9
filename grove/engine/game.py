"""A complete game as a sequence of decisions: `legal_actions()` and `apply(action)`.

The turn is written as a generator that yields a `Decision` whenever a player must choose (a turn
action, a payment card, which clearing card to take, where a free card goes) and resumes with the
chosen action. So an AI, a human at the terminal and a replay all drive the game the same way,
and the whole game is reproducible from its seed and its list of actions.

Actions are values (grove/engine/action.py): a decision offers them, a player answers with one, and a
record keeps its text. The game is split by job: grove/engine/table.py holds the state (zones, hands,
caves, forests) and the moves on it, grove/engine/setup.py deals, grove/engine/turn.py offers and carries out
a turn, grove/engine/effects.py settles what a card's effect asks for (compiled effects never decide
anything themselves), and this module drives the loop: the cave draft, then turn after turn
until the last winter card (or a round in which no player can go on, or a bound on the turns).
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Sequence
from typing import Protocol

from grove.compiler.cardset import CardSet, Species
from grove.engine import action as act
from grove.engine.action import Action, IllegalAction, parse
from grove.engine.decision import Decision, Offers
from grove.engine.effects import run
from grove.engine.memo import Memo
from grove.engine.seat import Seat
from grove.engine.setup import SetupError, TurnLimit, shuffle, turn_limit
from grove.engine.table import GameOver, Played, PlayerState, Table
from grove.engine.tally import Alike
from grove.engine.turn import turn
from grove.forest.host import loose

__all__ = ["Decision", "Game", "GameOver", "IllegalAction", "PlayerState", "SetupError",
           "TurnLimit"]


class Player(Protocol):
    """Whoever answers a decision: an AI (grove/engine/players.py) or a person (grove/terminal/).
    It is handed its seat's view of the game (grove/engine/seat.py), never the game itself."""

    def choose(self, seat: Seat, decision: Decision) -> Action: ...


class Game(Table):
    """A game on a table: whose decision it is, and what each action does."""

    def __init__(self, cardset: CardSet, players: list[str], seed: int = 0,
                 expansions: Iterable[str] | None = None, *, memo: Memo | None = None,
                 events: bool = True, legacy: bool = False):
        super().__init__(cardset, players, seed, expansions, memo=memo, events=events,
                         legacy=legacy)
        self.seats = [Seat(self, i) for i in range(len(players))]  # what each player is handed
        self._proc = self._play(redraw=True)
        # what the player to move must choose now; None once the game is over. A plain
        # attribute, not a property: a driver reads it twice a decision, a thousand times a game
        self.decision: Decision | None = next(self._proc)

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
        self.decision = next(self._proc)

    def copy(self, seed: int, alike: Alike | None = None) -> Game:
        """This game as it stands at the start of a turn, on new objects, playing on from the
        current player's turn with its own random generator (`seed`) and keeping no events:
        what a search plays its worlds on (grove/engine/worlds.py), sharing what their tallies
        weigh (`alike`). Only at a turn's first decision (or between turns): a turn half done
        cannot be begun again."""
        g = Game.__new__(Game)
        self._copy_to(g, seed, alike)
        g.seats = [Seat(g, i) for i in range(len(g.players))]
        g._proc = g._play(draft=False)
        g.decision = next(g._proc)
        return g

    def release(self) -> None:
        """The game is put away, finished or not (`Table.release`): a game still running stops
        here, and its decision is None."""
        self._proc.close()
        self.decision = None
        for seat in self.seats:
            seat.release()
        self.seats = []  # each points back at the game: a cycle the collector would wait for
        super().release()

    # ---- the decision interface --------------------------------------------------------------
    def legal_actions(self) -> tuple[str, ...]:
        """The texts of the actions legal now, as a record holds them."""
        return tuple(self.decision.options) if self.decision else ()

    def apply(self, action: Action | str) -> None:
        """Take an action of the current decision, given as a value or as its text."""
        d = self.decision
        if d is None:
            raise IllegalAction("the game is over")
        if isinstance(action, str):
            if action not in d.options:
                parse(action)  # a text that spells no action says so
                raise IllegalAction(f"{action!r} is not a legal action now")
            action = self.actions.read(action)
        elif action.text not in d.options:
            raise IllegalAction(f"{action.text!r} is not a legal action now")
        self.history.append(action)
        try:
            self.decision = self._proc.send(action)
        except StopIteration:
            self.decision = None

    def play_out(self, players: Sequence[Player]) -> None:
        """Let the players (by seat) answer every decision until the game ends: `apply` in a
        loop, as a batch of AI games and the benchmarks play them. Each answer is checked as
        `apply` checks it; the loop reads the decision once and makes no call per decision
        but the player's (a random game asks three hundred)."""
        proc = self._proc
        history = self.history
        seats = self.seats
        d = self.decision
        while d is not None:
            action = players[d.player].choose(seats[d.player], d)
            opts = d.options
            # a turn's offers know the text just read from them (`Offers.picked`): `in` would
            # reach `Offers.__contains__` by way of C (a third of a percent of a random game)
            if (opts.__class__ is not Offers or action.text != opts.picked) and (
                    action.text not in opts):
                raise IllegalAction(f"{action.text!r} is not a legal action now")
            history.append(action)
            try:
                d = self.decision = proc.send(action)
            except StopIteration:
                d = self.decision = None

    # ---- the game loop -------------------------------------------------------------------------
    def _play(self, draft: bool = True, caves: list[Species] | None = None,
              redraw: bool = False) -> Generator[Decision, Action, None]:
        """The set-up's redraws (`redraw`, only for a game just dealt) and the cave draft,
        then turn after turn until the game ends: at the last winter card,
        when every player in a row had a turn that changed nothing (none can draw or play, and
        the edition's stuck turn, if it has one, had nothing to ask: the same turns would come
        round again and again, without a decision), or with `TurnLimit` past `turn_limit`.
        Each is checked once a turn."""
        memo = self.memo
        limit = turn_limit(self.cardset.setup, len(memo.halves), memo.most_needed,
                           len(self.players))
        idle: set[int] = set()  # players whose turn changed nothing since a turn last did
        try:
            if redraw:
                yield from self._redraws()
            if draft:
                yield from self._draft_caves(caves)
            while True:
                if self.turn >= limit:
                    raise TurnLimit(f"the game reached {limit} turns, more than any game that "
                                    "moves on takes, and was stopped")
                p = self.players[self.current]
                p.turn_started = self.turn
                if (yield from turn(self, self.current)):
                    idle.add(self.current)
                    if len(idle) == len(self.players):
                        if self.noting:
                            self._note("stalled", -1)
                        raise GameOver
                elif idle:
                    idle.clear()
                if len(self.clearing) >= self.cardset.setup.clearing_limit:
                    self._flush_clearing()
                if p.extra_turns:
                    p.extra_turns -= 1
                    self.turn += 1
                    continue
                self.turn += 1
                self.current = (self.current + 1) % len(self.players)
        except GameOver:
            self.over = True
            if self.noting:
                self._note("end", -1)

    def _redraws(self) -> Generator[Decision, Action, None]:
        """Where the edition's rules have it (`rules: treeless_redraw:`), each player whose
        dealt hand holds no tree, in turn order, may once put the whole hand out of the game
        and draw as many new cards from the deck. Asked only of such a hand, so a deal whose
        hands all hold a tree plays as it did before the rule."""
        if self.legacy or not self.cardset.flags.get("treeless_redraw"):
            return
        for i, p in enumerate(self.players):
            if any("tree" in sp.types for c in p.hand for sp, _, _ in self._halves[c]):
                continue
            answer = yield Decision(i, "redraw", (act.YES.text, act.NO.text),
                                    "put the hand out of the game and draw a new one?",
                                    self.actions)
            if answer != act.YES:
                continue
            old, p.hand = p.hand, []
            self.removed.extend(old)
            if self.noting:
                self._note("move", i, tuple(old), source="hand", target="removed")
            for _ in old:
                self._to_hand(i, limit=False)

    def _draft_caves(self, laid: list[Species] | None = None) -> Generator[Decision, Action, None]:
        """One cave per player is laid out; players pick in reverse turn order, then each
        cave's effect resolves in that same order."""
        if not self.cardset.setup.cave_draft or not self.cardset.caves:
            return
        if laid is None:
            pool = sorted(self.cardset.caves, key=lambda sp: sp.key)
            shuffle(self.rng, pool)
            laid = pool[:len(self.players)]
        order = list(reversed(range(len(self.players))))
        for i in order:
            opts = tuple(act.cave_card_text(sp.id) for sp in laid)
            pick = yield Decision(i, "cave", opts, "a cave card", self.actions)
            if not isinstance(pick, act.CaveCard):
                raise act.IllegalAction(f"{pick.text!r} takes no cave card")
            sp = next(x for x in laid if x.id == pick.species)
            laid.remove(sp)
            self.players[i].cave_card = sp
            if self.noting:
                self._note("cave_card", i, species=sp.key)
        for i in order:
            sp = self.players[i].cave_card
            if sp is not None and sp.effect is not None:
                if self.noting:
                    self._note("effect", i, species=sp.key)
                yield from run(self, i, Played(i, -1, None, sp, None, [], True), sp.effect.steps,
                               me=loose(sp, None))
