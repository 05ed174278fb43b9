"""The command line read as a new user reads it: every command's `--help` walked, one spelling
of each option across commands, messages that say what to do, words in the language asked for,
and files made as any other tool makes them."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from grove.cli import main
from grove.printouts.phrases import available_languages

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "grove" / "examples" / "base_three_players.yaml"
GROVE = [sys.executable, "-c", "import sys; from grove.cli import main; sys.exit(main())"]
# the commands that write files, and the names their output option had before `-o/--output`
WRITERS = {"play": "--record", "sheet": None, "simulate": "--out", "new": None}


def run(*args: str) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return r.exit_code, r.stdout, r.stderr


def commands() -> dict[str, click.Command]:
    return dict(main.commands)


def helped(name: str, cmd: click.Command) -> tuple[str, list[click.Option]]:
    code, out, _ = run(name, "--help")
    assert code == 0, name
    return out, [p for p in cmd.params if isinstance(p, click.Option)]


def test_grove_help_shows_each_commands_sentence_whole():
    code, out, _ = run("--help")
    listed = " ".join(out.split("Commands:", 1)[1].split())  # the wrapped lines joined
    assert code == 0 and "..." not in listed
    for name, cmd in commands().items():
        assert cmd.short_help, f"{name}: click would cut its docstring's first sentence"
        sentence = " ".join(cmd.short_help.split())
        assert sentence.endswith(".") and f"{name} {sentence}" in listed, name


@pytest.mark.parametrize("name", sorted(main.commands))
def test_every_option_of_every_command_says_what_it_does(name):
    cmd = commands()[name]
    out, options = helped(name, cmd)
    for opt in options:
        if opt.name == "help":
            continue
        assert opt.help and opt.help.strip(), f"grove {name} {opt.opts[0]} has no help line"
    flat = " ".join(out.split())
    for opt in options:  # what the help printed, not only what the code holds
        if opt.name != "help":
            assert " ".join(opt.help.split()[:3]).replace("{languages}", "") in flat or \
                "--lang" in opt.opts, (name, opt.opts)
    if any("--lang" in o.opts for o in options):  # every language grove has, listed
        lang_line = flat.split("--lang", 1)[1]
        assert all(lang in lang_line for lang in available_languages()), name
        assert "{languages}" not in flat


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_every_command_that_writes_takes_o_and_output_and_its_old_name(name):
    opts = {o for p in commands()[name].params for o in getattr(p, "opts", [])}
    assert {"-o", "--output"} <= opts
    if WRITERS[name]:
        assert WRITERS[name] in opts  # an older name still works, as an alias of the same option
        same = [p for p in commands()[name].params if WRITERS[name] in getattr(p, "opts", [])]
        assert "--output" in same[0].opts


def test_cards_takes_the_edition_as_every_command_spells_it():
    code, named, _ = run("cards", "base")
    code2, option, _ = run("cards", "--edition", "base")
    assert code == code2 == 0 and named == option and "Red Fox" in named
    assert run("cards", "--edition", "base", "base")[0] == 0  # both, agreeing
    code, out, err = run("cards", "base", "--edition", "alpine")
    assert code == 2 and "USAGE-BAD-OPTION" in err and out == ""
    code, _, err = run("cards")
    assert code == 2 and "grove cards --edition base" in err


@pytest.mark.parametrize("asked, meant", [("bsae", "base"), ("Dartmore", "dartmoor"),
                                          ("smoky", "smoky_mountains"), ("BASE", "base")])
def test_an_unknown_edition_names_the_nearest_one(asked, meant):
    code, _, err = run("cards", "--edition", asked)
    assert code == 2 and "EDITION-UNKNOWN" in err and f"did you mean '{meant}'?" in err
    code, _, err = run("cards", "--edition", "xyz")
    assert code == 2 and "did you mean" not in err and "editions: alpine, base" in err


def test_a_record_that_differs_says_what_to_do(tmp_path):
    record = tmp_path / "game.jsonl"
    assert run("play", "--seed", "1", "--quiet", "-o", str(record))[0] == 0  # -o: the record
    lines = record.read_text().splitlines()
    assert lines[0].startswith('{"digest"') and len(lines) > 10
    changed = next(i for i, line in enumerate(lines) if '"action": "play ' in line)
    lines[changed] = lines[changed].replace('"action": "play ', '"action": "play 1')
    record.write_text("\n".join(lines) + "\n")
    code, _, err = run("replay", str(record))
    assert code == 1 and "RECORD-DIFFERS" in err
    assert ("hint: the record was changed after grove wrote it; `grove play --edition base --ai "
            "greedy,greedy --seed 1 -o NEW.jsonl` plays its game again") in " ".join(err.split())


def test_score_explain_in_german_says_every_rule_and_label_in_german():
    code, out, _ = run("score", str(EXAMPLE), "--explain", "--lang", "de")
    assert code == 0
    explained = out.split("Sieg: Ben", 1)[1]
    assert "Fuchs (Karte 2, links)" in explained and "Eiche (Karte 1, Baum)" in explained
    assert "6 = 2 Punkte pro Hase" in explained
    assert "Setzling (Karte 4, Setzling)" in explained
    assert "[mit der ersten Karte ihres Sets gezählt]" in explained
    for source in (" per ", " if ", "host ", "sapling", "counted with", " tree)", "table ["):
        assert source not in explained, source
    # without --lang the rules stay as their card files write them, for their author
    code, out, _ = run("score", str(EXAMPLE), "--explain")
    assert "6 = 2 per hare" in out and "Fox (host 2, left)" in out


def test_cards_in_german_word_every_fact():
    code, out, _ = run("cards", "--edition", "base", "--lang", "de")
    assert code == 0
    assert ("Feldhase [base:european_hare] Waldbewohner (links, rechts), Kosten 0, 11×, "
            "Typen: Hase, Pfotentier") in out
    assert "    Punkte: 1 Punkt pro Hase" in out
    for source in ("dweller", "cost ", "types ", "score:", " per "):
        assert source not in out, source


def test_importing_the_command_line_loads_no_data_libraries():
    """Every command pays for what `grove.cli` imports: pyarrow and numpy (a fifth of a second)
    belong to `simulate` and `compare` alone."""
    code = ("import sys, grove.cli; print(' '.join(m for m in ('pyarrow', 'numpy', 'scipy', "
            "'jinja2', 'babel', 'lark') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                         check=True).stdout
    assert out.split() == []


def test_files_grove_writes_follow_the_umask(tmp_path):
    """A record, a final forest file and a new card set, made under umask 027: files 0640 and
    folders 0750, as `touch` and `mkdir` would make them (two commands, about two seconds)."""
    env = {**os.environ, "GROVE_CACHE_DIR": str(tmp_path / "cache")}
    for args in (["play", "--seed", "2", "--quiet", "-o", "r.jsonl", "--final", "f.yaml"],
                 ["new", "woods"]):
        proc = subprocess.run([*GROVE, *args], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=120, umask=0o027)
        assert proc.returncode == 0, proc.stderr

    def mode(p: Path) -> int:
        return stat.S_IMODE(p.stat().st_mode)

    assert mode(tmp_path / "r.jsonl") == mode(tmp_path / "f.yaml") == 0o640
    made = tmp_path / "woods"
    assert mode(made) == 0o750
    assert {mode(p) for p in made.rglob("*") if p.is_dir()} == {0o750}
    assert {mode(p) for p in made.rglob("*") if p.is_file()} == {0o640}


def test_every_folder_of_installed_files_is_a_listed_package():
    """pip printed "Package would be ignored" for each folder whose files `package-data`
    installs but which setuptools' `packages` left out (cards/base, grove/printouts/fonts, eighteen
    of them). Found as pyproject.toml asks, every such folder is a package now."""
    import tomllib

    from setuptools import find_namespace_packages

    config = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    find = config["packages"]["find"]
    assert find["namespaces"]
    packages = set(find_namespace_packages(where=str(REPO), include=find["include"]))
    for package, globs in config["package-data"].items():
        root = REPO / package.replace(".", "/")
        for pattern in globs:
            for f in root.glob(pattern):
                folder = ".".join(f.parent.relative_to(REPO).parts)
                assert folder in packages, f"{f.relative_to(REPO)}: {folder} is not a package"
    assert not any(p.startswith(("tests", "benchmarks")) for p in packages)
