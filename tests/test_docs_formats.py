"""docs/formats.md's forest-file section, run: its examples are held to what grove does today.

A reader copies these examples to start a forest of their own, so each must still work: every
fenced YAML block of the section "Forest files (`grove score`)" that starts with `edition:`, and
every JSON block that is no score output, is a forest and is scored with `grove.api.score_file`.
A forest followed by a plain fenced block whose lines start `forest.yaml:` is a broken example:
the diagnostics grove raises must be exactly the `file:line:col: severity CODE: message` lines
shown (position, code and wording), in order. A forest followed by a JSON block holding `"winners"`
must score to exactly that JSON. Every FOREST-* code of docs/diagnostics.md needs an example.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from grove import api
from grove.dsl.diagnostics import DiagnosticError

REPO = Path(__file__).resolve().parents[1]
DOC = REPO / "docs" / "formats.md"
HEADING = "## Forest files (`grove score`)"
FENCE = re.compile(r"^```(?P<lang>\w*)[ \t]*\n(?P<body>.*?)^```[ \t]*$", re.M | re.S)
DIAG = re.compile(r"^forest\.(?:yaml|json):(\d+):(\d+): (error|warning|info) ([A-Z][A-Z0-9-]*): "
                  r"(.*)$", re.M)


@dataclass(frozen=True)
class Block:
    lang: str
    body: str
    line: int  # line of the opening fence in docs/formats.md, for test ids and messages


@dataclass(frozen=True)
class Example:
    block: Block
    diagnostics: tuple[tuple[int, int, str, str, str], ...]  # empty: the forest must score
    output: dict[str, Any] | None  # the documented `grove score --json`, if shown


def _section() -> tuple[str, int]:
    """The forest-file section's text and the doc line it starts on (1-based)."""
    text = DOC.read_text(encoding="utf-8")
    start = text.find(HEADING)
    if start < 0:
        return "", 0
    rest = text[start + len(HEADING):]
    nxt = re.search(r"^## ", rest, re.M)
    end = start + len(HEADING) + (nxt.start() if nxt else len(rest))
    return text[start:end], text.count("\n", 0, start) + 1


def _is_output(b: Block) -> bool:
    return b.lang == "json" and '"winners"' in b.body


def _is_forest(b: Block) -> bool:
    return (b.lang == "yaml" and b.body.startswith("edition:")) or (
        b.lang == "json" and not _is_output(b))


def _examples() -> list[Example]:
    text, first = _section()
    blocks = [Block(m["lang"], m["body"], first + text.count("\n", 0, m.start()))
              for m in FENCE.finditer(text)]
    out = []
    for i, b in enumerate(blocks):
        if not _is_forest(b):
            continue
        nxt = blocks[i + 1] if i + 1 < len(blocks) else None
        diags: tuple[tuple[int, int, str, str, str], ...] = ()
        output = None
        if nxt is not None and nxt.lang == "" and nxt.body.startswith("forest."):
            diags = tuple((int(a), int(c), s, code, msg) for a, c, s, code, msg
                          in DIAG.findall(nxt.body))
        elif nxt is not None and _is_output(nxt):
            output = json.loads(nxt.body)
        out.append(Example(b, diags, output))
    return out


EXAMPLES = _examples()


def test_section_is_there_with_examples_of_every_edition():
    text, _ = _section()
    assert text, f"{DOC} lacks the section {HEADING!r}"
    assert "DESIGN.md" not in text  # the file it once pointed to does not exist
    good = [e for e in EXAMPLES if not e.diagnostics]
    editions = {re.match(r"edition: (\w+)", e.block.body)[1] for e in good
                if e.block.lang == "yaml"}
    assert {"base", "dartmoor", "smoky_mountains"} <= editions
    bodies = "\n".join(e.block.body for e in good)
    for needle in ("sapling: true", "shrub:", "moor:", "universal_moor: true", "river: true",
                   "river: creek", "universal_river: true", "cave_card:", "woodland_edge:",
                   "symbol:", "bottom_1:", "top_2:", "with: [alpine, woodland_edge]",
                   "bottom: [smallmouth_bass, yellow_perch]", "bottom: [brook_trout]",
                   "top: [[emerald_damselfly, southern_damselfly], grey_heron]"):
        assert needle in bodies, f"no working example shows {needle!r}"
    assert any(e.block.lang == "json" for e in good), "no JSON forest example"
    assert any(e.output for e in EXAMPLES), "no `grove score --json` sample"


def test_every_forest_code_has_a_broken_example():
    table = (REPO / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    codes = set(re.findall(r"\bFOREST-[A-Z-]*[A-Z]\b", table))
    shown = {d[3] for e in EXAMPLES for d in e.diagnostics}
    assert codes and codes <= shown, f"no example for {sorted(codes - shown)}"


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: f"formats.md:{e.block.line}")
def test_example(example: Example, tmp_path: Path):
    path = tmp_path / ("forest.json" if example.block.lang == "json" else "forest.yaml")
    path.write_text(example.block.body, encoding="utf-8")
    where = f"{DOC.name}:{example.block.line}"
    if not example.diagnostics:
        try:
            result = api.score_file(str(path))
        except DiagnosticError as exc:
            pytest.fail(f"{where}: the example does not score: "
                        + "; ".join(f"{d.code} {d.message}" for d in exc.diagnostics))
        if example.output is not None:
            assert result == example.output, f"{where}: `grove score --json` prints otherwise"
        return
    with pytest.raises(DiagnosticError) as exc:
        api.score_file(str(path))
    got = [(d.span.line if d.span else 0, d.span.col if d.span else 0, str(d.severity), d.code,
            d.message) for d in exc.value.diagnostics]
    assert got == list(example.diagnostics), f"{where}: grove reports otherwise"
