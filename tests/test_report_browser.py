"""report.html in a real browser, at 1200 px and at 400 px: no text box overlaps another (the
tables' cells, the plots' names, ticks and axis titles, with every per-AI table opened) and
nothing runs off the page (a table scrolls inside its own box, an SVG label stays inside its
plot). The page itself holds no script: the test runs one in it (Debian's Chromium driven by
Playwright, one browser for the module, a window of each width), which measures the laid-out
page and returns its findings.

Needs Debian's `chromium` and Playwright; elsewhere the test is skipped. The runs behind the
pages are 40 games of the base game on one job.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from benchmarks.planted import plant
from grove.cli import main
from grove.simulation.aggregate import read_totals
from grove.simulation.report import render
from tests.serve_helpers import CHROMIUM

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).is_file(),
                                reason="no Chromium at /usr/bin/chromium: apt-get install "
                                       "chromium")

# measures the page as laid out; every text box is the rectangle a browser gives its glyphs
CHECK = r"""
() => {
  document.querySelectorAll('details').forEach(function (d) { d.open = true; });
  var boxes = [], off = [], small = [], W = window.innerWidth;
  function size(el, svg) {  // the font's size on screen: an SVG's own size times its scale
    var px = parseFloat(getComputedStyle(el).fontSize);
    if (svg && svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.width)
      px *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return px;
  }
  function scrolls(el) { return !!el.closest('.scroll'); }
  var walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), n;
  while ((n = walk.nextNode())) {
    if (!n.textContent.trim()) continue;
    var el = n.parentElement;
    if (el.closest('title, style, script')) continue;
    var svg = el.closest('svg');
    if (svg) {
      if (el.tagName.toLowerCase() !== 'text') continue;
      var r = el.getBoundingClientRect(), s = svg.getBoundingClientRect();
      if (r.width <= 0) continue;
      boxes.push([r.left, r.top, r.right, r.bottom, el.textContent]);
      if (size(el, svg) < 9.99) small.push([el.textContent, size(el, svg)]);
      if (r.left < s.left - 0.5 || r.right > s.right + 0.5 || r.top < s.top - 0.5 ||
          r.bottom > s.bottom + 0.5) off.push(['outside its plot', el.textContent]);
      continue;
    }
    if (size(el, null) < 9.99) small.push([n.textContent.trim().slice(0, 60), size(el, null)]);
    var range = document.createRange();
    range.selectNodeContents(n);
    var rects = range.getClientRects();
    for (var i = 0; i < rects.length; i++) {
      var q = rects[i];
      if (q.width <= 0 || q.height <= 0) continue;
      boxes.push([q.left, q.top, q.right, q.bottom, n.textContent.trim().slice(0, 60)]);
      if (!scrolls(el) && (q.left < -0.5 || q.right > W + 0.5))
        off.push(['off the page', n.textContent.trim().slice(0, 60)]);
    }
  }
  var overlaps = [];
  boxes.sort(function (a, b) { return a[1] - b[1]; });
  for (var i = 0; i < boxes.length; i++) {
    for (var j = i + 1; j < boxes.length && boxes[j][1] < boxes[i][3] - 0.5; j++) {
      var a = boxes[i], b = boxes[j];
      var w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
      var h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
      if (w > 0.5 && h > 0.5) overlaps.push([a[4], b[4]]);
    }
  }
  var fits = {};  // each table's width against its box's: a table that fits needs no scrolling
  document.querySelectorAll('table[id]').forEach(function (t) {
    fits[t.id] = t.scrollWidth <= t.parentElement.clientWidth + 0.5; });
  return {
    width: W, scrollWidth: document.documentElement.scrollWidth, boxes: boxes.length,
    overlaps: overlaps, off: off, small: small, fits: fits};
}
"""


def measured(browser, page: str, width: int, folder: Path) -> dict:
    """The check's findings for `page` laid out in a window `width` px wide (900 high)."""
    path = folder / f"page-{width}.html"
    assert "<script" not in page
    path.write_text(page, encoding="utf-8")
    context = browser.new_context(viewport={"width": width, "height": 900})
    try:
        tab = context.new_page()
        tab.goto(path.as_uri())
        return tab.evaluate(CHECK)
    finally:
        context.close()


def simulate(out: Path, *ai: str, cards: Path | None = None) -> dict:
    r = CliRunner().invoke(main, ["simulate", "--edition", "base", "--ai", *ai, "--games", "40",
                                  "--seed", "2", "--jobs", "1", "--out", str(out), "--json"],
                           env={"GROVE_CARDS": str(cards) if cards else ""},
                           catch_exceptions=False)
    assert r.exit_code == 0, r.stderr
    return json.loads(r.stdout)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A rotated run of three AIs (seats hidden), a run of one AI at both seats (seats shown),
    and the first run again with every name long, alike at its start and wide (the plots'
    labels have the least room then)."""
    top = tmp_path_factory.mktemp("report")
    out = {}
    simulate(top / "three", "greedy,random,greedy!red_fox", "--rotate")
    out["three AIs, rotated"] = (top / "three" / "report.html").read_text(encoding="utf-8")
    simulate(top / "same", "greedy,greedy")
    out["one AI at both seats"] = (top / "same" / "report.html").read_text(encoding="utf-8")
    summary = json.loads((top / "three" / "summary.json").read_text(encoding="utf-8"))
    long = copy.deepcopy(summary)
    for i, s in enumerate(long["species"]):
        s["name"] = f"Grosse Waldbewohnerin mit sehr langem Namen Nummer {i} 森の住人"
    totals = read_totals(top / "three" / "games.parquet", top / "three" / "cards.parquet")
    out["long names"] = render(long, totals)
    out["summary of three"], out["totals of three"] = json.dumps(summary), totals
    # a dweller's points halved, set against the run of one AI at both seats, with restricted
    # play: the what-changed table, the cards that differ and the worth table laid out too
    halved = plant("tawny_owl", top / "cards", change="half")
    simulate(top / "halved", "greedy,greedy", "--against", str(top / "same"), "--worth",
             "goshawk", cards=halved)
    out["against a baseline"] = (top / "halved" / "report.html").read_text(encoding="utf-8")
    return out


@pytest.mark.parametrize("width", [1200, 400])
@pytest.mark.parametrize("case", ["three AIs, rotated", "one AI at both seats", "long names",
                                  "against a baseline"])
def test_no_text_overlaps_and_nothing_leaves_the_page(browser, pages, case, width, tmp_path):
    found = measured(browser, pages[case], width, tmp_path)
    assert found["width"] == width
    assert found["boxes"] > 300, "the page's text was not laid out"
    assert found["overlaps"] == [], found["overlaps"][:5]
    assert found["off"] == [], found["off"][:5]
    assert found["scrollWidth"] <= width
    # no text under 10 px: a plot keeps its own width and scrolls in its box rather than
    # shrinking its 11 px labels to 7 px on a phone
    assert found["small"] == [], found["small"][:5]
    if width == 1200:  # the columns a designer needs first fit a laptop's page
        assert found["fits"]["species-table"], "the species table scrolls at 1200 px"
        if case == "against a baseline":
            assert found["fits"]["changed-table"], "the what-changed table scrolls at 1200 px"


def test_names_are_never_cut_and_the_plots_say_what_they_show(pages):
    page = pages["long names"]
    assert "…" not in page
    measured = [i for i, s in enumerate(json.loads(pages["summary of three"])["species"])
                if s["strength"] is not None]
    assert len(measured) > 20
    for i in measured:  # every long name whole on the strength plot's rows
        name = f"Grosse Waldbewohnerin mit sehr langem Namen Nummer {i} 森の住人"
        assert re.search(rf'<text class="name[^"]*"[^>]*>{re.escape(name)}</text>', page)
    page = pages["against a baseline"]
    assert re.search(r'<polyline class="expected k\d"', page)  # each kind's expected line
    assert re.search(r'<text class="name[^"]* changed"[^>]*>Tawny Owl</text>', page)
    # a column whose every value is 0 is left out
    summary = json.loads(pages["summary of three"])
    for s in summary["species"]:
        s["improvement_when_drawn"] = 0.0
    assert "improvement when drawn" not in render(summary, pages["totals of three"])
    assert "improvement when drawn" in pages["three AIs, rotated"]


def test_the_page_reads_first_what_a_designer_acts_on(pages):
    page = pages["three AIs, rotated"]
    assert page.index('id="read-first"') < page.index('id="species"') < page.index('id="ais"')
    for ai in ("greedy", "random", "greedy!red_fox"):
        assert f"<strong>{ai}</strong>" in page
    assert "never plays red_fox" in page
    assert 'id="seats-rotated"' in page  # rotated AIs: the seats are alike by construction
    assert 'id="seats-rotated"' not in pages["one AI at both seats"]
    assert "win rate per seat" in pages["one AI at both seats"]
    assert ">100%</text>" in page and ">0%</text>" in page  # the win rates' axis in per cent
    assert "http://" not in page and "https://" not in page and "<script" not in page


def test_the_check_finds_text_on_text_and_text_off_the_page(browser, tmp_path):
    """The check itself can fail: two names on one spot, a plot label drawn past its plot's
    edge, and a line too wide for a 400 px screen."""
    page = ("<!DOCTYPE html><html><body><p>" + "x" * 300 + "</p>"
            + '<div style="position:relative"><span style="position:absolute;left:0">Red Fox'
            + '</span><span style="position:absolute;left:8px">Roe Deer</span></div>'
            + '<svg viewBox="0 0 100 40" width="100" height="40"><text x="90" y="20">far out'
            + "</text></svg>" + "<p>filler</p>" * 300 + "</body></html>")
    found = measured(browser, page, 400, tmp_path)
    assert ["Red Fox", "Roe Deer"] in found["overlaps"]
    assert ["outside its plot", "far out"] in found["off"]
    assert any(what == "off the page" for what, _ in found["off"])
    assert found["scrollWidth"] > 400
