"""A forest's points card by card, kept so that a play can be weighed by what it changes.

A greedy player weighs every legal play by the score its forest would have with it. Scoring the
whole forest for each of a hundred plays a turn repeats the same rules on the same cards: a play
adds one card (a new host brings the card beneath it too), and a rule's value changes only where
something it reads changes. The compiler says what each score rule reads (`codegen.term_reads`):
counters of a tag, species or symbol, the cards at the card's own host, the cave, or anything.
So a trial play re-runs the rules of the cards at its host that read their host, of the cards
whose rules read a counter the new card moves or read anything, and of the groups (`total` and
`sets` rules) whose value or first carrier it can change; every other card keeps the points the
full scoring gave.

A drafted cave's rule, scored in the cave row, is weighed the same way.

`Tally(forest, cardset)` scores the forest once, card by card (`scoring.card_points`);
`weigh(species, symbol, at)` gives the total with a card half placed at `at`, and `advance`
brings the tally up to date with cards placed for real. Both equal `scoring.score(...).total`
of the forest as it would be, which a test checks for every play of many games.

Tallies of many games may share what they weighed (`Alike`): a search plays a thousand worlds a
turn, each a copy of the same forests grown by a few cards, and weighs the same plays in the same
forests in world after world.
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from typing import Any

from grove.compiler.cardset import CardSet
from grove.engine.scoring import card_points, carry_first, cave_card_points, first_carriers
from grove.forest.host import Placed
from grove.forest.model import Forest

OTHERS = frozenset({"others", "any"})  # the tokens of a rule that may read the other forests


class Alike:
    """What a play adds to a forest, and where a card half fits in it, shared by games whose
    forests were placed alike (a search's worlds, grove/engine/mcts.py): nine weighs in ten of
    a four-player search were of a play already weighed in the same forest in another world.

    A forest is known by its cave and its placements in order (`grown`): what a card is and
    where it went, never its number, which no rule reads and which a world deals anew for a
    face-down card. A play whose weighing read no other forest is kept as what it adds to the
    forest's total, whatever the others (a majority's points, and the total with them, move
    with the other forests); one that read them, as the total it came to beside those forests
    (`Tally.weigh`). Where a half fits reads the placements alone (`LiveForests.where_in`)."""

    __slots__ = ("states", "gains", "totals", "fits")

    def __init__(self) -> None:
        self.states: dict[tuple, int] = {}  # (a forest's state, what was placed next) -> state
        self.gains: dict[tuple[int, str], int] = {}  # (state, `play_key`) -> the total's change
        # (state, the other forests' states, `play_key`) -> the total, of a play that read them
        self.totals: dict[tuple[int, tuple[int, ...], str], int] = {}
        # (the placements' state, a half's `Half.exact`) -> where it fits (grove/engine/live.py)
        self.fits: dict[tuple[int, str], tuple[str, ...]] = {}

    def state(self, forest: Forest) -> int:
        """The state of a forest as it stands: its cave, then each placement in its log."""
        cave = forest.cave_card
        return self.grown(self._next(-1, (forest.cave, cave.key if cave is not None else None)),
                          forest.log)

    def grown(self, state: int, placed: Iterable[Placed]) -> int:
        """The state of a forest in `state` grown by `placed`, in the order placed."""
        for c in placed:
            host = c.host
            assert host is not None
            if c.slot is None:  # a new host: its kind, its card and the cards beneath it
                step = (host.kind.id, c.key, c.symbol, len(host.beneath))
            else:
                step = (host.index, c.slot, c.key, c.symbol)
            state = self._next(state, step)
        return state

    def _next(self, state: int, step: tuple) -> int:
        states = self.states
        return states.setdefault((state, step), len(states))


class Tally:
    __slots__ = ("forest", "total", "points", "firsts", "readers", "everywhere", "groups_reading",
                 "cave_card", "cave_reads", "reached", "local", "weighed", "plays", "others_cards",
                 "slot_keys", "species_reads", "tokens", "alike", "state", "around")

    def __init__(self, forest: Forest, cardset: CardSet,
                 tokens: dict[tuple, frozenset[str]] | None = None, alike: Alike | None = None):
        self.forest = forest
        # what a card placed alike changes (`_reached`): the same in every game of the card set,
        # so the engine hands in its memo's
        self.tokens = tokens if tokens is not None else {}
        self.firsts = first_carriers(forest)  # group key -> the first card carrying it
        # each visible card's points as the scorepad counts them
        self.points: dict[Placed, int] = {c: card_points(c, forest, self.firsts)
                                          for c in forest.cards if c.species is not None}
        self.readers: dict[str, list[Placed]] = {}  # token -> cards whose per-copy rule reads it
        self.everywhere: list[Placed] = []  # cards whose rules read anything in the forest
        self.local: set[Placed] = set()  # cards whose rules (or groups) read their own host
        self.groups_reading: dict[str, list[str]] = {}  # token -> group keys whose value reads it
        self.reached: dict[tuple, tuple[Set[Placed], Set[str], bool]] = {}
        # a play's total, and whether it re-scored a card whose points read the other forests
        self.weighed: dict[tuple, tuple[int, bool]] = {}  # see `weigh`
        self.plays: dict[str, tuple[int, bool]] = {}  # `play_key` -> as `weighed`
        # host index -> slot id -> `_slot_key`, kept for a host until a card joins it
        self.slot_keys: dict[int, dict[str, tuple[str, bool] | None]] = {}
        # species key -> what its rule reads (`_reads`), and whether that may be another forest
        self.species_reads: dict[str, tuple[str, bool]] = {}
        # a drafted cave's own rule sees the forest too (scored in the cave row)
        self.cave_card = cave_card_points(forest)
        prog = forest.cave_card.score if forest.cave_card is not None else None
        self.cave_reads: frozenset[str] = (
            frozenset() if prog is None else prog.reads.union(*prog.group_reads))
        self.total = (sum(self.points.values()) + forest.cave * cardset.setup.cave_points
                      + self.cave_card)
        for c in forest.cards:
            self._index(c)
        self.others_cards: set[Placed] = set()
        self._others_cards()
        # what other games' tallies weighed in forests placed as these (None: nothing), and the
        # states there of this forest and of the others, in order: the tally's owner sets them
        # to the forests as they stand before it weighs (`LiveForests.tally`)
        self.alike = alike
        self.state = -1
        self.around: tuple[int, ...] = ()

    def _index(self, c: Placed) -> None:
        """File a card under what its rule reads."""
        prog = c.score
        if prog is None:
            return
        if "any" in prog.reads:
            self.everywhere.append(c)
        else:
            for token in prog.reads:
                self.readers.setdefault(token, []).append(c)
        if "local" in prog.reads or any("local" in r for r in prog.group_reads):
            self.local.add(c)
        for key, reads in zip(prog.group_keys, prog.group_reads, strict=True):
            for token in reads:
                self.groups_reading.setdefault(token, []).append(key)

    def _others_cards(self) -> None:
        """The cards whose points depend on the other players' forests (a majority): a tally
        kept while this forest stands still scores them again when theirs change."""
        self.others_cards = {*self.readers.get("others", ()), *self.everywhere}
        for token in OTHERS:
            self.others_cards.update(self.firsts[k] for k in self.groups_reading.get(token, ())
                                     if k in self.firsts)

    def advance(self, placed: Iterable[Placed]) -> None:
        """The forest grew by `placed` (in the order placed; the cave as it was): score again
        only what they reach, as a trial card is weighed (`total_with`), and file them.

        Cheaper than a new tally by the cards the new ones leave alone; equal to one, which
        the tally test checks every decision."""
        forest = self.forest
        todo: set[Placed] = set()
        keys: set[str] = set()
        carriers: list[Placed] = []  # the new cards that carry a group rule
        cave = False
        slot_keys = self.slot_keys
        for new in placed:
            host = new.host
            assert host is not None
            slot_keys.pop(host.index, None)
            is_host = new.slot is None
            added = (new, *host.beneath) if is_host else (new,)
            cards, reached, reads_cave = self._readers(self._tokens_of(new, host.is_full))
            todo.update(cards)
            keys.update(reached)
            cave = cave or reads_cave
            # the cards at its host whose rules read their host
            if self.local:
                todo.update(c for c in (host.card, *host.attached()) if c in self.local)
            for c in added:
                self._index(c)
                todo.add(c)
                prog = c.score
                if prog is None:
                    continue
                if prog.group_keys:
                    keys.update(prog.group_keys)
                    carriers.append(c)
                if slot_keys and not all(map(_slotless, prog.reads.union(*prog.group_reads))):
                    slot_keys.clear()  # a rule that reads what `_slot_key` asks about
        # a group's first carrier may be another card now, and its value another: a new card
        # carries it first where it lies before the one that did (indices are current, and
        # cards are only added)
        firsts = self.firsts
        todo.update(firsts[k] for k in keys if k in firsts)
        for c in carriers:
            carry_first(firsts, c, c.score.group_keys)
        todo.update(firsts[k] for k in keys if k in firsts)
        points = self.points
        for c in todo:
            if c.species is None:
                continue
            now = card_points(c, forest, firsts)
            self.total += now - points.get(c, 0)
            points[c] = now
        if cave:
            now = cave_card_points(forest)
            self.total += now - self.cave_card
            self.cave_card = now
        self._others_cards()
        self.reached.clear()
        self.weighed.clear()
        self.plays.clear()

    def others_changed(self) -> None:
        """The other forests changed and this one did not: score again only the cards whose
        points read them, and forget the plays weighed against them."""
        forest = self.forest
        before = self.total
        for c in self.others_cards:
            now = card_points(c, forest, self.firsts)
            self.total += now - self.points[c]
            self.points[c] = now
        if not self.cave_reads.isdisjoint(OTHERS):
            now = cave_card_points(forest)
            self.total += now - self.cave_card
            self.cave_card = now
        # a play that re-scored none of those changes the total by what it did before
        moved = self.total - before
        self.plays = {k: (t + moved, False) for k, (t, o) in self.plays.items() if not o}
        self.weighed = {k: (t + moved, False) for k, (t, o) in self.weighed.items() if not o}

    def _reached(self, new: Placed, full: bool
                 ) -> tuple[Set[Placed], Set[str], bool]:
        """The cards whose per-copy rules, and the group keys whose values, a card of this kind
        can change, and whether the cave card's rule can change: the same for every copy of a
        species half placed alike (as a host, or on a side, filling a host or not), so worked
        out once per decision for each."""
        sig = _signature(new, full)
        hit = self.reached.get(sig)
        if hit is None:
            hit = self.reached[sig] = self._readers(self._tokens_of(new, full, sig))
        return hit

    def _tokens_of(self, new: Placed, full: bool, sig: tuple | None = None) -> frozenset[str]:
        """What placing `new` (filling its host or not) changes (`_tokens`): the same for every
        card of its `_signature` (`sig`, where the caller has it) in every game of the card
        set, so kept in the memo."""
        if sig is None:
            sig = _signature(new, full)
        tokens = self.tokens.get(sig)
        if tokens is None:
            tokens = self.tokens[sig] = _tokens(new, new.slot is None, full)
        return tokens

    def _readers(self, tokens: frozenset[str]) -> tuple[Set[Placed], Set[str], bool]:
        """The cards and group keys whose rules read any of `tokens`, and whether the cave's
        does (sets kept as they are, which no caller changes)."""
        cards: set[Placed] = set(self.everywhere)
        keys: set[str] = set()
        readers = self.readers
        for token in readers.keys() & tokens:  # most tokens are read by no rule here
            cards.update(readers[token])
        groups = self.groups_reading
        for token in groups.keys() & tokens:
            keys.update(groups[token])
        return cards, keys, not self.cave_reads.isdisjoint(tokens)

    def weigh(self, species: Any, symbol: str | None, at: Any, play: str | None = None) -> int:
        """The forest's total with a card half placed at `at` (a new host's kind, or
        `(host, slot)`), as `Forest.trial` takes it. Kept per play (`play_key`, which a caller
        may hand in) while the tally holds, and shared by plays that weigh alike (`_weigh`), so
        a card is placed for a trial once per kind of place."""
        if play is None:
            play = play_key(species, symbol, at)
        hit = self.plays.get(play)
        if hit is None:
            alike = self.alike
            if alike is None:
                hit = self.plays[play] = self._weigh(species, symbol, at)
                return hit[0]
            key = (self.state, play)
            gain = alike.gains.get(key)
            if gain is not None:
                hit = self.plays[play] = (self.total + gain, False)
                return hit[0]
            beside = (self.state, self.around, play)
            total = alike.totals.get(beside)
            if total is not None:
                hit = self.plays[play] = (total, True)
                return total
            hit = self.plays[play] = self._weigh(species, symbol, at)
            if hit[1]:  # it read the other forests: the same where they are alike too
                alike.totals[beside] = hit[0]
            else:  # the same wherever this forest is alike
                alike.gains[key] = hit[0] - self.total
        return hit[0]

    def steady(self, play: str) -> bool:
        """Whether a play weighed (by its `play_key`) read no other forest: what it adds then
        holds wherever this forest is placed alike, whatever the others (`Alike`)."""
        return not self.plays[play][1]

    def _weigh(self, species: Any, symbol: str | None, at: Any) -> tuple[int, bool]:
        """A play's total, shared by plays that weigh alike.

        Where what the half reads is forest counts and what it changes is read by no rule that
        looks at a host (`_slot_key`), the total is the same at every slot of its side (filling
        its host or not): which card carries a group's value moves, the sum does not. Such a
        half is weighed once per side, by counting it (`Forest.count_in`) rather than putting it
        into a slot. Where it or a card at the host reads the host, the total is the same at
        the same slot of a host holding the same cards."""
        key = None
        counted: tuple[str, bool] | None = None  # the slot's `_slot_key`, where only counted
        if isinstance(at, tuple) and not self.everywhere and species.modifier is None:
            reads = (self.species_reads.get(species.key) or self._profile(species))[0]
            if reads != "any":
                hi, slot_id = at
                by_slot = self.slot_keys.get(hi)
                if by_slot is None:
                    by_slot = self.slot_keys[hi] = {}
                where = by_slot.get(slot_id, False)
                if where is False:
                    where = by_slot[slot_id] = self._slot_key(hi, slot_id)
                if where is not None and reads == "counters":
                    key = (species.key, symbol, *where)
                    counted = where
                else:
                    key = (species.key, symbol, at[1], self.forest.hosts[at[0]].content())
                hit = self.weighed.get(key)
                if hit is not None:
                    return hit
        forest = self.forest
        if counted is not None:
            card = forest.count_in(species, symbol, at)  # no host or list touched
            try:
                hit = self.total_with(card, counted[1])
            finally:
                forest.count_out(card)
        else:  # placed and taken back as `forest.trial` does, without a context object
            card = forest.place_at(species, symbol, at)
            try:
                hit = self.total_with(card)
            finally:
                forest.take_back(card)
        if key is not None:
            self.weighed[key] = hit
        return hit

    def _profile(self, species: Any) -> tuple[str, bool]:
        """What a species' score rule reads (`_reads`), and whether it may read the other
        forests: the same all game, so worked out once."""
        hit = self.species_reads.get(species.key)
        if hit is None:
            prog = species.score
            hit = self.species_reads[species.key] = (_reads(prog), prog is not None and not (
                OTHERS.isdisjoint(prog.reads) and all(map(OTHERS.isdisjoint, prog.group_reads))))
        return hit

    def _slot_key(self, hi: int, slot_id: str) -> tuple[str, bool] | None:
        """The slot's side and whether a card there fills its host, where nothing a card placed
        there changes is read by a rule that looks at hosts; else None. It holds until a card
        joins the host, or a card whose rule reads sides, full hosts or hosts (`_slotless`)
        joins the forest (`advance`)."""
        host = self.forest.hosts[hi]
        slot = host.kind.slots_by_id.get(slot_id)
        if slot is None or self.local and any(
                c in self.local for c in (host.card, *host.attached())):
            return None
        side = slot.side
        hc = host.card.species
        if side == "bottom" and hc is not None and hc.modifier is not None and (
                hc.modifier.double_below):
            return None
        # it fills the host, or not: which hosts are full is read by name below
        full = host.empty == 1 and not host.slots[slot.id]
        for token in (f"side:{side}", "full", "hosts") if full else (f"side:{side}", "hosts"):
            if token in self.readers or token in self.groups_reading or token in self.cave_reads:
                return None
        return (side, full)

    def total_with(self, new: Placed, full: bool | None = None) -> tuple[int, bool]:
        """The forest's total with `new`, the card just placed (and kept placed meanwhile, or
        only counted: `Forest.count_in`), and whether it re-scored a card whose points read the
        other forests. `full`: whether it filled its host, where the host does not show it."""
        forest = self.forest
        host = new.host
        assert host is not None
        if full is None:
            # a host is full now that was not before: a new host without slots, or the first
            # card of the last empty slot
            full = host.is_full and (new.slot is None or len(host.slots[new.slot]) == 1)
        cards, keys, cave = self._reached(new, full)
        todo = set(cards)
        # the cards at its host whose rules read their host (the others' rules read counters,
        # which `cards` covers)
        if self.local:
            todo.update(c for c in (host.card, *host.attached()) if c in self.local)
        prog = new.score
        firsts = self.firsts
        if keys or (prog is not None and prog.group_keys):
            if prog is not None and prog.group_keys:
                firsts = dict(firsts)
                carry_first(firsts, new, prog.group_keys)
                keys = keys | set(prog.group_keys)
            for key in keys:
                todo.add(self.firsts.get(key, new))
                todo.add(firsts[key])
        todo.discard(new)
        total = self.total + card_points(new, forest, firsts)
        sp = new.species
        others = (sp is not None and (self.species_reads.get(sp.key) or self._profile(sp))[1]
                  ) or not self.others_cards.isdisjoint(todo)
        if cave:
            total += cave_card_points(forest) - self.cave_card
            others = others or not self.cave_reads.isdisjoint(OTHERS)
        points = self.points
        for c in todo:
            total += card_points(c, forest, firsts) - points.get(c, 0)
        return total, others


def play_key(species: Any, symbol: str | None, at: Any) -> str:
    """What `Tally.weigh` keeps a play's total under: the half, and the new host's kind or
    `(host, slot)`. A string, which keeps its hash: a greedy game looks plays up a thousand
    times, and a nested tuple hashes every item again each time."""
    if isinstance(at, tuple):
        return f"{species.key}\0{symbol}\0{at[0]}\0{at[1]}"
    return f"{species.key}\0{symbol}\0{at.id}"


def _signature(new: Placed, full: bool) -> tuple:
    """What places of a card alike, as far as what they change goes: the half, its host's kind
    for a host card or its side, and whether it fills its host."""
    host = new.host
    assert host is not None
    return (new.key, new.symbol, host.kind.id if new.slot is None else new.side, full)


def _tokens(new: Placed, is_host: bool, full: bool) -> frozenset[str]:
    """What placing `new` changes, in the tokens rules read (`codegen.term_reads`)."""
    host = new.host
    assert host is not None
    tokens = {"any", "cards", "hosts" if is_host else f"side:{new.side}"}
    if full:
        tokens.add("full")
    for c in (new, *host.beneath) if is_host else (new,):
        tokens.update(f"tag:{t}" for t in c.tags)
        if c.key is not None:
            tokens.add(f"species:{c.key}")
        if c.symbol is not None:
            tokens.update((f"symbol:{c.symbol}", "symbols"))
        if c.species is not None and c.species.modifier is not None:
            tokens.update(f"extra:{o}" for _, owners, _ in c.species.counts_as for o in owners)
    return frozenset(tokens)


def _reads(prog: Any) -> str:
    """What a score rule reads, as far as where its card goes: "counters" (the same anywhere),
    "host" (the same at a host holding the same cards), or "any"."""
    if prog is None:
        return "counters"
    reads = prog.reads.union(*prog.group_reads)
    if all(map(_counter, reads)):
        return "counters"
    if all(_counter(t) or t in ("local", "full", "hosts") or t.startswith("side:")
           for t in reads):
        return "host"
    return "any"


def _slotless(token: str) -> bool:
    """Whether a token is none of those `Tally._slot_key` asks whether a rule reads."""
    return token not in ("full", "hosts") and not token.startswith("side:")


def _counter(token: str) -> bool:
    """Whether a token names a forest counter: the same wherever in the forest a card goes."""
    return token.startswith(("tag:", "species:", "symbol:", "extra:")) or token in (
        "symbols", "cards", "cave", "others")
