"""The HTML sheet in a real browser: headless Chromium prints it to PDF, and that PDF has as many
pages as grove's own PDF of the sheet, and sets every character in the fonts the page carries
(Sarabun, and the DejaVu symbol subset), with no fallback font, Thai included.

Needs Debian's `chromium` and poppler-utils (`pdfinfo`, `pdffonts`, `pdftotext`); `.ci/run`
installs them where they are missing. Elsewhere the test is skipped, saying which is missing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from grove import api
from grove.compiler.cardset import build

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                             "/usr/bin/chromium") if p and Path(p).is_file()), None)
POPPLER = all(shutil.which(t) for t in ("pdfinfo", "pdffonts", "pdftotext"))
pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium: apt-get install chromium "
                       "(.ci/run does where it is missing)"),
    pytest.mark.skipif(not POPPLER, reason="no pdfinfo/pdffonts/pdftotext: apt-get install "
                       "poppler-utils"),
]

# (edition, expansions, lang, paper): the four languages of the largest sheet, and on Letter
# the two sheets that need five pages there (the Italian one printed on four before the HTML
# page started its pages where the PDF does)
CASES = [("base", ("alpine", "woodland_edge"), lang, "a4") for lang in ("en", "de", "it", "th")]
CASES += [("smoky_mountains", (), "it", "letter"), ("dartmoor", (), "th", "letter")]
ALLOWED_FONTS = re.compile(r"^([A-Z]{6}\+)?(Sarabun|GroveSymbols|DejaVuSans)")


def chromium_pdf(html: Path, out: Path) -> Path:
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--no-first-run", "--disable-background-networking", "--disable-component-update",
             "--disable-sync", f"--user-data-dir={profile}", "--no-pdf-header-footer",
             f"--print-to-pdf={out}", html.as_uri()],
            check=True, capture_output=True, timeout=120)
    assert out.is_file() and out.stat().st_size > 0, "chromium wrote no PDF"
    return out


def pages(path: Path) -> int:
    info = subprocess.run(["pdfinfo", str(path)], check=True, capture_output=True, text=True)
    return int(re.search(r"^Pages:\s+(\d+)", info.stdout, re.M).group(1))


def fonts(path: Path) -> list[str]:
    out = subprocess.run(["pdffonts", str(path)], check=True, capture_output=True, text=True)
    return [line.split()[0] for line in out.stdout.splitlines()[2:] if line.strip()]


def text(path: Path) -> str:
    return subprocess.run(["pdftotext", "-raw", "-enc", "UTF-8", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    """case -> (grove's PDF, the browser's PDF of grove's HTML); the browsers run two at once."""
    root = tmp_path_factory.mktemp("browser")

    def one(case):
        edition, exps, lang, paper = case
        folder = root / f"{edition}-{lang}-{paper}"
        folder.mkdir()
        [own] = api.sheet(edition, list(exps), [lang], str(folder / "sheet.pdf"), paper=paper)
        [page] = api.sheet(edition, list(exps), [lang], str(folder / "sheet.html"), fmt="html",
                           paper=paper)
        return case, own, chromium_pdf(page, folder / "browser.pdf")

    with ThreadPoolExecutor(2) as pool:
        return {case: (own, b) for case, own, b in pool.map(one, CASES)}


def _id(case) -> str:
    return "-".join((case[0], *case[1], case[2], case[3]))


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_browser_prints_as_many_pages_as_the_pdf(printed, case):
    own, browser = printed[case]
    assert pages(browser) == pages(own)


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_browser_sets_every_character_in_the_pages_fonts(printed, case):
    """A character the page's fonts lack is set in a system font by the browser (or shown as a
    box): pdffonts would list that font."""
    _, browser = printed[case]
    used = fonts(browser)
    assert used and not [f for f in used if not ALLOWED_FONTS.match(f)], used


@pytest.mark.parametrize("case", [c for c in CASES if c[2] == "th"], ids=_id)
def test_thai_names_in_the_browsers_text(printed, case):
    """Every Thai species name is in the text of the browser's PDF, marks included, set in
    Sarabun."""
    _, browser = printed[case]
    assert any("Sarabun" in f for f in fonts(browser))
    flat = re.sub(r"\s+", "", text(browser))
    names = [sp.name("th") for sp in build(case[0], list(case[1])).species.values()]
    missing = [n for n in names if re.sub(r"\s+", "", n) not in flat]
    assert not missing, f"{len(missing)} of {len(names)} Thai names not in the text: {missing[:5]}"
