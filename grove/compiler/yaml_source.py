"""YAML documents that remember where every key and value came from.

ruamel.yaml's round-trip loader keeps line and column on every mapping and sequence; this module
turns those into `Span`s so schema and rule errors point at the author's own text.

That loader is pure Python and reading the shipped card files with it took half of every cold
command. Where libyaml is there (ruamel.yaml.clib), the text is composed into nodes by it, and
the same round-trip values (CommentedMap and CommentedSeq with their line/column, quoted and
block strings as their ruamel types) are built from the nodes here: about five times faster.
Anything this fast path does not build exactly as the round-trip loader would (a syntax error,
a duplicate or merge key, a tag of the author's, a scalar type beyond null, bool, int, float and
string, YAML 1.2 syntax libyaml refuses such as `a:b` in a flow) goes to the round-trip loader,
so diagnostics and values never depend on which path read a file. A test holds the two paths
equal on every YAML file of the project.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.parser import RoundTripParser
from ruamel.yaml.scalarstring import (
    DoubleQuotedScalarString,
    FoldedScalarString,
    LiteralScalarString,
    SingleQuotedScalarString,
)

from grove.compiler import yaml_hints
from grove.compiler.limits import MAX_CARD_FILE_BYTES
from grove.compiler.limits import MAX_FOREST_FILE_BYTES as MAX_FOREST_FILE_BYTES  # as ever
from grove.dsl.diagnostics import Diagnostic, DiagnosticError, Span, error, escape, shorten
from grove.files.read import NotRegular, is_regular, read_bytes

PathKey = str | int


@dataclass(frozen=True)
class Document:
    path: str
    data: Any
    lines: tuple[str, ...]

    def span(self, path: Sequence[PathKey], *, key: bool = False) -> Span:
        """Where the value at `path` (or its key, with `key=True`) starts; the nearest parent if
        the value itself is absent, so a missing field points at the mapping that lacks it."""
        node = self.data
        line, col = 0, 0
        for i, step in enumerate(path):
            last = i == len(path) - 1
            if isinstance(node, CommentedMap) and step in node:
                if step not in (node.lc.data or {}):  # brought in by a merge key (`<<: *x`)
                    line, col = self._merge_at(node)
                elif last and (key or node[step] is None):
                    # an empty value has no place of its own (the reader marks the next
                    # token, often on the next line): its key stands for it
                    line, col = node.lc.key(step)
                else:
                    line, col = node.lc.value(step)
                node = node[step]
            elif isinstance(node, CommentedSeq) and isinstance(step, int) and step < len(node):
                line, col = node.lc.item(step)
                node = node[step]
            else:
                break
        end_col = None
        if 0 <= line < len(self.lines):
            text = self.lines[line]
            token = _token_at(text, col)
            end_col = col + 1 + len(token) if token else None
        return Span(self.path, line + 1, col + 1, line + 1 if end_col else None, end_col)

    def _merge_at(self, node: CommentedMap) -> tuple[int, int]:
        """(line, col), from 0, of the first merge key `<<` at or after where `node` starts: a key
        a merge brought in has no position of its own, so it is placed at the merge."""
        line, col = node.lc.line or 0, node.lc.col or 0
        for n in range(line, min(len(self.lines), line + 1000)):
            at = self.lines[n].find("<<", col if n == line else 0)
            if at >= 0:
                return n, at
        return line, col

    def text_origin(self, path: Sequence[PathKey]) -> tuple[int, int]:
        """(line, col) where the characters of the string at `path` begin in the file."""
        span = self.span(path)
        value = self.get(path)
        if isinstance(value, (LiteralScalarString, FoldedScalarString)):
            nxt = span.line  # block scalar: text starts on the following line
            if nxt < len(self.lines):
                body = self.lines[nxt]
                return nxt + 1, len(body) - len(body.lstrip()) + 1
        if isinstance(value, (DoubleQuotedScalarString, SingleQuotedScalarString)):
            return span.line, span.col + 1
        return span.line, span.col

    def get(self, path: Sequence[PathKey]) -> Any:
        node = self.data
        for step in path:
            node = node[step]
        return node


def _token_at(text: str, col: int) -> str:
    rest = text[col:]
    if not rest:
        return ""
    if rest[0] in "{[":
        return rest[0]
    out = []
    for ch in rest:
        if ch in ",}]#" or ch.isspace() and not out:
            break
        if ch.isspace():
            break
        out.append(ch)
    return "".join(out).rstrip(":")


def _yaml() -> YAML:
    y = YAML(typ="rt")
    y.preserve_quotes = True
    y.allow_duplicate_keys = False
    return y


class _Refused(Exception):
    """The fast path does not build this document the way the round-trip loader would."""


_CORE = "tag:yaml.org,2002:"
_SCALARS = {_CORE + t: f"construct_yaml_{t}" for t in ("str", "int", "float", "bool", "null")}


def _c_composer() -> YAML | None:
    try:
        from ruamel.yaml.clib._ruamel_yaml import CParser  # noqa: F401 - only whether it is there
    except ImportError:
        return None
    return YAML(typ="safe", pure=False)


def _scalar(node: Any, constructor: Any) -> Any:
    """A scalar as the round-trip loader builds it (its own constructor builds it here)."""
    method = _SCALARS.get(node.tag)
    if method is None or (node.value == "" and not node.style):
        raise _Refused(node.tag)  # an empty value: the two place it on different lines
    try:
        return getattr(constructor, method)(node)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError):
        raise _Refused(node.tag) from None  # `!!bool base`: the events' check reports the tag


def _build(node: Any, built: dict[int, Any], constructor: Any, depth: int = 0) -> Any:
    """Round-trip values from composed nodes; an alias is the value of its anchor, built once.
    A node nested deeper than `MAX_YAML_DEPTH` is left to the round-trip path, whose check of
    the parser's events reports it (YAML-TOO-DEEP) where it is."""
    if depth > MAX_YAML_DEPTH:
        raise _Refused("nested too deep")
    done = built.get(id(node))
    if done is not None:
        return done
    kind = type(node).__name__
    if kind == "ScalarNode":
        return _scalar(node, constructor)
    if kind == "SequenceNode" and node.tag == _CORE + "seq":
        seq = CommentedSeq()
        built[id(node)] = seq
        seq.lc.line, seq.lc.col = node.start_mark.line, node.start_mark.column
        for i, item in enumerate(node.value):
            seq.append(_build(item, built, constructor, depth + 1))
            seq.lc.add_kv_line_col(i, [item.start_mark.line, item.start_mark.column])
        return seq
    if kind == "MappingNode" and node.tag == _CORE + "map":
        m = CommentedMap()
        built[id(node)] = m
        m.lc.line, m.lc.col = node.start_mark.line, node.start_mark.column
        for k, v in node.value:
            if type(k).__name__ != "ScalarNode" or k.tag == _CORE + "merge":
                raise _Refused("a key that is not a plain value")
            key = _scalar(k, constructor)
            # a quoted key is a str subclass, as the round-trip loader keeps it (JSON's are all
            # quoted); a bool or float key is handed over
            if not (isinstance(key, str) or type(key) is int) or key in m:
                raise _Refused("duplicate key")  # ruamel words the error
            m[key] = _build(v, built, constructor, depth + 1)
            m.lc.add_kv_line_col(key, [k.start_mark.line, k.start_mark.column,
                                       v.start_mark.line, v.start_mark.column])
        return m
    raise _Refused(node.tag)


def _fast_load(raw: str, composer: YAML | None = None) -> tuple[bool, Any]:
    """(True, value) where libyaml composes the text and every node is built as ruamel's
    round-trip loader builds it; (False, None) otherwise. `composer`: `_c_composer()`'s, where
    the caller holds one."""
    composer = composer or _c_composer()
    if composer is None:
        return False, None
    try:
        node = composer.compose(raw)
        return True, None if node is None else _build(node, {}, _yaml().constructor)
    except (_Refused, YAMLError, RecursionError, ValueError):
        return False, None


# Limits on what one file may ask of grove (its size: grove/compiler/limits.py).
# Aliases share one value among many places, and everything that walks the data (`plain`, the
# schema validator, the checks) visits it once per place: nine levels of ten aliases each are a
# billion nodes. No card or forest file needs more than a few shared values.
MAX_ALIAS_NODES = 10_000
# Loading, validating and checking all recurse into nested values: a flow of 5,000 brackets ended
# in RecursionError. The deepest shipped file nests 7 levels.
MAX_YAML_DEPTH = 40


def _read_limited(p: str, max_bytes: int) -> bytes:
    """The file's bytes, refused before reading when it is larger than `max_bytes` (INPUT-TOO-
    LARGE) or is no regular file (IO-READ: a FIFO would wait for a writer that never comes, a
    device such as /dev/zero never ends). grove/files/read.py opens it without blocking and reads
    no more than the bound."""
    try:
        return read_bytes(p, max_bytes)
    except NotRegular:
        if not is_regular(p):
            raise DiagnosticError([error(
                "IO-READ", Span(p, 1, 1),
                "not a regular file (a FIFO, device or socket): grove does not read it",
                "name a card or forest file")]) from None
        try:
            size = os.stat(p).st_size
        except OSError:
            size = max_bytes + 1
        raise _too_large(p, max(size, max_bytes + 1), max_bytes,
                         exact=size > max_bytes) from None


def _too_large(p: str, size: int, max_bytes: int, *, exact: bool) -> DiagnosticError:
    more = "" if exact else "more than "
    return DiagnosticError([error(
        "INPUT-TOO-LARGE", Span(p, 1, 1),
        f"the file has {more}{size} bytes; grove reads at most {max_bytes} bytes "
        f"({max_bytes // 1024} KiB) from such a file",
        "a card or forest file is a few kilobytes: is this the file you meant?")])


def load(path: str | Path, max_bytes: int = MAX_CARD_FILE_BYTES) -> Document:
    """Read a YAML (or JSON) file; a malformed file raises `DiagnosticError` (YAML-SYNTAX), a
    file larger than `max_bytes` INPUT-TOO-LARGE before any of it is parsed."""
    return loads(read_source(path, max_bytes), str(path))


def read_source(path: str | Path, max_bytes: int = MAX_CARD_FILE_BYTES) -> str:
    """A file's text, unparsed, with `load`'s diagnostics of a file that cannot be read."""
    p = str(path)
    try:
        raw = _read_limited(p, max_bytes).decode("utf-8")
    except FileNotFoundError:
        raise DiagnosticError([error("IO-NOT-FOUND", None, f"{p}: no such file")]) from None
    except IsADirectoryError:
        raise DiagnosticError([error("IO-NOT-FOUND", None, f"{p}: is a directory")]) from None
    except UnicodeDecodeError as exc:
        raise DiagnosticError(
            [error("IO-ENCODING", Span(p, 1, 1), f"not UTF-8 text ({exc.reason})")]
        ) from None
    except OSError as exc:
        raise DiagnosticError([error("IO-READ", None, f"{p}: {exc.strerror}")]) from None
    return raw


def load_text(raw: str, path: str | Path, max_bytes: int = MAX_CARD_FILE_BYTES) -> Document:
    """`load` for text an editor holds but has not saved: the same limit on its size (counted
    in UTF-8 bytes, as the file would have) and the same diagnostics, so an unsaved buffer and
    the file it becomes are read alike."""
    p = str(path)
    size = len(raw.encode("utf-8", "surrogatepass"))
    if size > max_bytes:
        raise _too_large(p, size, max_bytes, exact=True)
    return loads(raw, p)


class _Limits:
    """YAML-ALIAS-LIMIT at the alias where the nodes that aliases stand for pass
    `MAX_ALIAS_NODES`, YAML-TOO-DEEP at the first value nested deeper than `MAX_YAML_DEPTH`, and
    YAML-TAG, each raised as a parser's events go past (one `see` an event, in order), before
    anything is built from them or recursed into.

    Each anchored value's expanded size is known at its end event, and an alias adds that size
    again, so the count is linear in the text however deep the anchors nest."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.sizes: dict[str, int] = {}
        self.open: list[list[Any]] = [[None, 0]]  # [anchor, expanded nodes so far] a collection
        self.shared = 0

    def see(self, ev: Any) -> None:
        kind = type(ev).__name__
        if kind in ("ScalarEvent", "MappingStartEvent", "SequenceStartEvent"):
            _check_tag(ev, self.path)
        if len(self.open) - 1 > MAX_YAML_DEPTH and kind in (
                "MappingStartEvent", "SequenceStartEvent", "ScalarEvent", "AliasEvent"):
            raise self._error(ev, "YAML-TOO-DEEP",
                              f"values nested more than {MAX_YAML_DEPTH} levels deep",
                              "a card or forest file nests a few levels: is a bracket left open?")
        if kind in ("MappingStartEvent", "SequenceStartEvent"):
            self.open.append([ev.anchor, 1])
            return
        if kind in ("MappingEndEvent", "SequenceEndEvent"):
            anchor, n = self.open.pop()
        elif kind == "ScalarEvent":
            anchor, n = ev.anchor, 1
        elif kind == "AliasEvent":
            if any(ev.anchor == a for a, _ in self.open):  # `&a [*a]`: a value inside itself
                raise self._error(ev, "YAML-ALIAS-LIMIT",
                                  f"'*{_named(ev)}' stands inside the value it names, which "
                                  "would make that value endless",
                                  "write the values out instead of `&anchor` and `*alias`")
            anchor, n = None, self.sizes.get(ev.anchor, 1)
            self.shared += n
            if self.shared > MAX_ALIAS_NODES:
                raise self._error(ev, "YAML-ALIAS-LIMIT",
                                  f"the aliases of this file stand for more than "
                                  f"{MAX_ALIAS_NODES} values (at '*{_named(ev)}')",
                                  "write the values out, or share fewer of them by `&anchor` "
                                  "and `*alias`")
        else:
            return
        if anchor is not None:
            self.sizes[anchor] = n
        self.open[-1][1] += n

    def _error(self, ev: Any, code: str, message: str, hint: str) -> DiagnosticError:
        mark = ev.start_mark
        return DiagnosticError([error(code, Span(self.path, mark.line + 1, mark.column + 1),
                                      message, hint)])


def _named(ev: Any) -> str:
    """An alias's anchor as a message shows it."""
    return escape(shorten(str(ev.anchor), 80))


def _within_limits_by_libyaml(raw: str, path: str, libyaml: YAML) -> bool:
    """`_Limits` over libyaml's events (`libyaml`: `_c_composer()`'s), which nothing builds:
    whether the text parsed to its end (False: libyaml refuses it, and the round-trip loader
    says why, or reads YAML 1.2 that libyaml does not)."""
    limits = _Limits(path)
    try:
        for ev in libyaml.parse(raw):
            limits.see(ev)
    except (YAMLError, RecursionError, ValueError):
        return False
    return True


class _CheckedParser(RoundTripParser):
    """The round-trip loader's parser, its events held to `_Limits` as the composer takes them:
    a text libyaml cannot read is parsed once, in pure Python, and its limits are met before
    the composer recurses a level deeper or follows an alias."""

    limits: _Limits

    def get_event(self) -> Any:
        ev = super().get_event()
        if ev is not None:
            self.limits.see(ev)
        return ev


_PLAIN_TAGS = {  # the tags each kind of value may carry
    "ScalarEvent": frozenset(_CORE + t for t in ("str", "int", "float", "bool", "null")),
    "SequenceStartEvent": frozenset({_CORE + "seq"}),
    "MappingStartEvent": frozenset({_CORE + "map"}),
}


def _check_tag(ev: Any, path: str) -> None:
    """YAML-TAG at an explicit tag beyond the plain types (`!!python/object`, `!!set`, `!mine`).

    grove's files hold plain values only; the round-trip loader would build a tagged value into
    an object no check expects (or fail inside itself), so the tag is refused where it stands."""
    implicit = getattr(ev, "implicit", True)  # a pair for scalars, a bool for collections
    if not ev.tag or (implicit[0] if isinstance(implicit, tuple) else implicit):
        return
    mark = ev.start_mark
    tag = str(ev.tag).replace(_CORE, "!!", 1) if str(ev.tag).startswith(_CORE) else str(ev.tag)
    if ev.tag in _PLAIN_TAGS[type(ev).__name__]:  # `!!str [a]` is a tag that does not fit
        if type(ev).__name__ != "ScalarEvent" or _fits(ev.tag, ev.value):
            return
        raise DiagnosticError([error(
            "YAML-TAG", Span(path, mark.line + 1, mark.column + 1),
            f"the value '{escape(shorten(str(ev.value), 80))}' is not a {tag}",
            "leave the tag out, or write a value of that type")])
    raise DiagnosticError([error(
        "YAML-TAG", Span(path, mark.line + 1, mark.column + 1),
        f"a YAML tag grove does not read: {escape(shorten(tag, 80))}",
        "leave the tag out: card and forest files hold plain strings, numbers, lists and "
        "mappings")])


def _fits(tag: str, value: str) -> bool:
    """Whether the round-trip loader builds `value` under the plain scalar `tag` (`!!bool base`
    and `!!float name` fail inside it with KeyError and IndexError)."""
    from ruamel.yaml.nodes import ScalarNode

    try:
        getattr(_yaml().constructor, _SCALARS[tag])(ScalarNode(tag, value))
    except (KeyError, IndexError, ValueError, TypeError, AttributeError, YAMLError):
        return False
    return True


_LINE_PREFIX = re.compile(r"^[ \t?-]*", re.M)


# libyaml's composer recurses in C once per level and crashes the process (a segmentation fault,
# no exception) near 30,000 levels; 20,000 were read. A text that may nest deeper than this has
# its events checked (YAML-TOO-DEEP past `MAX_YAML_DEPTH`) before that composer sees it.
C_COMPOSER_SAFE_DEPTH = 1_000


def _may_nest_deep(raw: str) -> bool:
    """Whether the text may nest deeper than `C_COMPOSER_SAFE_DEPTH`, by a bound read off the raw
    text in linear time without parsing: open flow brackets (`[`, `{`, quotes and comments counted
    too) plus twice the longest run of spaces, tabs, dashes and question marks starting a line
    (block nesting: each level indents, or stands compact after `- ` or `? `, or is a sequence
    under a key at the key's own column)."""
    block = max((len(m) for m in _LINE_PREFIX.findall(raw)), default=0)
    budget = C_COMPOSER_SAFE_DEPTH - 2 * block - 2
    if raw.count("[") + raw.count("{") <= budget:
        return False
    if budget < 0:
        return True
    depth = 0
    for ch in raw:
        if ch in "[{":
            depth += 1
            if depth > budget:
                return True
        elif ch in "]}" and depth:
            depth -= 1
    return False


def loads(raw: str, path: str = "<string>") -> Document:
    """A document from YAML text; beyond its limits (aliases, depth) a `DiagnosticError` says
    where, before anything is built. libyaml reads the text first where it can (its events
    checked first where the text has an anchor (`&`) or may nest deep enough to crash its
    composer, which recurses in C); the round-trip loader, which recurses as deep as the text
    nests, checks each event as its composer takes it (`_CheckedParser`)."""
    lines = tuple(raw.splitlines())
    libyaml = _c_composer()  # one libyaml loader for every pass over the text
    if libyaml is not None:
        parsed = _within_limits_by_libyaml(raw, path, libyaml) if (
            "&" in raw or _may_nest_deep(raw)) else None
        if parsed is not False:
            fast, data = _fast_load(raw, libyaml)
            if fast:
                return Document(path, data, lines)
            if parsed is None:  # a tag or a limit is said from libyaml's events, at once
                _within_limits_by_libyaml(raw, path, libyaml)
    loader = _yaml()
    loader.Parser = _CheckedParser
    loader.parser.limits = _Limits(path)
    try:
        data = loader.load(raw)
    except RecursionError:  # the events passed, yet the loader recursed too deep: never seen
        raise DiagnosticError([error("YAML-TOO-DEEP", Span(path, 1, 1),
                                     "values nested too deep to read")]) from None
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        problem = (exc.problem or exc.context or "malformed YAML").strip()
        context = exc.context_mark if exc.problem_mark else None
        at = (context.line, context.column) if context else None
        hint = yaml_hints.hint(
            "duplicate key" if "found duplicate key" in str(exc) else problem, lines, line - 1,
            col - 1, at, exc.context)
        quote = yaml_hints.open_quote(problem, lines, exc.context, at)
        if quote is not None:  # the mistake is the quote never closed, not where reading ended
            line, col = quote[0] + 1, quote[1] + 1
        raise DiagnosticError(
            [error("YAML-SYNTAX", Span(path, line, col), problem, hint)]
        ) from None
    except YAMLError as exc:
        raise DiagnosticError([error("YAML-SYNTAX", Span(path, 1, 1), str(exc))]) from None
    except (AttributeError, TypeError, ValueError, KeyError, IndexError):
        huge = _huge_integer(raw, path)
        if huge is not None:  # Python reads no integer of more than 4,300 digits
            raise DiagnosticError([huge]) from None
        # the round-trip loader builds a tagged value (`!!set base`, `!!omap 3`) without asking
        # whether the tag fits the value, and fails inside itself; the tag is the input's fault
        raise DiagnosticError([error(
            "YAML-SYNTAX", _first_tag(raw, path), "a value whose tag does not fit it",
            "leave tags (`!!set`, `!!omap`, `!name`, ...) out: grove reads plain values")]
        ) from None
    return Document(path, data, lines)


def _huge_integer(raw: str, path: str) -> Diagnostic | None:
    """YAML-SYNTAX at an integer too long for Python to read (a 5,000-digit count was "1:1 a
    value whose tag does not fit it"), or None where the text has none."""
    limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 4300
    m = re.search(rf"(?<![\w.])[-+]?\d{{{limit + 1},}}(?![\w.])", raw)
    if m is None:
        return None
    line = raw.count("\n", 0, m.start()) + 1
    col = m.start() - (raw.rfind("\n", 0, m.start()) + 1) + 1
    return error("YAML-SYNTAX", Span(path, line, col, line, col + len(m.group())),
                 f"a number too large: {len(m.group().lstrip('+-'))} digits, where grove reads "
                 f"at most {limit}", "no count, cost or point value of a card needs more than a "
                 "few digits")


def _first_tag(raw: str, path: str) -> Span:
    """Where the first explicitly tagged value of the text starts (1:1 if the parser finds none)."""
    try:
        for ev in YAML(typ="safe", pure=True).parse(raw):
            implicit = getattr(ev, "implicit", True)  # a pair for scalars, a bool otherwise
            if getattr(ev, "tag", None) and not (
                    implicit[0] if isinstance(implicit, tuple) else implicit):
                return Span(path, ev.start_mark.line + 1, ev.start_mark.column + 1)
    except YAMLError:
        pass
    return Span(path, 1, 1)


def plain(node: Any) -> Any:
    """The document as builtins (dict, list, str, int, bool, None) for schema validation."""
    if isinstance(node, dict):
        return {str(k): plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [plain(v) for v in node]
    if isinstance(node, str):
        return str(node)
    if isinstance(node, bool):
        return bool(node)
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    return node
