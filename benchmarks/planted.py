"""Does the strength flag find a planted change in any dweller? (`python -m benchmarks --only
planted`, or `python -m benchmarks.planted` with its own options.)

Issue 30 asks that a dweller whose scoring rule gives three times its points be flagged strong
and ranked among the three strongest of its set, under greedy against random and greedy against
greedy, while an unchanged set flags few species or none. The owners will plant changes of their
own, so one planted species proves little: this sweep plants the change in every dweller of the
base game in turn, each in a temporary copy of the edition (grove/cards is never touched), plays
the same games with each, and records the planted species' rank by strength and flag and the
other species flagged beside it. It also plays the unchanged sets docs/simulate.md names (base,
Dartmoor, Smoky Mountains, base with both expansions) and counts their flags.

The games of a run are kept in a folder (`--keep DIR`; a temporary one otherwise) and every
figure is worked out again from its Parquet files by the strength code of this checkout, so a
change of the strength rule is measured on the very same games without playing them again
(`--keep` a second time reuses every run that is there).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import tempfile
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

GAMES = 200
SEED = 3
EDITION = "base"
PROCESSES = 2  # the machine is shared: at most two processes play at once
TOP = 3  # the "among the three strongest"


@dataclass(frozen=True)
class Pairing:
    name: str
    ais: tuple[str, ...]
    rotate: bool


PAIRINGS = (Pairing("greedy-random", ("greedy", "random"), True),
            Pairing("greedy-greedy", ("greedy", "greedy"), False))


@dataclass(frozen=True)
class Unchanged:
    """An unchanged card set played as docs/simulate.md's checks play it."""

    label: str
    edition: str
    expansions: tuple[str, ...]
    ais: tuple[str, ...]
    rotate: bool
    games: int
    seed: int


UNCHANGED = (
    Unchanged("base 1000 greedy-random", "base", (), ("greedy", "random"), True, 1000, 5),
    Unchanged("base 1000 greedy-greedy", "base", (), ("greedy", "greedy"), False, 1000, 5),
    Unchanged("base 1000 random-random", "base", (), ("random", "random"), False, 1000, 5),
    Unchanged("dartmoor 400 greedy-random", "dartmoor", (), ("greedy", "random"), True, 400, 5),
    Unchanged("smoky 400 greedy-random", "smoky_mountains", (), ("greedy", "random"), True,
              400, 5),
    Unchanged("base+2 300 greedy x3", "base", ("alpine", "woodland_edge"),
              ("greedy", "greedy", "greedy"), False, 300, 5),
)


# ---- planting -------------------------------------------------------------------------------
def _point_tokens(rule: str) -> Iterator[Any]:
    """The numbers of a score rule that are points (a flat score, the N of `N per ...`, both
    scores of `N if ... else M`, every entry of a table), never a count a condition compares
    (`10 if count roe_deer >= 1`: tripling the 1 would change when it scores, not what)."""
    from lark import Token

    from grove.dsl.parser import _lark

    tree = _lark().parse(rule, start="score_rule")
    for node in tree.iter_subtrees():
        if node.data in ("flat", "per", "conditional", "int_list"):
            yield from (c for c in node.children if isinstance(c, Token) and c.type == "INT")


def multiplied(rule: str, factor: int = 3) -> str:
    """`rule` with every number of points in it times `factor`: `3 per bird` -> `9 per bird`,
    `5 if distinct bat species >= 3` -> `15 if distinct bat species >= 3`."""
    out, at = [], 0
    for tok in sorted(_point_tokens(rule), key=lambda t: t.start_pos):
        out += [rule[at:tok.start_pos], str(int(tok) * factor)]
        at = tok.end_pos
    return "".join(out) + rule[at:]


_ITEM = re.compile(r"^(?P<indent>\s*)- id: (?P<id>[\w-]+)\s*$")
_SCORE = re.compile(r"^(?P<head>\s+score: )(?P<rule>[^'\"\s].*?)\s*$")


def score_line(folder: Path, species: str) -> tuple[Path, int, str]:
    """(file, line index, rule) of a species' `score:` line in an edition folder; ValueError
    where the species is not found or its rule is not a plain one-line YAML scalar."""
    for path in sorted(folder.glob("*.yaml")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i, line in enumerate(lines):
            m = _ITEM.match(line)
            if not m or m["id"] != species:
                continue
            for j in range(i + 1, len(lines)):
                nxt = _ITEM.match(lines[j])
                if nxt and len(nxt["indent"]) <= len(m["indent"]):
                    break
                if s := _SCORE.match(lines[j]):
                    return path, j, s["rule"]
            raise ValueError(f"{path}: {species} has no one-line score rule")
    raise ValueError(f"{folder}: no species {species!r}")


def plant(species: str, into: Path, edition: str = EDITION, factor: int = 3) -> Path:
    """A copy of the shipped `edition` under `into` (a card-set folder for `GROVE_CARDS` or a
    search path) in which `species` scores `factor` times its points; returns `into`. The
    shipped cards are only read."""
    from grove.compiler.search_path import shipped_cards_dir

    copy = into / edition
    shutil.copytree(shipped_cards_dir() / edition, copy)
    path, j, rule = score_line(copy, species)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    changed = multiplied(rule, factor)
    if changed == rule:
        raise ValueError(f"{species}: its score rule `{rule}` has no points to multiply")
    lines[j] = lines[j].replace(rule, changed, 1)
    from grove.files.write import write_text

    write_text(path, "".join(lines))
    return into


# ---- playing and judging ------------------------------------------------------------------
def _complete(folder: Path, games: int, seed: int, ais: tuple[str, ...]) -> bool:
    try:
        s = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return (s.get("complete") is True and s.get("games") == games and s.get("seed") == seed
            and tuple(s.get("ai", ())) == ais)


def play(folder: Path, edition: str, expansions: tuple[str, ...], ais: tuple[str, ...],
         rotate: bool, games: int, seed: int, planted: str | None = None) -> Path:
    """One run into `folder` on one process (the sweep runs two at once), unless a complete
    run of the same games is there already."""
    if _complete(folder, games, seed, ais):
        return folder
    from grove import api
    from grove.compiler.search_path import search_path

    with tempfile.TemporaryDirectory(prefix="planted-") as tmp:
        cards = [plant(planted, Path(tmp), edition)] if planted else []
        roots = search_path(cards, env={})
        api.simulate(edition, list(expansions), list(ais), games, seed, rotate, jobs=1,
                     out=str(folder), roots=roots)
    return folder


def figures(folder: Path) -> list[dict[str, Any]]:
    """The species rows of a run worked out again from its Parquet files by this checkout's
    summary and strength code, strongest first (species nobody played last)."""
    from grove.simulation.aggregate import read_totals
    from grove.simulation.summary import SpeciesFacts, summarize

    old = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    facts = [SpeciesFacts(r["id"], r["name"], r["cost"], r["kind"]) for r in old["species"]]
    totals = read_totals(folder / "games.parquet", folder / "cards.parquet")
    rows = summarize(totals, {}, facts)["species"]
    return sorted(rows, key=lambda r: (r["strength"] is None, -(r["strength"] or 0.0)))


def judged(folder: Path, species: str) -> dict[str, Any]:
    """The planted species' rank, strength, interval and flag in a run, and the others
    flagged."""
    rows = figures(folder)
    rank = next(i for i, r in enumerate(rows, 1) if r["id"] == species)
    row = rows[rank - 1]
    return {"rank": rank, "of": sum(r["strength"] is not None for r in rows),
            "strength": row["strength"], "ci95": row["strength_ci95"], "flag": row["flag"],
            "others": {r["id"]: r["flag"] for r in rows if r["flag"] and r["id"] != species}}


def dwellers(edition: str = EDITION) -> dict[str, str]:
    """species id -> its score rule, for every species of the edition that is no host (not a
    tree) and has points to triple."""
    from grove.compiler.cardset import build
    from grove.compiler.search_path import search_path, shipped_cards_dir

    cardset = build(edition, [], search_path(env={}))
    out = {}
    for sp in sorted(cardset.species.values(), key=lambda s: s.id):
        if sp.kind == "tree":
            continue
        _, _, rule = score_line(shipped_cards_dir() / edition, sp.id)
        if multiplied(rule) != rule:
            out[sp.id] = rule
    return out


def _play_task(args: tuple) -> str:
    folder, planted, pairing, games, seed = args
    play(Path(folder), EDITION, (), pairing.ais, pairing.rotate, games, seed, planted)
    return folder


def _unchanged_task(args: tuple) -> str:
    folder, u = args
    play(Path(folder), u.edition, u.expansions, u.ais, u.rotate, u.games, u.seed)
    return folder


def sweep(keep: Path, species: list[str] | None = None, games: int = GAMES, seed: int = SEED,
          unchanged: bool = True, processes: int = PROCESSES) -> dict[str, Any]:
    """Plays what is not in `keep` yet (at most `processes` runs at once) and judges it all."""
    rules = dwellers()
    chosen = [s for s in (species or rules) if s in rules]
    tasks = [(str(keep / f"{s or 'shipped'}-{p.name}-{games}-{seed}"), s, p, games, seed)
             for s in [None, *chosen] for p in PAIRINGS]
    checks = [(str(keep / re.sub(r"\W+", "-", u.label)), u) for u in UNCHANGED] if unchanged \
        else []
    with ProcessPoolExecutor(max_workers=processes) as pool:
        list(pool.map(_play_task, tasks))
        list(pool.map(_unchanged_task, checks))
    out: dict[str, Any] = {"games": games, "seed": seed, "planted": {}, "unchanged": {}}
    for p in PAIRINGS:
        rows = figures(keep / f"shipped-{p.name}-{games}-{seed}")
        out["unchanged"][f"base {games} {p.name} (seed {seed})"] = {
            r["id"]: r["flag"] for r in rows if r["flag"]}
    for folder, u in checks:
        out["unchanged"][u.label] = {r["id"]: r["flag"] for r in figures(Path(folder))
                                     if r["flag"]}
    for s in chosen:
        out["planted"][s] = {"rule": rules[s], "tripled": multiplied(rules[s]),
                             **{p.name: judged(keep / f"{s}-{p.name}-{games}-{seed}", s)
                                for p in PAIRINGS}}
    for p in PAIRINGS:
        caught = [s for s, r in out["planted"].items()
                  if r[p.name]["flag"] == "strong" and r[p.name]["rank"] <= TOP]
        out[f"caught {p.name}"] = len(caught)
    out["dwellers"] = len(chosen)
    return out


def table(result: dict[str, Any]) -> str:
    """The sweep as text: a row per planted species, then the unchanged sets' flags."""
    def cell(j: dict[str, Any]) -> str:
        mark = "*" if j["flag"] == "strong" and j["rank"] <= TOP else " "
        flag = {"strong": "S", "weak": "w"}.get(j["flag"], "-")
        return f"{j['rank']:>3} {j['strength']:+7.1f} {flag}{mark} {len(j['others']):>2}"

    names = [p.name for p in PAIRINGS]
    lines = [f"planted: every dweller's points x3, {result['games']} games, seed {result['seed']}"
             f" (rank by strength, strength, flag S/w, * = strong and top {TOP}, others flagged)",
             f"{'species':24s}{'rule':34s}" + "".join(f"{n:>19s}" for n in names)]
    for s, r in result["planted"].items():
        lines.append(f"{s:24s}{r['rule'][:33]:34s}" + "".join(f"{cell(r[n]):>19s}" for n in names))
    for n in names:
        lines.append(f"caught ({n}): {result[f'caught {n}']} of {result['dwellers']}")
    lines.append("unchanged sets, species flagged:")
    for label, flagged in result["unchanged"].items():
        said = ", ".join(f"{k} {v}" for k, v in flagged.items()) or "none"
        lines.append(f"  {label:34s}{len(flagged):>3}  {said}")
    return "\n".join(lines)


def bench_planted(opts: Any) -> dict[str, Any]:
    """The sweep at its defaults in a temporary folder, for `python -m benchmarks`."""
    with tempfile.TemporaryDirectory(prefix="grove-planted-") as tmp:
        result = sweep(Path(tmp))
    print(table(result))
    return {"planted": result}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.planted",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=GAMES)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--species", help="comma-separated dwellers to plant (default: every one)")
    ap.add_argument("--keep", metavar="DIR", help="keep the runs in DIR and reuse those there")
    ap.add_argument("--no-unchanged", action="store_true", help="skip the unchanged sets")
    ap.add_argument("--processes", type=int, default=PROCESSES)
    ap.add_argument("--json", action="store_true", help="print the result as JSON on stdout")
    a = ap.parse_args(argv)
    species = a.species.split(",") if a.species else None
    with tempfile.TemporaryDirectory(prefix="grove-planted-") as tmp:
        keep = Path(a.keep) if a.keep else Path(tmp)
        keep.mkdir(parents=True, exist_ok=True)
        result = sweep(keep, species, a.games, a.seed, not a.no_unchanged, a.processes)
    print(table(result), file=sys.stderr if a.json else sys.stdout)
    if a.json:
        print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
