"""The full screen fits at 120 x 40 with two to four players (issue 29 item 4): at every
decision of a game the hand shows every card with all its columns, the score panel every
player's name and row, and each player's forest (the forests' pane, `f`, the table wide) every
side of every host without scrolling; the widest hand each edition can deal fits too, in
English, German, Italian and Thai. At 80 x 24 the panes scroll and switch by keys the help
names, and the help scrolls to its every line.

Whole games, the human against greedy AIs, played with Enter alone: base with both expansions
in English (most of their cards are split), Smoky Mountains and Dartmoor in Italian (the
longest names, the widest hand), Smoky Mountains in Thai; each step of a decision checked in
the pane it comes in, the card's text or the forests, then in the other, each table shown once
(a pane switched to, a forest drawn, only for a table not laid out before); some 8 s of CPU a
game. The widest hands of three editions in four languages 11 s; the help
a second a language.
"""

from __future__ import annotations

import asyncio
import io

import pytest

from tests.test_play_terminal import _drive, _until

pytestmark = pytest.mark.usefixtures("quick_pilot")  # tests/conftest.py


def _fits(app, selector: str) -> None:
    from textual.widgets import DataTable

    table = app.query_one(selector, DataTable)
    # the panel whole within the table's area: not cut by its column or the options below
    assert app.query_one("#table").region.contains_region(table.region), (
        selector, table.region, app.query_one("#table").region)
    assert table.virtual_size.width <= table.size.width, (selector, table.virtual_size,
                                                          table.size)
    assert table.virtual_size.height <= table.size.height, (selector, table.virtual_size,
                                                            table.size)


def _fits_both_columns(app) -> None:
    """The card's text shown: the hand and the scores each fit their panel."""
    assert app.query_one("#left").display
    _fits(app, "#hand")
    _fits(app, "#scores")


@pytest.mark.parametrize(("edition", "expansions", "lang", "players"), [
    ("base", ["alpine", "woodland_edge"], "en", 4),
    ("smoky_mountains", [], "it", 2),  # the longest names: a late forest's thirty lines wrapped
    ("dartmoor", [], "it", 4),  # ... and the widest hand, the rabbit's
    ("smoky_mountains", [], "th", 3),  # Thai: measured in cells, as the screen draws it
])
def test_every_decision_fits_at_120x40(edition, expansions, lang, players):
    """Every decision of a whole game: the hand and the scores fit their panels both ways, and
    every player's forest fits the forests' pane, which spans the table (no line beyond its
    width or height)."""
    from grove.compiler import cardset as cs
    from grove.terminal.app import GameScreen

    names = ["Ana", *(f"Greedy {k}" for k in range(2, players + 1))]
    app = GameScreen(cs.build(edition, expansions), ["human", *["greedy"] * (players - 1)], 1,
                     names=names, lang=lang, record=io.StringIO())
    checked = []
    laid: dict[tuple, tuple] = {}  # each table shown: where its panels lay

    async def play() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            while True:
                # every step of every decision, as drawn when it is asked
                await _until(pilot, lambda: app.outcome is not None or app.decision is not None)
                if app.outcome is not None:
                    break
                await pilot.pause(0)  # laid out
                # the step is checked in the pane it comes in, the card's text or the forests
                # (that which the last step left), then in the other, and every player's forest
                # in the forests' pane: each table not yet laid out is shown (a pane switch, a
                # forest drawn), and one laid out before fits as it did (`_laid_out`)
                if _current(app) == "card":
                    _cards_fit(app, laid)
                    if any(_forest_key(app, j) not in laid for j in range(players)):
                        await pilot.press("f")  # the forests, the table wide
                        await pilot.pause(0)
                        await _forests_fit(app, pilot, laid)
                else:
                    await _forests_fit(app, pilot, laid)
                    if _cards_key(app) not in laid:
                        await pilot.press("t")  # the two columns: the hand, the scores
                        await pilot.pause(0)
                        _cards_fit(app, laid)
                checked.append(len(app.game.players[0].forest.hosts))
                await _drive(app, pilot, presses=1)
            await pilot.press("q")

    asyncio.run(play())
    assert len(checked) > 50 and max(checked) >= 6


# A table's panels at 120 x 40 are laid out from what the table shows: the status line, the
# clearing, the hand and the scores (the card's pane) or the forest shown (the forests' pane);
# the options below take the lines these leave (`Panels._size_choices`), whatever they list.
# So a table laid out once is checked once: between two steps of a decision nothing of it
# changes, between two decisions the forests of players who did not play neither. Wherever one
# is laid out again anyway (the pane a step comes in), it must lie where it lay.
def _current(app) -> str:
    from textual.widgets import ContentSwitcher

    return app.query_one("#panes", ContentSwitcher).current


def _shown(table) -> tuple:
    return (tuple(str(c.label) for c in table.ordered_columns),
            tuple(tuple(map(str, table.get_row_at(k))) for k in range(table.row_count)))


def _cards_key(app) -> tuple:
    from textual.widgets import DataTable

    return ("card", str(app.query_one("#status").render()), app.clearing_text,
            *(_shown(app.query_one(t, DataTable)) for t in ("#hand", "#scores")))


def _forest_key(app, player: int) -> tuple:
    return ("forest", str(app.query_one("#status").render()), app.clearing_text,
            app.forest_pane_text(app.view, player))


def _laid_out(laid: dict, key: tuple, regions: tuple) -> None:
    assert laid.setdefault(key, regions) == regions, ("the same table laid out otherwise", key)


def _cards_fit(app, laid: dict) -> None:
    """The card's pane shown: the hand and the scores fit."""
    _fits_both_columns(app)
    _laid_out(laid, _cards_key(app), tuple((w.region, w.virtual_size) for w in app.query(
        "#table, #hand, #scores, #choices")))


async def _forests_fit(app, pilot, laid: dict) -> None:
    """The forests' pane shown: the forest it shows fits, then each other player's not yet
    laid out, drawn in it."""
    from textual.containers import VerticalScroll

    assert _current(app) == "forest" and not app.query_one("#left").display
    forest = app.query_one("#forest", VerticalScroll)
    shown = app.shown
    drawn = next(j for j in range(len(app.kinds))
                 if app.forest_pane_text(app.view, j) == app.forest_text)
    for j in (drawn, *(j for j in range(len(app.kinds)) if j != drawn)):
        key = _forest_key(app, j)
        if j != drawn:
            if key in laid:
                continue
            app.shown = j
            app._draw_forest(app.view)
            await pilot.pause(0)
        assert forest.max_scroll_y == 0, (j, forest.virtual_size, forest.size)
        assert forest.virtual_size.width <= forest.size.width
        _laid_out(laid, key, tuple((w.region, w.virtual_size) for w in app.query(
            "#table, #forest, #choices")))
    app.shown = shown


def _cards(view) -> list[int]:
    """Every card number of the game but the winter cards."""
    cards, card = [], 0
    while True:
        try:
            halves = view.game.halves(card)
        except IndexError:
            return cards
        cards += [card] if halves else []
        card += 1


def _widest_hand(view) -> list[int]:
    """Ten cards as wide as any hand of the game can be, by construction: for each column of
    the hand's table a card with its widest cell (over every card of the game), then the split
    cards with the widest rows, so the hand holds close to twenty rows."""
    from rich.cells import cell_len

    cards = _cards(view)
    rows = {c: view.hand_grid([c]).rows for c in cards}
    hand: list[int] = []
    for k in range(5):
        widest = max(cards, key=lambda c: max(cell_len(r[k]) for r in rows[c]))
        hand += [widest] if widest not in hand else []
    split = sorted((c for c in cards if len(rows[c]) == 2 and c not in hand),
                   key=lambda c: -max(sum(map(cell_len, r)) for r in rows[c]))
    return hand + split[:10 - len(hand)]


def _widest_split_cards(view, count: int = 10) -> list[int]:
    """`count` split cards of the game, those with the widest rows first."""
    from rich.cells import cell_len

    split = [c for c in _cards(view) if len(view.halves(c)) == 2]
    return sorted(split, key=lambda c: -max(sum(map(cell_len, r))
                                            for r in view.hand_grid([c]).rows))[:count]


@pytest.mark.parametrize("lang", ["en", "de", "it", "th"])
@pytest.mark.parametrize(("edition", "expansions"), [("base", ["alpine", "woodland_edge"]),
                                                     ("dartmoor", []),
                                                     ("smoky_mountains", [])])
def test_the_widest_hands_fit_beside_four_players_scores(edition, expansions, lang):
    """The widest hand a game can hold (a card with each column's widest cell, the rest split
    cards with the widest rows), and ten split cards of the widest rows, in the hand panel at
    120 x 40 above four players' scores, in each language: every row and column shows, as
    wide as the widest cells of every card of the game (no hand is wider), Thai measured in
    terminal cells as the screen draws it. A second each (the app up to the first decision)."""
    from rich.cells import cell_len
    from textual.widgets import DataTable

    from grove.compiler import cardset as cs
    from grove.seatview.view import HAND_GAP
    from grove.terminal.app import GameScreen

    cset = cs.build(edition, expansions)
    app = GameScreen(cset, ["human", "greedy", "greedy", "greedy"], 1, lang=lang,
                     names=["Ana", "Greedy 2", "Greedy 3", "Greedy 4"], record=io.StringIO())

    async def play() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await _until(pilot, lambda: app.decision is not None)
            view = app.view
            every = view.hand_grid(_cards(view))
            widest = [max(cell_len(r[k]) for r in (every.columns, *every.rows))
                      for k in range(len(every.columns))]
            hand = app.query_one("#hand", DataTable)
            for cards, rows in ((_widest_hand(view), 15), (_widest_split_cards(view), 20)):
                assert len(cards) == 10
                grid = view.hand_grid(cards)
                app.show_hand(grid)
                await pilot.pause()
                assert hand.row_count == len(grid.rows) >= rows
                _fits(app, "#hand")
                _fits(app, "#scores")
                # every cell whole: each column as wide as its widest cell
                shown = [c.get_render_width(hand) for c in hand.ordered_columns]
                assert shown == [w + (HAND_GAP if k else 0) for k, w in enumerate(
                    max(cell_len(r[k]) for r in (grid.columns, *grid.rows))
                    for k in range(len(grid.columns)))]
            # the constructed hand is as wide as any hand of the game can be: each column's
            # widest cell of every card
            app.show_hand(view.hand_grid(_widest_hand(view)))
            await pilot.pause()
            assert hand.virtual_size.width == sum(widest) + HAND_GAP * 4 == view.hand_width()
            # the right column keeps its 36 columns but where the hand needs more (Italian
            # Dartmoor's rabbit), and has them again once the hand no longer does
            right = app.query_one("#right").size.width
            assert right == 36 or (edition, lang) == ("dartmoor", "it") and right >= 28
            app.show_hand(view.hand_grid(_cards(view)[:1]))
            await pilot.pause()
            assert app.query_one("#right").size.width == 36
            await pilot.press("q", "y")
            await _until(pilot, lambda: app.outcome is not None)

    asyncio.run(play())


def test_a_full_hand_drawn_in_a_four_player_game_fits(classic):
    """The human draws until the hand holds ten cards; each decision on the way fits."""
    from grove.terminal.app import GameScreen

    app = GameScreen(classic, ["human", "greedy", "greedy", "greedy"], 2,
                     names=["Ana", "Greedy 2", "Greedy 3", "Greedy 4"], record=io.StringIO())

    async def play() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            while len(app.game.hand if app.game else ()) < 10:
                await _until(pilot, lambda: app.decision is not None and bool(app.options))
                await pilot.pause()  # the panels laid out anew for the decision
                _fits(app, "#hand")
                _fits(app, "#scores")
                # the first line is a draw while the hand is not full
                asked = app.decision
                await pilot.press(*(["1", "enter"] if len(app.options) >= 10 else ["1"]))
                await _until(pilot, lambda asked=asked: app.decision is not asked)
            await _until(pilot, lambda: app.decision is not None)
            await pilot.pause()
            _fits(app, "#hand")
            await pilot.press("q", "y")
            await _until(pilot, lambda: app.outcome is not None)

    asyncio.run(play())


def test_the_panes_switch_by_keys_the_screen_and_the_help_name(base):
    """t, f and l show the card's text, the forests (the table wide, the hand hidden) and the
    log; f again the next player's forest; the line above the panes names the keys and marks
    the pane shown beyond colour; the help names them, at 80 x 24."""
    from textual.widgets import ContentSwitcher

    from grove.terminal.app import GameScreen

    app = GameScreen(base, ["human", "greedy"], 3, names=["Ana", "Greedy 2"],
                     record=io.StringIO())

    async def play() -> str:
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: app.decision is not None)
            panes = app.query_one("#panes", ContentSwitcher)
            tabs = app.query_one("#tabs")
            assert panes.current == "card" and "▸[t] Card" in str(tabs.render())
            await pilot.press("f")
            assert panes.current == "forest" and app.shown == 0
            assert not app.query_one("#left").display  # the forests the table wide
            assert "▸[f] Forests" in str(tabs.render()) and "t: Card" in str(tabs.render())
            await pilot.press("f")
            assert panes.current == "forest" and app.shown == 1
            assert "Greedy 2" in str(app.query_one("#forest").border_title)
            await pilot.press("l")
            assert panes.current == "log" and app.query_one("#left").display
            await pilot.press("t")
            assert panes.current == "card"
            await pilot.press("question_mark")
            help_text = str(app.screen.query_one("#help").render())
            await pilot.press("escape", "q", "y")
            await _until(pilot, lambda: app.outcome is not None)
            return help_text

    help_text = asyncio.run(play())
    for key in ("t: the highlighted card's text", "f: the forests", "l: the last turns"):
        assert key in help_text, key


@pytest.mark.parametrize(("lang", "height"), [("en", 24), ("de", 24), ("it", 24), ("th", 24),
                                             ("en", 16), ("th", 16)])
def test_every_help_line_can_be_reached_at_80x24(base, lang, height):
    """At 80 x 24 the help fills its box within a line (19 or 17 of 20 lines); a line more, or
    a lower screen, and it scrolls by the keys its second line names (down, page down):
    scrolled to its end, every line of the help has shown, the last one included (at 80 x 16,
    seven of them below the box at first)."""
    from textual.containers import VerticalScroll

    from grove.seatview.words import Words
    from grove.terminal.app import GameScreen

    app = GameScreen(base, ["human", "greedy"], 3, names=["Ana", "Greedy 2"], lang=lang,
                     record=io.StringIO())
    w = Words(lang)

    async def play() -> None:
        async with app.run_test(size=(80, height)) as pilot:
            await _until(pilot, lambda: app.decision is not None)
            await pilot.press("question_mark")
            await pilot.pause()
            box = app.screen.query_one("#helpbox", VerticalScroll)
            text = str(app.screen.query_one("#help").render())
            assert text.splitlines()[1] == w("keys.scroll")  # said before anything is cut
            lines = box.virtual_size.height  # the help's lines as wrapped in the box
            if height < 24:  # it does not fit: it scrolls
                assert lines > box.scrollable_content_region.height
            seen: set[int] = set()
            for key in ["down"] * 3 + ["pagedown"] * (lines // 4 + 1):
                top = round(box.scroll_y)
                seen |= set(range(top, top + box.scrollable_content_region.height))
                await pilot.press(key)
                await pilot.pause()
            top = round(box.scroll_y)
            seen |= set(range(top, top + box.scrollable_content_region.height))
            assert set(range(lines)) <= seen, sorted(set(range(lines)) - seen)
            assert box.scroll_y == box.max_scroll_y
            await pilot.press("escape", "q", "y")
            await _until(pilot, lambda: app.outcome is not None)

    asyncio.run(play())
