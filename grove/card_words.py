"""A card set's words in a language, with no game: the names of its symbols, hosts, sides and
slots, and a species' kind. A person at the table reads them (`grove/seatview/view.py` builds on this
class), and so does a reader of `grove cards --lang` and `grove score --explain --lang`, so
the three never word the same card differently.

Names come from the card data (an author's edition names its own symbols and hosts); the rest
from the `screen` catalogs (`grove/seatview/words.py`) and the game log's side names. Every name is
input, so each is escaped as the scoreboard escapes it.
"""

from __future__ import annotations

from grove.compiler.cardset import CardSet, Species
from grove.dsl.diagnostics import escape
from grove.game_log import sentences
from grove.printouts.cases import capitalised, declined
from grove.seatview.words import Words


def _shown(text: object) -> str:
    return escape(str(text))


class CardWords:
    """`cardset`'s names in `lang`, English where the card data or a catalog has none."""

    def __init__(self, cardset: CardSet, lang: str = "en"):
        self.cardset = cardset
        self.lang = lang
        self.words = Words(lang)
        self._log = sentences(lang)

    def symbol_name(self, sid: str | None) -> str:
        if not sid:
            return ""
        sym = self.cardset.symbol(sid)
        return _shown(sym.names.get(self.lang) or sym.names.get("en") or sid) if sym else sid

    def host_name(self, kind: str) -> str:
        """The host's name, with the case forms its data gives (`{host_acc}` on the screen)."""
        host = self.cardset.hosts.get(kind)
        if host is None:
            return kind
        return declined(host.names.get(self.lang) or host.names.get("en") or kind,
                        host.cases.get(self.lang), _shown)

    def host_label(self, kind: str) -> str:
        """The host's name where it starts a label (a forest's row, a face-down card)."""
        return capitalised(self.host_name(kind))

    def side_name(self, side: str) -> str:
        return self._log.get(f"log.side.{side}", side)

    def slot_name(self, slot: str) -> str:
        side, _, number = slot.partition("_")
        word = self.side_name(side)
        return self._log.get("log.side.numbered", "{side}_{number}").format(
            side=word, number=number) if number else word

    def place_name(self, place: str) -> str:
        """Where a scored card lies, as `grove score` names it: a slot, or the host kind of a
        host card (`tree`, `sapling`)."""
        return self.host_name(place) if place in self.cardset.hosts else self.slot_name(place)

    def host_of(self, sp: Species) -> str | None:
        """The host kind a species' card becomes when played as a host, if it is one."""
        return next((h.id for h in self.cardset.hosts.values() if h.from_kind == sp.kind), None)

    def kind_name(self, sp: Species) -> str:
        """A species' kind as a player reads it: the host it makes, or the sides it goes on."""
        host = self.host_of(sp)
        if host is not None:
            return self.host_name(host)
        if sp.sides:
            return self.words("kind.dweller", sides=", ".join(self.side_name(s) for s in sp.sides))
        # a cave card, or a kind an author's edition adds (named by its id)
        return self.words(f"kind.{sp.kind}") if f"kind.{sp.kind}" in self.words.texts else sp.kind

    def types(self, sp: Species) -> str:
        return ", ".join(self.symbol_name(t) for t in sp.types) or "-"
