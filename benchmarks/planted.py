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

The flag says which species stand out of their set; a designer who changed one card asks
another question, what the change did, which `grove compare RUN_ORIGINAL RUN_CHANGED` answers.
So each planted run is also compared with the unchanged run of the same seed, pairing and games
(`compared`: is one of the planted species' figures named changed, and which other species'
figures are), and with `--apart SEED` two unchanged runs of different seeds are compared, where
nothing should be named. Beside the flag, a candidate strength issue 30 suggests is measured on
the same games (`drawn_strengths`): the win-rate improvement when drawn, within each AI.

The games of a run are kept in a folder (`--keep DIR`; a temporary one otherwise) and every
figure is worked out again from its Parquet files by the strength code of this checkout, so a
change of the strength rule is measured on the very same games without playing them again
(`--keep` a second time reuses every run that is there).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grove.simulation.aggregate import Totals
    from grove.simulation.compare import Run
    from grove.simulation.strength import Strength

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
    return rescored(rule, lambda n: n * factor)


def halved(rule: str) -> str:
    """`rule` with every number of points in it halved, rounded down (`5` -> `2`, `1 per
    hare` -> `0 per hare`): a card's own rule cannot hold a half point."""
    return rescored(rule, lambda n: n // 2)


def rescored(rule: str, fn: Any) -> str:
    """`rule` with each number of points n in it written as fn(n)."""
    out, at = [], 0
    for tok in sorted(_point_tokens(rule), key=lambda t: t.start_pos):
        out += [rule[at:tok.start_pos], str(fn(int(tok)))]
        at = tok.end_pos
    return "".join(out) + rule[at:]


_ITEM = re.compile(r"^(?P<indent>\s*)- id: (?P<id>[\w-]+)\s*$")
_SCORE = re.compile(r"^(?P<head>\s+score: )(?P<rule>[^'\"\s].*?)\s*$")


def _line(folder: Path, species: str, field: re.Pattern[str], what: str
          ) -> tuple[Path, int, re.Match[str]]:
    """(file, line index, match) of the first line of a species' entry in an edition folder
    that `field` matches; ValueError where the species or the line is not found."""
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
                if found := field.match(lines[j]):
                    return path, j, found
            raise ValueError(f"{path}: {species} has no {what}")
    raise ValueError(f"{folder}: no species {species!r}")


def score_line(folder: Path, species: str) -> tuple[Path, int, str]:
    """(file, line index, rule) of a species' `score:` line in an edition folder; ValueError
    where the species is not found or its rule is not a plain one-line YAML scalar."""
    path, j, m = _line(folder, species, _SCORE, "one-line score rule")
    return path, j, m["rule"]


_COST = re.compile(r"^(?P<head>\s+cost: )(?P<cost>\d+)\s*$")

# the changes the sweep plants: a name, and what it does to a score rule or to a cost
PLANTS = ("x3", "half", "cheaper", "dearer")


def cost_line(folder: Path, species: str) -> tuple[Path, int, int]:
    """(file, line index, cost) of a species' `cost:` line in an edition folder."""
    path, j, m = _line(folder, species, _COST, "cost line")
    return path, j, int(m["cost"])


def planted_line(folder: Path, species: str, change: str) -> tuple[Path, int, str, str]:
    """(file, line index, the line's text, the text it becomes) for one plant: `x3` and `half`
    rewrite the score rule's points, `cheaper` and `dearer` the cost by one. ValueError where
    the plant changes nothing (no points to halve, a cost of 0 made cheaper)."""
    if change in ("x3", "half"):
        path, j, rule = score_line(folder, species)
        new = multiplied(rule) if change == "x3" else halved(rule)
        if new == rule:
            raise ValueError(f"{species}: `{change}` leaves its rule `{rule}` as it is")
        return path, j, rule, new
    if change in ("cheaper", "dearer"):
        path, j, cost = cost_line(folder, species)
        if change == "cheaper" and cost == 0:
            raise ValueError(f"{species}: costs nothing already")
        return path, j, f"cost: {cost}", f"cost: {cost + (1 if change == 'dearer' else -1)}"
    raise ValueError(f"no plant {change!r}: one of {', '.join(PLANTS)}")


def plant(species: str, into: Path, edition: str = EDITION, factor: int = 3,
          change: str | None = None) -> Path:
    """A copy of the shipped `edition` under `into` (a card-set folder for `GROVE_CARDS` or a
    search path) in which `species` scores `factor` times its points, or carries another of
    `PLANTS` (`change`); returns `into`. The shipped cards are only read."""
    from grove.compiler.search_path import shipped_cards_dir

    copy = into / edition
    shutil.copytree(shipped_cards_dir() / edition, copy)
    if change is None or change == "x3":
        path, j, rule = score_line(copy, species)
        changed = multiplied(rule, factor)
        if changed == rule:
            raise ValueError(f"{species}: its score rule `{rule}` has no points to multiply")
    else:
        path, j, rule, changed = planted_line(copy, species, change)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[j] = lines[j].replace(rule, changed, 1)
    from grove.files.write import write_text

    write_text(path, "".join(lines))
    return into


# ---- playing and judging ------------------------------------------------------------------
def _complete(folder: Path, games: int, seed: int, ais: tuple[str, ...]) -> bool:
    """Whether `folder` holds a finished run of these games with every column this checkout
    writes (a run kept from before `paid` was written is played again: it cannot say what
    the planted species' copies were paid with)."""
    import pyarrow.parquet as pq

    from grove.simulation.columns import CARD_COLUMNS

    try:
        s = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
        with open(folder / "cards.parquet", "rb") as fh:
            columns = set(pq.read_schema(fh).names)
    except (OSError, ValueError):
        return False
    return (s.get("complete") is True and s.get("games") == games and s.get("seed") == seed
            and tuple(s.get("ai", ())) == ais and set(CARD_COLUMNS) <= columns)


def play(folder: Path, edition: str, expansions: tuple[str, ...], ais: tuple[str, ...],
         rotate: bool, games: int, seed: int, planted: str | None = None,
         change: str = "x3") -> Path:
    """One run into `folder` on one process (the sweep runs two at once), unless a complete
    run of the same games is there already."""
    if _complete(folder, games, seed, ais):
        return folder
    from grove import api
    from grove.compiler.search_path import search_path

    with tempfile.TemporaryDirectory(prefix="planted-") as tmp:
        cards = [plant(planted, Path(tmp), edition, change=change)] if planted else []
        roots = search_path(cards, env={})
        api.simulate(edition, list(expansions), list(ais), games, seed, rotate, jobs=1,
                     out=str(folder), roots=roots)
    return folder


def figures(folder: Path, totals: Totals | None = None) -> list[dict[str, Any]]:
    """The species rows of a run worked out again from its Parquet files (or their `totals`,
    read already) by this checkout's summary and strength code, strongest first (species
    nobody played last)."""
    from grove.simulation.aggregate import read_totals
    from grove.simulation.summary import SpeciesFacts, summarize

    old = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    facts = [SpeciesFacts(r["id"], r["name"], r["cost"], r["kind"]) for r in old["species"]]
    if totals is None:
        totals = read_totals(folder / "games.parquet", folder / "cards.parquet")
    rows = summarize(totals, {}, facts)["species"]
    return sorted(rows, key=lambda r: (r["strength"] is None, -(r["strength"] or 0.0)))


def judged(folder: Path, species: str, totals: Totals | None = None) -> dict[str, Any]:
    """The planted species' rank, strength, interval and flag in a run, and the others
    flagged."""
    rows = figures(folder, totals)
    rank = next(i for i, r in enumerate(rows, 1) if r["id"] == species)
    row = rows[rank - 1]
    return {"rank": rank, "of": sum(r["strength"] is not None for r in rows),
            "strength": row["strength"], "ci95": row["strength_ci95"], "flag": row["flag"],
            "others": {r["id"]: r["flag"] for r in rows if r["flag"] and r["id"] != species}}


# ---- grove compare: what one change did -----------------------------------------------------
def _of_species(fid: str) -> bool:
    """Whether a compare figure's id is a species' (not `seat N`, `ai KIND` or `turns`)."""
    return not fid.startswith(("seat ", "ai ")) and fid != "turns"


def compared(original: Run, changed: Run, species: str) -> dict[str, Any]:
    """`grove compare original changed` (its Python function, Holm's correction) read for one
    planted species: its figures named changed, each with its corrected p and its rank among
    all the changed ones; the other species' figures named (`others`); and how many seat, AI
    and turn figures were (a tripled card moves totals, so these are no false finds)."""
    from grove.simulation.compare import compare

    result = compare(original, changed)
    named = result["changed"]
    return {"found": any(c["id"] == species for c in named),
            "own": [{"what": c["what"], "p": c["p"], "rank": i}
                    for i, c in enumerate(named, 1) if c["id"] == species],
            "others": [f"{c['id']} {c['what']}" for c in named
                       if _of_species(c["id"]) and c["id"] != species],
            "games": sum(not _of_species(c["id"]) for c in named),
            "compared": result["compared"]}


def apart(a: Run, b: Run) -> dict[str, Any]:
    """Two unchanged runs of different seeds compared: every figure named is a false find."""
    from grove.simulation.compare import compare

    result = compare(a, b)
    return {"compared": result["compared"],
            "changed": [f"{c['id']} {c['what']}" for c in result["changed"]]}


# ---- a candidate strength: the win-rate improvement when drawn -------------------------------
def drawn_strengths(t: Totals) -> dict[str, Strength | None]:
    """species -> the win-rate improvement when drawn (win rate of the forests whose player
    drew it minus that of the others), measured within each AI and the AIs' figures weighed
    as Mantel and Haenszel weigh a risk difference (drawn x not drawn / forests), its standard
    error from each AI's Newcombe interval (half its width over 1.96). A Strength, so that
    strength.flags judges it against the rest of the set exactly as it judges points;
    `forests` is the smaller of the drawn and undrawn forests, so a species nearly everyone
    draws has too few undrawn forests to be weighed. None where no AI has both."""
    from scipy.special import ndtri

    from grove.simulation.statistics import LEVEL, difference_interval
    from grove.simulation.strength import Strength

    z = float(ndtri(0.5 + 0.5 * LEVEL))
    out: dict[str, Strength | None] = {}
    for sid, per_ai in t.species_ai.items():
        total = weight = var = 0.0
        least = [0, 0]
        for ai, s in per_ai.items():
            m = t.ais[ai]
            undrawn, undrawn_wins = m.n - s.drawn, m.wins - s.drawn_wins
            ci = difference_interval(s.drawn_wins, s.drawn, undrawn_wins, undrawn)
            if ci is None:
                continue
            w = s.drawn * undrawn / m.n
            total += w * (s.drawn_wins / s.drawn - undrawn_wins / undrawn)
            weight += w
            var += (w * (ci[1] - ci[0]) / (2 * z)) ** 2
            least = [least[0] + s.drawn, least[1] + undrawn]
        if weight == 0:
            out[sid] = None
            continue
        value, se = total / weight, math.sqrt(var) / weight
        out[sid] = Strength(value, (value - z * se, value + z * se), se, min(least))
    return out


def drawn_flags(t: Totals) -> dict[str, dict[str, Any]]:
    """species -> its improvement when drawn, and two Bonferroni-corrected flags: `set`, the
    strength flag's rule on this figure (against the rest of the set), and `zero`, "strong"
    where the improvement exceeds zero by more than the normal quantile at 1 - 0.05 / (2 m)
    standard errors (m the species weighed), "weak" below its negative."""
    from scipy.special import ndtri

    from grove.simulation.statistics import ALPHA
    from grove.simulation.strength import MIN_FORESTS, flags

    found = drawn_strengths(t)
    against_set = flags(found)
    weighed = {k: s for k, s in found.items()
               if s is not None and s.se and s.forests >= MIN_FORESTS}
    bar = float(ndtri(1 - ALPHA / (2 * len(weighed)))) if weighed else math.inf
    out = {}
    for k, s in found.items():
        z = s.value / s.se if k in weighed and s is not None and s.se else 0.0
        out[k] = {"value": None if s is None else s.value, "set": against_set.get(k),
                  "zero": "strong" if z > bar else "weak" if z < -bar else None}
    return out


def drawn_judged(t: Totals, species: str) -> dict[str, Any]:
    """The planted species' rank by improvement when drawn, its value and both flags, and the
    other species each rule flags."""
    judged_all = drawn_flags(t)
    ranked = sorted((k for k, j in judged_all.items() if j["value"] is not None),
                    key=lambda k: -judged_all[k]["value"])
    own = judged_all.get(species, {"value": None, "set": None, "zero": None})
    return {"rank": ranked.index(species) + 1 if species in ranked else None,
            "value": own["value"], "set": own["set"], "zero": own["zero"],
            "others set": sum(bool(j["set"]) for k, j in judged_all.items() if k != species),
            "others zero": sum(bool(j["zero"]) for k, j in judged_all.items() if k != species)}


def _drawn_found(j: dict[str, Any], rule: str) -> bool:
    return j["rank"] is not None and j["rank"] <= TOP and j[rule] == "strong"


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


def _unchanged_drawn(t: Totals) -> dict[str, int]:
    flagged = drawn_flags(t).values()
    return {rule: sum(bool(j[rule]) for j in flagged) for rule in ("set", "zero")}


def sweep(keep: Path, species: list[str] | None = None, games: int = GAMES, seed: int = SEED,
          unchanged: bool = True, processes: int = PROCESSES,
          apart_seed: int | None = None) -> dict[str, Any]:
    """Plays what is not in `keep` yet (at most `processes` runs at once) and judges it all:
    each planted run by the flag, by `grove compare` against the unchanged run of its seed,
    pairing and games, and by the improvement when drawn; with `apart_seed`, the unchanged
    runs of that seed are played too and compared with those of `seed`."""
    from grove.simulation.compare import read_run

    rules = dwellers()
    chosen = [s for s in (species or rules) if s in rules]
    tasks = [(str(keep / f"{s or 'shipped'}-{p.name}-{games}-{seed}"), s, p, games, seed)
             for s in [None, *chosen] for p in PAIRINGS]
    if apart_seed is not None:
        tasks += [(str(keep / f"shipped-{p.name}-{games}-{apart_seed}"), None, p, games,
                   apart_seed) for p in PAIRINGS]
    checks = [(str(keep / re.sub(r"\W+", "-", u.label)), u) for u in UNCHANGED] if unchanged \
        else []
    with ProcessPoolExecutor(max_workers=processes) as pool:
        list(pool.map(_play_task, tasks))
        list(pool.map(_unchanged_task, checks))
    out: dict[str, Any] = {"games": games, "seed": seed, "planted": {}, "unchanged": {},
                           "unchanged drawn": {}, "apart": {}}
    shipped = {p.name: read_run(keep / f"shipped-{p.name}-{games}-{seed}") for p in PAIRINGS}
    for p in PAIRINGS:
        run = shipped[p.name]
        label = f"base {games} {p.name} (seed {seed})"
        out["unchanged"][label] = {r["id"]: r["flag"] for r in figures(run.folder, run.totals)
                                   if r["flag"]}
        out["unchanged drawn"][label] = _unchanged_drawn(run.totals)
        if apart_seed is not None:
            other = read_run(keep / f"shipped-{p.name}-{games}-{apart_seed}")
            out["apart"][f"{p.name}, seed {seed} against {apart_seed}"] = apart(run, other)
    for folder, u in checks:
        run = read_run(folder)
        out["unchanged"][u.label] = {r["id"]: r["flag"] for r in figures(run.folder, run.totals)
                                     if r["flag"]}
        out["unchanged drawn"][u.label] = _unchanged_drawn(run.totals)
    for s in chosen:
        row: dict[str, Any] = {"rule": rules[s], "tripled": multiplied(rules[s])}
        for p in PAIRINGS:
            run = read_run(keep / f"{s}-{p.name}-{games}-{seed}")
            row[p.name] = {**judged(run.folder, s, run.totals),
                           "compare": compared(shipped[p.name], run, s),
                           "drawn": drawn_judged(run.totals, s)}
        out["planted"][s] = row
    for p in PAIRINGS:
        found = [r[p.name] for r in out["planted"].values()]
        out[f"caught {p.name}"] = sum(j["flag"] == "strong" and j["rank"] <= TOP for j in found)
        out[f"compare found {p.name}"] = sum(j["compare"]["found"] for j in found)
        for rule in ("set", "zero"):
            out[f"drawn {rule} caught {p.name}"] = sum(_drawn_found(j["drawn"], rule)
                                                      for j in found)
    out["dwellers"] = len(chosen)
    return out


# ---- the report against a baseline: what each plant did --------------------------------------
def planted_species(edition: str = EDITION) -> dict[str, dict[str, str]]:
    """change -> species -> what the plant writes (`3 per bird -> 9 per bird`), for every
    dweller of the edition (no tree) that the change changes."""
    from grove.compiler.search_path import shipped_cards_dir

    folder = shipped_cards_dir() / edition
    out: dict[str, dict[str, str]] = {c: {} for c in PLANTS}
    for s in dwellers(edition):
        for c in PLANTS:
            try:
                _, _, old, new = planted_line(folder, s, c)
            except ValueError:
                continue
            out[c][s] = f"{old} -> {new}"
    return out


def _folder(keep: Path, species: str | None, change: str, p: Pairing, games: int,
            seed: int) -> Path:
    """A run's folder in `keep`: a tripled plant's under the name the flag sweep gives it, so
    the two sweeps share those runs."""
    name = species or "shipped"
    if species and change != "x3":
        name = f"{species}@{change}"
    return keep / f"{name}-{p.name}-{games}-{seed}"


def _against_task(args: tuple) -> str:
    folder, planted, change, pairing, games, seed = args
    play(Path(folder), EDITION, (), pairing.ais, pairing.rotate, games, seed, planted, change)
    return folder


def against_judged(base: Run, changed: Run, species: str) -> dict[str, Any]:
    """The report against the unchanged run, read for one planted species: its place among
    the changed species (None where not named), its mark, the figure of it that moved most
    surely, and the first few named."""
    from grove.simulation.against import set_against

    found = set_against(base, changed)["against"]["changed"]
    ids = [c["id"] for c in found]
    own = found[ids.index(species)] if species in ids else None
    return {"place": ids.index(species) + 1 if own else None, "named": len(ids),
            "first": ids[:TOP], "flag": own and own["flag"],
            "figure": own and own["figures"][0]["what"],
            "found": own is not None and ids.index(species) < TOP}


def against_sweep(keep: Path, plants: tuple[str, ...] = PLANTS,
                  species: list[str] | None = None, games: int = GAMES, seed: int = SEED,
                  processes: int = PROCESSES, pairings: tuple[Pairing, ...] = PAIRINGS,
                  apart_seed: int | None = SEED + 1) -> dict[str, Any]:
    """Each plant of `plants` in each dweller it changes (or those of `species`), played under
    each pairing and set against the unchanged run of the same games (simulation/against.py):
    is the planted species among the first `TOP` changed species? And the unchanged runs of
    `seed` and `apart_seed` set against each other, where no species should be named."""
    from grove.simulation.compare import read_run

    chosen = {c: {s: w for s, w in found.items() if species is None or s in species}
              for c, found in planted_species().items() if c in plants}
    tasks = [(str(_folder(keep, None, "x3", p, games, seed)), None, "x3", p, games, seed)
             for p in pairings]
    if apart_seed is not None:
        tasks += [(str(_folder(keep, None, "x3", p, games, apart_seed)), None, "x3", p, games,
                   apart_seed) for p in pairings]
    tasks += [(str(_folder(keep, s, c, p, games, seed)), s, c, p, games, seed)
              for c, found in chosen.items() for s in found for p in pairings]
    with ProcessPoolExecutor(max_workers=processes) as pool:
        list(pool.map(_against_task, tasks))
    out: dict[str, Any] = {"games": games, "seed": seed, "plants": {}, "apart": {}}
    shipped = {p.name: read_run(_folder(keep, None, "x3", p, games, seed)) for p in pairings}
    for c, found in chosen.items():
        rows = {}
        for s, what in found.items():
            rows[s] = {"change": what, **{
                p.name: against_judged(shipped[p.name],
                                       read_run(_folder(keep, s, c, p, games, seed)), s)
                for p in pairings}}
        out["plants"][c] = rows
    if apart_seed is not None:
        from grove.simulation.against import set_against

        for p in pairings:
            other = read_run(_folder(keep, None, "x3", p, games, apart_seed))
            named = set_against(shipped[p.name], other)["against"]["changed"]
            out["apart"][f"{p.name}, seed {seed} against {apart_seed}"] = [
                c["id"] for c in named]
    judged_all = [r[p.name] for rows in out["plants"].values() for r in rows.values()
                  for p in pairings]
    out["found"] = sum(j["found"] for j in judged_all)
    out["planted runs"] = len(judged_all)
    out["share found"] = round(out["found"] / len(judged_all), 4) if judged_all else None
    return out


def against_table(result: dict[str, Any]) -> str:
    """The against sweep as text: a row per plant and species, its place among the changed
    species under each pairing (- where not named), then the totals and the unchanged runs."""
    names = sorted({k for rows in result["plants"].values() for r in rows.values()
                    for k in r if k != "change"})
    lines = [f"planted, the report against the unchanged run: {result['games']} games, seed "
             f"{result['seed']} (place among the changed species, * = among the first {TOP}; "
             "species named; mark; its figure that moved most surely)",
             f"{'plant':8s}{'species':24s}{'change':30s}" + "".join(f"{n:>31s}" for n in names)]
    for c, rows in result["plants"].items():
        for s, r in rows.items():
            cells = []
            for n in names:
                j = r[n]
                place = "-" if j["place"] is None else str(j["place"])
                cells.append(f"{place:>3}{'*' if j['found'] else ' '} {j['named']:>3} "
                             f"{j['flag'] or '-':>6} {j.get('figure') or '-':>15}")
            lines.append(f"{c:8s}{s:24s}{r['change'][:29]:30s}"
                         + "".join(f"{x:>31s}" for x in cells))
    for c, rows in result["plants"].items():
        per = [r[n] for r in rows.values() for n in names]
        by = Counter(j.get("figure") for j in per if j["found"])
        lines.append(f"found ({c}): {sum(j['found'] for j in per)} of {len(per)} (by "
                     + ", ".join(f"{k} {v}" for k, v in sorted(by.items())) + ")")
    lines.append(f"found in all: {result['found']} of {result['planted runs']} "
                 f"({100 * (result['share found'] or 0):.1f}%)")
    for label, named in result["apart"].items():
        lines.append(f"unchanged runs set against each other, {label}: "
                     f"{len(named)} species named ({', '.join(named) or 'none'})")
    return "\n".join(lines)


def table(result: dict[str, Any]) -> str:
    """The sweep as text: a row per planted species by the flag, by compare and by the
    improvement when drawn, then the unchanged sets' flags and the unchanged runs compared."""
    def cell(j: dict[str, Any]) -> str:
        mark = "*" if j["flag"] == "strong" and j["rank"] <= TOP else " "
        flag = {"strong": "S", "weak": "w"}.get(j["flag"], "-")
        return f"{j['rank']:>3} {j['strength']:+7.1f} {flag}{mark} {len(j['others']):>2}"

    def compared_cell(c: dict[str, Any]) -> str:
        first = c["own"][0] if c["own"] else None
        said = f"{_SHORT[first['what']]} {first['p']:8.2g} #{first['rank']}" if first else \
            f"{'-':>17s}"
        return f"{said} {len(c['others']):>2}"

    def drawn_cell(d: dict[str, Any]) -> str:
        rank = f"{d['rank']:>3}" if d["rank"] is not None else "  -"
        value = f"{d['value']:+6.2f}" if d["value"] is not None else f"{'-':>6s}"
        marks = "".join(({"strong": "S", "weak": "w"}.get(d[r], "-")
                         + ("*" if _drawn_found(d, r) else " ")) for r in ("set", "zero"))
        return f"{rank} {value} {marks}"

    names = [p.name for p in PAIRINGS]
    lines = [f"planted: every dweller's points x3, {result['games']} games, seed {result['seed']}"
             f" (rank by strength, strength, flag S/w, * = strong and top {TOP}, others flagged)",
             f"{'species':24s}{'rule':34s}" + "".join(f"{n:>19s}" for n in names)]
    for s, r in result["planted"].items():
        lines.append(f"{s:24s}{r['rule'][:33]:34s}" + "".join(f"{cell(r[n]):>19s}" for n in names))
    for n in names:
        lines.append(f"caught ({n}): {result[f'caught {n}']} of {result['dwellers']}")
    lines += ["", "grove compare, each planted run against the unchanged one (its first figure "
              "named: what, Holm-corrected p, #rank among the changed; other species' figures "
              "named)", f"{'species':24s}" + "".join(f"{n:>24s}" for n in names)]
    for s, r in result["planted"].items():
        lines.append(f"{s:24s}" + "".join(f"{compared_cell(r[n]['compare']):>24s}"
                                          for n in names))
    for n in names:
        others = sum(len(r[n]["compare"]["others"]) for r in result["planted"].values())
        lines.append(f"compare found ({n}): {result[f'compare found {n}']} of "
                     f"{result['dwellers']}; other species' figures named: {others}")
    lines += ["", "improvement when drawn, within each AI (rank, value, flag against the set "
              f"and against zero, * = strong and top {TOP})",
              f"{'species':24s}" + "".join(f"{n:>19s}" for n in names)]
    for s, r in result["planted"].items():
        lines.append(f"{s:24s}" + "".join(f"{drawn_cell(r[n]['drawn']):>19s}" for n in names))
    for n in names:
        lines.append(f"drawn caught ({n}): against the set "
                     f"{result[f'drawn set caught {n}']}, against zero "
                     f"{result[f'drawn zero caught {n}']} of {result['dwellers']}")
    lines.append("unchanged sets, species flagged (strength; improvement when drawn against the "
                 "set, against zero):")
    for label, flagged in result["unchanged"].items():
        said = ", ".join(f"{k} {v}" for k, v in flagged.items()) or "none"
        d = result["unchanged drawn"][label]
        lines.append(f"  {label:34s}{len(flagged):>3}  {d['set']:>3} {d['zero']:>3}  {said}")
    for label, c in result["apart"].items():
        said = ", ".join(c["changed"]) or "nothing"
        lines.append(f"unchanged runs compared, {label}: {len(c['changed'])} of {c['compared']} "
                     f"figures named ({said})")
    return "\n".join(lines)


_SHORT = {"played_per_game": "played", "mean_points_when_played": "points",
          "win_rate_when_played": "win", "win_rate_when_not": "win not"}


def bench_planted(opts: Any) -> dict[str, Any]:
    """The sweep at its defaults in a temporary folder, for `python -m benchmarks`."""
    with tempfile.TemporaryDirectory(prefix="grove-planted-") as tmp:
        found = against_sweep(Path(tmp))
        print(against_table(found))
        result = sweep(Path(tmp), apart_seed=SEED + 1)
    print(table(result))
    return {"planted": result, "against": found}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.planted",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=GAMES)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--species", help="comma-separated dwellers to plant (default: every one)")
    ap.add_argument("--keep", metavar="DIR", help="keep the runs in DIR and reuse those there")
    ap.add_argument("--no-unchanged", action="store_true", help="skip the unchanged sets")
    ap.add_argument("--processes", type=int, default=PROCESSES)
    ap.add_argument("--apart", type=int, metavar="SEED",
                    help="also compare the unchanged runs with those of seed SEED")
    ap.add_argument("--json", action="store_true", help="print the result as JSON on stdout")
    ap.add_argument("--against", metavar="PLANTS", nargs="?", const=",".join(PLANTS),
                    help="the report against the unchanged run instead of the flag sweep: "
                    f"the plants to make, comma-separated (default: {','.join(PLANTS)})")
    ap.add_argument("--pairings", default=",".join(p.name for p in PAIRINGS),
                    help="with --against: the pairings to play, comma-separated")
    a = ap.parse_args(argv)
    species = a.species.split(",") if a.species else None
    with tempfile.TemporaryDirectory(prefix="grove-planted-") as tmp:
        keep = Path(a.keep) if a.keep else Path(tmp)
        keep.mkdir(parents=True, exist_ok=True)
        if a.against:
            pairings = tuple(p for p in PAIRINGS if p.name in a.pairings.split(","))
            result = against_sweep(keep, tuple(a.against.split(",")), species, a.games,
                                   a.seed, a.processes, pairings, a.apart)
            print(against_table(result), file=sys.stderr if a.json else sys.stdout)
            if a.json:
                print(json.dumps(result, indent=2))
            return 0
        result = sweep(keep, species, a.games, a.seed, not a.no_unchanged, a.processes,
                       a.apart)
    print(table(result), file=sys.stderr if a.json else sys.stdout)
    if a.json:
        print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
