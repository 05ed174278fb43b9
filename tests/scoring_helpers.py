"""Builders and readers shared by the exact-scoring tests: forests as dicts, scored through
the public API exactly as a forest file on disk would be."""

from __future__ import annotations

import json
from itertools import count

from grove import api

_ids = count()


def P(name, forest, cave=0):  # noqa: N802 - short builder for a player
    return {"name": name, "cave": cave, "forest": forest}


def C(card, symbol):  # noqa: N802 - a card with its tree symbol
    return {"card": card, "symbol": symbol}


def score_doc(tmp_path, edition, expansions, players):
    doc = {"edition": edition, "with": list(expansions), "players": list(players)}
    path = tmp_path / f"{edition}_{next(_ids)}.json"
    path.write_text(json.dumps(doc, indent=1))
    return api.score_file(str(path))


def player(res, name=None):
    if name is None:
        assert len(res["players"]) == 1
        return res["players"][0]
    return next(p for p in res["players"] if p["name"] == name)


def is_card(card_field, card):
    """A result's card id matches `card`; a plain id also matches its qualified form."""
    return card_field == card or card_field.split(":")[-1] == card and ":" not in card


def pts(res, card, name=None, host=None, slot=None):
    """Sum of points of every placed copy of `card` (optionally filtered by host/slot)."""
    p = player(res, name)
    rows = [c for c in p["cards"] if is_card(c["card"], card)
            and (host is None or c["host"] == host) and (slot is None or c["slot"] == slot)]
    assert rows, f"{card} not found in {p['name']}'s forest"
    return sum(c["points"] for c in rows)


def each(res, card, name=None):
    """Points of every copy of `card`, in forest order."""
    p = player(res, name)
    return [c["points"] for c in p["cards"] if is_card(c["card"], card)]


def total(res, name=None):
    return player(res, name)["total"]


def cats(res, name=None):
    return player(res, name)["by_category"]
