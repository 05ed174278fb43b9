"""`grove export` (issue 32, part 2): the database in the schema of docs/export.md, answering the
issue's questions in plain SQL with counts that match `grove cards` and `grove editions`, an
author's set in it, the four formats holding the same rows, and no output ever written half.

One export of each format is made per module (in-process, about a second each, the rows then
come from the cache) and read by every test.
"""

from __future__ import annotations

import csv
import json
import os
import sqlite3
import stat
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from grove.cli import main
from grove.database.export import TABLES

ROOT = Path(__file__).resolve().parents[1]
AUTHORS = ROOT / "tests" / "editions"  # meadow (standalone) and hedgerow (an expansion of base)


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    top = tmp_path_factory.mktemp("export")
    for fmt, name in (("sqlite", "db.sqlite"), ("json", "db.json"), ("csv", "csv"),
                      ("parquet", "parquet")):
        code, _, err = run("export", "--format", fmt, "-o", str(top / name), "--cards",
                           str(AUTHORS))
        assert code == 0, err
    return top


@pytest.fixture(scope="module")
def db(out: Path):
    con = sqlite3.connect(out / "db.sqlite")
    yield con
    con.close()


def _cards(edition: str) -> list[dict]:
    code, stdout, err = run("cards", edition, "--json", "--lang", "en", "--cards", str(AUTHORS))
    assert code == 0, err
    return json.loads(stdout)


def _editions() -> list[dict]:
    code, stdout, err = run("editions", "--json", "--cards", str(AUTHORS))
    assert code == 0, err
    return json.loads(stdout)


def test_birds_that_cost_at_most_one(db):
    got = db.execute("""
        SELECT s.key FROM species s JOIN species_types t ON t.key = s.key
        WHERE t.type = 'bird' AND s.cost <= 1 ORDER BY s.key""").fetchall()
    want = sorted(r["key"] for e in _editions() for r in _cards(e["id"])
                  if "bird" in r["types"] and r["cost"] <= 1)
    assert [k for (k,) in got] == want and len(want) > 20


def test_water_cards_that_are_not_fish(db):
    got = db.execute("""
        SELECT key FROM species WHERE water
        AND key NOT IN (SELECT key FROM species_types WHERE type = 'fish') ORDER BY key""")
    want = sorted(r["key"] for e in _editions() for r in _cards(e["id"])
                  if r["water"] and "fish" not in r["types"])
    assert [k for (k,) in got] == want and want


def test_the_fox_in_thai(db):
    (name,) = db.execute("""
        SELECT th.name FROM species_names de
        JOIN species_names th ON th.key = de.key AND th.lang = 'th'
        WHERE de.lang = 'de' AND de.name = 'Fuchs'""").fetchone()
    fox = next(r for r in _cards("base") if r["id"] == "red_fox")
    assert name == fox["names"]["th"]


def test_counts_match_grove_cards_and_editions(db):
    for e in _editions():
        species = db.execute("SELECT count(*) FROM species WHERE edition = ?", (e["id"],))
        assert species.fetchone()[0] == len(_cards(e["id"])) == e["species"], e["id"]
        cards = db.execute("SELECT count(*) FROM deck WHERE edition = ?", (e["id"],)).fetchone()
        assert cards[0] == e["cards"], e["id"]
        row = db.execute("SELECT species, cards, standalone, expansion_of FROM editions "
                         "WHERE edition = ?", (e["id"],)).fetchone()
        assert row == (e["species"], e["cards"], int(e["standalone"]), e["expansion_of"])


def test_every_species_row_is_grove_cards(db):
    for e in _editions():
        for r in _cards(e["id"]):
            k = r["key"]
            row = db.execute("SELECT id, kind, cost, copies, water, symbol, provisional "
                             "FROM species WHERE key = ?", (k,)).fetchone()
            assert row == (r["id"], r["kind"], r["cost"], r["copies"], int(r["water"]),
                           r["symbol"], r["provisional"])
            types = db.execute("SELECT type FROM species_types WHERE key = ? ORDER BY type",
                               (k,)).fetchall()
            assert [t for (t,) in types] == sorted(r["types"])
            rules = dict(db.execute("SELECT field, source FROM rules WHERE key = ?", (k,)))
            assert rules == r["rules"]
            texts = dict(db.execute("SELECT field, text FROM rules_text WHERE key = ? AND "
                                    "lang = 'en'", (k,)))
            # the water requirement is no rule but the `water` column; its text is the cards'
            assert texts == {f: t for f, t in r["text"].items() if f != "water"}
            assert ("water" in r["text"]) == bool(r["water"])
            symbols = sorted(db.execute("SELECT side, symbol FROM species_symbols WHERE key = ?",
                                        (k,)))
            assert symbols == sorted((side, s) for side, syms in r["symbols"].items()
                                     for s in syms)


def test_an_authors_sets_are_in_it(db):
    eds = dict(db.execute("SELECT edition, expansion_of FROM editions"))
    assert eds["meadow"] is None and eds["hedgerow"] == "base"
    for e in ("meadow", "hedgerow"):
        keys = [k for (k,) in db.execute("SELECT key FROM species WHERE edition = ? ORDER BY key",
                                         (e,))]
        assert keys == sorted(r["key"] for r in _cards(e)) and keys
    (digest,) = db.execute("SELECT value FROM meta WHERE key = 'digest:meadow'").fetchone()
    meadow = next(e for e in _editions() if e["id"] == "meadow")
    assert digest.startswith(meadow["digest"])


def test_every_language_with_an_explicit_null(db):
    langs = (db.execute("SELECT value FROM meta WHERE key = 'languages'").fetchone()[0]
             .split(","))
    assert {"en", "de", "it", "th", "nl", "pt-br"} <= set(langs)
    (species,) = db.execute("SELECT count(*) FROM species").fetchone()
    (names,) = db.execute("SELECT count(*) FROM species_names").fetchone()
    assert names == species * len(langs)
    (nulls,) = db.execute("SELECT count(*) FROM species_names WHERE name IS NULL").fetchone()
    assert nulls > 0  # the test editions name nothing in Dutch
    (rules,) = db.execute("SELECT count(*) FROM rules").fetchone()
    (texts,) = db.execute("SELECT count(*) FROM rules_text").fetchone()
    assert texts == rules * 4  # en, de, it, th: the languages with a rules catalog


def test_reads_are_the_queries(db):
    code, stdout, _ = run("find", "reads:hare", "--json")
    want = sorted(r["key"] for r in json.loads(stdout))
    got = db.execute("SELECT key FROM species_reads WHERE name = 'hare' ORDER BY key")
    assert [k for (k,) in got] == want == ["alpine:mountain_hare", "base:european_hare",
                                           "base:red_fox"]


def test_the_formats_hold_the_same_rows(out, db):
    doc = json.loads((out / "db.json").read_text(encoding="utf-8"))
    for t in TABLES:
        (n,) = db.execute(f'SELECT count(*) FROM "{t.name}"').fetchone()
        cols = [c for c, _ in t.columns]
        with open(out / "csv" / f"{t.name}.csv", encoding="utf-8", newline="") as fh:
            rows = list(csv.reader(fh))
        assert rows[0] == cols and len(rows) - 1 == n, t.name
        table = pq.read_table(out / "parquet" / f"{t.name}.parquet")
        assert table.column_names == cols and table.num_rows == n, t.name
        sql_cols = [r[1] for r in db.execute(f'PRAGMA table_info("{t.name}")')]
        assert sql_cols == cols
    species = db.execute("SELECT edition, count(*) FROM species GROUP BY edition").fetchall()
    assert {e: len(d["species"]) for e, d in doc["data"].items() if d["species"]} == dict(species)
    fox = next(s for s in doc["data"]["base"]["species"] if s["id"] == "red_fox")
    assert fox["rules"] == {"effect": "draw 1 per hare", "score": "2 per hare"}
    assert fox["text"]["de"]["score"] == "2 Punkte pro Hase"
    assert doc["data"]["meadow"]["names"]["nl"] is None
    assert doc["meta"]["schema_version"] == "2"
    water = pq.read_table(out / "parquet" / "species.parquet").column("water").type
    assert str(water) == "bool"


def test_docs_name_every_table_and_column():
    doc = (ROOT / "docs" / "export.md").read_text(encoding="utf-8")
    for t in TABLES:
        assert f"`{t.name}({', '.join(c for c, _ in t.columns)})`" in doc, t.name


# ---- nothing written half ------------------------------------------------------------------
def test_a_folder_where_the_file_belongs_is_refused(tmp_path):
    (tmp_path / "db.sqlite").mkdir()
    code, _, err = run("export", "-o", str(tmp_path / "db.sqlite"))
    assert code == 2 and "IO-WRITE" in err
    assert list((tmp_path / "db.sqlite").iterdir()) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files")
def test_a_read_only_table_file_leaves_the_folder_as_it_was(tmp_path):
    folder = tmp_path / "csv"
    folder.mkdir()
    (folder / "species.csv").write_text("mine\n", encoding="utf-8")
    (folder / "species.csv").chmod(stat.S_IRUSR)
    code, _, err = run("export", "--format", "csv", "-o", str(folder))
    assert code == 2 and "IO-WRITE" in err and "species.csv" in err
    assert sorted(p.name for p in folder.iterdir()) == ["species.csv"]


def test_a_read_only_table_file_is_refused_before_any_write(tmp_path, monkeypatch):
    """The same, for a user whom a read-only mode does not stop (root): a table file that is a
    symbolic link is refused, and nothing else in the folder is written."""
    folder = tmp_path / "csv"
    folder.mkdir()
    (tmp_path / "elsewhere.csv").write_text("mine\n", encoding="utf-8")
    (folder / "species.csv").symlink_to(tmp_path / "elsewhere.csv")
    code, _, err = run("export", "--format", "csv", "-o", str(folder))
    assert code == 2 and "IO-WRITE" in err and "species.csv" in err
    assert sorted(p.name for p in folder.iterdir()) == ["species.csv"]
    assert (tmp_path / "elsewhere.csv").read_text(encoding="utf-8") == "mine\n"


def test_a_failed_write_keeps_the_old_file(tmp_path, monkeypatch):
    """A failure while the file is written (here: the rename) leaves the old database whole and
    no temporary file beside it."""
    target = tmp_path / "db.sqlite"
    target.write_bytes(b"the old one")

    def fail(*_a, **_k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    code, _, err = run("export", "-o", str(target), "--edition", "alpine")
    assert code == 2 and "IO-WRITE" in err and "Traceback" not in err
    assert target.read_bytes() == b"the old one"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["db.sqlite"]


def test_an_asked_edition_that_does_not_exist(tmp_path):
    code, _, err = run("export", "-o", str(tmp_path / "x.sqlite"), "--edition", "atlantis")
    assert code == 2 and "EDITION-UNKNOWN" in err
    assert not (tmp_path / "x.sqlite").exists()


def test_a_csv_cell_is_never_a_formula():
    """A card set from someone else may name a species `=HYPERLINK(...)`: opened in a
    spreadsheet, the CSV must show that text, not run it; numbers and plain words stay as
    they are."""
    from grove.database.export import _cell

    assert _cell("=HYPERLINK(\"http://x\")") == "'=HYPERLINK(\"http://x\")"
    for risky in ("+1+1", "@SUM(A1)", "-2+3", "\tx", "\rx", "-x"):
        assert _cell(risky) == "'" + risky
    for plain in ("Red Fox", "-2", "-0.5", "2 per hare", 5, "", "a=b"):
        assert _cell(plain) == plain


# ---- the SQLite file as a database (issue 47) ------------------------------------------------
def test_keys_hold_and_the_file_is_whole(out):
    con = sqlite3.connect(out / "db.sqlite")
    try:
        con.execute("PRAGMA foreign_keys = ON")
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
        assert con.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert con.execute("PRAGMA user_version").fetchone() == (2,)
        declared = {(t.name, other) for t in TABLES for _, other, _ in t.refs}
        found = {(t.name, r[2]) for t in TABLES
                 for r in con.execute(f'PRAGMA foreign_key_list("{t.name}")')}
        assert found == declared and ("deck", "species") in found
        assert ("rules_text", "rules") in found and ("species_names", "species") in found
        if sqlite3.sqlite_version_info >= (3, 37):
            strict = {r[1] for r in con.execute("PRAGMA table_list") if r[5]}
            assert {t.name for t in TABLES} <= strict
    finally:
        con.close()


@pytest.mark.parametrize("sql", [
    "INSERT INTO species_types VALUES ('nobody:here', 'bird')",  # names no species
    "INSERT INTO species VALUES ('base:x', 'base', 'x', 'dweller', -1, 1, 1, 0, NULL, NULL)",
    "INSERT INTO species VALUES ('base:x', 'base', 'x', 'dweller', 1, 1, 1, 2, NULL, NULL)",
    "INSERT INTO species VALUES ('base:x', 'base', NULL, 'dweller', 1, 1, 1, 0, NULL, NULL)",
    "INSERT INTO species VALUES ('base:x', 'base', 'x', 'dweller', 'one', 1, 1, 0, NULL, NULL)",
    "INSERT INTO deck VALUES ('base', 999, 'whole', 'base:nothing', NULL, NULL, NULL, NULL, "
    "NULL, NULL)",
])
def test_the_schema_refuses_a_bad_row(out, sql):
    con = sqlite3.connect(out / "db.sqlite")
    try:
        con.execute("PRAGMA foreign_keys = ON")
        with pytest.raises(sqlite3.IntegrityError):
            con.execute(sql)
    finally:
        con.close()


def test_indexes_serve_the_columns_people_filter_on(db):
    indexed = {(t, r[2]) for (t,) in db.execute("SELECT name FROM sqlite_schema WHERE type='table'")
               for ix in db.execute(f'PRAGMA index_list("{t}")')
               for r in db.execute(f'PRAGMA index_info("{ix[1]}")') if r[0] == 0}
    for want in [("species_types", "type"), ("species_names", "name"),
                 ("species_names", "folded"), ("species", "edition"),
                 ("species_reads", "name"), ("deck", "key_1"), ("deck", "key_2")]:
        assert want in indexed, want
    plan = " ".join(str(r) for r in db.execute(
        "EXPLAIN QUERY PLAN SELECT key FROM species_types WHERE type = 'bird'"))
    assert "species_types_type" in plan


def test_no_local_path_and_the_deck_says_what_is_provisional(db):
    folders = [f for (f,) in db.execute("SELECT folder FROM editions")]
    assert "base" in folders and not any("/" in f or "\\" in f for f in folders)
    guessed = db.execute("SELECT edition, key_1, provisional FROM deck WHERE provisional "
                         "IS NOT NULL").fetchall()
    assert ("dartmoor", "dartmoor:common_hazel", "tree symbol chosen; no public source lists it"
            ) in guessed
    assert db.execute("SELECT count(*) FROM deck WHERE edition = 'base' AND provisional IS "
                      "NULL").fetchone() == (158,)


def test_copies_and_deck_copies_differ_only_for_cards_beside_the_deck(db):
    differ = db.execute("SELECT key, kind, copies, deck_copies FROM species "
                        "WHERE copies != deck_copies ORDER BY key").fetchall()
    assert differ == [(f"dartmoor:cave_{i}", "cave", 1, 0) for i in range(1, 6)]
    counted = dict(db.execute("""SELECT key, count(*) FROM (SELECT key_1 AS key FROM deck
        UNION ALL SELECT key_2 FROM deck WHERE key_2 IS NOT NULL) GROUP BY key"""))
    for key, n in db.execute("SELECT key, deck_copies FROM species WHERE deck_copies > 0"):
        assert counted[key] == n, key
    # find counts copies as the export does: the caves have one each
    code, stdout, _ = run("find", "--json", "--edition", "dartmoor", "kind:cave copies=1")
    assert code == 0 and len(json.loads(stdout)) == 5


def test_folded_names_match_what_find_matches(db):
    from grove.database.query import fold

    assert fold("Gämse") == fold("Ga\u0308mse") == fold("GAMSE") == "gamse"
    assert fold("Savi\u2019s Pipistrelle") == "savi's pipistrelle"
    (key,) = db.execute("SELECT key FROM species_names WHERE folded = 'gamse'").fetchone()
    assert key == "alpine:chamois"


_SQL_FOR_FIND = [
    ("type:bird cost<=1", "SELECT s.key FROM species s WHERE cost <= 1 AND key IN "
     "(SELECT key FROM species_types WHERE type = 'bird')"),
    ("water -type:fish", "SELECT key FROM species WHERE water AND key NOT IN "
     "(SELECT key FROM species_types WHERE type = 'fish')"),
    ("kind:tree edition:base", "SELECT key FROM species WHERE kind = 'tree' AND edition = 'base'"),
    ("copies>=3", "SELECT key FROM species WHERE copies >= 3"),
    ("name:gamse", "SELECT key FROM species WHERE id LIKE '%gamse%' OR key IN "
     "(SELECT key FROM species_names WHERE instr(folded, 'gamse'))"),
    ("reads:bat", "SELECT key FROM species WHERE key IN (SELECT key FROM species_reads "
     "WHERE name = 'bat' OR (kind = 'species' AND substr(name, instr(name, ':') + 1) = 'bat'))"),
    ("reads:fish", "SELECT key FROM species WHERE key IN "
     "(SELECT key FROM species_reads WHERE name = 'fish')"),
    ("symbol:linden", "SELECT key FROM species WHERE symbol = 'linden' OR key IN "
     "(SELECT key FROM species_symbols WHERE symbol = 'linden')"),
    ("side:left symbol:oak", "SELECT key FROM species WHERE key IN "
     "(SELECT key FROM species_symbols WHERE side = 'left' AND symbol = 'oak')"),
    ("is:provisional type:bird", "SELECT key FROM species WHERE provisional IS NOT NULL AND key "
     "IN (SELECT key FROM species_types WHERE type = 'bird')"),
]


@pytest.mark.parametrize("q, sql", _SQL_FOR_FIND, ids=[q for q, _ in _SQL_FOR_FIND])
def test_find_queries_answered_in_sql(db, q, sql):
    code, stdout, err = run("find", "--json", "--cards", str(AUTHORS), "--", q)
    assert code == 0, err
    want = sorted(r["key"] for r in json.loads(stdout))
    assert want, q
    assert sorted(k for (k,) in db.execute(sql)) == want
