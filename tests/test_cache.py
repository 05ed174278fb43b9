"""The on-disk cache is never stale, never corrupts, and never stands in the way.

Each test gives grove a cache folder of its own and a copy of the made-up Hedgerow expansion to
edit, and runs the real executable, since the cache matters between processes.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from grove.compiler import cache
from grove.compiler import cardset as cs
from grove.compiler.search_path import search_path

TEST_EDITIONS = Path(__file__).parent / "editions"
GROVE = str(Path(sys.executable).parent / "grove")


@pytest.fixture()
def home(tmp_path: Path) -> Path:
    shutil.copytree(TEST_EDITIONS / "hedgerow", tmp_path / "sets" / "hedgerow")
    shutil.copy(TEST_EDITIONS / "forests" / "hedgerow.yaml", tmp_path / "forest.yaml")
    return tmp_path


def grove(home: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    full = {**os.environ, "GROVE_CACHE_DIR": str(home / "cache"),
            "GROVE_CARDS": str(home / "sets"), **env}
    return subprocess.run([GROVE, *args], cwd=home, env=full, capture_output=True, text=True,
                          timeout=300)


def total(home: Path, **env: str) -> int:
    proc = grove(home, "score", "forest.yaml", "--json", **env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["players"][0]["total"]


def entries(home: Path) -> list[Path]:
    return sorted((home / "cache").rglob("*.pickle"))


def edit_rule(home: Path, old: str, new: str) -> None:
    species = home / "sets" / "hedgerow" / "species.yaml"
    text = species.read_text(encoding="utf-8")
    assert old in text
    species.write_text(text.replace(old, new), encoding="utf-8")


def test_editing_a_rule_changes_the_next_score(home: Path):
    assert total(home) == 22
    assert entries(home), "the first run fills the cache"
    edit_rule(home, "score: 1 per hedgerow", "score: 2 per hedgerow")
    assert total(home) == 27  # the yellowhammer now counts the 5 Hedgerow cards twice
    edit_rule(home, "score: 2 per hedgerow", "score: 1 per hedgerow")
    assert total(home) == 22  # and back: the entry of the first content serves again


def test_editing_the_forest_file_changes_the_next_score(home: Path):
    """The scores kept for a forest file are keyed by its bytes: an edited forest, of the same
    size and written within the same tick, is scored again, and an illegal one refused."""
    forest = home / "forest.yaml"
    assert total(home) == 22
    text = forest.read_text(encoding="utf-8")
    st = forest.stat()
    forest.write_text(text.replace("cave: 2", "cave: 3").replace("name: Ana", "name: Ann"),
                      encoding="utf-8")
    os.utime(forest, ns=(st.st_atime_ns, st.st_mtime_ns))
    proc = grove(home, "score", "forest.yaml", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["players"][0]["name"] == "Ann"
    forest.write_text(text.replace("tree: hawthorn", "tree: no_such_tree"), encoding="utf-8")
    proc = grove(home, "score", "forest.yaml")
    assert proc.returncode == 1 and "no_such_tree" in proc.stderr
    forest.write_text(text, encoding="utf-8")
    assert total(home) == 22


def test_a_warm_score_reads_its_answer_without_the_compiler(home: Path):
    """Scored again, unchanged, a forest file's scores and the scoreboard's card set come from
    the cache: the YAML reader, the schemas, the rules' AST and the code generator are never
    imported (issue 48: a warm `grove score` within 2x `grove --version`)."""
    assert grove(home, "score", "forest.yaml").returncode == 0
    heavy = ("ruamel", "jsonschema", "lark", "grove.dsl.ast", "grove.compiler.codegen",
             "grove.compiler.schemas", "grove.forest_file")
    for args in (["forest.yaml"], ["forest.yaml", "--explain"], ["forest.yaml", "--json"]):
        assert grove(home, "score", *args).returncode == 0  # fills the cache for these
        imported, out = _imported(home, heavy, "score", *args)
        assert imported == [], (args, imported)
        assert out == grove(home, "score", *args, GROVE_NO_CACHE="1").stdout


def test_an_edited_forest_is_scored_without_the_rules_parser(home: Path):
    """A forest file edited since it was scored is read and scored anew, with its card sets
    from the cache: their rules are built from the cached trees, never parsed, so neither Lark
    nor the rules' parser is imported (a person editing a forest waits for this)."""
    assert grove(home, "score", "forest.yaml").returncode == 0
    forest = home / "forest.yaml"
    forest.write_text(forest.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    imported, out = _imported(home, ("lark", "grove.dsl.parser"), "score", "forest.yaml")
    assert imported == []
    assert out == grove(home, "score", "forest.yaml", GROVE_NO_CACHE="1").stdout


def _imported(home: Path, prefixes: tuple[str, ...], *args: str) -> tuple[list[str], str]:
    """The modules named from `prefixes` that `grove ARGS` imported, and what it printed."""
    code = ("import sys\nfrom grove.cli import main\ntry:\n    main()\nexcept SystemExit:\n"
            f"    print(sorted(m for m in sys.modules if m.startswith({prefixes!r})), "
            "file=sys.stderr)\n")
    full = {**os.environ, "GROVE_CACHE_DIR": str(home / "cache"),
            "GROVE_CARDS": str(home / "sets")}
    proc = subprocess.run([sys.executable, "-c", code, *args], cwd=home, env=full,
                          capture_output=True, text=True, timeout=300)
    return ast.literal_eval(proc.stderr.strip().splitlines()[-1]), proc.stdout


def test_a_removed_or_added_file_is_seen(home: Path):
    assert total(home) == 22
    deck = home / "sets" / "hedgerow" / "deck.yaml"
    kept = deck.read_text(encoding="utf-8")
    deck.unlink()
    proc = grove(home, "score", "forest.yaml")
    assert proc.returncode == 1 and "DECK-MISSING" in proc.stderr
    deck.write_text(kept, encoding="utf-8")
    (home / "sets" / "hedgerow" / "extra.yaml").write_text("edition: hedgerow\nspecies: []\n",
                                                          encoding="utf-8")
    proc = grove(home, "lint", str(home / "sets" / "hedgerow"))
    assert "extra.yaml" in proc.stderr  # the new file was read (and its empty list refused)


def test_a_corrupt_or_foreign_cache_file_is_rebuilt_without_a_word(home: Path):
    assert total(home) == 22
    files = entries(home)
    for i, f in enumerate(files):
        data = f.read_bytes()
        if i % 3 == 0:
            f.write_bytes(data[: len(data) // 2])  # truncated
        elif i % 3 == 1:
            f.write_bytes(b"\x00garbage" * 10)  # not ours at all
        else:
            f.write_bytes(data.replace(cache.FORMAT, b"grove-cache-0\n", 1))  # another grove's
    proc = grove(home, "score", "forest.yaml", "--json")
    assert proc.returncode == 0 and proc.stderr == ""
    assert json.loads(proc.stdout)["players"][0]["total"] == 22
    assert all(f.read_bytes().startswith(cache.FORMAT) for f in entries(home))


def test_an_entry_filed_under_another_key_is_not_served(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("GROVE_CACHE_DIR", str(tmp_path))
    cache.put("test", "a" * 64, {"answer": 1})
    src = next(tmp_path.rglob("*.pickle"))
    src.rename(src.with_name("b" * 40 + ".pickle"))
    assert cache.get("test", "b" * 64) is None
    assert cache.get("test", "a" * 64) is None


def test_processes_filling_the_cache_at_once(home: Path):
    """Four processes start on an empty cache together; each writes whole files and renames
    them into place, so every one of them, and the next, reads a good cache."""
    with ThreadPoolExecutor(max_workers=4) as pool:
        runs = list(pool.map(lambda _: grove(home, "score", "forest.yaml", "--json"), range(4)))
    for proc in runs:
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["players"][0]["total"] == 22
    assert not list((home / "cache").rglob("*.tmp")), "a temporary file was left behind"
    assert all(f.read_bytes().startswith(cache.FORMAT) for f in entries(home))
    assert total(home) == 22


def test_grove_no_cache_writes_nothing(home: Path):
    assert total(home, GROVE_NO_CACHE="1") == 22
    assert not (home / "cache").exists()


def test_a_cache_folder_that_cannot_be_written_only_costs_time(home: Path):
    blocker = home / "not-a-folder"
    blocker.write_text("a file where the cache folder would be", encoding="utf-8")
    assert total(home, GROVE_CACHE_DIR=str(blocker / "cache")) == 22


def test_lint_results_come_from_the_cache_and_follow_the_files(home: Path):
    folder = str(home / "sets" / "hedgerow")
    first = grove(home, "lint", folder, "--strict")
    assert first.returncode == 0, first.stderr
    assert any(f.parent.name == "lint" for f in entries(home))
    assert grove(home, "lint", folder, "--strict").stderr == first.stderr
    edit_rule(home, "score: 1 per hedgerow", "score: 1 per hedgerw")
    broken = grove(home, "lint", folder)
    assert broken.returncode == 1 and "DSL-UNKNOWN-NAME" in broken.stderr


def test_in_one_process_an_edited_file_is_read_again(home: Path, monkeypatch):
    """A long-lived process (a test session, a language server) sees edits too."""
    monkeypatch.setenv("GROVE_CACHE_DIR", str(home / "cache"))
    roots = search_path([home / "sets"])
    before = cs.build("base", ["hedgerow"], roots).species["hedgerow:yellowhammer"]
    edit_rule(home, "score: 1 per hedgerow", "score: 3 per hedgerow")
    after = cs.build("base", ["hedgerow"], roots).species["hedgerow:yellowhammer"]
    assert before.rule_texts["score"].text == "1 per hedgerow"
    assert after.rule_texts["score"].text == "3 per hedgerow"


def test_a_record_replayed_against_changed_cards_says_so(home: Path):
    proc = grove(home, "play", "--edition", "base", "--with", "hedgerow", "--ai",
                 "random,random", "--seed", "2", "--quiet", "--record", "game.jsonl")
    assert proc.returncode == 0, proc.stderr
    header = json.loads((home / "game.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert set(header["digest"]) == {"base", "hedgerow"}
    assert grove(home, "replay", "game.jsonl", "--verify").returncode == 0
    edit_rule(home, "score: 1 per plant", "score: 2 per plant")
    proc = grove(home, "replay", "game.jsonl", "--verify")
    assert proc.returncode == 1
    assert "RECORD-CARDS-CHANGED" in proc.stderr and "'hedgerow'" in proc.stderr
    assert "'base'" not in proc.stderr.split("hint")[0]


def test_lint_of_an_edition_too_broken_to_load_follows_its_files(home: Path):
    """An edition.yaml that does not load leaves no edition behind, only diagnostics: the lint
    entry must still be keyed by that folder's files."""
    edition = home / "sets" / "hedgerow" / "edition.yaml"
    text = edition.read_text(encoding="utf-8")
    edition.write_text(text.replace("id: hedgerow", "id: [hedgerow"), encoding="utf-8")
    first = grove(home, "lint", str(home / "sets" / "hedgerow"))
    assert first.returncode == 1 and "YAML-SYNTAX" in first.stderr
    edition.write_text(text.replace("names:", "nmes:", 1), encoding="utf-8")
    second = grove(home, "lint", str(home / "sets" / "hedgerow"))
    assert second.returncode == 1 and "SCHEMA-" in second.stderr and "YAML-SYNTAX" not in \
        second.stderr
    edition.write_text(text, encoding="utf-8")
    assert grove(home, "lint", str(home / "sets" / "hedgerow"), "--strict").returncode == 0


def test_a_quick_edit_of_the_same_size_is_seen(tmp_path: Path):
    """File times are coarser than an editor's save: a file rewritten within the same tick and
    keeping its size must still get a new digest."""
    f = tmp_path / "species.yaml"
    f.write_text("score: 1 per bird\n", encoding="utf-8")
    first = cache.file_digest(f)
    stat = f.stat()
    f.write_text("score: 2 per bird\n", encoding="utf-8")
    os.utime(f, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # the same size and the same time
    assert cache.file_digest(f) != first
