"""Game records as JSON Lines, written as the game goes: a header, one line per action, the end.

Each line is flushed when written, so a game that crashes or is killed leaves a readable partial
record. The last line of a finished game (`"type": "end"`) holds every final forest in the
forest-file format, so `grove score` can re-score it and a player can keep their forest. A game a
player quits ends with a stop line (`{"type": "stop", "after": N}`) instead, so a replay can tell
a game deliberately left off from a record cut short. docs/formats.md describes every line.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from compiler.cardset import CardSet
from forest.model import Forest

FORMAT = 1


def digest(cardset: CardSet) -> dict[str, str]:
    """Each edition's fingerprint of the card files a game was played with, by edition id: a
    replay names the edition whose cards changed."""
    return {e.id: e.digest[:16] for e in cardset.editions}


def legacy_digest(cardset: CardSet) -> str:
    """The one fingerprint over all card files that records of format 1 before per-edition
    digests hold; kept so those records still replay."""
    h = hashlib.sha256()
    for e in cardset.editions:
        for p in sorted(Path(e.folder).glob("*.yaml")):
            h.update(p.name.encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


def changed_cards(cardset: CardSet, header: dict[str, Any]) -> list[str]:
    """How the card files found now differ from the ones the record was played with."""
    held = header.get("digest")
    if isinstance(held, str):
        same = held == legacy_digest(cardset)
        return [] if same else ["the card files differ from the ones the game was played with"]
    if not isinstance(held, dict):
        return ["the header holds no digest of the card files"]
    now = digest(cardset)
    out = []
    for eid in sorted(set(held) | set(now)):
        if eid not in now:
            out.append(f"the game was played with edition '{eid}', which is not in play now")
        elif held.get(eid) != now[eid]:
            folder = next(e.folder for e in cardset.editions if e.id == eid)
            out.append(f"the cards of '{eid}' in {folder} have changed since the game was "
                       f"played (digest {now[eid]}, the record says {held.get(eid)})")
    return out


def player_entry(game, i: int, shorthand: bool = True) -> dict[str, Any]:
    """Player i at the end, in the forest-file format."""
    return forest_entry(game.cardset, game.view(i), shorthand)


def species_ident(cset: CardSet, sp: Any) -> str:
    """The id a record or a forest file names a species by: the plain id where it names the
    species unambiguously, else the qualified key."""
    return sp.id if cset.species_named(sp.id) is sp else sp.key


def forest_entry(cset: CardSet, forest: Forest, shorthand: bool = True) -> dict[str, Any]:
    """A player's forest in the forest-file format: its name, cave and hosts.

    With `shorthand`, a side with several slots is written as players write it, a list under the
    side's name filled in slot order (`bottom: [brook_trout]`); `shorthand=False` gives the
    numbered slot ids (`bottom_1: brook_trout`) that records before the shorthand hold, so a
    replay can accept either."""

    hosts = []
    for h in forest.hosts:
        entry: dict[str, Any] = {}
        sp, symbol = h.card.species, h.card.symbol
        if h.kind.play == "with_tree":
            base = next(k for k in cset.hosts.values()
                        if k.from_kind == h.kind.from_kind and k.play != "with_tree")
            entry[base.id] = species_ident(cset, sp)
            entry["river"] = True
        elif sp is None:
            entry[h.kind.id] = True
        else:
            entry[h.kind.id] = species_ident(cset, sp)
        if sp is not None and symbol and len(sp.symbols_for(None)) > 1:
            entry["symbol"] = symbol
        held: dict[str, Any] = {}
        for sid, cards in h.slots.items():
            items = [{"card": species_ident(cset, c.species), "symbol": c.symbol} if c.symbol
                     else species_ident(cset, c.species) for c in cards]
            if items:
                held[sid] = items if len(items) > 1 else items[0]
        entry.update(_by_side(h.kind, held) if shorthand else held)
        hosts.append(entry)
    out: dict[str, Any] = {"name": forest.name, "cave": forest.cave, "forest": hosts}
    if forest.cave_card is not None:
        out["cave_card"] = forest.cave_card.id
    return out


def _by_side(kind, held: dict[str, Any]) -> dict[str, Any]:
    """Slot contents keyed as a player writes them: a side with several slots becomes one list
    under the side's name, in slot order, a slot of sharing cards a nested list. Only when the
    filled slots of that side come first in order, since a list fills slots from the first; a
    gap (`bottom_2` filled, `bottom_1` empty) keeps the numbered ids."""
    out: dict[str, Any] = {}
    for side in dict.fromkeys(s.side for s in kind.slots):
        ids = [s.id for s in kind.slots if s.side == side]
        filled = [sid for sid in ids if sid in held]
        if len(ids) > 1 and side not in ids and filled == ids[:len(filled)] and filled:
            out[side] = [held[sid] for sid in filled]
        else:
            out.update((sid, held[sid]) for sid in filled)
    return out


class Writer:
    def __init__(self, fh: IO[str]):
        self.fh = fh

    def line(self, obj: dict[str, Any]) -> None:
        self.fh.write(json.dumps(obj, ensure_ascii=False, sort_keys=True) + "\n")
        self.fh.flush()


@dataclass
class Record:
    header: dict[str, Any]
    actions: list[dict[str, Any]]
    end: dict[str, Any] | None
    stop: dict[str, Any] | None = None  # the stop line of a game a player quit


class RecordError(ValueError):
    pass


def lines_of(path: str | Path) -> list[str]:
    """A record's lines. Split at newlines only: a record is written with `ensure_ascii=False`,
    so a name may hold a character `str.splitlines` also breaks at (U+2028, U+0085, ...)."""
    return Path(path).read_text(encoding="utf-8").split("\n")


def read(path: str | Path) -> Record:
    try:
        lines = lines_of(path)
    except OSError as exc:
        raise RecordError(f"{path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not a grove record (not UTF-8 text)") from None
    objs = list(_parse(lines, str(path)))
    if not objs or objs[0][1].get("type") != "header":
        raise RecordError(f"{path}:1: not a grove record (no header line)")
    header = objs[0][1]
    if header.get("format") != FORMAT:
        raise RecordError(f"{path}:1: record format {header.get('format')!r} is not {FORMAT}")
    actions: list[dict[str, Any]] = []
    end: dict[str, Any] | None = None
    stop: dict[str, Any] | None = None
    for n, obj in objs[1:]:
        t = obj.get("type")
        last = "the end of the game" if end is not None else "the stop line"
        if t in ("action", "end", "stop") and (end is not None or stop is not None):
            raise RecordError(f"{path}:{n}: a line after {last}: a record has nothing after it")
        if t == "action":
            if not isinstance(obj.get("action"), str):
                raise RecordError(f"{path}:{n}: an action line without an action")
            actions.append(obj)
        elif t == "end":
            end = obj
        elif t == "stop":
            after = obj.get("after")
            if not isinstance(after, int) or isinstance(after, bool) or after != len(actions):
                raise RecordError(f"{path}:{n}: the stop line says it comes after {after!r} "
                                  f"action(s), but {len(actions)} precede it")
            stop = obj
        else:
            raise RecordError(f"{path}:{n}: unknown line type {t!r}")
    return Record(header, actions, end, stop)


def stop_line(actions: int) -> dict[str, Any]:
    """The line that ends the record of a game a player quit after `actions` actions.

    `after` repeats the count so a record that lost lines before its stop line is still caught."""
    return {"type": "stop", "after": actions}


def _parse(lines: list[str], path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}:{n}:{exc.colno}: not JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise RecordError(f"{path}:{n}: expected a JSON object")
        yield n, obj
