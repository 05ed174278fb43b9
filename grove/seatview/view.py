"""What a human player sees of a game, as plain values and words: the hand, the clearing, a
forest as a grid, the score by scorepad row, the decision's options. The full-screen view and
the line mode both lay these out, so they never disagree about the game.

Everything is read from the engine's state between two actions (the engine waits on the
player while these run) and worded in the player's language: card, host and symbol names from
the card data, the rest from the `screen` catalogs (`words.py`) and the game log's side names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from grove.card_words import CardWords
from grove.compiler.cardset import CardSet, Species
from grove.engine.action import (
    Action,
    CaveCard,
    Draw,
    FaceDown,
    Pick,
    Play,
    Say,
)
from grove.engine.decision import Decision
from grove.engine.effects import PAID_LATER
from grove.engine.scoring import score_rows
from grove.engine.seat import Seat
from grove.report import row_name, shown

if TYPE_CHECKING:
    from grove.engine.mcts import Ranked
    from grove.engine.runner import Outcome

SIDES = ("top", "left", "right", "bottom")  # the order a forest's grid shows its sides in
# the blank between two columns of the hand's table: one, not a table's usual two (a padding on
# each side), for five columns of long names (an Italian Dartmoor hand needs 91 columns so)
HAND_GAP = 1




def paid_later(decision: Decision) -> bool:
    """Whether `decision` offers the Mole's further plays: each paid as decisions of its own
    that follow it, which the person settles with the play, as a turn's payment (steps.py)."""
    return decision.kind == "place" and decision.about == PAID_LATER


def edition_name(cardset: CardSet, lang: str) -> str:
    """A card set's editions by their own names in the language (edition.yaml `names`, as
    `grove editions` lists them), the base first: "Mischwald + Alpin"."""
    return " + ".join(shown(e.names.get(lang) or e.names.get("en") or e.id)
                      for e in cardset.editions)


@dataclass(frozen=True)
class Option:
    """One line of the options list: its words and the action it takes."""

    label: str
    action: Action


@dataclass(frozen=True)
class Grid:
    """A table of words: column headings and rows."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


class View(CardWords):
    """A game as one player's language words it."""

    def __init__(self, game: Seat, lang: str = "en"):
        super().__init__(game.cardset, lang)
        self.game = game

    # ---- names ---------------------------------------------------------------------------------
    def card_name(self, card: int) -> str:
        """A card's name with its tree symbol: two cards of the same name and symbol are the
        same to a player, so options naming them are one option."""
        halves = self.game.halves(card)
        if not halves:
            return "?"  # a winter card: never in a hand or the clearing
        name = shown(self.game.card_name(card, self.lang))
        syms = dict.fromkeys(sym for _, _, sym in halves if sym)
        return name + "".join(f" ‹{self.symbol_name(s)}›" for s in syms)

    def halves(self, card: int) -> list[tuple[str, str, int, str, str]]:
        """A card's halves as a player reads them: name, where it goes (a side, or the host it
        makes), cost, types (but the host's own) and tree symbol."""
        out = []
        for sp, side, sym in self.game.halves(card):
            where = self.side_name(side) if side else self.host_name(self.host_of(sp) or sp.kind)
            types = ", ".join(n for n in map(self.symbol_name, sp.types) if n != where)
            out.append((shown(sp.name(self.lang)), where, sp.cost, types,
                        f"‹{self.symbol_name(sym)}›" if sym else ""))
        return out

    def species_label(self, sp: Species) -> str:
        return shown(sp.name(self.lang))

    def card_text(self, card: int) -> list[str]:
        """A card in full, each of its halves as `show NAME` prints a species (kind, cost,
        types, symbols, its rules in words): what the screen shows of the highlighted card."""
        out: list[str] = []
        seen: set[str] = set()
        for sp, _, _ in self.game.halves(card):
            if sp.key in seen:
                continue
            seen.add(sp.key)
            if out:
                out.append("")
            out.extend(self.species_lines(sp))
        return out

    def card_details(self, card: int) -> str:
        """A hand card in full on one line: each half with where it goes, cost, types, symbol."""
        parts = []
        for name, where, cost, types, sym in self.halves(card):
            facts = [where, self.words("cost", cost=cost), *(x for x in (types, sym) if x)]
            parts.append(f"{name} [{'; '.join(facts)}]")
        return " | ".join(parts)

    def hand_grid(self, cards: list[int]) -> Grid:
        """Hand cards as a table: a row per half, a split card's second half indented. The
        symbol column names the tree symbol bare (`Oak`, not `‹Oak›`): its heading says what
        it is, and the two columns it saves let an Italian hand fit (`hand_width`)."""
        w = self.words
        rows = []
        for card in cards:
            for k, (name, where, cost, types, sym) in enumerate(self.halves(card)):
                rows.append(("└ " + name if k else name, where, str(cost), types,
                             sym.removeprefix("‹").removesuffix("›")))
        return Grid((w("col.card"), w("col.where"), w("col.cost"), w("col.types"),
                     w("col.symbol")), tuple(rows))

    def hand_width(self, cards: list[int] | None = None) -> int:
        """The columns the hand table of `cards` needs (`hand_grid` laid out with `HAND_GAP`
        between columns); without `cards`, any hand of this game: each column as wide as its
        widest cell over every card of the game, so no hand is wider. Measured in terminal
        cells as the screen measures them (a Thai vowel sign takes none)."""
        if cards is None:
            cards, card = [], 0
            while True:  # every card number of the game (a winter card has no halves)
                try:
                    self.game.halves(card)
                except IndexError:
                    break
                cards.append(card)
                card += 1
        return grid_width(self.hand_grid(cards), HAND_GAP)

    # ---- the table -----------------------------------------------------------------------------
    def hand(self, player: int, decision: Decision | None = None) -> list[int]:
        """The player's hand as it stands for them: while paying, without the card being played
        and the cards already paid (the engine moves them only once the payment is complete),
        so the hand is exactly the cards still free to pay with."""
        if decision is not None and decision.kind == "pay" and decision.player == player:
            return [_card(a) for a in decision.actions]
        return list(self.game.players[player].hand)

    def table_line(self, hands: bool = True) -> str:
        """The deck, the winter cards drawn, and how many cards each other player holds (what
        the seat may count: `Seat.hand_sizes`); the screen, whose score panel counts the
        hands, leaves them out (`hands=False`)."""
        g = self.game
        sizes = g.hand_sizes()
        held = [self.words("hand_size", player=shown(name), count=sizes[j])
                for j, name in enumerate(g.names) if j != g.seat and hands]
        return "  ".join((self.words("deck", count=g.deck_size),
                          self.words("winter", drawn=len(g.winter),
                                     total=g.cardset.setup.winter_cards), *held))

    def title(self) -> str:
        return self.words("title", edition=edition_name(self.game.cardset, self.lang),
                          turn=self.game.turn + 1)

    def clearing(self) -> list[int]:
        return list(self.game.clearing)

    def forest(self, player: int) -> Grid:
        """Player's forest: a row per host, a column per side, each slot's cards named; a slot
        that is free shows `·`, a side the host has no slot on stays blank."""
        cols = self.forest_sides()
        rows = []
        for h in self.game.players[player].forest.hosts:
            sp = h.card.species
            name = (shown(sp.name(self.lang)) if sp is not None  # a cell starts with it
                    else f"{self.host_label(h.kind.id)} ({self.words('face_down')})")
            if h.beneath:  # a tree's river, face down beneath it: a card of the forest too
                name += " + " + self.words("beneath", count=len(h.beneath))
            cells = []
            for side in cols:
                slots = [sd for sd in h.kind.slots if sd.side == side]
                if not slots:
                    cells.append("")
                    continue
                names = [shown(c.species.name(self.lang)) for sd in slots
                         for c in h.slots[sd.id]]
                free = sum(1 for sd in slots if not h.slots[sd.id])
                cells.append(", ".join(names + ["·"] * free))
            rows.append((str(h.index + 1), name, *cells))
        return Grid(("#", self.words("host"), *(self.side_name(s) for s in cols)), tuple(rows))

    def table_cards(self) -> list[TableCard]:
        """Every card on the table the seat may read, by where it lies: its own hand, the
        clearing, then each forest's cards face up, host by host (a card face down, or beneath
        a tree, is no one's to read). A person reads an opponent's Owl as well as their own."""
        w, g = self.words, self.game
        out = [TableCard(f"{w('hand')}: {self.card_name(c)}", c, None) for c in g.hand]
        out += [TableCard(f"{w('clearing')}: {self.card_name(c)}", c, None) for c in g.clearing]
        for p in g.players:
            forest = w("forest", player=shown(p.name))
            for h in p.forest.hosts:
                host = (self.species_label(h.card.species) if h.card.species is not None
                        else self.host_name(h.kind.id))
                if h.card.species is not None and h.card.number is not None:
                    out.append(TableCard(f"{forest}: {h.index + 1} {host}", h.card.number,
                                         h.card.species))
                for sd in h.kind.slots:
                    for c in h.slots[sd.id]:
                        if c.species is not None and c.number is not None:
                            out.append(TableCard(
                                f"{forest}: {h.index + 1} {host}, {self.slot_name(sd.id)}: "
                                f"{self.species_label(c.species)}", c.number, c.species))
        return out

    def table_card_text(self, card: TableCard) -> list[str]:
        """A card of `table_cards` in full: the half that lies in a forest, or every half of a
        card held or in the clearing (`card_text`)."""
        return self.species_lines(card.species) if card.species else self.card_text(card.card)

    def forest_sides(self) -> list[str]:
        """The sides a forest's grid has a column for, in its order: those some host has."""
        return [s for s in SIDES if any(sd.side == s for h in self.game.cardset.hosts.values()
                                        for sd in h.slots)]

    def scores(self) -> Grid:
        """The score so far, a row per scorepad row and a column per player, as the final
        scoreboard counts it (each forest against the others as they are now)."""
        g = self.game
        by_player = [score_rows(v, g.cardset) for v in g.views()]
        from grove.compiler.model import scorepad_names

        names = scorepad_names(g.cardset.editions)
        rows = [(shown(row_name(names.get(r), r, self.lang)),
                 *(str(s.get(r, 0)) for s in by_player)) for r in g.cardset.scorepad]
        rows.append((self.words("total"), *(str(sum(s.values())) for s in by_player)))
        return Grid(("", *(shown(p.name) for p in g.players)), tuple(rows))

    def scores_by_player(self) -> Grid:
        """`scores` turned: a row per player, a column per scorepad row (the screen's, where
        the players are fewer than the rows), and last the cards in each player's hand."""
        grid = self.scores()
        sizes = self.game.hand_sizes()  # and the cards each player holds, which all may count
        return Grid((grid.columns[0], *(r[0] for r in grid.rows), self.words("hand")),
                    tuple((name, *(r[k + 1] for r in grid.rows), str(sizes[k]))
                          for k, name in enumerate(grid.columns[1:])))

    # ---- a species, by its name ----------------------------------------------------------------
    def find_species(self, query: str) -> tuple[Species | None, list[Species]]:
        """The species `query` names (case-insensitive): by its name in the player's language
        or English, or its id or key, exactly or as the start of only one of them. Without
        one: (None, the candidates), those it starts or those it occurs in, up to 5."""
        q = " ".join(query.split()).casefold()
        cs = self.game.cardset
        every = list(cs.species.values())

        def keys(sp: Species) -> set[str]:
            return {k.casefold() for k in (sp.name(self.lang), sp.name("en"), sp.id,
                                           sp.id.replace("_", " "))}

        if not q:
            return None, []
        # the key (`base:red_fox`) only whole: every base card's starts with "b"
        exact = [sp for sp in every if q in keys(sp) or q == sp.key.casefold()]
        if len(exact) == 1:
            return exact[0], []
        starts = exact or [sp for sp in every if any(k.startswith(q) for k in keys(sp))]
        if len(starts) == 1:
            return starts[0], []
        found = starts or [sp for sp in every if any(q in k for k in keys(sp))]
        if len(found) == 1 and not starts:
            return found[0], []
        return None, found[:5]

    def near_species(self, query: str) -> list[Species]:
        """Up to 5 species whose name is spelt close to `query`: for a name that fits none."""
        import difflib

        by_name = {sp.name(self.lang).casefold(): sp for sp in self.game.cardset.species.values()}
        close = difflib.get_close_matches(" ".join(query.split()).casefold(), by_name, n=5,
                                          cutoff=0.6)
        return [by_name[n] for n in close]

    def species_lines(self, sp: Species) -> list[str]:
        """A species as the sheets print it: name, kind (the host it makes, or the sides it
        goes on), cost, types, tree symbols of its cards, and its rules in words."""
        from grove.printouts.rules_text import card_text, field_label

        w = self.words
        kind, types = self.kind_name(sp), self.types(sp)
        symbols: dict[str, int] = {}
        for (_, sym), n in (sp.variants or {}).items():
            if sym:
                symbols[sym] = symbols.get(sym, 0) + n
        lines = [f"{shown(sp.name(self.lang))} [{sp.id}]", w("show.kind", kind=kind),
                 w("show.cost", cost=sp.cost), w("show.types", types=types)]
        if symbols:
            lines.append(w("show.symbols", symbols=", ".join(
                f"‹{self.symbol_name(s)}›" + (f" ×{n}" if n > 1 else "")
                for s, n in symbols.items())))
        for field, text in card_text(sp, self.game.cardset, self.lang).items():
            lines.append(f"{field_label(field, self.lang)}: {shown(text)}")
        return lines

    # ---- the decision --------------------------------------------------------------------------
    def ask(self, decision: Decision) -> str:
        """What the decision asks, in words: by its kind, and for a payment how many more."""
        about = decision.about
        m = re.fullmatch(r"pay (\d+) more", about)
        key = {"a card to play for free": "free", "a drawn card for your cave": "cave_draw",
               PAID_LATER: "another",
               "a clearing card for your forest": "from_clearing"}.get(about, decision.kind)
        if m:
            return self.words("ask.pay", count=int(m[1]))
        if decision.kind == "turn" and not any(isinstance(a, Draw) for a in decision.actions):
            key = "turn_full"  # a full hand draws nothing: the engine offers plays only
        text = self.words(f"ask.{key}")
        return text if text != f"ask.{key}" else self.words("ask.choose")

    def options(self, decision: Decision) -> list[Option]:
        """The decision's actions in words, each once: actions that read the same (two copies of
        a card with the same symbol) are the same choice, and the first stands for them."""
        seen: dict[str, Option] = {}
        for action in decision.actions:
            label = self.describe(action, decision.player, decision)
            seen.setdefault(label, Option(label, action))
        return list(seen.values())

    def describe(self, action: Action, player: int, decision: Decision | None = None) -> str:
        """`action` in words. With the `decision` that offers it: a Mole's further play reads
        as a paid play, as its steps say (`steps.paid_later`), though the engine writes it
        `free` (its cost is asked right after it)."""
        w = self.words
        match action:
            case Draw(card=None):
                return w("do.draw_deck")
            case Draw(card=int() as card):
                return w("do.take", card=self.card_name(card))
            case Play(place=place, free=free):
                free = free and not (decision is not None and paid_later(decision))
                card = self.card_name(place.card)
                if place.kind is not None:
                    return w("do.free_host" if free else "do.host", card=card,
                             host=self.host_name(place.kind))
                host = self.game.players[player].forest.hosts[place.host]
                where = (shown(host.card.species.name(self.lang)) if host.card.species
                         else self.host_name(host.kind.id))
                half = shown(self.game.species_for(place).name(self.lang))
                return w("do.free_slot" if free else "do.slot", card=card, half=half,
                         where=where, number=place.host + 1, slot=self.slot_name(place.slot))
            case FaceDown(kind=kind, card=card):
                return w("do.face_down", card=self.card_name(card), host=self.host_name(kind))
            case Pick(verb=verb, card=card):
                return w(f"do.{verb}", card=self.card_name(card))
            case CaveCard(species=sid):
                sp = next((s for s in self.game.cardset.caves if s.id == sid), None)
                return w("do.cave_card", card=shown(sp.name(self.lang)) if sp else sid)
            case Say(word=word):
                if decision is not None and decision.kind == "redraw":  # the set-up's redraw
                    return w(f"do.redraw_{word}")
                return w(f"do.{word}")
        return action.text

    def hint(self, decision: Decision, budget: str = "") -> list[str]:
        """What the search player (`mcts`, engine/mcts.py) would play at a turn, and why: its
        top plays with the margin each came to over the other players and how much of the
        search went to it. Asked of the player's seat view, so a hint knows no more than the
        player does."""
        from grove.engine.mcts import Budget, MctsPlayer

        if decision.kind != "turn" or len(decision.options) < 2:
            return [self.words("hint.none")]
        player = MctsPlayer(0, Budget.parse(budget) if budget else None)
        ranked = player.search(self.game, decision)
        tries = sum(r.visits for r in ranked) or 1
        lines = [self.words("hint.title", tries=tries)]
        for k, (play, visits, margin) in enumerate(self.hint_rows(decision, ranked)[:3], 1):
            lines.append(self.words("hint.row", rank=k, play=play, margin=self.signed(margin),
                                    share=round(100 * visits / tries)))
        return lines

    def hint_rows(self, decision: Decision, ranked: Sequence[Ranked]
                  ) -> list[tuple[str, int, float]]:
        """The search's plays as a person reads them, the best mean margin first: plays that
        read the same (two copies of a card, whose payments may differ) are one row, their
        tries summed and their margins weighed by them; a play tried less than a tenth as
        often as the most tried one is left out, for its mean rests on a few games."""
        rows: dict[str, tuple[int, float]] = {}
        for r in ranked:
            label = self.describe(decision.read(r.text), decision.player, decision)
            visits, total = rows.get(label, (0, 0.0))
            rows[label] = (visits + r.visits, total + r.margin * r.visits)
        most = max((v for v, _ in rows.values()), default=0)
        out = [(label, v, total / v) for label, (v, total) in rows.items()
               if v and 10 * v >= most]
        out.sort(key=lambda row: (-row[2], -row[1], row[0]))
        return out

    def signed(self, value: float) -> str:
        """A number of points with its sign and one decimal, in the language's decimal mark
        ("+1,9" in German)."""
        from babel.numbers import format_decimal

        return format_decimal(value, format="+0.0;-0.0", locale=self.lang)

    def payment(self, decision: Decision, play: Action | None = None) -> Payment | None:
        """For a payment decision: the card being paid for, how many cards are still to pay,
        and the symbol all of them must show for the bonus (with the bonus's words). `play`:
        the play paid for, where it is not yet taken (a payment settled beforehand)."""
        if decision.kind != "pay":
            return None
        m = re.fullmatch(r"pay (\d+) more", decision.about)
        count = int(m[1]) if m else 1
        if not isinstance(play, Play):  # the last play is the one paid for (a Mole's too,
            # which the engine writes `free` and asks to be paid right after)
            play = next((a for a in reversed(self.game.history) if isinstance(a, Play)), None)
        if play is None:
            return Payment("", count, None, None)
        sp, sym, _ = self.game.placing(play.place)
        bonus = None
        if sp.bonus is not None:
            from grove.printouts.rules_text import card_text

            bonus = card_text(sp, self.game.cardset, self.lang).get("bonus", "")
        return Payment(self.card_name(play.card), count, sym, bonus)

    def bonus_note(self, pay: Payment, picked: list[int]) -> str:
        """Whether the cards picked so far earn the played card's bonus, said before confirming:
        every paid card must show the played card's tree symbol (engine/effects.py)."""
        if pay.bonus is None:
            return self.words("no_bonus")
        earned = bool(picked) and all(any(sym == pay.symbol for _, _, sym in self.game.halves(c))
                                      for c in picked)
        return self.words("bonus_yes" if earned else "bonus_no",
                          symbol=f"‹{self.symbol_name(pay.symbol)}›", bonus=pay.bonus)


def grid_width(grid: Grid, gap: int) -> int:
    """The columns `grid` takes laid out with `gap` blanks between columns, each column as
    wide as its widest cell (or heading), in terminal cells."""
    from rich.cells import cell_len

    widths = [max(cell_len(r[k]) for r in (grid.columns, *grid.rows))
              for k in range(len(grid.columns))]
    return sum(widths) + gap * (len(widths) - 1)


@dataclass(frozen=True)
class TableCard:
    label: str  # where it lies and its name
    card: int  # the card's number
    species: Species | None  # the half that lies in a forest; None: a whole card (held, clearing)


@dataclass(frozen=True)
class Payment:
    card: str  # the card paid for, named
    count: int  # cards still to pay
    symbol: str | None  # its tree symbol: the bonus needs every paid card to show it
    bonus: str | None  # its bonus in words; None: it has none


def _card(action: Action) -> int:
    assert isinstance(action, Pick)
    return action.card


def final_result(out: Outcome) -> dict[str, Any]:
    """A finished game's scores as `grove play --json` gives them, with the turns."""
    from grove import api

    cs = out.game.cardset
    result = api.result_json(cs.root.id, cs.expansions, out.scores, False)
    result["turns"] = out.game.turn + 1
    return result
