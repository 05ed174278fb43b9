"""Installing grove adds one import name, `grove` (issue 33): the wheel built from this checkout,
installed into a fresh virtual environment, holds nothing at the top but `grove` and its
dist-info, and works from outside the checkout: `import grove.engine.game`, the `grove`
executable, and the shipped editions found inside the installed package.

The wheel is built with `pip wheel --no-deps --no-build-isolation` (setuptools comes with the
test extras, so nothing is fetched) from a copy of the files a build reads, so the checkout
gets no build/ folder and two runs never share one. The fresh environment has no pip (made
in a blink); this environment's pip installs the wheel into it with `--no-deps --no-index`,
and a .pth file lends it the dependencies installed here. Their folder is added as a plain
path, whose own .pth files Python does not run: the editable install of this checkout stays
out of it, which the test checks. Some 20 s (most of it `grove editions` compiling the five
editions cold), one process at a time.
"""

from __future__ import annotations

import csv
import io
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the names the wheel installed at its top before grove held every room
OLD_TOPS = ("engine", "compiler", "dsl", "forest", "schema", "cards", "printouts", "simulation",
            "files")


def top_level(record: str) -> set[str]:
    """The names a wheel puts at the top of site-packages, read from its RECORD."""
    return {row[0].split("/")[0] for row in csv.reader(io.StringIO(record)) if row}


def test_top_level_reads_every_row_of_a_record():
    record = ("grove/__init__.py,sha256=x,10\nschema/__init__.py,sha256=y,3\n"
              "grove-0.1.0.dist-info/RECORD,,\n")
    assert top_level(record) == {"grove", "schema", "grove-0.1.0.dist-info"}


def _run(args: list[str], **kw) -> subprocess.CompletedProcess:
    proc = subprocess.run(args, capture_output=True, text=True, timeout=300, **kw)
    assert proc.returncode == 0, f"{args}: exit {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
    return proc


def test_the_wheel_installs_one_import_name_and_works_outside_the_checkout(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "grove", src / "grove",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                  "--no-index", "-v", "-w", str(tmp_path / "dist"), str(src)], cwd=tmp_path)
    # a data folder setuptools is not told about would be left out of a later setuptools' wheels
    assert "would be ignored" not in built.stdout + built.stderr
    (wheel,) = (tmp_path / "dist").glob("grove-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/RECORD"))
        assert top_level(z.read(f"{info}/RECORD").decode()) == {"grove", info}
        assert z.read(f"{info}/top_level.txt").decode().split() == ["grove"]
        # the data goes with the code: an edition, an icon, a font, a catalog, the grammar
        for part in ("grove/cards/base/edition.yaml", "grove/schema/forest.schema.json",
                     "grove/dsl/grammar.lark", "grove/dsl/dsl.md",
                     "grove/printouts/catalogs/de/LC_MESSAGES/grove.po"):
            assert part in names, part
        assert any(n.startswith("grove/cards/base/icons/") for n in names)
        assert any(n.startswith("grove/printouts/fonts/") and n.endswith(".ttf") for n in names)

    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    lib = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).stdout
    deps = [p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir()]
    Path(lib.strip(), "lent-dependencies.pth").write_text("\n".join(deps) + "\n", encoding="utf-8")
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
          "--quiet", str(wheel)], cwd=tmp_path)

    away = tmp_path / "elsewhere"  # not the checkout: nothing of it on the path
    away.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "GROVE_"))}
    env |= {"GROVE_CACHE_DIR": str(tmp_path / "cache"), "HOME": str(tmp_path)}
    probe = ("import sys, grove, grove.engine.game, grove.cli\n"
             "from grove.compiler.search_path import shipped_cards_dir\n"
             "from grove.lsp.hover import keyword_line\n"
             "assert keyword_line('per'), 'hover has no rules-language docs'\n"
             "print(grove.__file__)\nprint(shipped_cards_dir())\n"
             f"print(sorted(m for m in sys.modules if m.split('.')[0] in {OLD_TOPS!r}))\n")
    where, cards, stray = _run([str(python), "-c", probe], cwd=away, env=env).stdout.splitlines()
    assert Path(where).is_relative_to(env_dir), f"grove came from {where}, not the fresh install"
    assert Path(cards) == Path(where).parent / "cards" and (Path(cards) / "base").is_dir()
    assert stray == "[]", f"modules under an old top-level name: {stray}"

    grove = env_dir / "bin" / "grove"
    assert _run([str(grove), "--version"], cwd=away, env=env).stdout.split()[-1] == "0.1.0"
    editions = _run([str(grove), "editions"], cwd=away, env=env).stdout
    assert {line.split()[0] for line in editions.splitlines() if line.strip()} >= {
        "base", "alpine", "woodland_edge", "dartmoor", "smoky_mountains"}
