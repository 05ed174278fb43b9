"""The rules of `-o` that `grove export` and `grove print` share (docs/export.md, docs/print.md).

A file the user names with `-o` may hold something of theirs: grove replaces it only when it
wrote it (its own SQLite, JSON or PDF, told by what is inside), when it is empty, or when the
user says `--force`. A name whose extension says another format (`-o cards.png --format pdf`)
is a slip, refused before any work. `-o -` is standard output, for the formats that are one
text file. Each rule answers with why not, or None; the commands make the diagnostic.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from pathlib import Path

STDOUT = "-"  # `-o -`
# the extensions of the formats grove writes and of their near neighbours: a name ending in
# one of them that is not the format asked for is taken for a slip
_KNOWN = {".pdf": "pdf", ".png": "png", ".jpg": "jpeg", ".jpeg": "jpeg", ".json": "json",
          ".sqlite": "sqlite", ".sqlite3": "sqlite", ".db": "sqlite", ".csv": "csv",
          ".parquet": "parquet", ".svg": "svg", ".zip": "zip", ".txt": "text"}
_PEEK = 4096  # bytes read to tell a file grove wrote


def is_stdout(out: str | None) -> bool:
    return out == STDOUT


def suffix_refusal(path: str | os.PathLike[str], fmt: str) -> str | None:
    """Why a file named `path` cannot hold `fmt`: its extension names another format grove
    knows (`out.png` for a PDF). An extension grove does not know is the user's choice."""
    said = _KNOWN.get(Path(path).suffix.lower())
    if said is None or said == fmt:
        return None
    return f"the name says {said}, but the format is {fmt}"


def made_by_grove(path: str | os.PathLike[str]) -> bool:
    """Whether the file at `path` is one grove writes: an export's SQLite (its `meta` table
    names grove's version), an export's JSON (it starts with its `meta`'s `grove_version`), or
    a PDF whose producer is grove. Reads a few bytes; never raises."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(_PEEK)
    except OSError:
        return False
    if head.startswith(b"%PDF"):  # the information dictionary may sit anywhere in the file
        return _holds(path, b"/Producer (grove)")
    if head.startswith(b'{\n "meta": {\n  "grove_version":'):
        return True
    if head.startswith(b"SQLite format 3\x00"):
        try:
            con = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True)
            try:
                return con.execute("SELECT 1 FROM meta WHERE key = 'grove_version'"
                                   ).fetchone() is not None
            finally:
                con.close()
        except sqlite3.Error:
            return False
    return False


def _holds(path: str | os.PathLike[str], needle: bytes, chunk: int = 1 << 20) -> bool:
    """Whether the file holds `needle`, read a chunk at a time (a PDF of cards is megabytes)."""
    try:
        with open(path, "rb") as fh:
            carry = b""
            while block := fh.read(chunk):
                if needle in carry + block:
                    return True
                carry = block[-len(needle):]
    except OSError:
        return False
    return False


def replace_refusal(path: str | os.PathLike[str], force: bool) -> str | None:
    """Why grove may not replace the file at `path` without `--force`: it is there, holds
    something, and grove did not write it. A missing or empty file, or one grove wrote, may be
    replaced."""
    if force:
        return None
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_size == 0 or made_by_grove(path):
        return None  # what is not a regular file is refused by files.write.refusal
    return "is there and grove did not write it; --force replaces it"


def named_file_refusal(path: str | os.PathLike[str], fmt: str, force: bool) -> str | None:
    """Every rule for a file the user named with `-o`, the first that refuses: the name's
    extension, then the file there."""
    return suffix_refusal(path, fmt) or replace_refusal(path, force)
