"""A person at the terminal: the legal actions listed in plain words, chosen by number."""

from __future__ import annotations

import sys
from typing import TextIO

from engine.game import Decision, Game


def describe(game: Game, action: str, lang: str = "en") -> str:
    """An action's stable text turned into words, with card names in the chosen language."""
    parts = action.split()

    def name(c: str) -> str:
        return game.card_name(int(c), lang)

    hosts = game.cardset.hosts
    if action == "draw deck":
        return "draw the top card of the deck"
    if parts[0] == "draw" and parts[1] == "clearing":
        return f"take {name(parts[2])} from the clearing"
    if parts[0] in ("play", "free"):
        verb = "play" if parts[0] == "play" else "play for free"
        if len(parts) == 3:
            return f"{verb} {name(parts[1])} as a new {hosts[parts[2]].names.get(lang, parts[2])}"
        hi, slot = parts[3].split(".", 1)
        host = (game.players[game.decision.player].forest.hosts[int(hi)].card
                if game.decision else None)
        where = (host.species.name(lang) if host and host.species else "host") + f" {int(hi) + 1}"
        return f"{verb} {name(parts[1])} ({parts[2]} half) at {where}, slot {slot}"
    if parts[0] in hosts:
        return f"play {name(parts[1])} face down as a {hosts[parts[0]].names.get(lang, parts[0])}"
    if parts[0] in ("pay", "cave", "choose", "river"):
        return f"{parts[0]} {name(parts[1])}"
    return action


class HumanPlayer:
    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None,
                 lang: str = "en"):
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stderr
        self.lang = lang

    def choose(self, game: Game, decision: Decision) -> str:
        p = game.players[decision.player]
        hand = ", ".join(game.card_name(c, self.lang) for c in p.hand)
        print(f"\n{p.name}: {decision.about}. Your hand: {hand}", file=self.stdout)
        for k, o in enumerate(decision.options, 1):
            print(f"  {k:>3}. {describe(game, o, self.lang)}", file=self.stdout)
        while True:
            print("choose a number: ", end="", file=self.stdout, flush=True)
            line = self.stdin.readline()
            if not line:
                raise EOFError("no more input")
            line = line.strip()
            if line.isdigit() and 1 <= int(line) <= len(decision.options):
                return decision.options[int(line) - 1]
            if line in decision.options:
                return line
            print(f"  please type a number from 1 to {len(decision.options)}", file=self.stdout)
