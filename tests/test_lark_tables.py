"""The rules' parser built from its tables in the on-disk cache (grove/compiler/lark_tables.py)
reads every rule as the parser built from the grammar does: the same trees for every shipped
rule, the same diagnostics for broken ones; and a process that finds the tables kept builds
nothing."""

from __future__ import annotations

import dataclasses

import lark

from grove.compiler import lark_tables
from grove.compiler.universe import load_universe
from grove.dsl import parser
from grove.dsl.diagnostics import DiagnosticError

BROKEN = [("score", "2 per"), ("score", "3 pr insect"), ("effect", "drwa 1"),
          ("score", "1 per (bird or"), ("bonus", "draw -1"), ("trigger", "when"),
          ("placement", "below"), ("modifier", "counts as"), ("score", "Bird 2"),
          ("effect", "draw 1; ; draw 2")]


def _whole(node: object) -> object:
    """A tree with every field, the source spans too (which a node's equality leaves out)."""
    if dataclasses.is_dataclass(node):
        return (type(node).__name__,
                *((f.name, _whole(getattr(node, f.name))) for f in dataclasses.fields(node)))
    if isinstance(node, (tuple, list)):
        return tuple(_whole(x) for x in node)
    return node


def _read(field: str, text: str, with_lark) -> object:
    try:
        return _whole(parser.parse_rule(field, text, "f.yaml", 3, 9, with_lark))
    except DiagnosticError as exc:
        return [(d.code, d.span, d.message, d.hint) for d in exc.diagnostics]


def test_the_kept_tables_read_every_rule_as_the_grammar_does(tmp_path, monkeypatch):
    monkeypatch.setenv("GROVE_CACHE_DIR", str(tmp_path))
    built = parser._lark()
    kept = lark_tables.parser(*parser.GRAMMAR, **parser.lark_options())  # built and stored

    def no_build(*args, **kwargs):
        raise AssertionError("the tables were built again")

    monkeypatch.setattr(lark.Lark, "__init__", no_build)
    loaded = lark_tables.parser(*parser.GRAMMAR, **parser.lark_options())  # read back
    rules = [(rt.field, rt.text) for e in load_universe().editions.values()
             for sd in e.species for rt in sd.rules]
    assert len(rules) > 300
    for field, text in [*rules, *BROKEN]:
        want = _read(field, text, built)
        assert _read(field, text, kept) == want, (field, text)
        assert _read(field, text, loaded) == want, (field, text)
    assert all(isinstance(_read(f, t, loaded), list) for f, t in BROKEN)


def test_other_options_are_other_tables(tmp_path, monkeypatch):
    """The key holds the grammar's text and the options: tables kept for one parser are never
    read for another (here, the same grammar with one start symbol)."""
    monkeypatch.setenv("GROVE_CACHE_DIR", str(tmp_path))
    options = parser.lark_options()
    one = lark_tables.parser(*parser.GRAMMAR, **{**options, "start": ["score_rule"]})
    every = lark_tables.parser(*parser.GRAMMAR, **options)
    assert one.options.start == ["score_rule"]
    assert sorted(every.options.start) == sorted(options["start"]) != ["score_rule"]
