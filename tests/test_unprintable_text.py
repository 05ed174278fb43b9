"""Card names no printout can carry: a diagnostic and an exit code, never a traceback.

A copy of the Hedgerow expansion whose Hawthorn is named "Haw\\ud800thorn" (a lone surrogate,
which cannot even be written as UTF-8) and whose Bank Vole holds an escape sequence and a bell.
`grove lint`, `grove cards` and `grove sheet` report each once as TEXT-UNPRINTABLE at its line
(exit 1); `grove cards` still lists the cards with the characters escaped, `grove sheet` writes
nothing, and a command that only echoes names (`grove score --explain`) prints them escaped.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grove.dsl.diagnostics import escape, escape_json
from grove.printouts import printable

TEST_EDITIONS = Path(__file__).parent / "editions"
GROVE = str(Path(sys.executable).parent / "grove")
SURROGATE = r'"Haw\ud800thorn"'
CONTROLS = r'"Bank\x1b[31m\x07Vole"'


@pytest.fixture()
def home(tmp_path: Path) -> Path:
    folder = tmp_path / "sets" / "hedgerow"
    shutil.copytree(TEST_EDITIONS / "hedgerow", folder)
    species = folder / "species.yaml"
    text = species.read_text(encoding="utf-8")
    text = text.replace("names: {en: Hawthorn,", f"names: {{en: {SURROGATE},")
    text = text.replace("names: {en: Bank Vole,", f"names: {{en: {CONTROLS},")
    species.write_text(text, encoding="utf-8")
    shutil.copy(TEST_EDITIONS / "forests" / "hedgerow.yaml", tmp_path / "forest.yaml")
    return tmp_path


def grove(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "GROVE_CARDS": str(home / "sets")}
    proc = subprocess.run([GROVE, *args], cwd=home, env=env, capture_output=True, timeout=300)
    assert b"Traceback" not in proc.stderr, proc.stderr.decode("utf-8", "replace")
    return proc


def reported_once_each(stderr: bytes) -> None:
    text = stderr.decode("utf-8")  # whatever grove printed is UTF-8
    lines = [ln for ln in text.splitlines() if "TEXT-UNPRINTABLE" in ln]
    assert len(lines) == 2, text
    assert lines[0].startswith("sets/hedgerow/species.yaml:5:") and "\\ud800" in lines[0]
    assert lines[1].startswith("sets/hedgerow/species.yaml:15:") and "\\x1b, \\x07" in lines[1]
    assert "SHEET-RENDER" not in text


def test_lint_reports_each_value_once(home: Path):
    proc = grove(home, "lint", "sets/hedgerow")
    assert proc.returncode == 1
    reported_once_each(proc.stderr)


def test_cards_lists_them_escaped_and_fails(home: Path):
    proc = grove(home, "cards", "hedgerow")
    assert proc.returncode == 1
    out = proc.stdout.decode("utf-8")
    assert "Haw\\ud800thorn [hedgerow:hawthorn]" in out
    assert "Bank\\x1b[31m\\x07Vole [hedgerow:bank_vole]" in out
    reported_once_each(proc.stderr)


def test_cards_json_is_json_and_fails(home: Path):
    proc = grove(home, "cards", "hedgerow", "--json")
    assert proc.returncode == 1
    rows = json.loads(proc.stdout)
    assert rows[0]["name"] == "Haw\ud800thorn"  # the same string, to a JSON reader
    found = [json.loads(ln) for ln in proc.stderr.decode("utf-8").splitlines()]
    assert [(d["code"], d["line"]) for d in found] == [("TEXT-UNPRINTABLE", 5),
                                                        ("TEXT-UNPRINTABLE", 15)]


@pytest.mark.parametrize("fmt", ["pdf", "html"])
def test_sheet_writes_nothing_and_fails(home: Path, fmt: str):
    proc = grove(home, "sheet", "--edition", "base", "--with", "hedgerow", "--lang", "en,de",
                 "--format", fmt, "-o", "out")
    assert proc.returncode == 1
    reported_once_each(proc.stderr)
    assert not (home / "out").exists()


def test_sheet_with_control_characters_alone(home: Path):
    species = home / "sets" / "hedgerow" / "species.yaml"
    species.write_text(species.read_text(encoding="utf-8").replace(SURROGATE, "Hawthorn"),
                       encoding="utf-8")
    proc = grove(home, "sheet", "--edition", "base", "--with", "hedgerow", "--lang", "en",
                 "-o", "out.pdf")
    assert proc.returncode == 1
    assert proc.stderr.decode("utf-8").count("TEXT-UNPRINTABLE") == 1
    assert not (home / "out.pdf").exists()


def test_a_command_that_echoes_names_prints_them_escaped(home: Path):
    proc = grove(home, "score", "forest.yaml", "--explain")
    assert proc.returncode == 0
    assert "Haw\\ud800thorn" in proc.stdout.decode("utf-8")


def test_what_is_unprintable():
    assert printable.unprintable("Weißdorn ต้นฮอว์ธอร์น\t\n") == []
    assert printable.unprintable("a\x1bb\x07c\x1b\x7f\x85\ud800\ufffe") == [
        "\x1b", "\x07", "\x7f", "\x85", "\ud800", "\ufffe"]
    assert printable.escaped("a\x1b\ud800") == "a\\x1b\\ud800"
    assert escape("Haw\ud800thorn") == "Haw\\ud800thorn"
    assert json.loads(escape_json(json.dumps("Haw\ud800thorn", ensure_ascii=False))) == \
        "Haw\ud800thorn"
    escape_json(json.dumps("\udfff", ensure_ascii=False)).encode("utf-8")  # no error
