"""Errors stay local (issue 28): a corpus of the mistakes a new author makes in a card set.

Each case is a copy of the test edition `meadow` with one mistake typed into one of its files;
`grove lint` must give exactly one error, on the line of the mistake, and none elsewhere: a
broken species or deck entry is reported where it is and left out, and what only follows from
leaving it out (the deck's cards of that species, rules naming it, its count in the deck) is
not reported again. The cases are edited copies made in tmp_path, in process (no subprocess):
the corpus costs about as much as linting meadow that many times.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from grove import api

MEADOW = Path(__file__).parent / "editions" / "meadow"


@dataclass(frozen=True)
class Mistake:
    name: str
    file: str  # of meadow
    old: str  # text of the good file, found exactly once
    new: str  # what the author typed instead
    code: str  # the one error expected
    mark: str  # text on the line the error must point at, found once in the edited file
    hint: str = ""  # words the error's hint must hold, where the hint is the point


S, D, E = "species.yaml", "deck.yaml", "edition.yaml"

MISTAKES = [
    # species entries: wrong values and types
    Mistake("negative cost", S, "water: true\n    cost: 1\n", "water: true\n    cost: -1\n",
            "SCHEMA-VALUE", "cost: -1"),
    Mistake("cost as a word", S, "cost: 1\n    copies: 10", "cost: one\n    copies: 10",
            "SCHEMA-TYPE", "cost: one"),
    Mistake("cost too high", S, "cost: 2\n    copies: 4", "cost: 12\n    copies: 4",
            "SCHEMA-VALUE", "cost: 12"),
    Mistake("no copies", S, "copies: 4", "copies: 0", "SCHEMA-VALUE", "copies: 0"),
    Mistake("copies as a word", S, "copies: 10", "copies: ten", "SCHEMA-TYPE", "copies: ten"),
    Mistake("water not a boolean", S, "kind: dweller\n    types: [frog]\n    water: true\n"
            "    cost: 1", "kind: dweller\n    types: [frog]\n    water: maybe\n    cost: 1",
            "SCHEMA-TYPE", "water: maybe"),
    Mistake("types not a list", S, "types: [reed]", "types: reed", "SCHEMA-TYPE",
            "types: reed"),
    Mistake("a type twice", S, "    types: [frog]\n    cost: 0", "    types: [frog, frog]\n"
            "    cost: 0", "SCHEMA-VALUE", "types: [frog, frog]"),
    Mistake("empty name", S, "en: Heron,", "en: '',", "SCHEMA-VALUE", "en: '',"),
    Mistake("bad article", S, "article: {de: m, it: f}", "article: {de: x, it: f}",
            "SCHEMA-ENUM", "article: {de: x"),
    # species entries: keys
    Mistake("unknown key", S, "copies: 4\n", "copies: 4\n    colour: blue\n",
            "SCHEMA-UNKNOWN-FIELD", "colour: blue"),
    Mistake("misspelt effect", S, "copies: 8\n    score: 1 per pond",
            "copies: 8\n    efect: draw 1\n    score: 1 per pond", "SCHEMA-UNKNOWN-FIELD",
            "efect:"),
    Mistake("misspelt score", S, "score: 2 per plant", "scor: 2 per plant",
            "SCHEMA-UNKNOWN-FIELD", "scor:"),
    # a missing de, it or th name is TEXT-MISSING-TRANSLATION, a warning (issue 45): only en is
    # required
    Mistake("missing en name", S, "{en: Heron, de:", "{de:", "SCHEMA-REQUIRED",
            "{de: Reiher, it: Airone"),
    Mistake("misspelt copies", S, "copies: 10", "copeis: 10", "SCHEMA-UNKNOWN-FIELD",
            "copeis: 10"),
    Mistake("misspelt language", S, "th: กบกก}", "thai: กบกก}", "SCHEMA-PATTERN", "thai:"),
    Mistake("entry not a mapping", S, "  - id: bulrush\n", "  - bulrush\n  - id: bulrush\n",
            "SCHEMA-TYPE", "  - bulrush"),
    Mistake("rule as a list", S, "score: 2 per plant", "score: [2 per plant]", "SCHEMA-TYPE",
            "score: [2 per plant]"),
    Mistake("missing copies", S, "    cost: 0\n    copies: 8\n    score: 1 per pond",
            "    cost: 0\n    score: 1 per pond", "SCHEMA-REQUIRED", "id: dragonet"),
    Mistake("missing kind", S, "    kind: pond\n", "", "SCHEMA-REQUIRED", "id: lily_pond"),
    Mistake("missing id", S, "  - id: bulrush\n    names", "  - names", "SCHEMA-REQUIRED",
            "en: Bulrush"),
    # species entries: ids, kinds, symbols, types
    Mistake("id not snake case", S, "id: reed_frog", "id: Reed-Frog", "SCHEMA-PATTERN",
            "id: Reed-Frog"),
    Mistake("id with a space", S, "id: bulrush", "id: bul rush", "SCHEMA-PATTERN",
            "id: bul rush"),
    Mistake("duplicate id", S, "id: dragonet", "id: bulrush", "SPECIES-DUPLICATE",
            "id: bulrush#2"),
    Mistake("misspelt dweller", S, "id: heron\n    names: {en: Heron, de: Reiher, it: Airone, "
            "th: นกกระสา}\n    kind: dweller", "id: heron\n    names: {en: Heron, de: Reiher, "
            "it: Airone, th: นกกระสา}\n    kind: dweler", "SPECIES-KIND", "kind: dweler"),
    Mistake("misspelt host kind", S, "kind: tree", "kind: tre", "SPECIES-KIND", "kind: tre"),
    Mistake("unknown type", S, "types: [reed]", "types: [red]", "SPECIES-UNKNOWN-TYPE",
            "types: [red]"),
    Mistake("unknown group", S, "    types: [reed]\n", "    types: [reed]\n    groups: [grass]\n",
            "SPECIES-UNKNOWN-GROUP", "groups: [grass]"),
    Mistake("bad tree symbol", S, "symbol: willow", "symbol: wilow", "SPECIES-SYMBOL",
            "symbol: wilow"),
    Mistake("copies not as the deck", S, "copies: 4", "copies: 5", "DECK-COPIES", "copies: 5"),
    # rules
    Mistake("unknown name in a rule", S, "score: 1 per pond", "score: 1 per pondd",
            "DSL-UNKNOWN-NAME", "per pondd"),
    Mistake("unknown host in placement", S, "placement: only on pond", "placement: only on pnd",
            "DSL-UNKNOWN-NAME", "only on pnd"),
    Mistake("bad rule syntax", S, "score: 2 per plant", "score: 2 per per plant", "DSL-SYNTAX",
            "per per plant"),
    # the deck
    Mistake("deck names a missing species", D, "card: willow,", "card: wilow,",
            "DECK-UNKNOWN-SPECIES", "card: wilow"),
    Mistake("wrong side", D, "{card: lily_pond, symbol: poplar, count: 4}",
            "{top: [lily_pond, poplar], bottom: [lily_pond, poplar], count: 2}", "DECK-SIDE",
            "top: [lily_pond"),
    Mistake("bad symbol in the deck", D, "top: [heron, willow]", "top: [heron, wilow]",
            "DECK-UNKNOWN-SYMBOL", "heron, wilow"),
    Mistake("split card without its bottom", D,
            "{top: [heron, willow], bottom: [reed_frog, poplar], count: 8}",
            "{top: [heron, willow], count: 8}", "SCHEMA-REQUIRED", "top: [heron, willow]"),
    Mistake("count as a word", D, "count: 10", "count: ten", "SCHEMA-TYPE", "count: ten"),
    Mistake("unknown deck key", D, "card: willow, count: 10", "card: willow, cuont: 10",
            "SCHEMA-UNKNOWN-FIELD", "cuont"),
    # whole files: one error for the file
    Mistake("key indented too far", S, "    kind: dweller\n    types: [frog]\n    cost: 0\n"
            "    copies: 8\n    score: 1 per pond", "    kind: dweller\n      types: [frog]\n"
            "    cost: 0\n    copies: 8\n    score: 1 per pond", "YAML-SYNTAX",
            "      types: [frog]"),
    Mistake("a key twice", S, "    cost: 0\n    copies: 8\n    score: 1 per pond",
            "    cost: 0\n    cost: 1\n    copies: 8\n    score: 1 per pond", "YAML-SYNTAX",
            "cost: 1#3"),
    Mistake("a tab", S, "    kind: pond\n", "\tkind: pond\n", "YAML-SYNTAX", "\tkind"),
    Mistake("unclosed quote in a rule", S, "score: 2 per plant", "score: \"2 per plant",
            "YAML-SYNTAX", "score: \"2 per plant", "the `\"` at line 51, column 12 is never closed"),
    Mistake("unclosed quote in a name", S, "en: Heron,", "en: 'Heron,", "YAML-SYNTAX",
            "en: 'Heron,", "end the value with `'` on that line"),
    Mistake("species file of another edition", S, "edition: meadow", "edition: medow",
            "EDITION-MISMATCH", "edition: medow"),
    # edition.yaml: words only, the set still loads (the pairs below show its species checked)
    Mistake("edition name without en", E, "{en: Meadow, de:", "{de:", "SCHEMA-REQUIRED",
            "names: {de: Wiese"),
    Mistake("edition name empty", E, "de: Wiese,", "de: '',", "SCHEMA-VALUE", "de: '',"),
    Mistake("bad article of a symbol", E, "article: {de: n, it: f}",
            "article: {de: x, it: f}", "SCHEMA-ENUM", "article: {de: x"),
    Mistake("misspelt plural of a symbol", E, "poplar: {names:", "poplar: {plurl: {en: P}, names:",
            "SCHEMA-UNKNOWN-FIELD", "plurl"),
    Mistake("unknown key in edition.yaml", E, "standalone: true\n",
            "standalone: true\ncolour: green\n", "SCHEMA-UNKNOWN-FIELD", "colour: green"),
    Mistake("scorepad row without en", E, "{en: Ponds, de:", "{de:", "SCHEMA-REQUIRED",
            "names: {de: Teiche"),
    Mistake("a symbol being typed", E, "    poplar: {names:", "    alder:\n    poplar: {names:",
            "SCHEMA-TYPE", "alder:"),
    Mistake("a symbol without names", E, "    poplar: {names: {en: Poplar, de: Pappel, it: "
            "Pioppo, th: ต้นป็อปลาร์}}", "    poplar: {}", "SCHEMA-REQUIRED", "poplar: {}"),
    Mistake("bad slot side", E, "{id: top, side: top, dry: true}",
            "{id: top, side: tpo, dry: true}", "SCHEMA-ENUM", "side: tpo"),
    Mistake("setup value as a word", E, "hand_size: 5", "hand_size: five", "SCHEMA-TYPE",
            "hand_size: five"),
]


def _edited(tmp_path: Path, edits: list[tuple[str, str, str]]) -> Path:
    folder = tmp_path / "meadow"
    shutil.copytree(MEADOW, folder)
    for file, old, new in edits:
        path = folder / file
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} is not once in {file}"
        path.write_text(text.replace(old, new), encoding="utf-8")
    return folder


def _line(path: Path, mark: str) -> int:
    """The line holding `mark`, which must be on one line only; `text#n` is its n-th line."""
    text, _, nth = mark.partition("#")
    lines = [i + 1 for i, line in enumerate(path.read_text(encoding="utf-8").splitlines())
             if text in line]
    if nth:
        return lines[int(nth) - 1]
    assert len(lines) == 1, f"{mark!r} is on lines {lines} of {path.name}"
    return lines[0]


def _errors(folder: Path) -> list:
    return [d for d in api.lint([str(folder)], roots=()) if d.is_error]


def test_the_corpus_is_large_and_its_names_unique():
    assert len(MISTAKES) >= 30
    assert len({m.name for m in MISTAKES}) == len(MISTAKES)


def test_the_good_edition_has_no_error(tmp_path):
    assert _errors(_edited(tmp_path, [])) == []


@pytest.mark.parametrize("m", MISTAKES, ids=[m.name for m in MISTAKES])
def test_one_mistake_one_error_at_its_line(tmp_path, m):
    folder = _edited(tmp_path, [(m.file, m.old, m.new)])
    errors = _errors(folder)
    shown = [f"{d.code} {d.span}" for d in errors]
    assert len(errors) == 1, shown
    (d,) = errors
    assert d.code == m.code, shown
    assert d.span is not None and Path(d.span.file).name == m.file, shown
    assert d.span.line == _line(folder / m.file, m.mark), shown
    assert m.hint in (d.hint or ""), d.hint


_BY_NAME = {m.name: m for m in MISTAKES}
# two mistakes in two different entries (of one file or two): each its own error
PAIRS = [("negative cost", "misspelt effect"), ("unknown type", "missing en name"),
         ("id not snake case", "unknown name in a rule"), ("misspelt dweller", "copies as a word"),
         ("bad tree symbol", "bad rule syntax"), ("missing kind", "count as a word"),
         ("deck names a missing species", "negative cost"),
         ("bad symbol in the deck", "unknown deck key"), ("duplicate id", "cost as a word"),
         # a mistake in the words of edition.yaml leaves the set loaded and checked
         ("edition name without en", "negative cost"),
         ("bad article of a symbol", "unknown name in a rule"),
         ("unknown key in edition.yaml", "deck names a missing species"),
         ("scorepad row without en", "misspelt effect"),
         ("a symbol being typed", "misspelt score"), ("a symbol without names", "no copies")]


@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a} + {b}" for a, b in PAIRS])
def test_two_mistakes_in_two_entries_two_errors(tmp_path, a, b):
    a, b = _BY_NAME[a], _BY_NAME[b]
    folder = _edited(tmp_path, [(a.file, a.old, a.new), (b.file, b.old, b.new)])
    lines = {(a.file, _line(folder / a.file, a.mark)), (b.file, _line(folder / b.file, b.mark))}
    errors = _errors(folder)
    found = {(Path(d.span.file).name, d.span.line) for d in errors if d.span is not None}
    assert len(errors) == 2 and found == lines, [f"{d.code} {d.span}" for d in errors]


def test_a_rule_naming_a_broken_species_is_not_reported_again(tmp_path):
    folder = _edited(tmp_path, [
        (S, "score: 1 per pond", "score: 1 per reed_frog"),
        (S, "    cost: 0\n    copies: 8\n    placement: share",
         "    cost: -2\n    copies: 8\n    placement: share"),
    ])
    errors = _errors(folder)
    assert [d.code for d in errors] == ["SCHEMA-VALUE"]
    assert errors[0].span.line == _line(folder / S, "cost: -2")


def test_the_good_entries_of_a_file_are_still_checked(tmp_path):
    """A typo in another entry of the file holding a broken entry is found as well."""
    folder = _edited(tmp_path, [
        (S, "water: true\n    cost: 1\n", "water: true\n    cost: -1\n"),
        (S, "score: 1 per pond", "score: 1 per pnd"),
    ])
    assert sorted(d.code for d in _errors(folder)) == ["DSL-UNKNOWN-NAME", "SCHEMA-VALUE"]


def test_editions_lists_a_set_with_errors(tmp_path):
    _edited(tmp_path, [(S, "water: true\n    cost: 1\n", "water: true\n    cost: -1\n")])
    rows = {r["id"]: r for r in api.editions((str(tmp_path),))}
    assert rows["meadow"]["errors"] == 1 and not rows["meadow"]["broken"]
    assert rows["meadow"]["species"] == 5  # the other entries of the file are loaded


def test_editions_lists_a_set_whose_edition_file_is_broken(tmp_path):
    _edited(tmp_path, [(E, "hand_size: 5", "hand_size: five")])
    rows = [r for r in api.editions((str(tmp_path),)) if r["folder"].endswith("meadow")]
    assert len(rows) == 1 and rows[0]["errors"] == 1 and rows[0]["broken"]


def test_a_set_whose_edition_file_has_a_bad_name_still_loads(tmp_path):
    """One bad name in edition.yaml is one error; the set is listed with its species, not
    dropped as broken, and its names in the other languages are read."""
    from grove.compiler.search_path import search_path
    from grove.compiler.universe import load_universe

    folder = _edited(tmp_path, [(E, "de: Wiese,", "de: '',")])
    rows = [r for r in api.editions((str(tmp_path),)) if r["folder"].endswith("meadow")]
    assert len(rows) == 1 and rows[0]["errors"] == 1 and not rows[0]["broken"]
    assert rows[0]["species"] == 6
    ed = load_universe(search_path([folder], env={}, shipped=False)).editions["meadow"]
    assert dict(ed.names) == {"en": "Meadow", "it": "Prato", "th": "ทุ่งหญ้า"}


def test_an_expansion_naming_its_own_broken_species(tmp_path):
    """The expansion's scope (itself and the base game) folds the same way as a standalone's."""
    folder = tmp_path / "hedgerow"
    shutil.copytree(MEADOW.parent / "hedgerow", folder)
    path = folder / "species.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count("score: 1 per hedgerow") == 1 and text.count("    cost: 1\n") >= 1
    text = text.replace("score: 1 per hedgerow", "score: 1 per bank_vole")
    vole = text.index("id: bank_vole")
    text = text[:vole] + text[vole:].replace("    cost: ", "    cost: -", 1)
    path.write_text(text, encoding="utf-8")
    errors = [d for d in api.lint([str(folder)]) if d.is_error]
    assert [d.code for d in errors] == ["SCHEMA-VALUE"], [f"{d.code} {d.span}" for d in errors]


def test_grove_editions_marks_the_sets_with_errors(tmp_path):
    from click.testing import CliRunner

    from grove.cli import main

    _edited(tmp_path / "a", [(S, "water: true\n    cost: 1\n", "water: true\n    cost: -1\n")])
    _edited(tmp_path / "b", [(E, "hand_size: 5", "hand_size: five")])
    result = CliRunner().invoke(main, ["editions", "--cards", str(tmp_path / "a"),
                                       "--cards", str(tmp_path / "b")])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any(line.startswith("meadow ") and "5 species" in line and "1 error(s)" in line
               for line in lines), result.output
    assert any("(not loaded; 1 error(s)" in line for line in lines), result.output


def test_a_value_brought_by_an_alias_leaves_out_its_own_entry(tmp_path):
    """Found by tests/test_fuzz.py: `copies: *x` where `&x` marks the `kind` of another entry
    is reported at the anchor, in that other entry; the entry left out is the one whose value
    is wrong, told by the finding's path, not its line (a crash of the loader otherwise)."""
    folder = _edited(tmp_path, [(S, "kind: tree", "kind: &x tree"),
                                (S, "cost: 2\n    copies: 4", "cost: 2\n    copies: *x")])
    errors = _errors(folder)
    assert [d.code for d in errors] == ["SCHEMA-TYPE"], [f"{d.code} {d.span}" for d in errors]


def test_a_line_separator_in_a_rule_is_one_syntax_error(tmp_path):
    """Found by tests/test_fuzz.py once the good entries of a broken file were checked: a
    U+2028 in a rule made the syntax error's hint index a line Lark does not count (IndexError)."""
    folder = _edited(tmp_path, [(S, "score: 1 per pond", "score: 1 per\u2028pond")])
    assert [d.code for d in _errors(folder)] == ["DSL-SYNTAX"]


def test_an_unclosed_quote_closed_by_a_later_one_is_found_where_it_opens(tmp_path):
    """The reader takes the next quote of the file for the closing one and stumbles far
    below; the error is at the quote the author left open, and says so."""
    folder = _edited(tmp_path, [(S, "en: Heron,", "en: 'Heron,"),
                                (S, "score: 2 per plant", "score: '2 per plant'")])
    (d,) = _errors(folder)
    assert (d.code, d.span.line, d.span.col) == ("YAML-SYNTAX", _line(folder / S, "'Heron,"), 17)
    assert "the `'` at line 20, column 17 is never closed" in d.hint
