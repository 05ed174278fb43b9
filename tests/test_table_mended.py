"""What a person who lost two whole games to `mcts` at the terminal tripped over (issue 43, item
9), mended where the terminal and the browser table share it (grove/seatview/) or in the
terminal's own screen: each fault as the person met it, then what the table does now.

Small games: two players, greedy; the screen driven by Textual's pilot at 120 x 40.
"""

from __future__ import annotations

import asyncio
import io
import json
from types import SimpleNamespace

import pytest

from grove.engine import runner
from grove.engine.decision import Decision
from grove.engine.events import Event
from grove.engine.game import Game
from grove.engine.mcts import Ranked
from grove.engine.seat import HIDDEN
from grove.seatview.steps import Step, bounded, leaves, steps
from grove.seatview.view import View
from tests.test_play_terminal import _drive, _screen_text, _until

pytestmark = pytest.mark.usefixtures("quick_pilot")  # tests/conftest.py


def _greedy_until(cset, seed: int, done, limit: int = 2000):
    """A greedy game of two, played until `done(game)`: the game, or None if it ended first."""
    game = Game(cset, ["Ana", "Ben"], seed)
    players = runner.seats(["greedy", "greedy"], seed)
    for _ in range(limit):
        d = game.decision
        if d is None:
            return None
        if done(game):
            return game
        game.apply(players[d.player].choose(game.seats[d.player], d))
    return None


# ---- the steps ---------------------------------------------------------------------------------
def test_a_run_names_the_card_once(base):
    """A run of 30 places read "Tree Ferns at 26 Sapling … Tree Ferns at 26 Sapling": its last
    line now reads from where it differs from its first."""
    view = View(Game(base, ["Ana", "Ben"], 1).seats[0])
    items = [Step(f"Tree Ferns at {k} Sapling, top (+{k % 3} points now)", points=k % 3)
             for k in range(1, 31)]
    runs = bounded(view, items)
    assert [r.label for r in runs] == [
        "Tree Ferns at 1 Sapling, top (+1 points now) … 25 Sapling, top (+1 points now)",
        "Tree Ferns at 26 Sapling, top (+2 points now) … 30 Sapling, top (+0 points now)"]
    assert [r.points for r in runs] == [2, 2]  # the best of each run


def test_a_side_names_the_most_points_of_its_places():
    """A list of places grouped by the half's side named no points: each side now says the
    most any of its places gains, as a place does, and keeps it for a screen to show."""
    from grove.compiler import cardset as cs

    cset = cs.build("base", ["alpine"])
    seen = []

    def grouped(game) -> bool:
        d = game.decision
        view = View(game.seats[d.player])
        for card in steps(view, d):
            for side in card.below:
                if side.action is None and side.below and side.below[0].action is not None:
                    best = max(s.points for s in leaves(side.below))
                    assert side.points == best
                    assert view.words("points", points=f"{best:+d}", count=best) in side.label
                    seen.append(side.label)
        return len(seen) >= 3

    assert _greedy_until(cset, 4, grouped) is not None, "no list of places was grouped by side"


# ---- the forest, the cards on the table, the end -----------------------------------------------
@pytest.fixture(scope="module")
def smoky():
    from grove.compiler import cardset as cs

    return cs.build("smoky_mountains")


def _river_beneath(game) -> bool:
    return any(h.beneath for p in game.players for h in p.forest.hosts)


def test_a_trees_river_stands_in_the_forest_grid(smoky):
    """The card a tree with a river is played on, face down beneath it, was missing from the
    forest's grid: its row now says it lies there, in the seat's language."""
    game = _greedy_until(smoky, 1, _river_beneath)
    assert game is not None
    i = next(i for i, p in enumerate(game.players) if any(h.beneath for h in p.forest.hosts))
    k = next(h.index for h in game.players[i].forest.hosts if h.beneath)
    for lang, word in (("en", "1 card beneath, face down"), ("de", "1 Karte verdeckt darunter"),
                       ("it", "1 carta capovolta sotto"), ("th", "การ์ดคว่ำอยู่ข้างใต้ 1 ใบ")):
        grid = View(game.seats[0], lang).forest(i)
        assert grid.rows[k][1].endswith(" + " + word), grid.rows[k]
        assert sum(word in r[1] for r in grid.rows) == sum(
            1 for h in game.players[i].forest.hosts if h.beneath)


def test_every_card_face_up_on_the_table_can_be_read(base):
    """Only the options' cards could be read: now every card face up on the table, the other
    player's forest too, each with its text; none lying face down."""
    game = _greedy_until(base, 2, lambda g: g.turn >= 20 and g.decision.player == 0)
    assert game is not None
    view = View(game.seats[0])
    cards = view.table_cards()
    other = [c for c in cards if c.label.startswith("Forest of Ben: ")]
    face_up = [c for h in game.players[1].forest.hosts
               for c in (h.card, *(x for sd in h.kind.slots for x in h.slots[sd.id]))
               if c.species is not None]
    assert len(other) == len(face_up) > 3
    assert {c.card for c in other} == {c.number for c in face_up}
    assert len([c for c in cards if c.label.startswith("Hand: ")]) == len(game.players[0].hand)
    for c in other:  # the half that lies there, by its name
        assert c.species is not None
        assert view.table_card_text(c)[0].startswith(view.species_label(c.species) + " [")


def test_the_german_end_list_names_a_trees_river(smoky):
    """"tree_with_river" stood untranslated on the German list of each forest's points: the
    card beneath a tree is named by its host's kind, and lies "darunter"."""
    from grove.report import final_cards
    from grove.terminal.app import final_result

    out = runner.play(smoky, ["greedy", "greedy"], 1, names=["Ana", "Ben"])
    result = final_result(out)
    assert any(c["slot"] == "beneath" for p in result["players"] for c in p["cards"])
    text = "\n".join(final_cards(result, smoky, "de"))
    assert "tree_with_river" not in text and "beneath" not in text
    assert "Baum mit Fluss (" in text and ", darunter)" in text


# ---- the log -----------------------------------------------------------------------------------
def test_an_effect_that_did_nothing_says_nothing(base):
    """An effect with nothing to do printed its heading ("Eichhörnchen: Effekt") with nothing
    under it: now the heading comes with the first thing the effect does, and only then."""
    from grove.game_log import GameLog

    idle, busy = "base:european_badger", "base:red_squirrel"
    fake = SimpleNamespace(
        cardset=base, players=[SimpleNamespace(name="Ana"), SimpleNamespace(name="Ben")],
        events=[Event(0, 0, "effect", species=idle),
                Event(1, 1, "effect", species=busy),
                Event(1, 1, "move", cards=(HIDDEN,), source="deck", target="hand")])
    lines = GameLog(fake, "de").new_lines()
    idle_name, busy_name = (base.species[k].name("de") for k in (idle, busy))
    assert lines == ["Zug 1: Ana", "Zug 2: Ben", f"  {busy_name}: Effekt",
                     "    zieht eine Karte"]
    assert idle_name not in "\n".join(lines)


# ---- the hint ----------------------------------------------------------------------------------
def test_the_hint_ranks_by_the_best_mean_once_per_play_in_the_languages_numbers(base):
    """The hint listed the most tried plays first, two rows of the same words (two copies of a
    card, paid differently), and "+1.9" in German: now the best mean margin first, a play
    once (its tries summed, its margins weighed by them), and the language's decimal mark."""
    game = Game(base, ["Ana", "Ben"], 3)
    d = game.decision
    view = View(game.seats[0], "de")

    def label(text: str) -> str:
        return view.describe(d.read(text), 0, d)

    a = d.options[-1]
    b = next(t for t in d.options if label(t) not in (label(a), label("draw deck")))
    ranked = [Ranked("draw deck", 60, 0.5, 1.0), Ranked("draw deck", 20, 0.5, 3.0),
              Ranked(a, 30, 0.6, 1.9), Ranked(b, 5, 0.9, 9.0)]
    assert view.hint_rows(d, ranked) == [(label(a), 30, 1.9), (label("draw deck"), 80, 1.5)]
    assert view.signed(1.94) == "+1,9" and View(game.seats[0], "th").signed(1.94) == "+1.9"
    assert View(game.seats[0], "it").signed(-0.25) == "-0,2"


# ---- the line mode -----------------------------------------------------------------------------
def test_a_forced_option_is_taken_and_the_first_decision_shows_the_board(base):
    """A decision of one option asked "choose 1-1": it is said and taken. And a game resumed at
    a decision that is no turn's (a payment) opened with the question alone: the first
    decision a person meets shows the board whatever it asks."""
    from grove.terminal.line import LinePlayer

    game = Game(base, ["Ana", "Ben"], 3)
    seat = game.seats[0]
    card = seat.hand[0]
    d = Decision(0, "choose", (f"choose {card}",), "a card", game.actions)
    out = io.StringIO()
    player = LinePlayer(io.StringIO(""), out)  # no input: a question would stop the game
    assert player.choose(seat, d).text == f"choose {card}"
    text = out.getvalue()
    assert "only one option: " in text and "choose 1-" not in text
    assert "Clearing:" in text and "Forest of Ana" in text  # the board, at a choice
    out.truncate(0)
    player.choose(seat, d)
    assert "Clearing:" not in out.getvalue()  # once; then at each turn


# ---- the screen --------------------------------------------------------------------------------
def test_a_play_with_nothing_to_pay_is_confirmed_and_back_undoes_it(base):
    """A play of cost 0 was taken on one key: now it asks once more (Enter or c), and Escape
    goes back to the places with nothing taken. The question line kept the last play of an
    earlier turn: each decision's question names only its own steps."""
    from grove.terminal.app import GameScreen

    record = io.StringIO()
    app = GameScreen(base, ["human", "greedy"], 3, names=["Ana", "Greedy 2"], record=record)

    def taken() -> int:
        return len(record.getvalue().splitlines())

    async def play() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await _until(pilot, lambda: app.decision is not None)
            await pilot.press("2")  # Horse Chestnut ...
            await _until(pilot, lambda: len(app.lists) == 2)
            await pilot.press("1")  # ... as a tree, paid with one card
            await _until(pilot, lambda: app.payment is not None)
            await pilot.press("1", "c")
            await _until(pilot, lambda: app.decision is not None and app.game.turn == 2)
            ask = str(app.query_one("#ask").render())
            assert "›" not in ask, ask  # the first turn's "› play Horse Chestnut" is gone
            before = taken()
            label = next(k for k, s in enumerate(app.options, 1)
                         if s.label.startswith("play Camberwell Beauty / Fireflies"))
            await pilot.press(str(label))
            await _until(pilot, lambda: len(app.lists) == 2)
            await pilot.press("1")  # the butterfly on the tree: cost 0
            await _until(pilot, lambda: app.confirming is not None)
            assert taken() == before and app.options[0].label.startswith("confirm: play ")
            await pilot.press("escape")
            await _until(pilot, lambda: app.confirming is None and len(app.lists) == 2)
            assert taken() == before and app.decision is not None
            await pilot.press("1")
            await _until(pilot, lambda: app.confirming is not None)
            await pilot.press("enter")
            await _until(pilot, lambda: taken() > before)
            await pilot.press("q", "y")
            await _until(pilot, lambda: app.outcome is not None)

    asyncio.run(play())
    actions = [json.loads(x).get("action") for x in record.getvalue().splitlines()]
    play = [a for a in actions if a and a.startswith("play ")][-1]  # the last action taken
    assert play.startswith("play ") and " 0." in play  # a half of it, on the first tree


def test_two_digits_are_one_number_and_a_number_past_the_list_is_refused(base):
    """On a list of 12, "1" then "3" took option 3: now the digits are the number 13, which
    the list has not, so nothing is taken and the screen says why; "1", "2" takes the 12th."""
    from grove.terminal.app import GameScreen

    app = GameScreen(base, ["human", "greedy"], 3, names=["Ana", "Greedy 2"])
    app.DIGIT_WAIT = 30  # the second digit is never late in a test

    async def play() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await _until(pilot, lambda: app.decision is not None)
            # a list of 12 whose lines open lists, so that a pick takes nothing
            twelve = tuple(Step(f"line {k}", below=(Step(f"below {k}"),)) for k in range(1, 13))
            app.lists.append(twelve)
            app._show_list()
            await pilot.press("1", "3")
            await pilot.pause()
            assert app.lists[-1] is twelve  # nothing taken: not 3, nor 13
            assert any("there is no option 13" in str(n.message)
                       for n in app._notifications)
            await pilot.press("1", "2")
            await _until(pilot, lambda: app.lists[-1] == twelve[11].below)
            await pilot.press("q", "y")
            await _until(pilot, lambda: app.outcome is not None)

    asyncio.run(play())


def test_the_options_fill_the_screen_and_the_clearing_and_log_are_whole(base):
    """At 120 x 40 the options' pane showed 9 lines with 15 blank below the scores, the
    clearing was cut after 6 lines, the log wrapped at 20 of its 36 columns: the options now
    take what the table leaves, the clearing shows every card, the log wraps at its width."""
    from textual.widgets import DataTable, OptionList

    from grove.terminal.app import GameScreen

    app = GameScreen(base, ["human", "greedy"], 3, names=["Ana", "Greedy 2"])

    async def play() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await _until(pilot, lambda: app.decision is not None)
            await pilot.pause()
            hand, scores = app.query_one("#hand", DataTable), app.query_one("#scores", DataTable)
            choices = app.query_one("#choices")
            # nothing blank between the scores and the options
            assert choices.region.y == scores.region.bottom
            assert hand.region.height >= hand.row_count + 2
            assert choices.region.height >= 20
            options = app.query_one("#options", OptionList)
            assert options.region.height >= len(app.options)
            while app.game.turn < 8:  # the clearing fills meanwhile
                await _drive(app, pilot, presses=1)
            clearing = app.query_one("#clearing")
            assert clearing.region.height >= len(app.clearing_text) // clearing.region.width
            assert clearing.virtual_size.height <= clearing.region.height
            await pilot.press("l")
            await pilot.pause()
            log = app.query_one("#logtext")
            assert log.region.width >= app.query_one("#log").region.width - 2
            assert "Turn 2: Greedy 2" in _screen_text(app)
            await pilot.press("q", "y")
            await _until(pilot, lambda: app.outcome is not None)

    asyncio.run(play())


def test_any_card_on_the_table_is_read_on_the_screen(base):
    """The key r lists every card on the table, the other player's forest too, and shows the
    highlighted one's text."""
    from textual.widgets import OptionList

    from grove.terminal.app import GameScreen, ReadScreen

    app = GameScreen(base, ["human", "greedy"], 3, names=["Ana", "Greedy 2"])

    async def play() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            while app.game is None or app.game.turn < 2:  # the other player's first turn
                await _drive(app, pilot, presses=1)
            await pilot.press("r")
            await _until(pilot, lambda: isinstance(app.screen, ReadScreen))
            screen = app.screen
            theirs = [k for k, c in enumerate(screen.cards)
                      if c.label.startswith("Forest of Greedy 2: ")]
            assert theirs
            listed = screen.query_one("#readlist", OptionList)
            listed.highlighted = theirs[0]
            await pilot.pause()
            text = str(screen.query_one("#readtext").render())
            assert text.splitlines()[0].split(" [")[0] in screen.cards[theirs[0]].label
            await pilot.press("escape")
            await _until(pilot, lambda: not isinstance(app.screen, ReadScreen))
            await pilot.press("q", "y")
            await _until(pilot, lambda: app.outcome is not None)

    asyncio.run(play())

