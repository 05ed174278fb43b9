"""`grove lint` on an edition's icons/: a file a sheet cannot draw (ICON-BAD), one with a script,
event handler or external reference (ICON-UNSAFE), one named for no symbol
(ICON-UNKNOWN-SYMBOL), each at its file, line and column; the shipped icons lint clean; a changed
icon is linted again (the cached findings key on the icons too)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from grove import api
from grove.cards import __file__ as _cards_init
from grove.cli import main
from grove.compiler.search_path import search_path
from grove.printouts.sheets import icon_lint, icons

CARDS = Path(_cards_init).parent
HEDGEROW = Path(__file__).parent / "editions" / "hedgerow"
GOOD = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="8"/></svg>\n'

CASES = {  # file -> (its text, code, line, col, words of the message)
    "bird.svg": (GOOD, None, 0, 0, ""),
    "bat.svg": ('<svg viewBox="0 0 24 24">\n  <path d="M2 2 L20 20"/>\n  <script>alert(1)</script>\n'
                "</svg>\n", "ICON-UNSAFE", 3, 3, "<script>"),
    "deer.svg": ('<svg viewBox="0 0 24 24">\n<path d="M2 2 L20 20"\n      onload="x()"/>\n</svg>\n',
                 "ICON-UNSAFE", 3, 7, "event handler 'onload'"),
    "insect.svg": ('<svg xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 24 24">\n'
                   '<use xlink:href="http://example.org/a.svg#x"/></svg>\n',
                   "ICON-UNSAFE", 2, 1, "<use>"),
    "plant.svg": ('<svg viewBox="0 0 24 24">\n<rect width="4" height="4" '
                  'fill="url(http://example.org/p)"/></svg>\n', "ICON-UNSAFE", 2, 28,
                  "external reference in 'fill'"),
    "mushroom.svg": ('<?xml version="1.0"?>\n<!DOCTYPE svg [<!ENTITY a "b">]>\n'
                     '<svg viewBox="0 0 24 24"/>\n', "ICON-UNSAFE", 2, 1, "DOCTYPE"),
    "oak.svg": ('<svg viewBox="0 0 24 24">\n<path d="M2 2 L20 20"\n', "ICON-BAD", 2, 1, "not XML"),
    "beech.svg": ('<svg viewBox="0 0 100 100"><circle r="3"/></svg>', "ICON-BAD", 1, 6,
                  "viewBox"),
    "linden.svg": ('<svg viewBox="0 0 24 24">\n\n    <circle r="3" transform="scale(2)"/></svg>',
                   "ICON-BAD", 3, 19, "'transform' is not supported"),
    "birch.svg": ("<svg>" + " " * (icons.MAX_BYTES + 10) + "</svg>", "ICON-BAD", 1, 1,
                  "larger than 32 KiB"),
    "pawed.svg": (b'<svg viewBox="0 0 24 24">\n  <title>\xff</title></svg>', "ICON-BAD", 2, 10,
                  "not UTF-8"),
}


@pytest.fixture()
def author(tmp_path):
    """An author's expansion of the base game outside cards/, with icons of every kind."""
    folder = tmp_path / "sets" / "hedgerow"
    shutil.copytree(HEDGEROW, folder)
    (folder / "icons").mkdir()
    for name, (text, *_rest) in CASES.items():
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        (folder / "icons" / name).write_bytes(data)
    (folder / "icons" / "hawthorn.svg").write_text(GOOD, encoding="utf-8")  # its own symbol?
    (folder / "icons" / "brid.svg").write_text(GOOD, encoding="utf-8")
    (folder / "icons" / "notes.txt").write_text("drawn by me", encoding="utf-8")
    return folder


def test_each_broken_icon_is_a_finding_at_its_line_and_column(author):
    found = [d for d in api.lint([str(author)]) if d.code.startswith("ICON-")]
    by_file = {(Path(d.span.file).name, d.code): d for d in found}
    for name, (_text, code, line, col, words) in CASES.items():
        if code is None:
            assert not [d for d in found if Path(d.span.file).name == name], name
            continue
        d = by_file[(name, code)]
        assert (d.span.line, d.span.col) == (line, col), (name, d)
        assert words in d.message and d.hint, d
    unknown = by_file[("brid.svg", "ICON-UNKNOWN-SYMBOL")]
    assert unknown.severity == "warning" and unknown.hint == "did you mean 'bird.svg'?"
    names = {Path(d.span.file).name for d in found}
    assert "notes.txt" not in names
    symbols = {s.id for s in api.load_cardset("base", ["hedgerow"],
                                              search_path([author.parent], env={})).symbols}
    assert ("hawthorn.svg" in names) == ("hawthorn" not in symbols)


def test_the_cli_prints_them_with_the_source_line_and_exit_1(author):
    res = CliRunner().invoke(main, ["lint", str(author)])
    assert res.exit_code == 1, res.output
    assert "icons/deer.svg:3:7: error ICON-UNSAFE" in res.stderr + res.output
    assert "Traceback" not in res.output


def test_a_changed_icon_is_linted_again(author):
    first = {d.code for d in api.lint([str(author)]) if Path(d.span.file).name == "oak.svg"}
    assert first == {"ICON-BAD"}
    (author / "icons" / "oak.svg").write_text(GOOD, encoding="utf-8")
    again = {d.code for d in api.lint([str(author)]) if Path(d.span.file).name == "oak.svg"}
    assert again == set()


def test_the_shipped_icons_lint_clean():
    roots = search_path(env={})
    wanted = [p.name for p in sorted(CARDS.iterdir()) if (p / "edition.yaml").is_file()]
    assert len(wanted) == 5
    assert icon_lint.lint(roots, wanted) == []
    assert all(icon_lint.icon_files(CARDS / e) for e in wanted)
