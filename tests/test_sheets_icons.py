"""Icons for tree and type symbols: grove's own drawings for every symbol of the shipped editions,
an author's own beside their card files, drawn in the glossary and the species table of the PDF
and the HTML page, and nothing of an icon file copied into a page as it is."""

from __future__ import annotations

import re
import shutil
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from grove import api
from grove.cards import __file__ as _cards_init
from grove.compiler import cardset as cs
from grove.compiler.search_path import search_path
from grove.printouts.sheets import icons, pdf
from grove.printouts.sheets.content import build_sheet

CARDS = Path(_cards_init).parent
EDITIONS = {"base+alpine+woodland_edge": ("base", ("alpine", "woodland_edge")),
            "dartmoor": ("dartmoor", ()), "smoky_mountains": ("smoky_mountains", ())}
GOOD = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><title>x</title>'
        '<path d="M2 2 h20 v20 H2 z" fill="#0a0" stroke="currentColor" stroke-width="2"/>'
        '<circle cx="12" cy="12" r="4" fill="#fff"/><polygon points="1 1 3 1 2 3"/>'
        '<path d="M4 4 Q8 0 12 4 T20 4 C20 8 16 8 16 12 S12 16 8 12"/></svg>')


@pytest.fixture(scope="module")
def cardsets():
    return {k: cs.build(e, list(x)) for k, (e, x) in EDITIONS.items()}


def test_every_tree_and_type_symbol_of_the_shipped_editions_has_an_icon(cardsets):
    for cset in cardsets.values():
        sheet = build_sheet(cset, "en")
        missing = [s.id for s in (*sheet.tree_symbols, *sheet.type_symbols) if not s.icon]
        assert not missing, missing
        for row in sheet.all_species:
            assert set(row.icons) <= set(sheet.icons)
            assert row.icons or row.kind == "cave", row


def test_icon_files_parse():
    icon = icons.parse(GOOD, "x")
    assert len(icon.shapes) == 4
    assert icon.shapes[0].ops[0] == ("M", 2.0, 2.0) and icon.shapes[0].ops[-1] == ("Z",)
    assert icon.shapes[0].fill == "#00aa00" and icon.shapes[0].stroke == "currentColor"
    assert {op[0] for s in icon.shapes for op in s.ops} <= {"M", "L", "C", "Z"}
    shipped = sorted(CARDS.glob("*/icons/*.svg"))
    assert len(shipped) > 40
    for path in shipped:
        icons.parse(path.read_text(encoding="utf-8"), path.stem)


@pytest.mark.parametrize("text, why", [
    (GOOD.replace("<title>x</title>", "<script>alert(1)</script>"), "not allowed"),
    (GOOD.replace('viewBox="0 0 24 24"', 'viewBox="0 0 100 100"'), "viewBox"),
    (GOOD.replace("M2 2 h20", "M2 2 a5 5 0 0 1 10 0 h20"), "arcs"),
    (GOOD.replace('fill="#0a0"', 'fill="url(#g)"'), "colour"),
    (GOOD.replace("<circle", "<g><circle").replace('"#fff"/>', '"#fff"/></g>'), "groups"),
    ('<!DOCTYPE svg [<!ENTITY x "y">]><svg viewBox="0 0 24 24"/>', "DOCTYPE"),
    ("<svg", "XML"),
])
def test_bad_icon_files_are_refused(text, why):
    with pytest.raises(icons.IconError, match=why):
        icons.parse(text)


def test_a_card_set_brings_its_own_icons(tmp_path, cardsets):
    """An edition folder's icons/<symbol>.svg is found before a later folder's (an expansion's
    before its base game's); a broken one leaves the name alone (no icon) rather than breaking
    the sheet; grove itself has no icons of its own to fall back on."""
    own = tmp_path / "icons"
    own.mkdir()
    (own / "bird.svg").write_text(GOOD, encoding="utf-8")
    (own / "fish.svg").write_text("<svg", encoding="utf-8")
    base = str(CARDS / "base")
    folders = [str(tmp_path), base]
    assert icons.find(folders, "bird") == icons.parse(GOOD, "bird")
    assert icons.find(folders, "fish") is None
    assert icons.find(folders, "insect") == icons.load(CARDS / "base" / "icons" / "insect.svg",
                                                       "insect")
    assert icons.find([str(tmp_path)], "insect") is None
    # through a card set: a copy of Dartmoor, found first on the search path, with a moor of
    # its own
    src = cs.build("dartmoor", []).root.folder
    copy = tmp_path / "cards" / "dartmoor"
    shutil.copytree(src, copy)
    assert (copy / "icons" / "moor.svg").is_file()  # the shipped edition's own, replaced here
    (copy / "icons" / "moor.svg").write_text(GOOD, encoding="utf-8")
    [out] = api.sheet("dartmoor", [], ["en"], str(tmp_path / "d.html"), fmt="html",
                      roots=search_path([tmp_path / "cards"], env={}))
    page = out.read_text(encoding="utf-8")
    assert icons.svg(icons.parse(GOOD, "moor"), 9, "Moor") in page


@pytest.mark.parametrize("edition", EDITIONS)
def test_icons_in_the_pdf_and_the_html(laid_out, edition):
    sheet = laid_out.sheet(*EDITIONS[edition], "th")
    story = pdf.story(sheet)
    placeholders = re.findall(r'<img src="([^"]+pixel\.png)"', story.xhtml)
    assert not placeholders  # the fragment itself stays template markup
    spans = re.findall(r'<span class="icon" data-icon="([^"]+)"', story.xhtml)
    wanted = {s.id for s in (*sheet.tree_symbols, *sheet.type_symbols)}
    assert wanted <= set(spans)
    drawn = []

    class Counting(pdf._Canvas):
        icons = dict(sheet.icons)

        def drawImage(self, image, *args, **kw):  # noqa: N802
            drawn.append(pdf.placeholder_symbol(getattr(image, "fileName", "")))
            return super().drawImage(image, *args, **kw)

    from io import BytesIO

    from reportlab.platypus import SimpleDocTemplate
    doc = SimpleDocTemplate(BytesIO())
    doc.build([f for f in story.flowables if f.__class__.__name__ != "NextPageTemplate"],
              canvasmaker=Counting)
    assert wanted <= set(drawn) and None not in drawn
    page = laid_out.html(*EDITIONS[edition], "th")  # html.render's page (sheet_helpers.py)
    assert page.count('<svg xmlns="http://www.w3.org/2000/svg" class="icon"') == len(spans)
    assert 'data-icon="' not in page


def test_html_icon_is_written_from_numbers(cardsets):
    icon = icons.parse(GOOD, "x")
    out = icons.svg(icon, 9, 'Bird <"&>')
    assert "<script" not in out and 'aria-label="Bird &lt;&quot;&amp;&gt;"' in out
    assert out.count("<path ") == 4 and "#00aa00" in out


def test_diagrams_show_their_hosts_type(laid_out):
    """A host card in a slot diagram shows the icon of the type it is (tree, shrub, river...),
    drawn on the PDF canvas and nested in the HTML page's SVG."""
    from grove.printouts.sheets import templates
    from grove.printouts.sheets.diagrams import layout as diagram_layout

    sheet = laid_out.sheet("smoky_mountains", (), "en")
    hosts = {h.id: h for h in sheet.hosts}
    assert hosts["tree"].icon == "tree" and hosts["river"].icon == "river"
    assert hosts["universal_river"].icon == "river"
    labels = templates.labels("en")
    for h in sheet.hosts:
        box = next(b for b in diagram_layout(h, labels).boxes if b.role == "host")
        assert box.icon == h.icon
    page = laid_out.html("smoky_mountains", (), "en")
    assert page.count('<svg x="') >= len(sheet.hosts)  # an icon nested in every diagram
    assert '<span class="sym">' in page  # an icon is kept on one line with its word


def test_a_placeholder_names_its_symbol_whoever_made_it_first():
    """Each symbol's placeholder image is its own, however many threads name them at once: the
    server draws card faces in threads, and two symbols once given one number made the base
    sheet draw another icon where the Douglas fir's went (a full run, now and then)."""
    symbols = [f"race_{i}" for i in range(300)]
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads change at every few bytecodes, as under load
    try:
        with ThreadPoolExecutor(8) as pool:
            made = list(pool.map(lambda s: pdf.with_icons(
                f'<span class="icon" data-icon="{s}"></span>', 9), symbols))
    finally:
        sys.setswitchinterval(switch)
    found = [pdf.placeholder_symbol(re.search(r'src="([^"]+)"', m).group(1)) for m in made]
    assert found == symbols
    assert pdf.placeholder_symbol(str(pdf.PIXEL)) is None
