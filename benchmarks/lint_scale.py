"""Cold `grove lint` of generated card sets of 500, 2,000 and 8,000 species: the time per species.

A card set of many species is what an author's own set grows into, and lint is the command they
run on every save. Each figure is one `grove lint` process with the on-disk cache off
(`GROVE_NO_CACHE=1`), so it reads, validates and checks every file, and prints the sheets' and
rules text's findings; the time per species should stay flat as the set grows (it grew with
the square of the species count before December 2026: 7 s for 500 species, 307 s for 10,000).

The sets are written by `write_set`, which tests/test_lint_scale.py uses too: one standalone
edition, a tree for every eighth species, the rest split cards of two dwellers, with score
rules of the shapes the shipped editions use (counts of a type, a species and a tree symbol,
majorities, thresholds and sets), all of which lint checks.

    python -m benchmarks --only lint_scale
    python -m benchmarks.lint_scale 2000     # one cold lint of 2,000 species, timed
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

SIZES = (500, 2_000, 8_000)
PER_FILE = 250  # species per file: a card file is read up to 512 KiB
TYPES = ("bird", "plant", "insect", "mammal")
SYMBOLS = ("oak", "ash", "elm", "yew")
LANGS = ("en", "de", "it", "th")


def _names(word: str) -> str:
    return "{" + ", ".join(f"{lang}: {word}" for lang in LANGS) + "}"


def _edition(eid: str) -> str:
    symbols = "\n".join(f"    {s}:\n      names: {_names(s.title())}\n"
                        f"      plural: {_names(s.title() + 's')}" for s in SYMBOLS)
    types = "\n".join(f"    {t}:\n      names: {_names(t.title())}\n"
                      f"      plural: {_names(t.title() + 's')}\n"
                      f"      article: {{de: m, it: m}}\n      classifier: {{th: ตัว}}"
                      for t in ("tree", *TYPES))
    return f"""id: {eid}
names: {_names(eid.title())}
standalone: true
symbols:
  tree:
{symbols}
  type:
{types}
hosts:
  tree:
    names: {_names("Tree")}
    plural: {_names("Trees")}
    article: {{de: m, it: m}}
    classifier: {{th: ต้น}}
    from: tree
    reveal: 1
    category: trees
    slots:
      - {{id: top, side: top}}
      - {{id: bottom, side: bottom}}
      - {{id: left, side: left}}
      - {{id: right, side: right}}
setup:
  hand_size: 6
  hand_limit: 10
  clearing_limit: 10
  winter_cards: 2
  removed:
    - {{with: [], counts: {{2: 0, 3: 0, 4: 0}}}}
scorepad:
  - {{id: trees, names: {_names("Trees")}}}
  - {{id: top, names: {_names("Top")}}}
  - {{id: bottom, names: {_names("Bottom")}}}
  - {{id: left, names: {_names("Left")}}}
  - {{id: right, names: {_names("Right")}}}
  - {{id: cave, names: {_names("Cave")}}}
"""


def _is_tree(i: int) -> bool:
    return i % 8 == 0


def _score(i: int, trees: list[int]) -> str:
    """A rule of one of the shapes lint weighs (each names a type, a species or a symbol)."""
    other = f"s{(i * 7 + 3) % max(i, 1)}"  # an earlier species, spread over the set
    tree = f"s{trees[i % len(trees)]}"
    return (f"2 per {TYPES[i % 4]}",
            f"5 if count {tree} >= 2",
            f"1 per {other}",
            f"5 if distinct {TYPES[(i + 1) % 4]} species >= 3",
            f"3 if most {tree} else 1",
            f"10 if count {TYPES[(i + 2) % 4]} >= 4",
            f"sets of distinct {TYPES[(i + 3) % 4]} table [0, 3, 6, 12]",
            "1 per card with own symbol")[i % 8]


def _species(i: int, trees: list[int]) -> str:
    word = f"Species {i}"
    if _is_tree(i):
        return (f"  - id: s{i}\n    names: {_names(word)}\n    plural: {_names(word + 's')}\n"
                f"    article: {{de: f, it: m}}\n    kind: tree\n    types: [tree]\n"
                f"    symbol: {SYMBOLS[i % 4]}\n    cost: {1 + i % 2}\n    copies: 2\n"
                f"    score: {_score(i + 1, trees) if i else '1 per bird'}\n")
    return (f"  - id: s{i}\n    names: {_names(word)}\n    plural: {_names(word + 's')}\n"
            f"    article: {{de: n, it: m}}\n    kind: dweller\n    types: [{TYPES[i % 4]}]\n"
            f"    cost: {i % 3}\n    copies: 2\n"
            + ("    effect: draw 1\n" if i % 5 == 0 else "")
            + f"    score: {_score(i, trees)}\n")


def write_set(folder: Path, species: int, eid: str = "scale") -> Path:
    """A standalone edition `eid` of `species` species in `folder` (created); returns it."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "edition.yaml").write_text(_edition(eid), encoding="utf-8")
    trees = [i for i in range(species) if _is_tree(i)]
    dwellers = [i for i in range(species) if not _is_tree(i)]
    for start in range(0, species, PER_FILE):
        body = "".join(_species(i, trees) for i in range(start, min(species, start + PER_FILE)))
        (folder / f"species_{start // PER_FILE:03d}.yaml").write_text(
            f"edition: {eid}\nspecies:\n{body}", encoding="utf-8")
    cards = [f"  - {{card: s{i}, count: 2}}\n" for i in trees]
    for a, b in zip(dwellers[::2], dwellers[1::2], strict=False):
        cards.append(f"  - {{top: [s{a}, {SYMBOLS[a % 4]}], bottom: [s{b}, {SYMBOLS[b % 4]}], "
                     f"count: 2}}\n")
    if len(dwellers) % 2:
        d = dwellers[-1]
        cards.append(f"  - {{top: [s{d}, {SYMBOLS[d % 4]}], bottom: [s{d}, {SYMBOLS[d % 4]}]}}\n")
    (folder / "deck.yaml").write_text(f"edition: {eid}\ncards:\n{''.join(cards)}",
                                      encoding="utf-8")
    return folder


def _grove() -> str:
    exe = Path(sys.executable).parent / "grove"
    return str(exe) if exe.exists() else shutil.which("grove") or "grove"


def cold_lint(folder: Path) -> tuple[float, int]:
    """Seconds of one `grove lint FOLDER` process with the cache off, and its exit code."""
    env = {k: v for k, v in os.environ.items() if k not in ("GROVE_CACHE_DIR", "GROVE_CARDS")}
    env["GROVE_NO_CACHE"] = "1"
    t0 = time.perf_counter()
    proc = subprocess.run([_grove(), "lint", str(folder)], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                          check=False)
    return time.perf_counter() - t0, proc.returncode


def bench_lint_scale(opts: Any) -> dict[str, Any]:
    print("== cold grove lint of generated card sets (GROVE_NO_CACHE=1): time per species")
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="grove-lint-scale-") as tmp:
        for n in SIZES:
            folder = write_set(Path(tmp) / f"s{n}", n)
            seconds, code = cold_lint(folder)
            per = seconds / n
            print(f"   {n:6d} species   {seconds:8.2f} s   {per * 1e3:7.2f} ms per species"
                  f"   (exit {code})")
            out[str(n)] = {"seconds": round(seconds, 3), "ms_per_species": round(per * 1e3, 3)}
    return {"lint_scale": out}


if __name__ == "__main__":
    n = int(sys.argv[1]) if sys.argv[1:] else 2_000
    with tempfile.TemporaryDirectory(prefix="grove-lint-scale-") as tmp:
        seconds, code = cold_lint(write_set(Path(tmp) / f"s{n}", n))
    print(f"{n} species: {seconds:.2f} s ({seconds / n * 1e3:.2f} ms per species), exit {code}")
