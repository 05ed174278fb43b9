"""Where the cursor stands in half-typed YAML (grove/lsp/text.py), and what the grammar accepts
there (grove/lsp/completion.py): the parts of the language server that read text, without a
client."""

from __future__ import annotations

from lsprotocol import types

from grove.dsl.diagnostics import Span
from grove.lsp.completion import accepted, schema_keys
from grove.lsp.text import char_col, context, sibling_keys, span_range, utf16_col

CARDS = [
    "edition: base",
    "species:",
    "  - id: fox",
    "    names: {en: Fox}",
    "    co",
    "    score: |",
    "      2 per",
    "      hare",
    "  - ",
]


def test_the_key_path_of_half_typed_yaml():
    assert context(CARDS, 4, 6).path == ("species", "[]") and context(CARDS, 4, 6).on_key
    assert context(CARDS, 8, 4).path == ("species", "[]") and context(CARDS, 8, 4).on_key
    assert context(CARDS, 0, 3).path == () and context(CARDS, 0, 3).on_key
    inside = context(CARDS, 2, 9)
    assert (inside.path, inside.key, inside.value, inside.value_at) == (
        ("species", "[]"), "id", "f", (2, 8))


def test_a_block_scalar_rule_is_read_across_its_lines():
    ctx = context(CARDS, 7, 10)
    assert (ctx.key, ctx.value, ctx.value_at, ctx.path) == ("score", "2 per\nhare", (6, 6),
                                                           ("species", "[]"))


def test_keys_written_are_known():
    assert sibling_keys(CARDS, 4, 4) == {"id", "names", "score"}  # not the line typed on


def test_the_grammar_says_what_comes_next():
    terms, _ = accepted("score", "2 ")
    assert {"PER", "IF", "PLUS", "$END"} <= terms
    terms, _ = accepted("score", "2 per symbol(")
    assert terms == {"NAME"}
    assert accepted("score", "2 points per") is None  # no rule starts so


def test_schema_keys_at_a_path():
    assert {"id", "cost", "score"} <= set(schema_keys("cardset", ("species", "[]")))
    assert set(schema_keys("cardset", ())) == {"edition", "species"}
    assert {"slots", "category"} <= set(schema_keys("edition", ("hosts", "moor")))


def test_positions_in_utf16_and_back():
    line = "    score: 1 per 🦊 fox"
    at = line.index("fox")
    assert utf16_col(line, at) == at + 1  # the fox emoji takes two UTF-16 units
    assert utf16_col(line, at, "utf-8") == at + 3 and utf16_col(line, at, "utf-32") == at
    assert char_col(line, at + 1) == at
    r = span_range(Span("f", 1, at + 1, 1, at + 4), [line])
    assert r == types.Range(types.Position(0, at + 1), types.Position(0, at + 4))
    r = span_range(Span("f", 1, 5), [line])  # no end: the word it starts on
    assert r == types.Range(types.Position(0, 4), types.Position(0, 9))
