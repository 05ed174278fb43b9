"""The forests a game grows, and the engine's cached placements, against plain answers.

A game grows one forest per player as cards are placed (`grove/forest/model.py`), remembers where each
card half fits per host (across the games of a card set, in its memo; `grove/engine/live.py`), and lets
a player weigh a play by placing it for a moment and taking it back. Each of these must answer
exactly as a forest laid out afresh and a slot-by-slot trial would: checked here after every
action of whole games, and at every turn for the legal plays.
"""

from __future__ import annotations

import pytest

from grove.compiler import cardset as cs
from grove.engine import placement
from grove.engine.game import Game
from grove.engine.memo import Memo
from grove.engine.players import GreedyPlayer, RandomPlayer
from grove.engine.scoring import score, score_rows
from grove.forest.host import Placed
from grove.forest.model import Forest


def _fresh(game: Game, i: int, play: str | None = None) -> Forest:
    """Player i's forest laid out afresh, hosts first, then each host's slots in order (as a
    forest file's is), with the others likewise: with `play` (as `Game.trial` takes it) made."""
    p = game.players[i]
    old = p.forest
    forest = Forest(p.name, len(p.cave), p.cave_card)
    for h in old.hosts:
        forest.place_host(h.kind, h.card.species, h.card.symbol)
    extra = None
    if play is not None:
        parts = play.split()
        card = int(parts[0])
        if len(parts) == 2:
            sp, _, sym = next(x for x in game.halves(card) if x[1] is None)
            forest.place_host(game.cardset.hosts[parts[1]], sp, sym)
        else:
            hi, slot = parts[2].split(".", 1)
            sp, _, sym = next(x for x in game.halves(card) if x[1] == parts[1])
            extra = (int(hi), slot, sp, sym)
    for hi, h in enumerate(old.hosts):
        for sid, cards in h.slots.items():
            for c in cards:
                forest.place_card(hi, sid, c.species, c.symbol)
            if extra is not None and extra[:2] == (hi, sid):
                forest.place_card(hi, sid, extra[2], extra[3])
    if play is not None:
        forest.others = [_fresh(game, j) for j in range(len(game.players)) if j != i]
    return forest

EDITIONS = [("base", ["alpine", "woodland_edge"]), ("dartmoor", []), ("smoky_mountains", [])]


def _card(c) -> tuple:
    return (c.key, c.symbol, c.slot, c.side, c.index, c.host.index, c.tags)


def _same_view(live: Forest, fresh: Forest) -> None:
    """Everything a rule or the engine reads from a view is equal."""
    assert [_card(c) for c in live.cards] == [_card(c) for c in fresh.cards]
    assert all(c.index == k for k, c in enumerate(live.cards))
    for a, b in zip(live.hosts, fresh.hosts, strict=True):
        assert (a.kind, a.index, a.is_full, a.has_rules) == (b.kind, b.index, b.is_full, b.has_rules)
        assert {s: [_card(c) for c in cs_] for s, cs_ in a.sides.items()} == {
            s: [_card(c) for c in cs_] for s, cs_ in b.sides.items()}
        assert [_card(c) for c in a.attached()] == [_card(c) for c in b.attached()]
        assert a.card is live.cards[a.card.index]
    assert live.tag_count == fresh.tag_count
    assert live.species_count == fresh.species_count
    assert live.symbol_count == fresh.symbol_count
    assert live.species_tags == fresh.species_tags
    assert live.tag_species == fresh.tag_species
    assert {k: sorted((hc.index, n) for hc, n in v) for k, v in live.extra.items()} == {
        k: sorted((hc.index, n) for hc, n in v) for k, v in fresh.extra.items()}
    assert (live.cave, live.cave_card, live.name) == (fresh.cave, fresh.cave_card, fresh.name)


def _fits_by_trial(host, slot, sp, sym) -> bool:
    """The plain question, without the engine's shortcuts: put the card in, ask both refusals."""
    if placement.accepts(slot, sp) is not None:
        return False
    trial = Placed(sp, sym, sp.tags, host, slot.id, slot.side)
    with host.holding(trial):
        return (placement.card_refusal(trial, slot) is None
                and placement.slot_refusal(host.card, slot) is None)


def _plain_turn_options(game: Game, i: int) -> list[str]:
    """The turn's legal actions worked out from scratch on a forest laid out afresh."""
    p = game.players[i]
    view = _fresh(game, i)
    hosts = game.cardset.hosts.values()
    opts: list[str] = []
    if len(p.hand) < game.cardset.setup.hand_limit:
        opts += ["draw deck"] if game.deck else []
        opts += [f"draw clearing {c}" for c in game.clearing]
    spare = len(p.hand) - 1
    for c in dict.fromkeys(p.hand):
        halves = game.halves(c)
        for sp, side, _ in halves:
            if side is None and sp.cost <= spare:
                opts += [f"play {c} {h.id}" for h in hosts if h.from_kind == sp.kind
                         and sp.cost <= spare - (h.play == "with_tree")]
        for sp, side, sym in halves:
            if side is None or next(s for s, sd, _ in halves if sd == side).cost > spare:
                continue
            opts += [f"play {c} {side} {hi}.{slot.id}" for hi, host in enumerate(view.hosts)
                     for slot in host.kind.slots
                     if slot.side == side and _fits_by_trial(host, slot, sp, sym)]
        opts += [f"{h.id} {c}" for h in hosts if h.face_down and h.play == "action"]
    return list(dict.fromkeys(opts))


def _players(n: int, seed: int):
    return [GreedyPlayer(seed + i) if (seed + i) % 2 else RandomPlayer(seed + i) for i in range(n)]


@pytest.mark.parametrize(("edition", "exps"), EDITIONS)
def test_live_views_and_turn_plays_equal_plain_answers(edition, exps):
    cset = cs.build(edition, exps)
    memo = Memo(cset)  # what one game works out must hold in the next
    for seed in range(4):
        n = 2 + seed
        game = Game(cset, [f"P{i}" for i in range(n)], seed, memo=memo)
        players = _players(n, seed)
        while game.decision is not None:
            d = game.decision
            if d.kind == "turn":
                assert list(d.options) == _plain_turn_options(game, d.player)
                assert len(d.options) == len(list(d.options))  # as counted when offered
            game.apply(players[d.player].choose(game.seats[d.player], d))
            for i, live in enumerate(game._forests.views()):
                _same_view(live, _fresh(game, i))


@pytest.mark.parametrize(("edition", "exps"), EDITIONS)
def test_a_trial_play_scores_as_the_grown_forest_and_is_taken_back(edition, exps):
    cset = cs.build(edition, exps)
    game = Game(cset, ["A", "B", "C"], 11)
    players = _players(3, 11)
    tried = 0
    while game.decision is not None and tried < 400:
        d = game.decision
        for o in d.options:
            parts = o.split()
            if parts[0] not in ("play", "free"):
                continue
            before = [c for c in game.players[d.player].forest.cards]
            with game.trial(d.player, " ".join(parts[1:])) as v:
                got = score_rows(v, cset)
            want = score(_fresh(game, d.player, " ".join(parts[1:])), cset)
            assert got == want.by_category
            assert game.players[d.player].forest.cards == before  # taken back
            tried += 1
        game.apply(players[d.player].choose(game.seats[d.player], d))
        for i, live in enumerate(game._forests.views()):
            _same_view(live, _fresh(game, i))
    assert tried > 50


def test_forests_grow_and_shrink_as_laid_out_afresh():
    cset = cs.build("smoky_mountains")
    game = Game(cset, ["A", "B"], 3)
    players = _players(2, 3)
    while game.decision is not None:
        game.apply(players[game.decision.player].choose(game.seats[game.decision.player], game.decision))
    game.views()  # brings the caves' counts up to date
    for i, p in enumerate(game.players):
        forest = p.forest
        _same_view(forest, _fresh(game, i))
        _same_view(forest.copy(), _fresh(game, i))
        last = forest.log[-1]  # the latest card can be taken back, and placed again
        host = last.host
        assert host is not None
        forest.take_back(last)
        assert last.host is None  # it lies in no forest now
        with pytest.raises(ValueError):
            forest.take_back(forest.log[0] if len(forest.log) > 1 else last)
        if last.slot is None:
            forest.place_host(host.kind, last.species, last.symbol, number=last.number)
        else:
            forest.place_card(host.index, last.slot, last.species, last.symbol,
                              number=last.number)
        _same_view(forest, _fresh(game, i))
        # a card only counted moves the counters while in, and leaves them as they were
        host_of = next(h for h in forest.hosts if h.kind.slots)
        sp = next(c.species for c in forest.cards if c.slot is not None)
        tags = dict(forest.tag_count)
        card = forest.count_in(sp, None, (host_of.index, host_of.kind.slots[0].id))
        assert forest.cards[-1] is card and card.index == len(forest.cards) - 1
        assert all(forest.tag_count[t] == tags.get(t, 0) + 1 for t in sp.tags)
        forest.count_out(card)
        _same_view(forest, _fresh(game, i))


@pytest.mark.parametrize(("edition", "exps"), EDITIONS)
def test_a_copy_is_the_forest_as_new_objects(edition, exps):
    """A forest's copy, taken every few actions of a whole game, reads as the forest laid out
    afresh, keeps each card's number and turn and the order cards were placed in, shares no
    card or host with it, and grows on its own: a card placed in the copy leaves the original
    as it was, and the copy then reads as that placement laid out afresh."""
    cset = cs.build(edition, exps)
    game = Game(cset, ["A", "B", "C"], 11)
    players = _players(3, 11)
    copies = 0
    while game.decision is not None:
        d = game.decision
        game.apply(players[d.player].choose(game.seats[d.player], d))
        if game.turn % 5:
            continue
        game.views()  # brings the caves' counts up to date
        for i, p in enumerate(game.players):
            forest = p.forest
            twin = forest.copy()
            _same_view(twin, _fresh(game, i))
            assert [(c.number, c.turn, c.key) for c in twin.log] == [
                (c.number, c.turn, c.key) for c in forest.log]
            assert [c.index for c in twin.modified] == [c.index for c in forest.modified]
            assert not {id(c) for c in twin.cards} & {id(c) for c in forest.cards}
            assert all(a is not b for a, b in zip(twin.hosts, forest.hosts, strict=True))
            before = [_card(c) for c in forest.cards]
            slotted = next((c for c in reversed(forest.log) if c.slot is not None), None)
            if slotted is not None:
                host = twin.hosts[slotted.host.index]
                twin.place_card(host.index, slotted.slot, slotted.species, slotted.symbol)
                again = _fresh(game, i)
                again.place_card(host.index, slotted.slot, slotted.species, slotted.symbol)
                _same_view(twin, again)
            assert [_card(c) for c in forest.cards] == before
            copies += 1
    assert copies > 30


def test_a_memo_belongs_to_its_card_set():
    memo = Memo(cs.build("base"))
    with pytest.raises(ValueError):
        Game(cs.build("smoky_mountains"), ["A", "B"], 1, memo=memo)


def test_a_forest_laid_out_by_hand_is_seen():
    """Scenario tests lay out forests by hand, with or without restarting the turn."""
    cset = cs.build("base")
    game = Game(cset, ["A", "B"], 1)
    fox = game.find_card("base:red_fox", "left")
    assert not [x for x in game.placements(0, fox) if "left" in x]  # no tree yet
    oak = game.find_card("base:oak")
    game.move_card(oak, [])
    kind = cset.hosts["tree"]
    sp, _, sym = game.halves(oak)[0]
    game.players[0].forest.place_host(kind, sp, sym, number=oak)
    assert f"{fox} left 0.left" in game.placements(0, fox)
    game.restart_turn(0)
    assert f"{fox} left 0.left" in game.placements(0, fox)
