"""`grove print`: print-and-play cards as PDF, PNG and Tabletop Simulator sheets.

Quick by design: one whole-deck PDF (the base game, page counts against the deck); the rest
prints one species (`--only`) or the small test edition `meadow` (a pond host grove's code
knows nothing of)."""

from __future__ import annotations

import io
import json
import math
import re
import shutil
import subprocess
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image

from grove import api
from grove.cli import main
from grove.compiler import cardset as cs_mod
from grove.compiler.search_path import search_path
from grove.printouts.cards import draw, faces, geometry, pdf, tts
from grove.printouts.cards import lint as card_lint
from grove.printouts.cards.output import Options, render

REPO = Path(__file__).resolve().parent.parent
MEADOW = REPO / "tests" / "editions" / "meadow"
MM = geometry.MM


@pytest.fixture(scope="module")
def base():
    return cs_mod.build("base")


@pytest.fixture(scope="module")
def meadow():
    return cs_mod.build("meadow", roots=(str(MEADOW.parent), *search_path()))


def _physical(cs) -> int:
    """Cards of the deck, the caves (drafted ones or plain) and the winter cards."""
    caves = sum(sp.copies for sp in cs.caves) if cs.caves else cs.setup.caves
    return len(cs.deck) + caves + cs.setup.winter_cards


def _pages(data: bytes) -> list:
    return list(pdfium.PdfDocument(data))


def test_the_whole_base_deck_nine_to_a_page_with_backs(base):
    deck = faces.read_deck(base, "en")
    assert len(deck.cards) == _physical(base) == 158 + 5 + 3
    sheet = geometry.sheet("a4")
    assert sheet.per_page == 9
    data, pages = pdf.sheets(deck, sheet, backs=True)
    assert pages == 2 * math.ceil(len(deck.cards) / 9) == len(_pages(data))
    front = _pages(data)[0]
    w, h = front.get_size()
    assert (round(w / MM), round(h / MM)) == (210, 297)
    # every species name can be searched in the text layer
    text = " ".join(" ".join(p.get_textpage().get_text_range().split())
                    for p in _pages(data)[::2])
    missing = [sp.name("en") for sp in base.species.values() if sp.name("en") not in text]
    assert missing == []


def test_unique_prints_each_face_once_with_its_count(base):
    deck = faces.read_deck(base, "en", ["oak", "european_hare"])
    unique = deck.unique()
    assert sum(n for _, n in unique) == len(deck.cards)
    assert len(unique) < len(deck.cards)
    data, pages = pdf.sheets(deck, geometry.sheet("letter"), unique=True)
    assert pages == math.ceil(len(unique) / 9)
    text = _pages(data)[0].get_textpage().get_text_range()
    assert all(f"×{n}" in text for _, n in unique)


@pytest.mark.parametrize("paper,bleed,per_page", [("a4", 0.0, 9), ("letter", 0.0, 9),
                                                  ("a4", 3.0, 6), ("letter", 2.0, 6)])
def test_crop_marks_lie_on_the_card_grid(base, paper, bleed, per_page):
    sheet = geometry.sheet(paper, geometry.POKER, bleed)
    assert sheet.per_page == per_page  # a bleed that leaves no margin for marks costs a card
    trims = [sheet.trim(i) for i in range(sheet.per_page)]
    xs = {round(v, 3) for t in trims for v in (t.x, t.x + t.w)}
    ys = {round(v, 3) for t in trims for v in (t.y, t.y + t.h)}
    # the grid: cards 63 x 88 mm, cells grown by the bleed, centred on the page
    for t in trims:
        assert abs(t.w / MM - 63) < 0.01 and abs(t.h / MM - 88) < 0.01
    g = sheet.grid
    assert abs(g.x - (sheet.page_w - g.w) / 2) < 0.01
    deck = faces.read_deck(base, "en", [f"1-{sheet.per_page}"])  # a full page
    data, _ = pdf.sheets(deck, sheet)
    page = _pages(data)[0]
    lines = [o.get_bounds() for o in page.get_objects(max_depth=1)
             if o.type == pdfium.raw.FPDF_PAGEOBJ_PATH]
    assert lines and len(lines) == len(sheet.marks())
    margin = geometry.PRINTER_MARGIN - 0.3  # a line's bounds include half its width
    for left, bottom, right, top in lines:  # inside what a printer prints
        assert left >= margin and bottom >= margin
        assert right <= sheet.page_w - margin and top <= sheet.page_h - margin
    tol = 0.1 * MM
    for left, bottom, right, top in lines:
        if right - left < top - bottom:  # a vertical mark: in line with a trim edge, off the grid
            x = (left + right) / 2
            assert min(abs(x - v) for v in xs) < tol, (paper, bleed, x / MM)
            assert top <= g.y + tol or bottom >= g.y + g.h - tol
        else:
            y = (bottom + top) / 2
            assert min(abs(y - v) for v in ys) < tol, (paper, bleed, y / MM)
            assert right <= g.x + tol or left >= g.x + g.w - tol
    # every trim edge is marked, across and down
    across = [(a + c) / 2 for a, b, c, d in lines if c - a < d - b]
    down = [(b + d) / 2 for a, b, c, d in lines if c - a >= d - b]
    assert all(min(abs(x - m) for m in across) < tol for x in xs)
    assert all(min(abs(y - m) for m in down) < tol for y in ys)


def test_card_sizes_take_as_many_to_a_page_as_fit():
    assert geometry.parse_size("57x87") == (57.0, 87.0)
    assert geometry.sheet("a4", (57, 87)).per_page == 9
    assert geometry.sheet("a4", (44, 68)).per_page == 16  # small cards fill the page
    assert geometry.sheet("a4", (70, 120)).per_page == 4  # tarot
    assert geometry.sheet("letter", (127, 178)).per_page == 1
    with pytest.raises(geometry.LayoutError):
        geometry.sheet("letter", (250, 250))


def test_backs_fall_behind_their_fronts(base):
    sheet = geometry.sheet("a4", geometry.POKER, 2.0)
    for i in range(sheet.per_page):
        front, back = sheet.trim(i), sheet.trim(i, back=True)
        assert abs(back.x - (sheet.page_w - front.x - front.w)) < 0.01
        assert back.y == front.y


def test_pdf_and_png_are_the_same_bytes_each_time(base):
    opts = Options("th", "pdf", only=("red_fox",))
    first = render(base, opts)
    render(base, Options("en", "pdf", only=("oak",)))  # something else in between
    assert render(base, opts) == first
    png = Options("de", "png", only=("wolf",))
    assert render(base, png) == render(base, png)


def test_png_one_per_physical_card_at_300_dpi(base, tmp_path):
    res = CliRunner().invoke(main, ["print", "--edition", "base", "--lang", "th", "--format",
                                    "png", "--only", "red_fox", "--bleed", "3",
                                    "-o", str(tmp_path / "png")])
    assert res.exit_code == 0, res.output
    shown = [c for c in base.deck if any(k == "base:red_fox" for k, _, _ in c.halves)]
    files = sorted(p.name for p in (tmp_path / "png").iterdir())
    assert len(files) == len(shown) + 1 and "back.png" in files
    # each keeps its number in the whole deck (docs/print.md)
    numbers = [c.number for c in faces.read_deck(base, "th", ["red_fox"]).cards]
    assert [int(f[:3]) for f in files if f != "back.png"] == numbers
    assert numbers[0] > 1 and files[0].startswith(f"{numbers[0]:03d}-") and "red_fox" in files[0]
    for name in files:
        with Image.open(tmp_path / "png" / name) as img:
            # (63 + 2 x 3) x (88 + 2 x 3) mm at 300 dpi
            assert img.size == (815, 1110), name
            assert round(img.info["dpi"][0]) == 300


def test_tts_saved_object_matches_its_sheets(meadow, tmp_path):
    files = render(meadow, Options("it", "tts"))
    objects = json.loads(files["meadow-it.json"])["ObjectStates"]
    decks = [o for o in objects if o["Name"] == "DeckCustom"]
    singles = [o for o in objects if o["Name"] == "Card"]
    # the forest deck, and the caves and winter cards each in a pile (or a card) of their own
    assert len(objects) == 1 + bool(meadow.setup.caves or meadow.caves) + bool(
        meadow.setup.winter_cards)
    assert len(decks[0]["ContainedObjects"]) == len(meadow.deck)
    assert sum(len(d["ContainedObjects"]) for d in decks) + len(singles) == _physical(meadow)
    for deck in decks:
        assert [c["CardID"] for c in deck["ContainedObjects"]] == deck["DeckIDs"]
        for key, entry in deck["CustomDeck"].items():
            assert entry["FaceURL"] in files and entry["BackURL"] in files  # relative paths
            assert entry["NumWidth"] <= 10 and entry["NumHeight"] <= 7
            with Image.open(io.BytesIO(files[entry["FaceURL"]])) as img:
                assert max(img.size) <= 4096
                assert img.width % entry["NumWidth"] == 0
                assert img.height % entry["NumHeight"] == 0
                cell = (img.width // entry["NumWidth"], img.height // entry["NumHeight"])
            cards = [c for c in deck["ContainedObjects"] if key in c["CustomDeck"]]
            assert cards and all(c["CardID"] // 100 == int(key) for c in cards)
            assert all(c["CardID"] % 100 < entry["NumWidth"] * entry["NumHeight"] for c in cards)
    with Image.open(io.BytesIO(files["back.png"])) as back:
        assert back.size == cell
    ids = [int(k) for d in decks for k in d["CustomDeck"]]
    assert len(ids) == len(set(ids))  # no two piles share a sheet


def test_tts_url_base_and_card_size_reach_the_saved_object(meadow):
    files = render(meadow, Options("en", "tts", size="44x68", url_base="https://example.org/w/"))
    objects = json.loads(files["meadow-en.json"])["ObjectStates"]
    urls = [e[k] for o in objects for e in o.get("CustomDeck", {}).values()
            for k in ("FaceURL", "BackURL")]
    assert urls and all(u.startswith("https://example.org/w/") and "//" not in u[8:]
                        for u in urls)
    assert {u.rsplit("/", 1)[1] for u in urls} <= set(files)
    t = objects[0]["Transform"]
    assert (t["scaleX"], t["scaleZ"]) == (round(44 / 63, 4), round(68 / 88, 4))


@pytest.mark.parametrize("args", [["--format", "tts", "--unique"],
                                  ["--format", "tts", "--backs"],
                                  ["--format", "tts", "--bleed", "3"],
                                  ["--format", "png", "--backs"],
                                  ["--format", "pdf", "--url-base", "https://x.org"],
                                  ["--format", "tts", "--url-base", "deck/"]])
def test_options_a_format_does_not_read_are_refused(tmp_path, args):
    out = tmp_path / "out"
    res = CliRunner().invoke(main, ["print", "--edition", "base", "--lang", "en", "--only",
                                    "oak", *args, "-o", str(out)])
    assert res.exit_code == 2 and "USAGE-PRINT-OPTION" in res.output, res.output
    assert args[2] in res.output and not out.exists()


def test_tts_sheets_of_a_large_deck():
    px = tts.card_px(63 * MM, 88 * MM)
    assert px[0] * 10 <= 4096 and px[1] * 7 <= 4096
    grids = tts.grids(166, px)
    assert [(g.cols, g.rows) for g in grids] == [(10, 7), (10, 7), (10, 3)]
    pile = tts.Pile("x", tuple(f"c{i}" for i in range(166)), tuple(grids), 0)
    obj = json.loads(tts.saved_object([pile]))["ObjectStates"][0]
    assert obj["DeckIDs"][69:71] == [169, 200] and obj["DeckIDs"][-1] == 325


def test_a_new_host_prints_from_its_data(meadow):
    """meadow's pond: a host kind no code names, with two slots on top and one of two cards
    below, all for cards with the water requirement."""
    deck = faces.read_deck(meadow, "en")
    pond = next(c.face for c in deck.cards if c.face.parts[0].id == "lily_pond")
    assert pond.kind == "host" and pond.parts[0].host == "Pond"
    assert [(s.side, s.capacity, s.water) for s in pond.slots] == [
        ("top", 1, True), ("top", 1, True), ("bottom", 2, True)]
    split = next(c.face for c in deck.cards if c.face.kind == "split")
    top, bottom = draw.regions(split, 63 * MM, 88 * MM)
    assert top.y > bottom.y and not top.turned
    data, pages = pdf.sheets(deck, geometry.sheet("a4"))
    assert pages == math.ceil(_physical(meadow) / 9)
    assert any("Pond" in p.get_textpage().get_text_range() for p in _pages(data))


def test_left_and_right_halves_lie_side_by_side_on_the_turned_card(base):
    deck = faces.read_deck(base, "en", ["red_fox"])
    face = next(c.face for c in deck.cards if {p.side for p in c.face.parts} == {"left", "right"})
    regions = dict(zip((p.side for p in face.parts), draw.regions(face, 63 * MM, 88 * MM),
                       strict=True))
    assert regions["left"].turned and regions["left"].x < regions["right"].x


def test_every_shipped_edition_prints_without_overflow():
    found = card_lint.lint(search_path(), ["base", "alpine", "woodland_edge", "dartmoor",
                                           "smoky_mountains"])
    assert found == []


def _long_named_meadow(tmp_path: Path) -> Path:
    folder = tmp_path / "meadow"
    shutil.copytree(MEADOW, folder)
    species = folder / "species.yaml"
    text = species.read_text(encoding="utf-8")
    assert "en: Heron," in text
    long = " ".join(["Greatly"] * 30) + " Heron"
    species.write_text(text.replace("en: Heron,", f"en: {long},", 1), encoding="utf-8")
    return folder


def test_text_that_fits_nowhere_is_print_overflow_in_lint_and_print(tmp_path):
    folder = _long_named_meadow(tmp_path)
    found = [d for d in api.lint([str(folder)]) if d.code == "PRINT-OVERFLOW"]
    assert found and all(d.is_error for d in found)
    assert any("card heron (en)" in d.message and "name" in d.message for d in found)
    assert str(found[0].span.file).endswith("species.yaml")
    out = tmp_path / "cards.pdf"
    res = CliRunner().invoke(main, ["print", "--cards", str(folder), "--edition", "meadow",
                                    "--lang", "en", "-o", str(out)])
    assert res.exit_code == 1 and "PRINT-OVERFLOW" in res.output and not out.exists()


@pytest.mark.parametrize("args,code", [
    (["--only", "red_fux"], "USAGE-SPECIES"),
    (["--size", "300x300"], "USAGE-CARD-SIZE"),
    (["--size", "big"], "USAGE-CARD-SIZE"),
    (["--bleed", "-1"], "USAGE-CARD-SIZE"),
])
def test_bad_options_exit_2_and_write_nothing(tmp_path, args, code):
    out = tmp_path / "x.pdf"
    res = CliRunner().invoke(main, ["print", "--edition", "base", "--lang", "en", *args,
                                    "-o", str(out)])
    assert res.exit_code == 2 and code in res.output and not out.exists()


@pytest.mark.skipif(shutil.which("pdftotext") is None,
                    reason="no pdftotext: apt-get install poppler-utils")
def test_thai_names_can_be_searched(base, tmp_path):
    """Through poppler's pdftotext, as the sheets' text layer is checked (PDFium's own text
    extraction orders a Thai tone mark by its position, not as written)."""
    deck = faces.read_deck(base, "th", ["red_fox"])
    data, _ = pdf.sheets(deck, geometry.sheet("a4"))
    (tmp_path / "th.pdf").write_bytes(data)
    run = subprocess.run(["pdftotext", "-raw", "-enc", "UTF-8", str(tmp_path / "th.pdf"), "-"],
                         capture_output=True, text=True, check=True)
    text = "".join(run.stdout.split())
    names = {base.species[p.species].name("th") for c in deck.cards for p in c.face.parts}
    assert names and all(n.replace(" ", "") in text for n in names)


def test_the_quick_bound_never_passes_a_part_that_overflows(base, tmp_path):
    """lint sets as paragraphs only the parts the bound cannot pass: the bound must never
    pass one that does not fit (here every part of the base deck in German, on a small card,
    where many do not)."""
    deck = faces.read_deck(base, "de")
    small = (40 * MM, 56 * MM)
    passed = 0
    for face, _ in deck.unique():
        for part, region in zip(face.parts, draw.regions(face, *small), strict=True):
            if draw._surely_fits(part, region, deck.words):
                passed += 1
                draw.fit(part, region, deck)  # no Overflow
    assert passed


def _glyphs(page) -> list:
    """Every glyph's box in its line's frame: (baseline, (low, high) up the glyph, (start,
    end) along the line, size, turned). A mark's origin is where PDFium puts it, not its
    line's: it takes the baseline of the letter drawn before it."""
    import ctypes
    import unicodedata

    tp = page.get_textpage()
    out, base = [], None
    for i in range(tp.count_chars()):
        ch = tp.get_text_range(i, 1)
        if not ch.strip():
            continue
        left, bottom, right, top = tp.get_charbox(i)
        x, y = ctypes.c_double(), ctypes.c_double()
        pdfium.raw.FPDFText_GetCharOrigin(tp.raw, i, x, y)
        turned = abs(pdfium.raw.FPDFText_GetCharAngle(tp.raw, i) - math.pi / 2) < 0.1
        if unicodedata.category(ch) != "Mn" or base is None:
            base = -x.value if turned else y.value
        up, along = ((-right, -left), (bottom, top)) if turned else ((bottom, top), (left, right))
        out.append((base, up, along, pdfium.raw.FPDFText_GetFontSize(tp.raw, i), turned))
    return out


@pytest.mark.parametrize("edition,species", [("dartmoor", "dartmoor_badger"),
                                             ("base", "red_fox")])
def test_thai_marks_never_touch_the_line_above(edition, species):
    """Every glyph of a line (a tone mark over an upper vowel reaches highest) stays below
    every glyph of the line above it that it stands under (below vowels reach lowest)."""
    cs = cs_mod.build(edition)
    data, _ = pdf.sheets(faces.read_deck(cs, "th", [species]), geometry.sheet("a4"),
                         unique=True)
    pairs, touching = 0, []
    for page in _pages(data):
        glyphs = _glyphs(page)
        for base, (low, _), (a0, a1), size, turned in glyphs:
            for base2, (_, high2), (b0, b1), _, turned2 in glyphs:
                if turned2 != turned or not size < base - base2 < 2.2 * size:
                    continue  # only a glyph of the next line down
                if min(a1, b1) - max(a0, b0) > 0.05:
                    pairs += 1
                    if high2 >= low - 0.05:
                        touching.append((round(base, 1), round(base2, 1), size))
    assert pairs > 100  # lines were measured (at 1.2 times the size 17 pairs touched)
    assert touching == []


@pytest.mark.parametrize("size", ["20x20", "30x35", "20x200"])
def test_too_small_a_card_is_one_usage_error_naming_the_size_that_works(base, tmp_path, size):
    """Far too small a card was a PRINT-OVERFLOW for each of a hundred faces: it is the size,
    not the texts (they fit a poker card), so one usage error says the smallest card of the
    proportions asked that holds every face, and one a millimetre narrower does not."""
    from grove.printouts.cards.output import _fits, _overflowing

    out = tmp_path / "x.pdf"
    res = CliRunner().invoke(main, ["print", "--edition", "base", "--lang", "th", "--size", size,
                                    "-o", str(out)])
    assert res.exit_code == 2 and "error USAGE-CARD-TOO-SMALL: --size " + size in res.output
    assert res.output.count("error ") == 1 and "PRINT-OVERFLOW" not in res.output, res.output
    assert "Traceback" not in res.output and not out.exists()
    deck = faces.read_deck(base, "th")
    w, h = geometry.parse_size(size)
    m = re.search(r"proportions that holds them all is (\d+)x(\d+) mm", res.output)
    if m is None:  # no card this shape within --size's bounds holds them: the poker card does
        assert "a poker card, 63x88, does" in res.output and "--size 63x88" in res.output
        assert not _overflowing(deck, geometry.POKER)
        return
    least = (int(m[1]), int(m[2]))
    assert least[1] == math.ceil(least[0] * h / w) and f"--size {m[1]}x{m[2]} or larger" in res.output
    assert not _overflowing(deck, least)
    # one face that overflows a millimetre narrower is enough: `_fits` stops at the first
    assert not _fits([f for f, _ in deck.unique()], deck,
                     (least[0] - 1, math.ceil((least[0] - 1) * h / w)))


def test_a_face_asked_for_while_the_faces_warm_is_not_drawn_again(base, tmp_path, monkeypatch):
    """A server draws every face in one document as it starts (`Faces.warm`); a face a page
    asks for meanwhile waits for the warming's images and takes its own, where it once drew
    its own document too. Held here between the warming's drawing and its PNGs."""
    import threading

    from grove.printouts.cards import raster
    from grove.serve import faces as served

    monkeypatch.setenv("GROVE_CACHE_DIR", str(tmp_path))
    alone: list[int] = []  # documents of one face drawn
    single = pdf.single

    def counted(deck, shown, *a):
        if len(shown) == 1:
            alone.append(1)
        return single(deck, shown, *a)

    monkeypatch.setattr(pdf, "single", counted)
    drawn, go_on = threading.Event(), threading.Event()
    png = raster.png

    def held(img, *a, **kw):  # the warming's first PNG waits until the page has asked
        if threading.current_thread().name.startswith("faces-") and not drawn.is_set():
            drawn.set()
            go_on.wait(30)
        return png(img, *a, **kw)

    monkeypatch.setattr(raster, "png", held)
    shown = served.Faces(base, "en")
    shown.warm()
    assert drawn.wait(60)
    asked = shown.png(3), shown.png(served.BACK)
    go_on.set()
    shown._warming.join(60)
    assert alone == []
    assert asked == (shown.png(3), shown.png(served.BACK))
    w, h = (v * served.MM for v in geometry.POKER)
    alone_drawn = next(raster.images(single(shown.deck, [shown._faces[0][3]], w, h, 0.0),
                                     served.SCALE))
    assert _rgb(asked[0]).tobytes() == alone_drawn.convert("RGB").tobytes()


def test_a_face_asked_for_before_the_warming_drew_waits_for_it(meadow, tmp_path, monkeypatch):
    """A page asks for its faces as its first table comes, which may be before the warming
    has drawn them (another language's warming holds PDFium, say): the ask waits for the
    warming's images and draws no document of its own. The warming is held here before it
    draws, two seconds past the ask (an ask that drew alone would have its face by then)."""
    import threading

    from grove.compiler import cache
    from grove.serve import faces as served

    monkeypatch.setenv("GROVE_CACHE_DIR", str(tmp_path))
    alone: list[int] = []
    single, get = pdf.single, cache.get

    def counted(deck, shown, *a):
        if len(shown) == 1:
            alone.append(1)
        return single(deck, shown, *a)

    go_on = threading.Event()

    def held(*a):  # the warming, before it draws
        if threading.current_thread().name.startswith("faces-"):
            go_on.wait(60)
        return get(*a)

    monkeypatch.setattr(pdf, "single", counted)
    monkeypatch.setattr(cache, "get", held)
    shown = served.Faces(meadow, "de")
    shown.warm()
    asked: list[bytes] = []
    ask = threading.Thread(target=lambda: asked.append(shown.png(1)))
    ask.start()
    ask.join(2)
    go_on.set()
    ask.join(60)
    shown._warming.join(60)
    assert alone == []
    assert asked == [shown.png(1)] and asked[0].startswith(b"\x89PNG")


def test_the_last_page_marks_only_the_rows_its_cards_fill(base):
    sheet = geometry.sheet("a4", (44, 68))
    assert (sheet.cols, sheet.rows) == (4, 4)
    deck = faces.read_deck(base, "en", ["1-18"])  # 16 and 2
    data, pages = pdf.sheets(deck, sheet)
    assert pages == 2
    full, last = (len([o for o in p.get_objects(max_depth=1)
                       if o.type == pdfium.raw.FPDF_PAGEOBJ_PATH]) for p in _pages(data))
    assert full == len(sheet.marks(16)) == len(sheet.marks())
    assert last == len(sheet.marks(2)) < full
    used = sheet.used(2)
    assert used.h == sheet.cell_h and used.w == 2 * sheet.cell_w
    for x1, y1, x2, y2 in sheet.marks(2):  # none beside or below the rows left empty
        assert min(y1, y2) >= used.y - geometry.MARK_GAP - geometry.MARK_LENGTH - 0.01
        assert max(x1, x2) <= used.x + used.w + geometry.MARK_GAP + geometry.MARK_LENGTH + 0.01


def test_cut_lines_draw_each_cards_trim_box(base):
    sheet = geometry.sheet("a4")
    deck = faces.read_deck(base, "en", ["1-5"])
    plain, lined = (pdf.sheets(deck, sheet, cut=cut)[0] for cut in ("marks", "lines"))
    paths = [[o.get_bounds() for o in _pages(d)[0].get_objects(max_depth=1)
              if o.type == pdfium.raw.FPDF_PAGEOBJ_PATH] for d in (plain, lined)]
    boxes = paths[1][len(paths[0]):]
    assert len(boxes) == 5
    for i, (left, bottom, right, top) in enumerate(boxes):
        t = sheet.trim(i)
        assert abs((left + right) / 2 - (t.x + t.w / 2)) < 0.5 and abs(right - left - t.w) < 1
        assert abs((bottom + top) / 2 - (t.y + t.h / 2)) < 0.5 and abs(top - bottom - t.h) < 1


def test_each_card_is_stamped_and_each_page_labelled(base):
    deck = faces.read_deck(base, "de", ["67", "winter"], stamp="base v9")
    data, pages = pdf.sheets(deck, geometry.sheet("a4"), backs=True, checklist=True)
    assert pages == 3
    texts = [p.get_textpage().get_text_range() for p in _pages(data)]
    assert all(f"base v9 {n}/166" in texts[0] for n in (67, 164, 165, 166))
    assert "Vorderseiten" in texts[0] and "Seite 1/3" in texts[0]
    assert "Rückseiten" in texts[1] and "Seite 2/3" in texts[1]
    assert "Checkliste" in texts[2] and "Seite 3/3" in texts[2]
    # the checklist: every face with its card numbers and count
    assert "164-166" in texts[2] and "×3" in texts[2] and "67" in texts[2]


def test_only_takes_find_terms_numbers_and_piles(tmp_path):
    cs = cs_mod.build("smoky_mountains")
    rivers = [sp.key for sp in cs.species.values() if sp.kind == "river"]
    terms = api._print_terms(cs, ["kind:river", "3-4", "caves"], None)
    assert set(terms) == {*rivers, "3-4", "caves"}
    deck = faces.read_deck(cs, "en", terms)
    piles = {c.pile for c in deck.cards}
    assert piles == {"forest", "caves"}
    assert {3, 4} <= {c.number for c in deck.cards}
    assert sum(1 for c in deck.cards if c.pile == "caves") == cs.setup.caves
    with pytest.raises(faces.UnknownSpecies):
        faces.read_deck(cs, "en", ["999"])
    res = CliRunner().invoke(main, ["print", "--edition", "base", "--lang", "en", "--only",
                                    "kind:river", "-o", str(tmp_path / "x.pdf")])
    assert res.exit_code == 2 and "river" in res.output


def test_hosts_look_like_their_kind():
    """From data alone: a river (all slots for water cards) is blue, a shrub and a moor each
    take their own tone, unlike a tree; the Waterfall's bottom holds four, shown as one tab."""
    smoky, dartmoor = cs_mod.build("smoky_mountains"), cs_mod.build("dartmoor")
    by_id = {f.parts[0].id: f for cs in (smoky, dartmoor)
             for f, _ in faces.read_deck(cs, "en").unique() if f.kind == "host"}
    assert by_id["creek"].tone == faces.WATER and by_id["basswood"].tone == 0
    assert len({by_id["moor_birch"].tone, by_id["common_hazel"].tone,
                by_id["blanket_bog"].tone}) == 3
    assert [(s.side, s.capacity) for s in by_id["waterfall"].slots if s.side == "bottom"] == [
        ("bottom", 4)]
    assert [(s.side, s.capacity) for s in by_id["creek"].slots if s.side == "bottom"] == [
        ("bottom", 1), ("bottom", 1)]
    data, _ = pdf.sheets(faces.read_deck(smoky, "en", ["waterfall"]), geometry.sheet("a4"))
    assert "×4" in _pages(data)[0].get_textpage().get_text_range()
    # a host's name stays on one line where it fits at any size
    for cs, lang, sid in ((dartmoor, "en", "moor_birch"), (smoky, "de", "basswood")):
        face = next(f for f, _ in faces.read_deck(cs, lang, [sid]).unique())
        deck = faces.read_deck(cs, lang, [sid])
        fitted = draw.fit(face.parts[0], draw.regions(face, 63 * MM, 88 * MM)[0], deck)
        assert fitted.title_h <= fitted.title.style.leading + 0.01, (sid, lang)


def test_one_card_face_as_png():
    png = api.card_png("smoky_mountains", [], 63, "th", dpi=72)
    with Image.open(io.BytesIO(png)) as img:
        assert img.size == (round(63 * MM), round(88 * MM))  # 72 dpi: a pixel a point
    with pytest.raises(api.DiagnosticError):
        api.card_png("base", [], 999, "en")


def _rgb(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as img:
        return img.convert("RGB")


def _most(diff: Image.Image) -> int:
    return max(hi for _, hi in diff.getextrema())


def test_png_and_tts_images_carry_each_cards_stamp(base):
    """Faces are rasterised once, and each card's image is its face with its own stamp laid
    over it: the same pixels (to a few levels of antialiasing) as the face and stamp drawn in
    one PDF page, copies of one face differing in the stamp's corner alone."""
    from PIL import ImageChops

    from grove.printouts.cards import raster
    from grove.printouts.cards.output import face_png

    cards = faces.read_deck(base, "en", ["oak"]).cards
    assert len(cards) >= 3 and len({c.face for c in cards}) == 1  # copies of one face
    bw, bh = draw.stamp_box(63 * MM)
    files = render(base, Options("en", "png", only=("oak",), version="9.9"))
    images = {int(k[:3]): _rgb(v) for k, v in files.items() if k != "back.png"}
    assert sorted(images) == [c.number for c in cards]
    for n, img in images.items():
        drawn = _rgb(face_png(base, n, "en", dpi=300, version="9.9"))
        assert _most(ImageChops.difference(img, drawn)) <= 4, n
    first, second = (images[c.number] for c in cards[:2])
    left, top, right, bottom = ImageChops.difference(first, second).getbbox()
    assert right <= bw * 300 / 72 + 1 and top >= first.height - bh * 300 / 72 - 1
    # the sheets of Tabletop Simulator: each cell its face, stamped with its card's number
    files = render(base, Options("en", "tts", only=("oak",), version="9.9"))
    px = tts.card_px(63 * MM, 88 * MM)
    plain = raster.exact(next(raster.images(pdf.single(
        faces.read_deck(base, "en", ["oak"]), [cards[0].face], 63 * MM, 88 * MM, 0.0),
        px[0] / (63 * MM))), px)
    sheet = _rgb(files["deck-1.png"])
    cells = [sheet.crop((i * px[0], 0, (i + 1) * px[0], px[1])) for i in range(len(cards))]
    corners = set()
    for cell in cells:
        box = ImageChops.difference(cell, plain).getbbox()
        assert box is not None, "a card without its stamp"
        assert box[2] <= bw * px[0] / (63 * MM) + 1 and box[1] >= px[1] - bh * px[0] / (63 * MM) - 1
        corners.add(cell.crop(box).tobytes())
    assert len(corners) == len(cards)  # each its own number


def test_serve_faces_carry_no_stamp(base):
    """The browser's faces name no card: a face is one image for every copy, drawn without
    the stamp `grove print` gives each card (a deck number would tell a seat which copy it
    sees)."""
    from grove.printouts.cards import raster
    from grove.serve.faces import MM as SERVE_MM
    from grove.serve.faces import SCALE, Faces

    shown = Faces(base, "en")
    k = shown.of_card(0)
    assert k is not None and sum(shown.of_card(n) == k for n in range(len(base.deck))) > 1
    w, h = (v * SERVE_MM for v in geometry.POKER)
    plain = next(raster.images(pdf.single(shown.deck, [shown.deck.cards[0].face], w, h, 0.0),
                               SCALE))
    assert _rgb(shown.png(k)).tobytes() == plain.tobytes()
