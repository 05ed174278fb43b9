"""Forest files (YAML or JSON) -> the cards they name, checked name by name.

Reading a forest is where a player's typo meets the card data, so every unknown host, card, slot
or symbol is reported at its own line and column with a suggestion, all in one pass.

A grove game record (JSON Lines, see `engine.record`) is read as a forest file too: its end line
holds every final forest in this format, so `grove score game.jsonl` needs no file in between,
and every diagnostic still points at the record's own lines.
"""

from __future__ import annotations

import difflib
import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ruamel.yaml.comments import CommentedMap

from grove.compiler import cardset as cs
from grove.compiler import schemas
from grove.compiler.cardset import CardSet, Species
from grove.compiler.search_path import Roots
from grove.compiler.yaml_source import MAX_FOREST_FILE_BYTES, Document, load, loads
from grove.dsl.diagnostics import Diagnostic, DiagnosticError, Span, error
from grove.forest.model import Forest
from grove.forest.positions import HostPositions, Positions

_HOST_EXTRA_KEYS = {"symbol", "river"}


@dataclass(frozen=True)
class ForestFile:
    """The forests of a file, with where each part was written and who played each one."""

    path: str
    edition: str
    expansions: tuple[str, ...]
    cardset: CardSet
    forests: tuple[Forest, ...]
    positions: tuple[Positions, ...]  # one per forest
    ai: tuple[str | None, ...]  # one per forest: the player kind the file names

    @property
    def names(self) -> list[str]:
        return [f.name for f in self.forests]


@dataclass(frozen=True)
class _CardRead:
    species: Species
    symbol: str | None
    span: Span | None


@dataclass(frozen=True)
class _HostRead:
    """A forest entry checked, before its cards are placed into the player's forest."""

    kind: Any
    species: Species | None  # None for a face-down host
    symbol: str | None
    slots: dict[str, tuple[_CardRead, ...]]
    positions: HostPositions


def _suggest(name: str, pool: list[str]) -> str | None:
    close = difflib.get_close_matches(name, pool, n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def _card(doc: Document, path: list, value, cardset: CardSet, diags: list[Diagnostic]
          ) -> _CardRead | None:
    if isinstance(value, dict):
        name, symbol, span = str(value["card"]), value.get("symbol"), doc.span([*path, "card"])
        sym_span = doc.span([*path, "symbol"]) if symbol is not None else span
    else:
        name, symbol, span = str(value), None, doc.span(path)
        sym_span = span
    sp = cardset.species_named(name)
    if sp is None:
        pool = sorted({s.id for s in cardset.species.values()} | set(cardset.species))
        diags.append(error("FOREST-UNKNOWN-CARD", span, f"unknown card '{name}'",
                           _suggest(name, pool)))
        return None
    if symbol is not None and cardset.symbol(str(symbol)) is None:
        trees = sorted(s.id for s in cardset.symbols if s.kind == "tree")
        diags.append(error("FOREST-SYMBOL", sym_span, f"unknown tree symbol '{symbol}'",
                           _suggest(str(symbol), trees)))
        return None
    return _CardRead(sp, str(symbol) if symbol is not None else None, span)


def _host(doc: Document, path: list, entry: dict, cardset: CardSet, diags: list[Diagnostic],
          where: str = "") -> _HostRead | None:
    """One forest entry; `where` ("Ana, host 2") opens every message about it."""
    # `river: true` marks a tree with a river beneath it; `river: creek` is a river host
    host_keys = [k for k in entry if k in cardset.hosts and not (
        k == "river" and isinstance(entry[k], bool))]
    span = doc.span(path)
    if len(host_keys) != 1:
        candidates = [k for k in entry if k not in _HOST_EXTRA_KEYS and
                      all(cardset.hosts[h].slot(k) is None for h in cardset.hosts)]
        guess = _suggest(candidates[0], sorted(cardset.hosts)) if candidates else None
        what = "no host" if not host_keys else f"several hosts ({', '.join(host_keys)})"
        diags.append(error("FOREST-UNKNOWN-HOST", doc.span([*path, candidates[0]], key=True)
                           if candidates else span,
                           f"{where}: this forest entry names {what}",
                           guess or f"hosts of this game: {', '.join(sorted(cardset.hosts))}"))
        return None
    kind = cardset.hosts[host_keys[0]]
    value = entry[host_keys[0]]
    if entry.get("river") is True:  # a tree played with a universal river beneath it
        variants = [h for h in cardset.hosts.values()
                    if h.play == "with_tree" and h.from_kind == kind.from_kind and h.from_kind]
        if not variants:
            diags.append(error("FOREST-UNKNOWN-HOST", doc.span([*path, "river"], key=True),
                               f"{where}: a {kind.id} of this game cannot have a river "
                               "beneath it"))
            return None
        kind = variants[0]
    species: Species | None = None
    symbol = entry.get("symbol")
    if kind.face_down:
        if value is not True:
            diags.append(error("FOREST-NOT-HOST", doc.span([*path, kind.id]),
                               f"a {kind.id} is face down: write `{kind.id}: true`"))
            return None
    else:
        ref = _card(doc, [*path, kind.id], value, cardset, diags) if not isinstance(
            value, (bool, list)) else None
        if ref is None:
            if isinstance(value, (bool, list)):
                diags.append(error("FOREST-NOT-HOST", doc.span([*path, kind.id]),
                                   f"name the {kind.id} card: `{kind.id}: <species>`"))
            return None
        species = ref.species
        if species.kind != kind.from_kind:
            diags.append(error("FOREST-NOT-HOST", doc.span([*path, kind.id]),
                               f"{species.id} is a {species.kind}, not a {kind.id}"))
            return None
        own = species.symbols_for(None)
        if symbol is None:  # left out: the one symbol the species has, if it has only one
            symbol = species.symbol or (own[0] if len(own) == 1 else None)
        elif str(symbol) not in own and symbol != species.symbol:
            diags.append(error("FOREST-SYMBOL", doc.span([*path, "symbol"]),
                               f"{species.id} has no copy with tree symbol '{symbol}'",
                               "its symbols: " + ", ".join(species.symbols_for(None))))
            return None
    slots: dict[str, tuple[_CardRead, ...]] = {}
    slot_spans: dict[str, Span] = {}
    filled_by: dict[str, str] = {}  # slot id -> the key that filled it, to report a slot twice
    ok = True
    for key, content in entry.items():
        if key == host_keys[0] or key in _HOST_EXTRA_KEYS:
            continue
        fills = _slot_fills(doc, [*path, key], str(key), content, kind, where, diags)
        if fills is None:
            ok = False
            continue
        for sid, places, slot_span in fills:
            refs = [_card(doc, p, v, cardset, diags) for p, v in places]
            if any(r is None for r in refs):
                ok = False
                continue
            if sid in filled_by:
                diags.append(error(
                    "FOREST-SIDE-LIST", doc.span([*path, key], key=True),
                    f"{where} ({kind.id}): slot {sid} is filled twice, by `{filled_by[sid]}:` "
                    f"and by `{key}:`",
                    "write a side either as one list (`bottom: [a, b]`) or slot by slot "
                    "(`bottom_1: a`), not both"))
                ok = False
                continue
            filled_by[sid] = str(key)
            slots[sid] = tuple(refs)  # type: ignore[arg-type]
            slot_spans[sid] = slot_span
    if not ok:
        return None
    cards = {(sid, k): r.span for sid, refs in slots.items() for k, r in enumerate(refs)
             if r.span is not None}
    return _HostRead(kind, species, str(symbol) if symbol else None, slots,
                     HostPositions(span, doc.span([*path, host_keys[0]]), slot_spans, cards))


def _slot_fills(doc: Document, path: list, key: str, content: Any, kind: Any, where: str,
                diags: list[Diagnostic]) -> list[tuple[str, list[tuple[list, Any]], Span]] | None:
    """What one slot key of a host entry puts where: (slot id, [(path, card value)], span).

    A slot id (`bottom_1`, `left`) is one slot; its list holds cards sharing it. A side's name
    where the host has no slot of that name (`bottom` on a moor or a river) is how players write
    a side of several slots: its list fills that side's slots in order, a nested list being cards
    that share one slot, and a single card fills the first slot. None after a diagnostic."""
    key_span = doc.span(path, key=True)
    if kind.slot(key) is not None:
        items = content if isinstance(content, list) else [content]
        if any(isinstance(v, list) for v in items):
            diags.append(error("FOREST-SIDE-LIST", key_span,
                               f"{where} ({kind.id}): {key} is one slot, so its list holds the "
                               "cards sharing it; a nested list is for a side of several slots",
                               f"write `{key}: [a, b]` for cards sharing the slot"))
            return None
        places = [([*path, i], v) for i, v in enumerate(items)] if isinstance(
            content, list) else [(path, content)]
        return [(key, places, key_span)]
    ids = [s.id for s in kind.slots if s.side == key]
    if not ids:
        diags.append(error("FOREST-UNKNOWN-SLOT", key_span,
                           f"{where} ({kind.id}): a {kind.id} has no slot '{key}'",
                           _suggest(key, [s.id for s in kind.slots]) or
                           "slots: " + ", ".join(s.id for s in kind.slots)))
        return None
    items = content if isinstance(content, list) else [content]
    if len(items) > len(ids):
        diags.append(error("FOREST-SIDE-LIST", key_span,
                           f"{where} ({kind.id}): the {key} of a {kind.id} has {len(ids)} "
                           f"slots ({', '.join(ids)}), but the list holds {len(items)}",
                           f"cards sharing one slot go in a nested list: `{key}: [[a, a], b]`"))
        return None
    out = []
    for i, (sid, item) in enumerate(zip(ids, items, strict=False)):
        at = [*path, i] if isinstance(content, list) else path
        if isinstance(item, list):
            out.append((sid, [([*at, j], v) for j, v in enumerate(item)], doc.span(at)))
        else:
            out.append((sid, [(at, item)], doc.span(at)))
    return out


def read(path: str | Path, roots: Roots | None = None) -> ForestFile:
    """Load and check a forest file; `DiagnosticError` lists every problem found."""
    import os

    from grove.files.read import is_regular

    if os.path.exists(path) and not os.path.isdir(path) and not is_regular(path):
        # a FIFO would hang the read (a device never end it): IO-READ, as for a file unreadable
        raise DiagnosticError([error("IO-READ", None, f"{path}: is not a regular file (a FIFO, "
                                     "device or socket)")])
    return _read_doc(load(path, MAX_FOREST_FILE_BYTES), roots)


def read_doc(doc: Document, roots: Roots | None = None) -> ForestFile:
    """Check a forest document an editor holds: its schema verdict is not kept in the on-disk
    cache, which would gain an entry for every keystroke."""
    return _read_doc(doc, roots, cached=False)


def _build_near(path: str, edition: str, exps: tuple[str, ...], roots: Roots | None):  # noqa: ANN202
    """The card set a forest file names, from the search path, or else from the card set the
    file sits in: `grove score thicket/forests/example.yaml` in an author's own folder finds
    `thicket` without `--cards`. Failing both, the error says where grove looked."""
    from grove.compiler.search_path import own_set, search_path

    try:
        return cs.build(edition, exps, roots)
    except DiagnosticError as exc:
        own = own_set(path)
        looked = list(roots if roots is not None else search_path())
        if own is not None and own not in looked:
            try:
                return cs.build(edition, exps, (*looked, own))
            except DiagnosticError:
                looked.insert(0, own)
        where = f"grove looked in {', '.join(looked)}"
        raise DiagnosticError([replace(d, hint=f"{d.hint} ({where})" if d.hint else where)
                               if d.code.startswith("EDITION-") else d
                               for d in exc.diagnostics]) from None


def _read_doc(doc: Document, roots: Roots | None, *, cached: bool = True) -> ForestFile:
    """Check a forest document wherever it came from (a forest file, or a record's lines)."""
    odd = _lone_surrogate(doc.data, [])
    if odd is not None:  # no message could echo it, nor a file keep it: it is no text
        raise DiagnosticError([error(
            "FOREST-TEXT", doc.span(odd[:-1], key=True) if odd and odd[-1] is _KEY else doc.span(odd),
            "a lone surrogate escape (such as \"\\ud800\") is no character",
            "write the character itself, or a pair of surrogate escapes for one beyond U+FFFF")])
    diags = (schemas.validate_cached if cached else schemas.validate)(doc, "forest")
    if diags:
        raise DiagnosticError(diags)
    edition = str(doc.data["edition"])
    exps = tuple(str(x) for x in (doc.data.get("with") or ()))
    try:
        cardset = _build_near(doc.path, edition, exps, roots)
    except DiagnosticError as exc:
        if any(d.code in ("EDITION-UNKNOWN", "EDITION-COMBINATION", "EDITION-NOT-STANDALONE")
               for d in exc.diagnostics):
            d0 = exc.diagnostics[0]
            span = doc.span(["with"] if d0.code == "EDITION-COMBINATION" else ["edition"])
            raise DiagnosticError([error("FOREST-EDITION", span, d0.message, d0.hint)]) from None
        raise
    forests: list[Forest] = []
    positions: list[Positions] = []
    for i, p in enumerate(doc.data["players"]):
        hosts = []
        for j, entry in enumerate(p["forest"]):
            h = _host(doc, ["players", i, "forest", j], entry, cardset, diags,
                      f"{p['name']}, host {j + 1}")
            if h is not None:
                hosts.append(h)
        cave_card = None
        if "cave_card" in p:
            cave_card = cardset.species_named(str(p["cave_card"]))
            if cave_card is None or cave_card.kind != "cave":
                caves = sorted(s.id for s in cardset.caves)
                diags.append(error("FOREST-UNKNOWN-CARD", doc.span(["players", i, "cave_card"]),
                                   f"{p['name']}: '{p['cave_card']}' is no cave card of this game",
                                   _suggest(str(p["cave_card"]), caves) or
                                   (f"caves: {', '.join(caves)}" if caves else
                                    "this game's caves are plain: leave cave_card out")))
        forests.append(_grow(str(p["name"]), hosts, int(p.get("cave", 0)), cave_card))
        positions.append(Positions(doc.span(["players", i, "name"]),
                                   tuple(h.positions for h in hosts)))
    names = [f.name for f in forests]
    for i, n in enumerate(names):
        if names.index(n) != i:
            diags.append(error("FOREST-DUPLICATE-PLAYER", doc.span(["players", i, "name"]),
                               f"two players are called '{n}'"))
    if diags:
        raise DiagnosticError(diags)
    return ForestFile(doc.path, edition, exps, cardset, tuple(forests), tuple(positions),
                      tuple(p.get("ai") for p in doc.data["players"]))


_KEY = object()  # in a path `_lone_surrogate` returns: the key of the mapping, not its value
_SURROGATE = re.compile("[\ud800-\udfff]")


def _lone_surrogate(value: Any, path: list) -> list | None:
    """The path of the first text holding a lone surrogate (which only a `\\u` escape in a
    quoted string can make), or None. A YAML reader keeps the two escapes of a pair apart (JSON
    writers, Python's among them, write a character beyond U+FFFF as a pair): a pair in a value
    is made the one character it stands for, in place. The depth is the reader's to bound
    (YAML-TOO-DEEP)."""
    if isinstance(value, dict | list):
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in list(items):
            if isinstance(k, str) and _SURROGATE.search(k):
                return [*path, k, _KEY]
            if isinstance(v, str) and _SURROGATE.search(v):
                joined = _paired(v)
                if joined is None:
                    return [*path, k]
                value[k] = joined
            else:
                found = _lone_surrogate(v, [*path, k])
                if found is not None:
                    return found
    elif isinstance(value, str) and _SURROGATE.search(value):
        return path
    return None


def _paired(text: str) -> str | None:
    """`text` with each surrogate pair made its character; None if a surrogate is alone."""
    try:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le")
    except UnicodeDecodeError:
        return None


def _grow(name: str, hosts: list[_HostRead], cave: int, cave_card: Species | None) -> Forest:
    """A player's forest, its hosts placed in the order written, then their slots' cards."""
    forest = Forest(name, cave, cave_card)
    for h in hosts:
        forest.place_host(h.kind, h.species, h.symbol)
    for index, h in enumerate(hosts):
        for sid, refs in h.slots.items():
            for r in refs:
                forest.place_card(index, sid, r.species, r.symbol)
    return forest


def write(path: str | Path, data: dict[str, Any], comment: str = "") -> None:
    """Write a forest file as YAML, whole or not at all (`files.write`): a full disk or a killed
    process never leaves a half-written forest that would later be scored as if whole, and a
    target that is not the user's regular file to replace (a device, a symlink, a read-only
    file) is refused and left alone. Leaf lists and cards with a symbol are written in flow
    style (`bottom: [a, b]`), as players write them. A failure is IO-WRITE (exit 2)."""
    import io

    from ruamel.yaml import YAML

    from grove.files.write import write_text

    yaml = YAML()
    yaml.default_flow_style = None
    yaml.width = 100
    yaml.indent(mapping=2, sequence=4, offset=2)
    text = io.StringIO()
    if comment:
        text.write("".join(f"# {line}\n" for line in comment.splitlines()))
    yaml.dump(data, text)
    try:
        write_text(path, text.getvalue())
    except OSError as exc:
        raise DiagnosticError([error("IO-WRITE", None, f"{path}: cannot write: "
                                     f"{exc.strerror or exc}")]) from None


def is_record(path: str | Path) -> bool:
    """Whether the file is a grove game record: its first non-blank line is a JSON header.

    Only the first line is read, so deciding costs nothing for a large record; a file that cannot
    be read is no record, and the forest reader reports why it cannot be read."""
    from grove.files.read import is_regular

    if not is_regular(path):  # a FIFO would hang the open; the forest reader says what it is
        return False
    try:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                if line.strip():  # numbers as read, so an absurd one is the reader's to refuse
                    obj = json.loads(line, parse_int=str, parse_float=str, parse_constant=str)
                    return isinstance(obj, dict) and obj.get("type") == "header"
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return False


def read_record(path: str | Path, roots: Roots | None = None) -> ForestFile:
    """The final forests of a grove game record, checked like a forest file.

    The forest document is built from the header's `edition` and `with` and the end line's
    players (with each player's `ai` from the header), keeping the line and column of every value
    in the record, so a problem is reported at the record line that holds it. A record without an
    end line is a game that never finished: RECORD-UNFINISHED, not a guess at a forest."""
    from grove.engine import record as rec

    p = str(path)
    try:
        r = rec.read(p)
        lines = rec.lines_of(p)
    except (rec.RecordError, OSError, UnicodeDecodeError) as exc:
        raise DiagnosticError([error("RECORD-BAD", None, str(exc),
                                     "a record is what `grove play --record FILE` writes")]
                              ) from None
    numbered = [i for i, line in enumerate(lines) if line.strip()]
    header_at = numbered[0]
    if r.end is None:
        last = numbered[-1]
        raise DiagnosticError([error(
            "RECORD-UNFINISHED", Span(p, last + 1, 1),
            f"the record has no end line: the game stopped after {len(r.actions)} "
            f"action{'s' * (len(r.actions) != 1)}, "
            "so there are no final forests to score",
            f"go on with the game, or finish its record, with `grove play --resume {p}`; "
            f"`grove replay {p}` shows where it stops")])
    end_at = next(i for i in reversed(numbered) if json.loads(lines[i]).get("type") == "end")
    header = _line_doc(p, lines, header_at).data
    forest = _line_doc(p, lines, end_at).data.get("forest")
    if not isinstance(forest, CommentedMap) or "players" not in forest:
        raise DiagnosticError([error("RECORD-BAD", Span(p, end_at + 1, 1),
                                     "the end line holds no final forests (no forest.players)")])
    data = CommentedMap()
    for key in ("edition", "with"):  # where the game says what it was played with
        if key in header:
            data[key] = header[key]
            data.lc.add_kv_line_col(key, header.lc.data[key])
    data["players"] = forest["players"]
    data.lc.add_kv_line_col("players", forest.lc.data["players"])
    _ai_from_header(data["players"], header.get("players"))
    return _read_doc(Document(p, data, tuple(lines)), roots)


def _line_doc(path: str, lines: list[str], index: int) -> Document:
    """One record line as a document whose positions are those of the whole file.

    The line is parsed behind as many empty lines as precede it, so line numbers need no fixing."""
    return loads("\n" * index + lines[index], path)


def _ai_from_header(players: Any, header_players: Any) -> None:
    """Give each final forest the AI kind the header names for that player, so the scoreboard of
    a record says who played how, as `grove play` does; the span is the header's."""
    if not isinstance(players, list) or not isinstance(header_players, list):
        return
    kinds = {hp.get("name"): hp for hp in header_players
             if isinstance(hp, CommentedMap) and isinstance(hp.get("ai"), str)}
    for p in players:
        hp = kinds.get(p.get("name")) if isinstance(p, CommentedMap) else None
        if hp is not None and "ai" not in p:
            p["ai"] = hp["ai"]
            p.lc.add_kv_line_col("ai", hp.lc.data["ai"])
