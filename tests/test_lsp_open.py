"""`grove lsp` on opening a file of a set `grove lint` has seen: lint's findings from its cache,
whole, without checking again; and only while the editor holds the files as they are on disk.

In process, on a copy of the small test edition meadow (one lint, a few sessions): the timing
itself is `make bench`'s (benchmarks/lsp.py, open -> first diagnostics through a real client).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from grove import api
from grove.compiler.search_path import search_path
from grove.lsp.documents import Session, target_of

MEADOW = Path(__file__).parent / "editions" / "meadow"


def _linted_copy(tmp_path: Path) -> tuple[Path, list]:
    folder = tmp_path / "meadow"
    shutil.copytree(MEADOW, folder)
    species = folder / "species.yaml"
    text = species.read_text(encoding="utf-8")
    species.write_text(text.replace("score: 1 per pond", "score: 1 per pnd"), encoding="utf-8")
    return folder, api.lint([str(folder)], roots=search_path(env={}))


def test_a_set_lint_has_seen_is_answered_from_its_cache(tmp_path: Path):
    folder, linted = _linted_copy(tmp_path)
    assert [d.code for d in linted if d.is_error] == ["DSL-UNKNOWN-NAME"]
    session = Session(search_path(env={}))
    f = folder / "species.yaml"
    target = target_of(f, f.read_text(encoding="utf-8"))
    session.set_text(f, f.read_text(encoding="utf-8"))  # opened: the same text as on disk
    assert session.linted(target) == linted
    # the loading and checking findings, asked first, are lint's own too
    assert set(session.check(target, printouts=False)) <= set(linted)


def test_unsaved_text_is_checked_not_read_from_the_cache(tmp_path: Path):
    folder, linted = _linted_copy(tmp_path)
    session = Session(search_path(env={}))
    f = folder / "species.yaml"
    fixed = f.read_text(encoding="utf-8").replace("per pnd", "per pond")
    session.set_text(f, fixed)
    target = target_of(f, fixed)
    assert session.linted(target) is None
    assert not [d for d in session.check(target) if d.is_error]


def test_a_set_lint_has_not_seen_gets_no_cached_answer(tmp_path: Path):
    folder = tmp_path / "meadow"
    shutil.copytree(MEADOW, folder)
    f = folder / "species.yaml"
    assert Session(search_path(env={})).linted(target_of(f, None)) is None


def test_after_the_warm_pieces_a_keystroke_reads_its_own_file_only(tmp_path: Path, monkeypatch):
    """The server builds, after a file's first diagnostics, what its first keystroke would: the
    folder's files read (and the grammar), so the keystroke reads again only the file it
    changed, and finds what a session that was never warmed finds."""
    from grove.compiler import loader

    folder, _ = _linted_copy(tmp_path)
    f = folder / "species.yaml"
    text = f.read_text(encoding="utf-8")
    typed = text.replace("per pnd", "per pond")
    cold = Session(search_path(env={}))
    cold.set_text(f, typed)
    expected = cold.check(target_of(f, typed))
    loader._read_text.cache_clear()  # what the cold session parsed is not the warm one's

    session = Session(search_path(env={}))
    session.set_text(f, text)
    pieces = session.warm_pieces(target_of(f, text))
    assert len(pieces) == 2
    for piece in pieces:
        piece()
    read: list[str] = []  # the files parsed
    real = loader.load_text
    monkeypatch.setattr(loader, "load_text",
                        lambda raw, path, *a: read.append(Path(path).name) or real(raw, path, *a))
    session.set_text(f, typed)
    assert session.check(target_of(f, typed)) == expected
    assert read == ["species.yaml"]
    assert session.warm_pieces(target_of(tmp_path / "forest.yaml", "players: []")) == []
