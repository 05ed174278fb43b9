"""The line mode: a human player at a prompt, when stdin or stdout is no terminal, or with
`grove play --plain`. Each decision prints the player's hand (while paying, the cards still free
to pay with; at a turn, the clearing and the player's forest first), the question and its
options, numbered, each once; at the prompt a number picks an option and a few words show the
table (`help` lists them). The game log, which the command prints as the game goes, tells the
player what the others did. docs/play.md has the commands.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from grove.engine.action import Action
from grove.engine.game import Decision
from grove.engine.human import Quit
from grove.engine.seat import Seat
from grove.report import shown
from grove.terminal.view import Grid, View

COMMANDS = ("help", "hand", "clearing", "forest", "show", "scores", "log", "hint", "quit")
LOG_LINES = 30  # lines of the game log `log` shows


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
                 log: Callable[[], list[str]] = list):
        self.stdin = stdin
        self.out = out
        self.lang = lang
        self.log = log

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)
        self.out.flush()

    def choose(self, game: Seat, decision: Decision) -> Action:
        view = View(game, self.lang)
        w = view.words
        options = view.options(decision)
        player = game.players[decision.player]
        if decision.kind == "turn":  # which game, which turn: the edition by its own name
            self.say("", view.title())
        self.say("", w("ask", player=player.name, ask=view.ask(decision)))
        if decision.kind == "turn":  # what a turn is chosen from: the table and one's forest
            self._clearing(view)
            self._forest(view, "", decision.player)
        self._hand(view, decision)
        if decision.kind == "pay":
            pay = view.payment(decision)
            if pay is not None:
                self.say("  " + view.bonus_note(pay, _paid(game)))
        for k, o in enumerate(options, 1):
            self.say(f"  {k:>3}. {o.label}")
        while True:
            print(w("line.prompt", count=len(options)), end="", file=self.out, flush=True)
            line = self.stdin.readline()
            if not line:
                raise Quit("no more input")
            text = line.strip()
            word, _, rest = text.partition(" ")
            word = word.lower()
            if text.isdigit():
                n = int(text)
                if 1 <= n <= len(options):
                    return options[n - 1].action
                self.say("  " + w("line.range", number=n, count=len(options)))
            elif not text:
                self.say("  " + w("line.empty"))
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
                self.say("  " + w("line.bad", text=text[:40], count=len(options)))

    def _help(self, view: View) -> None:
        w = view.words
        self.say(w("line.help"), f"  1, 2, ...        {w('line.number')}",
                 f"  help, ?          {w('line.help_cmd')}", f"  hand             {w('line.hand')}",
                 f"  clearing         {w('line.clearing')}",
                 f"  forest [PLAYER]  {w('line.forest')}", f"  show NAME        {w('line.show')}",
                 f"  scores           {w('line.scores')}",
                 f"  log              {w('line.log')}", f"  hint             {w('line.hint')}",
                 f"  quit             {w('line.quit')}")

    def _show(self, view: View, name: str) -> None:
        """`show NAME`: a species of the game in full, found by its name or id."""
        w = view.words
        if not name.strip():
            self.say("  " + w("show.usage"))
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
    from grove.engine.action import Pick, Play

    out = []
    for a in reversed(game.history):
        if isinstance(a, Play):
            break
        if isinstance(a, Pick) and a.verb == "pay":
            out.append(a.card)
    return out[::-1]
