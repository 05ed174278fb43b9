"""The engine's own views of the forests: kept current as cards are placed, never rebuilt per play.

`Game.view(i)` hands out a view that never changes afterwards, for scoring and for tests. The
engine reads the forests far more often (every legal play of every turn, every permanent effect,
every step of an effect, every play a greedy player weighs), so it keeps one view per player that
grows with each placement (`compiler.view`'s `add_host`/`add_card`), and a trial play is placed
in it for a moment and taken back.

Where a card half fits:
- depends on nothing but the cards at the host (placement rules look no further), so hosts that
  hold the same cards share their answers; where neither the half nor a card at the host has a
  placement rule, only the host's kind and how full its slots are count (every half without
  water fits the same empty slots of every plain tree); where no rule reaches beyond its own
  slot, each slot is asked on its own (`placement.fit_key`). These answers hold in every game of
  the card set and are kept in its memo (`engine/memo.py`);
- is kept per forest and half, host by host, with the list of placements since: an answer is
  brought up to date by redoing only the hosts that changed, and of those only where the change
  bears on the half's side.

A live view mirrors its player's forest while the forest's size (hosts, slotted cards) is the one
it was last grown to; cards never leave a forest, so any other change (a state prepared by hand)
shows as a different size and the view is built afresh. `Game.restart_turn` forgets them all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Protocol

from compiler.cardset import Species
from compiler.model import HostKind, SlotDef
from compiler.view import ForestView, Host, HostSpec, Placed
from engine import placement
from engine.memo import Memo


class _Piece(Protocol):
    species: Species
    symbol: str | None


class _HostState(Protocol):
    kind: HostKind
    species: Species | None
    symbol: str | None
    slots: dict[str, list[_Piece]]


class _PlayerState(Protocol):
    name: str
    forest: list[_HostState]
    cave: list[int]
    cave_card: Species | None
    pieces: int


def build_view(p: _PlayerState) -> ForestView:
    """A player's forest as a new view, from the game state."""
    specs = [HostSpec(h.kind, h.species, h.symbol,
                      {sid: [(pc.species, pc.symbol) for pc in pieces]
                       for sid, pieces in h.slots.items()}) for h in p.forest]
    return ForestView.build(specs, len(p.cave), p.name, p.cave_card)


# (species key, tree symbol, side): one card half, as far as where it fits goes
HalfKey = tuple[str, str | None, str]
# what decides where a half fits at a host: the half itself, or only its side and whether it needs
# water (and is a dweller with that side) where no placement rule is in play
FitKey = tuple
Answers = dict[FitKey, tuple[str, ...]]


def content(host: Host) -> tuple:
    """What decides where a half fits at a host: its kind, its card, the cards in its slots."""
    card = host.card
    return (host.kind.id, card.key, card.symbol,
            tuple(tuple((c.key, c.symbol) for c in cards) for cards in host.slots.values()))


def fullness(host: Host) -> tuple:
    """All that decides where a half without rules fits at a host without rules."""
    return (host.kind.id, tuple(map(len, host.slots.values())))


class HostFits:
    """Where halves fit at one host of a live view, as far as asked (a new one per change)."""

    __slots__ = ("host", "plain", "wide", "mixed", "exact")

    def __init__(self, host: Host, plain: Answers | None, wide: bool = False,
                 mixed: frozenset[str] = frozenset()):
        self.host = host
        # half without rules -> ids of the slots it fits, shared by hosts as full; None where
        # a card at the host has a placement rule
        self.plain = plain
        self.wide = wide  # a card at the host has a rule that reads beyond its own slot
        # sides where a half without rules may meet one here (a card with a rule in a slot of
        # that side, or a rule that reaches the whole host): elsewhere only `accepts` counts
        self.mixed = mixed
        # half -> the same, shared by hosts with the same content; looked up when first needed
        self.exact: Answers | None = None


def _fits_locally(host: Host, slot: SlotDef, sp: Species, sym: str | None) -> bool:
    return placement.fits(host, slot, sp, sym, True)


def _count(counts: dict[str, int], sides: frozenset[str], k: int) -> None:
    for side in sides:
        counts[side] = counts.get(side, 0) + k


def _note_trigger(live: Live, host: int, species: Species | None) -> None:
    if live.triggers is not None and species is not None and species.trigger is not None:
        live.triggers.add(host)


class Half:
    """One card half as the engine asks where it fits, with what decides that worked out once."""

    __slots__ = ("sp", "sym", "side", "exact", "plain", "ruled", "wide")

    def __init__(self, sp: Species, sym: str | None, side: str, ruled: bool, wide: bool):
        self.sp = sp
        self.sym = sym
        self.side = side
        self.exact: HalfKey = (sp.key, sym, side)
        # what `accepts` reads: all a half that places plainly needs where it meets no rule
        self.plain: FitKey = (None, side, sp.water, sp.kind == "dweller" and side in sp.sides)
        self.ruled = ruled  # the half's own rule bears on where it goes
        self.wide = wide  # ... and may read beyond its own slot


class Where:
    """Where one half fits in one forest: per host, then all together."""

    __slots__ = ("seen", "parts", "all")

    def __init__(self, seen: int):
        self.seen = seen  # how many of the forest's changes these answers include
        self.parts: list[tuple[str, ...]] = []  # per host, the `<side> <host>.<slot>` it fits
        self.all: tuple[str, ...] = ()


@dataclass(eq=False)
class Live:
    view: ForestView
    pieces: int  # the forest's slotted cards it mirrors (its hosts: one per `hosts`)
    hosts: list[HostFits]  # one per host of the view
    # each placement in order: its host, and the side of its slot where only halves of that
    # side may fit otherwise now (None: any side, as for a new host or a rule that reaches the
    # whole host). An answer that has seen the first n changes redoes only the hosts of the
    # others that bear on its side
    changes: list[tuple[int, str | None]] = field(default_factory=list)
    where: dict[FitKey, Where] = field(default_factory=dict)
    mixed: dict[str, int] = field(default_factory=dict)  # side -> hosts mixed on that side
    triggers: set[int] | None = None  # hosts with a card that has a permanent effect


class LiveForests:
    def __init__(self, players: Sequence[_PlayerState], memo: Memo):
        self.players = players
        self._live: list[Live | None] = [None] * len(players)
        self._views: list[ForestView] = []  # as views() last set their others
        # what holds in every game of the card set (engine/memo.py)
        self._answers: dict[tuple, Answers] = memo.answers  # host content -> where halves fit
        self._slot_answers: dict[tuple, bool] = memo.slot_answers  # placement.fit_key -> fits
        self._reaches: dict[str, bool] = memo.reaches  # species key -> reaches_host
        self._by_symbol: dict[str | None, bool] = memo.by_symbol  # ... -> places_by_symbol
        self._plain: dict[str, bool] = memo.plain  # species key -> places_plainly
        self._halves: dict[tuple, Half] = memo.halves_by_key
        self._labels: dict[tuple, tuple[str, ...]] = memo.labels  # (side, host, slots) -> labels

    def _fits_at(self, host: Host) -> HostFits:
        if not host.has_rules:
            return HostFits(host, self._answers.setdefault(fullness(host), {}))
        wide = any(placement.reaches_host(c.species) for c in (host.card, *host.attached()))
        mixed = frozenset(s.side for s in host.kind.slots if wide or any(
            c.species is not None and c.species.placement is not None for c in host.slots[s.id]))
        return HostFits(host, None, wide, mixed=mixed)

    def _live_for(self, p: _PlayerState) -> Live:
        view = build_view(p)
        live = Live(view, p.pieces, [self._fits_at(h) for h in view.hosts])
        for fits in live.hosts:
            _count(live.mixed, fits.mixed, 1)
        return live

    def _refit(self, live: Live, hi: int, side: str | None) -> None:
        """Host hi of the live view changed (for halves of `side` only, unless None): ask
        again where halves fit there."""
        fits = self._fits_at(live.view.hosts[hi])
        if hi < len(live.hosts):
            _count(live.mixed, live.hosts[hi].mixed, -1)
            live.hosts[hi] = fits
        else:
            live.hosts.append(fits)
        _count(live.mixed, fits.mixed, 1)
        live.changes.append((hi, None if fits.wide else side))

    def _reaches_host(self, sp: Species) -> bool:
        hit = self._reaches.get(sp.key)
        if hit is None:
            hit = self._reaches[sp.key] = placement.reaches_host(sp)
        return hit

    def _plainly(self, sp: Species) -> bool:
        if sp.placement is None:
            return True
        hit = self._plain.get(sp.key)
        if hit is None:
            hit = self._plain[sp.key] = placement.places_plainly(sp)
        return hit

    def _places_by_symbol(self, sp: Species | None) -> bool:
        key = sp.key if sp is not None else None
        hit = self._by_symbol.get(key)
        if hit is None:
            hit = self._by_symbol[key] = placement.places_by_symbol(sp)
        return hit

    def _slot_fits(self, host: Host, slot: SlotDef, sp: Species, sym: str | None) -> bool:
        key = placement.fit_key(host, slot, sp, sym, self._places_by_symbol)
        hit = self._slot_answers.get(key)
        if hit is None:
            hit = self._slot_answers[key] = placement.fits(host, slot, sp, sym, True)
        return hit

    def clear(self) -> None:
        """Forget every view: the next question builds them from the game state."""
        self._live = [None] * len(self.players)

    def _get(self, i: int) -> Live:
        p = self.players[i]
        live = self._live[i]
        if live is None or live.pieces != p.pieces or len(live.hosts) != len(p.forest):
            live = self._live[i] = self._live_for(p)
        v = live.view
        if v.cave != len(p.cave) or v.cave_card is not p.cave_card:
            v.cave = len(p.cave)
            v.cave_card = p.cave_card
            v.memo.clear()
        return live

    def views(self) -> list[ForestView]:
        """Every player's live view, each with the others set (for majorities)."""
        vs = [self._get(j).view for j in range(len(self.players))]
        if vs != self._views:  # a view was built afresh (views have no __eq__: identity)
            for v in vs:
                v.others = [o for o in vs if o is not v]
            self._views = vs
        return vs

    def view(self, i: int) -> ForestView:
        return self.views()[i]

    # ---- the game placed a card: grow the view with it ----------------------------------------
    def _grown(self, i: int, hosts: int, pieces: int) -> Live | None:
        """Player i's live view if it mirrored the forest just before this placement (of so
        many hosts and slotted cards), now counting the placement's card; else None."""
        live = self._live[i]
        if live is None or live.pieces != pieces or len(live.hosts) != hosts:
            self._live[i] = None
            return None
        live.pieces = self.players[i].pieces
        return live

    def host_added(self, i: int, kind: HostKind, species: Species | None, symbol: str | None
                   ) -> None:
        """Call after a host joined player i's forest (the game state already holds it)."""
        p = self.players[i]
        live = self._grown(i, len(p.forest) - 1, p.pieces)
        if live is not None:
            live.view.add_host(kind, species, symbol)
            self._refit(live, len(live.hosts), None)
            _note_trigger(live, len(live.hosts) - 1, species)

    def card_added(self, i: int, host: int, slot: str, species: Species, symbol: str | None
                   ) -> None:
        """Call after a card joined a slot of player i's forest (the game state holds it)."""
        p = self.players[i]
        live = self._grown(i, len(p.forest), p.pieces - 1)
        if live is not None:
            card = live.view.add_card(host, slot, species, symbol)
            # a card whose rule stays in its slot changes where halves of its side fit, only
            self._refit(live, host, None if self._reaches_host(species) else card.side)
            _note_trigger(live, host, species)

    # ---- questions the engine asks -----------------------------------------------------------
    def half(self, sp: Species, sym: str | None, side: str) -> Half:
        """The half to ask `where` about (the same object for the same half, game long)."""
        half = self._halves.get((sp.key, sym, side))
        if half is None:
            ruled = not self._plainly(sp)
            half = self._halves[(sp.key, sym, side)] = Half(
                sp, sym, side, ruled, ruled and self._reaches_host(sp))
        return half

    def where(self, i: int, half: Half) -> tuple[str, ...]:
        """Every `<side> <host>.<slot>` of player i's forest where this half may go now."""
        live = self._live[i]
        p = self.players[i]
        if live is None or live.pieces != p.pieces or len(live.hosts) != len(p.forest):
            live = self._get(i)
        side = half.side
        ruled = half.ruled
        # where no rule can meet a half that places plainly, all such halves alike share
        key = half.plain if not ruled and not live.mixed.get(side) else half.exact
        known = live.where.get(key)
        now = len(live.changes)
        if known is not None and known.seen == now:
            return known.all
        if known is None:
            known = live.where[key] = Where(now)
            todo: Iterable[int] = range(len(live.hosts))
        else:
            todo = [hi for hi, on in live.changes[known.seen:] if on is None or on == side]
            if not todo:
                known.seen = now
                return known.all
        parts = known.parts
        wide = half.wide
        plain = half.plain
        sp, sym = half.sp, half.sym
        for hi in todo:
            fits = live.hosts[hi]
            host = fits.host
            if not ruled and fits.plain is not None:
                slots = fits.plain.get(plain)
                if slots is None:  # no rule at the host, none of the half's reaches out
                    slots = fits.plain[plain] = self._slots(host, side, sp, sym, _fits_locally)
            else:
                if fits.exact is None:
                    fits.exact = self._answers.setdefault(content(host), {})
                slots = fits.exact.get(key)
                if slots is None:  # slot by slot where no rule reaches beyond its slot
                    check = placement.fits if wide or fits.wide else self._slot_fits
                    slots = fits.exact[key] = self._slots(host, side, sp, sym, check)
            label = (side, hi, slots)
            here = self._labels.get(label)
            if here is None:
                here = self._labels[label] = tuple(f"{side} {hi}.{sid}" for sid in slots)
            if hi < len(parts):
                parts[hi] = here
            else:
                parts.append(here)
        known.seen = now
        known.all = tuple(chain.from_iterable(parts))
        return known.all

    @staticmethod
    def _slots(host: Host, side: str, sp: Species, sym: str | None,
               check: Callable[[Host, SlotDef, Species, str | None], bool]) -> tuple[str, ...]:
        return tuple(s.id for s in host.kind.slots if s.side == side and check(host, s, sp, sym))

    def trigger_hosts(self, i: int) -> set[int]:
        """The hosts of player i's forest with a card that has a permanent effect; the set is
        kept current as cards are placed."""
        live = self._get(i)
        if live.triggers is None:
            live.triggers = {c.host.index for c in live.view.cards
                             if c.species is not None and c.species.trigger is not None}
        return live.triggers

    def trial(self, i: int, sp: Species | None, sym: str | None,
              at: HostKind | tuple[int, str] | None) -> Trial:
        """Player i's view with one more card for a moment (a new host of kind `at`, or a card
        at `(host, slot)`), the others set; taken back on leaving, whatever happened."""
        return Trial(self.views()[i], sp, sym, at)


class Trial:
    """The context of `LiveForests.trial` (a class: a player may weigh a hundred plays a turn)."""

    __slots__ = ("view", "sp", "sym", "at", "card")

    def __init__(self, view: ForestView, sp: Species | None, sym: str | None,
                 at: HostKind | tuple[int, str] | None):
        self.view = view
        self.sp = sp
        self.sym = sym
        self.at = at
        self.card: Placed | None = None

    def __enter__(self) -> ForestView:
        at = self.at
        if isinstance(at, tuple):
            assert self.sp is not None
            self.card = self.view.add_card(at[0], at[1], self.sp, self.sym)
        elif at is not None:
            self.view.add_host(at, self.sp, self.sym)
        return self.view

    def __exit__(self, *exc: object) -> None:
        if self.card is not None:
            self.view.remove_card(self.card)
        elif self.at is not None:
            self.view.remove_host()
