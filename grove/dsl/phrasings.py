"""Phrasings authors reach for that the rules language says another way, and the construct that
says it.

A failing rule whose words near the error read like plain English ("2 per card on same tree")
gets a hint that names the DSL's own words for it (`attached`, `at host`), rather than the
parser's list of tokens it could take. A phrasing counts only where it covers the word the parser
stopped at, so a rule that fails for another reason is not sent the wrong way. docs/dsl.md
("Phrasings grove explains") lists them.
"""

from __future__ import annotations

import re

_HOST = "(?:tree|host|card|shrub|moor)"

# The start rules whose counts and conditions these phrasings stand for: score, and effect and
# bonus (`draw 1 per bird attached`, `if ...: again`). A trigger's or placement's words differ.
_COUNTING = frozenset({"score_rule", "effect_rule"})

# (phrasing, hint) of score and effect rules: the hints name the construct and show it in a rule.
_COUNTS: tuple[tuple[str, str], ...] = (
    (rf"\b(?:on|at|in) (?:the )?(?:same|this) {_HOST}\b|\bon (?:this|its) {_HOST}\b|\bhere\b",
     "cards at this card's host are counted with `attached` (the cards in its host's slots: "
     "`2 per card attached`) or `at host` (the host card too: `2 per card at host`)"),
    (r"\bper\b[^+]*?(?P<at>\bif\b)",
     "a `per` count takes no condition: `3 per bird at host` counts the birds at this card's "
     "host; `3 if host is oak` scores points when the host is an oak"),
    (r"\b(?:in|on) (?:the |same |this )?slot\b",
     "a card in the same slot is a condition, `sharing slot with F`: "
     "`5 if sharing slot with common_toad`"),
    (r"\bin (?:my |your |the |this )?forest\b",
     "a count covers your whole forest unless a scope narrows it: leave `in forest` out "
     "(`1 per bird`)"),
    (r"\b(?:under|beneath)\b",
     "`below H` counts the cards in the bottom slots of hosts matching H: `2 per bird below oak`"),
    (r"\b(?:above|on top of|over)\b",
     "`atop H` counts the cards in the top slots of hosts matching H: `2 per bird atop oak`"),
    (r"\battached to\b",
     "`attached` alone says it (the cards in the slots of this card's host): "
     "`2 per card attached`"),
    (r"\balone (?:on|at|in)\b",
     "`alone` already means alone at its host: `10 if alone` (`alone except river`)"),
    (r"\b(?:each|every)\b",
     "leave `each` out: `per` already counts each card, `1 per bird`"),
    (r"\bdifferent\b",
     "different species or symbols are `distinct`: `10 if distinct tree species >= 8`"),
    (r"\bhas at least\b",
     "`host has N F` already means at least N: `10 if host has 2 fish`"),
    (r"\b(?:at least|more than|fewer than|less than|at most)\b",
     "a number of cards is compared with >=, >, <=, < or ==: `10 if count tree >= 4`"),
    (r"\bis (?:a|an|the) ",
     "no article before a name: `5 if host is beech`"),
)

# (phrasing, hint) of trigger rules, where a card is played below or atop a host.
_TRIGGERS: tuple[tuple[str, str], ...] = (
    (r"\b(?:under|beneath)\b",
     "a card played into a bottom slot is `below H`: `whenever you play bird below oak: draw 1`"),
    (r"\b(?:above|on top of|over)\b",
     "a card played into a top slot is `atop H`: `whenever you play bird atop oak: draw 1`"),
)

PHRASINGS: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    **{start: tuple((re.compile(p), h) for p, h in _COUNTS) for start in _COUNTING},
    "trigger_rule": tuple((re.compile(p), h) for p, h in _TRIGGERS),
}


def _covers(m: re.Match[str], text: str, offset: int) -> bool:
    """Whether the parser stopped inside the phrasing (in its group `at` where it has one), or
    at the word right after it (`is a beech` stops at `beech`)."""
    start, end = m.span("at") if "at" in m.re.groupindex else m.span()
    return start <= offset and (offset < end or not text[end:offset].strip())


def hint(start: str, text: str, offset: int) -> str | None:
    """The hint of the first phrasing of the start rule `start` in `text` that covers `offset`
    (where the parser stopped, counted from 0), if any."""
    for pattern, said in PHRASINGS.get(start, ()):
        if any(_covers(m, text, offset) for m in pattern.finditer(text)):
            return said
    return None
