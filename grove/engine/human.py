"""A person at the terminal: the legal actions listed in plain words, chosen by number."""

from __future__ import annotations

import sys
from typing import TextIO

from grove.engine.action import Action, CaveCard, Draw, FaceDown, IllegalAction, Pick, Play, Say, parse
from grove.engine.game import Decision
from grove.engine.seat import Seat


class Quit(Exception):
    """A player stops the game: `runner.play` ends its record with a stop line, from which
    `grove play --resume` goes on. Raised from a player's `choose` (or from the `on_action`
    hook, for a stop asked for while another player is choosing)."""


def describe(game: Seat, action: Action, lang: str = "en") -> str:
    """An action put into words, with card names in the chosen language."""

    def name(c: int) -> str:
        return game.card_name(c, lang)

    hosts = game.cardset.hosts
    match action:
        case Draw(card=None):
            return "draw the top card of the deck"
        case Draw(card=int() as card):
            return f"take {name(card)} from the clearing"
        case Play(place=place, free=free):
            verb = "play for free" if free else "play"
            if place.kind is not None:
                kind = hosts[place.kind].names.get(lang, place.kind)
                return f"{verb} {name(place.card)} as a new {kind}"
            hosts = game.forest(game.seat).hosts
            host = hosts[place.host].card if place.host < len(hosts) else None
            where = ((host.species.name(lang) if host and host.species else "host")
                     + f" {place.host + 1}")
            return f"{verb} {name(place.card)} ({place.side} half) at {where}, slot {place.slot}"
        case FaceDown(kind=kind, card=card) if kind in hosts:
            return f"play {name(card)} face down as a {hosts[kind].names.get(lang, kind)}"
        case Pick(verb=verb, card=card):
            return f"{verb} {name(card)}"
        case CaveCard(species=key):
            sp = next((s for s in game.cardset.caves if s.id == key), None)
            return f"take the cave card {sp.name(lang) if sp is not None else key}"
        case Say() | FaceDown():
            return action.text


class HumanPlayer:
    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None,
                 lang: str = "en"):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stderr
        self.lang = lang

    def choose(self, game: Seat, decision: Decision) -> Action:
        p = game.players[decision.player]
        hand = ", ".join(game.card_name(c, self.lang) for c in p.hand)
        print(f"\n{p.name}: {decision.about}. Your hand: {hand}", file=self.stdout)
        for k, o in enumerate(decision.actions, 1):
            print(f"  {k:>3}. {describe(game, o, self.lang)}", file=self.stdout)
        while True:
            print("choose a number: ", end="", file=self.stdout, flush=True)
            line = self.stdin.readline()
            if not line:
                raise Quit("no more input")
            line = line.strip()
            if line.isdigit() and 1 <= int(line) <= len(decision.actions):
                return decision.actions[int(line) - 1]
            try:  # an action's text works too
                action = parse(line)
            except IllegalAction:
                action = None
            if action is not None and action in decision.actions:
                return decision.actions[decision.actions.index(action)]
            print(f"  please type a number from 1 to {len(decision.actions)}", file=self.stdout)
