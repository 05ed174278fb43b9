"""An author's card sets, wherever they lie, work with every command.

Two made-up card sets live only under tests/editions: `meadow`, a standalone edition with a host
kind no shipped edition has, and `hedgerow`, an expansion of the base game that no file of the
base game names; tests/editions/forests holds a finished game of each. Copied to a folder
outside the checkout, they go through lint, editions, cards, score, play, replay and sheet in all
four languages, found through `--cards` and through `GROVE_CARDS`; the shipped cards/ stay byte
for byte as they were.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from grove.cli import main
from grove.compiler.search_path import shipped_cards_dir

TEST_EDITIONS = Path(__file__).parent / "editions"
GROVE = str(Path(sys.executable).parent / "grove")
LANGS = ("en", "de", "it", "th")



def _tree_digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts:
            h.update(str(p.relative_to(folder)).encode() + p.read_bytes())
    return h.hexdigest()


@pytest.fixture(scope="module", autouse=True)
def shipped_cards_untouched():
    before = _tree_digest(shipped_cards_dir())
    yield
    assert _tree_digest(shipped_cards_dir()) == before, "a command changed the shipped cards"


@pytest.fixture()
def author(tmp_path: Path) -> Path:
    """The two card sets in a folder of the author's, outside the checkout."""
    sets = tmp_path / "my-sets"
    shutil.copytree(TEST_EDITIONS, sets)
    for forest in ("meadow.yaml", "hedgerow.yaml"):
        shutil.copy(sets / "forests" / forest, tmp_path / forest)
    return tmp_path


def _invoke(how: str, sets: Path, *args: str) -> tuple[int, str, str]:
    """Run a command with the author's folder on the search path, the way `how` says."""
    if how == "--cards":
        r = CliRunner().invoke(main, [*args, "--cards", str(sets)], catch_exceptions=False)
    else:
        r = CliRunner().invoke(main, list(args), env={"GROVE_CARDS": str(sets)},
                               catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


@pytest.mark.parametrize("how", ["--cards", "GROVE_CARDS"])
def test_every_command_on_an_authors_card_sets(how: str, author: Path, monkeypatch):
    monkeypatch.chdir(author)
    sets = author / "my-sets"

    code, out, err = _invoke(how, sets, "editions", "--json")
    assert code == 0, err
    rows = {r["id"]: r for r in json.loads(out)}
    assert rows["meadow"]["folder"] == str((sets / "meadow").resolve())
    assert rows["hedgerow"]["expansion_of"] == "base"
    assert "hedgerow" in rows["base"]["combines_with"]
    code, out, _ = _invoke(how, sets, "editions")
    assert "from my-sets/hedgerow" in out

    for folder in ("meadow", "hedgerow"):
        code, _, err = _invoke(how, sets, "lint", str(sets / folder), "--strict")
        assert code == 0, err
        assert "0 error(s), 0 warning(s)" in err

    for lang in LANGS:
        code, out, err = _invoke(how, sets, "cards", "hedgerow", "--lang", lang)
        assert code == 0, err
        assert {"en": "Yellowhammer", "de": "Goldammer", "it": "Zigolo giallo",
                "th": "นกเยลโลว์แฮมเมอร์"}[lang] in out
    code, out, _ = _invoke(how, sets, "cards", "meadow", "--json")
    assert code == 0 and {r["id"] for r in json.loads(out)} >= {"lily_pond", "reed_frog"}

    code, out, err = _invoke(how, sets, "score", "meadow.yaml", "--json")
    assert code == 0, err
    totals = {p["name"]: (p["total"], p["by_category"]) for p in json.loads(out)["players"]}
    assert totals["Ana"] == (21, {"trees": 2, "ponds": 8, "top": 1, "bottom": 8, "cave": 2})
    assert totals["Ben"][0] == 0
    code, out, err = _invoke(how, sets, "score", "hedgerow.yaml", "--json")
    assert code == 0, err
    ana = json.loads(out)["players"][0]
    # hawthorn: 4 attached; voles: 2 x 3 hawthorn symbols each; yellowhammer: 5 Hedgerow cards;
    # cowslip: 1 plant
    assert ana["total"] == 22
    assert ana["by_category"] == {"trees": 4, "top": 5, "bottom": 1, "left": 6, "right": 6,
                                  "cave": 0}
    code, out, _ = _invoke(how, sets, "score", "hedgerow.yaml", "--lang", "de")
    assert code == 0 and "Bäume" in out

    for name, game in (("meadow", ["--edition", "meadow", "--ai", "greedy,random"]),
                       ("hedgerow", ["--edition", "base", "--with", "hedgerow",
                                     "--ai", "random,greedy,random"])):
        record = author / f"{name}.jsonl"
        code, out, err = _invoke(how, sets, "play", *game, "--seed", "5", "--quiet",
                                 "--record", str(record), "--json")
        assert code == 0, err
        played = json.loads(out)
        code, _, err = _invoke(how, sets, "replay", str(record), "--verify")
        assert code == 0, err
        assert "same game" in err
        code, out, err = _invoke(how, sets, "score", str(record), "--json")
        assert code == 0, err
        assert [p["total"] for p in json.loads(out)["players"]] == [
            p["total"] for p in played["players"]]

    for edition, exps in (("meadow", []), ("base", ["hedgerow"])):
        out_dir = author / f"sheets-{edition}"
        code, _, err = _invoke(how, sets, "sheet", "--edition", edition,
                               *(["--with", ",".join(exps)] if exps else []),
                               "--lang", ",".join(LANGS), "-o", f"{out_dir}/")
        assert code == 0, err
        pdfs = sorted(out_dir.glob("*.pdf"))
        assert len(pdfs) == 4 and all(p.read_bytes().startswith(b"%PDF") for p in pdfs)


def test_the_real_executable_finds_grove_cards(author: Path):
    """Through a process, as an author's shell runs it: GROVE_CARDS with two folders."""
    env = {**os.environ, "GROVE_CARDS": os.pathsep.join(
        [str(author / "my-sets" / "meadow"), str(author / "my-sets" / "hedgerow")])}
    proc = subprocess.run([GROVE, "score", "hedgerow.yaml"], cwd=author, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Total" in proc.stdout and "22" in proc.stdout


def test_an_expansion_without_a_row_for_the_combination_says_where_to_add_it(author: Path):
    code, _, err = _invoke("--cards", author / "my-sets", "play", "--edition", "base",
                           "--with", "alpine,hedgerow", "--quiet")
    assert code == 2
    assert "EDITION-SETUP-MISSING" in err
    assert "'base' with alpine, hedgerow" in err
    assert "{with: [alpine, hedgerow]" in err
    assert str(author / "my-sets" / "hedgerow" / "edition.yaml") in err
    assert str(shipped_cards_dir()) not in err  # the author's own file, not grove's


def test_an_unknown_folder_on_the_path_is_a_usage_error(tmp_path: Path):
    code, _, err = _invoke("--cards", tmp_path / "nowhere", "editions")
    assert code == 2 and "IO-NOT-FOUND" in err
    code, _, err = _invoke("GROVE_CARDS", tmp_path / "nowhere", "editions")
    assert code == 2 and "GROVE_CARDS names" in err


def test_an_edition_without_its_folder_on_the_path_gets_a_hint(author: Path, monkeypatch):
    monkeypatch.chdir(author)
    code = CliRunner().invoke(main, ["score", "hedgerow.yaml"])
    assert code.exit_code == 1
    assert "does not combine with 'base'" in code.stderr and "--cards DIR" in code.stderr


def test_a_copy_of_a_shipped_edition_shadows_it(tmp_path: Path, monkeypatch):
    """An author's changed copy of the base game wins over the shipped one, and lint says so."""
    mine = tmp_path / "base"
    shutil.copytree(shipped_cards_dir() / "base", mine)
    trees = mine / "trees.yaml"
    text = trees.read_text(encoding="utf-8")
    assert "score: 3 if most linden else 1" in text
    trees.write_text(text.replace("score: 3 if most linden else 1", "score: 4"),
                     encoding="utf-8")
    forest = tmp_path / "f.yaml"
    forest.write_text("edition: base\nplayers:\n  - name: Ana\n    forest:\n"
                      "      - tree: linden\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, _ = _invoke("--cards", mine, "score", "f.yaml", "--json")
    assert code == 0 and json.loads(out)["players"][0]["total"] == 4
    code, out, _ = _invoke("--cards", mine, "editions", "--json")
    rows = {r["id"]: r for r in json.loads(out)}
    assert rows["base"]["folder"] == str(mine.resolve())
    code, _, err = _invoke("--cards", mine, "lint", str(mine))
    assert "EDITION-SHADOWS" in err and str(shipped_cards_dir() / "base") in err
    shipped = CliRunner().invoke(main, ["score", "f.yaml", "--json"])
    assert shipped.exit_code == 0 and json.loads(shipped.stdout)["players"][0]["total"] == 3


def test_generated_scoring_code_names_the_card_file_and_line():
    """A traceback inside a compiled rule (there should be none) points at the card's rule."""
    from grove.compiler.cardset import build
    from grove.compiler.search_path import search_path

    cset = build("base", ["hedgerow"], search_path([TEST_EDITIONS]))
    sp = cset.species["hedgerow:yellowhammer"]
    code = sp.score.points.__code__
    rule = sp.rule_texts["score"]
    assert code.co_filename == str(TEST_EDITIONS / "hedgerow" / "species.yaml") == rule.file
    assert code.co_firstlineno == rule.line
    line = Path(code.co_filename).read_text(encoding="utf-8").splitlines()[code.co_firstlineno - 1]
    assert line.strip() == "score: 1 per hedgerow"
