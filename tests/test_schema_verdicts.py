"""jsonschema-rs says whether a document is valid, jsonschema says what is wrong with it
(grove/compiler/schemas.py): the two must agree on every document, or a file jsonschema would
refuse could pass unchecked. Every card and forest file the project ships or tests with, each
valid, and seeded mutations of them at the level of their values (a value of another type or
shape, a key taken away or added, an id with a line break, a number past 64 bits, NaN), are
judged by both."""

from __future__ import annotations

import copy
import math
import random
from pathlib import Path

import pytest

from grove.compiler import schemas
from grove.compiler import yaml_source as ys
from grove.lsp.completion import SCHEMA_OF_FILE

REPO = Path(__file__).resolve().parents[1]
CASES = 1500
ODD: list[object] = [None, True, False, 0, 1, -1, 2.5, 1.0, 10**30, math.nan, math.inf, "",
                     "oak", "Oak", "oak\n", "a" * 101, "1", "x:y", "de", "de-at", "dE", [], {},
                     ["oak"], {"oak": 1}, [1, 1], ["a", "a"]]


def _schema_of(path: Path) -> str:
    if path.parent.name in ("examples", "forests"):
        return "forest"
    return SCHEMA_OF_FILE.get(path.name, "cardset")


@pytest.fixture(scope="module")
def documents() -> list[tuple[str, str, object]]:
    paths = [*sorted((REPO / "grove" / "cards").glob("*/*.yaml")),
             *sorted((REPO / "tests" / "editions").glob("*/*.yaml")),
             *sorted((REPO / "grove" / "examples").glob("*.yaml")),
             *sorted((REPO / "tests" / "editions" / "forests").glob("*.yaml"))]
    out = []
    for p in paths:
        data = ys.plain(ys.load(p).data)
        if not schemas.validator(_schema_of(p)).is_valid(data):
            continue  # a test edition's deliberate mistake: mutated below all the same
        out.append((str(p.relative_to(REPO)), _schema_of(p), data))
    return out


def _places(node: object, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _places(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _places(v, (*path, i))
    return out


def _mutated(data: object, rng: random.Random) -> object:
    data = copy.deepcopy(data)
    for _ in range(rng.choice([1, 1, 2])):
        path = rng.choice(_places(data)[1:] or [()])
        if not path:
            return rng.choice(ODD)
        parent = data
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        op = rng.choice(["odd", "odd", "drop", "add", "wrap", "copy"])
        if op == "odd":
            parent[last] = copy.deepcopy(rng.choice(ODD))
        elif op == "drop":
            del parent[last]
        elif op == "add" and isinstance(parent, dict):
            parent[rng.choice(["extra", "notes", "id", "names", "x" * 101])] = rng.choice(ODD)
        elif op == "add":
            parent.append(copy.deepcopy(parent[last]))
        elif op == "wrap":
            parent[last] = [parent[last]]
        else:  # a value in the place of a sibling
            keys = list(parent) if isinstance(parent, dict) else list(range(len(parent)))
            parent[last] = copy.deepcopy(parent[rng.choice(keys)])
    return data


def test_every_shipped_document_is_accepted_by_both(documents) -> None:
    docs = documents
    assert len(docs) > 40
    for name, schema, data in docs:
        assert schemas._accepted(data, schema), name


def test_both_judge_every_mutation_alike(documents) -> None:
    docs = documents
    rng = random.Random("verdicts")
    valid = refused = 0
    for n in range(CASES):
        name, schema, data = rng.choice(docs)
        bad = _mutated(data, rng)
        jsonschema_says = schemas.validator(schema).is_valid(bad)
        accepted = schemas._accepted(bad, schema)
        assert accepted == jsonschema_says or (not accepted and not schemas._json_values(bad)), (
            name, n, bad)
        valid += jsonschema_says
        refused += not jsonschema_says
    assert valid > 100 and refused > 500, (valid, refused)  # both verdicts well represented
