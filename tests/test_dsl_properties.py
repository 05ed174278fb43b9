"""Properties of the rules language front end: parser + checker never crash, spans are sane.

Inputs are (a) random text and token soup and (b) mutations of every rule text of the shipped
cards. Whatever goes in, `parse_rule` returns an AST or raises `DiagnosticError`; the checker
returns diagnostics; every diagnostic has a code and a 1-based span inside the rule text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grove.compiler import cardset as cs
from grove.compiler.checker import Checker
from grove.compiler.model import SpeciesDef
from grove.compiler.names import NameScope
from grove.compiler.universe import load_universe
from grove.dsl.ast import FIELDS
from grove.dsl.diagnostics import Diagnostic, DiagnosticError
from grove.dsl.parser import parse_rule

SETTINGS = settings(max_examples=400, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
LINE0, COL0 = 7, 13  # where the rule text pretends to start in its file


@dataclass(frozen=True)
class ShippedRule:
    edition: str
    species: SpeciesDef
    field: str
    text: str


@cache
def _universe():
    return load_universe()


@cache
def _context(edition_id: str):
    """(scope, max_count) for cards of one edition, built as `compile_edition` builds them."""
    editions = dict(_universe().editions)
    edition = editions[edition_id]
    visible = _universe().lineage(edition)
    fam = _universe().family(visible[0])
    scope = NameScope(visible, list(editions.values()))
    fam_species = [s for e in fam for s in e.species]
    face_down = {t for e in fam for h in e.hosts if h.face_down for t in h.types}
    deck_size = sum(c.count for e in fam for c in e.deck)
    return scope, cs._max_count_fn(fam_species, deck_size, face_down, scope)


@cache
def shipped_rules() -> tuple[ShippedRule, ...]:
    out = []
    for e in sorted(_universe().editions.values(), key=lambda e: e.id):
        for sd in e.species:
            for rt in sd.rules:
                out.append(ShippedRule(e.id, sd, rt.field, rt.text))
    return tuple(out)


@cache
def _vocabulary() -> tuple[str, ...]:
    words = set()
    for r in shipped_rules():
        words.update(re.findall(r"[a-z_:]+|\d+|>=|<=|==|[<>()\[\],;:+]", r.text))
    return tuple(sorted(words))


def _species_of_each_kind() -> list[SpeciesDef]:
    seen: dict[str, SpeciesDef] = {}
    for r in shipped_rules():
        seen.setdefault(r.species.kind, r.species)
    return list(seen.values())


def _check_diag(d: Diagnostic, text: str) -> None:
    assert isinstance(d.code, str) and re.fullmatch(r"[A-Z][A-Z0-9-]+", d.code), d
    assert d.message, d
    assert d.span is not None, d
    assert d.span.line >= 1 and d.span.col >= 1, d
    assert d.span.file == "rules.yaml", d
    lines = text.split("\n")
    # inside the text: from its first line to its last, never left of where the text starts
    assert LINE0 <= d.span.line <= LINE0 + len(lines) - 1, (d, text)
    assert d.span.col >= COL0, (d, text)
    rel = d.span.line - LINE0
    assert d.span.col <= COL0 + len(lines[rel]), (d, text)


def front_end(field: str, text: str, species: SpeciesDef, edition: str) -> list[Diagnostic]:
    """Parse and check; only DiagnosticError may escape parse_rule, nothing may escape check."""
    try:
        rule = parse_rule(field, text, "rules.yaml", LINE0, COL0)
    except DiagnosticError as exc:
        assert exc.diagnostics, "a DiagnosticError must carry a diagnostic"
        for d in exc.diagnostics:
            _check_diag(d, text)
        return list(exc.diagnostics)
    scope, max_count = _context(edition)
    found = Checker(scope, species, max_count).rule(rule, field)
    for d in found:
        _check_diag(d, text)
    return found


# ---- strategies
fields = st.sampled_from(FIELDS)
random_text = st.text(
    alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyz_:0123456789 ()[],;+<>=!-\"'\tA\n"),
    max_size=60,
)


@st.composite
def token_soup(draw):
    words = draw(st.lists(st.sampled_from(_vocabulary()), min_size=1, max_size=14))
    return " ".join(words)


@st.composite
def mutated_rule(draw):
    rule = draw(st.sampled_from(shipped_rules()))
    text = rule.text
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["del_char", "ins_char", "rep_char", "del_word", "ins_word",
                                   "rep_word", "swap_words", "truncate", "duplicate"]))
        words = text.split(" ")
        if op in ("del_char", "ins_char", "rep_char"):
            i = draw(st.integers(0, len(text)))
            ch = draw(st.sampled_from("abz_:0123456789 ()[],;+<>=-A\n"))
            if op == "del_char":
                text = text[:i] + text[i + 1:]
            elif op == "ins_char":
                text = text[:i] + ch + text[i:]
            else:
                text = text[:i] + ch + text[i + 1:]
        elif op == "truncate":
            text = text[: draw(st.integers(0, len(text)))]
        elif op == "duplicate":
            text = text + " " + text
        else:
            i = draw(st.integers(0, len(words) - 1))
            w = draw(st.sampled_from(_vocabulary()))
            if op == "del_word" and len(words) > 1:
                del words[i]
            elif op == "ins_word":
                words.insert(i, w)
            elif op == "rep_word":
                words[i] = w
            elif op == "swap_words" and len(words) > 1:
                j = draw(st.integers(0, len(words) - 1))
                words[i], words[j] = words[j], words[i]
            text = " ".join(words)
    field = draw(st.sampled_from([rule.field, rule.field, *FIELDS]))
    return rule, field, text


# ---- properties
@SETTINGS
@given(field=fields, text=random_text, kind=st.integers(0, 10))
def test_random_text_never_crashes(field, text, kind):
    species = _species_of_each_kind()
    sp = species[kind % len(species)]
    front_end(field, text, sp, sp.edition)


@SETTINGS
@given(field=fields, text=token_soup(), kind=st.integers(0, 10))
def test_token_soup_never_crashes(field, text, kind):
    species = _species_of_each_kind()
    sp = species[kind % len(species)]
    front_end(field, text, sp, sp.edition)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_rule())
def test_mutated_shipped_rules_never_crash(case):
    rule, field, text = case
    front_end(field, text, rule.species, rule.edition)


@SETTINGS
@given(field=fields, text=st.one_of(random_text, token_soup()))
def test_parsing_is_deterministic(field, text):
    def once():
        try:
            return ("ok", parse_rule(field, text, "rules.yaml", LINE0, COL0))
        except DiagnosticError as exc:
            return ("error", exc.diagnostics)

    assert once() == once()


def test_every_shipped_rule_parses_and_checks():
    rules = shipped_rules()
    assert len(rules) > 100
    failures = []
    for r in rules:
        try:
            rule = parse_rule(r.field, r.text)
        except DiagnosticError as exc:
            failures.append(f"{r.species.key}.{r.field}: {r.text!r}: "
                            f"{exc.diagnostics[0].code} {exc.diagnostics[0].message}")
            continue
        assert parse_rule(r.field, r.text) == rule  # deterministic on real rules too
        scope, max_count = _context(r.edition)
        errors = [d for d in Checker(scope, r.species, max_count).rule(rule, r.field)
                  if d.is_error]
        failures += [f"{r.species.key}.{r.field}: {d.code} {d.message}" for d in errors]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("field", FIELDS)
def test_blank_rule_is_dsl_empty(field):
    for text in ("", " ", "\t", "\n  \n"):
        with pytest.raises(DiagnosticError) as info:
            parse_rule(field, text, "rules.yaml", LINE0, COL0)
        (d,) = info.value.diagnostics
        assert d.code == "DSL-EMPTY" and (d.span.line, d.span.col) == (LINE0, COL0)


def test_unknown_field_is_a_programming_error():
    with pytest.raises(ValueError):
        parse_rule("scores", "1")
