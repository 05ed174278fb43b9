"""Seeded fuzzing of what users hand grove: forest files, game records and card files, mutated.

Hostile and careless input must end in diagnostics, never a traceback, quickly and in little
memory. Each case takes a known-good file (the forest examples of docs/formats.md and examples/, a
game record, the files of the Alpine expansion and of the standalone test edition meadow), applies
one to three mutations (a line deleted, duplicated or re-indented; a value swapped for junk, a YAML
tag, an anchor and aliases; a character inserted; a cut at a random byte) and reads it in-process
as `grove score` / `grove replay` and the card-set loader and checker would (`fuzz_worker.py` says
exactly what runs and what must hold). Each case runs under a CPU-time limit that interrupts it
and a bound on the peak resident memory it adds; a worker per core runs its share of the cases
(one worker under pytest-xdist, whose own workers keep every core busy already).

A source file gets cases in proportion to its lines (`fuzz_worker.by_lines`), so every line of
every file is mutated about as often. By default 10,000 cases, the floor issue 13 set: 4,400
forest files and records (about 420 for the largest example forest, 1,630 for the record) and
5,600 card files (1,420 for the largest). `GROVE_FUZZ=N` runs N times as many,
`GROVE_FUZZ_SEED` another seed. A failure names its case: `python tests/fuzz_worker.py --show
forest:1234` shows the file and what grove does with it.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import fuzz_worker as fw
import pytest

from grove import api
from grove.dsl.diagnostics import DiagnosticError

REPO = Path(__file__).resolve().parents[1]
SCALE = max(1, int(os.environ.get("GROVE_FUZZ", "1") or 1))
SEED = int(os.environ.get("GROVE_FUZZ_SEED", "13") or 13)
FOREST_CASES = 4_400 * SCALE
CARD_CASES = 5_600 * SCALE
# more workers than cores only take turns: under xdist every core runs a test already, and a
# second worker would start Python, play the record's game and warm the card sets once more
WORKERS = 1 if os.environ.get("PYTEST_XDIST_WORKER") else max(1, min(os.cpu_count() or 1, 4))
WORKER_TIMEOUT = 1800 * SCALE  # seconds for a worker's whole share: a hang is caught per case


def _run_workers(spec_for: list[dict], tmp: Path) -> list[dict]:
    env = {**os.environ, "GROVE_CACHE_DIR": str(tmp / "cache"), "GROVE_FUZZ_SEED": str(SEED),
           "PYTHONPATH": os.pathsep.join([str(REPO / "tests"), os.environ.get("PYTHONPATH", "")])}
    procs = [subprocess.Popen([sys.executable, str(REPO / "tests" / "fuzz_worker.py"), "--run",
                               json.dumps(spec)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, env=env, cwd=tmp) for spec in spec_for]
    reports = []
    for p in procs:
        out, err = p.communicate(timeout=WORKER_TIMEOUT)
        assert p.returncode == 0, f"a fuzz worker ended with {p.returncode}:\n{err[-3000:]}"
        reports.append(json.loads(out.strip().splitlines()[-1]))
    return reports


def test_mutated_forest_files_records_and_card_files(tmp_path: Path) -> None:
    specs = [{"forest": [w, FOREST_CASES, WORKERS], "card": [w, CARD_CASES, WORKERS]}
             for w in range(WORKERS)]
    reports = _run_workers(specs, tmp_path)
    failures = [f for r in reports for f in r["failures"]]
    assert not failures, "\n\n".join(
        f"{f['kind']} case {f['n']} (from {f['source']}, GROVE_FUZZ_SEED={SEED}): {f['problem']}"
        f"\n--- the file:\n{f['text']}" for f in failures)
    done = {k: sum(r["counts"].get(k, 0) for r in reports) for k in ("forest", "card")}
    assert done == {"forest": FOREST_CASES, "card": CARD_CASES}
    known: dict[str, int] = {}
    for r in reports:
        for sig, (count, _first) in r["known"].items():
            known[sig] = known.get(sig, 0) + count
    peak = ("each case's own peak" if all(r["peak_resets"] for r in reports)
            else "the worker's lifetime peak (its high-water mark cannot be reset here)")
    print(f"\nfuzz: {done} cases on {WORKERS} workers, memory by {peak}; slowest case "
          f"{max(r['max_seconds'] for r in reports):.2f} s CPU, largest peak growth "
          f"{max(r['max_mb'] for r in reports):.1f} MB; known tracebacks: {known}")


def test_the_bounds_catch_what_they_bound() -> None:
    """The bounds are real: a case that spins, one that waits, one that holds more than
    `CASE_MB`, one that runs into the address-space cap and one that raises are each reported;
    a quiet one is not."""
    out = subprocess.run([sys.executable, str(REPO / "tests" / "fuzz_worker.py"), "--probe",
                          "0.3"], capture_output=True, text=True, timeout=120, check=True)
    spin, sleep, hog, runaway, crash, quiet, capped = json.loads(
        out.stdout.strip().splitlines()[-1])
    assert spin.startswith("still running after 0.3 s of CPU time"), spin
    assert sleep.startswith("took"), sleep
    assert hog.startswith("peak resident memory grew by"), hog
    if capped:  # else the container forbids the cap, and the runaway case is not run
        assert runaway.startswith("MemoryError") or "still running" in runaway, runaway
    assert crash.startswith("KeyError"), crash
    assert quiet is None


@pytest.mark.parametrize("seed", range(20))
def test_mutations_are_reproducible(seed: int) -> None:
    text = fw.forest_sources()[0][1]
    assert fw.mutate(text, random.Random(seed)) == fw.mutate(text, random.Random(seed))
    rng = fw.case_rng(SEED, "card", seed)
    assert rng.random() == fw.case_rng(SEED, "card", seed).random()


@pytest.mark.parametrize(("raw", "where", "code"), [
    ("edition: !!set base\nplayers: []\n", (1, 10), "YAML-TAG"),
    ("edition: base\nplayers:\n  - !!python/object/apply:os.system name: Ana\n", (3, 5),
     "YAML-TAG"),
    ("edition: base\nplayers: !!str [a]\n", (2, 10), "YAML-TAG"),
    ("edition: base\nwith: &a [*a, *a]\nplayers: []\n", (2, 11), "YAML-ALIAS-LIMIT"),
    # a plain tag its value does not fit: KeyError and IndexError in the fast path's scalars
    ("edition: !!bool base\nplayers: []\n", (1, 10), "YAML-TAG"),
    ("edition: base\nplayers:\n  - !!float name: Ana\n    forest: []\n", (3, 5), "YAML-TAG"),
    # a key a merge key brought in has no position of its own: KeyError and TypeError in
    # `Document.span`; it is placed at the merge
    ("edition: base\nplayers:\n  - name: Ana\n    forest: []\n"
     "  - {<<: {a: 1}, name: Bo, forest: []}\n", (5, 6), "SCHEMA-UNKNOWN-FIELD"),
    ("edition: base\nplayers:\n  - name: Ana\n    forest: []\n  - {<<: {card: x}}\n", (5, 6),
     "SCHEMA-UNKNOWN-FIELD"),
])
def test_what_the_fuzz_found(tmp_path: Path, raw: str, where: tuple[int, int], code: str):
    """Each of these once ended in a traceback (AttributeError, KeyError, TypeError, IndexError,
    RecursionError) inside the loaders or after them; each is now refused at its place."""
    path = tmp_path / "forest.yaml"
    path.write_text(raw, encoding="utf-8")
    with pytest.raises(DiagnosticError) as exc:
        api.score_file(str(path))
    d = next(d for d in exc.value.diagnostics if d.code == code)
    assert (d.code, d.span.line, d.span.col) == (code, *where)
