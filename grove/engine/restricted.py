"""Restricted play: a player that never plays the species it is barred from, and otherwise plays
as the player it wraps (Jaffe's restricted-play measure of what a card is worth to a player).

`grove simulate --ai greedy!red_fox,greedy --rotate` seats a greedy player that leaves every
red fox in its hand beside one that does not: the difference of their win rates and totals is
what foxes are worth to greedy. The wrapper takes out of a decision the options that would put a
barred species into the forest (a play, a free play's placement, a drafted cave card) and hands
the rest, with the same seat view, to the wrapped player; a barred card may still be drawn, kept
and paid with. When every option of a decision plays a barred species (a free play that must
place one), the decision is handed on whole: a game must go on, and such a forced play is rare.
"""

from __future__ import annotations

from collections.abc import Sequence

from grove.engine.action import Action, CaveCard
from grove.engine.decision import Decision
from grove.engine.game import Player
from grove.engine.seat import Seat

# the decisions whose options can put a species into a forest
_PLAYING = ("turn", "place")


class RestrictedPlayer:
    """`inner` with the species in `barred` (plain ids or qualified keys) never played. A search
    player is told the species too (`restrict`), so the turns it plays ahead for its own seat
    keep to them as well: else it would weigh a play by later plays it will never make."""

    def __init__(self, inner: Player, barred: frozenset[str]):
        self.inner = inner
        self.barred = barred
        restrict = getattr(inner, "restrict", None)
        if restrict is not None:
            restrict(barred)

    def choose(self, seat: Seat, decision: Decision) -> Action:
        return self.inner.choose(seat, narrow(seat, decision, self.barred))


def narrow(seat: Seat, decision: Decision, barred: frozenset[str]) -> Decision:
    """The decision without the options that would put a barred species into the forest; the
    decision itself where it has none, or where every option would (a forced play)."""
    kind = decision.kind
    if not barred or kind not in (*_PLAYING, "cave"):
        return decision
    if kind == "cave":
        kept = [t for t in decision.options if not _drafts_barred(decision, t, barred)]
    else:
        kept = [t for t in decision.options if not _plays_barred(seat, t, barred)]
    if not kept or len(kept) == len(decision.options):
        return decision
    return _narrowed(decision, kept)


def _plays_barred(seat: Seat, text: str, barred: frozenset[str]) -> bool:
    play = seat.play_of(text)
    return play is not None and (play[0].key in barred or play[0].id in barred)


def _drafts_barred(decision: Decision, text: str, barred: frozenset[str]) -> bool:
    action = decision.read(text)
    return isinstance(action, CaveCard) and action.species in barred


def _narrowed(decision: Decision, options: Sequence[str]) -> Decision:
    """The same decision offering only `options` (a tuple of texts, as every decision but a
    turn's holds them; a player reads either alike)."""
    return Decision(decision.player, decision.kind, tuple(options), decision.about,
                    decision.table)
