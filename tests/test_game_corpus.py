"""156 whole games pinned by the digest of their records, written before the engine's rework.

The engine may change how it works but not what it does: every game here, each edition and
combination, two to five players, random and greedy, must give the record it gave when it was
pinned, byte for byte (grove's version and the card files' digest aside, as in
`test_engine_games.record_digest`). A rules fix that changes a game re-pins it on purpose:
`python tests/test_game_corpus.py --write`, and the commit names the rule and the games.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from grove.compiler import cardset as cs
from grove.engine import runner

CORPUS = Path(__file__).parent / "games" / "corpus.json"
COMBOS = [("base", ()), ("base", ("alpine",)), ("base", ("woodland_edge",)),
          ("base", ("alpine", "woodland_edge")), ("dartmoor", ()), ("smoky_mountains", ())]
PER_COMBO = 26


def games() -> list[dict]:
    """The games, each with 2-5 players (cycling) and a mix of random and greedy seats."""
    out = []
    for edition, exps in COMBOS:
        for k in range(PER_COMBO):
            n = 2 + k % 4
            out.append({"edition": edition, "with": list(exps), "seed": 1000 + k,
                        "ai": ["greedy" if (k + j) % 3 == 0 else "random" for j in range(n)]})
    return out


def play(game: dict) -> str:
    from test_engine_games import record_digest

    out = io.StringIO()
    runner.play(cs.build(game["edition"], game["with"]), game["ai"], game["seed"], record=out)
    return record_digest(out.getvalue())


def _pinned() -> list[dict]:
    return json.loads(CORPUS.read_text())


@pytest.mark.parametrize("combo", [f"{e}{'+' if x else ''}{'+'.join(x)}" for e, x in COMBOS])
def test_every_pinned_game_gives_the_same_record(combo):
    pinned = [g for g in _pinned()
              if f"{g['edition']}{'+' if g['with'] else ''}{'+'.join(g['with'])}" == combo]
    assert len(pinned) == PER_COMBO
    changed = [f"seed {g['seed']} {','.join(g['ai'])}: {got}"
               for g in pinned if (got := play(g)) != g["digest"]]
    assert not changed, f"{combo}: games changed: {changed}"


def test_the_corpus_is_the_list_of_games():
    assert [{k: v for k, v in g.items() if k != "digest"} for g in _pinned()] == games()


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_game_corpus.py --write")
    CORPUS.write_text(json.dumps([{**g, "digest": play(g)} for g in games()], indent=1) + "\n")
