"""Readable text for people: the scoreboard with the rows of the edition's paper scorepad.

Row names come from the card data (`scorepad:` in edition.yaml names each row per language), so
an edition's own rows, Dartmoor's moors or an author's ponds, need nothing here; the words of
the language ("Total", "Winner") come from the rules-text catalog (msgctxt `scoreboard.*`).
"""

from __future__ import annotations

from typing import Any

from grove.compiler.cardset import CardSet
from grove.compiler.model import scorepad_names
from grove.dsl.diagnostics import escape
from grove.printouts import phrases

_WORDS = ("scoreboard.total", "scoreboard.winner")
NAME_WIDTH = 100  # characters of a name shown: a forest file's longest (a record's are free)


def shown(text: Any, width: int | None = None) -> str:
    """Input text as the scoreboard prints it: control and bidirectional characters escaped with
    the diagnostics' own `escape` (a U+202E in a player's name would reorder the board), and cut
    to `width` characters with `…` (a name from a game record has no limit of its own)."""
    text = str(text)
    if width is not None and len(text) > width:
        text = text[:width - 1] + "…"
    return escape(text)


def _word(ctxt: str, lang: str) -> str:
    """A word of the language from its catalog; English where the language has no catalog."""
    return phrases.words(lang, _WORDS)[ctxt]


def row_name(names: Any, row: str, lang: str) -> str:
    """A scorepad row's name in `lang`, else in English, else its id."""
    names = names or {}
    return names.get(lang) or names.get("en") or row


def scoreboard(result: dict[str, Any], cardset: CardSet, lang: str = "en",
               explain: bool = False, final: bool = False, worded: bool = False) -> str:
    """The paper scorepad's rows, a column per player. Everything from the input (players'
    names, card names and rules text under `explain`; row names from an author's card data) is
    printed through `shown`. `final`: a game just played to its end (`result["turns"]`) is
    titled final, and the winner's margin over the runner-up said (`final_words`). `worded`:
    `explain` says each rule in the rule book's words of `lang` and names hosts and slots in
    it, rather than showing the rule as its card file writes it (for a card's author)."""
    players = result["players"]
    rows = list(cardset.scorepad)
    names = scorepad_names(cardset.editions)
    labels = {r: shown(row_name(names.get(r), r, lang), NAME_WIDTH) for r in rows}
    total = _word("scoreboard.total", lang)
    width = max([len(t) for t in [*labels.values(), total]] + [6])
    player_names = [shown(p["name"], NAME_WIDTH) for p in players]
    colw = max([len(n) for n in player_names] + [5]) + 2
    lines = [" " * width + "".join(n.rjust(colw) for n in player_names)]
    for r in rows:
        lines.append(labels[r].ljust(width) +
                     "".join(str(p["by_category"].get(r, 0)).rjust(colw) for p in players))
    lines.append("-" * (width + colw * len(players)))
    lines.append(total.ljust(width) +
                 "".join(str(p["total"]).rjust(colw) for p in players))
    label = _word("scoreboard.winner", lang)
    lines.append(f"{label}: {', '.join(shown(w, NAME_WIDTH) for w in result['winners'])}")
    if final:
        title, margin = final_words(result, lang)
        lines = [title, *lines, margin]
    if explain:
        lines += _explained(players, player_names, cardset, lang, worded)
    return "\n".join(lines)


def _explained(players: list[dict[str, Any]], player_names: list[str], cardset: CardSet,
               lang: str, worded: bool) -> list[str]:
    """Each player's cards with their points and, under each, the rule terms that gave them."""
    from grove.engine.scoring import DOUBLED_RULE, SET_NOTE

    words = None
    if worded:  # the game's words bring the engine with them: only for a worded explanation
        from grove.card_words import CardWords

        words = CardWords(cardset, lang)
    lines = []
    for p, pname in zip(players, player_names, strict=True):
        lines += ["", f"{pname}:"]
        for c in p["cards"]:
            sp = cardset.species_named(c["card"])
            if words is None:
                name = shown(sp.name(lang) if sp else c["card"], NAME_WIDTH)
                where = f"host {c['host'] + 1}, {shown(c['slot'], NAME_WIDTH)}"
            else:  # a card without a species is a host card with none: a sapling
                name = shown(sp.name(lang), NAME_WIDTH) if sp else words.host_name(c["card"])
                where = f"{words.words('host')} {c['host'] + 1}, {words.place_name(c['slot'])}"
            lines.append(f"  {c['points']:>4}  {name} ({where})")
            for r in c.get("rules", []):
                rule, note = r["rule"], r.get("note")
                if words is not None:
                    rule = (words.words("explain.doubled") if rule == DOUBLED_RULE
                            else _term_words(r, sp, cardset, lang))
                    note = words.words("explain.set") if note == SET_NOTE else note
                note = f" [{shown(note, 200)}]" if note else ""
                lines.append(f"          {r['points']:>3} = {shown(rule, 2000)}  "
                             f"@ {shown(r['at'], 200)}{note}")
    return lines


def _term_words(record: dict[str, Any], sp: Any, cardset: CardSet, lang: str) -> str:
    """The score term `record` explains, in the rule book's words of `lang` (the renderer of
    the sheets and `grove cards --lang`); the term is the one of the card's score rule that
    starts where the record says. As written in the card file if no term is found there or
    the language has no phrase for it."""
    from grove.printouts.rules_text import NoPhrase, Renderer

    program = getattr(sp, "score", None) if sp is not None else None
    terms = getattr(getattr(program, "rule", None), "terms", ())
    term = next((t for t in terms if t.span.display() == record["at"]), None)
    if term is None:
        return record["rule"]
    try:
        return Renderer(cardset, lang, sp).term(term)
    except NoPhrase:
        return record["rule"]


def final_words(result: dict[str, Any], lang: str = "en") -> tuple[str, str]:
    """The final board's title ("Final scores after 103 turns") and its last word: the winner's
    margin over the runner-up, or the tie. Worded by the `screen` catalogs, the words a person
    at the table reads (grove/seatview/words.py)."""
    from grove.seatview.words import Words

    w = Words(lang)
    title = w("final.title", turns=result.get("turns", "?"))
    ranked = sorted(result["players"], key=lambda p: -p["total"])
    top = ranked[0]
    if len(ranked) == 1:
        return title, w("final.alone", winner=shown(top["name"], NAME_WIDTH), points=top["total"],
                        count=top["total"])
    runner_up = ranked[1]
    if runner_up["total"] == top["total"]:  # ties share the victory (grove/engine/scoring.py)
        return title, w("final.tie", points=top["total"], count=top["total"])
    return title, w("final.margin", winner=shown(top["name"], NAME_WIDTH),
                    runner_up=shown(runner_up["name"], NAME_WIDTH),
                    margin=top["total"] - runner_up["total"],
                    count=top["total"] - runner_up["total"])  # the plural's number


def final_cards(result: dict[str, Any], cardset: CardSet, lang: str = "en") -> list[str]:
    """Each player's points card by card, as `grove score --explain` lists them, worded in the
    language: the points, the card, where it lies (its host's number and name, the side) and,
    under each species the first time it scores, its scoring rule in words (as the sheets
    print it). For the end of a game a person played."""
    from grove.game_log import sentences
    from grove.printouts.rules_text import card_text
    from grove.seatview.words import Words

    w = Words(lang)
    log = sentences(lang)
    out: list[str] = []
    for p in result["players"]:
        out += ["", w("final.cards", player=shown(p["name"], NAME_WIDTH))]
        cards = p["cards"]
        hosts = {c["host"]: c["card"] for c in cards if c["slot"] in cardset.hosts}
        worded: set[str] = set()
        for c in cards:
            sp = cardset.species_named(c["card"])
            kind = cardset.hosts.get(c["card"])  # a card of no species: face down as a host
            # (a sapling) or beneath one (a tree's river), named by the host's kind
            name = shown(sp.name(lang) if sp else kind.names.get(lang) or kind.names.get("en")
                         or kind.id if kind else c["card"], NAME_WIDTH)
            host = cardset.species_named(hosts.get(c["host"], ""))
            slot = c["slot"]
            side, _, number = slot.partition("_")
            where = (w("final.host_card") if slot in cardset.hosts
                     else w("final.beneath") if slot == "beneath"
                     else log.get(f"log.side.{side}", side) + (f" {number}" if number else ""))
            out.append("  " + w("final.card", points=f"{c['points']:>3}", card=name,
                                number=c["host"] + 1, slot=where,
                                host=shown(host.name(lang)) if host else ""))
            if sp is not None and sp.key not in worded and c["points"]:
                worded.add(sp.key)
                rule = card_text(sp, cardset, lang).get("score")
                if rule:
                    out.append("        " + shown(rule, 2000))
    return out
