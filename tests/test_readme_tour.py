"""README's "A short tour", run as written: a reader types these lines first, so each must work.

Every `$ grove ...` line of the tour's block runs, in order, through the installed `grove`
executable in a fresh working folder (so the `game.jsonl` that `play` records is there for
`replay` and `score`), with `grove` and `examples` linked to the repository's folders so the
paths the tour names resolve. Trailing `# comments` and continuation-comment lines are not part
of a command. Each command must exit 0 without a traceback; `lint` must be clean; `editions` must
print exactly the lines the README shows under it; `sheet` must write the files it names.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
GROVE = Path(sys.executable).parent / "grove"


@dataclass
class Step:
    line: int  # README line of the command
    args: list[str]  # after `grove`, comments removed
    shown: list[str] = field(default_factory=list)  # output lines the README prints under it


def tour() -> list[Step]:
    """The commands of the tour's first fenced block, with the output lines shown under each."""
    lines = README.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "## A short tour")
    open_ = next(i for i in range(start, len(lines)) if lines[i].startswith("```"))
    close = next(i for i in range(open_ + 1, len(lines)) if lines[i].startswith("```"))
    steps: list[Step] = []
    for i in range(open_ + 1, close):
        text = lines[i]
        if text.startswith("$ "):
            words = shlex.split(text[2:], comments=True)
            assert words and words[0] == "grove", f"README.md:{i + 1}: not a grove command"
            steps.append(Step(i + 1, words[1:]))
        elif text.strip().startswith("#") or not text.strip():
            continue  # a comment continuing the command above, or the gap between commands
        elif steps:
            steps[-1].shown.append(text)
    return steps


def test_tour_block_is_found():
    steps = tour()
    names = [s.args[0] for s in steps]
    assert names[0] == "editions" and steps[0].shown, "the tour opens with `grove editions`"
    for cmd in ("cards", "lint", "score", "play", "replay", "sheet"):
        assert cmd in names, f"the tour lost its `grove {cmd}` line"


def test_tour_runs_as_written(tmp_path: Path):
    assert GROVE.exists(), f"{GROVE}: grove is not installed in this environment"
    for folder in ("grove", "examples"):
        (tmp_path / folder).symlink_to(REPO / folder, target_is_directory=True)
    for step in tour():
        where = f"README.md:{step.line}: grove {shlex.join(step.args)}"
        try:
            run = subprocess.run([str(GROVE), *step.args], cwd=tmp_path, capture_output=True,
                                 text=True, timeout=600)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{where}: still running after 600 s")
        assert "Traceback" not in run.stderr, f"{where}:\n{run.stderr}"
        assert run.returncode == 0, f"{where}: exit {run.returncode}\n{run.stderr[-3000:]}"
        command = step.args[0]
        if step.shown:
            assert run.stdout.splitlines() == step.shown, (
                f"{where}: prints otherwise than the README shows")
        if command == "lint":
            assert "0 error(s), 0 warning(s)" in run.stderr, f"{where}: not clean\n{run.stderr}"
        if command == "play" and "--record" in step.args:
            record = tmp_path / step.args[step.args.index("--record") + 1]
            assert record.is_file() and record.stat().st_size > 0, f"{where}: no record"
        if command == "score":
            assert "Winner" in run.stdout, f"{where}: no scoreboard\n{run.stdout}"
        if command == "sheet":
            written = re.findall(r"^wrote (.+) \(\d+ KiB\)$", run.stderr, re.M)
            langs = step.args[step.args.index("--lang") + 1].split(",")
            assert len(written) == len(langs), f"{where}: wrote {written}\n{run.stderr}"
            for name in written:
                path = tmp_path / name
                assert path.is_file() and path.stat().st_size > 0, f"{where}: {name} missing"
