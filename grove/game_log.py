"""The game log `grove play` prints: the game's events put into words, a block per turn.

The engine records facts (`engine.events.Event`); this module only words them, with card names
in the chosen language, so the log can never claim something the engine did not do.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.events import Event
from engine.game import Game

_ZONES = {"deck": "the deck", "clearing": "the clearing", "hand": "the hand",
          "cave": "the cave", "removed": "the box"}


class GameLog:
    """Words the events a game has added since the last call; keeps where it stopped."""

    def __init__(self, game: Game, lang: str = "en"):
        self.game = game
        self.lang = lang
        self._seen = 0
        self._header: tuple[int, int] | None = None
        self._payment: tuple[int, ...] = ()  # said with the play that follows it

    def new_lines(self) -> list[str]:
        events = self.game.events[self._seen:]
        self._seen = len(self.game.events)
        return list(self._lines(events))

    def _lines(self, events: Iterable[Event]) -> Iterator[str]:
        for e in events:
            if e.player < 0:
                text = self._table(e)
                if text:
                    yield f"  * {text}"
                continue
            if self._header != (e.turn, e.player):
                self._header = (e.turn, e.player)
                yield f"Turn {e.turn + 1}: {self.game.players[e.player].name}"
            if e.kind == "pay":
                self._payment = e.cards
                continue
            text = self._player(e)
            if text:
                indent = "  " if e.kind in ("play", "effect", "bonus", "trigger", "cave_card",
                                            "stuck") else "    "
                yield f"{indent}{text}"

    def _names(self, cards: Iterable[int]) -> str:
        return ", ".join(self.game.card_name(c, self.lang) for c in cards)

    def _species(self, key: str) -> str:
        return self.game.cardset.species[key].name(self.lang)

    def _table(self, e: Event) -> str:
        if e.kind == "winter":
            return f"winter card {self.game.winter.index(e.cards[0]) + 1} is drawn"
        if e.kind == "flush":
            return f"the clearing is full: its {len(e.cards)} cards leave the game"
        if e.kind == "end":
            return "the game ends"
        if e.kind == "move":
            return f"{self._names(e.cards)} is revealed in the clearing"
        return ""

    def _player(self, e: Event) -> str:
        kind = e.kind
        if kind == "play":
            return self._play(e)
        if kind == "move":
            names, src = self._names(e.cards), _ZONES.get(e.source, e.source)
            if e.target == "hand":
                return f"draws {names}" if e.source == "deck" else f"takes {names} from {src}"
            verb = "removes" if e.target == "removed" else "puts"
            into = "into" if e.target == "cave" else "to"
            return f"{verb} {names} from {src} {into} {_ZONES.get(e.target, e.target)}"
        if kind in ("effect", "bonus"):
            return f"{self._species(e.species)}: {kind}"
        if kind == "trigger":
            return f"{self._species(e.species)}: permanent effect"
        if kind == "extra_turn":
            return "takes another turn"
        if kind == "stuck":
            return "can neither draw nor play"
        if kind == "cave_card":
            return f"takes the cave card {self._species(e.species)}"
        return ""

    def _play(self, e: Event) -> str:
        paying = f", paying {self._names(self._payment)}" if self._payment else ""
        self._payment = ()
        return self._placement(e) + paying

    def _placement(self, e: Event) -> str:
        card = e.cards[0]
        how = {"free": "plays for free", "clearing": "plays from the clearing"}.get(e.source,
                                                                                    "plays")
        hosts = self.game.cardset.hosts
        if e.target in hosts:
            host = hosts[e.target]
            what = self._species(e.species) if e.species else self._names([card])
            face = "" if e.species else " face down"
            beneath = f", {self._names(e.cards[1:])} beneath it" if e.cards[1:] else ""
            return f"{how} {what}{face} as a {host.names.get(self.lang, host.id)}{beneath}"
        hi, slot = e.target.split(".", 1)
        host_state = self.game.players[e.player].forest[int(hi)]
        where = host_state.species.name(self.lang) if host_state.species else (
            host_state.kind.names.get(self.lang, host_state.kind.id))
        return f"{how} {self._species(e.species)} at {where} (#{int(hi) + 1}), {slot}"
