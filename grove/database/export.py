"""The whole card database as files: SQLite, JSON, CSV or Parquet, in the schema of
docs/export.md.

`TABLES` is the schema, one place: the SQLite tables, the CSV and Parquet files and the docs'
tables are all made from it (a test holds docs/export.md to it). The rows come from the same
catalog `grove find` searches (`database.catalog`), in every language grove has a catalog for,
so an export and `grove cards` cannot disagree. Every file is made in memory first and written
whole through files/ (a temporary file beside it, renamed over it), so a failure leaves what
was there before, never half a database.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from grove.compiler.search_path import Roots
from grove.dsl.diagnostics import Diagnostic

if TYPE_CHECKING:
    from grove.compiler.universe import Universe

FORMATS = ("sqlite", "json", "csv", "parquet")
SCHEMA_VERSION = 2  # 2: keys, constraints, deck_copies, folded names, deck provisional
_SQL = {"text": "TEXT", "int": "INTEGER", "bool": "INTEGER"}


Ref = tuple[tuple[str, ...], str, tuple[str, ...]]  # (columns, table, its columns)


@dataclass(frozen=True)
class Table:
    """A table of the schema; in SQLite a STRICT table whose columns are NOT NULL unless
    `nullable`, its key the primary key, `refs` declared foreign keys, a boolean column checked
    to be 0 or 1 and a whole number to be at least 0, and an index on each of `indexes`."""

    name: str
    columns: tuple[tuple[str, str], ...]  # (name, "text" | "int" | "bool")
    key: tuple[str, ...]  # the columns that name a row
    about: str
    nullable: tuple[str, ...] = ()
    refs: tuple[Ref, ...] = ()
    indexes: tuple[tuple[str, ...], ...] = ()


def _species(*cols: str) -> tuple[Ref, ...]:
    return tuple(((c,), "species", ("key",)) for c in cols)


_EDITION: tuple[Ref, ...] = ((("edition",), "editions", ("edition",)),)
TABLES: tuple[Table, ...] = (
    Table("meta", (("key", "text"), ("value", "text")), ("key",),
          "grove's version, the export's date, the schema version, the languages, and the "
          "digest of each edition's files (`digest:<edition>`)"),
    Table("editions", (("edition", "text"), ("standalone", "bool"), ("expansion_of", "text"),
                       ("species", "int"), ("cards", "int"), ("digest", "text"),
                       ("folder", "text")), ("edition",),
          "one row per edition; `cards` counts the physical cards of its deck",
          nullable=("expansion_of",), refs=((("expansion_of",), "editions", ("edition",)),)),
    Table("edition_names", (("edition", "text"), ("lang", "text"), ("name", "text")),
          ("edition", "lang"), "an edition's name in every language (null where it has none)",
          nullable=("name",), refs=_EDITION),
    Table("species", (("key", "text"), ("edition", "text"), ("id", "text"), ("kind", "text"),
                      ("cost", "int"), ("copies", "int"), ("deck_copies", "int"),
                      ("water", "bool"), ("symbol", "text"), ("provisional", "text")), ("key",),
          "one row per species; `symbol` is the tree symbol a host card shows, `provisional` "
          "why a fact is not settled",
          nullable=("symbol", "provisional"), refs=_EDITION, indexes=(("edition",),)),
    Table("species_names", (("key", "text"), ("lang", "text"), ("name", "text"),
                            ("folded", "text")), ("key", "lang"),
          "a species' name in every language (null where it has none), and folded as "
          "`grove find` matches it",
          nullable=("name", "folded"), refs=_species("key"), indexes=(("name",), ("folded",))),
    Table("species_types", (("key", "text"), ("type", "text")), ("key", "type"),
          "the types and groups of a species (as `grove cards` lists them)",
          refs=_species("key"), indexes=(("type",),)),
    Table("species_symbols", (("key", "text"), ("side", "text"), ("symbol", "text")),
          ("key", "side", "symbol"),
          "the tree symbols a species' halves show, by side (`card` for a whole card)",
          refs=_species("key"), indexes=(("symbol",),)),
    Table("species_reads", (("key", "text"), ("kind", "text"), ("name", "text")),
          ("key", "kind", "name"),
          "what a species' rules count (`tag`: a type, group or host; `species`: a species key; "
          "`symbol`: a tree symbol), as `reads:` finds it",
          refs=_species("key"), indexes=(("name",),)),
    Table("rules", (("key", "text"), ("field", "text"), ("source", "text")), ("key", "field"),
          "each rule as written in the card files", refs=_species("key")),
    Table("rules_text", (("key", "text"), ("field", "text"), ("lang", "text"), ("text", "text")),
          ("key", "field", "lang"), "each rule as rule-book text in every language with a catalog",
          nullable=("text",), refs=((("key", "field"), "rules", ("key", "field")),)),
    Table("deck", (("edition", "text"), ("card_no", "int"), ("kind", "text"), ("key_1", "text"),
                   ("side_1", "text"), ("symbol_1", "text"), ("key_2", "text"), ("side_2", "text"),
                   ("symbol_2", "text"), ("provisional", "text")), ("edition", "card_no"),
          "one row per physical card of an edition's deck, numbered from 1; `kind` is `whole` "
          "(one species, its half 2 null) or `split` (two halves); `provisional` why the card "
          "is a guess",
          nullable=("side_1", "symbol_1", "key_2", "side_2", "symbol_2", "provisional"),
          refs=(*_EDITION, *_species("key_1", "key_2")), indexes=(("key_1",), ("key_2",))),
)
TABLE = {t.name: t for t in TABLES}


@dataclass(frozen=True)
class Database:
    """Every table's rows, in the order of its columns, and the warnings met."""

    tables: dict[str, list[tuple[Any, ...]]]
    editions: tuple[str, ...]
    langs: tuple[str, ...]
    warnings: tuple[Diagnostic, ...] = ()


def _date() -> str:
    """The export's date (UTC); `SOURCE_DATE_EPOCH` fixes it, for a build that must come out
    the same twice."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    when = datetime.fromtimestamp(int(epoch), UTC) if epoch.isdigit() else datetime.now(UTC)
    return when.isoformat(timespec="seconds")


def gather(editions: Sequence[str] | None = None, roots: Roots | None = None,
           universe: Universe | None = None, version: str = "") -> Database:
    """The database of the search path (or of `editions`), every language included;
    `version` is grove's, for the meta table."""
    from grove.compiler.cardset import checked
    from grove.compiler.universe import load_universe
    from grove.database import catalog
    from grove.database.query import fold
    from grove.printouts.phrases import available_languages

    universe = universe if universe is not None else load_universe(roots)
    if editions:  # an expansion comes with the game it expands: its keys name that game's
        editions = list(dict.fromkeys(
            x.id for e in editions if e in universe.editions
            for x in universe.lineage(universe.editions[e]))) + [
            e for e in editions if e not in universe.editions]
    rendered = tuple(available_languages())
    by_lang = {lang: catalog.load(editions, lang, universe=universe) for lang in rendered}
    first = by_lang[rendered[0]]
    eds = [universe.editions[e] for e in first.editions]
    langs = sorted(set(rendered).union(
        *(r["names"] for r in first.rows), *(e.names for e in eds)))
    t: dict[str, list[tuple[Any, ...]]] = {x.name: [] for x in TABLES}
    t["meta"] += [("grove_version", version), ("exported", _date()),
                  ("schema_version", str(SCHEMA_VERSION)), ("languages", ",".join(langs))]
    t["meta"] += [(f"digest:{e.id}", e.digest) for e in eds]
    per_edition: dict[str, int] = {}
    for r in first.rows:
        per_edition[r["edition"]] = per_edition.get(r["edition"], 0) + 1
    in_deck: dict[str, int] = {}
    for e in eds:
        deck = checked(universe, e.id).deck
        # the folder's name, not its path: an export is shared, and a path says whose disk
        t["editions"].append((e.id, e.standalone, e.expansion_of, per_edition.get(e.id, 0),
                              len(deck), e.digest, Path(e.folder).name))
        t["edition_names"] += [(e.id, lang, e.names.get(lang)) for lang in langs]
        for no, card in enumerate(deck, 1):
            halves = [*card.halves, (None, None, None)][:2]
            t["deck"].append((e.id, no, "whole" if len(card.halves) == 1 else "split",
                              *halves[0], *halves[1], card.provisional))
            for key, _, _ in card.halves:
                in_deck[key] = in_deck.get(key, 0) + 1
    texts = {lang: {r["key"]: r["text"] for r in found.rows} for lang, found in by_lang.items()}
    for r in first.rows:
        k = r["key"]
        t["species"].append((k, r["edition"], r["id"], r["kind"], r["cost"], r["copies"],
                             in_deck.get(k, 0), r["water"], r["symbol"], r["provisional"]))
        t["species_names"] += [(k, lang, name, None if name is None else fold(name))
                               for lang in langs for name in [r["names"].get(lang)]]
        t["species_types"] += [(k, ty) for ty in r["types"]]
        t["species_symbols"] += [(k, side, s) for side, syms in r["symbols"].items() for s in syms]
        t["species_reads"] += [(k, *tok.split(":", 1)) for tok in r["reads"]]
        t["rules"] += [(k, f, src) for f, src in r["rules"].items()]
        for f in r["rules"]:
            t["rules_text"] += [(k, f, lang, texts[lang][k].get(f)) for lang in rendered]
    warnings = tuple(dict.fromkeys(w for found in by_lang.values() for w in found.warnings))
    return Database(t, tuple(first.editions), tuple(langs), warnings)


# ---- the formats ---------------------------------------------------------------------------
def _names(cols: Sequence[str]) -> str:
    return ", ".join(f'"{c}"' for c in cols)


def create_sql(table: Table, strict: bool = True) -> list[str]:
    """The statements that make `table` in SQLite: STRICT (SQLite 3.37 and later read it), its
    constraints, its indexes."""
    parts = []
    for c, ty in table.columns:
        check = {"bool": f' CHECK ("{c}" IN (0, 1))',
                 "int": f' CHECK ("{c}" >= {1 if c == "card_no" else 0})'}.get(ty, "")
        null = "" if c in table.nullable else " NOT NULL"
        parts.append(f'"{c}" {_SQL[ty]}{null}{check}')
    parts.append(f"PRIMARY KEY ({_names(table.key)})")
    parts += [f'FOREIGN KEY ({_names(cols)}) REFERENCES "{other}" ({_names(theirs)})'
              for cols, other, theirs in table.refs]
    out = [f'CREATE TABLE "{table.name}" ({", ".join(parts)}){" STRICT" * strict}']
    out += [f'CREATE INDEX "{table.name}_{"_".join(cols)}" ON "{table.name}" ({_names(cols)})'
            for cols in table.indexes]
    return out


def sqlite_bytes(db: Database) -> bytes:
    """One SQLite file: a table per `TABLES` entry (`create_sql`), `user_version` the schema
    version; the rows are checked against the declared keys before it is written."""
    import sqlite3

    con = sqlite3.connect(":memory:", isolation_level=None)
    try:
        con.execute("PRAGMA foreign_keys = ON")
        con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        strict = sqlite3.sqlite_version_info >= (3, 37)  # an older SQLite cannot say STRICT
        for table in TABLES:
            for sql in create_sql(table, strict):
                con.execute(sql)
        con.execute("BEGIN")
        con.execute("PRAGMA defer_foreign_keys = ON")  # an expansion may come before its game
        for table in TABLES:
            marks = ", ".join("?" * len(table.columns))
            con.executemany(f'INSERT INTO "{table.name}" VALUES ({marks})',
                            [tuple(int(v) if isinstance(v, bool) else v for v in row)
                             for row in db.tables[table.name]])
        con.execute("COMMIT")  # checks every key: a row naming nothing fails here
        return con.serialize()
    finally:
        con.close()


def _column(table: Table, col: str) -> Any:
    return {"text": str, "int": int, "bool": bool}[dict(table.columns)[col]]


_FORMULA = re.compile(r"[=+@\t\r]|-(?![\d.]+$)")


def _cell(value: Any) -> Any:
    """A text a spreadsheet would run as a formula (`=HYPERLINK(...)` as a name in a card set
    someone shared) gets a leading apostrophe, which the spreadsheet shows as text."""
    return f"'{value}" if isinstance(value, str) and _FORMULA.match(value) else value


def csv_files(db: Database) -> dict[str, bytes]:
    """A CSV file per table (UTF-8, a header row; an empty field is null; booleans are
    `true`/`false`; a text that would start a formula begins with `'`)."""
    out = {}
    for table in TABLES:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow([c for c, _ in table.columns])
        bools = [ty == "bool" for _, ty in table.columns]
        for row in db.tables[table.name]:
            w.writerow(["" if v is None else ("true" if v else "false") if b else _cell(v)
                        for v, b in zip(row, bools, strict=True)])
        out[f"{table.name}.csv"] = buf.getvalue().encode("utf-8")
    return out


def parquet_files(db: Database) -> dict[str, bytes]:
    """A Parquet file per table, its columns typed (string, int64, bool)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    types = {"text": pa.string(), "int": pa.int64(), "bool": pa.bool_()}
    out = {}
    for table in TABLES:
        rows = db.tables[table.name]
        arrays = [pa.array([r[i] for r in rows], type=types[ty])
                  for i, (_, ty) in enumerate(table.columns)]
        schema = pa.schema([(c, types[ty]) for c, ty in table.columns])
        buf = io.BytesIO()
        pq.write_table(pa.Table.from_arrays(arrays, schema=schema), buf)
        out[f"{table.name}.parquet"] = buf.getvalue()
    return out


def _dicts(table: str, db: Database) -> list[dict[str, Any]]:
    cols = [c for c, _ in TABLE[table].columns]
    return [dict(zip(cols, r, strict=True)) for r in db.tables[table]]


def json_document(db: Database) -> dict[str, Any]:
    """The same as one document: `meta`, and under `data` one document per edition, its
    species nested as `grove cards --json` nests them (names and text in every language, with
    null where a word is missing)."""
    by_key: dict[str, dict[str, Any]] = {}
    by_edition: dict[str, dict[str, Any]] = {}
    for e in _dicts("editions", db):
        by_edition[e["edition"]] = {**e, "names": {}, "species": [], "deck": []}
    for n in _dicts("edition_names", db):
        by_edition[n["edition"]]["names"][n["lang"]] = n["name"]
    for s in _dicts("species", db):
        doc = {**s, "names": {}, "types": [], "symbols": [], "reads": [], "rules": {}, "text": {}}
        by_key[s["key"]] = doc
        by_edition[s["edition"]]["species"].append(doc)
    for n in _dicts("species_names", db):
        by_key[n["key"]]["names"][n["lang"]] = n["name"]
    for ty in _dicts("species_types", db):
        by_key[ty["key"]]["types"].append(ty["type"])
    for sy in _dicts("species_symbols", db):
        by_key[sy["key"]]["symbols"].append({"side": sy["side"], "symbol": sy["symbol"]})
    for rd in _dicts("species_reads", db):
        by_key[rd["key"]]["reads"].append({"kind": rd["kind"], "name": rd["name"]})
    for ru in _dicts("rules", db):
        by_key[ru["key"]]["rules"][ru["field"]] = ru["source"]
    for tx in _dicts("rules_text", db):
        by_key[tx["key"]]["text"].setdefault(tx["lang"], {})[tx["field"]] = tx["text"]
    for d in _dicts("deck", db):
        halves = [{"key": d[f"key_{i}"], "side": d[f"side_{i}"], "symbol": d[f"symbol_{i}"]}
                  for i in (1, 2) if d[f"key_{i}"] is not None]
        by_edition[d["edition"]]["deck"].append(
            {"card_no": d["card_no"], "kind": d["kind"], "halves": halves,
             "provisional": d["provisional"]})
    meta = dict(db.tables["meta"])
    return {"meta": meta, "data": by_edition}


def json_bytes(db: Database) -> bytes:
    return (json.dumps(json_document(db), ensure_ascii=False, indent=1) + "\n").encode("utf-8")


def render(db: Database, fmt: str) -> dict[str, bytes] | bytes:
    """A format's output: the bytes of one file (sqlite, json), or a folder's files by name."""
    match fmt:
        case "sqlite":
            return sqlite_bytes(db)
        case "json":
            return json_bytes(db)
        case "csv":
            return csv_files(db)
        case "parquet":
            return parquet_files(db)
    raise ValueError(fmt)


def default_out(fmt: str) -> str:
    return {"sqlite": "grove.sqlite", "json": "grove.json", "csv": "grove-csv",
            "parquet": "grove-parquet"}[fmt]


def is_folder(fmt: str) -> bool:
    return fmt in ("csv", "parquet")


def refusal(out: str, fmt: str, force: bool = False) -> str | None:
    """Why `out` cannot take the export, or None: a file format's target must be a file grove
    may replace, named for the format, and one grove wrote unless `force` (files/output.py);
    a folder format's a folder (made if missing, in a folder that is there) whose files of the
    tables grove may replace."""
    from grove.files.output import named_file_refusal, suffix_refusal
    from grove.files.write import refusal as file_refusal

    if not is_folder(fmt):
        return file_refusal(out) or named_file_refusal(out, fmt, force)
    slip = suffix_refusal(out, fmt)  # `-o grove.sqlite --format csv`
    if slip is not None:
        return slip
    folder = Path(out)
    if folder.exists() or folder.is_symlink():
        if folder.is_symlink():
            return ("is a symbolic link" + (" to a folder" if folder.is_dir() else "")
                    + "; grove writes an export only into a real folder")
        if not folder.is_dir():
            return "is not a folder"
        ext = ".csv" if fmt == "csv" else ".parquet"
        for table in TABLES:
            why = file_refusal(folder / f"{table.name}{ext}")
            if why is not None:
                return f"{table.name}{ext} {why}"
        # the new export takes the folder's place whole: anything else in it would go too
        foreign = sorted(n for n in os.listdir(folder) if not _is_grove_file(n))
        if foreign:
            more = f" and {len(foreign) - 3} more" if len(foreign) > 3 else ""
            return (f"holds what grove did not write ({', '.join(foreign[:3])}{more}); give a "
                    "new folder or an earlier export's")
        if not os.access(folder, os.W_OK | os.X_OK):
            return "is read-only"
        return None
    parent = folder.parent if str(folder.parent) else Path(".")
    if not parent.is_dir():
        return f"no folder {parent}"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"the folder {parent} is not writable"
    return None


def _is_grove_file(name: str) -> bool:
    """A table file of either folder format, or the temporary name files/write.py gave one (an
    older grove wrote the tables one by one, and a killed one left `.deck.csv.<hex>.tmp`)."""
    tables = {t.name for t in TABLES}
    stem, _, ext = name.rpartition(".")
    if ext in ("csv", "parquet") and stem in tables:
        return True
    m = re.fullmatch(r"\.(\w+)\.(csv|parquet)\.[0-9a-f]{12}\.tmp", name)
    return m is not None and m.group(1) in tables


def write(out: str, fmt: str, made: dict[str, bytes] | bytes) -> list[Path]:
    """Writes what `render` made, whole: a file through grove/files/write.py; a folder's tables
    into a new folder beside it, which takes its place in one step once every table is written
    (files/folders.py), so an interrupt or a full disk leaves the old export or the new one,
    never a mix, and no folder where there was none. The paths written."""
    import shutil

    from grove.files.folders import put_in_place, sweep_new_folders
    from grove.files.write import new_folder, write_bytes

    if isinstance(made, bytes):
        write_bytes(out, made)
        return [Path(out)]
    folder = Path(out)
    sweep_new_folders(folder)  # what a killed export left beside it
    staged = new_folder(folder)
    try:
        for name, data in made.items():
            with open(staged / name, "xb") as fh:  # a fresh folder of grove's own
                fh.write(data)
        put_in_place(staged, folder, list(made))
    except BaseException:
        shutil.rmtree(staged, ignore_errors=True)
        raise
    return [folder / name for name in made]


def counts(db: Database) -> Iterable[tuple[str, int]]:
    """Rows per table, for the command's summary."""
    return ((t.name, len(db.tables[t.name])) for t in TABLES)
