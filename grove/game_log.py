"""The game log `grove play` prints: the game's events put into words, a block per turn.

The engine records facts (`engine.events.Event`); this module only words them, with card names
in the chosen language, so the log can never claim something the engine did not do. The
sentences come from a gettext catalog per language (`grove/printouts/catalogs/<lang>/LC_MESSAGES/
game_log.po`, msgctxt `log.*`, like the rules text), so `play --lang de` prints German sentences
around German names instead of English ones; a sentence a catalog lacks falls back to English.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache

from grove.engine.events import Event
from grove.engine.game import Game
from grove.engine.seat import HIDDEN, Seat
from grove.printouts.cases import declined, with_cases


@cache
def sentences(lang: str) -> dict[str, str]:
    """msgctxt -> sentence in `lang`, English (the msgid) where the catalog has none.

    Read once per language per process: Babel is imported only by a log that is printed, so
    `play --quiet` and `--json` do not pay for it."""
    from babel.messages.pofile import read_po

    from grove.printouts.phrases import CATALOG_DIR

    def read(code: str) -> dict[str, str]:
        path = CATALOG_DIR / code / "LC_MESSAGES" / "game_log.po"
        if not path.is_file():
            return {}
        with open(path, "rb") as fh:
            catalog = read_po(fh, locale=code, domain="game_log")
        return {m.context: str(m.string or m.id) for m in catalog if m.id and m.context}

    english = read("en")
    return english | (read(lang) if lang != "en" else {})


class GameLog:
    """Words the events a game has added since the last call; keeps where it stopped."""

    def __init__(self, game: Game | Seat, lang: str = "en"):
        """`game`: the game itself, for a log of everything (a referee's, as an all-AI game
        prints), or a seat's view of it, for what that seat's player may read."""
        self.game = game
        self.lang = lang
        self._words: dict[str, str] | None = None  # read at the first line said
        self._seen = 0
        self._header: tuple[int, int] | None = None
        self._payment: tuple[int, ...] = ()  # said with the play that follows it
        # an effect's line ("Squirrel: effect"), said with the first thing it does: an effect
        # that did nothing (no card to take) said nothing, not a heading with nothing under it
        self._effect: str | None = None

    def _say(self, key: str, **values: object) -> str:
        """The sentence `log.<key>` of the language, filled in."""
        if self._words is None:
            self._words = sentences(self.lang)
        return self._words.get(f"log.{key}", key).format(**with_cases(values))

    def _zone(self, way: str, zone: str) -> str:
        """`from the clearing`, `into the cave`: a zone with its preposition, which the
        languages decline differently ("aus der Lichtung", "in die Lichtung")."""
        if self._words is None:
            self._words = sentences(self.lang)
        return self._words.get(f"log.{way}.{zone}", zone)

    def _slot(self, slot: str) -> str:
        side, _, number = slot.partition("_")
        if self._words is None:
            self._words = sentences(self.lang)
        word = self._words.get(f"log.side.{side}", side)
        return self._say("side.numbered", side=word, number=number) if number else word

    def new_lines(self) -> list[str]:
        events = self.game.events[self._seen:]
        self._seen = len(self.game.events)
        return list(self._lines(events))

    def _lines(self, events: Iterable[Event]) -> Iterator[str]:
        events = list(events)
        for k, e in enumerate(events):
            if e.player < 0:
                # the table's events (a winter card, a flush, the end) belong to the turn they
                # happened in, whoever's it is: under its header, even when they come first
                owner = self._owner(e.turn, events[k + 1:])
                if owner is not None and self._header != (e.turn, owner):
                    self._header = (e.turn, owner)
                    yield self._say("turn", turn=e.turn + 1, player=self._name(owner))
                text = self._table(e)
                if text:
                    yield f"  * {text}"
                continue
            if self._header != (e.turn, e.player):
                self._header, self._effect = (e.turn, e.player), None
                yield self._say("turn", turn=e.turn + 1, player=self._name(e.player))
            if e.kind == "pay":
                self._payment = e.cards
                continue
            text = self._player(e)
            if e.kind == "effect":
                self._effect = f"  {text}" if text else None
                continue
            if e.kind not in ("bonus", "trigger", "stuck") and self._effect is not None:
                yield self._effect  # what the effect did follows it
            self._effect = None
            if text:
                indent = "  " if e.kind in ("play", "bonus", "trigger", "cave_card",
                                            "stuck") else "    "
                yield f"{indent}{text}"

    def _owner(self, turn: int, later: list[Event]) -> int | None:
        """Whose turn `turn` is: the header's player, if it is that turn's already; else the
        player of the next event of that turn (a winter card drawn before the draw it
        interrupted); else, for the turn being played, the game's current player (the last
        winter card ends the game before its drawer's own events). None: no one's known."""
        if self._header is not None and self._header[0] == turn:
            return self._header[1]
        owner = next((e.player for e in later if e.turn == turn and e.player >= 0), None)
        if owner is None and turn == self.game.turn:
            owner = self.game.current
        return owner

    def _name(self, player: int) -> str:
        # by `names`, not `players`: a seat's players are built anew, forests and all, per call
        return self.game.names[player] if isinstance(self.game, Seat) else (
            self.game.players[player].name)

    def _names(self, cards: Iterable[int]) -> str:
        """The cards named, those the reader may not see (`HIDDEN`, in a seat's log) as a
        count: another player's draw from the deck reads "draws 2 cards"."""
        cards = list(cards)
        named = [self.game.card_name(c, self.lang) for c in cards if c != HIDDEN]
        hidden = len(cards) - len(named)
        if hidden:
            named.append(self._say("hidden.one") if hidden == 1
                         else self._say("hidden.many", count=hidden))
        return ", ".join(named)

    def _species(self, key: str) -> str:
        return self.game.cardset.species[key].name(self.lang)

    def _table(self, e: Event) -> str:
        if e.kind == "winter":
            return self._say("winter", number=self.game.winter.index(e.cards[0]) + 1)
        if e.kind == "flush":
            return self._say("flush", count=len(e.cards))
        if e.kind in ("end", "stalled"):
            return self._say(e.kind)
        if e.kind == "move":
            return self._say("revealed", cards=self._names(e.cards))
        return ""

    def _player(self, e: Event) -> str:
        kind = e.kind
        if kind == "play":
            return self._play(e)
        if kind == "move":
            names, src = self._names(e.cards), self._zone("from", e.source)
            if e.target == "hand":
                return (self._say("draws", cards=names) if e.source == "deck"
                        else self._say("takes", cards=names, source=src))
            verb = "removes" if e.target == "removed" else "puts"
            return self._say(verb, cards=names, source=src, target=self._zone("to", e.target))
        if kind in ("effect", "bonus", "trigger"):
            return self._say(kind, species=self._species(e.species))
        if kind in ("extra_turn", "stuck"):
            return self._say(kind)
        if kind == "cave_card":
            return self._say("cave_card", species=self._species(e.species))
        return ""

    def _play(self, e: Event) -> str:
        play = self._placement(e)
        if self._payment:
            play = self._say("paying", play=play, cards=self._names(self._payment))
        self._payment = ()
        return play

    def _placement(self, e: Event) -> str:
        card = e.cards[0]
        how = e.source if e.source in ("free", "clearing") else "hand"
        hosts = self.game.cardset.hosts
        if e.target in hosts:
            host = hosts[e.target]
            what = (self._species(e.species) if e.species
                    else self._say("face_down", card=self._names([card])))
            play = self._say(f"host.{how}", card=what, host=declined(
                host.names.get(self.lang, host.id), host.cases.get(self.lang)))
            if e.cards[1:]:
                play = self._say("beneath", play=play, cards=self._names(e.cards[1:]))
            return play
        hi, slot = e.target.split(".", 1)
        host = self.game.players[e.player].forest.hosts[int(hi)]
        sp = host.card.species
        where = sp.name(self.lang) if sp is not None else (
            host.kind.names.get(self.lang, host.kind.id))
        return self._say(f"slot.{how}", card=self._species(e.species), where=where,
                         number=int(hi) + 1, slot=self._slot(slot))
