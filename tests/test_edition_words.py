"""An edition's nouns carry their own words: plural, article class, Thai classifier and scorepad
row names live in the card data, and grove's catalogs hold only the language itself.

So an author's card set outside grove renders and lints with nothing added to grove, and the
lint's hint for a missing word names the author's own file.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from pathlib import Path

from babel.messages.pofile import read_po

from grove import api, report
from grove.compiler import cardset as cs
from grove.compiler.model import scorepad_names
from grove.printouts import phrases, text_lint
from grove.printouts import rules_text as rt

REPO = Path(__file__).resolve().parent.parent
MEADOW = REPO / "tests" / "editions" / "meadow"


def test_catalogs_hold_no_noun_of_an_edition():
    for lang in rt.LANGS:
        with open(phrases.catalog_path(lang), "rb") as fh:
            cat = read_po(fh, locale=lang, domain="grove")
        stray = [(m.context, m.id) for m in cat
                 if m.id and (m.context or "").startswith("lexicon.") and not m.id.startswith("@")]
        assert stray == [], lang


def test_schema_article_classes_are_the_catalogs():
    common = json.loads((REPO / "grove" / "schema" / "common.schema.json").read_text(encoding="utf-8"))
    props = common["$defs"]["article"]["properties"]
    for lang in ("en", "de", "it"):
        assert sorted(props[lang]["enum"]) == list(rt.article_classes(lang)), lang


def _meadow_copy(tmp_path: Path) -> Path:
    folder = tmp_path / "meadow"
    shutil.copytree(MEADOW, folder)
    return folder


def test_a_card_set_outside_grove_lacking_one_article_gets_one_warning_at_its_file(tmp_path):
    folder = _meadow_copy(tmp_path)
    species = folder / "species.yaml"
    text = species.read_text(encoding="utf-8")
    assert text.count("article: {de: m, it: f}") == 1  # reed_frog's
    species.write_text(text.replace("article: {de: m, it: f}", "article: {it: f}"),
                       encoding="utf-8")
    diags = [d for d in api.lint([str(folder)]) if d.code == text_lint.CODE]
    assert len(diags) == 1, [str(d) for d in diags]
    d = diags[0]
    assert "no article class (grammatical gender) for 'reed_frog'" in d.message
    assert d.hint is not None and "species 'reed_frog'" in d.hint
    named = re.search(r" in (\S+species\.yaml)", d.hint)
    assert named and Path(named.group(1)).resolve() == species.resolve()
    assert "catalogs" not in d.hint


def test_the_untouched_copy_is_clean(tmp_path):
    folder = _meadow_copy(tmp_path)
    assert [d for d in api.lint([str(folder)]) if d.code == text_lint.CODE] == []


def test_scoreboard_rows_are_named_by_the_card_data():
    cset = cs.build("dartmoor")
    assert cset.scorepad == ("trees", "moors", "top", "bottom", "left", "right", "cave")
    assert scorepad_names(cset.editions)["moors"]["de"] == "Moore"
    result = {"players": [{"name": "Ana", "by_category": {"moors": 7}, "total": 7, "cards": []}],
              "winners": ["Ana"]}
    text = report.scoreboard(result, cset, "de")
    assert "Moore" in text and "Summe" in text and "Sieg: Ana" in text
    renamed = dataclasses.replace(cset.root, scorepad_names={
        **cset.root.scorepad_names, "moors": {"en": "Bogs", "de": "Sümpfe", "it": "Paludi",
                                              "th": "บึง"}})
    other = dataclasses.replace(cset, editions=(renamed, *cset.editions[1:]))
    assert "Sümpfe" in report.scoreboard(result, other, "de")
    assert "Total" in report.scoreboard(result, cset, "xx")  # no catalog: English words


def test_a_scorepad_row_without_a_name_points_at_its_edition_file():
    cset = cs.build("dartmoor")
    names = dict(cset.root.scorepad_names)
    names["moors"] = {k: v for k, v in names["moors"].items() if k != "it"}
    ed = dataclasses.replace(cset.root, scorepad_names=names)
    found = [f for f in rt.translation_findings(dataclasses.replace(cset, editions=(ed,)), ["it"])
             if f.where.startswith("scorepad row")]
    assert [str(f.gap) for f in found] == ["name of scorepad row moors"]
    d, = text_lint.diagnostics(found)
    assert d.hint.startswith("add 'it: ...' to 'names' of scorepad row 'moors' in ")
    assert d.hint.endswith("grove/cards/dartmoor/edition.yaml")

