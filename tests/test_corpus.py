"""The corpus of broken inputs: every case must fail with its one expected diagnostic, in place.

A case is a folder under `tests/corpus/editions/` (an expansion of the shipped base game in
`edition/`) or `tests/corpus/forests/` (a `forest.yaml` of the base game), with an `expect.yaml`:

    what: a line saying what is wrong
    code: DSL-UNKNOWN-NAME
    file: edition/species.yaml      # relative to the case folder
    line: 10                        # 1-based, as grove prints it, at the offending token
    col: 18
    strict: true                    # optional: the finding is a warning, lint with --strict
    xfail: "..."                    # optional: a known grove bug; the case documents it

For each case `grove lint PATH --format json` (and for forests `grove score FILE`) must exit 1,
report the code at file:line:col, print no traceback and leave every input byte unchanged. Most
runs go through `click.testing.CliRunner` in this process (a real `grove` start costs ~2 s); a
few run the installed `grove` in a subprocess.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from ruamel.yaml import YAML

from grove.cli import main

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO / "tests" / "corpus"
GROVE = str(Path(sys.executable).with_name("grove"))
TEXT_DIAG = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning|info) "
                       r"(?P<code>[A-Z][A-Z0-9-]*):", re.M)


@dataclass(frozen=True)
class Case:
    folder: Path
    kind: str  # "edition" | "forest"
    what: str
    code: str
    file: Path | None
    line: int | None
    col: int | None
    strict: bool
    xfail: str | None

    @property
    def target(self) -> Path:
        return self.folder / "edition" if self.kind == "edition" else self.folder / "forest.yaml"

    @property
    def id(self) -> str:
        return f"{self.kind}/{self.folder.name}"


def _cases() -> list[Case]:
    out = []
    yaml = YAML(typ="safe")  # libyaml where ruamel has it: the cases are read as a worker collects
    for exp_path in sorted(CORPUS.glob("*/*/expect.yaml")):
        exp = yaml.load(exp_path.read_text(encoding="utf-8"))
        folder = exp_path.parent
        out.append(Case(
            folder=folder,
            kind="edition" if folder.parent.name == "editions" else "forest",
            what=exp["what"], code=exp["code"],
            file=folder / exp["file"] if exp.get("file") else None,
            line=exp.get("line"), col=exp.get("col"),
            strict=bool(exp.get("strict")), xfail=exp.get("xfail"),
        ))
    return out


CASES = _cases()


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def _same_file(a: str | None, b: Path | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return (REPO / a).resolve() == b.resolve()


def _lint_args(case: Case) -> list[str]:
    return ["lint", str(case.target.relative_to(REPO)), "--format", "json",
            *(["--strict"] if case.strict else [])]


def _problems_lint(case: Case, code: int, stdout: str, stderr: str) -> list[str]:
    problems = []
    if code != 1:
        problems.append(f"lint exit code {code}, expected 1")
    if "Traceback" in stdout + stderr:
        problems.append("lint printed a traceback")
    diags = [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]
    found = [(d["code"], d["file"], d["line"], d["col"]) for d in diags]
    if not any(d["code"] == case.code and _same_file(d["file"], case.file)
               and d["line"] == case.line and d["col"] == case.col for d in diags):
        problems.append(f"lint: no {case.code} at {case.file}:{case.line}:{case.col}; got {found}")
    return problems


def _problems_score(case: Case, code: int, output: str) -> list[str]:
    problems = []
    if code != 1:
        problems.append(f"score exit code {code}, expected 1")
    if "Traceback" in output:
        problems.append("score printed a traceback")
    found = [(m["code"], m["file"], int(m["line"]), int(m["col"]))
             for m in TEXT_DIAG.finditer(output)]
    if not any(c == case.code and _same_file(f, case.file) and ln == case.line
               and col == case.col for c, f, ln, col in found):
        problems.append(f"score: no {case.code} at {case.file}:{case.line}:{case.col}; "
                        f"got {found}")
    return problems


def _conclude(case: Case, problems: list[str]) -> None:
    if case.xfail:
        if problems:
            pytest.xfail(f"{case.xfail}: {problems[0]}")
        pytest.fail(f"{case.id} is marked xfail ({case.xfail}) but passes: remove the mark")
    assert not problems, f"{case.id} ({case.what}):\n  " + "\n  ".join(problems)


@pytest.fixture()
def in_repo(monkeypatch):
    monkeypatch.chdir(REPO)


def test_corpus_is_big_enough():
    assert len(CASES) >= 45
    assert {c.kind for c in CASES} == {"edition", "forest"}
    for c in CASES:
        assert c.target.exists(), c.id
        assert c.file is None or c.file.is_file(), c.id
        assert (c.line is None) == (c.col is None) == (c.file is None), c.id
        assert c.line is None or (c.line >= 1 and c.col >= 1), c.id


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case, in_repo):
    before = _snapshot(case.folder)
    runner = CliRunner()
    res = runner.invoke(main, _lint_args(case))
    problems = []
    if res.exception is not None and not isinstance(res.exception, SystemExit):
        problems.append(f"lint raised {res.exception!r}")
    problems += _problems_lint(case, res.exit_code, res.stdout, res.stderr)
    if case.kind == "forest":
        res = runner.invoke(main, ["score", str(case.target.relative_to(REPO))])
        if res.exception is not None and not isinstance(res.exception, SystemExit):
            problems.append(f"score raised {res.exception!r}")
        problems += _problems_score(case, res.exit_code, res.stdout + res.stderr)
    assert _snapshot(case.folder) == before, f"{case.id}: grove changed its input files"
    _conclude(case, problems)


# A few cases through the real executable, in parallel: entry point, exit codes and streams.
SUBPROCESS_CASES = ["edition/syntax_per_at_end_block", "forest/slot_full_mountain_hare_on_european"]


def _run(args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([GROVE, *args], cwd=REPO, capture_output=True, text=True, timeout=120)


def test_subprocess_runs():
    cases = [c for c in CASES if c.id in SUBPROCESS_CASES]
    assert len(cases) == len(SUBPROCESS_CASES)
    jobs = [(c, "lint", _lint_args(c)) for c in cases]
    jobs += [(c, "score", ["score", str(c.target.relative_to(REPO))])
             for c in cases if c.kind == "forest"]
    jobs.append((None, "cards", ["lint", "grove/cards"]))
    before = {c.id: _snapshot(c.folder) for c in cases}
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda j: _run(j[2]), jobs))
    failures = []
    for (case, what, _), proc in zip(jobs, results, strict=True):
        if case is None:
            if proc.returncode != 0 or "Traceback" in proc.stderr:
                failures.append(f"`grove lint cards` exit {proc.returncode}:\n"
                                f"{proc.stderr[-2000:]}")
            continue
        if what == "lint":
            p = _problems_lint(case, proc.returncode, proc.stdout, proc.stderr)
        else:
            p = _problems_score(case, proc.returncode, proc.stdout + proc.stderr)
        failures += [f"{case.id}: {x}" for x in p]
    for c in cases:
        assert _snapshot(c.folder) == before[c.id], f"{c.id}: grove changed its input files"
    assert not failures, "\n".join(failures)


def test_shipped_cards_lint_clean(in_repo):
    res = CliRunner().invoke(main, ["lint", "grove/cards"])
    assert "Traceback" not in res.output
    assert res.exit_code == 0, res.stderr[-3000:]
