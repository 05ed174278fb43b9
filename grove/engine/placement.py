"""Which cards may sit where: slot sides, water, capacity and sharing, card placement rules.

One module answers both questions, "may this card go into this slot now?" (the engine, during a
game) and "is this finished forest legal?" (`grove score`), so the two can never disagree.
Everything it knows comes from the edition's host declarations and the cards' compiled
`placement` programs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from grove.compiler.cardset import CardSet, Species
from grove.compiler.model import SlotDef
from grove.dsl.diagnostics import Diagnostic, Span, error
from grove.forest.host import Host, Placed
from grove.forest.model import Forest, table
from grove.forest.positions import Positions


@dataclass(frozen=True)
class Refusal:
    code: str
    message: str
    hint: str | None = None


def accepts(slot: SlotDef, sp: Species) -> Refusal | None:
    if sp.kind != "dweller":
        return Refusal("FOREST-NOT-DWELLER", f"{sp.id} is a {sp.kind}, not a card for a slot")
    if slot.side not in sp.sides:
        sides = ", ".join(sp.sides) or "none"
        return Refusal("FOREST-WRONG-SIDE", f"{sp.id} has no {slot.side} half (its halves: {sides})")
    if slot.water and not sp.water:
        return Refusal("FOREST-WATER", f"{sp.id} has no water requirement: slot {slot.id} takes "
                       "only water cards")
    if slot.dry and sp.water:
        return Refusal("FOREST-WATER", f"{sp.id} needs water: slot {slot.id} takes no water cards")
    return None


def _host_cards(host_card: Placed) -> list[Placed]:
    return [host_card, *host_card.host.attached()]


def _side_override(host_card: Placed, side: str):
    """The (capacity, accepts) a card at this host sets for a whole side, if any."""
    for c in _host_cards(host_card):
        p = c.species.placement if c.species else None
        for s, cap, pred in p.slot_overrides if p else ():
            if s == side:
                return cap, pred, c
    return None


def _stack_ok(cards: list[Placed], slot: SlotDef, host_card: Placed, local: bool = False
              ) -> bool:
    """Whether the cards beyond the slot's capacity are allowed by a sharing rule.

    `local`: no card at the host has a rule that reaches beyond its slot (`reaches_host`)."""
    extra = cards[slot.capacity:]
    if not extra:
        return True
    first = cards[0]
    # a) the first card lets later cards of a kind join it
    p = first.species.placement if first.species else None
    for limit, pred in p.share if p else ():
        if all(pred(x, first) for x in extra) and (limit is None or len(extra) <= limit):
            return True
    # b) a card at the host lets cards of a kind stack in this slot
    for c in () if local else _host_cards(host_card):
        pc = c.species.placement if c.species else None
        for limit, pred, where in pc.lets if pc else ():
            if where not in (None, slot.id, slot.side):
                continue
            if all(pred(x, c) for x in cards) and (limit is None or len(extra) <= limit):
                return True
        # b') ... or lets cards of a kind join this slot whatever it already holds
        for limit, pred, where in pc.joins if pc else ():
            if where not in (None, slot.id, slot.side):
                continue
            if all(pred(x, c) for x in extra) and (limit is None or len(extra) <= limit):
                return True
    # c) each extra card joins a slot that holds a match
    def joins(x: Placed) -> bool:
        px = x.species.placement if x.species else None
        return bool(px and px.joining and any(px.joining(y, x) for y in cards if y is not x))

    return all(joins(x) for x in extra)


def _text(sp: Species) -> str:
    rt = sp.rule_texts.get("placement")
    return rt.text if rt is not None else "placement"


def card_refusal(card: Placed, slot: SlotDef, *, local: bool = False) -> Refusal | None:
    """Why `card`, placed in `slot` of its host, is not allowed there (None if it is).

    `local`: no card at the host has a rule that reaches beyond its slot (`reaches_host`), so
    no side of it is overridden."""
    sp = card.species
    assert sp is not None
    host_card = card.host.card
    why = accepts(slot, sp)
    if why:
        return why
    p = sp.placement
    if p:
        for pred in p.only_on:
            if not pred(host_card, card):
                return Refusal("FOREST-PLACEMENT",
                               f"{sp.id} may not go on {card.host.kind.id} "
                               f"(its rule: {_text(sp)})")
        for pred in p.not_on:
            if pred(host_card, card):
                return Refusal("FOREST-PLACEMENT",
                               f"{sp.id} may not go on {card.host.kind.id} (its rule: {_text(sp)})")
        if p.joining and not any(p.joining(y, card) for y in card.host.slots[slot.id]
                                 if y is not card):
            return Refusal("FOREST-PLACEMENT",
                           f"{sp.id} must join a slot that already holds a match "
                           f"(its rule: {_text(sp)})")
        if p.max_per_host is not None:
            same = sum(1 for y in card.host.attached() if y.key == sp.key)
            if same > p.max_per_host:
                return Refusal("FOREST-PLACEMENT",
                               f"at most {p.max_per_host} {sp.id} per host (its rule: {_text(sp)})")
    override = None if local else _side_override(host_card, slot.side)
    if override is not None:
        cap, pred, owner = override
        if not pred(card, owner):
            return Refusal("FOREST-PLACEMENT",
                           f"the {slot.side} side of this host takes only what "
                           f"{owner.species.id} allows")
    return None


def slot_refusal(host_card: Placed, slot: SlotDef, *, local: bool = False) -> Refusal | None:
    """Whether the slot's current cards respect capacity and sharing (`local`: as for
    `card_refusal`)."""
    cards = host_card.host.slots[slot.id]
    override = None if local else _side_override(host_card, slot.side)
    if override is not None:
        cap = override[0]
        on_side = list(host_card.host.on_side(slot.side))
        if len(on_side) > cap:
            return Refusal("FOREST-SLOT-FULL",
                           f"the {slot.side} side holds {len(on_side)} cards; at most {cap}")
        return None
    if len(cards) > slot.capacity and not _stack_ok(cards, slot, host_card, local):
        return Refusal("FOREST-SLOT-FULL",
                       f"slot {slot.id} holds {len(cards)} cards; it takes {slot.capacity} "
                       "and no rule lets these share it",
                       "only cards whose rules allow it share a slot (European Hares, toads, ...)")
    return None


def fits(host: Host, slot: SlotDef, sp: Species, sym: str | None, local: bool = False) -> bool:
    """Whether a card half may go into `slot` of `host` now: the engine's question per legal play.

    The card is put into the slot for a moment and both refusals are asked, so the answer is the
    one `check_forests` would give for the forest with the card in it. `local`: the caller knows
    that no card at the host, the half included, has a rule reaching beyond its own slot."""
    if accepts(slot, sp) is not None:
        return False
    cards = host.slots[slot.id]
    if sp.placement is None and not host.has_rules:
        # no rule at this host can stretch the slot: only its capacity counts
        return not cards or len(cards) < slot.capacity
    trial = Placed(sp, sym, sp.tags, host, slot.id, slot.side)
    with host.holding(trial):
        return (card_refusal(trial, slot, local=local) is None
                and slot_refusal(host.card, slot, local=local) is None)


def reaches_host(sp: Species | None) -> bool:
    """Whether the card's placement rule can bear on slots other than its own."""
    return sp is not None and sp.placement is not None and sp.placement.reaches_host


def places_plainly(sp: Species) -> bool:
    """Whether nothing of the card's own placement rule bears on where the card itself may go."""
    return sp.placement is None or sp.placement.places_plainly


def places_by_symbol(sp: Species | None) -> bool:
    """Whether the card's placement rule looks at tree symbols (its own or another card's)."""
    return sp is not None and sp.placement is not None and sp.placement.by_symbol


def fit_key(host: Host, slot: SlotDef, sp: Species, sym: str | None) -> tuple:
    """All that `fits(host, slot, sp, sym)` reads, where no card at the host (`reaches_host`)
    and not the half itself reads beyond its slot: the host's kind, the slot, the cards in it,
    the half, and the host's card if the half's rule names hosts. Equal keys, equal answers.

    Where no card in the slot has a rule and the half places plainly (`places_plainly`), only
    how full the slot is and what `accepts` reads of the half count; tree symbols count only
    where one of these rules reads them (`by_symbol`, which a caller may remember per
    species)."""
    p = sp.placement
    cards = host.slots[slot.id]
    if places_plainly(sp):
        for c in cards:  # a loop, not any() over a generator: asked for every slot a half meets
            if c.species is not None and c.species.placement is not None:
                break
        else:
            return (host.kind.id, slot.id, len(cards), sp.kind, slot.side in sp.sides, sp.water)
    symbols = places_by_symbol(sp) or any(places_by_symbol(c.species) for c in cards)
    card = host.card
    on = ((card.key, card.symbol if symbols else None)
          if p is not None and (p.only_on or p.not_on) else None)
    return (host.kind.id, slot.id, on,
            tuple((c.key, c.symbol if symbols else None) for c in cards),
            sp.key, sym if symbols else None)


def _where(forest: Forest, index: int, host: Host, slot: str | None) -> str:
    label = host.card.species.id if host.card.species is not None else host.kind.id
    s = f"{forest.name}, host {index + 1} ({label})"
    return s + (f", slot {slot}" if slot else "")


def reads_symbols(sp: Species) -> bool:
    """Whether the species scores by tree symbols, so its forest must say which each card shows."""
    return sp.score is not None and sp.score.reads_symbols


def check_forests(cardset: CardSet, forests: list[Forest],
                  positions: list[Positions] | None = None) -> list[Diagnostic]:
    """Every rule a finished set of forests breaks, each naming player, host and slot, at the
    place in its file where `positions` (one per forest) says it was written."""
    if positions is None:
        positions = [Positions() for _ in forests]
    out: list[Diagnostic] = []
    used: Counter[str] = Counter()
    used_variant: Counter[tuple[str, str | None, str | None]] = Counter()
    last_span: dict[object, Span | None] = {}  # where the copy that overdraws the deck is
    table(forests)
    for forest, where in zip(forests, positions, strict=True):
        # symbols matter only in a forest where some card scores by them
        symbol_readers = any(reads_symbols(c.species) for c in forest.cards if c.species)
        for i, host in enumerate(forest.hosts):
            at = where.host(i)
            hc = host.card
            if hc.species is not None:
                used[hc.species.key] += 1
                last_span[hc.species.key] = at.card or at.span
                if hc.symbol is not None:
                    used_variant[(hc.species.key, None, hc.symbol)] += 1
            for slot in host.kind.slots:
                for k, card in enumerate(host.slots[slot.id]):
                    sp = card.species
                    assert sp is not None
                    span = at.cards.get((slot.id, k))
                    used[sp.key] += 1
                    used_variant[(sp.key, slot.side, card.symbol)] += 1
                    last_span[sp.key] = span
                    last_span[(sp.key, slot.side, card.symbol)] = span
                    why = card_refusal(card, slot)
                    if why:
                        out.append(error(why.code, span or at.span,
                                         f"{_where(forest, i, host, slot.id)}: {why.message}",
                                         why.hint))
                    elif card.symbol is None and symbol_readers and len(
                        sp.symbols_for(slot.side)
                    ) > 1:
                        out.append(error(
                            "FOREST-SYMBOL-NEEDED", span or at.span,
                            f"{_where(forest, i, host, slot.id)}: say which tree symbol this "
                            f"{sp.id} shows; a card here scores by symbol",
                            "symbols it has: " + ", ".join(sp.symbols_for(slot.side)),
                        ))
                why = slot_refusal(hc, slot)
                if why:
                    out.append(error(why.code, at.slots.get(slot.id, at.span),
                                     f"{_where(forest, i, host, slot.id)}: {why.message}",
                                     why.hint))
    first = positions[0].span if positions else None
    for forest, where in zip(forests, positions, strict=True):
        if forest.cave_card is not None:
            used[forest.cave_card.key] += 1
            last_span.setdefault(forest.cave_card.key, where.span)
    for key, n in sorted(used.items()):
        sp = cardset.species[key]
        if n > sp.copies:
            out.append(error("FOREST-COPIES", last_span.get(key) or first,
                             f"{n} {sp.id} in play, but the deck holds {sp.copies}",
                             "count the copies across all players' forests"))
    for (key, side, sym), n in sorted(used_variant.items(), key=str):
        sp = cardset.species[key]
        if sym is None:
            continue
        have = sp.variants.get((side, sym), 0)
        if n > have and not (side is None and sp.symbol == sym):
            out.append(error("FOREST-COPIES", last_span.get((key, side, sym)) or first,
                             f"{n} {sp.id} ({side or 'card'}, {sym}) in play, but the deck "
                             f"holds {have}"))
    return out
