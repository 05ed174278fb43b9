"""docs/authoring.md as written, and `grove new` beyond it.

Every `$ grove ...` line of the authoring guide runs, in order, through the installed executable
in an empty folder outside the checkout, and must exit 0: the guide cannot drift from what grove
does. The sets `grove new` writes are held to what the guide promises of them: lint clean with
--strict, a known score for the example forest, schema lines naming schemas that exist.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from grove.cli import main

REPO = Path(__file__).resolve().parents[1]
GUIDE = REPO / "docs" / "authoring.md"
GROVE = str(Path(sys.executable).parent / "grove")


def guide_commands() -> list[list[str]]:
    out = []
    for line in GUIDE.read_text(encoding="utf-8").splitlines():
        if line.startswith("$ grove "):
            out.append(shlex.split(line[2:].split("  #")[0]))
    return out


def test_the_guide_has_its_walkthrough():
    cmds = [c[1] for c in guide_commands()]
    for step in ("new", "lint", "score", "cards", "play", "replay", "sheet", "editions"):
        assert step in cmds, f"the guide lost its `grove {step}` step"


def test_every_command_of_the_guide_runs(tmp_path: Path):
    env = {k: v for k, v in os.environ.items() if k != "GROVE_CARDS"}
    for cmd in guide_commands():
        proc = subprocess.run([GROVE, *cmd[1:]], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=600)
        assert proc.returncode == 0, f"{shlex.join(cmd)} exit {proc.returncode}:\n{proc.stderr}"
        assert "Traceback" not in proc.stderr
        if cmd[1] == "lint":
            assert "0 error(s), 0 warning(s)" in proc.stderr
        if cmd[1] == "sheet":
            out = Path(tmp_path, cmd[cmd.index("-o") + 1])
            langs = cmd[cmd.index("--lang") + 1].split(",")
            edition = cmd[cmd.index("--edition") + 1]
            made = [p for p in out.glob(f"sheet-{edition}*.pdf")]
            assert len(made) >= len(langs)
    assert (tmp_path / "game.jsonl").is_file()


def _new(tmp_path: Path, *args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, ["new", *args])
    return r.exit_code, r.stdout, r.stderr


def test_new_sets_point_at_the_installed_schemas(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _new(tmp_path, "my_woods")[0] == 0
    assert _new(tmp_path, "hedge", "--expansion-of", "base")[0] == 0
    files = sorted(tmp_path.rglob("*.yaml"))
    assert len(files) == 8
    for f in files:
        first = f.read_text(encoding="utf-8").splitlines()[0]
        m = re.fullmatch(r"# yaml-language-server: \$schema=(.+)", first)
        assert m and Path(m.group(1)).is_file(), f


def test_the_example_forests_score_as_the_cards_say(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _new(tmp_path, "my_woods")
    _new(tmp_path, "hedge", "--expansion-of", "base")
    r = CliRunner().invoke(main, ["score", "--cards", "my_woods",
                                  "my_woods/forests/example.yaml", "--json"])
    assert r.exit_code == 0, r.stderr
    got = {p["name"]: p["total"] for p in json.loads(r.stdout)["players"]}
    # Ana: rowan 2 birds, aspen most aspen 3, robins 2 trees each, violet 1 plant; Ben: aspen 3,
    # violet 1
    assert got == {"Ana": 10, "Ben": 4}
    r = CliRunner().invoke(main, ["score", "--cards", "hedge", "hedge/forests/example.yaml",
                                  "--json"])
    assert r.exit_code == 0, r.stderr
    got = {p["name"]: p["total"] for p in json.loads(r.stdout)["players"]}
    # Ana: linden 3 (most lindens, tied), wren 2 Hedge cards, clover 1 plant; Ben: linden 3, wren 1
    assert got == {"Ana": 6, "Ben": 4}


@pytest.mark.parametrize(("args", "code", "words"), [
    (["My Woods"], "USAGE-BAD-NAME", "not a card-set id"),
    (["robin"], "USAGE-BAD-NAME", "own cards use"),
    (["base"], "USAGE-BAD-NAME", "already on the search path"),
    (["x", "--expansion-of", "nowhere"], "EDITION-UNKNOWN", "unknown edition 'nowhere'"),
    (["x", "--expansion-of", "alpine"], "EDITION-NOT-STANDALONE", "expansion of 'base'"),
])
def test_new_refuses_with_a_diagnostic(tmp_path: Path, monkeypatch, args, code, words):
    monkeypatch.chdir(tmp_path)
    exit_code, _, err = _new(tmp_path, *args)
    assert exit_code == 2 and code in err and words in err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_new_never_overwrites(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine", encoding="utf-8")
    exit_code, _, err = _new(tmp_path, "my_woods", "-o", "taken")
    assert exit_code == 2 and "IO-EXISTS" in err
    assert [p.name for p in (tmp_path / "taken").iterdir()] == ["notes.txt"]


def test_new_sets_carry_an_icon_that_lints_clean_and_is_drawn(tmp_path: Path, monkeypatch):
    """Icons are card data: a new set carries one, as every shipped edition does, and the
    sheet draws it beside its symbol."""
    from grove.compiler import cardset
    from grove.compiler.search_path import search_path
    from grove.printouts.sheets import icon_lint
    from grove.printouts.sheets.content import build_sheet

    monkeypatch.chdir(tmp_path)
    _new(tmp_path, "my_woods")
    _new(tmp_path, "hedge", "--expansion-of", "base")
    for folder, symbol, edition, expansions in (("my_woods", "rowan", "my_woods", []),
                                                ("hedge", "hedge", "base", ["hedge"])):
        [icon] = icon_lint.icon_files(tmp_path / folder)
        assert icon.name == f"{symbol}.svg"
        cs = cardset.build(edition, expansions, search_path([tmp_path / folder], env={}))
        assert icon_lint.check_file(icon, [s.id for s in cs.symbols], folder) == []
        sheet = build_sheet(cs, "en")
        assert symbol in sheet.icons
        assert sheet.icons["bird"] if folder == "hedge" else "bird" not in sheet.icons
