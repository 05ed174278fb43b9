"""The full-screen view of `grove play` with a human player (Textual), when stdin and stdout are
a terminal.

Why Textual: its widgets (lists picked with keys or the mouse, tables, modal screens) are what a
player needs, it draws on any terminal tmux or ssh gives it, and `App.run_test` drives a real app
with keys in a test (no terminal faked), so a whole game through the screen is a test.

How the game and the screen meet: the engine plays a game as a loop that asks each player to
`choose` (engine/runner.py). The loop runs unchanged in a worker thread; a human seat's
`ScreenPlayer` (handoff.py) hands the decision to the screen and waits for the player's answer.
The screen reads the game only while the engine waits on it: when a decision is offered, and at
the end; the `on_action` hook gathers the game log's lines in the engine's thread meanwhile. So
nothing of the engine changes for the screen, and the same runner writes the same record whoever
plays. The steps of a play are grove/seatview/picking.py's; this module draws them.
"""

from __future__ import annotations

from typing import IO, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import ContentSwitcher, DataTable, OptionList, Static

from grove.compiler.cardset import CardSet
from grove.engine import runner
from grove.engine.action import Action
from grove.engine.decision import Decision
from grove.engine.game import Game
from grove.engine.record import Sink
from grove.engine.seat import Seat
from grove.game_log import GameLog
from grove.report import final_words
from grove.seatview.picking import Answer, Listing, Move, Paying, Picker, Refused, Typed
from grove.seatview.steps import Step
from grove.seatview.view import Payment, View, edition_name, final_result
from grove.seatview.words import Words
from grove.terminal.handoff import Handoff, ScreenPlayer
from grove.terminal.panels import Panels


class HelpScreen(ModalScreen[None]):
    """The keys, in the player's language. The box scrolls where the screen is lower than the
    help (at 80 x 24 it fills the box to its last line); the keys that scroll it are its first
    line after the title, so a player who sees any of it sees how to see the rest."""

    BINDINGS = [Binding("escape,question_mark,q", "close", show=False)]

    def __init__(self, words: Words):
        super().__init__()
        self.words = words

    def lines(self) -> list[str]:
        w = self.words
        return [w("keys.title"), w("keys.scroll"), "", w("keys.pick"), w("keys.back"),
                w("keys.pay"), w("pay_mark"), w("keys.card"), w("keys.read"), w("keys.forest"), w("keys.log"),
                w("keys.panels"), w("keys.hint"), w("keys.help"), w("keys.quit"), "",
                w("keys.close")]

    def compose(self) -> ComposeResult:
        # the scroll box has the focus, so up, down, page up and page down scroll it
        with VerticalScroll(id="helpbox"):
            yield Static(Text("\n".join(self.lines())), id="help")

    def on_mount(self) -> None:
        self.query_one("#helpbox").focus()

    def action_close(self) -> None:
        self.dismiss(None)


class ReadScreen(ModalScreen[None]):
    """Any card on the table, read in full (key r): the list of every card the seat may read
    (`View.table_cards`: its hand, the clearing, every forest), the highlighted one's text
    beside it. Not only the options' cards: what an opponent's forest holds decides a turn."""

    BINDINGS = [Binding("escape,r,q", "close", show=False)]

    def __init__(self, view: View):
        super().__init__()
        self.view = view
        self.cards = view.table_cards()

    def compose(self) -> ComposeResult:
        with Vertical(id="readbox"):
            yield Static(Text(self.view.words("read.title"), style="bold"), id="readtitle")
            with Horizontal():
                yield OptionList(*(Text(c.label) for c in self.cards), id="readlist",
                                 markup=False)
                with VerticalScroll(id="readcard"):
                    yield Static(id="readtext")

    def on_mount(self) -> None:
        found = self.query_one("#readlist", OptionList)
        found.focus()
        if self.cards:
            found.highlighted = 0

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        k = event.option_index
        if 0 <= k < len(self.cards):
            self.query_one("#readtext", Static).update(Text("\n".join(
                self.view.table_card_text(self.cards[k]))))

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


class GameScreen(Panels):
    """The table, the player's forest and the others', the scores, the log and the choices."""

    # Two columns: the hand and the scores on the left, wide enough for every column of any
    # hand (`_size_left`: 70%, or more where an Italian Dartmoor hand needs it) and
    # at 120 x 40 tall enough for ten split cards above four players' scores; the clearing on
    # the right, and below it one pane of three, switched by a key the line above it names (t
    # the card's text, f the forests, l the log), each as tall as the column. The forests'
    # pane takes the table's whole width (`action_pane`): a late forest is a line per host,
    # wrapped so every side shows, and needs more lines than the right column holds.
    # The options below. Every panel scrolls (tab reaches it), so at 80 x 24 nothing is lost,
    # only further down.
    CSS = """
    #table { height: 1fr; }
    #left { width: 70%; }  /* wider where the hand needs it: _size_left */
    #right { width: 1fr; }
    #hand, #clearing, #card, #forest, #scores, #log, #choices {
        border: none; border-top: round $primary; }
    #hand:focus, #card:focus, #forest:focus, #scores:focus, #log:focus {
        border-top: round $accent; }
    #hand { height: auto; }
    #clearing { height: auto; }
    #panes { height: 1fr; }
    #card, #forest, #log { height: 1fr; min-height: 3; }
    #tabs { height: auto; }
    #choices { height: 11; }
    #status, #ask, #pay { height: auto; }
    #options { height: 1fr; }
    .-small #choices { height: 8; min-height: 8; }
    .-small #clearing { max-height: 4; }
    .-small #hand { height: 1fr; }
    #helpbox, #quit { width: 76; height: auto; max-height: 100%; border: thick $accent;
                      background: $panel; padding: 1 2; }
    #help { height: auto; }
    HelpScreen, QuitScreen, ReadScreen { align: center middle; }
    #readbox { width: 90%; height: 90%; border: thick $accent; background: $panel; }
    #readtitle { height: 1; }
    #readlist { width: 1fr; height: 1fr; }
    #readcard { width: 1fr; height: 1fr; }
    """
    BINDINGS = [
        Binding("question_mark", "help", "?"),
        Binding("q", "ask_quit", "quit"),
        Binding("f", "next_forest", "forest"),
        Binding("t", "pane('card')", show=False),
        Binding("l", "pane('log')", show=False),
        Binding("h", "hint", "hint"),
        Binding("r", "read", show=False),
        Binding("c", "confirm_pay", "confirm", show=False),
        Binding("space", "toggle_pay", show=False),
        Binding("escape", "back", show=False),
        Binding("ctrl+c,ctrl+q", "stop_now", show=False, priority=True),
        *(Binding(str(k), f"digit({k})", show=False) for k in range(10)),
    ]
    DIGIT_WAIT = 1.0  # seconds a first digit waits for a second (options 10 to 25)

    def __init__(self, cardset: CardSet, kinds: list[str], seed: int, *, names: list[str],
                 record: IO[str] | Sink | None = None, lang: str = "en", resume: list[str] | None = None,
                 legacy: bool = False):
        super().__init__()
        self.cardset, self.kinds, self.seed, self.names = cardset, kinds, seed, names
        self.record, self.lang, self.resume = record, lang, list(resume or ())
        self.legacy = legacy  # a resumed record of format 1 goes on by its rules
        self.words = Words(lang)
        self.handoff = Handoff()  # what the engine's thread and the screen's share
        self.game: Seat | None = None
        self.view: View | None = None
        self.decision: Decision | None = None
        self.picker: Picker | None = None  # the steps of the decision's answer, while asked
        self.shown = 0  # whose forest is shown
        self.hand_need: int | None = None  # the columns the hand shown needs
        self.hand_rows = 0  # ... and its rows
        self.clearing_text = ""
        self.card_text = ""
        self.forest_text = ""  # the forest shown, as its pane shows it
        self.outcome: runner.Outcome | None = None
        self.log_lines: list[str] = []
        self._gamelog: GameLog | None = None
        self._logged = 0  # log lines shown
        self._digit_timer: Any = None

    # what the picker holds, read by the drawing code and the tests; nothing while waiting
    @property
    def options(self) -> tuple[Step, ...]:
        """The list shown now (empty while paying or waiting)."""
        return self.picker.options if self.picker is not None else ()

    @property
    def lists(self) -> list[tuple[Step, ...]]:
        return self.picker.lists if self.picker is not None else []

    @property
    def payment(self) -> Payment | None:
        return self.picker.payment if self.picker is not None else None

    @property
    def picked(self) -> list[int]:
        return self.picker.picked if self.picker is not None else []

    @property
    def confirming(self) -> list[Action] | None:
        return self.picker.confirming if self.picker is not None else None

    # ---- layout --------------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="table"):
            with Vertical(id="left"):
                # no padding: `_fill` puts `HAND_GAP` blanks between columns, not two
                yield DataTable(id="hand", show_cursor=False, zebra_stripes=True, cell_padding=0)
                yield DataTable(id="scores", show_cursor=False)
            with Vertical(id="right"):
                yield Static(id="clearing")
                yield Static(id="tabs")
                with ContentSwitcher(id="panes", initial="card"):
                    with VerticalScroll(id="card"):
                        yield Static(id="cardtext")
                    with VerticalScroll(id="forest"):
                        yield Static(id="foresttext")
                    # a Static, wrapped to the pane whenever it is laid out: a log written
                    # while its pane is hidden wrapped at 20 columns for good
                    with VerticalScroll(id="log"):
                        yield Static(id="logtext")
        with Vertical(id="choices"):
            yield Static(id="ask")
            yield Static(id="pay")
            yield OptionList(id="options", markup=False, compact=True)

    def on_resize(self, event: Any) -> None:
        # below 40 lines (80 x 24): the options and the table panels give the hand room, and
        # the hand scrolls; from 40 on, ten split cards and the scores fit one above the other
        self.set_class(self.size.height < 40, "-small")
        self._size_left()
        self._size_choices()

    def on_mount(self) -> None:
        w = self.words
        self.title = f"grove · {edition_name(self.cardset, self.lang)}"
        self.query_one("#hand").border_title = w("hand")
        self.query_one("#clearing").border_title = w("clearing")
        self.query_one("#card").border_title = w("card")
        scores = self.query_one("#scores")
        scores.border_title = w("scores")
        scores.styles.height = len(self.kinds) + 2  # a row per player, the heading, the title
        self.query_one("#log").border_title = w("log")
        self.query_one("#choices").border_title = f"{w('actions')} · {w('hint')}"
        self.query_one("#pay").display = False
        self._tabs()
        self.query_one("#status", Static).update(Text(w("waiting")))
        self.run_worker(self._play, thread=True, exit_on_error=True)

    # ---- the engine's side (the worker thread) -------------------------------------------------
    def _play(self) -> None:
        seats = [ScreenPlayer(self.handoff, self.offer, self.call_from_thread)
                 if k == "human" else None for k in self.kinds]
        out = runner.play(self.cardset, self.kinds, self.seed, names=self.names,
                          record=self.record, on_action=self._acted,
                          players=runner.seats(self.kinds, self.seed, seats), resume=self.resume,
                          legacy=self.legacy)
        self.call_from_thread(self._over, out)

    def _acted(self, game: Game, action: Action) -> None:
        if self._gamelog is None:
            self._gamelog = GameLog(game.seats[self.kinds.index("human")], self.lang)
        # shown with the next decision or the end: an AI's turn takes a moment, and a redraw
        # per action would cost more than the turn
        self.log_lines.extend(self._gamelog.new_lines())
        self.handoff.check()

    # ---- the screen's side ---------------------------------------------------------------------
    def offer(self, game: Seat, decision: Decision) -> None:
        """Show the table and what `decision` asks; the answer goes to the handoff."""
        self.game, self.decision = game, decision
        self.view = view = View(game, self.lang)
        # a picker of its own: the question names no line of an earlier decision
        self.picker = Picker(view, decision)
        self._show_log()
        if decision.player != self.shown and self.kinds[self.shown] != "human":
            self.shown = decision.player
        self._draw(view)
        # an effect's further play starts at its payment, paid as the engine asks
        self._follow(self.picker.start())

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_card()

    # ---- picking (grove/seatview/picking.py holds the steps; the screen draws them) -----------
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "options":
            self._pick(event.option_index)

    def _pick(self, index: int) -> None:
        self._stop_digits()  # a line taken otherwise: the number typed is void
        if self.picker is not None:
            self._follow(self.picker.pick(index))

    def _follow(self, move: Move) -> None:
        """Draw what a step of the picker answers, or hand its actions to the engine."""
        match move:
            case Listing(items=_, asked=asked, path=path):
                self._ask(asked, path)
                self._show_list()
            case Paying(asked=asked, at=at):
                self._ask(asked)
                self._pay_list(at)
            case Answer(actions=actions):
                self._answer(list(actions))
            case Refused(key=key, values=values):
                self.notify(self.words(key, **values), severity="warning")
            case Typed(index=index):
                self.query_one("#options", OptionList).highlighted = index
                self._digit_timer = self.set_timer(self.DIGIT_WAIT, self._digit_done)

    def _answer(self, actions: list[Action]) -> None:
        self.decision, self.picker = None, None
        self.query_one("#options", OptionList).clear_options()
        self.query_one("#pay").display = False
        self.query_one("#ask", Static).update(Text(self.words("waiting")))
        self.handoff.answer(actions)

    def action_digit(self, digit: int) -> None:
        """A typed number picks its line: at once where no longer number could follow, else
        after a second digit, Enter or a second's wait (10 to 25 are two digits)."""
        if self.picker is None:
            return
        if self._digit_timer is not None:
            self._digit_timer.stop()
            self._digit_timer = None
        self._follow(self.picker.digit(digit))

    def _digit_done(self) -> None:
        self._digit_timer = None
        if self.picker is not None:
            self._follow(self.picker.typed_out())

    def _stop_digits(self) -> None:
        if self._digit_timer is not None:
            self._digit_timer.stop()
            self._digit_timer = None
        if self.picker is not None:
            self.picker.typed = ""

    def on_key(self, event: Any) -> None:
        if event.key == "enter":  # Enter takes the line of the number typed, highlighted
            self._stop_digits()

    def action_back(self) -> None:
        """A step back: from the payment to the river or the places, from a list to the one
        it came from. Nothing is taken before the payment is confirmed."""
        if self.picker is not None:
            self._stop_digits()
            self._follow(self.picker.back())

    # ---- paying --------------------------------------------------------------------------------
    def action_toggle_pay(self) -> None:
        if self.picker is not None and self.picker.payment is not None:
            k = self.query_one("#options", OptionList).highlighted
            if k is not None:
                self._follow(self.picker.toggle(k))

    def action_confirm_pay(self) -> None:
        if self.picker is not None:
            self._follow(self.picker.confirm())

    # ---- the rest of the keys ------------------------------------------------------------------
    def action_next_forest(self) -> None:
        """The forests' pane; once it shows, the next player's forest."""
        if self.game is None:
            return
        if self.query_one("#panes", ContentSwitcher).current == "forest":
            self.shown = (self.shown + 1) % len(self.game.players)
            self._draw_forest(View(self.game, self.lang))
        self.action_pane("forest")

    def action_pane(self, pane: str) -> None:
        """Show one of the right column's panes: the card's text, the forests or the log. The
        forests take the whole table's width, the hand and the scores hidden meanwhile: a late
        forest of a dozen hosts with Italian names wraps to thirty lines in the right column,
        and to fewer than twenty across the table."""
        self.query_one("#panes", ContentSwitcher).current = pane
        self.query_one("#left").display = pane != "forest"
        self._tabs()
        self._size_choices()
        if pane == "log":  # the last turns, which a hidden pane could not scroll to
            self.call_after_refresh(self.query_one("#log", VerticalScroll).scroll_end,
                                    animate=False)

    def action_hint(self) -> None:
        """What the search would play now, under the question (a second's search)."""
        if self.game is None or self.decision is None:
            return
        lines = View(self.game, self.lang).hint(self.decision)
        self.query_one("#ask", Static).update(Text("\n".join(lines)))

    def action_read(self) -> None:
        if self.game is not None and self.view is not None:
            self.push_screen(ReadScreen(self.view))

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
        self.handoff.stop()

    def _over(self, out: runner.Outcome) -> None:
        self.outcome = out
        if out.stopped:
            self.exit(out)
            return
        seat = out.game.seats[self.kinds.index("human")]
        view = View(seat, self.lang)
        self.decision, self.picker = None, None
        self._draw(view)
        self._show_log()
        self.query_one("#options", OptionList).clear_options()
        self.query_one("#pay").display = False
        # the final board, and every player's points card by card, where the card text was
        from grove.report import final_cards

        result = final_result(out)
        self.show_card_text("\n".join(final_cards(result, self.cardset, self.lang)))
        final = self.words("final.title", turns=result["turns"])
        self.query_one("#card").border_title = final
        self.query_one("#scores").border_title = final  # no longer "so far"
        self.action_pane("card")
        title, margin = final_words(result, self.lang)
        self.query_one("#ask", Static).update(Text(self.words(
            "over", winners=", ".join(out.winners)) + "  " + margin, style="bold"))

    def on_unmount(self) -> None:
        self.handoff.stop()  # a worker still waiting on the player ends




def play_on_screen(cardset: CardSet, kinds: list[str], seed: int, *, names: list[str],
                   record: IO[str] | Sink | None = None, lang: str = "en",
                   resume: list[str] | None = None, legacy: bool = False) -> runner.Outcome:
    """Play a game on the full screen; the outcome, finished or stopped, once the app closes."""
    app = GameScreen(cardset, kinds, seed, names=names, record=record, lang=lang, resume=resume,
                     legacy=legacy)
    out = app.run()
    if out is None:
        out = app.outcome
    if out is None:
        raise KeyboardInterrupt  # the screen closed before the game said how it ended
    return out
