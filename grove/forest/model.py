"""The players' forests: hosts, their slots and the cards placed in them. The one model of a forest.

Compiled rules read it, the engine grows it as cards are placed, forest files and game records are
read into it and written from it. It sits at the bottom of the house: it knows host kinds and
species only by the few attributes it reads (the protocols of `grove/forest/host.py`, which holds its
parts, `Host` and `Placed`), so the compiler, the engine and the printouts may all import it while
it imports none of them. Source positions of a forest read
from a file live beside it (`grove/forest_file.py`), never inside it.

A forest keeps the counters most rules need (by tag, species and tree symbol) current as it grows,
so a compiled `2 per bird` is one dictionary lookup. It grows by `place_host` and `place_card` and
shrinks only by `take_back` of its latest placement, which a player weighing a play uses through
`trial` (or `place_at` and `take_back` itself): every one of these leaves the forest exactly as
placing the same cards from nothing would.
`log` lists the placements in order: a cache of answers about a forest (where halves fit, which
hosts carry permanent effects) brings itself up to date from the entries it has not yet seen.
"""

from __future__ import annotations

from collections.abc import Iterable

from grove.forest.host import Card, Host, HostKind, Placed, new_host


class Forest:
    """One player's forest: hosts in the order they were played, every card listed once in
    `cards` (host card, the cards beneath it, then its slots in the kind's order), the cave.

    `others` are the other players' forests (for majorities); `memo` holds counts that every
    copy of a rule shares, cleared on every change; `extra` holds the `host counts as n more`
    modifiers by the species they count for."""

    __slots__ = ("hosts", "cards", "cave", "tag_count", "species_count", "symbol_count", "others",
                 "extra", "name", "memo", "species_tags", "tag_species", "cave_card", "log",
                 "modified", "version")

    def __init__(self, name: str = "", cave: int = 0, cave_card: Card | None = None):
        self.name = name
        self.cave = cave  # cards in the cave: only their number scores
        self.cave_card = cave_card  # a drafted cave's species, scored in the cave row
        self.hosts: list[Host] = []
        self.cards: list[Placed] = []
        # tag, species key, tree symbol -> how many visible cards have it (no zero entries)
        self.tag_count: dict[str, int] = {}
        self.species_count: dict[str, int] = {}
        self.symbol_count: dict[str, int] = {}
        self.species_tags: dict[str, frozenset[str]] = {}  # species key in play -> its tags
        self.tag_species: dict[str, int] = {}  # tag -> how many distinct species in play have it
        self.others: list[Forest] = []
        self.memo: dict[object, int] = {}
        self.extra: dict[str, list[tuple[Placed, int]]] = {}
        self.modified: list[Placed] = []  # the host cards with a modifier rule, in forest order
        self.log: list[Placed] = []  # each host card and slotted card, in the order placed
        # placements and take-backs so far: one who kept what it worked out from this forest
        # knows at one glance whether it still holds
        self.version = 0

    # ---- growing --------------------------------------------------------------------------------
    def place_host(self, kind: HostKind, species: Card | None, symbol: str | None, *,
                   number: int | None = None, turn: int = -1,
                   beneath: Iterable[int | None] = ()) -> Host:
        """A new host at the end of the forest (`species` None for a face-down card)."""
        host = new_host(kind, len(self.hosts), species, symbol, number, turn, beneath)
        self.hosts.append(host)
        start = len(self.cards)
        self.cards.append(host.card)
        self.cards.extend(host.beneath)
        self._renumber(start)
        self._count(host.card)
        for c in host.beneath:
            self._count(c)
        if species is not None and species.modifier is not None:
            self.modified.append(host.card)
        self.log.append(host.card)
        self.version += 1
        self.memo.clear()
        return host

    def place_card(self, host_index: int, slot_id: str, species: Card, symbol: str | None, *,
                   number: int | None = None, turn: int = -1) -> Placed:
        """A card put last into a slot of a host."""
        host = self.hosts[host_index]
        sdef = host.kind.slots_by_id.get(slot_id)
        if sdef is None:
            raise ValueError(f"host {host_index} ({host.kind.id}) has no slot {slot_id!r}")
        card = Placed(species, symbol, species.tags, host, slot_id, sdef.side, number, turn)
        pos = host.card.index + 1 + len(host.beneath)
        for sid, cards in host.slots.items():
            pos += len(cards)
            if sid == slot_id:
                break
        host.slots[slot_id].append(card)
        self.cards.insert(pos, card)
        self._renumber(pos)
        host._grew(card)
        self._count(card)
        self.log.append(card)
        self.version += 1
        self.memo.clear()
        return card

    def take_back(self, card: Placed) -> None:
        """Undo the latest placement, which must be `card` (a host card takes its host along).

        The cards taken back lie in no forest afterwards: their host is None, as a loose card's
        is. A host and its cards point at each other otherwise, and a greedy player's trial of
        a new host would leave that cycle to Python's collector a hundred times a game."""
        if not self.log or self.log[-1] is not card:
            raise ValueError("only the latest card placed can be taken back")
        self.log.pop()
        self.version += 1
        host = card.host
        assert host is not None
        if card.slot is None:
            self.hosts.pop()
            if self.modified and self.modified[-1] is card:
                self.modified.pop()
            del self.cards[host.card.index:]
            for c in (host.card, *host.beneath):
                self._uncount(c)
                c.host = None
        else:
            host.slots[card.slot].pop()
            pos = card.index
            del self.cards[pos]
            self._renumber(pos)
            card.index = -1
            host._shrank(card)
            self._uncount(card)
            card.host = None
        self.memo.clear()

    def trial(self, species: Card | None, symbol: str | None,
              at: HostKind | tuple[int, str] | None) -> Trial:
        """The forest with one more card for a moment, as `with forest.trial(...) as f:`: a new
        host of kind `at`, or a card at `(host, slot)`; `at` None changes nothing. Taken back
        on leaving, whatever happened."""
        return Trial(self, species, symbol, at)

    def place_at(self, species: Card | None, symbol: str | None,
                 at: HostKind | tuple[int, str]) -> Placed:
        """A card placed as `trial` places it: a new host of kind `at`, or a card at
        `(host, slot)`. For a caller that takes it back itself (`take_back`), as a player
        weighing a hundred plays a turn does without a context object for each."""
        if isinstance(at, tuple):
            assert species is not None
            return self.place_card(at[0], at[1], species, symbol)
        return self.place_host(at, species, symbol).card

    def count_in(self, species: Card, symbol: str | None, at: tuple[int, str]) -> Placed:
        """The forest with one more card at `(host, slot)` as far as its counters and its list
        of cards show it, until `count_out`: the card is in no slot, and is listed last. For
        weighing a card whose points, and the points of every rule it moves, read counts only
        (what `Tally` checks), at a third of a trial's cost: a count is the same wherever in
        the forest the card lies."""
        host = self.hosts[at[0]]
        sdef = host.kind.slots_by_id.get(at[1])
        if sdef is None:
            raise ValueError(f"host {at[0]} ({host.kind.id}) has no slot {at[1]!r}")
        card = Placed(species, symbol, species.tags, host, at[1], sdef.side)
        card.index = len(self.cards)
        self.cards.append(card)
        self._count(card)
        self.memo.clear()
        return card

    def count_out(self, card: Placed) -> None:
        """Take back the card `count_in` counted, which must be the last so counted."""
        assert self.cards[-1] is card, "a counted card is taken back last"
        self.cards.pop()
        self._uncount(card)
        self.memo.clear()

    def release(self) -> None:
        """Nothing will read this forest again: its cards let go of their hosts, and it of the
        other forests, so that it is freed when the last reference to it goes.

        A host and its cards point at each other, and the forests of a table at each other, so
        a finished game otherwise waits for Python's cyclic collector: in a batch of random
        games, collecting those few hundred objects a game took a twentieth of the time."""
        self.others = []
        for c in self.cards:
            c.host = None

    def copy(self) -> Forest:
        """The same forest as new objects, which later placements here leave as they are.

        Built in one pass over the cards, the counters copied as they stand: a search copies
        every forest of the table for each world it deals, and placing the cards again (which
        renumbers the cards behind each one and counts it in) cost a sixth of its time."""
        out = Forest(self.name, self.cave, self.cave_card)
        twin: dict[int, Placed] = {}  # id of a card here -> its copy
        for h in self.hosts:
            g = Host(h.kind, h.index)
            g.is_full, g.empty, g.has_rules = h.is_full, h.empty, h.has_rules
            g.card = _twin(h.card, g, twin)
            g.beneath = [_twin(c, g, twin) for c in h.beneath]
            g.slots = {sid: [_twin(c, g, twin) for c in cards] for sid, cards in h.slots.items()}
            out.hosts.append(g)
        out.cards = [twin[id(c)] for c in self.cards]
        out.log = [twin[id(c)] for c in self.log]
        out.modified = [twin[id(c)] for c in self.modified]
        out.extra = {owner: [(twin[id(c)], n) for c, n in entries]
                     for owner, entries in self.extra.items()}
        out.tag_count = dict(self.tag_count)
        out.species_count = dict(self.species_count)
        out.symbol_count = dict(self.symbol_count)
        out.species_tags = dict(self.species_tags)
        out.tag_species = dict(self.tag_species)
        out.version = len(out.log)
        return out

    # ---- counting -------------------------------------------------------------------------------
    def _renumber(self, start: int) -> None:
        cards = self.cards
        for i in range(start, len(cards)):
            cards[i].index = i

    def _count(self, c: Placed) -> None:
        """Count a card into the forest's counters (`_uncount` takes it out again: the two are
        apart because a trial play does both for every play weighed)."""
        tags = c.tags
        counts = self.tag_count
        get = counts.get
        for t in tags:
            counts[t] = get(t, 0) + 1
        key = c.key
        if key is not None:
            n = self.species_count.get(key, 0) + 1
            self.species_count[key] = n
            if n == 1:  # a species came into play
                self.species_tags[key] = tags
                distinct = self.tag_species
                get = distinct.get
                for t in tags:
                    distinct[t] = get(t, 0) + 1
        if c.symbol is not None:
            self.symbol_count[c.symbol] = self.symbol_count.get(c.symbol, 0) + 1
        sp = c.species
        if sp is not None and sp.modifier is not None and c.slot is not None:
            self._extra(c, 1)

    def _uncount(self, c: Placed) -> None:
        """Count a card out of the forest's counters, which `_count` counted in (no counter is
        left at zero)."""
        tags = c.tags
        counts = self.tag_count
        for t in tags:
            n = counts[t] - 1
            if n:
                counts[t] = n
            else:
                del counts[t]
        key = c.key
        if key is not None:
            n = self.species_count[key] - 1
            if n:
                self.species_count[key] = n
            else:  # a species left play
                del self.species_count[key]
                del self.species_tags[key]
                distinct = self.tag_species
                for t in tags:
                    m = distinct[t] - 1
                    if m:
                        distinct[t] = m
                    else:
                        del distinct[t]
        if c.symbol is not None:
            n = self.symbol_count[c.symbol] - 1
            if n:
                self.symbol_count[c.symbol] = n
            else:
                del self.symbol_count[c.symbol]
        sp = c.species
        if sp is not None and sp.modifier is not None and c.slot is not None:
            self._extra(c, -1)

    def _extra(self, c: Placed, k: int) -> None:
        """A card whose rule makes its host count as more (`counts_as`) in (k=1) or out (k=-1)."""
        assert c.host is not None and c.species is not None
        hc = c.host.card
        for n_more, owners, host_pred in c.species.counts_as:
            if not host_pred(hc, c):
                continue
            for owner in owners:
                if k > 0:
                    self.extra.setdefault(owner, []).append((hc, n_more))
                else:
                    entries = self.extra[owner]
                    entries.remove((hc, n_more))
                    if not entries:
                        del self.extra[owner]


def _twin(c: Placed, host: Host, twin: dict[int, Placed]) -> Placed:
    """A copy of the card `c` at `host`, noted in `twin` by the original's id."""
    d = Placed(c.species, c.symbol, c.tags, host, c.slot, c.side, c.number, c.turn)
    d.index = c.index
    twin[id(c)] = d
    return d


class Trial:
    """The context of `Forest.trial` (a class, not a generator: a player may weigh a hundred
    plays a turn)."""

    __slots__ = ("forest", "species", "symbol", "at", "card")

    def __init__(self, forest: Forest, species: Card | None, symbol: str | None,
                 at: HostKind | tuple[int, str] | None):
        self.forest = forest
        self.species = species
        self.symbol = symbol
        self.at = at
        self.card: Placed | None = None

    def __enter__(self) -> Forest:
        if self.at is not None:
            self.card = self.forest.place_at(self.species, self.symbol, self.at)
        return self.forest

    def __exit__(self, *exc: object) -> None:
        if self.card is not None:
            self.forest.take_back(self.card)
            self.card = None


def table(forests: list[Forest]) -> list[Forest]:
    """The forests of one table, each with the others set (for majorities)."""
    for f in forests:
        f.others = [o for o in forests if o is not f]
    return forests
