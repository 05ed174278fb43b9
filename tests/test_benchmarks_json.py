"""`python -m benchmarks --json` prints one JSON object on stdout and the report on stderr, so a
script can read the figures; run here on its quickest benchmark only."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_benchmarks_print_their_figures_as_json():
    proc = subprocess.run([sys.executable, "-m", "benchmarks", "--only", "compile", "--rounds",
                           "3", "--json"], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(proc.stdout)
    assert set(figures) == {"python", "compile"}
    assert all(v > 0 for v in figures["compile"].values())
    assert "== compile the card set" in proc.stderr
