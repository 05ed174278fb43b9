"""Every diagnostic code grove can print is in docs/diagnostics.md.

Codes are what editors and scripts key on, so a code the docs do not explain is a code nobody can
act on. The source is grepped rather than a registry consulted: a code is written where it is
raised, and that is the one place a new code cannot be forgotten.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("grove", "compiler", "dsl", "engine", "printouts", "simulation", "database")
CODE = r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*"
PATTERNS = (
    # error("DSL-SYNTAX", ...), Diagnostic("PROVISIONAL", ...), _usage("IO-EXISTS", ...)
    re.compile(rf"\b(?:error|warning|info|Diagnostic|_usage|_fail)\(\s*[\"']({CODE})[\"']"),
    # _usage(message, code="IO-WRITE") or a code as a later positional argument
    re.compile(rf"(?:\bcode\s*=\s*|,\s*)[\"']({CODE}-{CODE})[\"']\)"),
    # f"error RECORD-BAD: {exc}" printed by hand
    re.compile(rf"[\"'](?:error|warning|info) ({CODE}-{CODE}):"),
    # any literal that is a code and nothing else ("EDITION-UNKNOWN" compared or kept in a set)
    re.compile(r"[\"']((?:IO|USAGE|YAML|INPUT|SCHEMA|DSL|SPECIES|DECK|EDITION|PLAY|NEW|FOREST"
               r"|RECORD|TEXT|LINT|SHEET|SIM|RUN)-[A-Z0-9]+(?:-[A-Z0-9]+)*)[\"']"),
)


def codes_in_source() -> dict[str, str]:
    """code -> the first file that prints it."""
    found: dict[str, str] = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            text = path.read_text(encoding="utf-8")
            for pattern in PATTERNS:
                for m in pattern.finditer(text):
                    found.setdefault(m.group(1), str(path.relative_to(ROOT)))
    return found


def documented_codes() -> set[str]:
    """The codes in the first column of the table in docs/diagnostics.md."""
    out: set[str] = set()
    for line in (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8").splitlines():
        cells = line.split("|")
        if len(cells) > 2 and re.fullmatch(rf"\s*{CODE}(?:,\s*{CODE})*\s*", cells[1]):
            out.update(c.strip() for c in cells[1].split(","))
    return out


def test_the_grep_finds_codes():
    """A pattern that stopped matching would make the next test pass on nothing."""
    found = codes_in_source()
    for code in ("DSL-SYNTAX", "PROVISIONAL", "RECORD-BAD", "IO-WRITE", "USAGE-LANGUAGE",
                 "EDITION-CAVES", "SHEET-SHAPING", "FOREST-UNKNOWN-SLOT"):
        assert code in found, code
    assert len(found) > 70


def test_every_printed_code_is_documented():
    documented = documented_codes()
    missing = {c: f for c, f in codes_in_source().items() if c not in documented}
    assert not missing, f"codes printed but not in docs/diagnostics.md: {missing}"


def test_every_documented_code_is_printed():
    """A code in the docs that nothing prints any more is kept (codes are never reused) but is
    worth knowing about; today each one is printed somewhere."""
    assert documented_codes() - set(codes_in_source()) == set()
