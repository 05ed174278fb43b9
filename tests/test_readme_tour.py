"""README's "A short tour", run as written: a reader types these lines first, so each must work.

Every `$ grove ...` line of the tour's block runs, in order, through the installed `grove`
executable in an empty working folder, as a new user runs it: nothing of the checkout is linked
in, so every path the tour names must come from grove itself (`grove examples` copies the
example forests out of the package) or from an earlier step (the `game.jsonl` that `play`
records is there for `replay` and `score`), and GROVE_CARDS is unset. Trailing `# comments` and
continuation-comment lines are not part of a command. Each command must exit 0 without a
traceback; `lint` must be clean; `editions` must print exactly the lines the README shows under
it; `examples` must write the shipped examples; `sheet` must write the files it names. A `play
--quiet` that writes no file starts in its turn and is checked at the end, as the others are:
nothing later reads what it did, and the search AI's game need not hold up the rest. The search
AI plays at a small budget of its own (`TOUR_SEARCH`): the line runs as written otherwise.
"""

from __future__ import annotations

import os
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
    for cmd in ("cards", "lint", "examples", "score", "play", "replay", "sheet"):
        assert cmd in names, f"the tour lost its `grove {cmd}` line"


OUTPUT_FLAGS = ("-o", "--output", "--record", "--final")


def _beside(step: Step) -> bool:
    """A `play --quiet` that writes no file: nothing after it reads what it did, so it may run
    beside the later steps (the tour's game of the search AI)."""
    return (step.args[0] == "play" and "--quiet" in step.args and not step.shown
            and not any(f in step.args for f in OUTPUT_FLAGS))


# The search AI plays the tour's game at a budget of its own: what the line shows a reader is
# that the search plays a game to its end, as it does at any budget (`mcts` alone names the
# default, tests/test_mcts.py); its second a decision at the default is the benchmarks' to
# measure (docs/ai.md)
TOUR_SEARCH = "mcts:50"


def _budgeted(args: list[str]) -> list[str]:
    """A command's arguments as run: an `--ai` list's bare `mcts` at `TOUR_SEARCH`."""
    if "--ai" not in args:
        return args
    k = args.index("--ai") + 1
    kinds = [TOUR_SEARCH if kind == "mcts" else kind for kind in args[k].split(",")]
    return [*args[:k], ",".join(kinds), *args[k + 1:]]


def test_tour_runs_as_written(tmp_path: Path):
    assert GROVE.exists(), f"{GROVE}: grove is not installed in this environment"
    env = {k: v for k, v in os.environ.items() if k != "GROVE_CARDS"}
    assert not any(tmp_path.iterdir())
    running: list[tuple[Step, str, subprocess.Popen]] = []
    try:
        for step in tour():
            where = f"README.md:{step.line}: grove {shlex.join(step.args)}"
            if step.args[0] == "serve":  # a server: started, asked for its lobby, stopped
                _serves(tmp_path, step.args, where, env)
                continue
            proc = subprocess.Popen([str(GROVE), *_budgeted(step.args)], cwd=tmp_path, env=env,
                                    text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            running.append((step, where, proc))
            if not _beside(step):
                _finished(tmp_path, *running.pop())
        while running:  # those that ran beside the later steps, in their order
            _finished(tmp_path, *running.pop(0))
    finally:
        for _, _, proc in running:
            proc.kill()
            proc.wait()


def _finished(tmp_path: Path, step: Step, where: str, proc: subprocess.Popen) -> None:
    """Wait for one step's command and check what it did."""
    try:
        out, err = proc.communicate(timeout=600)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        pytest.fail(f"{where}: still running after 600 s")
    run = subprocess.CompletedProcess(proc.args, proc.returncode, out, err)
    assert "Traceback" not in run.stderr, f"{where}:\n{run.stderr}"
    assert run.returncode == 0, f"{where}: exit {run.returncode}\n{run.stderr[-3000:]}"
    command = step.args[0]
    if step.shown:
        assert run.stdout.splitlines() == step.shown, (
            f"{where}: prints otherwise than the README shows")
    if command == "lint":
        assert "0 error(s), 0 warning(s)" in run.stderr, f"{where}: not clean\n{run.stderr}"
    flag = next((f for f in ("-o", "--output", "--record") if f in step.args), None)
    if command == "play" and flag:
        record = tmp_path / step.args[step.args.index(flag) + 1]
        assert record.is_file() and record.stat().st_size > 0, f"{where}: no record"
    if command == "score":
        assert "Winner" in run.stdout, f"{where}: no scoreboard\n{run.stdout}"
    if command == "examples":
        shipped = sorted(p.name for p in (REPO / "grove" / "examples").glob("*.yaml"))
        assert sorted(p.name for p in (tmp_path / "examples").iterdir()) == shipped, where
    if command == "sheet":
        written = re.findall(r"^wrote (.+) \(\d+ KiB\)$", run.stderr, re.M)
        langs = step.args[step.args.index("--lang") + 1].split(",")
        assert len(written) == len(langs), f"{where}: wrote {written}\n{run.stderr}"
        for name in written:
            path = tmp_path / name
            assert path.is_file() and path.stat().st_size > 0, f"{where}: {name} missing"


def _serves(folder: Path, args: list[str], where: str, env: dict[str, str]) -> None:
    """`grove serve` as the tour writes it, on any free port (8000 may be taken): it says where
    to open it, serves the lobby, and stops at SIGTERM."""
    import signal
    import urllib.request

    proc = subprocess.Popen([str(GROVE), *args, "--port", "0"], cwd=folder, env=env,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        m = re.search(r"open (http://\S+/)", line)
        assert m, f"{where}: says no address: {line!r}"
        for _ in range(200):
            try:
                with urllib.request.urlopen(m.group(1), timeout=10) as page:
                    assert b"A new game" in page.read(), where
                break
            except OSError:
                import time

                time.sleep(0.05)
        else:
            pytest.fail(f"{where}: the lobby did not answer")
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)


def test_lint_with_no_path_is_in_the_tour_and_explained():
    """`grove lint` alone checks the shipped editions: the tour uses it and says so."""
    assert ["lint"] in [s.args for s in tour()]
    text = README.read_text(encoding="utf-8")
    assert "`grove lint` with no path checks every card set on the search path" in text


def test_the_examples_are_package_data():
    """The example forest files live in the package, `grove/examples/`, where `grove examples`
    finds them in a checkout and in an installed grove alike (tests/test_wheel.py checks that
    the wheel carries them); every example the README names is there."""
    import tomllib

    from grove import scaffold

    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    assert config["setuptools"]["package-data"]["grove.examples"] == ["*.yaml"]
    assert scaffold.examples_dir().resolve() == (REPO / "grove" / "examples").resolve()
    named = set(re.findall(r"examples/([\w.]+\.yaml)", README.read_text(encoding="utf-8")))
    assert named and all((REPO / "grove" / "examples" / n).is_file() for n in named)


def test_grove_examples_never_overwrites(tmp_path: Path):
    from click.testing import CliRunner

    from grove.cli import main

    target = tmp_path / "mine"
    r = CliRunner().invoke(main, ["examples", str(target)])
    assert r.exit_code == 0, r.stderr
    first = sorted(target.iterdir())[0]
    assert "forest.schema.json" in first.read_text(encoding="utf-8").splitlines()[0]
    r = CliRunner().invoke(main, ["examples", str(target)])  # the same again: nothing to do
    assert r.exit_code == 0 and "already holds the examples" in r.stderr
    first.write_text("players: []\n", encoding="utf-8")
    before = {p.name: p.read_bytes() for p in target.iterdir()}
    (target / sorted(before)[-1]).unlink()
    r = CliRunner().invoke(main, ["examples", str(target)])
    assert r.exit_code == 2 and "IO-EXISTS" in r.stderr
    assert first.read_text(encoding="utf-8") == "players: []\n"
    assert sorted(p.name for p in target.iterdir()) == sorted(before)[:-1]  # nothing written
