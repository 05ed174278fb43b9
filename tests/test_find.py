"""`grove find` and `grove.api.find` (issue 32, part 1 and 3): every term of the query language
against `grove cards --json`, computed here on its own, and every bad query refused with a caret
and a hint, never a traceback.

The expected answers are worked out in this file from the rows `grove cards E --json` prints for
each edition (in-process, through click's runner), never from the query code.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grove import api
from grove.cli import main
from grove.database import query
from grove.dsl.diagnostics import DiagnosticError

ROOT = Path(__file__).resolve().parents[1]
EDITIONS = ("alpine", "base", "dartmoor", "smoky_mountains", "woodland_edge")


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture(scope="module")
def cards() -> dict[str, list[dict]]:
    """`grove cards E --json` of every shipped edition, in English and in German."""
    out = {}
    for lang in ("en", "de"):
        rows = []
        for e in EDITIONS:
            code, stdout, err = run("cards", e, "--json", "--lang", lang)
            assert code == 0, err
            rows += [{**r, "edition": e} for r in json.loads(stdout)]
        out[lang] = rows
    return out


def found(q: str, *args: str) -> list[str]:
    code, out, err = run("find", "--json", *args, "--", q)  # `--`: a query may start with `-`
    assert code == 0, err
    return [r["key"] for r in json.loads(out)]


def _symbols(r: dict) -> set[str]:
    return {s for side in r["symbols"].values() for s in side} | ({r["symbol"]} - {None})


def _reads(name: str) -> Callable[[dict], bool]:
    """A rule counts `name` where a count in its source names it: `per hare`, `count roe_deer`,
    `most tree`, `distinct bat species`, `sets of distinct butterfly`, `per symbol(x)`, or a
    condition on the cards at a host does: `tree host has bat`, `host has 2 fish`, `per river
    without fish below` (issue 47)."""
    counted = re.compile(rf"\b(?:per|count|most|by|distinct|has(?:\s+\d+)?|without)\s+"
                         rf"(?:full\s+)?(?:symbol\()?{name}\b")
    return lambda r: any(counted.search(src) for f, src in r["rules"].items()
                         if f != "placement")


TERMS: list[tuple[str, Callable[[dict], bool]]] = [
    ("type:bird", lambda r: "bird" in r["types"]),
    ("t:insect", lambda r: "insect" in r["types"]),
    ("kind:tree", lambda r: r["kind"] == "tree"),
    ("k:shrub", lambda r: r["kind"] == "shrub"),
    ("symbol:linden", lambda r: "linden" in _symbols(r)),
    ("side:top", lambda r: "top" in r["sides"]),
    ("side:left", lambda r: "left" in r["sides"]),
    ("edition:alpine", lambda r: r["edition"] == "alpine"),
    ("set:dartmoor", lambda r: r["edition"] == "dartmoor"),
    ("cost<=1", lambda r: r["cost"] <= 1),
    ("cost<1", lambda r: r["cost"] < 1),
    ("cost=2", lambda r: r["cost"] == 2),
    ("cost:2", lambda r: r["cost"] == 2),
    ("cost!=0", lambda r: r["cost"] != 0),
    ("cost>2", lambda r: r["cost"] > 2),
    ("cost>=3", lambda r: r["cost"] >= 3),
    ("copies>=3", lambda r: r["copies"] >= 3),
    ("copies=1", lambda r: r["copies"] == 1),
    ("water", lambda r: r["water"]),
    ("name:fuchs", lambda r: any("fuchs" in n.casefold() for n in r["names"].values())
     or "fuchs" in r["id"]),
    ("fox", lambda r: any("fox" in n.casefold() for n in r["names"].values()) or "fox" in r["id"]),
    ('name:"red fox"', lambda r: any("red fox" in n.casefold() for n in r["names"].values())),
    ("text:draw", lambda r: any("draw" in t.casefold() for t in r["text"].values())),
    ('rule:"per hare"', lambda r: any("per hare" in t for t in r["rules"].values())),
    ('rule:"symbol("', lambda r: any("symbol(" in t for t in r["rules"].values())),
    ("reads:hare", _reads("hare")),
    ("reads:roe_deer", _reads("roe_deer")),
    ("reads:bat", _reads("bat")),
    ("reads:butterfly", _reads("butterfly")),
    ("reads:mouse", _reads("mouse")),
    ("reads:goat_willow", _reads("goat_willow")),
    ("reads:fish", _reads("fish")),
    ("reads:insect", _reads("insect")),
    ("is:split", lambda r: bool(r["sides"])),
    ("is:provisional", lambda r: bool(r["provisional"])),
    ("is:water", lambda r: r["water"]),
    ('!"Red Fox"', lambda r: "Red Fox" in r["names"].values()),
    ("!fuchs", lambda r: "Fuchs" in r["names"].values()),
    ("name:gamse", lambda r: "Gämse" in r["names"].values()),
]


@pytest.mark.parametrize("q, expect", TERMS, ids=[q for q, _ in TERMS])
def test_each_term_against_grove_cards(cards, q, expect):
    want = [r["key"] for r in cards["en"] if expect(r)]
    assert want, f"{q}: the test asks about something that exists"
    assert found(q) == want


def test_every_term_is_tested():
    asked = {re.split(r"[:<>=!]", q)[0] for q, _ in TERMS if not q.startswith("!")}
    for spec in query.TERMS:
        assert asked & {spec.name, *spec.aliases}, spec.name
    assert set(query.FLAGS) <= asked


COMBINED: list[tuple[str, Callable[[dict], bool]]] = [
    ("type:bird cost<=1", lambda r: "bird" in r["types"] and r["cost"] <= 1),
    ("type:bird and cost<=1", lambda r: "bird" in r["types"] and r["cost"] <= 1),
    ("water -type:fish", lambda r: r["water"] and "fish" not in r["types"]),
    ("water not type:fish", lambda r: r["water"] and "fish" not in r["types"]),
    ("water type!=fish", lambda r: r["water"] and "fish" not in r["types"]),
    ("type:bird or type:insect", lambda r: {"bird", "insect"} & set(r["types"])),
    ("type:bird OR kind:tree cost=0", lambda r: "bird" in r["types"]
     or (r["kind"] == "tree" and r["cost"] == 0)),
    ("(type:bird or kind:tree) cost=0", lambda r: ("bird" in r["types"] or r["kind"] == "tree")
     and r["cost"] == 0),
    ("-(type:bird or kind:tree) edition:base", lambda r: not ("bird" in r["types"]
     or r["kind"] == "tree") and r["edition"] == "base"),
    ("not not water", lambda r: r["water"]),
]


@pytest.mark.parametrize("q, expect", COMBINED, ids=[q for q, _ in COMBINED])
def test_juxtaposition_or_not_and_parentheses(cards, q, expect):
    assert found(q) == [r["key"] for r in cards["en"] if expect(r)]


def test_lang_narrows_names_and_renders_text(cards):
    de = cards["de"]
    assert found("name:fuchs", "--lang", "de") == [
        r["key"] for r in de if "fuchs" in r["name"].casefold()]
    assert found("name:red", "--lang", "de") == [
        r["key"] for r in de if "red" in r["name"].casefold()]
    assert found("text:ziehe", "--lang", "de") == [
        r["key"] for r in de if any("ziehe" in t.casefold() for t in r["text"].values())]


def test_edition_option_narrows(cards):
    """In the order the editions are asked."""
    assert found("type:bird", "--edition", "base", "--edition", "alpine") == [
        r["key"] for e in ("base", "alpine") for r in cards["en"]
        if "bird" in r["types"] and r["edition"] == e]


def test_json_rows_are_grove_cards_rows(cards):
    code, out, err = run("find", "reads:hare", "--json")
    assert code == 0, err
    rows = json.loads(out)
    by_key = {r["key"]: r for r in cards["en"]}
    assert rows and all(r == by_key[r["key"]] for r in rows)


def test_text_lines_in_the_language():
    code, out, _ = run("find", "rule:\"per hare\"", "--lang", "de")
    assert code == 0
    lines = out.splitlines()
    assert "Fuchs (base) dweller, cost 2, pawed | Effekt: Ziehe 1 Karte pro Hase; Punkte: " \
           "2 Punkte pro Hase" in lines
    assert len(lines) == 3


def test_an_authors_set_is_searched():
    meadow = ROOT / "tests" / "editions"
    code, out, err = run("find", "edition:meadow", "--cards", str(meadow), "--json")
    assert code == 0, err
    code2, cards_out, _ = run("cards", "meadow", "--cards", str(meadow), "--json")
    assert [r["key"] for r in json.loads(out)] == [r["key"] for r in json.loads(cards_out)]


def test_a_card_edited_is_found_as_edited(tmp_path):
    """Every edition's rows are one cache entry found by the folders' digests: an edit to a card
    file is a new entry, never the rows of before."""
    import shutil

    meadow = tmp_path / "meadow"
    shutil.copytree(ROOT / "tests" / "editions" / "meadow", meadow)
    assert found("edition:meadow", "--cards", str(tmp_path))
    assert not found("heronwort", "--cards", str(tmp_path))
    species = meadow / "species.yaml"
    text = species.read_text(encoding="utf-8")
    assert "{en: Heron," in text
    species.write_text(text.replace("{en: Heron,", "{en: Heronwort,", 1), encoding="utf-8")
    assert len(found("heronwort", "--cards", str(tmp_path))) == 1


def test_the_api_is_the_command():
    rows = api.find("type:bird cost<=1", ["base"], "de")
    assert [r["key"] for r in rows] == found("type:bird cost<=1", "--edition", "base")
    assert all(r["name"] == r["names"].get("de", r["names"]["en"]) for r in rows)


# ---- bad queries ---------------------------------------------------------------------------
BAD = [
    ("typ:bird", "USAGE-QUERY-TERM", 1, "type:bird"),
    ("type:brid", "USAGE-QUERY-VALUE", 6, "type:bird"),
    ("kind:tre", "USAGE-QUERY-VALUE", 6, "kind:tree"),
    ("edition:alpin", "USAGE-QUERY-VALUE", 9, "edition:alpine"),
    ("side:up", "USAGE-QUERY-VALUE", 6, "side:"),
    ("symbol:lindn", "USAGE-QUERY-VALUE", 8, "symbol:linden"),
    ("reads:haer", "USAGE-QUERY-VALUE", 7, "reads:hare"),
    ("cost<=one", "USAGE-QUERY-VALUE", 7, "cost<=1"),
    ("copies>=-1", "USAGE-QUERY-VALUE", 9, "copies>=3"),
    ("type<bird", "USAGE-QUERY-OPERATOR", 1, "type:bird"),
    ("name>fox", "USAGE-QUERY-OPERATOR", 1, "name:fuchs"),
    ("cost<=", "USAGE-QUERY-SYNTAX", 5, "cost<=1"),
    ("(type:bird", "USAGE-QUERY-SYNTAX", 1, "close it"),
    ("type:bird)", "USAGE-QUERY-SYNTAX", 10, None),
    ("()", "USAGE-QUERY-SYNTAX", 2, None),
    ("or water", "USAGE-QUERY-SYNTAX", 1, "type:bird or type:insect"),
    ("water or", "USAGE-QUERY-SYNTAX", 7, None),
    ("water and or type:bird", "USAGE-QUERY-SYNTAX", 11, None),
    ('name:"red fox', "USAGE-QUERY-SYNTAX", 6, "close it"),
    ("rule:symbol(oak", "USAGE-QUERY-SYNTAX", None, 'rule:"symbol(oak)"'),
    (":bird", "USAGE-QUERY-SYNTAX", 1, "type:bird"),
    ("", "USAGE-QUERY-SYNTAX", 1, "type:bird"),
    ("(" * 40 + "water" + ")" * 40, "USAGE-QUERY-LIMIT", None, None),
    ("water " * 200, "USAGE-QUERY-LIMIT", 1, None),
    ("!", "USAGE-QUERY-SYNTAX", 1, '!"Red Fox"'),
    ('water !""', "USAGE-QUERY-VALUE", 7, '!"Red Fox"'),
]


@pytest.mark.parametrize("q, code, col, hint", BAD, ids=[q[:30] for q, *_ in BAD])
def test_bad_query_has_a_caret_and_a_hint(q, code, col, hint):
    status, out, err = run("find", q)
    assert status == 2 and out == ""
    assert "Traceback" not in err
    first = err.splitlines()
    assert first[0].startswith("query:1:") and code in first[0], err
    if col is not None:
        assert first[0].startswith(f"query:1:{col}:"), err
    caret = first[2]
    assert caret.strip().startswith("^"), err
    if col is not None:
        assert len(caret) - len(caret.lstrip()) == 4 + col - 1, err
    assert "hint: " in err
    if hint:
        assert hint in err


def test_bad_query_as_json_lines():
    status, out, err = run("find", "typ:bird cost<=x", "--json")
    assert status == 2 and out == ""
    found_ = [json.loads(line) for line in err.splitlines()]
    assert [(d["code"], d["file"], d["line"], d["col"]) for d in found_] == [
        ("USAGE-QUERY-TERM", "query", 1, 1), ("USAGE-QUERY-VALUE", "query", 1, 16)]
    assert all(d["hint"] for d in found_)


def test_an_unknown_edition_is_usage():
    status, _, err = run("find", "water", "--edition", "atlantis")
    assert status == 2 and "EDITION-UNKNOWN" in err


# ---- issue 47: names as people type them, halves, editions not searched ----------------------
@pytest.mark.parametrize("q", ["name:gamse", "name:GÄMSE", "name:ga\u0308mse", "gamse", "!gämse"])
def test_case_and_accents_are_folded(q):
    assert found(q) == ["alpine:chamois"]


def test_a_typographic_apostrophe_is_an_apostrophe():
    assert found("name:savi\u2019s") == found('name:"savi\'s"') == ["alpine:savis_pipistrelle"]
    assert found('!"Savi\u2019s Pipistrelle"') == ["alpine:savis_pipistrelle"]


def test_an_exact_name_is_the_whole_name(cards):
    assert found('!"Red Fox"') == ["base:red_fox"]
    assert found("!fox") == []  # no species is called just "fox"
    assert found('!"Fuchs"', "--lang", "de") == ["base:red_fox"]
    assert found('!"Red Fox"', "--lang", "de") == []  # --lang: its names only
    assert found('-!"Red Fox" edition:base kind:dweller') == [
        r["key"] for r in cards["en"] if r["edition"] == "base" and r["kind"] == "dweller"
        and r["id"] != "red_fox"]


def test_side_and_symbol_side_by_side_ask_for_one_half(cards):
    def half(r, side, sym):
        return sym in r["symbols"].get(side, ())

    want = [r["key"] for r in cards["en"] if half(r, "left", "oak")]
    assert want and found("side:left symbol:oak") == want
    both = [r["key"] for r in cards["en"] if "left" in r["sides"] and "oak" in _symbols(r)]
    assert set(want) < set(both)  # a species with a left half and an oak elsewhere is not asked
    assert found("side:left or symbol:oak") == [
        r["key"] for r in cards["en"] if "left" in r["sides"] or "oak" in _symbols(r)]


@pytest.mark.parametrize("q, expect", [
    ("-type:fish", lambda r: True),
    ("type:bird or type:fish", lambda r: "bird" in r["types"]),
    ("edition:alpine", lambda r: False),
    ("-edition:alpine", lambda r: True),
    ("reads:fish", lambda r: False),
])
def test_a_word_of_an_edition_not_searched_gives_no_rows(cards, q, expect):
    want = [r["key"] for r in cards["en"] if r["edition"] == "base" and expect(r)]
    assert found(q, "--edition", "base") == want


def test_a_word_no_edition_has_is_still_a_mistake():
    status, _, err = run("find", "type:fsh", "--edition", "base")
    assert status == 2 and "USAGE-QUERY-VALUE" in err and "type:fish" in err


def test_reads_takes_a_species_key():
    assert found("reads:base:roe_deer") == found("reads:roe_deer") == ["base:lynx"]
    assert found("reads:base:red_fox") == []  # no rule counts foxes: no rows, no error
    assert "smoky_mountains:black_bear" in found("reads:fish")
    assert "base:european_fat_dormouse" in found("reads:bat")
    assert "smoky_mountains:weevil_wasp" in found("reads:insect")
    assert "smoky_mountains:brook_trout" in found("reads:fish")  # per river without fish below


def test_no_match_is_said_on_stderr():
    status, out, err = run("find", "type:bird cost>5")
    assert status == 0 and out == "" and "no species matches the query" in err
    status, out, _ = run("find", "type:bird cost>5", "--json")
    assert status == 0 and json.loads(out) == []


def test_a_query_in_several_arguments_is_one_query():
    assert run("find", "type:bird", "cost<=0")[1] == run("find", "type:bird cost<=0")[1]
    status, out, err = run("find", "-water", "--edition", "base")
    assert status == 0, err
    assert out == run("find", "--edition", "base", "--", "-water")[1] and "Red Fox" in out
    status, out, err = run("find", "--edition=base", "-type:bird", "cost>=3", "--lang", "de")
    assert status == 0 and "Braunbär" in out, err
    status, _, err = run("find", "water", "--edition")
    assert status == 2 and "requires an argument" in err


def test_a_query_echoes_escaped():
    """A control character in the query is shown escaped under the caret, as in any diagnostic."""
    status, _, err = run("find", "typ\x1b[31m:bird")
    assert status == 2 and "\x1b" not in err and "\\x1b" in err


# ---- the parser never breaks ---------------------------------------------------------------
@pytest.fixture(scope="module")
def catalog():
    from grove.database.catalog import load

    return load(None, "en")


ALPHABET = st.sampled_from(
    list("()-:<>=!\"' ") + ["or ", "and ", "not ", "type", "cost", "bird", "1", "x", "water",
                            "name", "reads", "hare", "é", "\x1b", "\n"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(ALPHABET, max_size=25).map("".join))
def test_fuzz_a_query_is_an_answer_or_a_diagnostic(catalog, text):
    """Whatever is typed, the answer is rows or diagnostics pointing into the query, each with a
    hint: never another exception (300 queries, in-process: a second or two)."""
    try:
        rows = query.search(text, catalog.rows, catalog.editions)
    except DiagnosticError as exc:
        assert exc.diagnostics
        for d in exc.diagnostics:
            assert d.code.startswith("USAGE-QUERY-") and d.hint
            assert d.span is not None and d.span.file == query.QUERY
            assert 1 <= d.span.col <= len(text.split("\n")[d.span.line - 1]) + 1
        assert "^" in query.shown(exc.diagnostics, text)
    else:
        assert all(r in catalog.rows for r in rows)


PLAIN = st.sampled_from(
    [" ", "  ", "type", "cost", ":", "<=", ">", "=", "!=", "!", "-", "1", "bird", "or", "and",
     "not", "orange", "é", "x", "\t", "\"", "(", "<", ">="])


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.lists(PLAIN, max_size=12).map("".join), st.lists(ALPHABET, max_size=12).map(
    "".join)))
def test_plain_terms_are_read_as_the_grammar_reads_them(text):
    """A query of plain terms is read without Lark (its import is a third of a warm `grove
    find`): the AST and every span are the grammar's, and a query it does not take is left to
    the grammar."""
    plain = query.plain_terms(text)
    if plain is None:
        return
    assert plain == query.by_grammar(text), text


@pytest.mark.parametrize("text", ["type:bird cost<=1", " water  ", "cost<==1", "a:b:c",
                                  "orange", "reads:roe_deer name:gämse x"])
def test_common_queries_need_no_grammar(text):
    assert query.plain_terms(text) is not None and query.plain_terms(text) == query.by_grammar(text)


# ---- the docs ------------------------------------------------------------------------------
def test_docs_list_every_term_with_a_working_example():
    doc = (ROOT / "docs" / "find.md").read_text(encoding="utf-8")
    for spec in query.TERMS:
        assert f"| `{spec.name}` |" in doc and f"`{spec.example}`" in doc, spec.name
        assert found(spec.example), spec.example
    for flag in query.FLAGS:
        assert f"| `{flag}` |" in doc
    for code in ("USAGE-QUERY-SYNTAX", "USAGE-QUERY-TERM", "USAGE-QUERY-OPERATOR",
                 "USAGE-QUERY-VALUE", "USAGE-QUERY-LIMIT"):
        assert code in doc


# ---- the cache -----------------------------------------------------------------------------
def test_a_warm_query_compiles_nothing(monkeypatch):
    """Asked again, the rows come from the on-disk cache: nothing is built or rendered."""
    from grove.database import rows

    api.find("water", ["base"])

    def no(*_a, **_k):
        raise AssertionError("built again")

    monkeypatch.setattr(rows, "listed", no)
    assert api.find("water", ["base"]) == api.find("water", ["base"], None)


def test_an_edited_card_file_is_read_again(tmp_path):
    """The rows are keyed by the card files: a changed cost is found at once."""
    import shutil

    shutil.copytree(ROOT / "tests" / "editions" / "meadow", tmp_path / "meadow")
    roots = (str(tmp_path), *api.search_path())
    before = {r["id"]: r["cost"] for r in api.find("edition:meadow", roots=roots)}
    some = next(k for k, c in before.items() if c < 5)
    path = tmp_path / "meadow" / "species.yaml"
    text = path.read_text(encoding="utf-8")
    at = text.index(f"id: {some}")
    cost = text.index("cost: ", at)
    end = text.index("\n", cost)
    path.write_text(text[:cost] + "cost: 9" + text[end:], encoding="utf-8")
    after = {r["id"]: r["cost"] for r in api.find("edition:meadow cost=9", roots=roots)}
    assert some in after


def test_an_edition_that_does_not_build_is_left_out_with_a_warning(tmp_path):
    import shutil

    shutil.copytree(ROOT / "tests" / "editions" / "meadow", tmp_path / "meadow")
    path = tmp_path / "meadow" / "species.yaml"
    text = path.read_text(encoding="utf-8")
    at = text.index("score: ")
    path.write_text(text[:at] + "score: 2 per nothing_here\n" + text[text.index("\n", at) + 1:],
                    encoding="utf-8")
    code, out, err = run("find", "kind:tree", "--cards", str(tmp_path))
    assert code == 0 and "FIND-EDITION-SKIPPED" in err and "meadow" in err
    assert out and "(meadow)" not in out
    code, _, err = run("find", "kind:tree", "--cards", str(tmp_path), "--edition", "meadow")
    assert code == 1 and "DSL-UNKNOWN-NAME" in err
