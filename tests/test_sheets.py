"""Quick-reference sheets: every edition in every language, bytes that repeat, HTML from the same
templates, clear errors, the shaping check, Thai line breaks and the sheet lint.

The expensive part (16 PDFs, 16 stories) is built once (the PDFs once per test process: the
session fixture `laid_out`, tests/sheet_helpers.py); each test only looks. One edition is
written through the public API in every language, and must give the same bytes.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest
from babel.messages.extract import extract_from_dir
from click.testing import CliRunner
from reportlab.pdfbase import ttfonts
from reportlab.platypus import ListFlowable, Paragraph, Table
from reportlab.platypus.paragraph import _HSFrag

from grove import api
from grove.cli import main
from grove.compiler import cardset as cs
from grove.dsl.diagnostics import DiagnosticError
from grove.printouts.sheets import catalog, fonts, html, layout, lint, output, pdf, templates, thai
from grove.printouts.sheets.content import build_sheet, sort_key
from grove.printouts.sheets.diagrams import layout as diagram_layout

EDITIONS = {
    "base": ("base", ()),
    "base+alpine+woodland_edge": ("base", ("alpine", "woodland_edge")),
    "dartmoor": ("dartmoor", ()),
    "smoky_mountains": ("smoky_mountains", ()),
}
LANGS = ("en", "de", "it", "th")
CASES = [(e, lang) for e in EDITIONS for lang in LANGS]


def _ids(case: tuple[str, str]) -> str:
    return f"{case[0]}-{case[1]}"


@pytest.fixture(scope="module")
def cardsets():
    return {k: cs.build(e, list(x)) for k, (e, x) in EDITIONS.items()}


@pytest.fixture(scope="module")
def pdfs(laid_out, tmp_path_factory):
    """Every edition in all four languages, as `pdf.render` gives it, in a file of its own (for
    pdftotext); `api.sheet` writes the same bytes (test_the_api_writes_the_same_bytes)."""
    folder = tmp_path_factory.mktemp("sheets")
    out = {}
    for key, lang in CASES:
        out[(key, lang)] = folder / f"{key}-{lang}.pdf"
        out[(key, lang)].write_bytes(laid_out.pdf(*EDITIONS[key], lang))
    return out


def _flowable_text(flowables) -> list[str]:
    out: list[str] = []
    for f in flowables:
        if isinstance(f, Paragraph):
            out.append(f.getPlainText())
        elif isinstance(f, Table):
            for row in f._cellvalues:
                for cell in row:
                    out += _flowable_text(cell if isinstance(cell, list) else [cell])
        elif isinstance(f, ListFlowable):
            out += _flowable_text([getattr(i, "_flowables", [i])[0] for i in f._flowables])
        elif hasattr(f, "_content"):
            out += _flowable_text(f._content)
        elif hasattr(f, "_flowables"):
            out += _flowable_text(f._flowables)
        elif hasattr(f, "diagram"):
            out += [line for b in f.diagram.boxes for line in b.lines]
    return out


@pytest.fixture(scope="module")
def stories(cardsets):
    """(edition, lang) -> (sheet, the plain text of every built flowable)."""
    out = {}
    for key, lang in CASES:
        sheet = build_sheet(cardsets[key], lang)
        out[(key, lang)] = (sheet, "\n".join(_flowable_text(pdf.story(sheet).flowables)))
    return out


# ---- every edition, every language ---------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_pdf_is_written_and_valid(cardsets, pdfs, case):
    data = pdfs[case].read_bytes()
    assert data.startswith(b"%PDF-1.") and data.rstrip().endswith(b"%%EOF")
    assert len(re.findall(rb"/Type /Page\b", data)) >= 3
    # the name `api.sheet` gives it in a folder (test_the_api_writes_the_same_bytes writes one)
    [target] = output.targets(cardsets[case[0]], [case[1]], "sheets/", "pdf")
    assert target.name == f"sheet-{case[0]}-{case[1]}.pdf"


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_every_species_name_is_printed(cardsets, stories, case):
    sheet, text = stories[case]
    names = [sp.name(case[1]) for sp in cardsets[case[0]].species.values()]
    missing = [n for n in names if n not in text]
    assert not missing, f"{len(missing)} species names not on the sheet: {missing[:5]}"
    assert len(sheet.all_species) == len(names)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_no_placeholder_left(cardsets, stories, case):
    _, text = stories[case]
    assert not re.search(r"%\(|\{[a-z_]*\}|\{\{|\}\}", text), "a placeholder was not filled"
    ids = {sp.id for sp in cardsets[case[0]].species.values() if "_" in sp.id}
    ids |= {h for h in cardsets[case[0]].hosts if "_" in h}
    assert not [i for i in ids if re.search(rf"\b{i}\b", text)], "a raw id is printed"
    if case[1] != "en":  # no English sentence of the sheet catalog slipped through
        left = [m.id for m in catalog.read_catalog(case[1]) if m.id and isinstance(m.id, str)
                and len(m.id) > 14 and m.string != m.id and m.id in text]
        assert not left, left


@pytest.mark.parametrize("lang", LANGS)
def test_html_from_the_same_templates(cardsets, stories, laid_out, lang):
    key = "base+alpine+woodland_edge"
    page = laid_out.html(*EDITIONS[key], lang)
    assert page.startswith("<!DOCTYPE html>") and f'<html lang="{lang}">' in page
    assert page.count('<svg xmlns="http://www.w3.org/2000/svg" class="diagram"') == len(cardsets[key].hosts)
    body = "".join(ET.fromstring(page[page.index("<article"):page.index("</article>") + 10])
                   .itertext())
    for sp in cardsets[key].species.values():
        assert sp.name(lang) in body
    title = stories[(key, lang)][1].splitlines()[0]
    assert title in body  # the same templates: the same words as the PDF


def test_cli_html(tmp_path, cardsets):
    res = CliRunner().invoke(main, ["sheet", "--edition", "dartmoor", "--lang", "th",
                                    "--format", "html", "-o", str(tmp_path / "d.html")])
    assert res.exit_code == 0, res.output
    text = (tmp_path / "d.html").read_text(encoding="utf-8")
    assert all(sp.name("th") in text for sp in cardsets["dartmoor"].species.values())


# ---- determinism ---------------------------------------------------------------------------
def test_the_api_writes_the_same_bytes(pdfs, tmp_path):
    """Invariant mode: no dates, no random ids; the files the public API writes, each laid out
    afresh, are the bytes of the renders the other tests read, in every language; named after
    the edition and language, no temporary file left behind."""
    paths = api.sheet("smoky_mountains", [], list(LANGS), str(tmp_path))
    assert [p.name for p in paths] == [f"sheet-smoky_mountains-{lang}.pdf" for lang in LANGS]
    for lang, path in zip(LANGS, paths, strict=True):
        assert path.read_bytes() == pdfs[("smoky_mountains", lang)].read_bytes(), lang
    assert sorted(tmp_path.iterdir()) == sorted(paths), "a temporary file was left behind"


def test_letter_paper(laid_out):
    data = laid_out.pdf("base", (), "en", "letter")
    assert b"/MediaBox [ 0 0 612 792 ]" in data


# ---- bad input -----------------------------------------------------------------------------
@pytest.mark.parametrize("args, code", [
    (["--edition", "atlantis", "--lang", "en"], "EDITION-UNKNOWN"),
    (["--edition", "base", "--lang", "fr"], "USAGE-LANGUAGE"),
    (["--edition", "base", "--lang", "en", "-o", "/proc/no/such/dir/x.pdf"], "IO-WRITE"),
    (["--edition", "alpine", "--lang", "en"], "EDITION-NOT-STANDALONE"),
])
def test_bad_input_is_one_diagnostic_exit_2(tmp_path, monkeypatch, args, code):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, ["sheet", *args])
    assert res.exit_code == 2, res.output
    assert not isinstance(res.exception, Exception) or isinstance(res.exception, SystemExit)
    # the common printer: one diagnostic, its hint indented below it
    heads = [line for line in res.stderr.strip().splitlines() if not line.startswith(" ")]
    assert len(heads) == 1 and code in heads[0] and "Traceback" not in res.output
    assert list(tmp_path.iterdir()) == []


def test_unwritable_folder_leaves_nothing(tmp_path):
    target = tmp_path / "sheets"
    target.write_text("a file, not a folder")
    res = CliRunner().invoke(main, ["sheet", "--edition", "base", "--lang", "en,de",
                                    "-o", str(target)])
    assert res.exit_code == 2 and "IO-WRITE" in res.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheets"]


def test_shaping_check(monkeypatch, tmp_path):
    assert fonts.shaping_problem() is None
    monkeypatch.setattr(ttfonts, "uharfbuzz", None)
    assert "uharfbuzz" in (fonts.shaping_problem() or "")
    with pytest.raises(DiagnosticError) as exc:
        api.sheet("base", [], ["th"], str(tmp_path / "x.pdf"))
    assert exc.value.diagnostics[0].code == "SHEET-SHAPING"
    res = CliRunner().invoke(main, ["sheet", "--edition", "base", "--lang", "th",
                                    "-o", str(tmp_path / "y.pdf")])
    assert res.exit_code == 2
    assert len([x for x in res.stderr.strip().splitlines() if not x.startswith(" ")]) == 1
    assert "SHEET-SHAPING" in res.stderr and "Traceback" not in res.output
    assert list(tmp_path.iterdir()) == []


# ---- Thai ----------------------------------------------------------------------------------
PHRASE = ("2 คะแนนต่อการ์ดแต่ละใบที่มีสัญลักษณ์บาสวูดที่ติดอยู่กับต้นไม้นี้ "
          "รวมถึงการ์ดใบนี้ด้วย นกกระจิ๊ดข้างสีน้ำตาลแดง")


def _word_bounds(text: str) -> set[int]:
    """newmm's own word ends, its Trie and all: imported here, not as the module is collected
    (newmm builds its Trie of 62,000 words as it is imported, a second in every test worker)."""
    from newmm_tokenizer.tokenizer import word_tokenize

    out, pos = {0}, 0
    for w in word_tokenize(text, keep_whitespace=True):
        pos += len(w)
        out.add(pos)
    return out


def test_thai_segments_never_split_a_word():
    pieces = thai.segments(PHRASE)
    assert "".join(pieces) == PHRASE and len(pieces) > 10
    bounds, pos = _word_bounds(PHRASE), 0
    for p in pieces:
        pos += len(p)
        assert pos in bounds, f"a break inside a word after {p!r}"
    assert thai.segments("Red Fox") == ("Red Fox",)
    assert all(not p.startswith("ๆ") for p in thai.segments("นกตัวเล็กๆ สองตัว"))


def test_thai_wraps_at_word_boundaries_in_a_narrow_cell():
    style = layout.styles().cell
    para = thai.SegmentedParagraph(f"<b>{PHRASE}</b>", style)
    para.wrap(60, 1000)
    lines = ["".join(w.text for w in line.words) for line in para.blPara.lines]
    assert len(lines) >= 6
    plain = Paragraph(PHRASE, style)  # reportlab alone: one overlong "word" per space
    plain.wrap(60, 1000)
    assert plain.minWidth() > 60 >= para.minWidth()
    # the lines, put back together, are the phrase; each line ends at a newmm word boundary
    text = thai.SegmentedParagraph(f"<b>{PHRASE}</b>", style).getPlainText()  # before shaping
    assert text == PHRASE
    bounds, words = _word_bounds(PHRASE), thai.break_words(Paragraph(PHRASE, style).frags)
    pos = 0
    for w in words:
        pos += len("".join(t for _, t in w[1:]))
        assert pos in bounds, f"a break inside a word at {pos}"
        if isinstance(w, _HSFrag):
            pos += 1  # the space after it


# ---- catalogs ------------------------------------------------------------------------------
def test_sheet_catalogs_translate_every_template_message():
    wanted = {(m if isinstance(m, str) else m[0], ctx) for _, _, m, _, ctx in extract_from_dir(
        str(templates.TEMPLATE_DIR), method_map=[("**.j2", "jinja2.ext:babel_extract")],
        options_map={"**.j2": {"extensions": "jinja2.ext.i18n"}})}
    assert len(wanted) > 50
    for lang in LANGS:
        cat = catalog.read_catalog(lang)
        for msgid, ctx in wanted:
            m = cat.get(msgid, context=ctx)
            assert m is not None, f"{lang}: {msgid!r} missing from sheet.po"
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            assert all(strings), f"{lang}: {msgid!r} untranslated"


def test_diagrams_show_every_slot(cardsets):
    labels = templates.labels("de")
    for cset in cardsets.values():
        for h in build_sheet(cset, "de").hosts:
            d = diagram_layout(h, labels)
            slots = [b for b in d.boxes if b.role == "slot"]
            assert len(slots) == len(h.slots)
            assert sum(b.water for b in slots) == sum(s.water for s in h.slots)
            assert sorted(b.lines[0].split()[0] for b in slots) == sorted(
                labels.sides[s.side] for s in h.slots)


# ---- lint ----------------------------------------------------------------------------------
def _renamed(cset, key: str, lang: str, name: str):
    sp = cset.species[key]
    names = {**dict(sp.names), lang: name}
    return dataclasses.replace(cset, species={**cset.species,
                                              key: dataclasses.replace(sp, names=names)})


def test_lint_reports_overflow_and_missing_glyph(cardsets):
    base = cardsets["base"]
    assert lint.check_sheet(base, "de") == []
    long = _renamed(base, "base:red_fox", "de", "Donaudampfschifffahrtsgesellschaftsrotfuchs")
    found = lint.check_sheet(long, "de")
    assert [d.code for d in found] == ["SHEET-OVERFLOW"]
    assert found[0].span == base.species["base:red_fox"].span
    assert "Donaudampfschifffahrtsgesellschaftsrotfuchs" in found[0].message
    odd = _renamed(base, "base:red_fox", "th", "สุนัขจิ้งจอก \U0001F98A")
    codes = {d.code for d in lint.check_sheet(odd, "th")}
    assert codes == {"SHEET-MISSING-GLYPH"}


def test_lint_thai_overflow_is_measured_by_words(cardsets):
    """A long Thai name breaks between words, so it does not overflow: only one unbreakable
    word would."""
    base = cardsets["base"]
    long = _renamed(base, "base:red_fox", "th", "สุนัขจิ้งจอกแดงตัวใหญ่ที่อาศัยอยู่ในป่าลึก")
    assert lint.check_sheet(long, "th") == []


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_no_two_species_share_a_name_in_one_sheet(cardsets, case):
    """Base's Squeaker and Woodland Edge's carry one published name; the sheet names the
    expansion's with its edition, so every row and every group note can be told apart."""
    edition, lang = case
    sheet = build_sheet(cardsets[edition], lang)
    names = [r.name for r in sheet.all_species]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    for g in sheet.groups:
        assert len(g.members) == len(set(g.members)) >= 1, g
    if edition == "base+alpine+woodland_edge":
        squeakers = {r.key: r.name for r in sheet.all_species if r.id == "squeaker"}
        assert len(set(squeakers.values())) == 2


# the sentences a reader found awkward (issue 15) and what the sheet says instead
AWKWARD = {
    "en": ("Each comes from the top of the deck or is any face-up card", "Shuffle all but one",
           "into the clearing: ", "From your next turn on:"),
    "de": ("Mische alle", "in die Lichtung: ", "Ab deinem nächsten Zug:", "pro Art deiner"),
    "it": ("tutte le 3 carte inverno tranne una", "nella radura: ", "Dal tuo prossimo turno:"),
    "th": ("ยกเว้นใบเดียว", "ตามจำนวนนั้น", "ตั้งแต่ตาถัดไปของคุณ:"),
}
WINNER = {
    "en": "The player with the highest total wins; players who tie for the highest total "
          "share the win.",
    "de": "Wer insgesamt die meisten Punkte hat, gewinnt; haben mehrere gleich viele, teilen "
          "sie sich den Sieg.",
    "it": "Vince chi ha il totale più alto; a parità di totale, i giocatori in testa "
          "condividono la vittoria.",
    "th": "ผู้ที่มีคะแนนรวมสูงสุดเป็นผู้ชนะ",
}


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_awkward_sentences_are_gone_and_the_winner_is_named(stories, case):
    _, text = stories[case]
    flat = re.sub(r"\s+", " ", text)
    assert not [a for a in AWKWARD[case[1]] if a in flat]
    assert WINNER[case[1]] in flat
    if case[1] == "en":
        assert "Take two cards, one at a time; each is either the top card of the deck or " \
               "any card in the clearing." in flat
        assert "Shuffle 2 of the 3 winter cards into one of them and lay the last one on top." in flat
        assert re.search(r"Reveal: whenever you play an? [a-z]+( or an? [a-z]+)?, "
                         r"also turn the top card of the deck face up into the clearing\.", flat)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_type_symbols_in_the_order_of_their_names(stories, case):
    sheet, _ = stories[case]
    names = [t.name for t in sheet.type_symbols]
    assert names == sorted(names, key=lambda n: sort_key(n, case[1]))


def test_names_styled_one_way(cardsets):
    """Titles of the standalone editions share one style per language; Italian names are in
    sentence case (proper nouns aside) as in Dartmoor and Smoky Mountains; an English
    possessive keeps its apostrophe."""
    titles = {e: build_sheet(cardsets[e], "de").edition
              for e in ("base", "dartmoor", "smoky_mountains")}
    assert titles["dartmoor"] == "Mischwald: Dartmoor"
    assert titles["smoky_mountains"] == "Mischwald: Smoky Mountains"
    proper = {"Bechstein", "Savi", "Alpi", "Douglas", "Febo", "Io"}
    for row in build_sheet(cardsets["base+alpine+woodland_edge"], "it").all_species:
        later = [w for w in row.name.split(" ")[1:] if w.strip("()") not in proper]
        assert all(w == w.lower() for w in later), row.name
    smoky = {r.id: r.name for r in build_sheet(cardsets["smoky_mountains"], "en").all_species}
    assert smoky["solomons_seal"] == "Solomon's Seal"


def test_a_hyphen_survives_a_second_wrap():
    """A table wraps each cell more than once; reportlab kept the first wrap's split of
    "Dartmoor-Kaninchen" and the next wrap printed "DartmoorKaninchen" (German Dartmoor, p.4)."""
    text = ("<i>Platzierung</i>: Beliebig viele Dartmoor-Kaninchen dürfen auf jeden Platz am "
            "selben Baum, Strauch oder Moor gelegt werden")
    style = layout.for_text(layout.styles().cell, text)

    def lines(p) -> list[str]:
        return ["".join(t for w in line.words for t in ([w.text] if hasattr(w, "text")
                        else [x[1] for x in w[1:]])) if hasattr(line, "words")
                else " ".join(line[1]) for line in p.blPara.lines]

    for first, second in ((120, 142), (142, 142), (116, 200)):
        p = thai.SegmentedParagraph(text, style)
        p.wrap(first, 1000)
        p.wrap(second, 1000)
        again = lines(p)
        fresh = thai.SegmentedParagraph(text, style)
        fresh.wrap(second, 1000)
        assert again == lines(fresh)
        assert not any("DartmoorKaninchen" in x for x in again), again


# ---- the text layer ------------------------------------------------------------------------
PDFTOTEXT = shutil.which("pdftotext")


def _pdftotext(path) -> str:
    return subprocess.run([PDFTOTEXT, "-raw", "-enc", "UTF-8", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout


@pytest.mark.skipif(PDFTOTEXT is None, reason="no pdftotext: apt-get install poppler-utils "
                    "(.ci/run does where it is missing)")
@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_every_species_name_in_the_pdfs_text(cardsets, pdfs, case):
    """What a reader copies or searches: every species name, as printed, is in `pdftotext -raw`
    of the sheet, Thai marks included (shaping substitutes glyphs for tone marks and splits ำ;
    grove/printouts/sheets/textlayer.py maps them back); no two rows share a name."""
    names = [r.name for r in build_sheet(cardsets[case[0]], case[1]).all_species]
    assert len(names) == len(set(names))
    text = _pdftotext(pdfs[case])
    assert not re.search("[\ue000-\uf8ff\U000f0000-\U000fffff]", text), "a private-use character"
    flat = re.sub(r"\s+", "", text)
    missing = [n for n in names if re.sub(r"\s+", "", n) not in flat]
    assert not missing, f"{len(missing)} of {len(names)} names not in the text: {missing[:5]}"
    if case[1] == "th":
        for word in ("หนึ่ง", "นี้", "น้ำ", "ทำ"):  # a lowered tone mark, ำ under a tone mark
            assert word in flat, word
        assert "\u0e4d\u0e32" not in text and "\u0e4d\u0e49" not in text  # ำ not split


def test_html_same_input_same_text(cardsets, laid_out):
    """The HTML page does not depend on what was rendered before it (icons, text-layer codes
    and page starts are all worked out per sheet); and the page the other tests share, its
    layout reused (tests/sheet_helpers.py), is the page `html.render` gives."""
    sheet = build_sheet(cardsets["dartmoor"], "th")
    first = html.render(sheet, "letter")
    pdf.render(build_sheet(cardsets["smoky_mountains"], "th"))
    assert html.render(sheet, "letter") == first
    assert laid_out.html("dartmoor", (), "th", "letter") == first
