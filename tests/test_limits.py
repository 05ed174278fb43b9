"""Hostile input meets a limit with its own diagnostic, quickly, and never a traceback.

Each input here once took tens of seconds and gigabytes (an alias bomb, a 5 MB forest file), ended
in a RecursionError (a rule 400 parentheses deep), or printed megabytes for one error (a 2 MB name,
a 260 KB line). They are generated in `tmp_path`, so no large file is committed. "Quickly" is
bounded in CPU seconds, which a loaded machine does not stretch as it does wall time.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grove import forest_file
from grove.compiler import schemas
from grove.compiler import yaml_source as ys
from grove.dsl import parser
from grove.dsl.diagnostics import DiagnosticError, Span, error, format_json, format_text

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "grove" / "examples" / "base_three_players.yaml"
GROVE = Path(sys.executable).with_name("grove")


def _bomb(levels: int = 9, prefix: str = "") -> str:
    """Anchors referring to anchors: ten to the `levels` values once expanded."""
    lines = [prefix + "a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]")
    return "\n".join(lines) + "\n"


def _codes(exc: pytest.ExceptionInfo[DiagnosticError]) -> list[str]:
    return [d.code for d in exc.value.diagnostics]


# -- YAML aliases


@pytest.mark.parametrize("prefix", ["", "q: {a:b}\n"], ids=["fast path", "round-trip loader"])
def test_alias_bomb_is_refused_at_the_alias(prefix: str) -> None:
    # `{a:b}` is YAML 1.2 that libyaml refuses, so the second text goes to ruamel's own loader
    start = time.process_time()
    with pytest.raises(DiagnosticError) as exc:
        ys.loads(_bomb(prefix=prefix), "bomb.yaml")
    assert time.process_time() - start < 1.0
    (d,) = exc.value.diagnostics
    assert d.code == "YAML-ALIAS-LIMIT"
    # a0 is 11 values (the list and its items), a1 111, a2 1,111: the aliases on the a1 and a2
    # lines stand for 1,220 values, and the eighth alias of the a3 line passes 10,000
    offset = prefix.count("\n")
    assert (d.span.line, d.span.col) == (4 + offset, len("a3: &a3 [") + 1 + 7 * len("*a2, "))


def test_alias_bomb_without_libyaml(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ys, "_c_composer", lambda: None)
    with pytest.raises(DiagnosticError) as exc:
        ys.loads(_bomb(), "bomb.yaml")
    assert _codes(exc) == ["YAML-ALIAS-LIMIT"]


def test_a_few_shared_values_still_load() -> None:
    doc = ys.loads(_bomb(levels=3) + "b: *a2\n", "ok.yaml")
    assert len(ys.plain(doc.data)["b"]) == 10
    assert ys.plain(doc.data)["b"][0][0] == ["x"] * 10


def test_alias_bomb_as_forest_file(tmp_path: Path) -> None:
    path = tmp_path / "forest.yaml"
    path.write_text("edition: base\nplayers: [{name: a, forest: []}]\n" + _bomb(), encoding="utf-8")
    with pytest.raises(DiagnosticError) as exc:
        forest_file.read(path)
    assert _codes(exc) == ["YAML-ALIAS-LIMIT"]


@pytest.mark.parametrize("prefix", ["", "q: {a:b}\n"], ids=["fast path", "round-trip loader"])
@pytest.mark.parametrize("opening", ["[", "{a: "], ids=["lists", "mappings"])
def test_deep_nesting_is_refused_at_the_first_level_too_many(opening: str, prefix: str) -> None:
    # 5,000 levels ended in a RecursionError traceback in the round-trip loader, which now
    # meets the limit as its composer takes the events
    text = prefix + "players: " + opening * 5000 + "1" + opening[0].translate(
        {91: 93, 123: 125}) * 5000
    with pytest.raises(DiagnosticError) as exc:
        ys.loads(text, "deep.yaml")
    (d,) = exc.value.diagnostics
    assert d.code == "YAML-TOO-DEEP" and d.span.line == 1 + prefix.count("\n")
    # the root mapping is level 0, `players:`'s value level 1: level 41 is what the 40th opening
    # holds first (the next opening of a list, the key `a` of a mapping)
    fortieth = len("players: ") + 1 + (ys.MAX_YAML_DEPTH - 1) * len(opening)
    assert d.span.col == fortieth + 1


def test_nesting_at_the_limit_loads() -> None:
    depth = ys.MAX_YAML_DEPTH
    doc = ys.loads("a: " + "[" * depth + "]" * depth, "ok.yaml")
    assert doc.data["a"] is not None


def test_deep_nesting_without_libyaml(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ys, "_c_composer", lambda: None)
    with pytest.raises(DiagnosticError) as exc:
        ys.loads("a: " + "[" * 5000 + "]" * 5000, "deep.yaml")
    assert _codes(exc) == ["YAML-TOO-DEEP"]


@pytest.mark.parametrize("text", [
    "q: " + "[" * 30_000 + "]" * 30_000,
    "q: " + "{a: " * 30_000 + "1" + "}" * 30_000,
    "q:\n" + "- " * 40_000 + "x",
], ids=["lists", "mappings", "block-sequences"])
def test_nesting_that_crashed_libyaml_is_refused(text: str) -> None:
    # about 30,000 levels (60 KB, within a forest file's limit) crashed libyaml's composer, which
    # recurses in C, with a segmentation fault before the depth check ran: in a child, so that a
    # crash fails this test instead of ending the suite
    code = ("import sys; from grove.compiler import yaml_source as ys\n"
            "from grove.dsl.diagnostics import DiagnosticError\n"
            "try:\n    ys.loads(sys.stdin.read(), 'deep.yaml')\n"
            "except DiagnosticError as exc:\n    print(exc.diagnostics[0].code)\n")
    ran = subprocess.run([sys.executable, "-c", code], input=text, capture_output=True,
                         text=True, timeout=60, cwd=Path(__file__).resolve().parents[1])
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert ran.stdout.strip() == "YAML-TOO-DEEP"


def test_shipped_files_keep_the_fast_path() -> None:
    """The bound that sends a text to the event check before libyaml's composer is not met by
    any shipped YAML file, so reading them costs no second parse; one past it is."""
    root = Path(__file__).resolve().parents[1]
    files = [p for p in root.rglob("*.yaml") if ".venv" not in p.parts]
    assert files
    deep = [str(p) for p in files if ys._may_nest_deep(p.read_text(encoding="utf-8"))]
    assert not deep
    assert ys._may_nest_deep("q: " + "[" * (ys.C_COMPOSER_SAFE_DEPTH + 1))
    assert ys._may_nest_deep("q:\n" + "- " * ys.C_COMPOSER_SAFE_DEPTH + "x")


# -- file size


def test_card_file_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("# x\n" * (ys.MAX_CARD_FILE_BYTES // 4 + 1), encoding="utf-8")
    start = time.process_time()
    with pytest.raises(DiagnosticError) as exc:
        ys.load(path)
    assert time.process_time() - start < 0.5
    (d,) = exc.value.diagnostics
    assert d.code == "INPUT-TOO-LARGE"
    assert str(path.stat().st_size) in d.message and str(ys.MAX_CARD_FILE_BYTES) in d.message
    path.write_text("# x\n" * (ys.MAX_CARD_FILE_BYTES // 4), encoding="utf-8")
    assert ys.load(path).data is None  # at the limit: read as before


def test_forest_file_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "forest.yaml"
    text = EXAMPLE.read_text(encoding="utf-8")
    path.write_text(text + "#" * (ys.MAX_FOREST_FILE_BYTES - len(text.encode()) + 1),
                    encoding="utf-8")
    with pytest.raises(DiagnosticError) as exc:
        forest_file.read(path)
    assert _codes(exc) == ["INPUT-TOO-LARGE"]
    assert str(ys.MAX_FOREST_FILE_BYTES) in exc.value.diagnostics[0].message


def test_largest_shipped_files_are_far_below_the_limits() -> None:
    cards = max(p.stat().st_size for p in (ROOT / "grove" / "cards").rglob("*.yaml"))
    forests = max(p.stat().st_size for p in (ROOT / "grove" / "examples").glob("*.yaml"))
    assert cards * 20 < ys.MAX_CARD_FILE_BYTES and forests * 20 < ys.MAX_FOREST_FILE_BYTES


def test_dense_forest_below_the_limit_is_checked_in_seconds(tmp_path: Path) -> None:
    """The limit is what keeps the slowest file a forest may be within a few seconds."""
    text = EXAMPLE.read_text(encoding="utf-8")
    n = 0
    while len(text.encode()) < ys.MAX_FOREST_FILE_BYTES - 2000:
        text += f"  - name: P{n}\n    forest:\n" + "      - tree: beech\n        top: squirrel\n" * 50
        n += 1
    path = tmp_path / "dense.yaml"
    path.write_text(text, encoding="utf-8")
    start = time.process_time()
    with pytest.raises(DiagnosticError):
        forest_file.read(path)
    assert time.process_time() - start < 5


# -- DSL rules


def test_rule_nested_400_deep_is_refused_before_parsing() -> None:
    text = "1 per " + "(" * 400 + "bird" + ")" * 400
    with pytest.raises(DiagnosticError) as exc:
        parser.parse_rule("score", text, "cards.yaml", 7, 12)
    (d,) = exc.value.diagnostics
    assert d.code == "DSL-TOO-DEEP"
    # the 17th parenthesis, where the text starts at column 12 of line 7
    assert (d.span.line, d.span.col) == (7, 12 + len("1 per ") + parser.MAX_RULE_DEPTH)


def test_not_chains_count_as_nesting() -> None:
    with pytest.raises(DiagnosticError) as exc:
        parser.parse_rule("score", "1 per " + "not " * 400 + "bird")
    assert _codes(exc) == ["DSL-TOO-DEEP"]


def test_rule_at_the_depth_limit_parses() -> None:
    depth = parser.MAX_RULE_DEPTH
    rule = parser.parse_rule("score", "1 per " + "(" * depth + "bird" + ")" * depth)
    assert rule.terms


def test_rule_too_long() -> None:
    text = " + ".join(["1 per bird"] * 400)
    with pytest.raises(DiagnosticError) as exc:
        parser.parse_rule("score", text, "cards.yaml", 3, 5)
    (d,) = exc.value.diagnostics
    assert d.code == "DSL-TOO-LONG" and (d.span.line, d.span.col) == (3, 5)
    assert str(len(text)) in d.message


# -- names


def _forest_with_name(tmp_path: Path, name: str) -> Path:
    text = EXAMPLE.read_text(encoding="utf-8").replace("name: ", f"name: {name}\n  #", 1)
    path = tmp_path / "forest.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_long_player_name(tmp_path: Path) -> None:
    path = _forest_with_name(tmp_path, "A" * 100_000)
    with pytest.raises(DiagnosticError) as exc:
        forest_file.read(path)
    (d,) = exc.value.diagnostics
    assert d.code == "INPUT-NAME-TOO-LONG" and "100000" in d.message
    assert len(format_text(d)) < 1000


def test_long_key_in_a_card_file() -> None:
    doc = ys.loads("id: x\n" + "k" * 200 + ": 1\n", "c.yaml")
    diags = schemas.validate(doc, "edition")
    assert [d.code for d in diags] == ["INPUT-NAME-TOO-LONG"]
    assert (diags[0].span.line, diags[0].span.col) == (2, 1)


def test_name_at_the_limit_is_a_name(tmp_path: Path) -> None:
    ff = forest_file.read(_forest_with_name(tmp_path, "B" * schemas.MAX_NAME_CHARS))
    assert ff.forests[0].name == "B" * schemas.MAX_NAME_CHARS


# -- echoing input


def test_source_line_is_a_window_around_the_caret() -> None:
    line = "x" * 260_000 + "bad" + "y" * 1000
    d = error("T", Span("f.yaml", 1, 260_001, 1, 260_004), "bad thing")
    text = format_text(d, {"f.yaml": [line]})
    shown, caret = text.splitlines()[1:3]
    assert len(text) < 500
    assert shown[caret.index("^"):caret.index("^") + 3] == "bad" and caret.count("^") == 3


def test_bidi_and_control_characters_are_escaped() -> None:
    d = error("T", Span("f.yaml", 1, 9, 1, 11), "name '\u202eabc\x1b[2J'", "hint \u2066")
    text = format_text(d, {"f.yaml": ["name: \u202e\tab\x07c"]})
    assert not any(ch in text for ch in "\u202e\u2066\x1b\x07\t")
    assert "\\u202e" in text and "\\x1b" in text
    shown, caret = text.splitlines()[1:3]
    # the caret sits under the escaped characters it marks: `ab` after `\u202e\x09`
    assert shown[caret.index("^"):].startswith("ab")
    line = format_json([d])
    assert "\u202e" not in line and json.loads(line)["message"] == d.message


def test_long_message_is_cut() -> None:
    d = error("T", None, "v" * 100_000)
    assert len(format_text(d)) < 2000 and "more characters" in format_text(d)


# -- through the real command line


def _hostile(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """Each hostile file with the code it must get."""
    example = EXAMPLE.read_text(encoding="utf-8")
    files: dict[str, tuple[str, str]] = {
        "bomb": (example + _bomb(), "YAML-ALIAS-LIMIT"),
        "bomb_rt": (example + "q: {a:b}\n" + _bomb(), "YAML-ALIAS-LIMIT"),
        "deep": (example + "q: " + "[" * 5000 + "]" * 5000 + "\n", "YAML-TOO-DEEP"),
        "large": (example + ("- " + "x" * 70 + "\n") * 80_000, "INPUT-TOO-LARGE"),
        "name": (example.replace("name: ", "name: \u202e" + "N" * 100_000 + "\n  #", 1),
                 "INPUT-NAME-TOO-LONG"),
        "line": (example.replace("edition: base", "edition: base\nwith: ["
                                 + "alpine, " * 12_000 + "\u202e]"), "YAML-SYNTAX"),
    }
    out = {}
    for name, (text, code) in files.items():
        path = tmp_path / f"{name}.yaml"
        path.write_text(text, encoding="utf-8")
        out[name] = (path, code)
    return out


def _grove(*args: str, cwd: Path, cache: bool = False) -> tuple[int, str, float]:
    """Exit code, output and the CPU seconds the process used: CPU, which a loaded machine does
    not stretch as it does wall time, so the bound below says what the limits bound. Without
    the cache, unless `cache`: a result kept from an earlier run of the same file would not be
    the limit's work."""
    env = {**os.environ} if cache else {**os.environ, "GROVE_NO_CACHE": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run([str(GROVE), *args], capture_output=True, text=True, cwd=cwd, env=env,
                       timeout=60, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return r.returncode, r.stdout + r.stderr, cpu


@pytest.mark.parametrize("command", ["score", "lint"])
def test_hostile_files_through_the_cli(tmp_path: Path, command: str) -> None:
    for name, (path, code) in _hostile(tmp_path).items():
        rc, out, seconds = _grove(command, str(path), cwd=tmp_path)
        assert "Traceback" not in out, (name, out[-2000:])
        assert rc == 1 and code in out, (name, rc, out[:2000])
        assert len(out) < 5000, (name, len(out))
        assert "\u202e" not in out, name
        assert seconds < 5, (name, seconds)  # CPU, with the interpreter's start; the limit is ~0.1 s


def test_deep_rule_through_the_cli(tmp_path: Path) -> None:
    # with the suite's cache: the set, new in this folder, is read afresh; without it both
    # processes compiled the shipped editions again
    rc, _, _ = _grove("new", "deep_set", "-o", str(tmp_path / "set"), cwd=tmp_path, cache=True)
    assert rc == 0
    species = tmp_path / "set" / "species.yaml"
    text = species.read_text(encoding="utf-8")
    rule = next(line for line in text.splitlines() if line.strip().startswith("score:"))
    deep = rule.split("score:")[0] + "score: 1 per " + "(" * 400 + "bird" + ")" * 400
    species.write_text(text.replace(rule, deep, 1), encoding="utf-8")
    rc, out, _ = _grove("lint", str(tmp_path / "set"), cwd=tmp_path, cache=True)
    assert rc == 1 and "DSL-TOO-DEEP" in out and "Traceback" not in out, out[-2000:]


# ---- odd texts and numbers in records and forest files ------------------------------------------
_ODD_RECORD = {  # (the line to change: 0 the header, 1 an action, -1 the end; old, new)
    "seed Infinity": (0, '"seed": 1,', '"seed": Infinity,'),
    "seed NaN": (0, '"seed": 1,', '"seed": NaN,'),
    "seed of 5000 digits": (0, '"seed": 1,', '"seed": ' + "9" * 5000 + ","),
    "seed 1e999": (0, '"seed": 1,', '"seed": 1e999,'),
    "seed as text": (0, '"seed": 1,', '"seed": "1",'),
    "seed 1.5": (0, '"seed": 1,', '"seed": 1.5,'),
    "name a lone surrogate": (0, '"name": "P1"', '"name": "\\ud800"'),
    "name a lone low surrogate": (0, '"name": "P1"', '"name": "A \\udfff"'),
    "players a number": (0, '"players": [', '"players": [7, '),
    "with a text": (0, '"with": []', '"with": "alpine"'),
    "action's player -Infinity": (1, '"player": 0', '"player": -Infinity'),
    "action's player true": (1, '"player": 0', '"player": true'),
    "action a lone surrogate": (1, '"action": "', '"action": "\\udc00'),
    "end forest name a lone surrogate": (-1, '"name": "P1"', '"name": "\\ud800"'),
    "end cave of 4400 digits": (-1, '"cave": ', '"cave": ' + "1" * 4400),
}


@pytest.fixture(scope="module")
def plain_record() -> list[str]:
    import io

    from grove.compiler import cardset as cs
    from grove.engine import runner

    out = io.StringIO()
    runner.play(cs.build("base"), ["random", "random"], 1, record=out)
    return out.getvalue().split("\n")


@pytest.mark.parametrize("case", sorted(_ODD_RECORD))
def test_odd_texts_and_numbers_in_a_record(tmp_path: Path, plain_record: list[str],
                                           case: str) -> None:
    """Once tracebacks (OverflowError, a ValueError past 4,300 digits, UnicodeEncodeError when a
    name was printed) or a record emptied by resume, or a seed of "1" taken for 1: each is
    RECORD-BAD for replay, score and resume alike, and resume leaves the record as it was."""
    from click.testing import CliRunner

    from grove.cli import main

    at, old, new = _ODD_RECORD[case]
    lines = list(plain_record)
    index = at if at >= 0 else len(lines) - 2  # the last line is the empty one after the end
    assert old in lines[index], case
    lines[index] = lines[index].replace(old, new, 1)
    path = tmp_path / "odd.jsonl"
    path.write_text("\n".join(lines), encoding="utf-8")
    before = path.read_bytes()
    for args in (["replay", str(path), "--verify"], ["score", str(path)],
                 ["play", "--resume", str(path), "--quiet"]):
        r = CliRunner().invoke(main, args, catch_exceptions=False)
        assert r.exit_code == 1 and "error RECORD-BAD:" in r.stderr, (case, args, r.stderr)
        assert r.stdout == "" and "Traceback" not in r.stderr
    assert path.read_bytes() == before


@pytest.mark.parametrize(("text", "code"), [
    ('edition: base\nplayers:\n  - name: "\\ud800"\n    forest: []\n', "FOREST-TEXT"),
    ('edition: base\nplayers:\n  - name: Ana\n    forest:\n      - tree: "oak\\udc00"\n',
     "FOREST-TEXT"),
    ('edition: base\nplayers:\n  - name: Ana\n    forest:\n      - "tr\\ud83cee": oak\n',
     "FOREST-TEXT"),
    ('{"edition": "base", "players": [{"name": "\\ud800", "forest": []}]}', "FOREST-TEXT"),
    ('{"edition": "base", "players": [{"name": "A", "cave": NaN, "forest": []}]}', "SCHEMA-TYPE"),
    ('{"edition": "base", "players": [{"name": "A", "cave": Infinity, "forest": []}]}',
     "SCHEMA-TYPE"),
    ('edition: base\nplayers:\n  - name: A\n    cave: .inf\n    forest: []\n', "SCHEMA-TYPE"),
    ('{"edition": "base", "players": [{"name": "A", "cave": ' + "9" * 5000 + ', "forest": []}]}',
     None),
])
def test_odd_texts_and_numbers_in_a_forest_file(tmp_path: Path, text: str,
                                                code: str | None) -> None:
    """A lone surrogate escape once crashed `grove score` when the name was printed; NaN,
    infinities and numbers past the conversion limit are refused too (exit 1, no traceback)."""
    from click.testing import CliRunner

    from grove.cli import main

    path = tmp_path / ("forest.json" if text.startswith("{") else "forest.yaml")
    path.write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, ["score", str(path)], catch_exceptions=False)
    assert r.exit_code == 1 and r.stdout == "" and "Traceback" not in r.stderr, r.stderr
    assert code is None or f"error {code}:" in r.stderr, r.stderr
    if "\\ud800" in text:  # a pair of escapes is one character (as Python's json.dumps writes it)
        path.write_text(text.replace("\\ud800", "\\ud83c\\udf32"), encoding="utf-8")
        r = CliRunner().invoke(main, ["score", str(path)], catch_exceptions=False)
        assert r.exit_code == 0 and "\U0001f332" in r.stdout, r.stderr
