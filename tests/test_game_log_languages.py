"""The game log in four languages (issue 13, part 5): `play --lang de` once printed English
sentences around German names ("plays Douglasie as a Baum"); the sentences now come from
`grove/printouts/catalogs/<lang>/LC_MESSAGES/game_log.po`."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner

from grove.cli import main
from grove.game_log import sentences
from grove.printouts.phrases import CATALOG_DIR, available_languages

LANGS = ("de", "it", "th")
# words of the English sentences that no other language's log should hold
ENGLISH = re.compile(r"\b(Turn|plays|draws|takes|paying|beneath|face down|as a|the clearing|"
                     r"the deck|the box|permanent effect|winter card|game ends)\b")


def _catalog(lang: str) -> dict[str, str]:
    with open(CATALOG_DIR / lang / "LC_MESSAGES" / "game_log.po", "rb") as fh:
        cat = read_po(fh, locale=lang, domain="game_log")
    return {m.context: (m.id, m.string) for m in cat if m.id}


def test_every_catalog_language_has_the_log():
    assert set(available_languages()) == {"en", *LANGS}


@pytest.mark.parametrize("lang", LANGS)
def test_catalog_translates_every_sentence_with_the_same_blanks(lang):
    en, cat = _catalog("en"), _catalog(lang)
    assert set(cat) == set(en)
    for ctxt, (msgid, text) in cat.items():
        assert text, f"{lang}: {ctxt} is not translated"
        # a name in a case (`{host_acc}`, printouts/cases.py) keeps the English blank
        blanks = [re.sub(r"_(nom|acc|dat|gen)$", "", b) for b in re.findall(r"\{(\w+)\}", text)]
        assert sorted(blanks) == sorted(re.findall(r"\{(\w+)\}", msgid)), (
            f"{lang}: {ctxt} must keep the blanks of {msgid!r}")


def test_english_is_the_msgid():
    words = sentences("en")
    assert words["log.host.hand"] == "plays {card} as a {host}"
    assert sentences("xx") == words  # a language without a catalog reads English


@pytest.mark.parametrize("lang", LANGS)
def test_play_log_speaks_one_language(lang):
    res = CliRunner().invoke(main, ["play", "--ai", "greedy,random", "--seed", "3",
                                    "--lang", lang])
    assert res.exit_code == 0, res.stderr
    log = res.stderr
    assert len(log.splitlines()) > 50
    mixed = [line for line in log.splitlines() if ENGLISH.search(line)]
    assert not mixed, mixed[:5]


def test_english_log_unchanged():
    res = CliRunner().invoke(main, ["play", "--ai", "greedy,random", "--seed", "3"])
    assert res.exit_code == 0
    lines = res.stderr.splitlines()
    assert lines[0] == "Turn 1: Greedy 1" and lines[-1] == "  * the game ends"
    assert any(re.fullmatch(r"  plays .+ as a Tree(, paying .+)?", line) for line in lines)
    assert any(re.fullmatch(r"  plays .+ at .+ \(#\d+\), (top|bottom|left|right)(, paying .+)?",
                            line) for line in lines)
