"""The drawing half of the full screen (app.py): the panels of the table, the hand, the scores,
the clearing, the card's text, the forests, the log, the question and the options, each drawn
from the seat's view (grove/seatview/view.py) and sized to what it holds.

`Panels` is the app's base: what it draws it reads from the attributes `GameScreen` keeps (the
seat and its view, the picker of the decision asked); the keys, the picker's moves and the
engine's thread are app.py's. Nothing here changes the game or a picker.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import App
from textual.containers import VerticalScroll
from textual.widgets import ContentSwitcher, DataTable, OptionList, Static

from grove.engine import runner
from grove.engine.decision import Decision
from grove.engine.seat import Seat
from grove.seatview.picking import Picker
from grove.seatview.steps import Step
from grove.seatview.view import HAND_GAP, Grid, Payment, View, grid_width
from grove.seatview.words import Words

LOG_LINES = 200  # game log lines the log panel keeps
LEFT = 0.7  # the part of the screen's width the hand and the scores take, at least
RIGHT_MIN = 28  # ... and the right column's columns at least, where the hand needs more
CHOICES_MIN = 11  # the options' pane's lines at least (its title, the question, 9 options)
CARD_MIN = 10  # the card text's lines at least (a species is 6 to 9), below the clearing and the keys
ARROWS = {"top": "↑", "left": "←", "right": "→", "bottom": "↓"}  # a side in a narrow pane

class Panels(App[runner.Outcome | None]):
    """The game screen's panels, drawn; `GameScreen` (app.py) sets what they show."""

    # set by GameScreen
    words: Words
    kinds: list[str]
    game: Seat | None
    view: View | None
    decision: Decision | None
    picker: Picker | None
    options: tuple[Step, ...]  # the list shown (a property of GameScreen's) ...
    payment: Payment | None  # ... and the payment
    shown: int  # whose forest is shown
    hand_need: int | None  # the columns the hand shown needs
    hand_rows: int  # ... and its rows
    clearing_text: str
    card_text: str  # the card's pane's text
    forest_text: str  # the forest shown, as its pane shows it
    log_lines: list[str]
    _logged: int  # log lines shown

    def show_hand(self, grid: Grid) -> None:
        """The hand's table, and the left column as wide as it needs (`_size_left`)."""
        _fill(self.query_one("#hand", DataTable), grid, gap=HAND_GAP)
        self.hand_need = grid_width(grid, HAND_GAP)
        self.hand_rows = len(grid.rows)
        self._size_left()
        self._size_choices()

    def _size_left(self) -> None:
        """The left column as wide as the hand shown needs, where the screen leaves the right
        column `RIGHT_MIN` columns; else 70% (and a narrow screen's hand scrolls sideways).
        Every hand of English, German and Thai fits in 70% of 120 columns, and Italian's but
        Dartmoor's with its rabbit, a 'Coniglio nero del Dartmoor' of the types 'Coniglio,
        Animale con zampe', whose row alone takes 86 columns; the column narrows again once
        no such card is held, for the forests' pane wraps more lines in fewer columns."""
        if self.hand_need is None:
            return
        self.query_one("#left").styles.width = self._left_width()

    def _left_width(self) -> int:
        width = self.size.width
        return max(int(width * LEFT), min(self.hand_need or 0, width - RIGHT_MIN))

    def _size_choices(self) -> None:
        """The options' pane as tall as the table above leaves it: the table takes what the
        hand and the scores need, or the clearing whole and some card text, whichever is more,
        and the options the rest (at 120 x 40 a hand of six leaves them 20 lines, ten split
        cards 13), where a fixed pane showed 9 options above 15 blank lines. Below 40 lines
        the screen's CSS sizes them (`-small`)."""
        choices = self.query_one("#choices")
        height = self.size.height
        if height < 40 or self.hand_need is None:
            choices.styles.height = None
            return
        panes = self.query_one("#panes", ContentSwitcher).current
        if panes == "forest":  # the forests span the table: as many lines as the one shown
            width = self.size.width
            clearing = len(Text(self.clearing_text).wrap(self.console, width))
            table = clearing + 2 + 1 + len(Text(self.forest_text).wrap(self.console, width - 2))
        else:
            right = max(1, self.size.width - self._left_width())
            clearing = len(Text(self.clearing_text).wrap(self.console, right))
            left = self.hand_rows + 2 + len(self.kinds) + 2  # rows, heading, title; the scores
            table = max(left, clearing + 2 + CARD_MIN)
        choices.styles.height = max(CHOICES_MIN, height - 1 - table)

    def _show_log(self) -> None:
        """The game log's lines not yet shown (the panel keeps the last `LOG_LINES`)."""
        if self._logged == len(self.log_lines):
            return
        self._logged = len(self.log_lines)
        self.query_one("#logtext", Static).update(Text("\n".join(self.log_lines[-LOG_LINES:])))
        self.query_one("#log", VerticalScroll).scroll_end(animate=False)

    def _ask(self, decision: Decision, path: tuple[str, ...] = ()) -> None:
        """The question, and the lines chosen on the way to the list shown (`play Oak › `)."""
        assert self.game is not None and self.view is not None
        ask = self.words("ask", player=self.game.players[decision.player].name,
                         ask=self.view.ask(decision))
        if path:
            ask += " › " + " › ".join(path)
        self.query_one("#ask", Static).update(Text(ask, style="bold"))

    def _show_list(self) -> None:
        """The list on top, numbered, the highlighted line's card shown beside."""
        self.query_one("#pay").display = False
        options = self.query_one("#options", OptionList)
        options.clear_options()
        options.add_options([Text(f"{k:>2}. {s.label}" + (" …" if s.action is None else ""))
                             for k, s in enumerate(self.options, 1)])
        options.highlighted = 0
        options.focus()
        self._show_card()

    def _show_card(self) -> None:
        """The highlighted line's card in full: each half's kind, cost, types, symbols and
        rules in words (`View.card_text`), or what the line names no card."""
        view = self.view
        found = self.query("#options")
        if view is None or not found:  # the screen is closing
            return
        k = found.first(OptionList).highlighted
        card = None
        paying = self.picker.pay_cards if self.payment is not None and self.picker else []
        if paying and k is not None and 0 <= k < len(paying):
            card = paying[k]
        elif k is not None and 0 <= k < len(self.options):
            card = self.options[k].card
        text = "\n".join(view.card_text(card)) if card is not None else self.words("card_none")
        self.show_card_text(text)

    def show_card_text(self, text: str) -> None:
        """The card's pane from its top, where its text changes. A list shown draws its first
        line's card, and its highlight, announced after, asks the same text again: laying the
        screen out anew for it would cost a frame each time a list is shown."""
        if text == self.card_text:
            return
        self.card_text = text
        self.query_one("#cardtext", Static).update(Text(text))
        self.query_one("#card", VerticalScroll).scroll_home(animate=False)

    def _draw(self, view: View) -> None:
        game = view.game
        w = self.words
        me = self.decision.player if self.decision is not None else game.seat
        # one line at 120 columns with four players and three editions: the hands are counted
        # in the score panel, the keys named above the options
        status = " · ".join((view.title(), game.players[me].name, view.table_line(hands=False)))
        self.query_one("#status", Static).update(Text(status))
        hand = view.hand(me, self.decision)
        grid = view.hand_grid(hand)
        self.show_hand(grid if grid.rows else Grid(grid.columns, ((w("empty"), "", "", "", ""),)))
        self.clearing_text = ", ".join(view.card_name(c) for c in view.clearing()) or w("empty")
        self.query_one("#clearing", Static).update(Text(self.clearing_text))
        self._draw_forest(view)
        _fill(self.query_one("#scores", DataTable), view.scores_by_player())
        self._size_choices()

    def _draw_forest(self, view: View) -> None:
        box = self.query_one("#forest", VerticalScroll)
        box.border_title = self.words("forest", player=view.game.players[self.shown].name)
        self.forest_text = self.forest_pane_text(view, self.shown)
        self.query_one("#foresttext", Static).update(Text(self.forest_text))
        self._size_choices()

    def forest_pane_text(self, view: View, player: int) -> str:
        """A player's forest as the forests' pane shows it."""
        p = view.game.players[player]
        # the cave on a line of its own: the pane's title is cut where the pane is narrow
        return "\n".join((
            self.words("cave", count=p.cave_size),
            *(forest_lines(view.forest(player), view.forest_sides())
              if p.forest.hosts else [self.words("empty")])))

    def _pay_list(self, at: int | None) -> None:
        """The cards to pay with, each marked `[x]` picked or `[ ]` not (not by colour only);
        `at`: the line just picked, else (the payment shown first) the first."""
        picker, view = self.picker, self.view
        assert picker is not None and view is not None
        self.query_one("#pay").display = True
        options = self.query_one("#options", OptionList)
        options.clear_options()
        options.add_options([Text(f"{k:>2}. [{'x' if c in picker.picked else ' '}] "
                                  f"{view.card_details(c)}",
                                  style="bold" if c in picker.picked else "")
                             for k, c in enumerate(picker.pay_cards, 1)])
        options.highlighted = at if at is not None else 0
        self._pay_note()
        if at is None:
            options.focus()
            self._show_card()

    def _pay_note(self) -> None:
        picker, view = self.picker, self.view
        if picker is None or picker.payment is None or view is None:
            return
        pay, w = picker.payment, self.words
        lines = [w("pay_title", card=pay.card, count=pay.count),
                 w("pay_picked", picked=len(picker.picked), count=pay.count) + " · "
                 + w("pay_keys") + " · " + w("pay_mark"),
                 view.bonus_note(pay, picker.picked)]
        self.query_one("#pay", Static).update(Text("\n".join(lines)))

    def _tabs(self) -> None:
        """The line above the panes: each pane by its key, the one shown marked (not by colour
        only: `▸` and brackets)."""
        w = self.words
        current = self.query_one("#panes", ContentSwitcher).current
        line = Text()
        for key, pane, word in (("t", "card", w("card")), ("f", "forest", w("forests")),
                                ("l", "log", w("tab.log"))):
            if line:
                line.append(" │ ", style="dim")
            if pane == current:
                line.append(f"▸[{key}] {word}", style="bold reverse")
            else:
                line.append(f"{key}: {word}")
        self.query_one("#tabs", Static).update(line)


def forest_lines(grid: Grid, sides: list[str] | None = None) -> list[str]:
    """A forest grid as a line per host, its sides one after the other: by name (`top: Squirrel
    │ left: Red Fox, ·`), or with `sides` (the grid's side ids) by an arrow (`↑Squirrel ←Red
    Fox, ·`), which a first line explains. Wrapped where the pane is narrow, so every side
    shows; the arrows keep a late forest of a dozen hosts within the pane at 120 x 40."""
    names = grid.columns[2:]
    marks = [ARROWS.get(s, s) for s in sides] if sides else [f"{n}: " for n in names]
    sep = " " if sides else "  │ "
    out = [" ".join(f"{m} {n}" for m, n in zip(marks, names, strict=True))] if sides else []
    for row in grid.rows:
        cells = [f"{m}{cell}" for m, cell in zip(marks, row[2:], strict=True) if cell]
        out.append(f"{row[0]:>2} {row[1]}" + (sep + sep.join(cells) if cells else ""))
    return out


def _fill(table: DataTable, grid: Grid, gap: int = 0) -> None:
    """`grid` into `table`; `gap`: blanks before every column but the first (the hand's
    table, which has no cell padding)."""
    def cells(row: tuple[str, ...]) -> tuple[Text, ...]:
        return tuple(Text(" " * gap + c if k else c) for k, c in enumerate(row))

    table.clear(columns=True)
    table.add_columns(*cells(grid.columns))
    table.add_rows([cells(row) for row in grid.rows])
