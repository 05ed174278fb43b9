"""The HTML sheet in a real browser: headless Chromium (Debian's, driven by Playwright, one for
the module) prints it to PDF on the paper its CSS asks for, as a person printing it would, and
that PDF has as many pages as grove's own PDF of the sheet, and sets every character in the
fonts the page carries (Sarabun, and the DejaVu symbol subset), with no fallback font, Thai
included. On screen, at 1200 and at 400 px (a phone), nothing overlaps: no two diagram labels
(Thai two-line slot labels met), no label outside its box, no two blocks of text; the labels are
large enough to read, the page is no wider than the screen (a wide table scrolls inside itself)
and both columns start level.

Needs Debian's `chromium`, Playwright and poppler-utils (`pdfinfo`, `pdffonts`, `pdftotext`);
`.ci/run` installs them where they are missing. Elsewhere the test is skipped, saying which is
missing.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from grove.compiler.cardset import build
from tests.serve_helpers import CHROMIUM

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

POPPLER = all(shutil.which(t) for t in ("pdfinfo", "pdffonts", "pdftotext"))
pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).is_file(), reason="no Chromium at /usr/bin/chromium: "
                       "apt-get install chromium (.ci/run does where it is missing)"),
    pytest.mark.skipif(not POPPLER, reason="no pdfinfo/pdffonts/pdftotext: apt-get install "
                       "poppler-utils"),
]

# (edition, expansions, lang, paper): the four languages of the largest sheet, and on Letter
# the two sheets that need five pages there (the Italian one printed on four before the HTML
# page started its pages where the PDF does)
CASES = [("base", ("alpine", "woodland_edge"), lang, "a4") for lang in ("en", "de", "it", "th")]
CASES += [("smoky_mountains", (), "it", "letter"), ("dartmoor", (), "th", "letter")]
# and the one whose rules are set closer to fit one page there (html.TIGHT_CSS, issue 44)
CASES += [("smoky_mountains", (), "de", "letter")]
ALLOWED_FONTS = re.compile(r"^([A-Z]{6}\+)?(Sarabun|GroveSymbols|DejaVuSans)")


def chromium_pdf(browser, html: Path, out: Path) -> Path:
    """The page printed as from the browser's print dialog: no header or footer, the paper
    and margins of its CSS `@page`, once its fonts are in."""
    page = browser.new_page()
    try:
        page.goto(html.as_uri())
        page.evaluate("document.fonts.ready")
        page.pdf(path=str(out), prefer_css_page_size=True)
    finally:
        page.close()
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


def _written(laid_out, case, folder: Path) -> tuple[Path, Path]:
    """grove's PDF and HTML page of a sheet, as `pdf.render` and `html.render` give them (the
    bytes `api.sheet` writes: tests/test_sheets.py), from one layout shared with the other
    sheet tests (tests/sheet_helpers.py)."""
    folder.mkdir()
    own, page = folder / "sheet.pdf", folder / "sheet.html"
    own.write_bytes(laid_out.pdf(*case))
    page.write_bytes(laid_out.html(*case).encode("utf-8"))
    return own, page


@pytest.fixture(scope="module")
def printed(browser, laid_out, tmp_path_factory):
    """case -> (grove's PDF, the browser's PDF of grove's HTML)."""
    root = tmp_path_factory.mktemp("browser")
    out = {}
    for case in CASES:
        own, page = _written(laid_out, case, root / f"{case[0]}-{case[2]}-{case[3]}")
        out[case] = (own, chromium_pdf(browser, page, own.parent / "browser.pdf"))
    return out


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


# ---- on screen, at 1200 and 400 px (issue 33) ----------------------------------------------
# Runs in the page, once its fonts are in, and returns what it finds.
PROBE = r"""
async () => {
  await document.fonts.ready;
  const out = {width: innerWidth, scrollWidth: document.documentElement.scrollWidth,
               labels: [], outside: [], small: [], blocks: []};
  const r = e => e.getBoundingClientRect();
  const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const inside = (a, b) => a.left >= b.left - 0.5 && a.right <= b.right + 0.5
    && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
  for (const svg of document.querySelectorAll("svg.diagram")) {
    const texts = [...svg.querySelectorAll("text")];
    const boxes = [...svg.querySelectorAll("rect")]
      .filter(x => x.getAttribute("fill") === "none").map(r);
    texts.forEach((t, i) => {
      const a = r(t);
      if (a.height < 13) out.small.push(t.textContent + " " + a.height.toFixed(1));
      if (!boxes.some(b => inside(a, b))) out.outside.push(t.textContent);
      for (const u of texts.slice(i + 1)) {
        if (meets(a, r(u))) out.labels.push(t.textContent + " / " + u.textContent);
      }
    });
  }
  const blocks = [...document.querySelectorAll("h1,h2,h3,p,li,figcaption,th,td")]
    .filter(e => e.offsetParent !== null);
  for (let i = 0; i < blocks.length; i++) {
    for (let j = i + 1; j < blocks.length; j++) {
      const a = blocks[i], b = blocks[j];
      if (a.contains(b) || b.contains(a)) continue;
      if (a.closest("tr") && a.closest("tr") === b.closest("tr")) continue;
      if (meets(r(a), r(b))) {
        out.blocks.push(a.textContent.slice(0, 30) + " / " + b.textContent.slice(0, 30));
      }
    }
  }
  out.tables = [...document.querySelectorAll(".scroll")]
    .map(s => [s.clientWidth, s.scrollWidth, r(s).right]);
  out.shades = [...document.querySelectorAll(".scroll")]
    .map(s => (getComputedStyle(s).backgroundImage.match(/gradient/g) || []).length);
  const rules = document.querySelector("section.rules");
  const mid = r(rules).left + r(rules).width / 2;
  const lines = [...rules.querySelectorAll("h2,h3,p,li,figure,table")].map(r);
  const top = rs => rs.length ? Math.min(...rs.map(x => x.top)) : null;
  out.columns = [top(lines.filter(x => x.left < mid)), top(lines.filter(x => x.left >= mid))];
  return out;
}
"""
SCREEN_CASES = [("smoky_mountains", (), "th"), ("base", ("alpine", "woodland_edge"), "en"),
                ("dartmoor", (), "de")]
WIDTHS = (1200, 400)


def probe(page, width: int) -> dict:
    """The PROBE's findings for the page shown in a window `width` CSS pixels wide (Playwright's
    viewport goes below the 500 px that headless Chromium's own window keeps)."""
    page.set_viewport_size({"width": width, "height": 3000})
    found = page.evaluate(PROBE)
    assert found, "the page did not report (fonts never loaded?)"
    return found


@pytest.fixture(scope="module")
def screens(browser, laid_out, tmp_path_factory):
    """case -> width -> the PROBE's findings; one page a case, laid out at each width."""
    root = tmp_path_factory.mktemp("screen")
    out = {}
    for case in SCREEN_CASES:
        html = _written(laid_out, (*case, "a4"), root / f"{case[0]}-{case[2]}")[1]
        page = browser.new_page()
        try:
            page.goto(html.as_uri())
            out[case] = {w: probe(page, w) for w in WIDTHS}
        finally:
            page.close()
    return out


def _sid(case) -> str:
    return "-".join((case[0], *case[1], case[2]))


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", SCREEN_CASES, ids=_sid)
def test_nothing_overlaps_on_screen(screens, case, width):
    found = screens[case][width]
    assert found["width"] == width
    assert found["labels"] == [], "diagram labels that meet"
    assert found["outside"] == [], "diagram labels outside their boxes"
    assert found["blocks"] == [], "blocks of text that overlap"
    assert found["small"] == [], "diagram labels too small to read on screen"


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", SCREEN_CASES, ids=_sid)
def test_the_page_fits_the_screen_and_wide_tables_scroll(screens, case, width):
    found = screens[case][width]
    assert found["scrollWidth"] <= width, "the page is wider than the screen"
    assert all(right <= width for _, _, right in found["tables"])
    if width == 400:  # the species table keeps its columns and scrolls inside its box
        assert any(inner > outer for outer, inner, _ in found["tables"])
        # ... and shows that it does: a shade at each edge it can scroll to (issue 44)
        assert found["shades"] and all(n == 4 for n in found["shades"])


@pytest.mark.parametrize("case", SCREEN_CASES, ids=_sid)
def test_both_columns_start_level(screens, case):
    left, right = screens[case][1200]["columns"]
    assert right is not None and abs(left - right) < 1, (left, right)
