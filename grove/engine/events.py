"""What happened in a game, as small facts: the game log and the scenario tests read these.

An action's text says what a player chose; an event says what the game did with it (cards
gained, paid, sent to the cave, effects and bonuses that fired). Events hold card numbers and
species keys only, so a reader can put them into words in any language.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class Event:
    """One fact of a game. Not frozen, though nothing changes one: a game notes hundreds, and a
    frozen dataclass is built at five times the cost (every field set through
    `object.__setattr__`)."""

    turn: int
    player: int  # -1: the table (winter cards, the clearing flush, the end)
    kind: str
    cards: tuple[int, ...] = ()
    species: str = ""  # the species key whose play, effect, bonus or permanent effect this is
    source: str = ""  # a zone: where the cards came from
    target: str = ""  # a zone, or `host.slot` / a host kind for a play


# The kinds, and what their fields mean:
#   play      cards=(card, *cards beneath it)  species  target=`<host>.<slot>` or a host kind;
#             source: hand (paid), free, or clearing
#   pay       cards=payment
#   move      cards  source  target  (between zones: deck, clearing, hand, cave, removed)
#   effect / bonus / trigger   species: that card's rule ran
#   extra_turn, stuck, cave_card (species), winter (cards=(winter card,)), flush (cards), end
#   stalled   (the table, before `end`) a round in which no player's turn changed anything
KINDS = ("play", "pay", "move", "effect", "bonus", "trigger", "extra_turn", "stuck", "cave_card",
         "winter", "flush", "stalled", "end")
