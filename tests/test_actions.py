"""Actions as values (grove/engine/action.py): one parse, one text, and nobody else reads the text.

Every action the engine offers in whole games of every edition turns into its text and back
unchanged, and every text it offers back into the same action, so records keep their text byte
for byte and old records replay. Any action built from parts round-trips too (hypothesis). A
text that spells no action is refused with a message, as an `IllegalAction`, by the game, the
replay and the terminal prompt alike. And no module but grove/engine/action.py splits an action's text.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from grove.compiler import cardset as cs
from grove.engine import action as act
from grove.engine import operations, runner
from grove.engine import record as rec
from grove.engine.action import (
    CaveCard,
    Draw,
    FaceDown,
    IllegalAction,
    Pick,
    Place,
    Play,
    Say,
    parse,
    parse_place,
)
from grove.engine.decision import Offers
from grove.engine.game import Game
from grove.engine.memo import Memo
from grove.engine.players import GreedyPlayer, RandomPlayer
from grove.forest.host import loose

ROOT = Path(__file__).resolve().parent.parent
COMBOS = [("base", ()), ("base", ("alpine", "woodland_edge")), ("dartmoor", ()),
          ("smoky_mountains", ())]


def _respelled(a):
    """The action made again from its fields alone: its text spelt, not the text it was read
    from."""
    kw = {f.name: getattr(a, f.name) for f in dataclasses.fields(a) if f.name != "text"}
    if isinstance(a, Play):
        kw["place"] = _respelled(a.place)
    return type(a)(**kw)


def _round_trips(a: act.Action) -> None:
    assert str(a) == a.text
    back = parse(a.text)
    assert back == a and type(back) is type(a)
    assert back.text == a.text == _respelled(back).text


@pytest.mark.parametrize(("edition", "exps"), COMBOS)
def test_every_action_offered_in_whole_games_round_trips(edition, exps):
    cset = cs.build(edition, list(exps))
    memo = Memo(cset)
    kinds: set[str] = set()
    offered = 0
    for seed in range(6):
        n = 2 + seed % 3
        game = Game(cset, [f"P{i}" for i in range(n)], seed, memo=memo)
        players = [GreedyPlayer(seed + i) if (seed + i) % 3 == 0 else RandomPlayer(seed + i)
                   for i in range(n)]
        while game.decision is not None:
            d = game.decision
            assert d.options == tuple(a.text for a in d.actions)
            assert len(set(d.options)) == len(d.options)  # one text, one action
            for t, a in zip(d.options, d.actions, strict=True):
                assert a == parse(t) and d.read(t) is a  # one value per text, game long
                _round_trips(a)
                kinds.add(type(a).__name__)
            offered += len(d.actions)
            game.apply(players[d.player].choose(game.seats[d.player], d))
    assert offered > 1000
    assert {"Draw", "Play", "Pick"} <= kinds


def test_every_shape_of_action_round_trips():
    for text in ("draw deck", "draw clearing 12", "play 12 tree", "play 7 left 0.left",
                 "play 3 bottom 11.bottom_2", "free 7 left 0.left", "free 12 moor",
                 "sapling 12", "pay 0", "choose 12", "cave 12", "river 12", "cave cave_3",
                 "stop", "skip", "yes", "no"):
        a = parse(text)
        assert a.text == text
        _round_trips(a)
    assert parse("cave 12") == Pick("cave", 12)
    assert parse("cave cave_3") == CaveCard("cave_3")
    assert parse("play 7 left 0.left") == Play(Place(7, side="left", host=0, slot="left"))
    assert parse("free 12 tree") == Play(Place(12, kind="tree"), free=True)
    assert parse("sapling 12") == FaceDown("sapling", 12)
    assert parse("draw deck") is act.DRAW_DECK and parse("stop") is act.STOP
    assert parse_place("7 left 0.left") == Place(7, side="left", host=0, slot="left")


_ident = st.from_regex(r"[a-z][a-z0-9_]{0,11}", fullmatch=True)
_card = st.integers(min_value=0, max_value=10**6)
_place = st.one_of(
    st.builds(lambda c, k: Place(c, kind=k), _card, _ident),
    st.builds(lambda c, s, h, sl: Place(c, side=s, host=h, slot=sl), _card, _ident,
              st.integers(min_value=0, max_value=200), _ident))
_verbs = {"draw", "play", "free", "pay", "choose", "cave", "river", "stop", "skip", "yes", "no"}
_actions = st.one_of(
    st.builds(Draw, st.none() | _card),
    st.builds(Play, _place, st.booleans()),
    st.builds(FaceDown, _ident.filter(lambda k: k not in _verbs), _card),
    st.builds(Pick, st.sampled_from(["pay", "choose", "cave", "river"]), _card),
    st.builds(CaveCard, _ident),
    st.builds(Say, st.sampled_from(["stop", "skip", "yes", "no"])),
)


@given(_actions)
def test_any_action_round_trips(a):
    _round_trips(a)


@given(st.text(max_size=40))
def test_any_text_parses_to_its_own_action_or_is_refused(text):
    try:
        a = parse(text)
    except IllegalAction as exc:
        assert repr(text) in str(exc)
    else:
        assert a.text == text == _respelled(a).text


@pytest.mark.parametrize("text", ["", " ", "draw", "draw  deck", "draw deck ", "draw clearing",
                                  "draw clearing x", "draw clearing 07", "draw clearing -1",
                                  "play 12", "play x tree", "play 7 left 0", "play 7 left .left",
                                  "play 7 left x.left", "pay", "pay 1 2", "pay ٣", "cave 1x",
                                  "Stop", "tree", "play 7 left 0.left extra", "\n"])
def test_a_text_that_spells_no_action_is_refused_with_a_message(text):
    with pytest.raises(IllegalAction, match="is not an action"):
        parse(text)


def test_the_game_refuses_a_bad_text_and_an_action_not_offered():
    game = Game(cs.build("base"), ["A", "B"], 1)
    with pytest.raises(IllegalAction, match="is not an action"):
        game.apply("play twelve tree")
    with pytest.raises(IllegalAction, match="is not a legal action now"):
        game.apply(Pick("pay", 99999))
    with pytest.raises(IllegalAction, match="is not a place"):
        game.trial(0, "12 left 0")
    # an equal value does as well as the offered one
    a = game.decision.actions[0]
    game.apply(parse(a.text))
    assert game.history[-1] == a


def _record_with(tmp_path: Path, bad: str) -> Path:
    path = tmp_path / "game.jsonl"
    with open(path, "w") as fh:
        runner.play(cs.build("base"), ["random", "random"], 5, record=fh)
    lines = path.read_text().splitlines()
    row = json.loads(lines[3])
    row["action"] = bad
    lines[3] = json.dumps(row)
    path.write_text("\n".join(lines) + "\n")
    return path


def test_replay_names_a_text_that_spells_no_action(tmp_path):
    path = _record_with(tmp_path, "draw clearing seven")
    _, problems = runner.replay(cs.build("base"), rec.read(path))
    assert problems and problems[0].startswith("line 4: 'draw clearing seven' is not an action")


def test_cli_replay_of_a_bad_action_is_a_diagnostic_not_a_traceback(tmp_path):
    from grove.cli import main

    path = _record_with(tmp_path, "play 7 left nowhere")
    result = CliRunner().invoke(main, ["replay", str(path)])
    assert result.exit_code == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert "is not an action" in result.output


def test_every_action_a_turn_offers_is_described():
    """Every action of a game is put into words a person reads (the terminal room's View), in
    every language: the cave draft, turns, payments and the effects' picks."""
    from grove.seatview.view import View

    game = Game(cs.build("dartmoor"), ["Ana", "Bob"], 2)
    rnd = random.Random(0)
    for _ in range(200):
        d = game.decision
        if d is None:
            break
        for lang in ("en", "de", "it", "th"):
            view = View(game.seats[d.player], lang)
            for a in d.actions:
                words = view.describe(a, d.player)
                assert words and isinstance(words, str) and a.text not in words, (lang, a.text)
        game.apply(rnd.choice(d.actions))


def test_effect_operations_are_values_with_named_fields():
    cset = cs.build("base")
    game = Game(cset, ["A", "B"], 1)
    me = loose(next(iter(cset.species.values())), None)
    ctx = operations.Ctx(me, game.view(0))
    amount = operations.AmountFn("up_to", lambda c: 2)
    ctx.draw(2)
    ctx.draw_split(3, 1)
    ctx.move(amount, bool, "clearing", "cave", True)
    ctx.extra_turn()
    ctx.free_play(amount, bool, False)
    ctx.rummage(bool, 4)
    ctx.play_as(amount, bool, "sapling")
    ctx.play_paying()
    assert ctx.ops == [operations.Draw(2), operations.DrawSplit(3, 1),
                       operations.Move(amount, bool, "clearing", "cave", True), operations.ExtraTurn(),
                       operations.FreePlay(amount, bool, False), operations.Rummage(bool, 4),
                       operations.PlayAs(amount, bool, "sapling"), operations.PlayPaying()]
    move = ctx.ops[2]
    assert (move.source, move.target, move.draw_as_many) == ("clearing", "cave", True)
    with pytest.raises(AttributeError):
        move.source = "hand"  # type: ignore[misc]


# ---- nobody but grove/engine/action.py reads an action's text ------------------------------------
_ACTION_WORDS = {"action", "actions", "choice", "option", "options", "opts", "o", "pick",
                 "answer", "legal", "history", "decision", "rest", "parts", "played", "move"}
_SPLITS = {"split", "rsplit", "partition", "rpartition", "splitlines"}


def _splits_an_action(path: Path, root: Path = ROOT) -> list[str]:
    """Calls that take an action's text apart: `.split()` on whitespace (the separator of the
    action grammar) anywhere in engine/, and any split or partition of a value whose name
    says it is an action (`choice.split()`, `o.split()`, `(yield ...).split()`) anywhere."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    in_engine = path.parent.name == "engine"
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in _SPLITS):
            continue
        receiver = node.func.value
        names = {n.id for n in ast.walk(receiver) if isinstance(n, ast.Name)}
        names |= {n.attr for n in ast.walk(receiver) if isinstance(n, ast.Attribute)}
        whitespace = node.func.attr in ("split", "rsplit") and not node.args
        yields = any(isinstance(n, ast.Yield | ast.YieldFrom) for n in ast.walk(receiver))
        if (in_engine and whitespace) or yields or names & _ACTION_WORDS:
            out.append(f"{path.relative_to(root)}:{node.lineno}: {ast.unparse(node)}")
    return out


def test_no_module_but_the_action_module_splits_an_action():
    found = []
    for package in ("grove", "benchmarks"):  # every room is under grove/
        for path in sorted((ROOT / package).rglob("*.py")):
            if path == ROOT / "grove" / "engine" / "action.py":
                continue
            found += _splits_an_action(path)
    assert not found, "action texts are read by grove/engine/action.py only:\n" + "\n".join(found)


def test_the_split_check_sees_what_the_engine_once_did(tmp_path):
    old = tmp_path / "engine" / "old.py"
    old.parent.mkdir()
    old.write_text("def f(choice, game):\n"
                   "    card = int(choice.split()[1])\n"
                   "    hi, slot = parts[2].split('.', 1)\n"
                   "    x = (yield 1).split()[1]\n"
                   "    return game.key.split(':')\n")
    found = _splits_an_action(old, tmp_path)
    assert sorted(f.split(":")[1] for f in found) == ["2", "3", "4"]


_LABEL = st.text(alphabet="abc.0123 ", min_size=1, max_size=6)
_RUN = st.tuples(st.sampled_from(["", "play 7 ", "play 12 "]),
                 st.lists(_LABEL, max_size=4).map(tuple))


@given(st.lists(_RUN, max_size=6), st.data())
def test_offers_read_as_the_texts_they_spell(runs, data):
    """A turn's texts kept as runs (`Offers`) read, index, slice, search and compare exactly as
    the tuple of the texts spelt out, whether a text was read by position first or not."""
    flat = tuple(prefix + label for prefix, labels in runs for label in labels)
    offers = Offers([(prefix, labels, len(labels)) for prefix, labels in runs])
    assert len(offers) == len(flat)
    if flat:
        k = data.draw(st.integers(-len(flat), len(flat) - 1))
        assert offers[k] == flat[k]
        assert flat[k] in offers
    with pytest.raises(IndexError):
        offers[len(flat)]
    probe = data.draw(st.one_of(st.sampled_from(flat) if flat else st.nothing(),
                                st.text(alphabet="abcply.0127 ", max_size=12)))
    assert (probe in offers) == (probe in flat)  # by search, before every text is spelt
    assert tuple(offers) == flat and offers == flat and list(offers) == list(flat)
    assert (probe in offers) == (probe in flat)  # and after
    assert offers[1:3] == flat[1:3]
