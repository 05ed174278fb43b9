"""Game records as JSON Lines: a header, one line per action, the end.

The last line of a finished game (`"type": "end"`) holds every final forest in the forest-file
format, so `grove score` can re-score it and a player can keep their forest. A game a player
quits ends with a stop line (`{"type": "stop", "after": N}`) instead, so a replay can tell a game
deliberately left off from a record cut short. `Keeper` keeps a record file whole at every
moment; `Writer` writes a stream line by line. docs/formats.md describes every line.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import re
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from grove.compiler.cardset import CardSet
from grove.engine import ai
from grove.files.write import Behind, sweep, write_text
from grove.forest.model import Forest

# 2: the set-up's redraw of a hand without a tree and a stuck turn that puts exactly its cards
# away; a record of format 1 replays by the rules it was written under (`Table.legacy`)
FORMAT = 2
FORMATS = (1, 2)  # the formats a record may have
# A file record is replaced by a whole copy (with a stop line) once this many seconds have passed
# since the last: each copy is flushed to disk (fsync), 1 to 10 ms on a busy disk, which would
# multiply the 10 ms of an AI game's play if taken every few actions
CHECKPOINT_SECONDS = 1.0
# Python turns at most 4,300 digits into an int (the CVE-2020-10735 limit); a record holds no
# longer number whatever the interpreter is told, so every grove reads every record alike
MAX_DIGITS = 4300


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


def line_text(obj: dict[str, Any]) -> str:
    """One record line, as every record spells it (a pinned game's record stays byte for byte)."""
    return json.dumps(obj, ensure_ascii=False, sort_keys=True) + "\n"


class Sink:
    """Where `runner.play` puts a game's record. `waits` says that a person decides next (the
    game may wait there for hours), `over` that the action ended the game: a stop line may not
    follow a game's last action, which needs the end line."""

    actions = 0  # the action lines taken so far

    def header(self, obj: dict[str, Any], *, waits: bool) -> None:
        raise NotImplementedError

    def action(self, obj: dict[str, Any], *, over: bool, waits: bool) -> None:
        raise NotImplementedError

    def stop(self) -> bool:
        """End the record of a game stopped before its end; whether the record was written."""
        raise NotImplementedError

    def end(self, obj: dict[str, Any]) -> None:
        raise NotImplementedError


class Writer(Sink):
    """A record on a stream (a test's StringIO, an open file), each line flushed as written."""

    def __init__(self, fh: IO[str]):
        self.fh = fh
        self.actions = 0

    def line(self, obj: dict[str, Any]) -> None:
        self.fh.write(line_text(obj))
        self.fh.flush()

    def header(self, obj: dict[str, Any], *, waits: bool) -> None:
        self.line(obj)

    def action(self, obj: dict[str, Any], *, over: bool, waits: bool) -> None:
        self.line(obj)
        self.actions += 1

    def stop(self) -> bool:
        self.line(stop_line(self.actions))
        return True

    def end(self, obj: dict[str, Any]) -> None:
        self.line(obj)


class Keeper(Sink):
    """`grove play --record FILE`: the record file is whole at every moment, whenever the game is
    killed (Ctrl-C, SIGTERM, SIGKILL, a full disk): it is as it was before the game, or a whole
    record that replays, a stopped game's with a stop line that counts its actions, or a finished
    game's.

    The lines are held here (a game of five records about 40 KB) and the file is replaced by a
    whole copy through `files.write` (a fresh file beside it, renamed over it): before a person
    is asked to decide and after an action once `seconds` have passed since the last copy, with
    a stop line; at a stop; at the end, with the end line. A line and its count are one list, so
    a stop line cannot miss an action. `floor` is the number of actions of the record a resumed
    game replays: no copy with fewer replaces it, so a resume stopped early leaves it as it
    was."""

    def __init__(self, path: str, *, floor: int = 0, seconds: float = CHECKPOINT_SECONDS,
                 behind: bool = False):
        self.path, self.floor, self.seconds = path, floor, seconds
        # `behind`: copies written by a thread of their own (a server's games, where the next
        # table should not wait on the disk); a stop and the end still wait for theirs
        self.behind = Behind(path) if behind else None
        self.lines: list[str] = []  # the header's and every action's
        self.kept: int | None = None  # the actions of the copy last written; None: none yet
        self.due = time.monotonic() + seconds  # when an action is next followed by a copy

    @property
    def actions(self) -> int:  # type: ignore[override]
        return max(0, len(self.lines) - 1)

    def header(self, obj: dict[str, Any], *, waits: bool) -> None:
        self.lines = [line_text(obj)]
        if waits:
            self._keep()

    def action(self, obj: dict[str, Any], *, over: bool, waits: bool) -> None:
        self.lines.append(line_text(obj))
        if not over and (waits or time.monotonic() >= self.due):
            self._keep()

    def stop(self) -> bool:
        try:
            return self._keep()
        finally:
            self.close()

    def end(self, obj: dict[str, Any]) -> None:
        try:
            self._write(line_text(obj))
        finally:
            self.close()

    def close(self) -> None:
        """Wait for the copies written behind, if any."""
        if self.behind is not None:
            self.behind.close()

    def _keep(self) -> bool:
        """A whole copy with a stop line, unless it would hold fewer actions than `floor`."""
        if not self.lines or self.actions < self.floor:
            return False
        if self.kept != self.actions:
            self._write(line_text(stop_line(self.actions)))
        return True

    def _write(self, last: str) -> None:
        n = self.actions
        if self.kept is None:  # what a SIGKILL during an earlier game's write left beside it
            sweep(self.path)
        if self.behind is not None:
            self.behind.put("".join(self.lines) + last)
            self.kept = n
        else:
            with signals_held():
                write_text(self.path, "".join(self.lines) + last)
                self.kept = n
        self.due = time.monotonic() + self.seconds


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the block is done (a copy written, a millisecond): one
    landing between the temporary file's creation and its cleanup would leave it beside the
    record, one landing after the rename would leave `kept` behind the file. A signal heard
    meanwhile is noted and raised again once the handlers are back, so it acts as if it came
    then. Handlers, not a signal mask: another thread would take a masked signal and Python
    would still run the handler in this one. Only the main thread runs handlers; elsewhere no
    KeyboardInterrupt can land, and nothing is held."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    heard: list[int] = []
    before = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    for sig, handler in before.items():
        if handler is not signal.SIG_IGN and handler is not None:
            signal.signal(sig, lambda signum, frame: heard.append(signum))
    try:
        yield
    finally:
        for sig, handler in before.items():
            if handler is not signal.SIG_IGN and handler is not None:
                signal.signal(sig, handler)
        for sig in dict.fromkeys(heard):
            signal.raise_signal(sig)


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
    """A record read and checked line by line: its lines' kinds, order and fields, and nothing in
    it that is no text (a lone surrogate escape) or no number grove keeps (NaN, Infinity, more
    than `MAX_DIGITS` digits). A problem is a `RecordError` whose message starts `path:line: `."""
    try:
        lines = lines_of(path)
    except OSError as exc:
        raise RecordError(f"{path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not a grove record (not UTF-8 text)") from None
    objs = list(_parse(lines, str(path)))
    if not objs or objs[0][1].get("type") != "header":
        raise RecordError(f"{path}:1: not a grove record (no header line)")
    n, header = objs[0]
    fmt = header.get("format")
    if fmt not in FORMATS or isinstance(fmt, bool):
        raise RecordError(f"{path}:{n}: record format {fmt!r} is not one of "
                          f"{', '.join(map(str, FORMATS))}")
    problem = _header_problem(header)
    if problem:
        raise RecordError(f"{path}:{n}: {problem}")
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
            if not _count(obj.get("player")):
                raise RecordError(f"{path}:{n}: the action line's player is "
                                  f"{_shown(obj.get('player'))}, not a seat number")
            actions.append(obj)
        elif t == "end":
            end = obj
        elif t == "stop":
            after = obj.get("after")
            if not _count(after) or after != len(actions):
                raise RecordError(f"{path}:{n}: the stop line says it comes after "
                                  f"{_shown(after)} action(s), but {len(actions)} precede it")
            stop = obj
        else:
            raise RecordError(f"{path}:{n}: unknown line type {_shown(t)}")
    return Record(header, actions, end, stop)


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _shown(value: Any) -> str:
    """A value of the record in a message, cut: it may be a text of a megabyte."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _header_problem(h: dict[str, Any]) -> str | None:
    """What the header lacks for a game to be set up from it, or None: the edition, the
    expansions, an integer seed and the players, each a name and a player kind."""
    if not isinstance(h.get("edition"), str):
        return f"the header's edition is {_shown(h.get('edition'))}, not an edition's name"
    exps = h.get("with")
    if exps is not None and not (isinstance(exps, list) and all(isinstance(e, str)
                                                                 for e in exps)):
        return f"the header's `with` is {_shown(exps)}, not a list of expansions"
    seed = h.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        return f"the header's seed is {_shown(seed)}, not a whole number"
    players = h.get("players")
    if not isinstance(players, list) or not players:
        return "the header names no players"
    for i, p in enumerate(players, 1):
        if not (isinstance(p, dict) and isinstance(p.get("name"), str)
                and isinstance(p.get("ai"), str)):
            return f"the header's player {i} lacks a name or a player kind ({_shown(p)})"
        why = None if p["ai"] == "human" else ai.problem(p["ai"])
        if why is not None:  # the record is wrong, not the command line: RECORD-BAD, exit 1
            return f"the header's player {i} has a player kind grove does not know: {why}"
    return None


def stop_line(actions: int) -> dict[str, Any]:
    """The line that ends the record of a game a player quit after `actions` actions.

    `after` repeats the count so a record that lost lines before its stop line is still caught."""
    return {"type": "stop", "after": actions}


class _Odd(ValueError):
    """A value of a record line that no record holds (raised by the JSON decoder's hooks)."""


def _constant(name: str) -> Any:
    raise _Odd(f"{name} is not a number a record holds")


def _integer(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise _Odd(f"a number of {digits} digits (a record's numbers have at most {MAX_DIGITS})")
    return int(text)


def _decimal(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Odd(f"{text[:20]} is beyond the numbers a record holds")
    return value


_DECODER = json.JSONDecoder(parse_constant=_constant, parse_int=_integer, parse_float=_decimal)
# a JSON escape of a UTF-16 surrogate: a high one with its low one is one character, a lone one
# is no text (a name holding it could be neither printed nor written back as UTF-8)
_SURROGATE = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}(?:\\u[dD][c-fC-F][0-9a-fA-F]{2})?"
                        r"|\\u[dD][c-fC-F][0-9a-fA-F]{2}")
_LONE = re.compile("[\ud800-\udfff]")


def _lone_surrogate(obj: Any) -> bool:
    if isinstance(obj, str):
        return _LONE.search(obj) is not None
    if isinstance(obj, dict):
        return any(_lone_surrogate(k) or _lone_surrogate(v) for k, v in obj.items())
    if isinstance(obj, list):
        return any(_lone_surrogate(v) for v in obj)
    return False


def _parse(lines: list[str], path: str) -> Iterator[tuple[int, dict[str, Any]]]:
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = _DECODER.decode(line)
            lone = "\\u" in line and _lone_surrogate(obj)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}:{n}:{exc.colno}: not JSON ({exc.msg})") from None
        except _Odd as exc:
            raise RecordError(f"{path}:{n}: {exc}") from None
        except RecursionError:
            raise RecordError(f"{path}:{n}: values nested too deep for a record") from None
        if not isinstance(obj, dict):
            raise RecordError(f"{path}:{n}: expected a JSON object")
        if lone:
            col = next((m.start() + 1 for m in _SURROGATE.finditer(line)
                        if len(m[0]) == 6), 1)
            raise RecordError(f"{path}:{n}:{col}: a lone surrogate escape (such as \"\\ud800\") "
                              "is no character: a record holds text")
        yield n, obj
