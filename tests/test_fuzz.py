"""Seeded fuzzing of what users hand grove: forest files, game records and card files, mutated.

Hostile and careless input must end in diagnostics, never a traceback, and quickly. Each case
takes a known-good file (the forest examples of docs/formats.md and examples/, a game record, the
Alpine card files), applies one to three mutations (a line deleted, duplicated or re-indented; a
value swapped for junk, a YAML tag, an anchor and alias; bytes inserted; a cut at a random byte),
and reads it as `grove score` or `grove lint` would. Any exception other than `DiagnosticError`,
or a case slower than `LIMIT` seconds, fails with the seed and the mutated text, so it can be
reproduced.

The default run is short; `GROVE_FUZZ=N` runs N times as many cases (`GROVE_FUZZ=10` gives more
than 10,000) and `GROVE_FUZZ_SEED` picks another seed.
"""

from __future__ import annotations

import os
import random
import re
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from dsl.diagnostics import DiagnosticError
from grove import api

REPO = Path(__file__).resolve().parents[1]
SCALE = max(1, int(os.environ.get("GROVE_FUZZ", "1") or 1))
SEED = int(os.environ.get("GROVE_FUZZ_SEED", "13") or 13)
FOREST_CASES = 1200 * SCALE
CARD_CASES = 50 * SCALE
LIMIT = 10.0  # seconds a single case may take

JUNK = ["", "~", "null", "true", "-1", "1e999", "0x1F", "[", "{", "]", "}", "'", '"', ":", "- x",
        "? x", "|", ">", "%", "@x", "`x`", "a: b: c", "[[[[[[[[[[", "{a: {b: {c: [", "\t",
        "\u202e evil", "\x00", "x" * 3000, "&a [*a, *a]", "*nowhere", "<<: *a", "!!int x",
        "!!python/object:os.system", "!!python/name:builtins.eval", "!local x", "!!binary AA",
        "{card: }", "{card: oak, symbol: [x]}", "[[[oak]]]", "[]", "{}", "2 per", "oak:oak:oak"]
TAGS = ["!!python/object/apply:os.system ", "!!str ", "!!int ", "!!map ", "!!seq ", "!custom ",
        "!!binary ", "!!timestamp ", "!!set "]


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _value_lines(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if re.search(r"(: |- )\S", line)]


def _set_value(line: str, new: str) -> str:
    m = re.search(r"(: |- )(?=\S)", line)
    return line if m is None else line[:m.end()] + new


def mutate(text: str, rnd: random.Random) -> bytes:
    """One to three mutations of `text`, as a careless editor or a hostile user would make."""
    data: str | bytes = text
    for _ in range(rnd.randint(1, 3)):
        if isinstance(data, bytes):  # a cut is the last thing that happens to a file
            break
        lines = _lines(data)
        values = _value_lines(lines)
        op = rnd.choice(["delete", "duplicate", "indent", "junk", "tag", "alias", "bytes",
                         "cut"])
        i = rnd.randrange(len(lines))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines[i:i] = [lines[i]] * rnd.randint(1, 3)
        elif op == "indent":
            stripped = lines[i].lstrip(" ")
            lines[i] = rnd.choice([" ", "\t", "  "]) * rnd.randint(0, 6) + stripped
        elif op == "junk" and values:
            j = rnd.choice(values)
            lines[j] = _set_value(lines[j], rnd.choice(JUNK))
        elif op == "tag" and values:
            j = rnd.choice(values)
            m = re.search(r"(: |- )(?=\S)", lines[j])
            if m:
                lines[j] = lines[j][:m.end()] + rnd.choice(TAGS) + lines[j][m.end():]
        elif op == "alias" and len(values) >= 2:
            a, b = sorted(rnd.sample(values, 2))
            m = re.search(r"(: |- )(?=\S)", lines[a])
            if m:
                lines[a] = lines[a][:m.end()] + "&x " + lines[a][m.end():]
            lines[b] = _set_value(lines[b], rnd.choice(["*x", "*x", "[*x, *x, *x]", "*y"]))
        elif op == "bytes":
            pos = rnd.randrange(len(data) + 1)
            data = data[:pos] + rnd.choice(["\x00", "\ufeff", "\u202e", "\r", "\x1b[31m", "#",
                                            "\ud7ff", "\\"]) + data[pos:]
            continue
        elif op == "cut":
            raw = data.encode("utf-8")
            data = raw[:rnd.randrange(len(raw) + 1)]
            continue
        data = "\n".join(lines)
    return data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")


def _forest_sources() -> list[tuple[str, str]]:
    """Good forest files, by name: the documented examples that score, the shipped examples."""
    doc = (REPO / "docs" / "formats.md").read_text(encoding="utf-8")
    out = [(f"formats.md#{n}", m[1]) for n, m in enumerate(
        re.finditer(r"^```yaml\n(edition:.*?)^```", doc, re.M | re.S))]
    out += [(p.name, p.read_text(encoding="utf-8")) for p in sorted(
        (REPO / "examples").glob("*.yaml"))]
    return out


def _run(what: str, seed: int, text: bytes, call: Callable[[], object],
         failures: list[str]) -> None:
    start = time.monotonic()
    try:
        call()
    except DiagnosticError:
        pass
    except Exception as exc:  # noqa: BLE001 - any other exception is what this test hunts
        failures.append(f"{what} (seed {seed}): {type(exc).__name__}: {exc}\n"
                        f"{text[:2000].decode('utf-8', 'replace')}")
    took = time.monotonic() - start
    if took > LIMIT:
        failures.append(f"{what} (seed {seed}): took {took:.1f} s\n"
                        f"{text[:2000].decode('utf-8', 'replace')}")


def test_mutated_forest_files_and_records(tmp_path: Path):
    from compiler import cardset as cs
    from engine import runner

    sources = _forest_sources()
    assert len(sources) >= 8
    record = tmp_path / "record.txt"
    with open(record, "w", encoding="utf-8") as fh:
        runner.play(cs.build("dartmoor"), ["greedy", "random"], 2, record=fh)
    sources.append(("record.jsonl", record.read_text(encoding="utf-8")))
    rnd = random.Random(SEED)
    failures: list[str] = []
    for n in range(FOREST_CASES):
        name, text = sources[n % len(sources)]
        seed = rnd.randrange(2**32)
        data = mutate(text, random.Random(seed))
        path = tmp_path / ("game.jsonl" if name.endswith(".jsonl") else "forest.yaml")
        path.write_bytes(data)
        _run(name, seed, data, lambda p=path: api.score_file(str(p)), failures)
        if len(failures) >= 5:
            break
    assert not failures, "\n\n".join(failures)


def test_mutated_card_files(tmp_path: Path):
    """A copy of the Alpine expansion with one of its files mutated, linted as `grove lint`
    lints an author's folder (every step from YAML to compiled rules)."""
    folder = tmp_path / "alpine"
    shutil.copytree(REPO / "cards" / "alpine", folder)
    files = sorted(folder.glob("*.yaml"))
    originals = {p: p.read_text(encoding="utf-8") for p in files}
    rnd = random.Random(SEED + 1)
    failures: list[str] = []
    for n in range(CARD_CASES):
        target = files[n % len(files)]
        seed = rnd.randrange(2**32)
        data = mutate(originals[target], random.Random(seed))
        target.write_bytes(data)
        _run(f"alpine/{target.name}", seed, data, lambda: api.lint([str(folder)]), failures)
        target.write_text(originals[target], encoding="utf-8")
        if len(failures) >= 3:
            break
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize("seed", range(20))
def test_mutations_are_reproducible(seed: int):
    text = _forest_sources()[0][1]
    assert mutate(text, random.Random(seed)) == mutate(text, random.Random(seed))


@pytest.mark.parametrize(("raw", "where", "code"), [
    ("edition: !!set base\nplayers: []\n", (1, 10), "YAML-TAG"),
    ("edition: base\nplayers:\n  - !!python/object/apply:os.system name: Ana\n", (3, 5),
     "YAML-TAG"),
    ("edition: base\nplayers: !!str [a]\n", (2, 10), "YAML-TAG"),
    ("edition: base\nwith: &a [*a, *a]\nplayers: []\n", (2, 11), "YAML-ALIAS-LIMIT"),
])
def test_what_the_fuzz_found(tmp_path: Path, raw: str, where: tuple[int, int], code: str):
    """Each of these once ended in a traceback (AttributeError, KeyError, TypeError,
    RecursionError) inside the round-trip loader or after it; each is now refused at its place."""
    path = tmp_path / "forest.yaml"
    path.write_text(raw, encoding="utf-8")
    with pytest.raises(DiagnosticError) as exc:
        api.score_file(str(path))
    d = exc.value.diagnostics[0]
    assert (d.code, d.span.line, d.span.col) == (code, *where)
