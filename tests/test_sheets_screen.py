"""The HTML sheet read on a screen, in real Chromium (Debian's, driven by Playwright), with
element boxes from the browser: at 400 px the species table scrolls sideways and every row
keeps its name in view, unhidden, and its group keeps its label; the head row stays in view
while the reader goes down the long table (the page at 1200 px, the table's own box at 400);
at 1200 px the slot diagrams stand side by side in one row, none over another; every diagram
has an accessible name that names its host, in every language (issue 44).

Skipped, with the reason, where Chromium or Playwright is missing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.serve_helpers import CHROMIUM

playwright = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.skipif(not Path(CHROMIUM).is_file() and not shutil.which("chromium"),
                                reason="no Chromium at /usr/bin/chromium: apt-get install "
                                       "chromium")

BASE = ("base", ("alpine", "woodland_edge"))
# the largest sheet in every language; a tree with a river beneath it; moors
CASES = [(*BASE, lang) for lang in ("en", "de", "it", "th")]
CASES += [("smoky_mountains", (), "th"), ("dartmoor", (), "de")]
TABLE_CASES = [(*BASE, "en"), ("smoky_mountains", (), "th"), ("dartmoor", (), "de")]


def _id(case) -> str:
    return "-".join((case[0], *case[1], case[2]))


@pytest.fixture(scope="module")
def pages(laid_out, tmp_path_factory):
    """case -> the sheet's HTML page on A4, as `html.render` gives it (the bytes `api.sheet`
    writes), from the layout the sheet tests share (tests/sheet_helpers.py)."""
    root = tmp_path_factory.mktemp("screen")
    out = {}
    for case in CASES:
        out[case] = root / f"{_id(case)}.html"
        out[case].write_bytes(laid_out.html(*case, "a4").encode("utf-8"))
    return out


def _opened(browser, pages, case, width: int, contexts: list):
    """A Playwright page showing the sheet of `case` `width` CSS px wide, its fonts in; its
    context goes to `contexts`, for the fixture to close."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    contexts.append(context)
    page = context.new_page()
    page.goto(pages[case].as_uri())
    page.evaluate("document.fonts.ready")
    return page


@pytest.fixture
def show(browser, pages):
    """show(case, width) -> a page of its own showing the sheet `width` CSS px wide."""
    contexts: list = []
    yield lambda case, width: _opened(browser, pages, case, width, contexts)
    for context in contexts:
        context.close()


@pytest.fixture(scope="module")
def shown(browser, pages):
    """shown(case, width) -> a page as `show` opens it, opened once for the module's tests that
    only read it (no scrolling, no clicks)."""
    opened: dict = {}
    contexts: list = []

    def look(case, width: int):
        if (case, width) not in opened:
            opened[case, width] = _opened(browser, pages, case, width, contexts)
        return opened[case, width]

    yield look
    for context in contexts:
        context.close()


# The rows of the species table that show inside its box and the window: for each, whether
# its name cell lies inside both and is the topmost thing at points across it (no other cell
# painted over it); the same for each group's label.
ROWS_IN_VIEW = r"""
() => {
  const box = document.querySelector('table.species').parentElement;
  const b = box.getBoundingClientRect();
  const view = {left: Math.max(b.left, 0), right: Math.min(b.right, innerWidth),
                top: Math.max(b.top, 0), bottom: Math.min(b.bottom, innerHeight)};
  // the head row's cells (they stick; the row itself stays where the table put it)
  const head = document.querySelector('table.species thead th').getBoundingClientRect();
  const out = {rows: 0, hidden: [], outside: [], groups: 0};
  const check = (el, what) => {
    const r = el.getBoundingClientRect();
    if (r.bottom < head.bottom + 4 || r.top > view.bottom - 4) return false;  // not in view
    if (r.left < view.left - 0.5 || r.right > view.right + 0.5) {
      out.outside.push(what + ' ' + el.textContent.slice(0, 30));
      return true;
    }
    const y = Math.max(r.top, head.bottom) + 3;
    for (const x of [r.left + 2, (r.left + r.right) / 2, r.right - 2]) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || !el.contains(hit)) {
        out.hidden.push(what + ' ' + el.textContent.slice(0, 30) + ' under '
                        + (hit ? hit.textContent.slice(0, 30) : 'nothing'));
        break;
      }
    }
    return true;
  };
  for (const td of document.querySelectorAll('table.species tbody tr:not(.group) > td:first-child'))
    if (check(td, 'name')) out.rows++;
  for (const pin of document.querySelectorAll('table.species tr.group .pin'))
    if (check(pin, 'group')) out.groups++;
  return out;
}
"""


def _to_table(page) -> None:
    """Scroll the window to the species table's box, its top at the top of the window."""
    page.evaluate("window.scrollTo(0, document.querySelector('table.species').parentElement"
                  ".getBoundingClientRect().top + scrollY)")


@pytest.mark.parametrize("case", TABLE_CASES, ids=_id)
def test_names_stay_in_view_while_the_table_scrolls_sideways(show, case):
    page = show(case, 400)
    _to_table(page)
    # the box scrolls: Points is beyond its right edge until the reader scrolls there
    ends = page.evaluate("""() => {
      const box = document.querySelector('table.species').parentElement;
      const last = () => document.querySelector('table.species thead th:last-child')
        .getBoundingClientRect().right;
      const before = last();
      box.scrollLeft = box.scrollWidth;
      return [before, last(), box.getBoundingClientRect().right, box.scrollLeft];
    }""")
    before, after, right, scrolled = ends
    assert before > right + 20 and scrolled > 20, ends
    assert after <= right + 0.5, "the table's right end is not in view"
    for down in (0, 0.5):  # at the start of the table and in its middle
        page.evaluate("d => { const box = document.querySelector('table.species').parentElement;"
                      " box.scrollTop = (box.scrollHeight - box.clientHeight) * d; }", down)
        found = page.evaluate(ROWS_IN_VIEW)
        assert found["rows"] >= 5, found
        assert found["outside"] == [], "names out of view"
        assert found["hidden"] == [], found
    # the groups' labels (Trees, Shrubs, Top halves ...) stay in view the same way
    seen = 0
    for down in (0.0, 0.2, 0.4, 0.6, 0.8, 1.0):
        page.evaluate("d => { const box = document.querySelector('table.species').parentElement;"
                      " box.scrollTop = (box.scrollHeight - box.clientHeight) * d; }", down)
        found = page.evaluate(ROWS_IN_VIEW)
        assert found["outside"] == [] and found["hidden"] == [], found
        seen += found["groups"]
    assert seen >= 2


# The head row, from the browser: its box, and whether it is the topmost thing at its cells.
HEAD = r"""
() => {
  const cells = [...document.querySelectorAll('table.species thead th')];
  const r = cells[0].getBoundingClientRect();  // a cell sticks; the row stays where it was
  const table = document.querySelector('table.species').getBoundingClientRect();
  const covered = cells.filter(th => {
    const c = th.getBoundingClientRect();
    if (c.right <= 0 || c.left >= innerWidth) return false;  // scrolled out sideways
    const hit = document.elementFromPoint((Math.max(c.left, 0) + Math.min(c.right, innerWidth)) / 2,
                                          (c.top + c.bottom) / 2);
    return !hit || !th.contains(hit);
  }).map(th => th.textContent);
  const box = document.querySelector('table.species').parentElement.getBoundingClientRect();
  return {top: r.top, bottom: r.bottom, tableTop: table.top, tableBottom: table.bottom,
          boxTop: box.top, height: innerHeight, covered};
}
"""


@pytest.mark.parametrize("width", (1200, 400))
@pytest.mark.parametrize("case", TABLE_CASES, ids=_id)
def test_the_head_row_stays_in_view_down_the_table(show, case, width):
    page = show(case, width)
    _to_table(page)
    if width == 400:  # the table's box scrolls; the reader goes down inside it
        page.evaluate("() => { const box = document.querySelector('table.species')"
                      ".parentElement; box.scrollTop = (box.scrollHeight - box.clientHeight)"
                      " / 2; }")
        page.evaluate("window.scrollBy(0, -80)")  # ... its box a little below the window's top
    else:  # the page scrolls: the middle of the table at the top of the window
        page.evaluate("window.scrollBy(0, document.querySelector('table.species')"
                      ".offsetHeight / 2)")
    found = page.evaluate(HEAD)
    assert found["tableTop"] < -200 and found["tableBottom"] > found["height"], \
        "the window is not in the middle of the table"
    assert found["top"] >= 0 and found["bottom"] <= found["height"], "the head row is out of view"
    # at the top of the window (1200 px), or of the table's box where that is lower (400 px)
    assert abs(found["top"] - max(0, found["boxTop"])) <= 1, found
    assert found["covered"] == [], "head cells under another cell"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_the_slot_diagrams_stand_side_by_side_at_1200(shown, case):
    page = shown(case, 1200)
    boxes = page.evaluate("() => [...document.querySelectorAll('svg.diagram')].map(s => {"
                          " const r = s.getBoundingClientRect();"
                          " return [r.left, r.top, r.right, r.bottom]; })")
    assert len(boxes) >= 3
    tops = [b[1] for b in boxes]
    assert max(tops) - min(tops) < 1, f"the diagrams do not share a row: tops {tops}"
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] + 0.5 or b[2] <= a[0] + 0.5 or a[3] <= b[1] + 0.5 \
                or b[3] <= a[1] + 0.5, f"diagrams overlap: {a} {b}"


def _attr(figure) -> str:
    return figure.get_attribute("data-host")


def _accessible(page, selector: str) -> tuple[str, str]:
    """The role and name Chromium's accessibility tree (what a screen reader is given) holds
    for the element `selector` finds."""
    cdp = page.context.new_cdp_session(page)
    try:
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        [ax, *_] = cdp.send("Accessibility.getPartialAXTree",
                            {"nodeId": node, "fetchRelatives": False})["nodes"]
    finally:
        cdp.detach()
    return ax["role"]["value"], ax.get("name", {}).get("value", "")


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_every_diagram_has_an_accessible_name_that_names_its_host(shown, case):
    """The name as the browser's accessibility tree gives it (an image hides the labels drawn
    inside it), in the sheet's language: the host's name, its slots' labels, and the
    caption's "+1 card to the clearing" where the figure has one."""
    page = shown(case, 1200)
    figures = page.locator("figure[data-host]")
    assert figures.count() >= 3
    for i in range(figures.count()):
        figure = figures.nth(i)
        host = figure.locator("figcaption b").inner_text().strip()
        caption = figure.locator("figcaption").inner_text().strip()
        role, name = _accessible(page, f'figure[data-host="{_attr(figure)}"] svg.diagram')
        assert role == "image", f"{host}: the diagram is not an image: {role}"
        assert name.startswith(host), (host, name)
        assert len(name) > len(host) + 3, f"{host}: the name says nothing of the slots: {name}"
        side = figure.locator("svg.diagram text").first.text_content()  # the first slot's
        assert side and side in name, (side, name)
        reveal = caption[len(host):].strip()
        if reveal:
            assert name.endswith(reveal), (reveal, name)
