"""The one serialiser of the browser table: what a seat may see, as JSON.

Everything here is read through the seat's `Seat` (grove/engine/seat.py) and worded by its
`View` (grove/seatview/view.py), in the engine's thread while the engine waits, so a message
can carry no more than the seat may know: the re-deal test (tests/test_serve_wire.py) deals
every card the seat cannot see anew and finds the same JSON. A card the seat sees is named by
its number and its face (an image the print renderer drew, `faces.py`); a card it cannot see
has neither, only the host it lies in.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from grove.engine.action import Action, FaceDown, Pick, Play
from grove.engine.decision import Decision
from grove.engine.seat import SPECTATOR, Seat
from grove.report import shown
from grove.seatview.steps import Step, rehearsed, steps
from grove.seatview.view import View
from grove.serve.faces import Faces

LOG_LINES = 120  # the log lines a view carries: the newest


def dumps(msg: Any) -> str:
    """A message as the JSON text a socket or a response carries."""
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()


@dataclass(frozen=True)
class Wire:
    """A seat's words and faces: what every message of one seat is made with."""

    view: View
    faces: Faces
    # each forest's part of the message, by player, with the forest it was made from: a forest
    # a move left alone is the same object (`Seat.forest`), and its part is made once
    forests: dict[int, tuple[object, dict[str, Any]]] = field(default_factory=dict,
                                                              compare=False)

    @property
    def seat(self) -> Seat:
        return self.view.game

    def card(self, number: int | None) -> dict[str, Any]:
        """A card the seat sees: its number, name and face; None: a card face down. A face's
        rules text is not in the message: the page reads every face's once
        (`/faces/KEY/words.json`), as it loads their images."""
        if number is None:
            return {"card": None, "face": None, "name": self.view.words("face_down")}
        return {"card": number, "face": self.faces.of_card(number),
                "name": self.view.card_name(number)}


def table(wire: Wire, log: Sequence[str], decision: Decision | None,
          state: int, final: dict[str, Any] | None = None, asking: bool = False
          ) -> dict[str, Any]:
    """The whole table as the seat sees it: the message a page is drawn from. `decision` is the
    game's; the seat is `asking` once the game waits on its answer (not before: an answer
    given earlier would find no one to take it)."""
    seat, view = wire.seat, wire.view
    me = seat.seat
    sizes = seat.hand_sizes()
    scores = view.scores()
    totals = scores.rows[-1][1:]
    players = []
    for j, p in enumerate(seat.players):
        players.append({"name": shown(p.name), "hand": sizes[j], "cave": p.cave_size,
                        "score": int(totals[j]), "you": j == me,
                        "known": [wire.card(c) for c in p.hand if j != me],
                        "cave_card": (shown(p.cave_card.name(view.lang))
                                      if p.cave_card is not None else None)})
    out: dict[str, Any] = {
        "type": "table", "state": state, "seat": me, "lang": view.lang,
        "faces_key": wire.faces.key,
        "title": view.title(), "over": seat.over, "turn": seat.turn + 1,
        "current": seat.current, "players": players,
        "deck": seat.deck_size, "table_line": view.table_line(hands=False),
        "winter": {"drawn": len(seat.winter), "total": seat.cardset.setup.winter_cards},
        "clearing": [wire.card(c) for c in seat.clearing],
        "hand": [wire.card(c) for c in view.hand(me, decision)] if me != SPECTATOR else [],
        "forests": [forest(wire, j) for j in range(len(seat.players))],
        "scores": {"columns": list(scores.columns), "rows": [list(r) for r in scores.rows]},
        "log": list(log[-LOG_LINES:]),
        "decision": None,
        "waiting": None,
        "final": final,
        "words": words(view),
    }
    if decision is not None:
        out["waiting"] = shown(seat.players[decision.player].name)
        if decision.player == me and asking:
            out["decision"] = asked(wire, decision)
    return out


def forest(wire: Wire, j: int) -> dict[str, Any]:
    """Player j's forest: a host a row, each slot with its cards; face-down cards as such."""
    seat, view = wire.seat, wire.view
    f = seat.forest(j)
    kept = wire.forests.get(j)
    if kept is not None and kept[0] is f:
        return kept[1]
    mine = j == seat.seat
    hosts = []
    for h in f.hosts:
        c = h.card
        face_down = c.species is None
        label = (shown(c.species.name(view.lang)) if not face_down
                 else f"{view.host_label(h.kind.id)} ({view.words('face_down')})")
        card = wire.card(c.number if (not face_down or mine) else None)
        card["down"] = face_down
        slots = []
        for sd in h.kind.slots:
            slots.append({"side": sd.side, "slot": sd.id, "name": view.slot_name(sd.id),
                          "capacity": sd.capacity,
                          "cards": [dict(wire.card(x.number), name=shown(x.species.name(view.lang)))
                                    if x.species is not None else wire.card(None)
                                    for x in h.slots[sd.id]]})
        hosts.append({"index": h.index + 1, "label": label, "kind": view.host_name(h.kind.id),
                      "card": card,
                      "beneath": [wire.card(b.number if (mine or b.species is not None) else None)
                                  for b in h.beneath],
                      "slots": slots})
    out = {"player": j, "name": shown(seat.players[j].name), "hosts": hosts,
           "sides": [view.side_name(s) for s in view.forest_sides()]}
    wire.forests[j] = (f, out)
    return out


def step_json(wire: Wire, s: Step, decision: Decision) -> dict[str, Any]:
    """A line of a list: its words, and what picking it does: open the list `below`, take
    `action` at once, or take it once confirmed (a play), after settling what it brings
    (`settle`: its river card and payment, rehearsed by the server)."""
    a = s.action
    return {"label": s.label, "action": a.text if a is not None else None,
            "card": wire.card(s.card) if s.card is not None else None, "points": s.points,
            "confirm": isinstance(a, Play | FaceDown),
            "place": _place(a),
            "settle": a is not None and rehearsed(decision, a),
            "below": [step_json(wire, b, decision) for b in s.below]}


def _place(a: Action | None) -> dict[str, Any] | None:
    """Where a play puts its card, for the page to light the place up on the forest: a host
    (by its number, as the forest shows it) and a slot, or a new host."""
    if isinstance(a, FaceDown):
        return {"host": None}
    if isinstance(a, Play):
        p = a.place
        return {"host": None} if p.kind is not None else {"host": p.host + 1, "slot": p.slot}
    return None


def asked(wire: Wire, decision: Decision, play: Action | None = None) -> dict[str, Any]:
    """What the seat is asked: the question and its steps, or the payment to make."""
    view = wire.view
    question = view.words("ask", player=shown(wire.seat.players[decision.player].name),
                          ask=view.ask(decision))
    if decision.kind == "pay":
        return {"kind": "pay", "ask": question, "pay": payment(wire, decision, play)}
    return {"kind": decision.kind, "ask": question,
            "steps": [step_json(wire, s, decision) for s in steps(view, decision)]}


def payment(wire: Wire, decision: Decision, play: Action | None) -> dict[str, Any]:
    """The cards that may pay, each with whether it shows the symbol the bonus asks of every
    paid card, and the notes to say before confirming (`View.bonus_note`)."""
    view = wire.view
    pay = view.payment(decision, play)
    assert pay is not None
    cards = view.hand(decision.player, decision)
    return {
        "title": view.words("pay_title", card=pay.card, count=pay.count),
        "count": pay.count,
        "cards": [dict(wire.card(c), details=view.card_details(c),
                       action=Pick("pay", c).text,
                       shows=any(sym == pay.symbol for _, _, sym in wire.seat.halves(c)))
                  for c in cards],
        "bonus": pay.bonus is not None,
        "notes": notes(view, pay.symbol, pay.bonus),
    }


def notes(view: View, symbol: str | None, bonus: str | None) -> dict[str, str]:
    """`View.bonus_note`'s three answers, said as the person picks: no bonus to earn, every
    card picked shows the symbol, or not."""
    sym = f"‹{view.symbol_name(symbol)}›"
    return {"none": view.words("no_bonus"),
            "yes": view.words("bonus_yes", symbol=sym, bonus=bonus) if bonus else "",
            "no": view.words("bonus_no", symbol=sym, bonus=bonus) if bonus else ""}


def words(view: View) -> dict[str, str]:
    """The table page's own words in the seat's language (the `screen` catalogs)."""
    w = view.words
    keys = ("hand", "clearing", "scores", "log", "forests", "card", "waiting", "empty", "total",
            "web.back", "web.confirm", "web.hint", "web.your_turn", "web.waiting_for",
            "web.pay_picked", "web.over", "web.reconnecting", "web.spectator", "web.deck",
            "web.winter", "web.final", "web.points_cards", "web.cave", "web.known",
            "web.thinking", "web.game_failed")
    return {k: w(k) for k in keys}
