"""YAML mistakes explained: each usual mistake gets a hint naming it and the column the key
belongs at (from the keys beside it), where the reader says only what it expected."""

from __future__ import annotations

import pytest

from grove.compiler.yaml_source import loads
from grove.dsl.diagnostics import DiagnosticError


def _diagnostic(text: str):
    with pytest.raises(DiagnosticError) as caught:
        loads(text, "edition.yaml")
    (d,) = caught.value.diagnostics
    assert d.code == "YAML-SYNTAX"
    return d


SETUP = "id: x\nsetup:\n  hand_size: 5\n"


@pytest.mark.parametrize(("text", "where", "words"), [
    # a key indented too far, under a block and at the top
    (SETUP + "    hand_limit: 8\n  caves: 0\n", (4, 15),
     ["`hand_limit` is indented further (column 5)", "column 3, where `hand_size` starts"]),
    ("id: x\n  names: y\nstandalone: true\n", (2, 8),
     ["`names` is indented further (column 3)", "column 1, where `id` starts"]),
    # too little: between the block's keys and its parent's
    ("id: x\nsetup:\n    hand_size: 5\n  hand_limit: 8\n", (4, 3),
     ["`hand_limit` starts at column 3", "column 5 beside `hand_size`", "column 1 beside `setup`"]),
    # a tab before a key, first in its block and after a sibling
    ("id: x\nsetup:\n\thand_size: 5\n", (3, 1),
     ["line 3 is indented with a tab", "spaces only", "`hand_size` at column 3"]),
    (SETUP + "  \thand_limit: 8\n", (4, 3),
     ["line 4 is indented with a tab", "`hand_limit` at column 3, where `hand_size` starts"]),
    # a missing colon, with a key after it and at the end of the file
    ("id: x\nsetup:\n  hand_size 5\n  hand_limit: 8\n", (4, 13),
     ["line 3: `hand_size 5` has no `:` after its key", "write `hand_size: 5`"]),
    (SETUP + "  hand_limit 8\n", (5, 1),
     ["line 4: `hand_limit 8` has no `:` after its key", "write `hand_limit: 8`"]),
    # an unclosed bracket or brace, followed by a key or by the end of the file
    ("id: x\nnames: {en: X, de: Y\nstandalone: true\n", (3, 11),
     ["the `{` at line 2, column 8 is never closed", "end it with `}`"]),
    ("id: x\nscorepad: [trees, top\n", (3, 1),
     ["the `[` at line 2, column 11 is never closed", "end it with `]`"]),
])
def test_each_mistake_is_named_with_its_column(text: str, where: tuple[int, int],
                                                words: list[str]):
    d = _diagnostic(text)
    assert (d.span.line, d.span.col) == where  # the reader's position is kept
    for w in words:
        assert w in (d.hint or ""), (w, d.hint)


def test_a_colon_in_a_value_still_asks_for_quotes():
    d = _diagnostic("id: x\nnotes: a rule: 2 per bird\n")
    assert d.hint == "a value containing ': ' must be quoted"


def test_a_duplicate_key_keeps_its_hint():
    assert _diagnostic("id: x\nid: y\n").hint == "each key may appear once in a mapping"
