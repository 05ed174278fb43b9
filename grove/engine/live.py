"""Where card halves fit in the players' forests, kept current as the forests grow.

The engine asks where every half of every hand card fits on every turn, and again for every free
play; the forests change by one card at a time. So the answers are kept, and brought up to date
from the forest's own `log` of placements (`grove/forest/model.py`): a forest is grown only by placing
cards, so the entries of the log not yet seen are all that changed. Nothing else has to tell this
module about a change, and a forest prepared by hand (a scenario) is read like any other.

Where a card half fits:
- depends on nothing but the cards at the host (placement rules look no further), so hosts that
  hold the same cards share their answers; where neither the half nor a card at the host has a
  placement rule, only the host's kind and how full its slots are count (every half without
  water fits the same empty slots of every plain tree), and a half without rules takes that
  answer at every host where no card's rule meets its side, even where another host has such a
  rule; where no rule reaches beyond its own slot, each slot is asked on its own
  (`placement.fit_key`). These answers hold in every game of the card set and are kept in its
  memo (`grove/engine/memo.py`);
- is kept per forest and half, host by host, with the hosts changed since on each side: an
  answer is brought up to date by redoing only the hosts that changed where the change bears on
  the half's side.

The answers themselves, and how hosts that answer alike share them, are in `grove/engine/fits.py`; this
module keeps them current.

A player's forest scored card by card (`grove/engine/tally.py`), for weighing plays, is kept here too:
it holds while the forest's log and cave stand still (and, where a point reads the other forests,
while theirs do), so a player who drew last turn weighs its plays against the same tally.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from grove.compiler.cardset import CardSet, Species
from grove.compiler.model import HostKind, SlotDef
from grove.engine import placement
from grove.engine.fits import Answers, Fit, FitKey, Half, HostFits, Where, fullness, side_content
from grove.engine.memo import Memo
from grove.engine.tally import Alike, Tally
from grove.forest.host import Host, Placed
from grove.forest.model import Forest, Trial, table


class _PlayerState(Protocol):
    forest: Forest
    cave: list[int]
    cave_card: Species | None


def _fits_locally(host: Host, slot: SlotDef, sp: Species, sym: str | None) -> bool:
    return placement.fits(host, slot, sp, sym, True)


@dataclass(eq=False)
class Live:
    """What is known of one forest: answers per host, and the log entries they include."""

    seen: int  # how many entries of the forest's log these answers include
    last: Placed | None  # the last of them (a take-back and another placement: not the same)
    hosts: list[HostFits]  # one per host of the forest
    # side -> the hosts changed, in order, where halves of that side may fit otherwise now (a
    # card in a slot bears on its side only; a new host, or a rule that reaches the whole host,
    # on every side). An answer for a half of a side that has seen the first n of its changes
    # redoes only the hosts of the others
    changes: dict[str, list[int]]
    where: dict[FitKey, Where] = field(default_factory=dict)
    mixed: dict[str, set[int]] = field(default_factory=dict)  # side -> hosts mixed on that side
    triggers: set[int] = field(default_factory=set)  # hosts with a card that has a permanent effect
    # the forest as last brought up to date, and its version then (`Forest.version`)
    forest: Forest | None = None
    version: int = -1
    # its placements' state in the `Alike` the answers are shared by (`Alike.grown` from -1,
    # the empty forest: where a half fits reads the placements alone, never the cave)
    state: int = -1
    # the hosts changed and not yet asked again, each with its side as `_refit` takes them:
    # where answers are shared, most questions are answered before any host is asked
    pending: list[tuple[int, str | None]] = field(default_factory=list)


class LiveForests:
    def __init__(self, players: Sequence[_PlayerState], memo: Memo, alike: Alike | None = None):
        """`alike`: what other games whose forests were placed alike weighed and found to fit
        (grove/engine/tally.py), shared with these forests' tallies and answers."""
        self.players = players
        self._alike = alike
        self._live: list[Live | None] = [None] * len(players)
        table([p.forest for p in players])
        # what holds in every game of the card set (grove/engine/memo.py)
        self._answers: dict[tuple, Answers] = memo.answers  # host content -> where halves fit
        self._slot_answers: dict[tuple, bool] = memo.slot_answers  # placement.fit_key -> fits
        self._halves: dict[tuple, Half] = memo.halves_by_key
        self._fits: dict[tuple[str, tuple[str, ...]], Fit] = memo.fits  # (side, slot ids) -> Fit
        # the sides of the card set's slots (see `Live.changes`)
        self._sides = tuple(dict.fromkeys(s.side for h in memo.cardset.hosts.values()
                                          for s in h.slots))
        self._tokens: dict[tuple, frozenset[str]] = memo.tokens  # see `Tally._reached`
        # per player: (its log's length and last entry, its cave, the others' logs, its tally)
        self._tallies: list[tuple[tuple, tuple, tuple, Tally] | None] = [None] * len(players)
        # per player, where tallies share what they weigh: (its log's length and last entry,
        # its cave, its forest's state in `alike`)
        self._states: list[tuple[int, Placed | None, tuple, int] | None] = [None] * len(players)

    def _fits_at(self, host: Host) -> HostFits:
        if not host.has_rules:
            return HostFits(host, self._answers.setdefault(fullness(host), {}))
        # loops, not any() over generators: asked whenever a card joins a host with rules
        wide = False
        for c in (host.card, *host.attached()):
            if placement.reaches_host(c.species):
                wide = True
                break
        if wide:  # a rule here may meet a half on any side
            mixed = {s.side for s in host.kind.slots}
        else:  # only the sides with a ruled card in a slot
            mixed = set()
            for s in host.kind.slots:
                for c in host.slots[s.id]:
                    if c.species is not None and c.species.placement is not None:
                        mixed.add(s.side)
                        break
        return HostFits(host, None, wide, mixed=frozenset(mixed))

    def _refit(self, live: Live, hi: int, host: Host, side: str | None) -> None:
        """Host hi changed (for halves of `side` only, unless None): ask again where halves
        fit there."""
        fits = self._fits_at(host)
        if hi < len(live.hosts):
            for side_ in live.hosts[hi].mixed:
                live.mixed[side_].discard(hi)
            live.hosts[hi] = fits
        else:
            live.hosts.append(fits)
        for side_ in fits.mixed:
            live.mixed.setdefault(side_, set()).add(hi)
        if side is None or fits.wide:
            for changed in live.changes.values():
                changed.append(hi)
        else:
            live.changes[side].append(hi)

    def _slot_fits(self, host: Host, slot: SlotDef, sp: Species, sym: str | None) -> bool:
        key = placement.fit_key(host, slot, sp, sym)
        hit = self._slot_answers.get(key)
        if hit is None:
            hit = self._slot_answers[key] = placement.fits(host, slot, sp, sym, True)
        return hit

    def clear(self) -> None:
        """Forget every answer: the next question works them out from the forests."""
        self._live = [None] * len(self.players)
        self._tallies = [None] * len(self.players)
        self._states = [None] * len(self.players)

    def current(self, i: int) -> Live:
        """Player i's answers, brought up to date with the placements they have not seen."""
        forest = self.players[i].forest
        live = self._live[i]
        if live is not None and live.version == forest.version and live.forest is forest:
            return live
        log = forest.log
        if live is None or live.seen > len(log) or (live.seen and log[live.seen - 1]
                                                      is not live.last):
            live = self._live[i] = Live(0, None, [], {side: [] for side in self._sides})
        hosts = forest.hosts
        shared = self._alike is not None
        for c in log[live.seen:]:
            host = c.host
            assert host is not None
            hi = host.index
            sp = c.species
            # a card in a slot bears on its side only, unless its rule reaches the whole host
            side = None if c.slot is None or placement.reaches_host(sp) else c.side
            if shared:
                live.pending.append((hi, side))
            else:
                self._refit(live, hi, hosts[hi], side)
            if sp is not None and sp.trigger is not None:
                live.triggers.add(hi)
        if shared:
            live.state = self._alike.grown(live.state, log[live.seen:])  # type: ignore[union-attr]
        live.seen = len(log)
        live.last = log[-1] if log else None
        live.forest = forest
        live.version = forest.version
        return live

    def _cave(self, i: int) -> Forest:
        """Player i's forest with its cave counted as the game state holds it (the engine moves
        cards to a cave by hand; only scoring reads the count)."""
        p = self.players[i]
        forest = p.forest
        if forest.cave != len(p.cave) or forest.cave_card is not p.cave_card:
            forest.cave = len(p.cave)
            forest.cave_card = p.cave_card
            forest.memo.clear()
        return forest

    def tally(self, i: int, cardset: CardSet) -> Tally:
        """Player i's forest scored card by card against the others as they are now: the one
        worked out before, brought up to date with the cards placed since (a grown log holds
        its old entries) and with the other forests, while the cave stands still."""
        forest = self.views()[i]
        log = forest.log
        mine = (len(log), log[-1] if log else None)
        cave = (forest.cave, forest.cave_card)
        theirs = tuple([(len(f.log), f.log[-1] if f.log else None) for f in forest.others])
        kept = self._tallies[i]
        if kept is None or kept[1] != cave or not _holds(log, *kept[0]):
            tally = Tally(forest, cardset, self._tokens, self._alike)
        else:
            tally = kept[3]
            if kept[0] != mine:
                tally.advance(log[kept[0][0]:])
            if kept[2] != theirs:  # a play weighed may read them even where no card here does
                tally.others_changed()
            if kept[0] == mine and kept[2] == theirs:
                # and so are the forests' states, as far as its points read them (no point
                # here reads another player's cave, as the tally itself holds)
                return tally
        self._tallies[i] = (mine, cave, theirs, tally)
        if self._alike is not None:
            states = self._forest_states(self._alike)
            tally.state = states[i]
            tally.around = (*states[:i], *states[i + 1:])
        return tally

    def _forest_states(self, alike: Alike) -> list[int]:
        """Each forest's state in `alike` (`Alike.grown`), brought up to date with the cards
        placed since it was last asked (the forests as `views` sets their caves)."""
        out = []
        for i, p in enumerate(self.players):
            forest = p.forest
            log = forest.log
            cave = (forest.cave, forest.cave_card)
            kept = self._states[i]
            if kept is not None and kept[0] == len(log) and kept[2] == cave and (
                    not log or log[-1] is kept[1]):
                out.append(kept[3])
                continue
            if kept is None or kept[2] != cave or not _holds(log, kept[0], kept[1]):
                state = alike.state(forest)
            else:
                state = alike.grown(kept[3], log[kept[0]:])
            self._states[i] = (len(log), log[-1] if log else None, cave, state)
            out.append(state)
        return out

    def views(self) -> list[Forest]:
        """Every player's forest, up to date, each with the others set (for majorities)."""
        return [self._cave(j) for j in range(len(self.players))]

    def view(self, i: int) -> Forest:
        return self._cave(i)

    # ---- questions the engine asks -----------------------------------------------------------
    def half(self, sp: Species, sym: str | None, side: str) -> Half:
        """The half to ask `where` about (the same object for the same half, game long)."""
        half = self._halves.get((sp.key, sym, side))
        if half is None:
            ruled = not placement.places_plainly(sp)
            half = self._halves[(sp.key, sym, side)] = Half(
                sp, sym, side, ruled, ruled and placement.reaches_host(sp))
        return half

    def where(self, i: int, half: Half) -> tuple[str, ...]:
        """Every `<side> <host>.<slot>` of player i's forest where this half may go now."""
        return self.where_in(self.current(i), half)

    def where_in(self, live: Live, half: Half) -> tuple[str, ...]:
        """`where` in one player's forest as `current` gave it, while it stands still: a turn
        asks about every half of every hand card, and brings the forest up to date once. Where
        forests placed alike share answers (`Alike`), the answer of one of them."""
        alike = self._alike
        if alike is None:
            return self._where(live, half)
        key = (live.state, half.exact)
        hit = alike.fits.get(key)
        if hit is None:
            hit = alike.fits[key] = self._where(live, half)
        return hit

    def _where(self, live: Live, half: Half) -> tuple[str, ...]:
        if live.pending:  # the hosts changed since asked, in the order they changed
            assert live.forest is not None
            hosts = live.forest.hosts
            for hi, side in live.pending:
                self._refit(live, hi, hosts[hi], side)
            live.pending.clear()
        if half.ruled:
            return self._known(live, half, half.exact, None).all
        # a half that places plainly fits as every such half alike (`half.plain`) at each host
        # where no rule can meet it; only the hosts mixed on its side answer for it alone
        plain = self._known(live, half, half.plain, None)
        if not live.mixed.get(half.side):
            return plain.all
        return self._known(live, half, half.exact, plain).all

    def _known(self, live: Live, half: Half, key: FitKey, plain: Where | None) -> Where:
        """The answer for `key`, brought up to date with the changes on the half's side.

        Under a plain key, a host mixed on the half's side is left empty: the answer there is
        the half's own, which the answer under its exact key holds, taking the others from
        `plain` (current, under the plain key)."""
        known = live.where.get(key)
        if known is not None and known.seen == len(known.changed):
            return known
        side = half.side
        changed = known.changed if known is not None else live.changes.get(side, ())
        now = len(changed)
        moved = False  # a host's answer changed: the answers are joined again
        if known is None:
            known = live.where[key] = Where(changed)
            if plain is None:
                todo: Iterable[int] = range(len(live.hosts))
            else:  # only the mixed hosts may differ from the plain answer, which has none
                known.parts = plain.parts.copy()
                known.all = plain.all
                todo = sorted(live.mixed[side])
        else:
            todo = changed[known.seen:]
        parts = known.parts
        ruled = half.ruled
        plain_key = half.plain
        hosts = live.hosts
        start = len(parts)
        for hi in todo:
            fits = hosts[hi]
            slots: Fit | None = None
            if not ruled and (fits.plain is not None or side not in fits.mixed):
                if plain is not None:
                    here = plain.parts[hi]
                else:
                    answers = fits.plain if fits.plain is not None else fits.unmixed
                    if answers is None:  # rules at the host, none on this side: as if none
                        answers = fits.unmixed = self._answers.setdefault(fullness(fits.host), {})
                    slots = answers.get(plain_key)
                    if slots is None:  # no rule at the host, none of the half's reaches out
                        slots = answers[plain_key] = self._slots(fits.host, half,
                                                                 _fits_locally)
            elif key is plain_key:  # a mixed host: the half's own answer is under its exact key
                here = ()
            else:
                if half.wide or fits.wide:  # a rule may read the whole host
                    answers = fits.exact
                    if answers is None:
                        answers = fits.exact = self._answers.setdefault(fits.host.content(), {})
                    check = placement.fits
                else:  # slot by slot: only the cards on the half's side count
                    by_side = fits.by_side
                    if by_side is None:
                        by_side = fits.by_side = {}
                    answers = by_side.get(side)
                    if answers is None:
                        answers = by_side[side] = self._answers.setdefault(
                            side_content(fits.host, side), {})
                    check = self._slot_fits
                slots = answers.get(key)
                if slots is None:
                    slots = answers[key] = self._slots(fits.host, half, check)
            if slots is not None:  # `slots.at(hi)`, its usual case inline: a call per host
                labels = slots.labels  # cost 1% of a random game
                here = labels[hi] if hi < len(labels) else None
                if here is None:
                    here = slots.at(hi)
            if hi >= len(parts):
                parts.append(here)
            elif parts[hi] is not here:  # a Fit gives the same labels object again
                parts[hi] = here
                moved = True
        known.seen = now
        # most hosts take none of a half, and tuples concatenate an empty one for free; a
        # change that moved no answer (the card went where the half fits neither way) joins
        # nothing
        if moved:
            known.all = sum(parts, ())
        elif len(parts) > start:  # only hosts new since, at the end
            known.all += sum(parts[start:], ())
        return known

    def _slots(self, host: Host, half: Half,
               check: Callable[[Host, SlotDef, Species, str | None], bool]) -> Fit:
        side, sp, sym = half.side, half.sp, half.sym
        ids = tuple([s.id for s in host.kind.slots if s.side == side and check(host, s, sp, sym)])
        fit = self._fits.get((side, ids))
        if fit is None:  # one per side and slots, so each label is spelt once per card set
            fit = self._fits[(side, ids)] = Fit(side, ids)
        return fit

    def trigger_hosts(self, i: int) -> set[int]:
        """The hosts of player i's forest with a card that has a permanent effect."""
        return self.current(i).triggers

    def trial(self, i: int, sp: Species | None, sym: str | None,
              at: HostKind | tuple[int, str] | None) -> Trial:
        """Player i's forest with one more card for a moment (a new host of kind `at`, or a
        card at `(host, slot)`), the others set; taken back on leaving, whatever happened."""
        return self.view(i).trial(sp, sym, at)


def _holds(log: list[Placed], n: int, last: Placed | None) -> bool:
    """Whether a forest's log still begins with the n entries it had when `last` was its last:
    a forest grows only by placing and is taken back only by undoing the latest placement."""
    return n <= len(log) and (n == 0 or log[n - 1] is last)
