"""Playing at the table (issue 29): the log's turns hold what happened in them, `show NAME`, every
hand's size, the edition by its own name, a full hand's turn, and the final scoreboard's words.

Through a pipe, as a person at the line mode sees them, and checked against the engine's own
facts (events, hands, rules text), so a wrong word cannot pass for a right one. Small games:
two players, greedy or a scripted human against greedy; each whole game takes about a second.
"""

from __future__ import annotations

import json
import re

import pytest

from engine import runner
from tests.test_play_terminal import grove

TURN = re.compile(r"^Turn (\d+): (.+)$")


# ---- 1. the log's turns -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def greedy_game(tmp_path_factory):
    """`grove play --ai greedy,greedy --seed 2`: its log (stderr), its board and its record."""
    folder = tmp_path_factory.mktemp("greedy")
    proc = grove("play", "--ai", "greedy,greedy", "--seed", "2", "--record", "g.jsonl",
                 cwd=folder)
    assert proc.returncode == 0, proc.stderr
    lines = (folder / "g.jsonl").read_text().splitlines()
    return proc, json.loads(lines[-1])


def test_every_turn_has_its_header_in_order(greedy_game):
    proc, end = greedy_game
    headers = [int(m[1]) for line in proc.stderr.splitlines() if (m := TURN.match(line))]
    assert end["type"] == "end" and len(headers) == end["turns"]
    assert headers == list(range(1, end["turns"] + 1))


def test_each_winter_card_stands_under_the_turn_it_was_drawn_in(greedy_game, base):
    """The engine's events say in which turn and whose each winter card came; the log's line
    for it must stand under that turn's header, the game-ending one included."""
    proc, _ = greedy_game
    out = runner.play(base, ["greedy", "greedy"], 2, names=["Greedy 1", "Greedy 2"])
    events = out.game.events
    drawn = []
    for k, e in enumerate(events):
        if e.kind == "winter":
            owner = next((x.player for x in events[k:] if x.turn == e.turn and x.player >= 0),
                         out.game.current)
            drawn.append((e.turn + 1, f"Greedy {owner + 1}"))
    assert len(drawn) == base.setup.winter_cards
    header = None
    seen = []
    for line in proc.stderr.splitlines():
        if m := TURN.match(line):
            header = (int(m[1]), m[2])
        elif "winter card" in line:
            seen.append(header)
    assert seen == drawn
    assert proc.stderr.splitlines()[-2:] == [f"  * winter card {len(drawn)} is drawn",
                                             "  * the game ends"]
