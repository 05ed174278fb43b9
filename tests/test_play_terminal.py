"""A person playing `grove play` (issue 14): the line mode through a pipe, the full screen through
Textual's pilot (keys only) and a real terminal (tmux), stopping a game and going on with it.

Small games throughout: two players, the human against the fast AIs.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from grove.engine import record as rec
from grove.engine import runner
from grove.engine.action import Pick, Play
from grove.engine.game import Game
from grove.printouts.phrases import CATALOG_DIR
from grove.seatview.view import View

pytestmark = pytest.mark.usefixtures("quick_pilot")  # tests/conftest.py

GROVE = [sys.executable, "-c", "from grove.cli import main; main()"]
LANGS = ("en", "de", "it", "th")
# the human's answers: option numbers in a fixed pattern (a number past the options is refused
# and the next one read), so a game is the same every time it is played with them
SCRIPT = [str(n) for n, _ in zip(itertools.cycle([2, 1, 3, 1, 1, 4, 2, 1]), range(3000),
                                  strict=False)]


def grove(*args: str, stdin: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*GROVE, *args], input=stdin, capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def lines_of(answers: list[str]) -> str:
    return "\n".join(answers) + "\n"


@pytest.fixture(scope="module")
def whole_game(tmp_path_factory):
    """One whole game at the prompt: the human against greedy, --quiet, through a pipe."""
    folder = tmp_path_factory.mktemp("line")
    answers = ["", "help", "?", "hand", "clearing", "forest", "forest 2", "forest Nobody",
               "scores", "log", "nonsense", "99", *SCRIPT]
    proc = grove("play", "--ai", "human,greedy", "--seed", "5", "--plain", "--quiet",
                 "--record", "game.jsonl", stdin=lines_of(answers), cwd=folder)
    return folder, proc


def test_a_whole_game_through_line_mode(whole_game):
    folder, proc = whole_game
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Winner:" in proc.stdout and "Total" in proc.stdout
    r = rec.read(folder / "game.jsonl")
    assert r.end is not None and r.stop is None
    check = grove("replay", "game.jsonl", "--verify", cwd=folder)
    assert check.returncode == 0 and "verified" in check.stderr


def test_line_mode_names_no_card_the_other_seat_drew_from_the_deck_or_laid_face_down(
        whole_game):
    """Under greedy's turns, every draw from the deck the human reads is a count ("draws a
    card", "draws 2 cards"), and a card laid face down is "a card"; the human's own draws name
    their cards."""
    _, proc = whole_game
    who, theirs, mine = "", [], []
    for line in proc.stderr.splitlines():
        line = line.split("(help for the commands): ")[-1]
        if line.startswith("Turn "):
            who = line.split(": ", 1)[1]
        elif line.startswith("    draws "):
            (theirs if who.startswith("Greedy") else mine).append(line.strip())
        elif "face down" in line and who.startswith("Greedy") and re.match(r"  [^\s\d]", line):
            assert "a card" in line, line  # a log line (an option or a grid is indented more)
    assert theirs and mine
    assert all(t in ("draws a card", "draws 2 cards") for t in theirs), set(theirs)
    assert not any(t in ("draws a card", "draws 2 cards") for t in mine)


def test_line_mode_commands_and_messages(whole_game):
    _, proc = whole_game
    err = proc.stderr
    help_text = err[err.index("At any prompt:"):][:700]
    for command in ("help", "hand", "clearing", "forest", "scores", "log", "quit"):
        assert re.search(rf"^  .*\b{command}\b", help_text, re.M), command
    assert "type an option's number, or help for the commands" in err  # the empty line
    assert "'nonsense' is neither an option nor a command" in err
    assert "there is no option 99" in err
    assert "no player 'Nobody': the players are 1 Human 1, 2 Greedy 2" in err
    assert "Forest of Greedy 2" in err and "Clearing:" in err and "deck: " in err
    assert re.search(r"^  Total +\d+ +\d+$", err, re.M)  # `scores`: a row per scorepad row
    assert "winter cards: " in err


def test_line_mode_shows_what_the_ai_did_even_when_quiet(whole_game):
    _, proc = whole_game
    assert "Turn 2: Greedy 2" in proc.stderr and "plays " in proc.stderr


def test_line_mode_never_repeats_an_option(whole_game):
    _, proc = whole_game
    blocks = re.split(r"\nchoose 1-\d+ \(help for the commands\): ", proc.stderr)
    listed = 0
    for block in blocks:
        labels = re.findall(r"^ +\d+\. (.*)$", block, re.M)
        assert len(labels) == len(set(labels)), labels
        assert len(labels) <= 25  # the hand and the clearing at most (issue 29)
        listed += len(labels)
    assert listed > 200


def test_paid_cards_leave_the_hand_while_paying(base):
    """At every payment the hand shown is the hand without the card being played, its river and
    the cards paid so far: exactly the cards still free to pay with."""
    game = Game(base, ["Ana", "Bot"], 11)
    players = runner.seats(["random", "random"], 11)
    payments = 0
    while game.decision is not None and payments < 60:
        d = game.decision
        if d.kind == "pay":
            played = next(a for a in reversed(game.history) if isinstance(a, Play))
            since = game.history[game.history.index(played) + 1:]
            gone = {played.card} | {a.card for a in since if isinstance(a, Pick)}
            view = View(game, "en")
            assert sorted(view.hand(d.player, d)) == sorted(
                c for c in game.players[d.player].hand if c not in gone)
            payments += 1
        game.apply(players[d.player].choose(game.seats[d.player], d))
    assert payments > 10


def test_a_stopped_record_replays(tmp_path):
    proc = grove("play", "--ai", "human,greedy", "--seed", "5", "--plain", "--record", "s.jsonl",
                 stdin=lines_of([*SCRIPT[:12], "quit"]), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-1000:]
    assert "go on later with: grove play --resume s.jsonl" in proc.stderr
    r = rec.read(tmp_path / "s.jsonl")
    assert r.stop == {"type": "stop", "after": len(r.actions)} and len(r.actions) > 12
    check = grove("replay", "s.jsonl", "--verify", cwd=tmp_path)
    assert check.returncode == 0
    assert f"stopped after {len(r.actions)} actions" in check.stderr
    # the end of stdin stops the game the same way
    proc = grove("play", "--ai", "human,random", "--seed", "2", "--plain", "--record", "e.jsonl",
                 stdin=lines_of(SCRIPT[:5]), cwd=tmp_path)
    assert proc.returncode == 0 and rec.read(tmp_path / "e.jsonl").stop is not None
    # a game that is over has nothing to resume
    done = grove("play", "--resume", "nowhere.jsonl", cwd=tmp_path)
    assert done.returncode == 2 and "IO-NOT-FOUND" in done.stderr


def test_a_resumed_game_records_what_an_uninterrupted_one_does(tmp_path):
    """Stopped after about 40 answers and resumed with the rest: the finished record is byte for
    byte the record of the game played through (the AI's random draws kept in step). The stop
    comes at the first prompt of a turn (a play's steps not yet begun), the answers before it
    counted from the prompts of the game played through."""
    whole = grove("play", "--ai", "human,random", "--seed", "7", "--plain", "--quiet",
                  "--record", "whole.jsonl", stdin=lines_of(SCRIPT), cwd=tmp_path)
    assert whole.returncode == 0, whole.stderr[-1000:]
    between = whole.stderr.split("(help for the commands): ")
    split = max(j for j in range(41) if "grove · Forest Shuffle · turn" in between[j])
    assert split > 20
    stop = grove("play", "--ai", "human,random", "--seed", "7", "--plain", "--quiet",
                 "--record", "part.jsonl", stdin=lines_of([*SCRIPT[:split], "quit"]),
                 cwd=tmp_path)
    assert stop.returncode == 0 and rec.read(tmp_path / "part.jsonl").stop is not None
    resumed = grove("play", "--resume", "part.jsonl", "--plain", "--quiet",
                    stdin=lines_of(SCRIPT[split:]), cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr[-1000:]
    assert resumed.stdout == whole.stdout  # the same scoreboard
    whole_text = (tmp_path / "whole.jsonl").read_bytes()
    assert (tmp_path / "part.jsonl").read_bytes() == whole_text
    assert json.loads(whole_text.splitlines()[-1])["type"] == "end"
    over = grove("play", "--resume", "whole.jsonl", cwd=tmp_path)
    assert over.returncode == 2 and "nothing to resume" in over.stderr


# ---- the words ---------------------------------------------------------------------------------
def _catalog(lang: str) -> dict[str, str]:
    with open(CATALOG_DIR / lang / "LC_MESSAGES" / "screen.po", "rb") as fh:
        return {m.context: str(m.string) for m in read_po(fh, locale=lang) if m.id}


@pytest.mark.parametrize("lang", LANGS)
def test_every_language_has_every_screen_word(lang):
    english = _catalog("en")
    own = _catalog(lang)
    assert set(own) == set(english)
    for key, text in own.items():
        assert text, f"{lang}: {key} is empty"
        # a name in a case (`{host_acc}`, printouts/cases.py) is the English blank's
        own_blanks = {re.sub(r"_(nom|acc|dat|gen)}$", "}", b) for b in re.findall(r"{\w+}", text)}
        assert own_blanks == set(re.findall(r"{\w+}", english[key])), key


def test_the_screen_reads_its_words_from_the_catalogs():
    from grove.seatview.words import Words

    for lang in LANGS:
        assert Words(lang)("ask.turn") == _catalog(lang)["screen.ask.turn"]
    assert Words("de")("deck", count=3) == "Stapel: 3 Karten"


# ---- the full screen ---------------------------------------------------------------------------
# Seconds between two looks at the app while waiting on it: what is waited for is named (a
# decision offered, a list shown), and each look ends with the screen laid out anew, so the
# look need not also wait for the process to idle (`pilot.pause()`, 20 ms at least each time).
LOOK = 0.002


async def _drive(app, pilot, presses: int = 4000) -> int:
    """Play the human's side with keys only: enter takes the highlighted option (a card, then
    where it goes); a payment picks cards by their numbers, then confirms with c."""
    n = 0
    while app.outcome is None and n < presses:
        await pilot.pause(LOOK)
        if app.decision is not None and app.payment is not None:
            for k in range(1, app.payment.count + 1):
                await pilot.press(str(k))
            await pilot.press("c")
            n += app.payment.count + 1 if app.payment is not None else 1
        elif app.decision is not None and app.options:
            await pilot.press("enter")
            n += 1
    return n


def _screen_text(app) -> str:
    from textual.widgets import DataTable, Static

    parts = [str(w.render()) for w in app.query(Static)]
    parts += [str(o.prompt) for o in app.query_one("#options").options]
    for table in app.query(DataTable):
        parts.append(str(table.border_title))
        parts.append(" ".join(str(c.label) for c in table.columns.values()))
        parts += [" ".join(str(c) for c in table.get_row_at(k)) for k in range(table.row_count)]
    parts += [str(w.border_title) for w in app.query("#hand, #clearing, #scores, #log, #forest")]
    return "\n".join(parts)


def test_the_screen_stops_after_asking_and_speaks_german(base):
    """The mouse picks an action and a card to pay with; f, ?, q (n, then y) as keys; every
    word seen in German."""
    from grove.terminal.app import GameScreen

    record = io.StringIO()
    app = GameScreen(base, ["human", "greedy"], 3, names=["Ana", "Greedy 2"], record=record,
                     lang="de")

    async def play() -> str:
        async with app.run_test(size=(100, 32)) as pilot:
            while app.decision is None:
                await pilot.pause()
            await pilot.click("#options", offset=(5, 1))  # the mouse: option 2, a tree ...
            await _until(pilot, lambda: len(app.lists) == 2)
            await pilot.click("#options", offset=(5, 0))  # ... as a new tree
            await _until(pilot, lambda: app.payment is not None)
            await pilot.click("#options", offset=(5, 0))  # paid with the first card
            await pilot.press("c")
            await _until(pilot, lambda: app.decision is not None and app.payment is None)
            await pilot.press("f", "f")  # the forests, then the other one
            text = _screen_text(app)
            await pilot.press("question_mark")
            help_text = str(app.screen.query_one("#help").render())
            await pilot.press("escape", "q")
            await pilot.press("n")  # not yet
            assert app.outcome is None
            await pilot.press("q", "y")
            await _until(pilot, lambda: app.outcome is not None)
            return text + help_text

    text = asyncio.run(play())
    for word in ("Hand", "Lichtung", "Wald von Greedy 2", "Punkte bisher", "Stapel: ",
                 "Winterkarten: ", "Tasten", "Spiel anhalten (mit Rückfrage)"):
        assert word in text, word
    assert app.outcome.stopped == "quit"
    lines = [json.loads(x) for x in record.getvalue().splitlines()]
    assert lines[-1] == {"type": "stop", "after": len(lines) - 2}
    assert lines[1]["action"] == "play 62 tree" and lines[2]["action"].startswith("pay ")


async def _until(pilot, done, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < end, "the screen did not get there"
        await pilot.pause(LOOK)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_first_screen_in_a_real_terminal(tmp_path):
    """`grove play` in tmux: the first screen shows the hand, the clearing and a forest; q, y
    stops the game and its record replays."""
    session = f"grove-test-{os.getpid()}"
    command = " ".join([sys.executable, "-c", "'from grove.cli import main; main()'", "play",
                        "--ai", "human,greedy", "--seed", "3", "--record", "t.jsonl"])
    env = [f"{k}={os.environ[k]}" for k in ("GROVE_CACHE_DIR", "PATH") if k in os.environ]
    subprocess.run(["tmux", "new-session", "-d", "-s", session, "-x", "120", "-y", "40",
                    "-c", str(tmp_path), *(x for e in env for x in ("-e", e)),
                    command + "; sleep 5"], check=True)
    try:
        screen = _wait_for(session, "1. draw the top card of the deck")
        for word in ("Hand", "Clearing", "f: Forests", "Score so far", "cost ",
                     "1. draw the top card of the deck"):
            assert word in screen, (word, screen)
        subprocess.run(["tmux", "send-keys", "-t", session, "f"], check=True)  # the forests
        _wait_for(session, "Forest of Human 1")
        subprocess.run(["tmux", "send-keys", "-t", session, "q"], check=True)
        _wait_for(session, "Stop the game?")
        subprocess.run(["tmux", "send-keys", "-t", session, "y"], check=True)
        _wait_for(session, "go on later with: grove play --resume t.jsonl")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], capture_output=True)
    check = grove("replay", "t.jsonl", "--verify", cwd=tmp_path)
    assert check.returncode == 0 and "stopped after 0 actions" in check.stderr


def _wait_for(session: str, text: str, seconds: float = 60) -> str:
    end = time.monotonic() + seconds
    screen = ""
    while time.monotonic() < end:
        screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", session],
                                capture_output=True, text=True).stdout
        if text in screen:
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{text!r} never showed:\n{screen}")


def test_ctrl_c_at_the_prompt_stops_with_a_stop_line(tmp_path):
    """SIGINT while the prompt waits: the record ends with its stop line, exit 130."""
    path = tmp_path / "c.jsonl"
    proc = subprocess.Popen([*GROVE, "play", "--ai", "human,greedy", "--seed", "3", "--plain",
                             "--record", str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path,
                            # as a terminal has it, even where pytest runs in a background job
                            # (which starts with SIGINT ignored)
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        proc.stdin.write("1\n1\n")  # two draws; then greedy's turn, then the prompt waits
        proc.stdin.flush()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (
                not path.exists() or path.read_text(encoding="utf-8").count("\n") < 4):
            time.sleep(0.05)
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err[-1000:]
    r = rec.read(path)
    assert r.stop == {"type": "stop", "after": len(r.actions)} and len(r.actions) >= 3
    assert "Traceback" not in err
    check = grove("replay", str(path), "--verify")
    assert check.returncode == 0 and f"stopped after {len(r.actions)} actions" in check.stderr
