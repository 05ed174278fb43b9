"""The line mode: a human player at a prompt, when stdin or stdout is no terminal, or with
`grove play --plain`. Each decision prints the player's hand (while paying, the cards still free
to pay with; at a turn, the clearing and the player's forest first), the question and its
options, numbered, each once; at the prompt a number picks an option and a few words show the
table (`help` lists them). The game log, which the command prints as the game goes, tells the
player what the others did. docs/play.md has the commands.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TextIO

from grove.compiler.search_path import Roots
from grove.engine.action import Action, Pick
from grove.engine.game import Decision
from grove.engine.human import Quit
from grove.engine.seat import Seat
from grove.report import shown
from grove.seatview.picking import Answer, Listing, Picker, Refused
from grove.seatview.steps import Step
from grove.seatview.view import Grid, View

COMMANDS = ("help", "hand", "clearing", "forest", "show", "scores", "log", "hint", "back",
            "quit")
LOG_LINES = 30  # lines of the game log `log` shows
# what makes `show`'s words a query of `grove find` rather than a name (no name holds these)
QUERY_MARKS = re.compile(r"[:<>=()]|^-|\bor\b|\bnot\b")


def grid_text(grid: Grid) -> list[str]:
    """A grid as aligned text lines (a column as wide as its widest cell)."""
    widths = [max(len(r[k]) for r in (grid.columns, *grid.rows)) for k in range(len(grid.columns))]
    return ["  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
            for row in (grid.columns, *grid.rows)]


class LinePlayer:
    """A human seat played at a prompt; `quit`, an empty stdin (EOF) or Ctrl-C stop the game
    (`engine.human.Quit`: the record gets its stop line). `log` gives the game log's lines so
    far, which the command keeps."""

    def __init__(self, stdin: TextIO, out: TextIO, lang: str = "en",
                 log: Callable[[], list[str]] = list, roots: Roots | None = None):
        self.stdin = stdin
        self.out = out
        self.lang = lang
        self.log = log
        self.roots = roots  # the search path the game's card set came from, for `show QUERY`
        self.queue: list[Action] = []  # the answers of a play settled before it was taken
        self.seen = False  # whether the board was shown: a resumed game may begin mid-turn

    def say(self, *lines: str) -> None:
        # names come from files (a record's players, an author's cards): an ESC, OSC or BEL in
        # one is shown escaped, never acted on by the terminal
        for line in lines:
            print(shown(line), file=self.out)
        self.out.flush()

    def choose(self, game: Seat, decision: Decision) -> Action:
        if self.queue:  # the rest of a play settled before it was taken (its payment)
            action = self.queue.pop(0)
            if action.text in decision.options:
                return action
            self.queue.clear()
        view = View(game, self.lang)
        w = view.words
        player = game.players[decision.player]
        # the board at each turn, and at the first decision whatever it is (a game resumed
        # mid-turn, at a payment, opened with the question alone)
        board = decision.kind == "turn" or not self.seen
        self.seen = True
        if board:  # which game, which turn: the edition by its own name
            self.say("", view.title())
        self.say("", w("ask", player=player.name, ask=view.ask(decision)))
        if board:  # what a turn is chosen from: the table and one's forest
            self._clearing(view)
            self._forest(view, "", decision.player)
        self._hand(view, decision)
        if len(decision.actions) == 1:  # nothing to choose: said, and taken
            only = decision.actions[0]
            self.say("  " + w("line.only", option=view.describe(only, decision.player, decision)))
            return only
        if decision.kind == "pay":
            pay = view.payment(decision)
            if pay is not None:
                self.say("  " + view.bonus_note(pay, _paid(game)))
        # a play in steps (seatview/picking.py): the card, then where it goes, then the river
        # and the payment card by card (settled on a world of the seat's view, so `back` undoes
        # them), or, where nothing is paid, a confirmation: nothing is taken before either
        picker = Picker(view, decision, pay_in_steps=True)
        shown = picker.start()
        assert isinstance(shown, Listing)  # paid card by card: never one list of the hand
        self._list(shown.items)
        while True:
            picked = self._read(view, shown.asked, picker.count)
            opened = len(picker.path)
            move = picker.back() if picked is None else picker.pick(picked)
            if move is None:
                self.say("  " + w("line.no_back"))
            elif isinstance(move, Answer):
                self.queue = list(move.actions[1:])
                return move.actions[0]
            elif isinstance(move, Refused):
                self.say("  " + w(move.key, **move.values))
            elif isinstance(move, Listing):
                shown = move
                self._listing(view, picker, move, opened=len(move.path) > opened)

    def _listing(self, view: View, picker: Picker, shown: Listing, opened: bool) -> None:
        """A list the picker gives: a river card's or a card to pay with's under its question
        (with the hand that pays and the bonus so far), the lines below a picked one under
        its label, a confirmation with how to take it or go back."""
        w = view.words
        asked = shown.asked
        settling = asked is not picker.decision
        if settling:
            self.say("", w("ask", player=view.game.players[asked.player].name,
                           ask=view.ask(asked)))
            self._hand(view, asked)
            pay = view.payment(asked, picker.settling)
            if pay is not None:
                self.say("  " + view.bonus_note(pay, picker.paid()))
        elif opened:
            self.say("  › " + shown.path[-1])  # what the list below is of
        self._list(shown.items)
        if shown.confirming:
            self.say("  " + w("line.confirm"))
        elif settling:
            self.say("  " + w("line.back"))

    def _list(self, items: tuple[Step, ...]) -> None:
        for k, s in enumerate(items, 1):
            self.say(f"  {k:>3}. {s.label}" + (" …" if s.action is None else ""))

    def _read(self, view: View, decision: Decision, count: int) -> int | None:
        """The index of the option a person types, or None for `back`; every other command
        is answered here, and the prompt comes again."""
        w = view.words
        while True:
            print(w("line.prompt", count=count), end="", file=self.out, flush=True)
            line = self.stdin.readline()
            if not line:
                raise Quit("no more input")
            text = line.strip()
            word, _, rest = text.partition(" ")
            word = word.lower()
            if text.isdigit():
                n = int(text)
                if 1 <= n <= count:
                    return n - 1
                self.say("  " + w("line.range", number=n, count=count))
            elif not text:
                self.say("  " + w("line.empty"))
            elif word in ("back", "b"):
                return None
            elif word in ("help", "?"):
                self._help(view)
            elif word == "hand":
                self._hand(view, decision)
            elif word == "clearing":
                self._clearing(view)
            elif word == "forest":
                self._forest(view, rest.strip(), decision.player)
            elif word == "show":
                self._show(view, rest)
            elif word == "scores":
                self.say(*("  " + line for line in grid_text(view.scores())))
            elif word == "log":
                lines = self.log()[-LOG_LINES:]
                self.say(*(lines or ["  " + w("line.log_empty")]))
            elif word == "hint":
                self.say(*("  " + line for line in view.hint(decision, rest.strip())))
            elif word in ("quit", "q"):
                raise Quit("the player quit")
            else:
                self.say("  " + w("line.bad", text=text[:40], count=count))

    def _help(self, view: View) -> None:
        w = view.words
        self.say(w("line.help"), f"  1, 2, ...        {w('line.number')}",
                 f"  help, ?          {w('line.help_cmd')}", f"  hand             {w('line.hand')}",
                 f"  clearing         {w('line.clearing')}",
                 f"  forest [PLAYER]  {w('line.forest')}", f"  show NAME        {w('line.show')}",
                 f"  scores           {w('line.scores')}",
                 f"  log              {w('line.log')}", f"  hint             {w('line.hint')}",
                 f"  back             {w('line.back_cmd')}",
                 f"  quit             {w('line.quit')}")

    def _show(self, view: View, name: str) -> None:
        """`show NAME`: a species of the game in full, found by its name or id."""
        w = view.words
        if not name.strip():
            self.say("  " + w("show.usage"))
            return
        if QUERY_MARKS.search(name) and name.strip() not in view.game.cardset.species:
            self._query(view, name.strip())
            return
        sp, candidates = view.find_species(name)
        if sp is not None:
            first, *rest = view.species_lines(sp)
            self.say("  " + first, *("    " + line for line in rest))
            return
        asked = shown(name.strip()[:40])
        if candidates:
            names = [shown(c.name(view.lang)) for c in candidates]
            # two editions' species of one name (Squeaker in base and woodland_edge) by key
            self.say("  " + w("show.many", name=asked, names=", ".join(
                f"{n} [{c.key}]" if names.count(n) > 1 else n
                for n, c in zip(names, candidates, strict=True))))
            return
        self.say("  " + w("show.none", name=asked))
        near = view.near_species(name)
        if near:
            self.say("  " + w("show.near", names=", ".join(shown(c.name(view.lang)) for c in near)))

    def _query(self, view: View, query: str) -> None:
        """`show type:bird cost<=1`: the species of this game a query of `grove find` matches
        (docs/find.md), in full when it is one; a query that cannot be asked, with its caret."""
        from grove import api
        from grove.database.query import shown as shown_query
        from grove.dsl.diagnostics import DiagnosticError

        cs = view.game.cardset
        try:
            rows = api.find(query, [cs.root.id, *cs.expansions], view.lang, self.roots)
        except DiagnosticError as exc:
            self.say(*("  " + line for line in shown_query(exc.diagnostics, query).splitlines()))
            return
        found = [cs.species[r["key"]] for r in rows if r["key"] in cs.species]
        if len(found) == 1:
            first, *rest = view.species_lines(found[0])
            self.say("  " + first, *("    " + line for line in rest))
        elif found:
            self.say("  " + view.words("show.found", count=len(found), query=shown(query[:60]),
                                       names=", ".join(shown(sp.name(view.lang)) for sp in found)))
        else:
            self.say("  " + view.words("show.none", name=shown(query[:40])))

    def _hand(self, view: View, decision: Decision) -> None:
        cards = view.hand(decision.player, decision)
        self.say(f"  {view.words('hand')}:",
                 *(f"    {view.card_details(c)}" for c in cards),
                 *([f"    {view.words('empty')}"] if not cards else []))

    def _clearing(self, view: View) -> None:
        cards = view.clearing()
        self.say(f"  {view.words('clearing')}: "
                 + (", ".join(view.card_name(c) for c in cards) or view.words("empty")),
                 f"  {view.table_line()}")

    def _forest(self, view: View, who: str, me: int) -> None:
        players = view.game.players
        i = me
        if who:
            found = [k for k, p in enumerate(players) if p.name.lower() == who.lower()
                     or str(k + 1) == who]
            if not found:
                self.say("  " + view.words("line.no_player", name=who[:40], players=", ".join(
                    f"{k + 1} {p.name}" for k, p in enumerate(players))))
                return
            i = found[0]
        p = players[i]
        self.say(f"  {view.words('forest', player=p.name)} "
                 f"({view.words('cave', count=p.cave_size)})",
                 *("    " + line for line in grid_text(view.forest(i))),
                 *([f"    {view.words('empty')}"] if not p.forest.hosts else []))


def _paid(game: Seat) -> list[int]:
    """The cards paid so far for the play being paid for: the pays since the last play."""
    from grove.engine.action import Play

    out = []
    for a in reversed(game.history):
        if isinstance(a, Play):
            break
        if isinstance(a, Pick) and a.verb == "pay":
            out.append(a.card)
    return out[::-1]
