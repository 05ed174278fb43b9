"""The fuzz test's worker: mutated forest files, records and card files, read in-process, each case
bounded in time and memory. `tests/test_fuzz.py` starts the workers (one per core, or one under
pytest-xdist) and reads their reports.

Run alone, a worker reproduces a case: `python tests/fuzz_worker.py --show forest:1234` prints the
mutated file of case 1234 and what grove says of it (`GROVE_FUZZ_SEED` as for the test).

What a case is:
- forest (and record): a known-good forest file (the forest examples of docs/formats.md and
  examples/) or a game record, mutated (`mutate`), then read by the real commands in-process:
  `grove score FILE`, and for a record `grove replay FILE` and `grove play --resume FILE` too
  (click's test runner, so the exit code and every printed line are grove's own). A mutation
  puts odd texts and numbers in place of one value (`ODD`).
- card: one file of a copied card set (Alpine, an expansion of the base game, or the standalone
  test edition meadow) mutated, then read by the loader (YAML, limits, schema); when the file
  loads, the whole set is checked as `grove lint` checks it, down to compiled rules.

What must hold for each: no exception but `DiagnosticError` (nor `SystemExit` but grove's 0, 1 or
2); what is printed is escaped (no raw control or bidirectional character) and bounded; the case
ends within `CASE_SECONDS` of CPU time (a timer interrupts it; CPU time, so a machine busy with
other work does not make a case fail) and a few times that of wall-clock time, and its peak
resident memory grows by at most `CASE_MB` (the kernel's high-water mark, reset before each
case, read after it). The worker's
address space is capped `HARD_MB` above its warmed-up size, so a runaway case fails with a
MemoryError instead of taking the machine down.
"""

from __future__ import annotations

import bisect
import gc
import json
import os
import random
import re
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CASE_SECONDS = 3.0  # CPU seconds: a case takes milliseconds, a few seconds is a hang
WALL_FACTOR = 4  # and wall-clock seconds, on a machine busy with other work
CASE_MB = 64  # peak resident memory a case may add (files are a few KB; the limits are KB)
HARD_MB = 1024  # address space beyond the warmed worker's: past it, allocation fails
OUTPUT_CHARS = 20_000  # printed by one command for one mutated file of a few KB

# Tracebacks the fuzz found in code outside this test's reach, counted apart from failures while
# they are fixed: (exception, the innermost file and function of grove's own it passed through)
# to what it is. Empty: the last four (a plain tag its value does not fit, a key a merge brought
# in) are diagnostics now, held by `test_what_the_fuzz_found` in test_fuzz.py.
KNOWN: dict[tuple[str, str, str], str] = {}

JUNK = ["", "~", "null", "true", "-1", "1e999", "0x1F", "[", "{", "]", "}", "'", '"', ":", "- x",
        "? x", "|", ">", "%", "@x", "`x`", "a: b: c", "[[[[[[[[[[", "{a: {b: {c: [", "\t",
        "\u202e evil", "\x00", "x" * 3000, "&a [*a, *a]", "*nowhere", "<<: *a", "!!int x",
        "!!python/object:os.system", "!!python/name:builtins.eval", "!local x", "!!binary AA",
        "{card: }", "{card: oak, symbol: [x]}", "[[[oak]]]", "[]", "{}", "2 per", "oak:oak:oak",
        "\x1b[2J", "\u2066x\u2069", "\"\\u202e\"", "9" * 40, "-0.0", ".nan", "2 per (((bird",
        "1 per not not not bird", "{\"type\": \"end\"}", "\"a\" ", "'\\x1b'"]
TAGS = ["!!python/object/apply:os.system ", "!!str ", "!!int ", "!!map ", "!!seq ", "!custom ",
        "!!binary ", "!!timestamp ", "!!set ", "!!float ", "!!bool ", "!!null "]
INSERTS = ["\x00", "\ufeff", "\u202e", "\r", "\x1b[31m", "#", "\ud7ff", "\\", "\t", "\x85",
           "\u2028", "\"", "{", "*x", "&x "]
# odd texts and numbers put in place of one value (a JSON or YAML scalar), the rest of the line
# kept: a lone surrogate escape (a name "\ud800" once crashed replay and emptied a resumed
# record), a pair that is one character, NaN and infinities, floats beyond range, integers past
# Python's 4,300-digit conversion limit (a ValueError traceback) and just within it
ODD = ['"\\ud800"', '"Ana \\udfff"', '"\\ud83c\\udf32"', '"\\ud83c"', '"\\udc00\\ud800"', "NaN",
       "Infinity", "-Infinity", "1e999", "-1e400", ".nan", ".inf", "-.inf", "9" * 5000,
       "-" + "9" * 4400, "4" * 4300, "1.5", "-0", "2.0", "true", "null", "[]", "{}", '"1"',
       '"\\u0000"', '"\\u202e x"', "0x10", "1_000"]
_SCALAR = re.compile(r'(?<=: )(?:"(?:[^"\\]|\\.)*"|-?[0-9][0-9A-Za-z_.+-]*|[A-Za-z_][A-Za-z0-9_]*)')


def _value_lines(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if re.search(r"(: |- |\": )\S", line)]


def _value_at(line: str) -> re.Match[str] | None:
    return re.search(r"(: |- )(?=\S)", line)


def _set_value(line: str, new: str) -> str:
    m = _value_at(line)
    return line if m is None else line[:m.end()] + new


def mutate(text: str, rnd: random.Random, odd: bool = True) -> bytes:
    """One to three mutations of `text`, as a careless editor or a hostile user would make: a
    line deleted, duplicated or re-indented; a value swapped for junk, given a tag, or made an
    anchor with aliases to it elsewhere; a character inserted; a cut at a random byte; with
    `odd`, one value made an odd text or number (forest files and records: a card file's are
    not fuzzed so yet)."""
    data: str | bytes = text
    ops = ["delete", "duplicate", "indent", "junk", "junk", "tag", "alias", "bytes", "cut"]
    for _ in range(rnd.randint(1, 3)):
        if isinstance(data, bytes):  # a cut is the last thing that happens to a file
            break
        lines = data.split("\n")
        values = _value_lines(lines)
        op = rnd.choice([*ops, "odd", "odd"] if odd else ops)
        i = rnd.randrange(len(lines))
        if op == "delete":
            del lines[i:i + rnd.choice([1, 1, 1, 2, 5])]
        elif op == "duplicate":
            lines[i:i] = lines[i:i + rnd.choice([1, 1, 3])] * rnd.randint(1, 3)
        elif op == "indent":
            stripped = lines[i].lstrip(" ")
            lines[i] = rnd.choice([" ", "\t", "  "]) * rnd.randint(0, 6) + stripped
        elif op == "junk" and values:
            j = rnd.choice(values)
            lines[j] = _set_value(lines[j], rnd.choice(JUNK))
        elif op == "tag" and values:
            j = rnd.choice(values)
            m = _value_at(lines[j])
            if m:
                lines[j] = lines[j][:m.end()] + rnd.choice(TAGS) + lines[j][m.end():]
        elif op == "alias" and len(values) >= 2:
            a, b = sorted(rnd.sample(values, 2))
            m = _value_at(lines[a])
            if m:
                lines[a] = lines[a][:m.end()] + "&x " + lines[a][m.end():]
            lines[b] = _set_value(lines[b], rnd.choice(["*x", "*x", "[*x, *x, *x]", "*y",
                                                        "{<<: *x}"]))
        elif op == "odd":
            places = [(j, m) for j in range(len(lines)) for m in _SCALAR.finditer(lines[j])]
            if places:
                j, m = rnd.choice(places)
                lines[j] = lines[j][:m.start()] + rnd.choice(ODD) + lines[j][m.end():]
        elif op == "bytes":
            pos = rnd.randrange(len(data) + 1)
            data = data[:pos] + rnd.choice(INSERTS) + data[pos:]
            continue
        elif op == "cut":
            raw = data.encode("utf-8")
            data = raw[:rnd.randrange(len(raw) + 1)]
            continue
        data = "\n".join(lines)
    return data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")


# -- what is mutated


def forest_sources() -> list[tuple[str, str]]:
    """Good forest files, by name: the documented examples that score, the shipped examples."""
    doc = (REPO / "docs" / "formats.md").read_text(encoding="utf-8")
    out = [(f"formats.md#{n}", m[1]) for n, m in enumerate(
        re.finditer(r"^```yaml\n(edition:.*?)^```", doc, re.M | re.S))]
    out += [(p.name, p.read_text(encoding="utf-8")) for p in sorted(
        (REPO / "grove" / "examples").glob("*.yaml"))]
    return out


CARD_SETS = {"alpine": REPO / "grove" / "cards" / "alpine", "meadow": REPO / "tests" / "editions" / "meadow"}


def card_sources() -> list[tuple[str, str]]:
    """(`set/file.yaml`, text) of every file of the card sets fuzzed."""
    return [(f"{name}/{p.name}", p.read_text(encoding="utf-8"))
            for name, folder in CARD_SETS.items() for p in sorted(folder.glob("*.yaml"))]


def by_lines(sources: list[tuple[str, str]]) -> list[int]:
    """Where each source's share of the case numbers ends: a source gets cases in proportion to
    its lines, so every line of every file is mutated about as often: an equal share a file
    would give a seven-line deck eleven times the cases a line of a 79-line species file gets,
    spent on the same few lines."""
    ends, total = [], 0
    for _name, text in sources:
        total += max(1, text.count("\n"))
        ends.append(total)
    return ends


def case_rng(seed: int, kind: str, n: int) -> random.Random:
    """Case `n` of `kind` is the same under any split between workers."""
    return random.Random(f"{seed}/{kind}/{n}")


# -- the bounds


class CaseTimeout(BaseException):  # noqa: N818 - not an Exception: grove must not catch it
    pass


def _on_alarm(signum: int, frame: object) -> None:
    raise CaseTimeout


def _status_kb(field: str) -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _reset_peak() -> bool:
    """Reset the kernel's high-water mark of resident memory to what is resident now."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def signature(exc: BaseException) -> tuple[str, str, str]:
    """(exception, file, function) of the innermost frame in grove's own code."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if f.filename.startswith(str(REPO)) and "/.venv/" not in f.filename
              and not f.filename.startswith(str(REPO / "tests"))]
    where = frames[-1] if frames else None
    return (type(exc).__name__, str(Path(where.filename).relative_to(REPO)) if where else "?",
            where.name if where else "?")


class Known(Exception):  # noqa: N818 - a tally, not an error
    """A traceback of `KNOWN`: counted apart, not a failure of this run."""

    def __init__(self, sig: tuple[str, str, str]):
        super().__init__(":".join(sig))
        self.sig = sig


class Bounds:
    """Runs one case under the time and memory bounds; says what was wrong, or None."""

    def __init__(self, case_seconds: float = CASE_SECONDS, case_mb: int = CASE_MB,
                 hard_mb: int = HARD_MB):
        self.case_seconds, self.case_kb = case_seconds, case_mb * 1024
        self.peak_resets = _reset_peak() and _status_kb("VmHWM") is not None
        self.max_seconds = 0.0
        self.max_kb = 0
        signal.signal(signal.SIGPROF, _on_alarm)
        size = _status_kb("VmSize")
        self.capped = False
        if size is not None and hard_mb:
            limit = (size + hard_mb * 1024) * 1024
            hard = resource.getrlimit(resource.RLIMIT_AS)[1]
            if hard == resource.RLIM_INFINITY or hard >= limit:
                resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
                self.capped = True

    def _peak_kb(self) -> int:
        if self.peak_resets:
            return _status_kb("VmHWM") or 0
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # never lower: a weaker check

    def run(self, call: Callable[[], str | None]) -> str | None:
        if self.peak_resets:
            _reset_peak()
        before = _status_kb("VmRSS") or 0
        start, cpu = time.monotonic(), time.process_time()
        problem = None
        timeout = f"still running after {self.case_seconds} s of CPU time: interrupted"
        signal.setitimer(signal.ITIMER_PROF, self.case_seconds)
        try:
            try:
                problem = call()
            except CaseTimeout:
                problem = timeout
            except MemoryError:
                problem = "MemoryError: the case ran into the worker's address-space limit"
            except SystemExit as exc:
                problem = f"SystemExit({exc.code!r})"
            except Known:
                raise
            except Exception as exc:  # noqa: BLE001 - any other exception is what the fuzz hunts
                if signature(exc) in KNOWN:
                    raise Known(signature(exc)) from None
                where = traceback.extract_tb(exc.__traceback__)[-3:]
                problem = f"{type(exc).__name__}: {exc}\n" + "".join(traceback.format_list(where))
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
        except CaseTimeout:
            # the one-shot alarm came as the case ended (in a handler above, or before it was
            # disarmed): the case did use up its CPU time, and the alarm must not escape
            problem = problem or timeout
        took, used = time.monotonic() - start, time.process_time() - cpu
        grew = max(0, self._peak_kb() - before)
        self.max_seconds, self.max_kb = max(self.max_seconds, used), max(self.max_kb, grew)
        if problem is None and (used > self.case_seconds
                                or took > self.case_seconds * WALL_FACTOR):
            problem = f"took {took:.1f} s ({used:.1f} s of CPU time)"
        if problem is None and grew > self.case_kb:
            problem = f"peak resident memory grew by {grew // 1024} MB"
        return problem


# -- the pipelines


def _printed_safely(text: str) -> str | None:
    """What grove printed, checked: escaped, and bounded."""
    from grove.dsl.diagnostics import escape

    if len(text) > OUTPUT_CHARS:
        return f"printed {len(text)} characters"
    for line in text.split("\n"):
        if escape(line) != line:
            bad = next(ch for ch in line if escape(ch) != ch)
            return f"printed a raw {bad!r}: {line[:200]!r}"
    return None


class Worker:
    def __init__(self, seed: int, tmp: Path):
        from click.testing import CliRunner

        warnings.filterwarnings("ignore", module=r"ruamel\.")
        self.seed, self.tmp = seed, tmp
        self.runner = CliRunner()
        self.forests = forest_sources()
        self.cards = card_sources()
        sets = tmp / "sets"
        for name, folder in CARD_SETS.items():
            shutil.copytree(folder, sets / name)
        (sets / "base").symlink_to(REPO / "grove" / "cards" / "base", target_is_directory=True)
        self.card_roots = (str(sets),)
        self.originals = {name: text for name, text in self.cards}
        record = tmp / "game.jsonl"
        self._grove("play", "--edition", "dartmoor", "--ai", "greedy,random", "--seed", "2",
                    "--quiet", "--record", str(record))
        self.forests.append(("record.jsonl", record.read_text(encoding="utf-8")))
        self.ends = {"forest": by_lines(self.forests), "card": by_lines(self.cards)}

    def _grove(self, *args: str) -> tuple[int, str]:
        from grove.cli import main

        r = self.runner.invoke(main, list(args), catch_exceptions=False)
        return r.exit_code, r.stdout + r.stderr

    def checked(self, kind: str, name: str, data: bytes) -> str | None:
        """The case's pipeline; a DiagnosticError is what hostile input should get."""
        from grove.dsl.diagnostics import DiagnosticError

        try:
            return getattr(self, kind)(name, data)
        except DiagnosticError:
            return None

    def case(self, kind: str, n: int) -> tuple[str, bytes]:
        sources = self.forests if kind == "forest" else self.cards
        ends = self.ends[kind]
        name, text = sources[bisect.bisect_right(ends, n % ends[-1])]
        return name, mutate(text, case_rng(self.seed, kind, n), odd=kind == "forest")

    def forest(self, name: str, data: bytes) -> str | None:
        path = self.tmp / ("game.jsonl" if name.endswith(".jsonl") else "forest.yaml")
        path.write_bytes(data)
        commands = [["score", str(path)]]
        if name.endswith(".jsonl"):  # and a resume, which must refuse what it cannot replay
            commands += [["replay", str(path)], ["play", "--resume", str(path), "--quiet"]]
        for args in commands:
            code, out = self._grove(*args)
            if code not in (0, 1, 2):
                return f"grove {args[0]}: exit {code}"
            problem = _printed_safely(out)
            if problem:
                return f"grove {args[0]}: {problem}"
        return None

    def card(self, name: str, data: bytes) -> str | None:
        from grove.compiler import cardset as cs
        from grove.compiler import loader
        from grove.dsl.diagnostics import DiagnosticError, format_text

        set_name, file_name = name.split("/")
        path = self.tmp / "sets" / name
        path.write_bytes(data)
        try:
            schema = {"edition.yaml": "edition", "deck.yaml": "deck"}.get(file_name, "cardset")
            doc, read = loader.read_document(path, schema)
            found: list = list(read)
            if doc is not None:  # loads: check the whole set
                try:
                    found = cs.lint(self.card_roots, [set_name], [str(path.parent)])
                except DiagnosticError as exc:
                    found = list(exc.diagnostics)
            return _printed_safely("\n".join(format_text(d) for d in found[:20]))
        finally:
            path.write_text(self.originals[name], encoding="utf-8")


def run(kinds: dict[str, range], seed: int) -> dict:
    """Every case of `kinds` ({kind: case numbers}); a report of what went wrong."""
    tmp = Path(tempfile.mkdtemp(prefix="grove-fuzz-"))
    try:
        worker = Worker(seed, tmp)
        for kind in kinds:  # warm up: compiled card sets, imports, caches, outside the bounds
            for name, text in (worker.forests if kind == "forest" else worker.cards):
                worker.checked(kind, name, text.encode("utf-8"))
        # the warmed worker's heap is for good: frozen, the collector does not walk it again in
        # every case (a tenth of a case's time)
        gc.freeze()
        bounds = Bounds()
        failures: list[dict] = []
        counts = {}
        known: dict[str, list[int]] = {}  # signature -> [cases, first case number]
        for kind, numbers in kinds.items():
            counts[kind] = 0
            for n in numbers:
                name, data = worker.case(kind, n)
                try:
                    problem = bounds.run(lambda k=kind, m=name, d=data: worker.checked(k, m, d))
                except Known as exc:
                    known.setdefault(f"{kind}:{':'.join(exc.sig)}", [0, n])[0] += 1
                    problem = None
                counts[kind] += 1
                if problem:
                    failures.append({"kind": kind, "n": n, "source": name, "problem": problem,
                                     "text": data[:1500].decode("utf-8", "replace")})
                    if len(failures) >= 10:
                        break
        return {"counts": counts, "failures": failures, "known": known,
                "max_seconds": bounds.max_seconds,
                "max_mb": bounds.max_kb / 1024, "peak_resets": bounds.peak_resets}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def probe(case_seconds: float) -> list[str | bool | None]:
    """The bounds themselves, on cases made to break them: each must be reported. The last item
    says whether the address-space cap could be set (a container may forbid it)."""
    bounds = Bounds(case_seconds=case_seconds)

    def hog() -> None:
        block = b"\x01" * ((CASE_MB + 64) * 1024 * 1024)  # written, so resident
        del block

    def runaway() -> None:
        blocks = [b"\x01" * (256 * 1024 * 1024) for _ in range(HARD_MB // 256 + 4)]
        del blocks

    def crash() -> None:
        {}["missing"]  # noqa: B018 - the KeyError is the point

    def spin() -> None:
        while True:
            pass

    found: list[str | bool | None] = [bounds.run(c) for c in (
        spin, lambda: time.sleep(case_seconds * WALL_FACTOR * 1.5))]
    # writing 128 MB costs the kernel 0.1-0.3 s of CPU on a busy machine: the memory cases run
    # under the fuzz's own time bound, so that only memory can be what stops them
    bounds.case_seconds = CASE_SECONDS
    found += [bounds.run(c) for c in (
        hog, runaway if bounds.capped else (lambda: None), crash, lambda: None)]
    return [*found, bounds.capped]


def main(argv: list[str]) -> None:
    seed = int(os.environ.get("GROVE_FUZZ_SEED", "13") or 13)
    if argv[:1] == ["--probe"]:
        print(json.dumps(probe(float(argv[1]))))
    elif argv[:1] == ["--show"]:
        kind, n = argv[1].split(":")
        tmp = Path(tempfile.mkdtemp(prefix="grove-fuzz-"))
        worker = Worker(seed, tmp)
        name, data = worker.case(kind, int(n))
        sys.stdout.write(f"== {kind} case {n}, from {name}:\n{data.decode('utf-8', 'replace')}\n")
        print(f"== {Bounds().run(lambda: worker.checked(kind, name, data)) or 'fine'}")
        shutil.rmtree(tmp, ignore_errors=True)
    else:  # --run JSON: {"kind": [start, stop, step], ...}
        spec = json.loads(argv[1])
        print(json.dumps(run({k: range(*v) for k, v in spec.items()}, seed)))


if __name__ == "__main__":
    main(sys.argv[1:])
