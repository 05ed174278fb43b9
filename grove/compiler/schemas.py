"""JSON Schema validation of YAML documents, with every error placed at its YAML line and column.

The schemas under `schema/` are the published contract for editors; validating against them here
(rather than re-checking shapes by hand) keeps editor and linter in agreement.

Two validators read the same schemas: jsonschema-rs (compiled) says whether a document is
valid, and only a document it refuses goes to jsonschema, whose errors the diagnostics are made
of (tests/test_schema_verdicts.py holds their verdicts equal). jsonschema is imported where it
is used: its import alone costs more than a warm `grove score`, and a document read before (by
its text) gets its verdict from the cache.
"""

from __future__ import annotations

import copy
import difflib
import hashlib
import json
import math
import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from grove.compiler import cache as disk_cache
from grove.compiler.yaml_source import Document, plain
from grove.dsl.diagnostics import Diagnostic, error, shorten
from grove.schema import SCHEMA_DIR

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError
    from referencing import Registry

SCHEMAS = ("edition", "deck", "cardset", "forest", "common")


@cache
def _documents() -> dict[str, dict]:
    """Each schema file, parsed, by its file name and by its `$id`."""
    out = {}
    for name in SCHEMAS:
        doc = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))
        out[f"{name}.schema.json"] = out[doc["$id"]] = doc
    return out


@cache
def _registry() -> Registry:
    from referencing import Registry, Resource

    return Registry().with_resources(
        (uri, Resource.from_contents(doc)) for uri, doc in _documents().items())


@cache
def _schema(name: str) -> dict:
    """The schema `name`, its references inlined (`_inlined`)."""
    doc = _documents()[f"{name}.schema.json"]
    return _inlined(doc, doc["$id"], frozenset())


@cache
def validator(name: str) -> Draft202012Validator:
    return _validator_class()(_schema(name), registry=_registry())


@cache
def _accepting(name: str) -> Callable[[object], bool]:
    """jsonschema-rs's verdict on the same schema, a hundred times sooner than jsonschema's.
    Its regex dialect is ECMA-262's, as `_validator_class` reads patterns; formats are
    descriptions in draft 2020-12 for both, and no reference is left to fetch."""
    import jsonschema_rs

    return jsonschema_rs.validator_for(_schema(name), validate_formats=False, offline=True).is_valid


def _accepted(data: object, schema: str) -> bool:
    """Whether the document is valid, said by jsonschema-rs where the data holds only JSON's
    values (which it reads as jsonschema does); a document it refuses, or cannot read as JSON,
    goes to jsonschema, whose errors the diagnostics are made of."""
    return _json_values(data) and _accepting(schema)(data)


def _json_values(node: object) -> bool:
    """Only what JSON holds: mappings with string keys, lists, strings, booleans, null, finite
    floats and integers of 64 bits (a YAML `.nan`, a timestamp or a huge number is not)."""
    if type(node) is dict:
        return all(type(k) is str and _json_values(v) for k, v in node.items())
    if type(node) is list:
        return all(_json_values(v) for v in node)
    if type(node) is int:
        return -(2**63) <= node < 2**64
    if type(node) is float:
        return math.isfinite(node)
    return node is None or type(node) in (str, bool)


# Keywords beside a `$ref` that only describe: a reference with nothing else beside it may be
# replaced by what it refers to.
_ANNOTATIONS = frozenset({"description", "title", "$comment", "default", "examples"})


def _inlined(node: object, base: str, seen: frozenset[str]) -> object:
    """The schema with each plain `$ref` replaced by the schema it refers to (a cycle's
    `$ref` stays): the same verdicts and errors, while jsonschema looks a reference up in the
    registry at every place of the document it checks, most of a forest file's validation."""
    from urllib.parse import urldefrag, urljoin

    if isinstance(node, list):
        return [_inlined(x, base, seen) for x in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and set(node) - {"$ref"} <= _ANNOTATIONS:
        uri = urljoin(base, ref)
        if uri not in seen:
            doc_uri, fragment = urldefrag(uri)
            target = _documents()[doc_uri]
            for part in filter(None, fragment.split("/")):
                target = target[part.replace("~1", "/").replace("~0", "~")]
            return _inlined(target, doc_uri, seen | {uri})
    return {k: v if k in ("const", "enum", "default", "examples") else _inlined(v, base, seen)
            for k, v in node.items()}


@cache
def _validator_class() -> type[Draft202012Validator]:
    r"""Draft 2020-12 with `pattern` read as JSON Schema means it, as an ECMA-262 regex.

    jsonschema hands a pattern to Python's `re.search`, whose `$` also matches before a final
    line break, so `^[a-z][a-z0-9_]*$` let an id "oak\n" through, and the line break went on
    into diagnostics and `grove editions`. In ECMA-262 (and so in every editor that reads these
    schemas) `$` is the end of the text: it is read here as Python's `\Z`, which keeps the
    schema files the published contract, with one meaning for editor and linter."""
    from jsonschema import Draft202012Validator, validators
    from jsonschema.exceptions import ValidationError

    def pattern(validator, patrn, instance, schema):  # jsonschema's keyword signature
        if validator.is_type(instance, "string") and not _ecma(patrn).search(instance):
            yield ValidationError(f"{instance!r} does not match {patrn!r}")

    return validators.extend(Draft202012Validator, {"pattern": pattern})


@cache
def _ecma(patrn: str) -> re.Pattern[str]:
    r"""An ECMA-262 pattern (the schemas' few: anchors, classes, groups) as a Python regex: each
    `$` outside a class and not escaped is the end of the text (`\Z`)."""
    out: list[str] = []
    escaped = in_class = False
    for ch in patrn:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif in_class:
            in_class = ch != "]"
        elif ch == "[":
            in_class = True
        elif ch == "$":
            ch = r"\Z"
        out.append(ch)
    return re.compile("".join(out))


def _leaf(err: ValidationError) -> ValidationError:
    """For oneOf/anyOf, the most specific reason among the alternatives."""
    from jsonschema.exceptions import best_match

    while err.validator in ("oneOf", "anyOf") and err.context:
        # an alternative whose `type` the value does not even have is the least likely intent:
        # `top: Chaffinch` is a mistyped card name, not a wrong boolean
        fitting = [e for e in err.context if e.validator != "type"]
        deeper = best_match(fitting or err.context)
        if deeper is None or deeper is err:
            break
        err = deeper
    return err


def _where(path: list[str | int], data: object) -> str:
    """A finding's place as an author reads it: a list entry by its id where it has one
    (`species[red_fox].cost`), else counted from 1 (`cards #3`), never from 0 (`species.0`)."""
    out: list[str] = []
    node = data
    for step in path:
        if isinstance(step, int):
            item = node[step] if isinstance(node, list) and step < len(node) else None
            ident = item.get("id") if isinstance(item, dict) else None
            out[-1:] = [f"{out[-1] if out else ''}"
                        + (f"[{ident}]" if isinstance(ident, str)
                           and re.fullmatch(r"[A-Za-z0-9_:]{1,60}", ident)
                           else f" #{step + 1}")]
        else:
            out.append(str(step))
        node = node[step] if isinstance(node, (dict, list)) else None
    return ".".join(out) or "document"


def _describe(err: ValidationError, doc: Document, data: object) -> Diagnostic:
    path = list(err.absolute_path)
    try:
        where = _where(path, data)
    except (KeyError, IndexError, TypeError):
        where = ".".join(str(p) for p in path) or "document"
    if err.validator == "required":
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        return error(
            "SCHEMA-REQUIRED", doc.span(path, key=True), f"{where}: missing field '{missing}'",
            f"add `{missing}:`",
        )
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        known = set(err.schema.get("properties", {}))
        extra = sorted(k for k in err.instance if k not in known)
        name = extra[0] if extra else "?"
        close = difflib.get_close_matches(name, sorted(known), n=1)
        hint = f"did you mean '{close[0]}'?" if close else (
            f"known fields: {', '.join(sorted(known))}" if known else None
        )
        return error(
            "SCHEMA-UNKNOWN-FIELD", doc.span([*path, name], key=True),
            f"{where}: unknown field '{shorten(name, 80)}'", hint,
        )
    if err.validator == "type":
        return error(
            "SCHEMA-TYPE", doc.span(path), f"{where}: expected {err.validator_value}, "
            f"found {type(err.instance).__name__} {err.instance!r}"[:200],
        )
    if err.validator == "enum":
        choices = ", ".join(map(str, err.validator_value))
        close = difflib.get_close_matches(str(err.instance), [str(c) for c in err.validator_value], 1)
        return error(
            "SCHEMA-ENUM", doc.span(path),
            f"{where}: {shorten(repr(err.instance), 80)} is not one of {choices}",
            f"did you mean '{close[0]}'?" if close else None,
        )
    if err.validator == "pattern" or (err.validator == "propertyNames"):
        text = err.instance if isinstance(err.instance, str) else ""
        breaks = any(ch in text for ch in "\n\r") or not text.isprintable()
        return error(
            "SCHEMA-PATTERN", doc.span(path, key=err.validator == "propertyNames"),
            f"{where}: {shorten(repr(err.instance), 80)} is not a valid name",
            ("a name holds no line break or other control character (a quoted \"\\n\" or a "
             "block scalar, `|` or `>`, puts one in): write it plainly, as `oak`")
            if breaks else
            "ids are lower_snake_case: letters, digits and underscores, starting with a letter",
        )
    return error("SCHEMA-VALUE", doc.span(path), f"{where}: {err.message}"[:300])


# Ids and player names are echoed in messages, scoreboards and game logs: a 2 MB player name
# made a 20 MB scoreboard. The longest id shipped has 35 characters.
MAX_NAME_CHARS = 100


Path = tuple[str | int, ...]


def _long_names(doc: Document, data: object, schema: str) -> list[tuple[Path, Diagnostic]]:
    """INPUT-NAME-TOO-LONG for every mapping key longer than `MAX_NAME_CHARS`, and in a forest
    file (which holds nothing but ids and names) every string value too."""
    out: list[tuple[Path, Diagnostic]] = []
    values = schema == "forest"

    def walk(node: object, path: list[str | int]) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if len(k) > MAX_NAME_CHARS:
                    out.append(((*path, k), _too_long(doc, [*path, k], k, key=True)))
                walk(v, [*path, k])
        elif isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, [*path, i])
        elif values and isinstance(node, str) and len(node) > MAX_NAME_CHARS:
            out.append((tuple(path), _too_long(doc, path, node, key=False)))

    walk(data, [])
    return out


def _too_long(doc: Document, path: list[str | int], name: str, *, key: bool) -> Diagnostic:
    return error("INPUT-NAME-TOO-LONG", doc.span(path, key=key),
                 f"a name of {len(name)} characters ({shorten(name, 40)!r}); "
                 f"names and ids have at most {MAX_NAME_CHARS}", "write a shorter name")


def validate(doc: Document, schema: str) -> list[Diagnostic]:
    """Every schema violation of `doc`, one diagnostic per place, in document order; a name
    beyond `MAX_NAME_CHARS` is reported alone, before the schema echoes it."""
    return [d for _, d in findings(doc, schema)]


def findings(doc: Document, schema: str) -> list[tuple[Path, Diagnostic]]:
    """`validate`, each diagnostic with the path of the value it is about: the loader leaves
    out the one species or deck entry a finding lies in, not the whole file."""
    data = plain(doc.data)
    long_names = _long_names(doc, data, schema)
    if long_names:
        return long_names
    if _accepted(data, schema):
        return []
    leaves = _leaves(data, schema)
    renames = _renames(leaves)
    if renames:  # read again as if each misspelt key were spelt right: its mistake said once
        fixed = copy.deepcopy(data)
        for path, (bad, good) in renames.items():
            node = fixed
            for step in path:
                node = node[step]
            node[good] = node.pop(bad)
        again = [leaf for leaf in _leaves(fixed, schema)
                 if not any(tuple(leaf.absolute_path)[:len(p) + 1] == (*p, good)
                            for p, (_, good) in renames.items())
                 and not (leaf.validator == "additionalProperties"
                          and tuple(leaf.absolute_path) in renames)]
        leaves = sorted([*(leaf for leaf in leaves if leaf.validator == "additionalProperties"
                           and tuple(leaf.absolute_path) in renames), *again],
                        key=lambda e: list(map(str, e.path)))
    flagged = _flagged_keys(leaves, data)
    return [(tuple(leaf.absolute_path), _describe(leaf, doc, data)) for leaf in leaves
            if not _misspelt(leaf, flagged)]


def _leaves(data: object, schema: str) -> list[ValidationError]:
    """The schema's findings of `data`, the most specific of each, one a place and kind."""
    seen: set[tuple[str, ...]] = set()
    leaves = []
    for err in sorted(validator(schema).iter_errors(data), key=lambda e: list(map(str, e.path))):
        leaf = _leaf(err)
        key = tuple(map(str, leaf.absolute_path)) + (str(leaf.validator),)
        if key not in seen:
            seen.add(key)
            leaves.append(leaf)
    return leaves


def _renames(leaves: list[ValidationError]) -> dict[Path, tuple[str, str]]:
    """Mappings with an unknown key that misspells a known one not there (`expanson_of` for
    `expansion_of`): what the mapping would say spelt right decides what else is wrong, so an
    expansion is not told to add `standalone:`. One rename a mapping, the first."""
    out: dict[Path, tuple[str, str]] = {}
    for leaf in leaves:
        if leaf.validator != "additionalProperties" or not isinstance(leaf.instance, dict):
            continue
        known = sorted(set(leaf.schema.get("properties", {})) - set(leaf.instance))
        for key in sorted(k for k in leaf.instance if k not in leaf.schema.get("properties", {})):
            close = difflib.get_close_matches(str(key), known, n=1, cutoff=0.8)
            if close:
                out[tuple(leaf.absolute_path)] = (key, close[0])
                break
    return out


def _flagged_keys(leaves: list[ValidationError], data: object) -> dict[Path, list[str]]:
    """The keys of each mapping that a finding reports as unknown or as an invalid name."""
    out: dict[Path, list[str]] = {}
    for leaf in leaves:
        path = tuple(leaf.absolute_path)
        if leaf.validator == "additionalProperties" and isinstance(leaf.instance, dict):
            known = leaf.schema.get("properties", {})
            out.setdefault(path, []).extend(str(k) for k in leaf.instance if k not in known)
        elif leaf.validator == "pattern" and isinstance(leaf.instance, str):
            node = data
            for step in path:
                node = node[step] if isinstance(node, (dict, list)) else None
            if isinstance(node, dict) and leaf.instance in node:  # a key (`propertyNames`)
                out.setdefault(path, []).append(leaf.instance)
    return out


def _misspelt(leaf: ValidationError, flagged: dict[Path, list[str]]) -> bool:
    """A missing key that a reported unknown key beside it misspells (`copeis:` for `copies`,
    `thai:` for `th`): the one mistake is said once, at the misspelt key."""
    if leaf.validator != "required" or "'" not in leaf.message:
        return False
    missing = leaf.message.split("'")[1]
    return bool(difflib.get_close_matches(missing, flagged.get(tuple(leaf.absolute_path), []),
                                          n=1, cutoff=0.6))


def validate_cached(doc: Document, schema: str) -> list[Diagnostic]:
    """`validate`, answered from the on-disk cache for a document whose path and text were
    validated before (the schema files are part of the cache's fingerprint of grove)."""
    text = hashlib.sha256("\n".join(doc.lines).encode()).hexdigest()
    k = disk_cache.key("valid", schema, doc.path, text)
    return disk_cache.cached("valid", k, lambda: validate(doc, schema))
