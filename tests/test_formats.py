"""Card sets written in an older format keep working, and `grove migrate` brings them up to date.

tests/editions/formats/meadow_1202 (a level down, so that no test's search path finds it) is the
test edition meadow as it would be written in the format grove read on 2026-12-02
(`combines_with`, scorepad rows as plain ids). It must lint with FORMAT-OLD warnings only, score,
play and print as meadow does, and after `grove migrate` lint clean and stay byte for byte the
same on a second migrate.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from grove.cli import main
from grove.compiler.formats import CURRENT, FORMATS, migrate_text
from grove.compiler.loader import read_document

EDITIONS = Path(__file__).parent / "editions"
OLD = EDITIONS / "formats" / "meadow_1202"


def _grove(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), catch_exceptions=False,
                           env={"GROVE_NO_CACHE": "1"})
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture()
def sets(tmp_path: Path) -> Path:
    """meadow and its old-format twin in a folder of the author's, with a forest for each."""
    out = tmp_path / "sets"
    shutil.copytree(EDITIONS / "meadow", out / "meadow")
    shutil.copytree(OLD, out / "meadow_1202")
    forest = (EDITIONS / "forests" / "meadow.yaml").read_text(encoding="utf-8")
    (tmp_path / "meadow.yaml").write_text(forest, encoding="utf-8")
    old = forest.replace("edition: meadow\n", "edition: meadow_1202\n")
    assert old != forest
    (tmp_path / "meadow_1202.yaml").write_text(old, encoding="utf-8")
    return out


def _lint(folder: Path, sets: Path) -> list[dict]:
    code, out, err = _grove("lint", str(folder), "--format", "json", "--cards", str(sets))
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_an_old_set_lints_with_format_old_warnings_only(sets: Path):
    found = _lint(sets / "meadow_1202", sets)
    assert found and {d["code"] for d in found} == {"FORMAT-OLD"}
    assert {d["severity"] for d in found} == {"warning"}
    lines = (OLD / "edition.yaml").read_text(encoding="utf-8").splitlines()
    at = {(d["line"], lines[d["line"] - 1].split(":")[0].strip()) for d in found}
    # at the old field's own line: combines_with, and each plain scorepad row
    assert {k for _, k in at} == {"combines_with", "scorepad"}
    assert len(found) == 1 + 5
    assert any("expansion_of" in d["message"] for d in found)


def test_an_old_set_scores_plays_and_prints_as_the_current_one(sets: Path):
    top = sets.parent
    totals = {}
    for name in ("meadow", "meadow_1202"):
        code, out, err = _grove("score", str(top / f"{name}.yaml"), "--json", "--cards", str(sets))
        assert code == 0, err
        totals[name] = [(p["total"], p["by_category"]) for p in json.loads(out)["players"]]
    assert totals["meadow_1202"] == totals["meadow"]
    assert totals["meadow"][0][0] == 21  # Ana's score, as tests/editions/forests/meadow.yaml says

    played = {}
    for name in ("meadow", "meadow_1202"):
        code, out, err = _grove("play", "--edition", name, "--ai", "greedy,random", "--seed", "5",
                                "--quiet", "--json", "--cards", str(sets))
        assert code == 0, err
        played[name] = [(p["total"], p["by_category"]) for p in json.loads(out)["players"]]
    assert played["meadow_1202"] == played["meadow"]

    sheets = {}
    for name in ("meadow", "meadow_1202"):
        out_dir = top / f"sheet-{name}"
        code, _, err = _grove("sheet", "--edition", name, "--lang", "de", "--format", "html",
                              "-o", f"{out_dir}/", "--cards", str(sets))
        assert code == 0, err
        sheets[name] = (out_dir / f"sheet-{name}-de.html").read_text(encoding="utf-8")
    # the same sheet, but for the edition id in each card's key
    assert sheets["meadow_1202"] == sheets["meadow"].replace('"meadow:', '"meadow_1202:')


def test_migrate_rewrites_in_place_keeping_comments(sets: Path):
    path = sets / "meadow_1202" / "edition.yaml"
    before = path.read_bytes()

    code, out, _ = _grove("migrate", str(sets), "--check")
    assert code == 1 and "FORMAT-OLD" in out
    assert path.read_bytes() == before  # --check writes nothing

    code, _, err = _grove("migrate", str(sets))
    assert code == 0, err
    after = path.read_text(encoding="utf-8")
    assert f"format: {CURRENT}\n" in after and "\ncombines_with" not in after
    assert "  - {id: trees, names: {en: Trees, de: Bäume, it: Alberi, th: ต้นไม้}}" in after
    old_lines = before.decode("utf-8").splitlines()
    # every comment and every line of a field that did not change is still there as it was
    kept = [ln for ln in old_lines if not ln.startswith(("combines_with", "scorepad"))]
    assert all(ln in after.splitlines() for ln in kept)
    assert "# the rows of the paper scorepad, in order" in after

    assert _lint(sets / "meadow_1202", sets) == []
    code, _, err = _grove("lint", str(sets / "meadow_1202"), "--strict", "--cards", str(sets))
    assert code == 0 and "0 error(s), 0 warning(s)" in err
    migrated = path.read_bytes()
    code, _, _ = _grove("migrate", str(sets))
    assert code == 0 and path.read_bytes() == migrated
    code, out, _ = _grove("migrate", str(sets), "--check")
    assert code == 0 and out == ""
    # meadow was current all along: migrate never touched it
    assert (sets / "meadow" / "edition.yaml").read_bytes() == (
        EDITIONS / "meadow" / "edition.yaml").read_bytes()


def _edition(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "edition.yaml"
    path.write_text(text, encoding="utf-8")
    return path


MINIMAL = "id: x\nnames: {en: X}\nstandalone: true\n"


def test_a_declared_current_format_takes_no_old_field(tmp_path: Path):
    """`format: 2026-12-03` says the file is current: an old field in it is an error, as any
    field the schema does not know (an error of its own: the set is still read)."""
    path = _edition(tmp_path, MINIMAL + f"format: {CURRENT}\ncombines_with: []\n")
    doc, found = read_document(path, "edition")
    codes = [d.code for d in found]
    assert "SCHEMA-UNKNOWN-FIELD" in codes and "FORMAT-OLD" not in codes
    path = _edition(tmp_path, MINIMAL + f"format: {FORMATS[0]}\ncombines_with: []\n")
    doc, found = read_document(path, "edition")
    old = [d for d in found if d.code == "FORMAT-OLD"]
    assert "SCHEMA-UNKNOWN-FIELD" not in [d.code for d in found]
    assert len(old) == 1 and (old[0].span.line, old[0].span.col) == (5, 1)


@pytest.mark.parametrize("value", ["2099-01-01", "'1999-01-01'", "someday"])
def test_an_unknown_format_is_said(tmp_path: Path, value: str):
    path = _edition(tmp_path, MINIMAL + f"format: {value}\n")
    doc, found = read_document(path, "edition")
    assert doc is None and "FORMAT-UNKNOWN" in [d.code for d in found]
    unknown = next(d for d in found if d.code == "FORMAT-UNKNOWN")
    assert unknown.span.line == 4 and CURRENT in (unknown.hint or "")


def test_migrate_refuses_an_unknown_format_and_leaves_the_file(tmp_path: Path):
    folder = tmp_path / "x"
    folder.mkdir()
    path = _edition(folder, MINIMAL + "format: 2099-01-01\ncombines_with: []\n")
    before = path.read_bytes()
    code, _, err = _grove("migrate", str(folder))
    assert code == 1 and "FORMAT-UNKNOWN" in err
    assert path.read_bytes() == before


def test_a_row_grove_never_named_takes_its_hosts_names():
    raw = ("id: x\nnames: {en: X}\nstandalone: true\n"
           "hosts:\n  pond: {names: {en: Pond}, plural: {en: Ponds}, category: ponds}\n"
           "scorepad: [ponds, marsh]\n")
    done = migrate_text(raw, "edition.yaml")
    assert "{id: ponds, names: {en: Ponds}}" in done.text
    assert "{id: marsh, names: {en: marsh}}" in done.text  # as grove printed it then: its id
    assert migrate_text(done.text, "edition.yaml").text == done.text


def test_migrate_and_usage_errors(tmp_path: Path):
    code, _, err = _grove("migrate", str(tmp_path / "nowhere"))
    assert code == 2 and "IO-NOT-FOUND" in err
    code, _, err = _grove("migrate", str(tmp_path))
    assert code == 2 and "holds no edition.yaml" in err


def test_migrate_keeps_the_comments_around_what_it_changes():
    """The comment lines after a removed key, or after a flow scorepad turned into rows, lead
    into what follows: they stay there, not dropped nor moved between a key and its rows."""
    raw = ("id: x   # the id\nnames: {en: X}\nstandalone: true\ncombines_with: []   # gone\n\n"
           "# the symbols of this edition\nsymbols: {}\nhosts:\n  tree:\n    names: {en: Tree}\n"
           "    category: trees\nscorepad: [trees, top]   # the rows\n# the end\n")
    done = migrate_text(raw, "edition.yaml")
    assert done.text == (
        "id: x   # the id\nformat: 2026-12-03\nnames: {en: X}\nstandalone: true\n\n"
        "# the symbols of this edition\nsymbols: {}\nhosts:\n  tree:\n    names: {en: Tree}\n"
        "    category: trees\nscorepad:                # the rows\n"
        "  - {id: trees, names: {en: Trees, de: Bäume, it: Alberi, th: ต้นไม้}}\n"
        "  - {id: top, names: {en: Top, de: Oben, it: Sopra, th: ด้านบน}}\n# the end\n")


def test_a_declared_old_format_is_brought_up_to_date():
    raw = f"id: x\nformat: {FORMATS[0]}\nnames: {{en: X}}\n"
    done = migrate_text(raw, "edition.yaml")
    assert [d.code for d in done.changes] == ["FORMAT-OLD"]
    assert done.text == f"id: x\nformat: {CURRENT}\nnames: {{en: X}}\n"
    assert not migrate_text(done.text, "edition.yaml").changed


def test_the_changelog_in_docs_lists_every_step():
    """docs/formats.md's table of formats has a row for each step's field, under the format
    that replaced it, and a row for every format grove reads."""
    import re

    from grove.compiler.formats import STEPS

    doc = (Path(__file__).resolve().parents[1] / "docs" / "formats.md").read_text(encoding="utf-8")
    rows = [ln for ln in doc.splitlines() if re.match(r"\| \d{4}-\d\d-\d\d", ln)]
    for fmt in FORMATS:
        assert any(r.startswith(f"| {fmt}") for r in rows), fmt
    for step in STEPS:
        field = re.search(r"`(\w+)`", step.what).group(1)
        after = FORMATS[FORMATS.index(step.until) + 1]
        assert any(r.startswith(f"| {after}") and f"`{field}`" in r for r in rows), field


def test_migrate_never_writes_through_a_link(tmp_path: Path):
    """An edition.yaml that is a symbolic link is read but not replaced (grove/files/write.py refuses
    it): IO-WRITE, exit 2, and the file it points at is as it was."""
    real = tmp_path / "real.yaml"
    shutil.copy(OLD / "edition.yaml", real)
    (tmp_path / "set").mkdir()
    (tmp_path / "set" / "edition.yaml").symlink_to(real)
    code, _, err = _grove("migrate", str(tmp_path / "set"))
    assert code == 2 and "IO-WRITE" in err and "0 of 1 edition file(s) changed" in err
    assert real.read_bytes() == (OLD / "edition.yaml").read_bytes()
