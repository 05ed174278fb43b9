"""Edition folders -> `EditionDef`s: read the YAML, validate it, keep every position.

Loading never raises for bad content: it returns what it could read plus diagnostics, so `grove
lint` can report every problem of a card set in one run.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from grove.compiler import formats, schemas
from grove.compiler.model import (
    DeckCard,
    EditionDef,
    Half,
    HostKind,
    Placeholder,
    RemovedRow,
    RuleText,
    Setup,
    SlotDef,
    SpeciesDef,
    Symbol,
)
from grove.compiler.search_path import EDITION_FILE, edition_listing
from grove.compiler.yaml_source import Document, load_text, read_source
from grove.dsl.ast import FIELDS
from grove.dsl.diagnostics import Diagnostic, DiagnosticError, Span, error

DECK_FILE = "deck.yaml"


@dataclass
class Loaded:
    edition: EditionDef | None
    diagnostics: list[Diagnostic]


def _names(value: Any) -> MappingProxyType:
    return MappingProxyType({str(k): str(v) for k, v in (value or {}).items()})


def _items(node: Any, path: list[Any]) -> Iterator[tuple[list[Any], CommentedMap, Any, Any]]:
    """Every key of every mapping in a document, depth first in file order: (the mapping's
    path, the mapping, the key, its value)."""
    if isinstance(node, CommentedMap):
        for k, v in node.items():
            yield path, node, k, v
            yield from _items(v, [*path, k])
    elif isinstance(node, CommentedSeq):
        for i, v in enumerate(node):
            yield from _items(v, [*path, i])


def provisional_marks(doc: Document) -> Iterator[tuple[Span, str]]:
    """Every `provisional:` key in a document, wherever it sits."""
    for path, _, k, v in _items(doc.data, []):
        if k == "provisional" and isinstance(v, str):
            yield doc.span([*path, k], key=True), str(v)


def placeholder_marks(doc: Document, langs: frozenset[str]) -> Iterator[Placeholder]:
    """Every word of a language in `langs` that is the English word of its mapping (`names`,
    `plural`, a scorepad row's names ...), wherever it sits: a placeholder still to translate."""
    for path, words, k, v in _items(doc.data, []):
        if k in langs and isinstance(v, str) and v == words.get("en"):
            yield Placeholder(doc.span([*path, k]), str(k), v)


# How the files of an edition are read: (path, schema) -> the document, if it is fit to use,
# and what is wrong with it. `read_document` reads the disk; the language server's reader hands it
# the text an editor holds for a file it has open.
Reader = Callable[[Path, str], tuple[Document | None, tuple[Diagnostic, ...]]]


# The list of entries of each file kind whose entries are loaded one by one: a finding inside
# one entry leaves out that entry, not the file.
ENTRY_LISTS = {"cardset": "species", "deck": "cards"}


def duplicate_hint(first: Span | None) -> str | None:
    """Where the first of two species of one id stands, and what to do."""
    if first is None:
        return None
    return f"the first is at {first.display()}; give this one an id of its own"


# what each kind of file holds at its top, for a file that holds nothing (or no mapping)
_TOP_HINT = {
    "edition": "edition.yaml starts `id: my_set`, `names: {en: ...}` and `standalone: true` (or "
               "`expansion_of: base`); `grove new NAME` writes one to start from",
    "deck": "a deck file holds `edition: ID` and `cards:`, a list of the edition's cards",
    "species": "a species file holds `edition: ID` and `species:`, a list of entries each "
               "starting `- id: ...`; `grove new NAME` writes one to start from",
}


def read_document(path: Path, schema: str, raw: str | None = None
                  ) -> tuple[Document | None, tuple[Diagnostic, ...]]:
    """One file of an edition read and validated against `schema`: from `raw` where it is
    given (an editor's unsaved text), else from the disk. The document is returned where it is
    fit to use: valid, or (a species or deck file) with every finding inside one of its
    entries, which the loader then leaves out (`broken_entries`).

    A text read before is not parsed again: an edition read anew after one of its files
    changed (the language server's keystroke, `grove serve`) parses that file alone. So the
    document is shared by every read of the same text: read it, never change it."""
    if raw is None:
        try:
            raw = read_source(path)
        except DiagnosticError as exc:
            return None, tuple(exc.diagnostics)
    return _read_text(str(path), schema, raw)


@lru_cache(maxsize=256)  # every file of a few editions, as the language server holds them
def _read_text(path: str, schema: str, raw: str
               ) -> tuple[Document | None, tuple[Diagnostic, ...]]:
    try:
        doc = load_text(raw, path)
    except DiagnosticError as exc:
        return None, tuple(exc.diagnostics)
    if not isinstance(doc.data, CommentedMap):
        return None, (error("SCHEMA-TYPE", Span(str(path), 1, 1),
                            "expected a mapping at the top" + (
                                ", and the file is empty" if doc.data is None else ""),
                            _TOP_HINT.get(schema, _TOP_HINT["species"])),)
    # an old format is upgraded first (FORMAT-OLD warnings), then the schema's findings: a
    # file whose errors all lie inside entries of its list is kept, those entries left out
    upgraded = formats.upgrade(doc, schema)
    found = schemas.findings(doc, schema)
    diags = (*upgraded, *(d for _, d in found))
    errors = [p for p, d in found if d.is_error]
    if any(d.is_error for d in upgraded):
        return None, diags
    if not errors:
        return doc, diags
    if schema == "edition" and all(_only_words(p, d) for p, d in found if d.is_error):
        _drop_bad_words(doc, [p for p, d in found if d.is_error])
        _drop_unknown_keys(doc, [(p, d) for p, d in found if d.code == "SCHEMA-UNKNOWN-FIELD"])
        # what is left must be whole: a misspelt required key (`winter_card:`) is one finding,
        # the unknown key, but the set cannot be read without the key it stands for
        if all(_only_words(p, d) for p, d in schemas.findings(doc, schema) if d.is_error):
            return doc, diags
        return None, diags
    entries = ENTRY_LISTS.get(schema)
    local = entries is not None and all(
        len(p) >= 2 and p[0] == entries and isinstance(p[1], int) for p in errors)
    return (doc if local else None), diags


# The keys of edition.yaml that hold words only (names, their grammar, notes): a finding in one
# of them leaves the set loadable, so it is reported alone and the rest of the set is read and
# checked as usual, not dropped with it. Where they stand: at the top, in a symbol, a host, a
# scorepad row (the index of the key in a finding's path).
_WORD_KEYS = frozenset({"names", "plural", "article", "classifier", "notes", "provisional",
                        "placeholders"})
_WORD_AT = {"symbols": 3, "hosts": 2, "scorepad": 2}


def _word_index(path: tuple[Any, ...]) -> int | None:
    at = 0 if path and path[0] in _WORD_KEYS else _WORD_AT.get(path[0] if path else "")
    return at if at is not None and len(path) > at and path[at] in _WORD_KEYS else None


_MISSING = re.compile(r"missing field '(?P<key>[a-z_]+)'")


def _is_symbol(path: tuple[Any, ...]) -> bool:
    return len(path) == 3 and path[0] == "symbols"


def _only_words(path: tuple[Any, ...], d: Diagnostic) -> bool:
    """Whether an edition.yaml finding leaves the set loadable: it lies in words (or words
    are missing), is a key the loader does not read (a misspelt required key is also a
    finding of its own, which is not), or is a symbol whose entry is no mapping yet (`alder:`
    half typed): the symbol is read with no words, so the species naming it are checked."""
    if d.code == "SCHEMA-UNKNOWN-FIELD":
        return True  # the key is taken out before the set is read (`_drop_unknown_keys`)
    if _word_index(path) is not None:
        return True
    missing = _MISSING.search(d.message) if d.code == "SCHEMA-REQUIRED" else None
    if missing is not None and missing["key"] in _WORD_KEYS:
        return path == () or _is_symbol(path) or (len(path) == 2 and path[0] in _WORD_AT)
    return d.code == "SCHEMA-TYPE" and _is_symbol(path)


def _drop_bad_words(doc: Document, paths: list[tuple[Any, ...]]) -> None:
    """Take out the values the findings are about (a name of the wrong shape, an article that
    is none), so the loader reads the good words beside them and no default stands in."""
    for path in paths:
        symbols = doc.data.get("symbols")
        if _is_symbol(path) and isinstance(symbols, dict) and isinstance(
                symbols.get(path[1]), dict) and not isinstance(symbols[path[1]].get(path[2]), dict):
            symbols[path[1]][path[2]] = CommentedMap()  # a symbol with no words yet
            continue
        at = _word_index(path)
        parent = None if at is None else _at(doc.data, path[:at])
        if not isinstance(parent, dict):
            continue
        words = parent.get(path[at])
        if not isinstance(words, dict) or len(path) == at + 1:
            if not isinstance(words, dict):
                parent.pop(path[at], None)
        elif isinstance(path[at + 1], str):
            words.pop(path[at + 1], None)


_UNKNOWN = re.compile(r"unknown field '(?P<key>[^']+)'")


def _drop_unknown_keys(doc: Document, found: list[tuple[tuple[Any, ...], Diagnostic]]) -> None:
    """Take out the keys the schema does not know (a finding's path is their mapping's)."""
    for path, d in found:
        m = _UNKNOWN.search(d.message)
        parent = _at(doc.data, path)
        if m is not None and isinstance(parent, dict):
            parent.pop(m["key"], None)


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    """The value a finding's path leads to in the document, or None where it leads nowhere."""
    for k in path:
        if isinstance(data, dict):
            data = data.get(k)
        elif isinstance(data, list) and isinstance(k, int) and 0 <= k < len(data):
            data = data[k]
        else:
            return None
    return data


def broken_entries(doc: Document, schema: str) -> set[int]:
    """The indexes of the entries of a species or deck file that hold a schema finding; asked
    only of a file with findings. Told by the findings' paths, not by their lines: a value
    brought in by an alias (`*x`) is reported where its anchor lies, in another entry."""
    return {p[1] for p, d in schemas.findings(doc, schema)
            if d.is_error and len(p) >= 2 and isinstance(p[1], int)}


def _read(path: Path, schema: str, diags: list[Diagnostic], read: Reader
          ) -> tuple[Document | None, set[int]]:
    """The document (if fit to use) and the indexes of the entries to leave out."""
    doc, found = read(path, schema)
    diags.extend(found)
    if doc is None or not found:
        return doc, set()
    return doc, broken_entries(doc, schema) if schema in ENTRY_LISTS else set()


def _meant_ids(entry: Any) -> set[str]:
    """The ids a left-out species entry may have been meant to have, as a rule or the deck
    would write them: its id read leniently (`Heron`, `reed-frog`, `bul rush` as `heron`,
    `reed_frog`, `bulrush`) and its English name so read; {""} where it has neither."""
    out: set[str] = set()
    if isinstance(entry, dict):
        names = entry.get("names")
        for value in (entry.get("id"), names.get("en") if isinstance(names, dict) else None):
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                word = re.sub(r"[^a-z0-9_]+", "_", str(value).strip().lower()).strip("_")
                out |= {word, word.replace("_", "")} - {""}
    return out or {""}


def _symbols(doc: Document, edition: str) -> list[Symbol]:
    out = []
    for kind, table in (doc.data.get("symbols") or {}).items():
        if not isinstance(table, dict):
            continue  # unreachable for a set the schema passed; kept so no shape can crash here
        for sid, entry in table.items():
            # a symbol whose entry is no mapping (half-typed, or a bare word) keeps its id: the
            # schema's error is the one finding, not a crash here
            entry = entry if isinstance(entry, dict) else {}
            out.append(
                Symbol(
                    id=str(sid),
                    kind=str(kind),
                    edition=edition,
                    names=_names(entry.get("names")),
                    plural=_names(entry.get("plural") or entry.get("names")),
                    implies=tuple(entry.get("implies") or ()),
                    span=doc.span(["symbols", kind, sid], key=True),
                    provisional=entry.get("provisional"),
                    article=_names(entry.get("article")),
                    classifier=_names(entry.get("classifier")),
                    species_word=_names(entry.get("species_word")),
                    named_by_symbol=frozenset(map(str, entry.get("named_by_symbol") or ())),
                )
            )
    return out


def _hosts(doc: Document, edition: str) -> list[HostKind]:
    out = []
    for hid, h in (doc.data.get("hosts") or {}).items():
        slots = tuple(
            SlotDef(
                id=str(s["id"]),
                side=str(s["side"]),
                capacity=int(s.get("capacity", 1)),
                water=bool(s.get("water", False)),
                dry=bool(s.get("dry", False)),
            )
            for s in h["slots"]
        )
        out.append(
            HostKind(
                id=str(hid),
                edition=edition,
                names=_names(h.get("names")),
                from_kind=h.get("from"),
                face_down=bool(h.get("face_down", False)),
                types=tuple(h.get("types") or ()),
                play=h.get("play"),
                reveal=int(h.get("reveal", 0)),
                category=str(h["category"]),
                slots=slots,
                span=doc.span(["hosts", hid], key=True),
                plural=_names(h.get("plural")),
                article=_names(h.get("article")),
                classifier=_names(h.get("classifier")),
                beneath=_names(h.get("beneath")),
                cases=MappingProxyType({str(k): _names(v) for k, v in (h.get("cases") or {}).items()}),
                beneath_cases=MappingProxyType(
                    {str(k): _names(v) for k, v in (h.get("beneath_cases") or {}).items()}),
            )
        )
    return out


def _removed(doc: Document) -> tuple[RemovedRow, ...]:
    rows = (doc.data.get("setup") or {}).get("removed") or ()
    return tuple(
        RemovedRow(frozenset(str(x) for x in r["with"]),
                   MappingProxyType({int(k): int(v) for k, v in r["counts"].items()}),
                   doc.span(["setup", "removed", i]))
        for i, r in enumerate(rows))


def _setup(doc: Document) -> Setup | None:
    """The set-up of a standalone edition; an expansion's `setup` holds only its removal rows."""
    s = doc.data.get("setup")
    if s is None or "hand_size" not in s:
        return None
    return Setup(
        hand_size=int(s["hand_size"]),
        hand_limit=int(s["hand_limit"]),
        clearing_limit=int(s["clearing_limit"]),
        winter_cards=int(s["winter_cards"]),
        caves=int(s.get("caves", 0)),
        cave_points=int(s.get("cave_points", 1)),
        cave_draft=bool(s.get("cave_draft", False)),
        removed=(),
        span=doc.span(["setup"], key=True),
    )


def _species(doc: Document, edition: str, skip: set[int]) -> list[SpeciesDef]:
    out = []
    for i, sp in enumerate(doc.data["species"]):
        if i in skip:
            continue
        base = ["species", i]
        rules = []
        spans = {}
        for f in FIELDS:
            if f in sp:
                line, col = doc.text_origin([*base, f])
                rules.append(RuleText(f, str(sp[f]), doc.path, line, col))
        for f in sp:
            spans[str(f)] = doc.span([*base, f])
            if isinstance(sp[f], list):
                for k in range(len(sp[f])):
                    spans[f"{f}.{k}"] = doc.span([*base, f, k])
        out.append(
            SpeciesDef(
                key=f"{edition}:{sp['id']}",
                id=str(sp["id"]),
                edition=edition,
                names=_names(sp["names"]),
                kind=str(sp["kind"]),
                types=tuple(sp["types"]),
                groups=tuple(sp.get("groups") or ()),
                symbol=sp.get("symbol"),
                cost=int(sp["cost"]),
                copies=int(sp["copies"]),
                water=bool(sp.get("water", False)),
                rules=tuple(rules),
                provisional=sp.get("provisional"),
                span=doc.span([*base, "id"]),
                field_spans=MappingProxyType(spans),
                plural=_names(sp.get("plural")),
                article=_names(sp.get("article")),
                classifier=_names(sp.get("classifier")),
            )
        )
    return out


def _scorepad(doc: Document) -> MappingProxyType:
    """Row id -> {lang: name}, in the order of the paper scorepad; a repeated id keeps its first
    entry, as the merged card set keeps the first edition's."""
    rows: dict[str, MappingProxyType] = {}
    for row in doc.data.get("scorepad") or ():
        rows.setdefault(str(row["id"]), _names(row.get("names")))
    return MappingProxyType(rows)


def _deck(doc: Document, skip: set[int]) -> list[DeckCard]:
    out = []
    for i, c in enumerate(doc.data["cards"]):
        if i in skip:
            continue
        halves = []
        if "card" in c:
            halves.append(Half(str(c["card"]), None, c.get("symbol"), doc.span(["cards", i, "card"])))
        for side in ("top", "bottom", "left", "right"):
            if side in c:
                sp, sym = c[side]
                halves.append(Half(str(sp), side, str(sym), doc.span(["cards", i, side])))
        why = c.get("provisional")
        out.append(DeckCard(tuple(halves), int(c.get("count", 1)), doc.span(["cards", i]),
                            why if isinstance(why, str) else None))
    return out


def _not_regular(path: Path) -> Diagnostic:
    """IO-READ for a YAML name of an edition folder that no read may open (`stray_files`)."""
    if path.is_file():  # a link to a file outside the folder (`links_outside`)
        return error("IO-READ", Span(str(path), 1, 1),
                     "a link to a file outside the edition folder: grove does not read it",
                     "an edition's files live in its folder: copy the file in instead of "
                     "linking to it, or remove the link")
    return error("IO-READ", Span(str(path), 1, 1),
                 "not a regular file (a FIFO, device or socket): grove does not read it",
                 "an edition's files are plain YAML files: remove it or move it out of the "
                 "edition folder")


def load_edition(folder: str | Path, read: Reader = read_document) -> Loaded:
    """Read one edition folder: `edition.yaml`, `deck.yaml` and every species file beside them."""
    folder = Path(folder)
    files, strays = edition_listing(folder)
    diags: list[Diagnostic] = [_not_regular(p) for p in strays]
    ed_path = folder / EDITION_FILE
    if ed_path in strays:
        return Loaded(None, diags)
    if not ed_path.is_file():
        diags.append(error("EDITION-MISSING", Span(str(ed_path), 1, 1),
                           f"{folder} has no {EDITION_FILE}"))
        return Loaded(None, diags)
    doc, _ = _read(ed_path, "edition", diags, read)
    if doc is None:
        return Loaded(None, diags)
    eid = str(doc.data["id"])
    marks = list(provisional_marks(doc))
    said = doc.data.get("placeholders")
    langs = frozenset(str(x) for x in said) - {"en"} if isinstance(said, list) else frozenset()
    placeholders = list(placeholder_marks(doc, langs))
    edition = EditionDef(
        id=eid,
        names=_names(doc.data.get("names")),
        standalone=bool(doc.data.get("standalone", False)),
        expansion_of=doc.data.get("expansion_of"),
        card_symbol=doc.data.get("card_symbol"),
        symbols=tuple(_symbols(doc, eid)),
        hosts=tuple(_hosts(doc, eid)),
        setup=_setup(doc),
        removed=_removed(doc),
        scorepad=tuple(_scorepad(doc)), scorepad_names=_scorepad(doc),
        flags=MappingProxyType(dict(doc.data.get("rules") or {})),
        folder=str(folder),
        span=doc.span(["id"]),
    )
    species: list[SpeciesDef] = []
    deck: list[DeckCard] = []
    left_out: set[str] = set()  # see EditionDef.left_out
    deck_left_out = False
    seen: dict[str, SpeciesDef] = {}  # by key
    for path in files:
        if path.name == EDITION_FILE:
            continue
        schema = "deck" if path.name == DECK_FILE else "cardset"
        d, skip = _read(path, schema, diags, read)
        if d is None:  # what the file held is unknown
            if schema == "deck":
                deck_left_out = True
            else:
                left_out.add("")
            continue
        entries = d.data[ENTRY_LISTS[schema]]
        if str(d.data["edition"]) != eid:
            diags.append(error(
                "EDITION-MISMATCH", d.span(["edition"]),
                f"file says edition '{d.data['edition']}' but lies in the folder of '{eid}'",
                f"write `edition: {eid}`",
            ))
            if schema == "deck":
                deck_left_out = True
            else:
                left_out.update(n for e in entries for n in _meant_ids(e))
            continue
        marks.extend(provisional_marks(d))
        placeholders.extend(placeholder_marks(d, langs))
        if schema == "deck":
            deck_left_out = deck_left_out or bool(skip)  # what it held is not known
            deck.extend(_deck(d, skip))
        else:
            left_out.update(n for i in skip for n in _meant_ids(entries[i]))
            for sd in _species(d, eid, skip):
                if sd.key in seen:  # left out; which of the two was meant otherwise is
                    diags.append(error(  # unknown: the names of both stand for it
                        "SPECIES-DUPLICATE", sd.span,
                        f"species '{sd.id}' is defined twice in edition '{eid}'",
                        duplicate_hint(seen[sd.key].span)))
                    for twin in (sd, seen[sd.key]):
                        left_out.update(_meant_ids({"names": dict(twin.names)}) - {""})
                    continue
                seen[sd.key] = sd
                species.append(sd)
    if not (folder / DECK_FILE).is_file():
        diags.append(error("DECK-MISSING", Span(str(ed_path), 1, 1),
                           f"edition '{eid}' has no {DECK_FILE}",
                           "list the physical cards of the edition in deck.yaml"))
    edition = replace(edition, species=tuple(species), deck=tuple(deck), provisional=tuple(marks),
                      placeholders=tuple(placeholders),
                      placeholders_at=doc.span(["placeholders"], key=True) if langs else None,
                      left_out=frozenset(left_out), deck_left_out=deck_left_out)
    return Loaded(edition, diags)
