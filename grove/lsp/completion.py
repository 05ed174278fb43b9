"""What may be typed at the cursor: schema keys, and inside a rule what the grammar accepts.

Keys come from the published JSON Schemas, walked along the key path to the cursor. Inside a
rules field, Lark's interactive parser is fed the rule up to the word being typed and says
which terminals it accepts there; a keyword is offered as itself, a NAME as the names that fit
(species, groups, type symbols and hosts the card can see, with the species of the editions it
expands also qualified, `base:red_fox`), `symbol(` as the tree symbols, a slot as the slot ids.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from lsprotocol import types

from grove.compiler.names import NameScope
from grove.dsl.ast import FIELDS
from grove.dsl.parser import _START
from grove.schema import SCHEMA_DIR

SCHEMA_OF_FILE = {"edition.yaml": "edition", "deck.yaml": "deck"}
_PARTIAL = re.compile(r"[a-z0-9_:]*$")
# value fields of a species entry whose values are names of the edition
_NAME_FIELDS = {"types": "type", "groups": "group", "symbol": "tree", "kind": "kind"}


@cache
def _schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))


def _resolve(node: dict[str, Any], doc: str) -> tuple[dict[str, Any], str]:
    """Follow `$ref` (within a schema file or into another one) to the node it names."""
    for _ in range(20):
        ref = node.get("$ref")
        if not ref:
            return node, doc
        file, _, pointer = ref.partition("#")
        if file:
            doc = file.split("/")[-1].removesuffix(".schema.json")
        target: Any = _schema(doc)
        for part in pointer.strip("/").split("/") if pointer.strip("/") else ():
            target = target[part]
        node = target
    return node, doc


def _branches(node: dict[str, Any], doc: str) -> list[tuple[dict[str, Any], str]]:
    node, doc = _resolve(node, doc)
    out = [(node, doc)]
    for k in ("oneOf", "anyOf", "allOf"):
        for sub in node.get(k, ()):
            out.extend(_branches(sub, doc))
    return out


def _child(node: dict[str, Any], doc: str, step: str) -> list[tuple[dict[str, Any], str]]:
    out: list[tuple[dict[str, Any], str]] = []
    for n, d in _branches(node, doc):
        if step == "[]":
            if isinstance(n.get("items"), dict):
                out.append((n["items"], d))
        elif step in n.get("properties", {}):
            out.append((n["properties"][step], d))
        elif isinstance(n.get("additionalProperties"), dict):
            out.append((n["additionalProperties"], d))
    return out


def schema_keys(schema: str, path: tuple[str, ...]) -> dict[str, str]:
    """key -> its description, for the mapping at `path` of a document of `schema`."""
    nodes = [(_schema(schema), schema)]
    for step in path:
        nodes = [c for n, d in nodes for c in _child(n, d, step)]
    keys: dict[str, str] = {}
    for n, d in nodes:
        for b, _ in _branches(n, d):
            for k, v in b.get("properties", {}).items():
                desc = _resolve(v, d)[0].get("description", "") if isinstance(v, dict) else ""
                keys.setdefault(k, v.get("description", "") if isinstance(v, dict) and
                                v.get("description") else desc)
    return keys


def schema_values(schema: str, path: tuple[str, ...]) -> list[str]:
    """The enum values the schema allows at `path` (booleans as true/false)."""
    nodes = [(_schema(schema), schema)]
    for step in path:
        nodes = [c for n, d in nodes for c in _child(n, d, step)]
    out: list[str] = []
    for n, d in nodes:
        for b, _ in _branches(n, d):
            out += [str(v) for v in b.get("enum", ())]
            if b.get("type") == "boolean":
                out += ["true", "false"]
    return list(dict.fromkeys(out))


def schema_for(file_name: str, text: str) -> str:
    if file_name in SCHEMA_OF_FILE:
        return SCHEMA_OF_FILE[file_name]
    return "forest" if re.search(r"^players\s*:", text, re.M) else "cardset"


# ---- rules ---------------------------------------------------------------------------------
@cache
def _keyword_terminals() -> dict[str, str]:
    """terminal name -> keyword text, for every keyword of the grammar."""
    from grove.compiler import lark_tables

    out = {}
    for t in lark_tables.rules().terminals:
        if t.pattern.type == "str":
            out[t.name] = t.pattern.value
    return out


@cache
def grammar_keywords() -> frozenset[str]:
    return frozenset(v for v in _keyword_terminals().values() if v.isalpha())


def accepted(field: str, text: str) -> tuple[set[str], list[Any]] | None:
    """The terminals the grammar accepts after `text` in `field`, and the tokens read; None
    where `text` itself does not parse as the start of a rule."""
    from lark.exceptions import LarkError

    from grove.compiler import lark_tables

    if field not in _START:
        return None
    try:
        ip = lark_tables.rules().parse_interactive(text, start=_START[field])
        tokens = []
        for tok in ip.iter_parse():
            tokens.append(tok)
        return set(ip.accepts()), tokens
    except LarkError:
        return None


def name_items(scope: NameScope, own: str) -> list[tuple[str, str, types.CompletionItemKind]]:
    """(name, detail, kind) of every name a rule of edition `own` can use."""
    out: list[tuple[str, str, types.CompletionItemKind]] = []
    for sid, defs in sorted(scope.species_by_id.items()):
        d = defs[0]
        out.append((sid, f"{d.names.get('en', sid)} ({d.kind}, {d.edition})",
                    types.CompletionItemKind.Class))
    for key, d in sorted(scope.species.items()):
        if d.edition != own:  # the editions it sees, qualified
            out.append((key, f"{d.names.get('en', d.id)} ({d.kind}, {d.edition})",
                        types.CompletionItemKind.Class))
    for table, label, kind in ((scope.groups, "group", types.CompletionItemKind.Enum),
                               (scope.types, "type symbol", types.CompletionItemKind.EnumMember),
                               (scope.hosts, "host", types.CompletionItemKind.Struct)):
        for k, v in sorted(table.items()):
            out.append((k, f"{label}: {v.names.get('en', k)}", kind))
    return out


def _slot_ids(scope: NameScope) -> list[str]:
    return sorted({s.id for h in scope.hosts.values() for s in h.slots})


def rule_items(field: str, value: str, scope: NameScope | None, own: str
               ) -> list[types.CompletionItem] | None:
    """Completions inside a rule whose text up to the cursor is `value`."""
    partial = _PARTIAL.search(value)
    typed = partial.group() if partial else ""
    before = value[: len(value) - len(typed)]
    found = accepted(field, before)
    if found is None:
        return None
    terms, tokens = found
    keywords = _keyword_terminals()
    items: list[types.CompletionItem] = []
    for t in sorted(terms):
        word = keywords.get(t)
        if word is not None:
            items.append(types.CompletionItem(word, kind=types.CompletionItemKind.Keyword,
                                              detail="keyword"))
    if "NAME" in terms and scope is not None:
        last = [str(t) for t in tokens[-2:]]
        if last == ["symbol", "("]:
            for k, v in sorted(scope.tree_symbols.items()):
                items.append(types.CompletionItem(
                    k, kind=types.CompletionItemKind.Color,
                    detail=f"tree symbol: {v.names.get('en', k)}"))
        elif field == "placement" and (not tokens or str(tokens[-1]) in (";", "share", "join")):
            for k in _slot_ids(scope):
                items.append(types.CompletionItem(k, kind=types.CompletionItemKind.Field,
                                                  detail="slot"))
        else:
            for name, detail, kind in name_items(scope, own):
                items.append(types.CompletionItem(name, kind=kind, detail=detail))
    if "INT" in terms:
        items.append(types.CompletionItem("1", kind=types.CompletionItemKind.Value,
                                          detail="a number"))
    return [i for i in items if i.label.startswith(typed)] if typed else items


def value_items(key: str, scope: NameScope | None, schema: str, path: tuple[str, ...]
                ) -> list[types.CompletionItem]:
    """Completions for a plain value: the schema's choices, or names of the edition."""
    items = [types.CompletionItem(v, kind=types.CompletionItemKind.Value)
             for v in schema_values(schema, (*path, key))]
    what = _NAME_FIELDS.get(key) if schema == "cardset" else None
    if scope is not None:
        if what == "type":
            names = scope.types
        elif what == "group":
            names = scope.groups
        elif what == "tree":
            names = scope.tree_symbols
        elif what == "kind":
            kinds = ["dweller", "cave", *sorted({h.from_kind for h in scope.hosts.values()
                                                 if h.from_kind})]
            return [types.CompletionItem(k, kind=types.CompletionItemKind.EnumMember)
                    for k in dict.fromkeys(kinds)]
        elif schema == "deck" and key in ("card", "top", "bottom", "left", "right"):
            names = {sid: d[0] for sid, d in scope.species_by_id.items()}
        else:
            names = {}
        for k, v in sorted(names.items()):
            items.append(types.CompletionItem(k, kind=types.CompletionItemKind.EnumMember,
                                              detail=v.names.get("en", k)))
    return items


def key_items(schema: str, path: tuple[str, ...], present: set[str]) -> list[types.CompletionItem]:
    """The keys the mapping at `path` may still take, in the schema's order (an entry's `id`
    first, then its names and kind), which `sort_text` keeps in a client that sorts by label."""
    return [types.CompletionItem(k, kind=types.CompletionItemKind.Property, detail=desc or None,
                                 insert_text=f"{k}: ", sort_text=f"{n:03d}")
            for n, (k, desc) in enumerate(schema_keys(schema, path).items()) if k not in present]


def is_rule_field(key: str | None, path: tuple[str, ...], schema: str) -> bool:
    return schema == "cardset" and key in FIELDS and path[-1:] == ("[]",)


_DECK_SPECIES = re.compile(r"(?:card|top|bottom|left|right)\s*:\s*\[?\s*([a-z0-9_:]*)$")
_DECK_SYMBOL = re.compile(r"(?:top|bottom|left|right)\s*:\s*\[\s*[a-z0-9_:]+\s*,\s*([a-z0-9_]*)$")


def deck_items(head: str, scope: NameScope | None, own: str) -> list[types.CompletionItem] | None:
    """In deck.yaml, written in flow style (`- {card: linden, count: 9}`, `left: [red_fox, oak]`):
    the species after `card:` or a side, the tree symbol after a half's species; None elsewhere."""
    if scope is None:
        return None
    m = _DECK_SYMBOL.search(head)
    if m:
        return [types.CompletionItem(k, kind=types.CompletionItemKind.Color,
                                     detail=f"tree symbol: {v.names.get('en', k)}")
                for k, v in sorted(scope.tree_symbols.items()) if k.startswith(m.group(1))]
    m = _DECK_SPECIES.search(head)
    if m:
        return [types.CompletionItem(n, kind=k, detail=d) for n, d, k in name_items(scope, own)
                if k == types.CompletionItemKind.Class and n.startswith(m.group(1))]
    return None
