"""The table's words in every language (issue 29 item 7): every screen message has its own text
in German, Italian and Thai, every plural form of it; no English word is left in one; a count
reads in the singular and the plural; the terms agree with the sheets' glossary.

Read from the catalogs themselves (printouts/catalogs/<lang>/LC_MESSAGES/screen.po and
game_log.po), so a message added in English alone fails here at once. Milliseconds.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from grove.printouts.phrases import CATALOG_DIR
from grove.seatview.words import Words

OTHERS = ("de", "it", "th")
# texts that read the same in the language: the German noun, a pattern of placeholders alone,
# the Italian "no"
SAME = {("de", "screen.hand"), ("it", "screen.do.no")}
# Latin words a Thai text may hold: key names and commands as typed, grove's own words, the
# query syntax of grove find
TYPED = {"tab", "shift", "enter", "escape", "space", "page", "up", "down", "ctrl", "help",
         "show", "back", "hint", "grove", "play", "resume", "record", "find", "type", "bird",
         "cost", "id", "ai", "s"}
# English words no German or Italian text holds as a word of its own (outside placeholders
# and typed commands)
ENGLISH = {"the", "and", "card", "cards", "play", "draw", "pay", "points", "point", "forest",
           "with", "of", "to", "from", "host", "turn", "picked", "free", "side", "places",
           "cave", "clearing", "deck", "winter", "score", "stop", "keys", "your", "choose"}


def _catalog(lang: str, domain: str = "screen") -> dict[str, str | tuple[str, ...]]:
    with open(CATALOG_DIR / lang / "LC_MESSAGES" / f"{domain}.po", "rb") as fh:
        return {m.context: (tuple(m.string) if isinstance(m.id, tuple) else m.string)
                for m in read_po(fh, locale=lang) if m.id}


def _forms(text: str | tuple[str, ...]) -> list[str]:
    return list(text) if isinstance(text, tuple) else [text]


def _words(text: str) -> list[str]:
    """The words of a text but its placeholders, commands typed at the prompt and the grove
    commands it quotes (`grove play --resume {record}`)."""
    text = re.sub(r"\{\w+\}|grove [a-z]+( --[a-z]+)*|'[^']*'|type:\w+ cost<=\d", " ", text)
    return re.findall(r"[A-Za-z]+", text)


@pytest.mark.parametrize("lang", OTHERS)
def test_every_screen_message_has_its_own_text_in_every_form(lang):
    english = _catalog("en")
    own = _catalog(lang)
    assert set(own) == set(english), set(english) ^ set(own)
    for key, text in own.items():
        forms = [f for f in _forms(text) if f]
        assert forms, f"{lang}: {key} has no text"
        if isinstance(english[key], tuple):  # a count: each form the language has
            assert len(forms) == (1 if lang == "th" else 2), (lang, key, forms)
        placeholders = set(re.findall(r"{\w+}", _forms(english[key])[-1]))
        for form in forms:
            # a name in a case is the English placeholder's (`{host_acc}`, printouts/cases.py)
            used = {re.sub(r"_(nom|acc|dat|gen)}$", "}", p) for p in re.findall(r"{\w+}", form)}
            assert used <= placeholders | {"{count}"}, (key, form)
        if all(not re.sub(r"{\w+}|[\s:…(),.]", "", f) for f in forms):
            continue  # placeholders alone: nothing to translate
        if (lang, key) not in SAME:
            assert forms != _forms(english[key]), f"{lang}: {key} is still English"


@pytest.mark.parametrize("domain", ["screen", "game_log"])
def test_no_english_word_is_left(domain):
    for lang in OTHERS:
        for key, text in _catalog(lang, domain).items():
            for form in _forms(text):
                words = [w.lower() for w in _words(form)]
                if lang == "th":
                    left = [w for w in words if w not in TYPED and len(w) > 1]
                else:
                    left = [w for w in words if w in ENGLISH]
                assert not left, f"{lang} {key}: {form!r} holds {left}"


@pytest.mark.parametrize(("lang", "one", "many"), [
    ("en", "deck: 1 card", "deck: 3 cards"),
    ("de", "Stapel: 1 Karte", "Stapel: 3 Karten"),
    ("it", "mazzo: 1 carta", "mazzo: 3 carte"),
    ("th", "กองการ์ด: 1 ใบ", "กองการ์ด: 3 ใบ"),
])
def test_a_count_reads_in_the_singular_and_the_plural(lang, one, many):
    w = Words(lang)
    assert w("deck", count=1) == one and w("deck", count=3) == many
    if lang != "th":
        assert w("points", points="+1", count=1) != w("points", points="+2", count=2).replace(
            "+2", "+1")


@pytest.mark.parametrize(("lang", "key", "term"), [
    ("de", "host", "Karte"), ("de", "ask.optional", "Dauereffekt"),
    ("de", "step.free_card", "kostenlos"),
    ("it", "host", "carta"), ("it", "show.symbols", "d'albero"),
    ("it", "kind.cave", "carta grotta"),
    ("th", "host", "การ์ด"), ("th", "cost", "ค่าใช้จ่าย"), ("th", "ask.optional", "ความสามารถถาวร"),
    ("th", "step.card", "เล่น"),
])
def test_the_terms_are_the_sheets(lang, key, term):
    """The words the sheets and the printed cards use (sheet.po, grove.po): a person reads the
    same term at the table as on the sheet beside it."""
    sheets = ""
    for domain in ("sheet", "grove", "game_log"):
        with open(CATALOG_DIR / lang / "LC_MESSAGES" / f"{domain}.po", "rb") as fh:
            sheets += "".join(str(m.string) for m in read_po(fh, locale=lang) if m.id)
    assert term in sheets, (lang, term)
    assert term in Words(lang)(key, cost=0, symbols="", sides="", card="", host="", half="",
                               where="", number=1, slot="", points="")
