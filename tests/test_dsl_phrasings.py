"""Rules written the way authors reach for them get a hint naming the DSL's own construct.

Each phrasing below is one docs/dsl.md lists; the hint must name the construct and the rule
written with it must parse (so the hint never points at something the language does not say).
"""

from __future__ import annotations

import re

import pytest

from grove.dsl.diagnostics import DiagnosticError
from grove.dsl.parser import parse_rule


def _hint(field: str, text: str) -> str:
    with pytest.raises(DiagnosticError) as caught:
        parse_rule(field, text)
    (d,) = caught.value.diagnostics
    assert d.code == "DSL-SYNTAX"
    return d.hint or ""


CASES = [
    ("score", "2 per card on same tree", ["`attached`", "`at host`"]),
    ("score", "2 per bird on this tree", ["`attached`", "`at host`"]),
    ("effect", "draw 1 per bird on same tree", ["`attached`", "`at host`"]),
    ("score", "3 per bird if host is oak", ["`3 per bird at host`", "no condition"]),
    ("score", "2 per card in same slot", ["`sharing slot with F`"]),
    ("score", "1 per bird in my forest", ["leave `in forest` out"]),
    ("score", "2 per bird under oak", ["`below H`"]),
    ("score", "2 per bird on top of oak", ["`atop H`"]),
    ("score", "2 per card attached to host", ["`attached` alone"]),
    ("score", "5 if alone on host", ["`10 if alone`"]),
    ("score", "1 per each bird", ["leave `each` out"]),
    ("score", "10 if different tree species >= 8", ["`distinct`"]),
    ("score", "10 if host has at least 2 fish", ["`host has N F` already means at least N"]),
    ("score", "10 if count tree at least 4", [">=", "`10 if count tree >= 4`"]),
    ("score", "5 if host is a beech", ["no article", "`5 if host is beech`"]),
    ("bonus", "draw 1 per bird under oak", ["`below H`"]),
    ("trigger", "whenever you play bird under oak: draw 1", ["`below H`"]),
    ("trigger", "whenever you play bird above oak: draw 1", ["`atop H`"]),
]


@pytest.mark.parametrize(("field", "text", "words"), CASES)
def test_the_hint_names_the_construct(field: str, text: str, words: list[str]):
    got = _hint(field, text)
    for w in words:
        assert w in got, (w, got)


@pytest.mark.parametrize(("field", "text", "words"), CASES)
def test_the_rules_a_hint_shows_parse(field: str, text: str, words: list[str]):
    """Every rule quoted in a hint (`...` with a number in it) parses: a trigger as a trigger,
    any other as a score rule."""
    for shown in re.findall(r"`([^`]*\d[^`]*)`", _hint(field, text)):
        parse_rule("trigger" if shown.startswith("whenever") else "score", shown)


@pytest.mark.parametrize(("field", "text"), [
    ("placement", "only under oak"),
    ("placement", "only on the same tree"),
    ("trigger", "whenever you play bird on this tree: draw 1"),
])
def test_a_phrasing_of_counts_is_no_hint_where_no_count_is_written(field: str, text: str):
    """The count and scope words (`attached`, `below H` as a count) are not what a placement
    rule says, nor `attached` what a trigger says: there the phrasings give no hint."""
    got = _hint(field, text)
    assert "attached" not in got and "`2 per bird below oak`" not in got


def test_a_phrasing_elsewhere_in_the_rule_does_not_steer_the_hint():
    """`1 per bird foo` fails at `foo`: no phrasing covers it, so no phrasing's hint is given;
    nor the `per ... if` one when the rule fails before its `if`."""
    assert "attached" not in _hint("score", "1 per bird foo")
    assert "no condition" not in _hint("score", "3 per bird foo if host is oak")
