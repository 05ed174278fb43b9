"""Issue 13's "What must hold", as a whole: hostile inputs, each run as the real `grove` command.

Every case here must end within 10 s and 300 MB (the command's own peak resident memory, from
`wait4`), with exit 1 or 2 and no traceback; where the problem has a place, the output gives it as
`file:line:col`; what is printed is escaped and short; no input file changes (hashed before and
after); and no output file is left half-written, or written at all when the command fails (a
record, `--final`, a sheet, each into a path given after the error).

The inputs are made in a temporary folder, so no large or hostile file is committed.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from grove.dsl.diagnostics import escape

ROOT = Path(__file__).resolve().parents[1]
GROVE = Path(sys.executable).with_name("grove")
EXAMPLE = (ROOT / "grove" / "examples" / "base_three_players.yaml").read_text(encoding="utf-8")
SECONDS, MB = 10, 300  # the bounds
CAP_MB = 2048  # address space a case may take before the kernel refuses it: fails fast, not late


@dataclass
class Ran:
    code: int
    out: str
    err: str
    seconds: float  # wall-clock
    cpu: float  # user and system time of the command itself
    mb: float  # its peak resident memory


# The command's own peak memory is its `ru_maxrss` from `wait4`, but a child forked from pytest
# starts out with pytest's resident size as its high-water mark (the kernel keeps it across exec),
# so grove is started by a small launcher: forked from a process of a few MB, grove's figure is
# its own. The launcher caps grove's address space, and writes its figures to a file.
LAUNCHER = """
import json, os, resource, sys
figures, cap, argv = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
pid = os.fork()
if pid == 0:
    resource.setrlimit(resource.RLIMIT_AS, (cap, resource.RLIM_INFINITY))
    os.execv(argv[0], argv)
_, status, ru = os.wait4(pid, 0)
code = os.waitstatus_to_exitcode(status)
with open(figures, "w") as fh:
    json.dump({"code": code, "cpu": ru.ru_utime + ru.ru_stime, "kb": ru.ru_maxrss}, fh)
os._exit(0)
"""


def grove(*args: str, cwd: Path) -> Ran:
    """The real command, with its own peak resident memory, CPU and wall time."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.TemporaryDirectory() as d:
        figures = Path(d) / "figures.json"
        start = time.monotonic()
        p = subprocess.Popen([sys.executable, "-c", LAUNCHER, str(figures),
                              str(CAP_MB * 1024 * 1024), str(GROVE), *args], cwd=cwd,
                             stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                             start_new_session=True)
        # a hang fails the case, not the suite
        killer = threading.Timer(SECONDS * 6, os.killpg, (p.pid, signal.SIGKILL))
        killer.start()
        try:
            p.wait()
        finally:
            killer.cancel()
        seconds = time.monotonic() - start
        out.seek(0)
        err.seek(0)
        ran = json.loads(figures.read_text()) if figures.is_file() else {
            "code": -9, "cpu": float("inf"), "kb": 0}
        return Ran(ran["code"], out.read().decode("utf-8", "replace"),
                   err.read().decode("utf-8", "replace"), seconds, ran["cpu"],
                   ran["kb"] / 1024)


def _bomb(levels: int = 9) -> str:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def top(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A card set of one's own (`grove new`) and a finished game's record, to spoil."""
    top = tmp_path_factory.mktemp("hostile")
    for args in (["new", "woods", "-o", "woods"],
                 ["play", "--seed", "3", "--quiet", "--record", "game.jsonl"]):
        ran = grove(*args, cwd=top)
        assert ran.code == 0, ran.err
    return top


def _set_with(top: Path, name: str, change) -> str:
    """A copy of the woods set with its species file changed; the folder's name."""
    folder = top / name
    if not folder.exists():
        shutil.copytree(top / "woods", folder)
        species = folder / "species.yaml"
        species.write_bytes(change(species.read_bytes()))
    return name


def _rule(text: bytes, rule: str) -> bytes:
    """The species file with its first `score:` rule replaced."""
    lines = text.split(b"\n")
    i = next(n for n, line in enumerate(lines) if line.strip().startswith(b"score:"))
    lines[i] = lines[i].split(b"score:")[0] + b"score: " + rule.encode()
    return b"\n".join(lines)


def _record(top: Path) -> list[str]:
    return (top / "game.jsonl").read_text(encoding="utf-8").splitlines()


@dataclass
class Case:
    args: list[str]  # `{x}` is a file made by `files`
    files: dict[str, bytes] = field(default_factory=dict)
    code: str = ""  # the diagnostic expected
    where: str | None = None  # the file whose `file:line:col` the output must give
    outputs: tuple[str, ...] = ()  # must not exist after the command
    exit: int = 1
    sparse: dict[str, int] = field(default_factory=dict)  # files of that many NUL bytes


def _cases(top: Path) -> dict[str, Case]:
    game = _record(top)
    big_name = "\u202e" + "N" * 2_000_000
    header = game[0].replace('"name": "Greedy 1"', f'"name": "{big_name}"', 1)
    return {
        "alias bomb, forest": Case(["score", "bomb.yaml"], {"bomb.yaml": (EXAMPLE + _bomb())
                                   .encode()}, "YAML-ALIAS-LIMIT", "bomb.yaml"),
        "alias bomb, lint of a forest": Case(["lint", "bomb.yaml"], {"bomb.yaml": (
            EXAMPLE + _bomb()).encode()}, "YAML-ALIAS-LIMIT", "bomb.yaml"),
        "alias bomb, card file": Case(
            ["lint", _set_with(top, "bomb_set", lambda t: t + b"\n" + _bomb().encode())],
            {}, "YAML-ALIAS-LIMIT", "bomb_set/species.yaml"),
        "alias bomb, cards of the set": Case(
            ["cards", "woods", "--cards", _set_with(top, "bomb_set", lambda t: t)], {},
            "YAML-ALIAS-LIMIT", "bomb_set/species.yaml"),
        "deep nesting": Case(["score", "deep.yaml"], {"deep.yaml": (
            EXAMPLE + "q: " + "[" * 5_000 + "]" * 5_000 + "\n").encode()},
            "YAML-TOO-DEEP", "deep.yaml"),
        "deeper nesting, within the size limit": Case(["score", "deeper.yaml"], {"deeper.yaml": (
            EXAMPLE + "q: " + "[" * 30_000 + "]" * 30_000 + "\n").encode()},
            "YAML-TOO-DEEP", "deeper.yaml"),
        "deep rule": Case(["lint", _set_with(top, "deep_set", lambda t: _rule(
            t, "1 per " + "(" * 400 + "bird" + ")" * 400))], {}, "DSL-TOO-DEEP",
            "deep_set/species.yaml"),
        "long rule": Case(["lint", _set_with(top, "long_set", lambda t: _rule(
            t, " + ".join(["1 per bird"] * 20_000)))], {}, "DSL-TOO-LONG",
            "long_set/species.yaml"),
        "huge forest file": Case(["score", "huge.yaml"], {"huge.yaml": (
            EXAMPLE + ("- " + "x" * 70 + "\n") * 80_000).encode()}, "INPUT-TOO-LARGE",
            "huge.yaml"),
        "a file of 400 MB, score": Case(["score", "vast.yaml"], {}, "INPUT-TOO-LARGE",
                                        "vast.yaml", sparse={"vast.yaml": 400 << 20}),
        "a file of 400 MB, lint": Case(["lint", "vast.yaml"], {}, "INPUT-TOO-LARGE",
                                       "vast.yaml", sparse={"vast.yaml": 400 << 20}),
        "huge card file": Case(["lint", _set_with(top, "huge_set", lambda t: t + (
            b"# " + b"x" * 70 + b"\n") * 80_000)], {}, "INPUT-TOO-LARGE",
            "huge_set/species.yaml"),
        "huge record, replay": Case(["replay", "huge.jsonl"], {"huge.jsonl": (
            "\n".join(game) + "\n" + (game[1] + "\n") * 200_000).encode()}, "INPUT-TOO-LARGE",
            "huge.jsonl"),
        "huge record, score": Case(["score", "huge.jsonl"], {"huge.jsonl": (
            "\n".join(game) + "\n" + (game[1] + "\n") * 200_000).encode()}, "INPUT-TOO-LARGE",
            "huge.jsonl"),
        "a 100 KB line, forest": Case(["score", "line.yaml"], {"line.yaml": EXAMPLE.replace(
            "edition: base", "edition: base\nwith: [" + "alpine, " * 12_000 + "\u202e]")
            .encode()}, "YAML-SYNTAX", "line.yaml"),
        "a 260 KB line, card file": Case(["lint", _set_with(top, "line_set", lambda t: t.replace(
            b"species:", b"with: [" + b"alpine, " * 32_000 + "\u202e\nspecies:".encode(), 1))],
            {}, "YAML-SYNTAX", "line_set/species.yaml"),
        "control and bidirectional characters": Case(["score", "bidi.yaml"], {"bidi.yaml": (
            b"edition: base\nplayers:\n  - name: \"Ana\\u202e\\e[2J\\a\"\n    forest:\n"
            b"      - tree: \"oak\\u202e\\e[31m\"\n")}, "SCHEMA-PATTERN",
            "bidi.yaml"),
        "a name of 100,000 characters": Case(["score", "name.yaml"], {"name.yaml": (
            EXAMPLE.replace("name: ", f"name: {big_name[:100_000]}\n  #", 1).encode())},
            "INPUT-NAME-TOO-LONG", "name.yaml"),
        "a name of 2 MB": Case(["score", "name2.yaml"], {"name2.yaml": EXAMPLE.replace(
            "name: ", f"name: {big_name}\n  #", 1).encode()}, "INPUT-TOO-LARGE",
            "name2.yaml"),
        "a record's player name of 2 MB": Case(["replay", "name.jsonl"], {"name.jsonl": (
            "\n".join([header, *game[1:]]) + "\n").encode()}, "RECORD-DIFFERS", "name.jsonl"),
        "a python tag": Case(["score", "tag.yaml"], {"tag.yaml": EXAMPLE.replace(
            "edition: base", "edition: !!python/object/apply:os.system [echo hi]").encode()},
            "YAML-TAG", "tag.yaml"),
        "bad UTF-8, forest": Case(["score", "utf8.yaml"], {"utf8.yaml": EXAMPLE.encode()
                                  .replace(b"name: ", b"name: \xff\xfe", 1)}, "IO-ENCODING",
                                  "utf8.yaml", exit=2),
        "bad UTF-8, card file": Case(["lint", _set_with(top, "utf8_set", lambda t: t.replace(
            b"names:", b"names: \xc3(", 1))], {}, "IO-ENCODING", "utf8_set/species.yaml",
            exit=2),
        "bad UTF-8, record": Case(["replay", "utf8.jsonl"], {"utf8.jsonl": (
            "\n".join(game[:5]) + "\n").encode() + b"\xff\xfe\n"}, "IO-ENCODING",
            "utf8.jsonl", exit=2),
        "truncated record, replay": Case(["replay", "cut.jsonl"], {"cut.jsonl": (
            "\n".join(game[:6]) + "\n" + game[6][:25]).encode()}, "RECORD-BAD", "cut.jsonl"),
        "truncated record, score": Case(["score", "cut.jsonl"], {"cut.jsonl": (
            "\n".join(game[:6]) + "\n" + game[6][:25]).encode()}, "RECORD-BAD", "cut.jsonl"),
        "record cut at a line": Case(["replay", "short.jsonl", "--verify"], {"short.jsonl": (
            "\n".join(game[:9]) + "\n").encode()}, "RECORD-UNFINISHED", "short.jsonl"),
        "record with a line changed": Case(["replay", "changed.jsonl"], {"changed.jsonl": (
            "\n".join([*game[:4], game[4].replace('"action": "', '"action": "x', 1),
                       *game[5:]]) + "\n").encode()}, "RECORD-DIFFERS", "changed.jsonl"),
        "record to a full disk": Case(["play", "--quiet", "--record", "/dev/full"], {},
                                      "IO-WRITE", exit=2),
        "record into no folder": Case(["play", "--quiet", "--record", "nowhere/game.jsonl"],
                                      {}, "IO-WRITE", exit=2, outputs=("nowhere",)),
        "final into a folder, with a record": Case(
            ["play", "--quiet", "--record", "never.jsonl", "--final", "woods"], {},
            "'--final'", exit=2, outputs=("never.jsonl",)),
        "final into no folder, with a record": Case(
            ["play", "--quiet", "--record", "never.jsonl", "--final", "nowhere/final.yaml"],
            {}, "IO-WRITE", exit=2, outputs=("never.jsonl", "nowhere")),
        "record over an older one, of a game that cannot start": Case(
            ["play", "--lang", "xx", "--record", "old.jsonl"], {"old.jsonl": b"kept\n"},
            "USAGE-LANGUAGE", exit=2),
        "record and final of a game that cannot start": Case(
            ["play", "--edition", "atlantis", "--record", "never.jsonl", "--final",
             "never.yaml"], {}, "EDITION-UNKNOWN", exit=2,
            outputs=("never.jsonl", "never.yaml")),
        "record of a game with broken cards": Case(
            ["play", "--edition", "woods", "--cards", _set_with(
                top, "deep_set", lambda t: t), "--record", "never.jsonl"], {}, "DSL-TOO-DEEP",
            "deep_set/species.yaml", outputs=("never.jsonl",)),
        "sheet of broken cards": Case(
            ["sheet", "--edition", "woods", "--cards", _set_with(top, "deep_set", lambda t: t),
             "--lang", "en", "--format", "html", "-o", "never.html"], {}, "DSL-TOO-DEEP",
            "deep_set/species.yaml", outputs=("never.html",)),
        "sheet into no folder": Case(
            ["sheet", "--edition", "woods", "--cards", "woods", "--lang", "en", "--format",
             "html", "-o", "nowhere/sheet.html"], {}, "IO-WRITE", exit=2,
            outputs=("nowhere",)),
    }


@pytest.fixture(scope="module")
def cases(top: Path) -> dict[str, Case]:
    """The cases, made once: each test made all of them again for its one (megabytes of
    input each time, 2 s of CPU over the file)."""
    return _cases(top)


def _names() -> list[str]:
    with tempfile.TemporaryDirectory() as d:  # the names only: nothing is run to list them
        fake = Path(d)
        (fake / "game.jsonl").write_text('{"a": 1}\n' * 12, encoding="utf-8")
        (fake / "woods").mkdir()
        (fake / "woods" / "species.yaml").write_text("score: 1\n", encoding="utf-8")
        return list(_cases(fake))


def _digests(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): _digest(p)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _digest(path: Path) -> str:
    """The digest of a file's bytes; a file with no data anywhere (a sparse input of 400 MB,
    as the kernel's SEEK_DATA finds) is that many NUL bytes, said by its size: reading and
    hashing it before and after its case took 5 s of CPU, and its first written byte would
    be data."""
    with open(path, "rb") as fh:
        try:
            os.lseek(fh.fileno(), 0, os.SEEK_DATA)
        except OSError as exc:
            if exc.errno != errno.ENXIO:  # ENXIO: no data from the start to the end
                raise
            return f"all holes: {os.fstat(fh.fileno()).st_size} NUL bytes"
        digest = hashlib.sha256()
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
        return digest.hexdigest()


# What grove does not hold yet, each for a reason outside grove/cli.py (reported on issue 13);
# none now: 30,000 nested brackets, which crashed libyaml's composer before the depth check ran,
# are refused as YAML-TOO-DEEP like 5,000
KNOWN: dict[str, str] = {}


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=KNOWN[n])) if n in KNOWN else n
    for n in _names()])
def test_hostile_input(top: Path, cases: dict[str, Case], name: str) -> None:
    case = cases[name]
    work = top / re.sub(r"\W+", "_", name)
    work.mkdir(exist_ok=True)
    for link in ("woods", "bomb_set", "deep_set", "long_set", "huge_set", "utf8_set",
                 "line_set"):
        if (top / link).exists() and not (work / link).exists():
            (work / link).symlink_to(top / link, target_is_directory=True)
    for fname, data in case.files.items():
        (work / fname).write_bytes(data)
    for fname, size in case.sparse.items():  # takes no disk: the file system holds no blocks
        with open(work / fname, "wb") as fh:
            fh.truncate(size)
    before = _digests(top)
    ran = grove(*case.args, cwd=work)
    print(f"{name}: exit {ran.code}, {ran.seconds:.2f} s ({ran.cpu:.2f} s CPU), {ran.mb:.0f} MB")
    text = ran.out + ran.err
    assert "Traceback" not in text, text[-3000:]
    assert ran.code == case.exit, (ran.code, text[:3000])
    assert case.code in ran.err, ran.err[:3000]
    # the command's own CPU time is held to the 10 s; wall-clock time only to a few
    # times that, since the suite may share the machine with other work
    assert ran.cpu < SECONDS, f"took {ran.cpu:.1f} s of CPU time"
    assert ran.seconds < SECONDS * 3, f"took {ran.seconds:.1f} s"
    assert ran.mb < MB, f"peak resident memory {ran.mb:.0f} MB"
    if case.where:
        at = rf"(^|\n)(\S*/)?{re.escape(case.where)}:\d+:\d+: error {case.code}"
        assert re.search(at, ran.err), (
            f"no {case.where}:line:col in\n{ran.err[:3000]}")
    assert len(text) < 10_000, f"printed {len(text)} characters"
    raw = [line for line in text.split("\n") if escape(line) != line]
    assert not raw, f"printed raw control or bidirectional characters: {raw[:3]!r}"
    assert _digests(top) == before, "an input file changed"
    for out in case.outputs:
        assert not (work / out).exists(), f"{out} was written by a command that failed"
    assert not list(work.glob(".*.tmp")), "a temporary file was left behind"
    for fname in case.sparse:
        (work / fname).unlink()


def test_escaped_where_the_input_is_fine(top: Path) -> None:
    """Valid input that carries control and bidirectional characters (a player's name, a card
    set's species name) is printed escaped by the scoreboard and `grove cards`, as diagnostics
    print it; exit 0."""
    work = top / "fine"
    work.mkdir(exist_ok=True)
    forest = work / "names.yaml"
    forest.write_text(EXAMPLE.replace("name: ", "name: \"Ana\\u202e\\e[2J\"\n  #", 1),
                      encoding="utf-8")
    folder = work / "named_set"
    shutil.copytree(top / "woods", folder)
    species = folder / "species.yaml"
    text = species.read_text(encoding="utf-8")
    species.write_text(text.replace("{en: Rowan,", "{en: \"\\u2066Rowan\\u202e\",", 1),
                       encoding="utf-8")
    for args in (["score", str(forest)], ["score", str(forest), "--json"],
                 ["cards", "woods", "--cards", str(folder)],
                 ["cards", "woods", "--cards", str(folder), "--json"]):
        ran = grove(*args, cwd=work)
        assert ran.code == 0, ran.err[-3000:]
        raw = [line for line in (ran.out + ran.err).split("\n") if escape(line) != line]
        assert not raw, (args, raw[:3])
        assert "\\u202e" in ran.out, (args, ran.out[:2000])
