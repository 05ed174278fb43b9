"""The `-o` rules `grove export` and `grove print` share (issue 47; grove/files/output.py): `-o -`
is standard output for JSON and refused, with a reason, where it cannot be; a file grove did not
write is replaced only with `--force`; a name that says another format is refused before any
work; a path that cannot be written is named as the user gave it, never as a temporary file."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from grove.cli import main
from grove.files import output

MINE = b"my notes, not grove's\n"


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


def test_json_to_standard_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run("export", "--format", "json", "-o", "-", "--edition", "base")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["meta"]["schema_version"] == "2" and set(doc["data"]) == {"base"}
    assert list(tmp_path.iterdir()) == []  # no file named `-`


@pytest.mark.parametrize("fmt, said", [("csv", "a folder of files"),
                                       ("parquet", "a folder of files"),
                                       ("sqlite", "a binary file")])
def test_standard_output_refused_where_it_cannot_hold_the_format(tmp_path, monkeypatch, fmt, said):
    monkeypatch.chdir(tmp_path)
    code, out, err = run("export", "--format", fmt, "-o", "-")
    assert code == 2 and out == "" and "USAGE-BAD-OPTION" in err and said in err
    assert "--format json -o -" in err and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("fmt, name", [("sqlite", "db.sqlite"), ("json", "db.json")])
def test_export_replaces_a_file_of_the_users_only_with_force(tmp_path, fmt, name):
    target = tmp_path / name
    target.write_bytes(MINE)
    code, _, err = run("export", "--format", fmt, "-o", str(target), "--edition", "base")
    assert code == 2 and "IO-WRITE" in err and "--force" in err and str(target) in err
    assert target.read_bytes() == MINE
    code, _, err = run("export", "--format", fmt, "-o", str(target), "--edition", "base",
                       "--force")
    assert code == 0, err
    assert output.made_by_grove(target)
    # grove's own file is replaced without --force: an export is made again and again
    code, _, err = run("export", "--format", fmt, "-o", str(target), "--edition", "alpine")
    assert code == 0, err
    if fmt == "sqlite":
        con = sqlite3.connect(target)
        assert {e for (e,) in con.execute("SELECT edition FROM editions")} == {"alpine", "base"}
        con.close()


def test_an_empty_file_is_replaced(tmp_path):
    target = tmp_path / "db.json"
    target.write_bytes(b"")
    code, _, err = run("export", "--format", "json", "-o", str(target), "--edition", "base")
    assert code == 0 and output.made_by_grove(target), err


@pytest.mark.parametrize("args", [("export", "--format", "sqlite", "-o", "NAME.json"),
                                  ("export", "--format", "json", "-o", "NAME.sqlite"),
                                  ("export", "--format", "csv", "-o", "NAME.sqlite"),
                                  ("print", "--edition", "base", "--lang", "en", "-o", "NAME.png")])
def test_a_name_that_says_another_format_is_refused(tmp_path, args):
    args = tuple(a.replace("NAME", str(tmp_path / "out")) for a in args)
    code, out, err = run(*args)
    assert code == 2 and "IO-WRITE" in err and "the name says" in err, err
    assert list(tmp_path.iterdir()) == []


def test_the_suffix_rule():
    assert output.suffix_refusal("cards.pdf", "pdf") is None
    assert output.suffix_refusal("grove.sqlite3", "sqlite") is None
    assert output.suffix_refusal("grove.db", "sqlite") is None
    assert output.suffix_refusal("cards", "pdf") is None  # no extension: the user's choice
    assert output.suffix_refusal("cards.v2", "pdf") is None  # not one grove knows
    assert output.suffix_refusal("cards.PNG", "pdf") == "the name says png, but the format is pdf"


def test_print_replaces_a_file_of_the_users_only_with_force(tmp_path):
    target = tmp_path / "cards.pdf"
    target.write_bytes(MINE)
    base = ("print", "--edition", "base", "--lang", "en", "--only", "red_fox", "-o", str(target))
    code, _, err = run(*base)
    assert code == 2 and "--force" in err and target.read_bytes() == MINE
    code, _, err = run(*base, "--force")
    assert code == 0 and output.made_by_grove(target), err
    code, _, err = run(*base)  # its own PDF: replaced
    assert code == 0, err


def test_print_refuses_standard_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run("print", "--edition", "base", "--lang", "en", "-o", "-")
    assert code == 2 and out == "" and "standard output" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [
    ("export", "--format", "json", "-o", "/proc/grove-cannot/db.json"),
    ("export", "--format", "json", "-o", "/proc/grove-cannot.json"),
    ("print", "--edition", "base", "--lang", "en", "--only", "red_fox", "-o",
     "/proc/grove-cannot.pdf"),
])
def test_an_unwritable_path_is_named_as_given(args):
    if not Path("/proc/self").is_dir():
        pytest.skip("needs /proc, a folder no file can be made in")
    code, _, err = run(*args)
    assert code == 2 and "IO-WRITE" in err, err
    assert f"{args[-1]}: cannot write" in err and ".tmp" not in err


def test_replacing_names_the_target_not_the_temporary_file(tmp_path, monkeypatch):
    import os

    from grove.files import write

    real = os.open

    def refuse(path, *a, **k):
        if str(path).endswith(".tmp"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, *a, **k)

    monkeypatch.setattr(write.os, "open", refuse)
    with pytest.raises(PermissionError) as exc:
        write.write_bytes(tmp_path / "x.json", b"{}")
    assert exc.value.filename == str(tmp_path / "x.json")
