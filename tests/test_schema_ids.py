"""Every schema pattern matches the whole of a name: a line break at its end is refused.

The schemas write `^[a-z][a-z0-9_]*$`, which in JSON Schema's regex dialect (ECMA-262, what an
editor checks with) ends at the end of the text; jsonschema runs it with Python's `re.search`,
whose `$` also matches before a final line break, so "oak\\n" passed and its line break reached
diagnostics and `grove editions` (issue 34).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from grove.cli import main
from grove.compiler import schemas
from grove.compiler.yaml_source import load_text

CARDS = Path(__file__).resolve().parents[1] / "grove" / "cards"


def _run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


def _species(ids: str) -> list:
    text = ("edition: base\nspecies:\n  - id: " + ids + "\n"
            "    names: {en: Oak, de: Eiche, it: Quercia, th: Oak}\n"
            "    kind: tree\n    types: [tree]\n    cost: 1\n    copies: 1\n    score: 1\n")
    return schemas.validate(load_text(text, "species.yaml"), "cardset")


@pytest.mark.parametrize("written", ['"oak\\n"', "|\n      oak", '"oak\\r"', '"oak\\t"',
                                     '"\\noak"', '"oak\\u0000"'])
def test_an_id_with_a_line_break_or_control_character_is_refused(written):
    found = _species(written)
    assert [d.code for d in found] == ["SCHEMA-PATTERN"]
    d = found[0]
    assert d.span.line == 3 and "is not a valid name" in d.message
    assert "\n" not in d.message and "\r" not in d.message  # echoed escaped
    assert "line break" in (d.hint or "")


@pytest.mark.parametrize("written", ["oak", "oak_2", '"oak"', "|-\n      oak"])
def test_a_plain_id_passes(written):
    assert _species(written) == []


def test_keys_are_held_to_their_patterns_too():
    """A `propertyNames` pattern (symbol ids, languages) is the same keyword: also refused."""
    text = ('id: x\nnames: {en: X, "de\\n": Y}\nstandalone: true\nsymbols:\n  tree:\n'
            '    "oak\\n": {names: {en: Oak}}\n')
    found = schemas.validate(load_text(text, "edition.yaml"), "edition")
    where = sorted((d.code, d.span.line) for d in found if d.code == "SCHEMA-PATTERN")
    assert where == [("SCHEMA-PATTERN", 2), ("SCHEMA-PATTERN", 6)]


@pytest.mark.parametrize(("pattern", "text", "matches"), [
    ("^[a-z]+$", "oak", True), ("^[a-z]+$", "oak\n", False),
    ("^a[$]$", "a$", True), ("^a\\$$", "a$", True), ("^a\\$$", "a$\n", False),
    ("^(a|b)$", "b", True), ("^[1-9][0-9]*$", "12\n", False),
])
def test_a_pattern_is_read_as_ecma_262_reads_it(pattern, text, matches):
    assert bool(schemas._ecma(pattern).search(text)) is matches


def test_editions_never_lists_an_id_with_a_line_break(tmp_path):
    folder = tmp_path / "mine"
    shutil.copytree(CARDS / "base", folder)
    ed = folder / "edition.yaml"
    ed.write_text(ed.read_text(encoding="utf-8").replace("id: base\n", 'id: "mine\\n"\n', 1),
                  encoding="utf-8")
    code, out, err = _run("editions", "--cards", str(folder), "--json")
    assert all("\n" not in row["id"] for row in json.loads(out))
    code, out, err = _run("lint", str(folder), "--format", "json")
    found = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert code == 1 and any(d["code"] == "SCHEMA-PATTERN" and "'mine\\n'" in d["message"]
                             for d in found)


def test_grove_new_refuses_a_name_with_a_line_break_and_says_it_escaped(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = _run("new", "woods\n")
    assert code == 2 and "'woods\\n' is not a card-set id" in err
    assert list(tmp_path.iterdir()) == []


def test_a_deck_count_past_any_real_deck_is_refused_by_the_schema(tmp_path):
    """A count is a loop over copies: an absurd one would hang lint, not just be wrong."""
    folder = tmp_path / "base"
    shutil.copytree(CARDS / "base", folder)
    deck = folder / "deck.yaml"
    text = deck.read_text(encoding="utf-8")
    at = text.index("count: ")
    end = text.index("}", at)
    deck.write_text(text[:at] + "count: 99999999999" + text[end:], encoding="utf-8")
    code, _, err = _run("lint", str(folder))
    assert code == 1 and "SCHEMA-VALUE" in err and "maximum of 1000" in err
