"""A play chosen in steps (issue 29 items 2-5): the card, then where it goes with its points,
then the payment, settled on a world of the seat's view so that `back` and Escape undo a step;
no list longer than 25; the highlighted card's text; the payment's marks and its bound; each
forest's points card by card at the end.

Checked against the engine itself: every list's leaves are the decision's actions, the world's
payment is the game's, the points are the tally's. Small games: two players, a few seconds
each; the tmux games (a whole game by keys at 120x40 and 80x24, side by side, each key sent once
the screen shows what the last did) take some twenty seconds together.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time

import pytest

from grove.engine import record as rec
from grove.engine import runner
from grove.engine.action import FaceDown, Play
from grove.engine.game import Game
from grove.seatview.steps import LIMIT, leaves, rehearse, rehearsed, steps
from grove.seatview.view import View
from tests.test_play_terminal import _drive, _screen_text, _until, grove, lines_of

pytestmark = pytest.mark.usefixtures("quick_pilot")  # tests/conftest.py


def _deepest(items, depth: int = 1) -> tuple[int, int]:
    """The longest list and the most steps below `items`."""
    longest, most = len(items), depth
    for s in items:
        if s.action is None:
            a, b = _deepest(s.below, depth + 1)
            longest, most = max(longest, a), max(most, b)
    return longest, most


@pytest.mark.parametrize(("edition", "expansions", "seed"), [("base", [], 2),
                                                             ("base", ["alpine"], 4),
                                                             ("dartmoor", [], 1)])
def test_no_list_is_longer_than_25_and_every_action_is_reached(edition, expansions, seed):
    """At every decision of a greedy game: each list holds at most 25 lines, and the lists'
    leaves are the decision's actions, each option once (copies of a card alike are one)."""
    from grove.compiler import cardset as cs

    cset = cs.build(edition, expansions)
    game = Game(cset, ["A", "B"], seed)
    players = runner.seats(["greedy", "greedy"], seed)
    widest = 0
    while game.decision is not None:
        d = game.decision
        view = View(game.seats[d.player], "en")
        items = steps(view, d)
        longest, _ = _deepest(items)
        assert longest <= LIMIT, (d.kind, longest)
        reached = {s.action.text for s in leaves(items)}
        assert reached <= set(d.options)
        # every option offered is reached, or one that reads the same
        assert {o.label for o in view.options(d)} == {
            view.describe(game.actions.read(t), d.player, d) for t in reached}
        widest = max(widest, len(d.options))
        game.apply(players[d.player].choose(game.seats[d.player], d))
    assert widest > LIMIT  # the engine's lists were longer: the steps grouped them


def test_a_place_shows_the_points_the_engine_weighs():
    """Each place's points are what the forest's total would gain there (`Tally.weigh`, the
    weight the greedy player plays by); a card laid face down, what the engine's scoring gives
    the forest with it, on a copy of the game itself (the screen weighs it on a world)."""
    from grove.compiler import cardset as cs
    from grove.engine.scoring import score

    base = cs.build("base", [])
    game = Game(base, ["A", "B"], 6)
    players = runner.seats(["greedy", "greedy"], 6)
    checked = facedown = 0
    while game.decision is not None and checked < 200:
        d = game.decision
        if d.kind == "turn":
            seat = game.seats[d.player]
            tally = seat.tally(d.player)
            for s in leaves(steps(View(seat, "en"), d)):
                if isinstance(s.action, Play):
                    sp, sym, at = seat.placing(s.action.place)
                    assert s.points == tally.weigh(sp, sym, at) - tally.total
                    assert f"{s.points:+d} point{'' if s.points == 1 else 's'} now" in s.label
                    checked += 1
                elif isinstance(s.action, FaceDown) and facedown < 20:
                    copy = game.copy(0)  # the real game, no card dealt anew
                    before = score(copy.views()[d.player], base).total
                    copy.apply(s.action)
                    assert s.points == score(copy.views()[d.player], base).total - before
                    assert f"{s.points:+d} point{'' if s.points == 1 else 's'} now" in s.label
                    facedown += 1
                    copy.release()
        game.apply(players[d.player].choose(game.seats[d.player], d))
    assert checked >= 200 and facedown == 20


def test_the_world_asks_the_payment_the_game_asks():
    """A paid play settled on a world of the seat's view asks the river and the payments the
    game then asks, option for option, and nothing more."""
    from grove.compiler import cardset as cs

    cset = cs.build("smoky_mountains", [])  # rivers lie beneath trees there
    for seed in (1, 2):
        game = Game(cset, ["A", "B"], seed)
        players = runner.seats(["random", "random"], seed)
        settled = 0
        while game.decision is not None and settled < 25:
            d = game.decision
            action = players[d.player].choose(game.seats[d.player], d)
            if not rehearsed(d, action):
                game.apply(action)
                continue
            asked, answers = [], []
            while (w := rehearse(game.seats[d.player], action, answers)) is not None:
                asked.append(w)
                answers.append(w.actions[-1])
            game.apply(action)
            for w, answer in zip(asked, answers, strict=True):
                real = game.decision
                assert (real.player, real.kind, tuple(real.options)) == (
                    w.player, w.kind, tuple(w.options))
                game.apply(answer)
            real = game.decision
            assert real is None or real.kind not in ("river", "pay") or real.player != d.player
            settled += 1
        assert settled >= 10


# ---- the line mode ------------------------------------------------------------------------------
def test_back_at_the_prompt_undoes_a_step_until_the_payment(tmp_path):
    """Oak, as a tree, one card paid, back (the card), back (the places), back (the cards), back (there
    is nothing before): then a draw. The record holds the draw only: nothing was taken."""
    proc = grove("play", "--ai", "human,greedy", "--seed", "3", "--plain", "--quiet",
                 "--record", "b.jsonl", stdin=lines_of(["4", "1", "1", "back", "back", "back", "back",
                                                        "help", "1", "1", "quit"]),
                 cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    err = proc.stderr
    assert "Human 1: pay 2 more" in err and "this is the first step" in err
    assert re.search(r"^  back +go back a step", err, re.M)
    assert "as a new Tree (" in err and " points now)" in err
    actions = [a["action"] for a in rec.read(tmp_path / "b.jsonl").actions]
    assert actions[0] == "draw deck"


def test_a_settled_payment_is_taken_whole(tmp_path):
    """Oak as a tree, paid with the first two cards: the record holds the play and both."""
    proc = grove("play", "--ai", "human,greedy", "--seed", "3", "--plain", "--quiet",
                 "--record", "p.jsonl", stdin=lines_of(["4", "1", "1", "1", "quit"]),
                 cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    actions = [a["action"] for a in rec.read(tmp_path / "p.jsonl").actions]
    assert actions[0] == "play 9 tree" and [a.split()[0] for a in actions[1:3]] == ["pay"] * 2


def test_the_end_lists_each_forest_card_by_card_in_german(tmp_path):
    from tests.test_play_terminal import SCRIPT

    proc = grove("play", "--ai", "human,greedy", "--seed", "5", "--plain", "--quiet", "--lang",
                 "de", "--record", "g.jsonl", stdin=lines_of(SCRIPT), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    scored = json.loads(grove("score", "g.jsonl", "--json", cwd=tmp_path).stdout)
    assert "Human 1: Punkte Karte für Karte" in proc.stderr
    assert "Greedy 2: Punkte Karte für Karte" in proc.stderr
    lines = proc.stderr[proc.stderr.index("Human 1: Punkte Karte für Karte"):].splitlines()
    card_lines = [x for x in lines if re.match(r"^  +-?\d+ \S.*\(\d+ ", x)]
    assert sum(int(x.split()[0]) for x in card_lines) == sum(
        sum(c["points"] for c in p["cards"]) for p in scored["players"])
    assert "die Karte selbst" in proc.stderr and "host" not in proc.stderr.split(
        "Punkte Karte für Karte")[1]


# ---- the full screen ---------------------------------------------------------------------------
def test_escape_goes_back_and_a_payment_takes_no_more_than_its_cost(base):
    from grove.terminal.app import GameScreen

    record = io.StringIO()
    app = GameScreen(base, ["human", "greedy"], 3, names=["Ana", "Greedy 2"], record=record)

    async def play() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await _until(pilot, lambda: app.decision is not None)
            await pilot.press("4")  # Oak ...
            await _until(pilot, lambda: len(app.lists) == 2)
            text = _screen_text(app)
            assert "Oak [oak]" in text  # its text beside the options
            assert "draw two cards or play a card › play Oak ‹Oak›" in text
            await pilot.press("escape")
            await _until(pilot, lambda: len(app.lists) == 1)
            await pilot.press("4", "1")  # ... as a new tree: pay 2
            await _until(pilot, lambda: app.payment is not None)
            await pilot.press("1", "2", "3")  # the third is refused
            await pilot.pause()
            assert len(app.picked) == 2
            text = _screen_text(app)
            assert len(re.findall(r"^ *\d+\. \[x\] ", text, re.M)) == 2
            assert len(re.findall(r"^ *\d+\. \[ \] ", text, re.M)) == 3
            await pilot.press("escape")  # back to the places, nothing paid
            await _until(pilot, lambda: app.payment is None and len(app.lists) == 2)
            assert len(record.getvalue().splitlines()) == 1  # the header alone
            await pilot.press("1", "2", "3", "c")
            await _until(pilot, lambda: len(record.getvalue().splitlines()) >= 4)
            await pilot.press("q", "y")
            await _until(pilot, lambda: app.outcome is not None)

    asyncio.run(play())
    actions = [json.loads(x)["action"] for x in record.getvalue().splitlines()[1:4]]
    assert actions[0] == "play 9 tree" and all(a.startswith("pay ") for a in actions[1:])


def test_a_whole_game_on_the_screen_with_keys(base):
    """A whole game by keys at 80x24, the human against greedy: the first screen shows every
    panel; a number of two digits picks its line; the log names no card the other seat drew
    from the deck; at the end the boards and the scores say they are final, q leaves at once,
    and the record ends and replays. (At 120x40 the hand and the scores fit their panels at
    every decision of test_table_fit.py's four whole games, base among them.)"""
    from grove.terminal.app import GameScreen

    record = io.StringIO()
    app = GameScreen(base, ["human", "greedy"], 5, names=["Ana", "Greedy 2"], record=record)
    two_digits = []
    presses = 0

    async def play() -> None:
        nonlocal presses
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: app.decision is not None)
            first = _screen_text(app)
            assert "Hand" in first and "Clearing" in first and "Forest of Ana" in first
            assert "cost " in first and "deck: " in first and "winter cards: 0 of 3" in first
            while True:  # every step of every decision, as drawn when it is asked
                await _until(pilot, lambda: app.outcome is not None or app.decision is not None)
                if app.outcome is not None:
                    break
                await pilot.pause(0)  # laid out
                if not two_digits and len(app.options) >= 12 and app.payment is None:
                    want = app.options[11]
                    before = len(app.lists)
                    await pilot.press("1", "2")
                    await pilot.pause()
                    two_digits.append(len(app.lists) > before and app.lists[-1] == want.below
                                      or want.action is not None)
                    presses += 2
                    continue  # the step it led to is checked in its turn
                presses += await _drive(app, pilot, presses=1)
            text = _screen_text(app)
            assert "The game is over" in text and "points card by card" in text
            # both boards say they are final, the score panel too
            assert str(app.query_one("#scores").border_title).startswith("Final scores after")
            assert "Score so far" not in text
            await pilot.press("q")  # after the end q leaves at once

    asyncio.run(play())
    assert app.return_value is app.outcome and not app.outcome.stopped and presses > 50
    assert two_digits == [True]
    who = ""
    for line in app.log_lines:
        if line.startswith("Turn "):
            who = line.split(": ", 1)[1]
        elif who.startswith("Greedy") and line.strip().startswith("draws "):
            assert line.strip() in ("draws a card", "draws 2 cards"), line
        elif who.startswith("Greedy") and "face down" in line:
            assert "a card" in line, line
    lines = record.getvalue().splitlines()
    assert json.loads(lines[-1])["type"] == "end"
    r = rec.Record(json.loads(lines[0]), [json.loads(x) for x in lines[1:-1]],
                   json.loads(lines[-1]))
    assert runner.replay(base, r)[1] == []


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_a_whole_game_in_tmux_by_keys_at_both_sizes(tmp_path):
    """A person's whole game against greedy in a real terminal, at 120x40 and at 80x24 side by
    side, with keys sent by tmux alone: Enter takes the highlighted line, a payment is picked
    by its numbers and confirmed with c; the record replays (`grove replay --verify`)."""
    sizes = {"big": (120, 40), "small": (80, 24)}
    sessions = {}
    env = [f"{k}={os.environ[k]}" for k in ("GROVE_CACHE_DIR", "PATH") if k in os.environ]
    for name, (x, y) in sizes.items():
        session = sessions[name] = f"grove-steps-{os.getpid()}-{name}"
        command = " ".join([sys.executable, "-c", "'from grove.cli import main; main()'", "play",
                            "--ai", "human,greedy", "--seed", "5", "--record", f"{name}.jsonl"])
        subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", str(x), "-y", str(y),
                        "-c", str(tmp_path), *(e for v in env for e in ("-e", v)),
                        command + "; sleep 30"], check=True)
    try:
        _play_by_keys(sessions)
    finally:
        for session in sessions.values():
            subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    for name in sizes:
        check = grove("replay", f"{name}.jsonl", "--verify", cwd=tmp_path)
        assert check.returncode == 0 and "verified" in check.stderr, check.stderr


TMUX_LOOK = 0.02  # seconds between two looks at a screen in tmux
TMUX_SETTLED = 0.5  # ... and how long a payment seen half picked stays so before it is begun anew


def _play_by_keys(sessions: dict[str, str]) -> None:
    """Each session's game to its end, keys sent once per new screen: a screen is answered
    once it reads the same at two looks (drawn whole) and differs from the one answered last
    (so the keys sent are never sent again before the screen shows what they did), rather
    than after a fixed sleep."""
    seen: dict[str, tuple[str, float]] = {}  # each session's screen at the last look, since when
    answered: dict[str, str] = {}  # ... and the screen its last keys answered
    done: set[str] = set()
    end = time.monotonic() + 600
    while len(done) < len(sessions):
        assert time.monotonic() < end, ("the games did not end", seen)
        for name, session in sessions.items():
            if name in done:
                continue
            screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session],
                                    capture_output=True, text=True).stdout
            now = time.monotonic()
            last, since = seen.get(name, ("", now))
            if screen != last:
                seen[name] = (screen, now)
                continue
            if screen == answered.get(name):
                continue
            keys = _keys(screen, settled=now - since >= TMUX_SETTLED)
            if keys:
                subprocess.run(["tmux", "send-keys", "-t", session, *keys], check=True)
                answered[name] = screen
                if keys == ["q"]:
                    done.add(name)
        time.sleep(TMUX_LOOK)


def _keys(screen: str, settled: bool) -> list[str]:
    """The keys a screen wants: q once the game is over; a payment picked by its numbers and
    confirmed with c; else Enter on the highlighted line; nothing while waiting."""
    if "The game is over" in screen:
        return ["q"]
    if m := re.search(r"picked (\d+) of (\d+)", screen):
        if m[1] == "0":
            return [*map(str, range(1, int(m[2]) + 1)), "c"]
        # a payment seen half picked a while (its keys went astray): begin it anew
        return ["Escape"] if settled else []
    if re.search(r"^ ?1\. ", screen, re.M):
        return ["Enter"]
    return []


def test_at_80x24_the_panels_scroll_by_keys_and_the_help_names_them(base):
    """Tab reaches the hand, page down and down scroll it to its last card, tab comes round to
    the options;
    the help names the keys."""
    from textual.widgets import DataTable

    from grove.terminal.app import GameScreen

    app = GameScreen(base, ["human", "greedy"], 3, names=["Ana", "Greedy 2"],
                     record=io.StringIO())

    async def play() -> str:
        async with app.run_test(size=(80, 24)) as pilot:
            hand = app.query_one("#hand", DataTable)
            for _ in range(4):  # two turns of draws: a hand longer than its panel here
                await _until(pilot, lambda: app.decision is not None and bool(app.options))
                # a draw; from 10 lines on, enter says no second digit follows
                await pilot.press(*(["1", "enter"] if len(app.options) >= 10 else ["1"]))
            await _until(pilot, lambda: app.decision is not None and bool(app.options))
            assert len(app.game.hand) >= 9 and hand.max_scroll_y > 0
            await pilot.press("tab")
            assert app.focused is hand
            await pilot.press("pagedown")
            await pilot.pause()
            assert hand.scroll_y > 0
            await pilot.press(*["down"] * 20)
            await pilot.pause()
            assert hand.scroll_y == hand.max_scroll_y
            for _ in range(3):  # the scores, the pane shown (the card's text), the options
                await pilot.press("tab")
            assert app.focused is app.query_one("#options")
            await pilot.press("question_mark")
            help_text = str(app.screen.query_one("#help").render())
            await pilot.press("escape", "q", "y")
            await _until(pilot, lambda: app.outcome is not None)
            return help_text

    help_text = asyncio.run(play())
    for key in ("tab", "page up", "escape: back a step", "two digits", "[x] picked"):
        assert key in help_text, key
