"""The Mole's further plays in steps (issue 29): the card, where it goes, then its payment, with
`back` and Escape between them until the payment is confirmed, as a turn's play.

The engine asks each of the Mole's plays (`free ...`) and then its payment as decisions of
their own (engine/effects.py `_play_paying`); the screens settle the payment first and hand the
engine the play and its cards together, so the engine's decisions and the record are those of a
game played without steps. Checked against the engine (random games, 2 s), then on both screens
from a record stopped at a Mole's first further play (seed 10, random against greedy: the
Mole comes at the 102nd action; a few seconds each).
"""

from __future__ import annotations

import asyncio
import io
import json

import pytest

from grove.engine import record as rec
from grove.engine import runner
from grove.engine.action import Play
from grove.engine.game import Game
from grove.seatview.steps import leaves, paid_later, rehearse, steps
from grove.seatview.view import View
from tests.test_play_terminal import _screen_text, _until, grove, lines_of

pytestmark = pytest.mark.usefixtures("quick_pilot")  # tests/conftest.py

SEED = 10  # random (seat 1) against greedy: seat 1 plays a Mole at turn 52


def test_a_moles_payment_settled_beforehand_is_the_one_the_engine_asks(base):
    """At every Mole decision of 200 random games: the steps' leaves are the engine's options,
    no card is called free (nor by the words a hint or the options give a play, in any
    language), and the payment worked out before the play is taken asks, option
    for option, what the engine then asks, and nothing more."""
    checked = 0
    for seed in range(200):
        game = Game(base, ["A", "B"], seed)
        players = runner.seats(["random", "random"], seed)
        while game.decision is not None:
            d = game.decision
            action = players[d.player].choose(game.seats[d.player], d)
            if not paid_later(d):
                game.apply(action)
                continue
            view = View(game.seats[d.player], "en")
            items = steps(view, d)
            assert {s.action.text for s in leaves(items)} <= set(d.options)
            assert not any("for free" in s.label for s in items)
            # nor in the words of a hint or the options (`View.describe`): each play as a paid one
            for lang in ("en", "de", "it", "th"):
                worded = View(game.seats[d.player], lang)
                for a in d.actions:
                    if isinstance(a, Play):
                        paid = worded.describe(Play(a.place, free=False), d.player)
                        assert worded.describe(a, d.player, d) == paid
                        assert [o.label for o in worded.options(d)].count(paid) >= 1
            if not isinstance(action, Play):
                game.apply(action)
                continue
            asked, answers = [], []
            while (w := rehearse(game.seats[d.player], action, answers, d)) is not None:
                asked.append(w)
                answers.append(w.actions[-1])
            assert len(asked) == game.seats[d.player].species_for(action.place).cost
            game.apply(action)
            for w, answer in zip(asked, answers, strict=True):
                real = game.decision
                assert (real.player, real.kind, real.about, tuple(real.options)) == (
                    w.player, w.kind, w.about, tuple(w.options))
                game.apply(answer)
            real = game.decision
            assert real is None or real.kind != "pay" or real.player != d.player
            checked += 1
    assert checked >= 20


def _first_place(base, texts: list[str]) -> str:
    """The play the first card's first place stands for at the Mole's decision."""
    game = Game(base, ["Human 1", "Greedy 2"], SEED)
    for t in texts:
        game.apply(t)
    return steps(View(game.seats[0], "en"), game.decision)[0].below[0].action.text


def _before_the_mole(base) -> tuple[list[str], list[str]]:
    """The record lines of the seed's game up to the Mole's first further play (the header
    with seat 1 a human), and those actions' texts."""
    game = Game(base, ["Human 1", "Greedy 2"], SEED)
    players = runner.seats(["random", "greedy"], SEED)
    texts = []
    while not (paid_later(game.decision) and game.decision.player == 0):
        d = game.decision
        a = players[d.player].choose(game.seats[d.player], d)
        texts.append(a.text)
        game.apply(a)
    whole = io.StringIO()
    runner.play(base, ["random", "greedy"], SEED, names=["Human 1", "Greedy 2"], record=whole)
    lines = whole.getvalue().splitlines()
    header = json.loads(lines[0])
    header["players"][0]["ai"] = "human"
    assert [json.loads(x)["action"] for x in lines[1:len(texts) + 1]] == texts
    return [json.dumps(header), *lines[1:len(texts) + 1],
            json.dumps({"type": "stop", "after": len(texts)})], texts


def test_back_at_the_prompt_undoes_a_moles_play_until_it_is_paid(base, tmp_path):
    """Resumed at the Mole: a card, a place, then back from the payment (the places again),
    back (the cards), back (nothing before); then the card, the place and a card paid: the
    record holds that play and that payment, and nothing of the steps taken back."""
    lines, texts = _before_the_mole(base)
    (tmp_path / "mole.jsonl").write_text("\n".join(lines) + "\n")
    proc = grove("play", "--resume", "mole.jsonl", "--plain", "--quiet", "-o", "out.jsonl",
                 stdin=lines_of(["1", "1", "back", "back", "back", "1", "1", "1", "quit"]),
                 cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    err = proc.stderr
    assert "Human 1: another card to play" in err
    first = err.index("Human 1: another card to play")
    mole = err[first:]
    assert mole.count("Human 1: pay 1 more") == 2  # asked, taken back, asked again
    assert "this is the first step" in mole and "for free" not in mole
    assert mole.count("› play Eurasian Jay / Tree Ferns") == 2
    after = [a["action"] for a in rec.read(tmp_path / "out.jsonl").actions][len(texts):]
    assert after[0] == _first_place(base, texts) and after[1].startswith("pay ")
    assert len(after) == 2  # the next further play was not answered


def test_escape_undoes_a_moles_play_on_the_screen_until_it_is_confirmed(base):
    """The same on the full screen: the card, the place, the payment shown; Escape goes back
    to the places, to the cards, and no further; nothing reaches the record before `c`."""
    from grove.terminal.app import GameScreen

    _, texts = _before_the_mole(base)
    record = io.StringIO()
    app = GameScreen(base, ["human", "greedy"], SEED, names=["Human 1", "Greedy 2"],
                     record=record, resume=texts)
    recorded = len(texts) + 1  # the header and the resumed actions

    async def play() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await _until(pilot, lambda: app.decision is not None and paid_later(app.decision))
            assert "another card to play" in _screen_text(app)
            await pilot.press("1")
            await _until(pilot, lambda: len(app.lists) == 2)
            await pilot.press("1")
            await _until(pilot, lambda: app.payment is not None)
            text = _screen_text(app)
            assert "pay 1 more" in text and "picked 0 of 1" in text
            assert app.payment.card.startswith("Eurasian Jay")
            await pilot.press("escape")
            await _until(pilot, lambda: app.payment is None and len(app.lists) == 2)
            await pilot.press("escape")
            await _until(pilot, lambda: len(app.lists) == 1)
            await pilot.press("escape")  # the first step: nothing before it
            await pilot.pause()
            assert len(app.lists) == 1 and app.decision is not None
            assert len(record.getvalue().splitlines()) == recorded
            await pilot.press("1", "1")
            await _until(pilot, lambda: app.payment is not None)
            await pilot.press("1", "c")
            await _until(pilot, lambda: len(record.getvalue().splitlines()) >= recorded + 2)
            await pilot.press("q", "y")
            await _until(pilot, lambda: app.outcome is not None)

    asyncio.run(play())
    after = [json.loads(x).get("action") for x in record.getvalue().splitlines()[recorded:]]
    assert after[0] == _first_place(base, texts) and after[1].startswith("pay ")


@pytest.mark.parametrize("lang", ["de", "it", "th"])
def test_a_moles_steps_speak_the_language(base, lang):
    """The Mole's question, its cards and its payment in the player's language."""
    from grove.seatview.words import Words

    _, texts = _before_the_mole(base)
    game = Game(base, ["Human 1", "Greedy 2"], SEED)
    for t in texts:
        game.apply(t)
    d = game.decision
    view = View(game.seats[0], lang)
    w = Words(lang)
    assert view.ask(d) == w("ask.another") != Words("en")("ask.another")
    first = steps(view, d)
    assert all(w("step.card", card="").strip() in s.label for s in first if s.action is None)
    play = next(s.action for s in leaves(first) if isinstance(s.action, Play))
    pay = rehearse(game.seats[0], play, [], d)
    assert view.ask(pay) == w("ask.pay", count=1)
