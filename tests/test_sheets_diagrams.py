"""Slot diagrams say what the rules say, the same way in the PDF and the HTML page.

Smoky Mountains (rules.md §5.4): a tree without a river takes only cards without the water
requirement; a tree with a river takes any card at the top, left and right and only water cards
below its river; rivers take only water cards. The diagram's mark of every slot is held against
what the engine accepts there (`engine.placement.accepts`), so the drawing cannot drift from the
card data the game is played by.
"""

from __future__ import annotations

import re

import pytest

from grove.compiler import cardset as cs
from grove.engine.placement import accepts
from grove.printouts.sheets import html, pdf, templates
from grove.printouts.sheets.content import build_sheet
from grove.printouts.sheets.diagrams import hatch, water_corner
from grove.printouts.sheets.diagrams import layout as diagram_layout
from grove.printouts.sheets.draw import svg

LANGS = ("en", "de", "it", "th")


@pytest.fixture(scope="module")
def smoky():
    return cs.build("smoky_mountains", [])


@pytest.fixture(scope="module")
def base():
    return cs.build("base", [])


def _slot_boxes(sheet, host_id: str, lang: str) -> dict[str, tuple[str, ...]]:
    host = next(h for h in sheet.hosts if h.id == host_id)
    boxes = [b for b in diagram_layout(host, templates.labels(lang)).boxes if b.role == "slot"]
    assert sorted(b.slot for b in boxes) == sorted(s.id for s in host.slots)
    return {b.slot: b.lines for b in boxes}


@pytest.mark.parametrize("lang", LANGS)
def test_every_slot_mark_matches_what_the_engine_accepts(smoky, lang):
    labels = templates.labels(lang)
    sheet = build_sheet(smoky, lang)
    water = [sp for sp in smoky.species.values() if sp.kind == "dweller" and sp.water]
    dry = [sp for sp in smoky.species.values() if sp.kind == "dweller" and not sp.water]
    for h in smoky.hosts.values():
        lines = _slot_boxes(sheet, h.id, lang)
        for slot in h.slots:
            takes_water = any(accepts(slot, sp) is None for sp in water if slot.side in sp.sides)
            takes_dry = any(accepts(slot, sp) is None for sp in dry if slot.side in sp.sides)
            want = {(True, True): labels.either, (True, False): labels.with_water,
                    (False, True): labels.dry}[(takes_water, takes_dry)]
            # the overviews' words, on as many lines as the box needs
            assert " ".join(lines[slot.id][1:]) == want, (h.id, slot.id, lines[slot.id])


def test_tree_with_a_river_takes_any_card_at_top_left_and_right(smoky):
    """The fault found by eye: beside a plain tree marked on all four sides, the tree with a
    river left top, left and right unmarked; they now say so and are half blue, and the legend
    says what that means. In the overview's words (seed 002: "cards with/without water
    requirement"; issue 44, the third reading: "dry" and "any" were ours)."""
    sheet = build_sheet(smoky, "en")
    tree = {s: " ".join(lines) for s, lines in _slot_boxes(sheet, "tree", "en").items()}
    assert tree == {s: f"{s} without water requirement" for s in ("top", "bottom", "left", "right")}
    river = {s: " ".join(lines) for s, lines in _slot_boxes(sheet, "tree_with_river", "en").items()}
    assert river == {"top": "top with or without water requirement",
                     "left": "left with or without water requirement",
                     "right": "right with or without water requirement",
                     "bottom_1": "bottom with water requirement",
                     "bottom_2": "bottom with water requirement"}
    text = re.sub(r"\s+", " ", pdf.story(sheet).xhtml)
    assert "Half-blue slots, marked “with or without water requirement”, take any card." in text


def test_no_water_marks_where_the_requirement_does_not_exist(base):
    """The base game has no water requirement: its slots carry their side alone, and its
    sheet says nothing of water."""
    sheet = build_sheet(base, "en")
    for h in sheet.hosts:
        assert not any(s.either or s.water or s.dry for s in h.slots)
        for lines in _slot_boxes(sheet, h.id, "en").values():
            assert len(lines) == 1
    assert "water" not in pdf.story(sheet).xhtml


def test_html_diagrams_carry_the_pdfs_hatching_and_water_halves(smoky):
    """Face-down cards are hatched and "any" slots half blue in the HTML page too, with the
    strokes the PDF draws (one geometry, `diagrams.hatch` and `water_corner`), each clipped to
    its own box by a clip path of its own."""
    sheet = build_sheet(smoky, "en")
    labels = templates.labels("en")
    page = html.render(sheet)
    ids = re.findall(r'<clipPath id="([^"]+)"', page)
    assert ids and len(ids) == len(set(ids))
    for h in sheet.hosts:
        d = diagram_layout(h, labels)
        out = svg(d, html.FONT_STACK, sheet.icons, html.diagram_name(sheet, h, d))
        face_down = [b for b in d.boxes if b.face_down]
        either = [b for b in d.boxes if b.either]
        strokes = re.findall(r'<g class="hatch"[^>]*>(.*?)</g>', out)
        assert len(strokes) == len(face_down)
        for b, group in zip(face_down, strokes, strict=True):
            assert group.count("<line ") == len(hatch(b)) > 5
        assert out.count('class="water-half"') == len(either)
        for b in either:
            points = " ".join(f"{x + 0.5:.1f},{y + 0.5:.1f}" for x, y in water_corner(b))
            assert f'points="{points}"' in out
        assert out in page
    kinds = {h.id: h for h in sheet.hosts}
    assert kinds["universal_river"].face_down and kinds["tree_with_river"].play == "with_tree"
