"""Thai line breaks know the card set's names: a line never breaks inside a species, symbol or
host name (the splitter cut loanwords into syllables: "ลา | ร์ช", "ซาลาแมนเดอร์เฮลเบนเด | อร์"),
never before a combining mark or a consonant the thanthakhat silences, and a name wider than its
column breaks only between its own words."""

from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
import xml.etree.ElementTree as ET

import pytest
from reportlab.pdfbase.pdfmetrics import stringWidth

from grove.compiler import cardset as cs
from grove.printouts.sheets import fonts, lint, pdf, thai
from grove.printouts.sheets.content import build_sheet

EDITIONS = {"base+alpine+woodland_edge": ("base", ("alpine", "woodland_edge")),
            "dartmoor": ("dartmoor", ()), "smoky_mountains": ("smoky_mountains", ())}


@pytest.fixture(scope="module")
def sheets(laid_out):
    return {k: laid_out.sheet(e, x, "th") for k, (e, x) in EDITIONS.items()}


@pytest.fixture(scope="module")
def texts(sheets):
    """edition -> every text run of its Thai sheet (paragraphs, cells, list items)."""
    out = {}
    for k, sheet in sheets.items():
        root = ET.fromstring(pdf.story(sheet, measure_only=True).xhtml)
        runs = {"".join(e.itertext()) for e in root.iter()
                if e.tag in ("p", "li", "td", "th", "h1", "h2", "h3", "figcaption")}
        out[k] = sorted(w for run in runs for w in run.split() if thai.has_thai(w))
    return out


def _names(sheet) -> list[str]:
    return sorted({r.name for r in sheet.all_species}
                  | {s.name for s in (*sheet.tree_symbols, *sheet.type_symbols, *sheet.groups)}
                  | {h.name for h in sheet.hosts})


def _bounds(pieces) -> set[int]:
    out, pos = set(), 0
    for p in pieces[:-1]:
        pos += len(p)
        out.add(pos)
    return out


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_break_inside_a_name(sheets, texts, edition):
    sheet = sheets[edition]
    assert sheet.words, "the Thai sheet gives the splitter its names"
    inside = []
    for word in texts[edition]:
        bounds = _bounds(thai.segments(word, sheet.words))
        for name in _names(sheet):
            for part in name.split():
                for m in re.finditer(re.escape(part), word):
                    cut = [b for b in bounds if m.start() < b < m.end()]
                    if cut:
                        inside.append((part, word[:cut[0]] + "|" + word[cut[0]:]))
    assert not inside, f"{len(inside)} breaks inside a name, e.g. {inside[:4]}"


@pytest.mark.parametrize("edition", EDITIONS)
def test_no_piece_starts_with_a_mark(sheets, texts, edition):
    """Every piece a line may start with begins with a letter a syllable can begin with."""
    bad = []
    for word in texts[edition]:
        for cut in (thai.segments(word, sheets[edition].words), thai.fine_segments(word)):
            for p in cut[1:]:
                ch = p[0]
                if (unicodedata.category(ch) == "Mn" or ch in "ะาำๅๆฯ"
                        or re.match(r"[ก-ฮ][ิุ]?์", p)):
                    bad.append(p)
    assert not bad, bad[:8]


def test_the_faults_found_by_eye():
    words = thai.dictionary_words(["ต้นลาร์ช", "ลาร์ช", "ซาลาแมนเดอร์เฮลเบนเดอร์"])
    assert thai.segments("ต้นลาร์ช", words) == ("ต้นลาร์ช",)
    assert "ร์ช" not in thai.segments("ต้นลาร์ชสองต้น")  # even without the names: a silent ร์
    assert thai.segments("วางซาลาแมนเดอร์เฮลเบนเดอร์ได้", words)[1] == "ซาลาแมนเดอร์เฮลเบนเดอร์"
    assert not any(p.startswith("์") or p.startswith("อร์")
                   for p in thai.fine_segments("ซาลาแมนเดอร์เฮลเบนเดอร์"))
    assert "".join(thai.fine_segments("ซาลาแมนเดอร์เฮลเบนเดอร์")) == "ซาลาแมนเดอร์เฮลเบนเดอร์"
    # newmm cuts "player" in two; every sheet's dictionary holds them whole
    none = thai.dictionary_words([])
    assert "ผู้เล่น" in thai.segments("ผู้เล่นแต่ละคนเลือก", none)
    assert "พื้นที่กลาง" in thai.segments("หยิบจากพื้นที่กลางหนึ่งใบ", none)


@pytest.mark.parametrize("edition", EDITIONS)
def test_names_in_the_species_column(sheets, edition):
    """A name fits its column on one line; only one wider than the column (Smoky's
    นกหัวขวานดูดน้ำเลี้ยงท้องเหลือง) breaks, between its own words (`fine_segments`, each of
    which fits)."""
    bold = fonts.register().bold
    for cell in pdf.story(sheets[edition], measure_only=True).cells:
        if cell.table != "species" or cell.col != 0 or not cell.key:
            continue
        name = next(r.name for r in sheets[edition].all_species if r.key == cell.key)
        para = thai.SegmentedParagraph(f"<b>{name}</b>", cell.style, words=cell.words)
        para.wrap(cell.width, 1000)
        if len(para.blPara.lines) > 1:
            size = cell.style.fontSize
            assert stringWidth(name, bold, size) > cell.width, name
            assert all(stringWidth(p, bold, size) <= cell.width
                       for p in thai.fine_segments(name)), name


def test_lint_measures_a_long_name_by_its_own_words():
    """No Thai sheet of the shipped editions has a word wider than its column."""
    for e, x in EDITIONS.values():
        found = [d for d in lint.check_sheet(cs.build(e, list(x)), "th")
                 if d.code == "SHEET-OVERFLOW"]
        assert not found, found[:3]


def test_the_name_column_widens_only_for_a_name_that_cannot_break(sheets):
    """A Latin name breaks at its spaces, so the name column keeps its share (and the sheets
    their pages); Smoky's Thai salamander, one word, gets the room it needs; the sapsucker,
    wider than the largest share, does not widen it further."""
    from grove.printouts.sheets import templates

    cards = cs.build("smoky_mountains", [])
    assert templates.name_share(build_sheet(cards, "en")) == templates.NAME_SHARE[0]
    th = templates.name_share(sheets["smoky_mountains"])
    assert templates.NAME_SHARE[0] < th < templates.NAME_SHARE[1]
    width = th * pdf.layout.page("a4").frame_width - 2 * pdf.layout.CELL_PAD
    bold, size = fonts.register().bold, pdf.layout.styles().cell.fontSize
    assert stringWidth("ซาลาแมนเดอร์เฮลเบนเดอร์", bold, size) <= width
    assert stringWidth("นกหัวขวานดูดน้ำเลี้ยงท้องเหลือง", bold, size) > width


# ---- a number stays with its classifier (issue 33) -----------------------------------------
def test_a_count_phrase_does_not_part():
    """ช่องละหนึ่งใบ (one card per slot) broke as "ช่อง / ละหนึ่งใบ"; a number word never
    parts from its classifier, nor ละ from the noun before it; a numeral and the Thai word after
    it are joined by a no-break space."""
    assert "ช่องละหนึ่งใบ" in thai.segments("วางในช่องรอบการ์ดหลักช่องละหนึ่งใบเว้นแต่มีตัวเลข")
    assert "หนึ่งใบ" in thai.segments("ผู้เล่นแต่ละคนเลือกหนึ่งใบ")
    assert thai.bind_numbers("อย่างน้อย 3 ต้น 10 คะแนน, 2 x") == \
        "อย่างน้อย 3\u00a0ต้น 10\u00a0คะแนน, 2 x"


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="no pdftotext: apt-get install "
                    "poppler-utils")
@pytest.mark.parametrize("edition", ["smoky_mountains", "base+alpine+woodland_edge"])
def test_no_line_ends_between_a_number_and_its_classifier(sheets, laid_out, edition, tmp_path):
    """What a reader saw on the Smoky Mountains sheet: "อย่างน้อย 3 / ต้น", "1 / ใบ",
    "10 / คะแนน". Read from the PDF itself (`pdftotext -raw`, a line per printed line); the
    running head (its page number) and the set-up table's rows of numbers are left out."""
    sheet = sheets[edition]
    path = tmp_path / "sheet.pdf"
    path.write_bytes(laid_out.pdf(*EDITIONS[edition], "th", "a4"))
    text = subprocess.run(["pdftotext", "-raw", "-enc", "UTF-8", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    parted = [f"{a} / {b}" for a, b in zip(lines, lines[1:], strict=False)
              if not a.startswith(sheet.edition) and re.search(r"\d$", a)
              and not re.search(r"(\s\d+){2,}$", a) and thai.has_thai(b[:1])]
    assert parted == []
    assert not [ln for ln in lines if ln.startswith("ละ")]


THAI_SHEETS = {**EDITIONS, "base": ("base", ())}


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="no pdftotext: apt-get install "
                    "poppler-utils")
@pytest.mark.parametrize("edition", THAI_SHEETS)
def test_no_line_ends_inside_a_fixed_phrase(laid_out, edition, tmp_path):
    """Issue 44: "อย่าง | น้อย", "แต่ละ | แบบ", "ถ้าไม่ | มี" at a line's end. Read from the PDF's
    printed lines (`pdftotext -raw`) against the phrase list (thai_phrases.txt)."""
    base, exps = THAI_SHEETS[edition]
    path = tmp_path / "sheet.pdf"
    path.write_bytes(laid_out.pdf(base, exps, "th", "a4"))
    text = subprocess.run(["pdftotext", "-raw", "-enc", "UTF-8", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    parted = [f"{a[-12:]} | {b[:12]}" for a, b in zip(lines, lines[1:], strict=False)
              for p in thai.PHRASES for i in range(1, len(p))
              if a.endswith(p[:i]) and b.startswith(p[i:])]
    assert parted == []


def test_the_phrase_list_is_every_sheets_dictionary():
    assert {"อย่างน้อย", "แต่ละแบบ", "ถ้าไม่มี", "พื้นที่กลาง"} <= thai.PHRASES
    assert thai.dictionary_words([]) >= thai.PHRASES
    none = thai.dictionary_words([])
    assert "อย่างน้อย" in thai.segments("ต้องมีอย่างน้อยสองใบ", none)


# ---- issue 44, the third reading: a wide name breaks after a known word --------------------
def test_a_wide_name_is_cut_after_a_known_word_first():
    """newmm knows the hellbender's loanword only as syllables (เฮ ล เบน เด อร ์); the cut
    after ซาลาแมนเดอร์, a word it knows, comes first; a name of known words keeps its cuts."""
    words = build_sheet(cs.build("smoky_mountains", []), "th").words
    assert thai.word_segments("ซาลาแมนเดอร์เฮลเบนเดอร์", words) == ("ซาลาแมนเดอร์", "เฮลเบนเดอร์")
    assert thai.word_segments("นกหัวขวานดูดน้ำเลี้ยงท้องเหลือง", words) == (  # ท้องเหลือง is
        "นก", "หัวขวาน", "ดูด", "น้ำเลี้ยง", "ท้องเหลือง")  # one word: "yellow-bellied"
    assert thai.word_segments("ซาลาแมนเดอร์เลียนแบบ", words) == ("ซาลาแมนเดอร์", "เลียนแบบ")


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="no pdftotext: apt-get install "
                    "poppler-utils")
@pytest.mark.parametrize("edition,paper,printed", [
    # a reader saw "ซาลาแมนเดอร์เฮลเบน / เดอร์"; A4 had "กระต่ายดำดาร์ต / มัวร์" too (on Letter,
    # wider, the rabbit fits its line)
    ("smoky_mountains", "a4", ("ซาลาแมนเดอร์", "เฮลเบนเดอร์")),
    ("smoky_mountains", "letter", ("ซาลาแมนเดอร์", "เฮลเบนเดอร์")),
    ("dartmoor", "a4", ("กระต่าย", "ดำดาร์ตมัวร์")),
])
def test_a_wide_name_prints_on_lines_cut_after_a_known_word(laid_out, edition, printed, paper,
                                                            tmp_path):
    """Read from the PDF's printed lines (`pdftotext -raw`): the name's lines are its pieces;
    no name of the sheet is printed parted anywhere else than between two of its
    `word_segments`."""
    sheet = laid_out.sheet(edition, (), "th")
    path = tmp_path / "sheet.pdf"
    path.write_bytes(laid_out.pdf(edition, (), "th", paper))
    text = subprocess.run(["pdftotext", "-raw", "-enc", "UTF-8", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    assert any(tuple(lines[i:i + len(printed)]) == printed for i in range(len(lines)))
    parted = []
    for r in sheet.all_species:
        cuts = _bounds(thai.word_segments(r.name, sheet.words))
        for a, b in zip(lines, lines[1:], strict=False):
            for i in range(1, len(r.name)):
                if a == r.name[:i] and b.startswith(r.name[i:]) and i not in cuts:
                    parted.append(f"{a} / {b}")
    assert parted == []
