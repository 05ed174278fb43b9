"""The full-screen view of `grove play` with a human player (Textual), when stdin and stdout are
a terminal.

Why Textual: its widgets (lists picked with keys or the mouse, tables, modal screens) are what a
player needs, it draws on any terminal tmux or ssh gives it, and `App.run_test` drives a real app
with keys in a test (no terminal faked), so a whole game through the screen is a test.

How the game and the screen meet: the engine plays a game as a loop that asks each player to
`choose` (engine/runner.py). The loop runs unchanged in a worker thread; a human seat's
`ScreenPlayer.choose` hands the decision to the screen (`call_from_thread`, which waits until the
screen has drawn it) and then waits on a queue for the player's answer. The screen reads the game
only while the engine waits on it: when a decision is offered, and at the end; the `on_action`
hook gathers the game log's lines in the engine's thread meanwhile. Stopping puts `QUIT` on the
queue, or, while an AI is choosing, is seen by the hook after that action; either raises
`engine.human.Quit` in the engine's thread, which ends the record with its stop line. So nothing
of the engine changes for the screen, and the same runner writes the same record whoever plays.
"""

from __future__ import annotations

import queue
import threading
from typing import IO, Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, OptionList, RichLog, SelectionList, Static

from grove.compiler.cardset import CardSet
from grove.engine import runner
from grove.engine.action import Action, Pick
from grove.engine.decision import Decision
from grove.engine.game import Game
from grove.engine.human import Quit
from grove.engine.record import Sink
from grove.engine.seat import Seat
from grove.game_log import GameLog
from grove.terminal.view import Grid, Option, Payment, View, edition_name
from grove.terminal.words import Words

QUIT = object()  # the answer that stops the game
LOG_LINES = 200  # game log lines the log panel keeps


class ScreenPlayer:
    """A human seat on the screen: each decision is shown and the player's answer awaited."""

    def __init__(self, app: GameScreen):
        self.app = app

    def choose(self, game: Seat, decision: Decision) -> Action:
        if self.app.stopping.is_set():
            raise Quit("the player stopped the game")
        if decision.kind == "pay" and self.app.paying:  # the rest of a confirmed payment
            card = self.app.paying.pop(0)
            return decision.read(f"pay {card}")
        self.app.call_from_thread(self.app.offer, game, decision)
        answer = self.app.answers.get()
        if answer is QUIT:
            raise Quit("the player stopped the game")
        return answer


class HelpScreen(ModalScreen[None]):
    """The keys, in the player's language."""

    BINDINGS = [Binding("escape,question_mark,q", "close", show=False)]

    def __init__(self, words: Words):
        super().__init__()
        self.words = words

    def compose(self) -> ComposeResult:
        w = self.words
        lines = [w("keys.title"), "", w("keys.pick"), w("keys.pay"), w("keys.forest"),
                 w("keys.hint"), w("keys.help"), w("keys.quit"), "", w("keys.close")]
        yield Static(Text("\n".join(lines)), id="help")

    def action_close(self) -> None:
        self.dismiss(None)


class QuitScreen(ModalScreen[bool]):
    """`q` asks first: stopping ends the game (its record can be resumed)."""

    BINDINGS = [Binding("y", "answer(True)", show=False),
                Binding("n,escape", "answer(False)", show=False)]

    def __init__(self, words: Words):
        super().__init__()
        self.words = words

    def compose(self) -> ComposeResult:
        w = self.words
        yield Static(Text("\n".join((w("quit_ask"), "", w("yes_key"), w("no_key")))), id="quit")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class GameScreen(App[runner.Outcome | None]):
    """The table, the player's forest and the others', the scores, the log and the choices."""

    # room for a small terminal (80 x 24): panels have a top border only (it carries the title),
    # the scores are a row per player, and the hand and the options get what is left
    CSS = """
    #table { height: 1fr; }
    #left { width: 1fr; }
    #right { width: 1fr; }
    #hand, #clearing, #forest, #scores, #log, #choices {
        border: none; border-top: round $primary; }
    #hand { height: 1fr; }
    #clearing { height: auto; max-height: 4; }
    #forest { height: 1fr; }
    #log { height: 1fr; }
    #scores { height: auto; max-height: 8; }
    #choices { height: 40%; }
    #status, #ask, #pay { height: auto; }
    #options, #paylist { height: 1fr; }
    #help, #quit { width: 70; height: auto; border: thick $accent; background: $panel;
                   padding: 1 2; }
    HelpScreen, QuitScreen { align: center middle; }
    """
    BINDINGS = [
        Binding("question_mark", "help", "?"),
        Binding("q", "ask_quit", "quit"),
        Binding("f", "next_forest", "forest"),
        Binding("h", "hint", "hint"),
        Binding("c", "confirm_pay", "confirm", show=False),
        Binding("ctrl+c,ctrl+q", "stop_now", show=False, priority=True),
        *(Binding(str(k), f"pick({k})", show=False) for k in range(1, 10)),
    ]

    def __init__(self, cardset: CardSet, kinds: list[str], seed: int, *, names: list[str],
                 record: IO[str] | Sink | None = None, lang: str = "en", resume: list[str] | None = None):
        super().__init__()
        self.cardset, self.kinds, self.seed, self.names = cardset, kinds, seed, names
        self.record, self.lang, self.resume = record, lang, list(resume or ())
        self.words = Words(lang)
        self.answers: queue.Queue[Any] = queue.Queue()
        self.stopping = threading.Event()
        self.paying: list[int] = []  # the cards of a confirmed payment still to hand over
        self.game: Seat | None = None
        self.decision: Decision | None = None
        self.options: list[Option] = []
        self.payment: Payment | None = None
        self.shown = 0  # whose forest is shown
        self.outcome: runner.Outcome | None = None
        self.log_lines: list[str] = []
        self._gamelog: GameLog | None = None
        self._logged = 0  # log lines shown

    # ---- layout --------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="table"):
            with Vertical(id="left"):
                yield DataTable(id="hand", show_cursor=False, zebra_stripes=True)
                yield Static(id="clearing")
            with Vertical(id="right"):
                yield DataTable(id="forest", show_cursor=False, zebra_stripes=True)
                yield RichLog(id="log", wrap=True, max_lines=LOG_LINES)
        yield DataTable(id="scores", show_cursor=False)
        with Vertical(id="choices"):
            yield Static(id="ask")
            yield Static(id="pay")
            yield OptionList(id="options", markup=False, compact=True)
            yield SelectionList[int](id="paylist", compact=True)

    def on_mount(self) -> None:
        w = self.words
        self.title = f"grove · {edition_name(self.cardset, self.lang)}"
        self.query_one("#hand").border_title = w("hand")
        self.query_one("#clearing").border_title = w("clearing")
        self.query_one("#scores").border_title = w("scores")
        self.query_one("#log").border_title = w("log")
        self.query_one("#choices").border_title = w("actions")
        self.query_one("#paylist").display = False
        self.query_one("#pay").display = False
        self.query_one("#status", Static).update(Text(w("waiting")))
        self.run_worker(self._play, thread=True, exit_on_error=True)

    # ---- the engine's side (the worker thread) -------------------------------------------------
    def _play(self) -> None:
        seats = [ScreenPlayer(self) if k == "human" else None for k in self.kinds]
        out = runner.play(self.cardset, self.kinds, self.seed, names=self.names,
                          record=self.record, on_action=self._acted,
                          players=runner.seats(self.kinds, self.seed, seats), resume=self.resume)
        self.call_from_thread(self._over, out)

    def _acted(self, game: Game, action: Action) -> None:
        if self._gamelog is None:
            self._gamelog = GameLog(game.seats[self.kinds.index("human")], self.lang)
        # shown with the next decision or the end: an AI's turn takes a moment, and a redraw
        # per action would cost more than the turn
        self.log_lines.extend(self._gamelog.new_lines())
        if self.stopping.is_set():
            raise Quit("the player stopped the game")

    # ---- the screen's side ---------------------------------------------------------------------
    def _show_log(self) -> None:
        """The game log's lines not yet shown (the panel keeps the last `LOG_LINES`)."""
        log = self.query_one("#log", RichLog)
        for line in self.log_lines[max(self._logged, len(self.log_lines) - LOG_LINES):]:
            log.write(Text(line))
        self._logged = len(self.log_lines)

    def offer(self, game: Seat, decision: Decision) -> None:
        """Show the table and what `decision` asks; the answer goes on `answers`."""
        self.game, self.decision = game, decision
        view = View(game, self.lang)
        self._show_log()
        if decision.player != self.shown and self.kinds[self.shown] != "human":
            self.shown = decision.player
        self._draw(view)
        w = self.words
        ask = w("ask", player=game.players[decision.player].name, ask=view.ask(decision))
        self.query_one("#ask", Static).update(Text(ask, style="bold"))
        self.payment = view.payment(decision)
        options = self.query_one("#options", OptionList)
        paylist = self.query_one("#paylist", SelectionList)
        if self.payment is not None:
            self.options = []
            paylist.clear_options()
            paylist.add_options([(Text(view.card_details(c)), c)
                                 for c in view.hand(decision.player, decision)])
            paylist.highlighted = 0
            options.display, paylist.display = False, True
            self.query_one("#pay").display = True
            self._pay_note()
            paylist.focus()
            return
        self.query_one("#pay").display = False
        self.options = view.options(decision)
        options.clear_options()
        options.add_options([Text(f"{k}. {o.label}") if k <= 9 else Text(f"   {o.label}")
                             for k, o in enumerate(self.options, 1)])
        options.highlighted = 0
        options.display, paylist.display = True, False
        options.focus()

    def _draw(self, view: View) -> None:
        game = view.game
        w = self.words
        me = self.decision.player if self.decision is not None else 0
        status = "  ·  ".join((view.title(),
                               game.players[me].name, view.table_line(), w("hint")))
        self.query_one("#status", Static).update(Text(status))
        hand = view.hand(me, self.decision)
        grid = view.hand_grid(hand)
        _fill(self.query_one("#hand", DataTable), grid if grid.rows else Grid(
            grid.columns, ((w("empty"), "", "", "", ""),)))
        self.query_one("#clearing", Static).update(Text(
            ", ".join(view.card_name(c) for c in view.clearing()) or w("empty")))
        self._draw_forest(view)
        _fill(self.query_one("#scores", DataTable), view.scores_by_player())

    def _draw_forest(self, view: View) -> None:
        p = view.game.players[self.shown]
        box = self.query_one("#forest", DataTable)
        box.border_title = (f"{self.words('forest', player=p.name)} · "
                            f"{self.words('cave', count=p.cave_size)} (f)")
        grid = view.forest(self.shown)
        if not grid.rows:
            grid = Grid(grid.columns, (("", self.words("empty"), *([""] * (len(grid.columns) - 2))),))
        _fill(box, grid)

    def _pay_note(self) -> None:
        pay, game = self.payment, self.game
        if pay is None or game is None:
            return
        view = View(game, self.lang)
        picked = list(self.query_one("#paylist", SelectionList).selected)
        w = self.words
        lines = [w("pay_title", card=pay.card, count=pay.count),
                 w("pay_picked", picked=len(picked), count=pay.count) + " · " + w("pay_keys"),
                 view.bonus_note(pay, picked)]
        self.query_one("#pay", Static).update(Text("\n".join(lines)))

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged) -> None:
        self._pay_note()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "options":
            self._answer(event.option_index)

    def _answer(self, index: int) -> None:
        if self.decision is None or not 0 <= index < len(self.options):
            return
        action = self.options[index].action
        self.decision, self.options = None, []
        self.query_one("#options", OptionList).clear_options()
        self.query_one("#ask", Static).update(Text(self.words("waiting")))
        self.answers.put(action)

    def action_pick(self, number: int) -> None:
        if self.payment is None:
            self._answer(number - 1)

    def action_confirm_pay(self) -> None:
        pay, decision = self.payment, self.decision
        if pay is None or decision is None:
            return
        picked = list(self.query_one("#paylist", SelectionList).selected)
        if len(picked) != pay.count:
            self.notify(self.words("pay_need", count=pay.count))
            return
        self.paying = picked[1:]
        self.payment, self.decision = None, None
        paylist = self.query_one("#paylist", SelectionList)
        paylist.clear_options()
        paylist.display = False
        self.query_one("#pay").display = False
        self.query_one("#ask", Static).update(Text(self.words("waiting")))
        self.answers.put(decision.read(Pick("pay", picked[0]).text))

    def action_next_forest(self) -> None:
        if self.game is None:
            return
        self.shown = (self.shown + 1) % len(self.game.players)
        self._draw_forest(View(self.game, self.lang))

    def action_hint(self) -> None:
        """What the search would play now, under the question (a second's search)."""
        if self.game is None or self.decision is None:
            return
        lines = View(self.game, self.lang).hint(self.decision)
        self.query_one("#ask", Static).update(Text("\n".join(lines)))

    def action_help(self) -> None:
        self.push_screen(HelpScreen(self.words))

    def action_ask_quit(self) -> None:
        if self.outcome is not None:  # the game is over: q leaves
            self.exit(self.outcome)
            return
        self.push_screen(QuitScreen(self.words), lambda yes: self.action_stop_now() if yes else None)

    def action_stop_now(self) -> None:
        if self.outcome is not None:
            self.exit(self.outcome)
            return
        self.stopping.set()
        self.answers.put(QUIT)

    def _over(self, out: runner.Outcome) -> None:
        self.outcome = out
        if out.stopped:
            self.exit(out)
            return
        view = View(out.game.seats[self.kinds.index("human")], self.lang)
        self.decision = None
        self._draw(view)
        self._show_log()
        self.query_one("#options", OptionList).clear_options()
        self.query_one("#ask", Static).update(Text(self.words(
            "over", winners=", ".join(out.winners)), style="bold"))

    def on_unmount(self) -> None:
        self.stopping.set()
        self.answers.put(QUIT)  # a worker still waiting on the player ends


def _fill(table: DataTable, grid: Grid) -> None:
    table.clear(columns=True)
    table.add_columns(*(Text(c) for c in grid.columns))
    table.add_rows([tuple(Text(c) for c in row) for row in grid.rows])


def play_on_screen(cardset: CardSet, kinds: list[str], seed: int, *, names: list[str],
                   record: IO[str] | Sink | None = None, lang: str = "en",
                   resume: list[str] | None = None) -> runner.Outcome:
    """Play a game on the full screen; the outcome, finished or stopped, once the app closes."""
    app = GameScreen(cardset, kinds, seed, names=names, record=record, lang=lang, resume=resume)
    out = app.run()
    if out is None:
        out = app.outcome
    if out is None:
        raise KeyboardInterrupt  # the screen closed before the game said how it ended
    return out
