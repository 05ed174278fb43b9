"""The screen's and the line mode's words in a language, from the `screen` message catalogs
(`printouts/catalogs/<lang>/LC_MESSAGES/screen.po`, msgctxt `screen.*`), read like the game
log's; a text a catalog lacks falls back to English, so a new language can start small.

A text that counts (`deck: 1 card`, `deck: 3 cards`) has its plural forms in the catalog
(msgid_plural, msgstr[0], msgstr[1]; Thai has one form), chosen by the value `count`."""

from __future__ import annotations

from functools import cache

from grove.printouts.cases import with_cases

DOMAIN = "screen"


@cache
def _read(lang: str) -> dict[str, str | tuple[str, ...]]:
    from babel.messages.pofile import read_po

    from grove.printouts.phrases import CATALOG_DIR

    path = CATALOG_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.is_file():
        return {}
    with open(path, "rb") as fh:
        catalog = read_po(fh, locale=lang, domain=DOMAIN)
    out: dict[str, str | tuple[str, ...]] = {}
    for m in catalog:
        if not (m.id and m.context):
            continue
        key = m.context.removeprefix("screen.")
        if isinstance(m.id, tuple):  # plural forms (babel keeps a slot for each form CLDR
            # has: Italian's third, for millions, stays empty), the English ones where none
            out[key] = tuple(s for s in m.string if s) or tuple(m.id)
        else:
            out[key] = str(m.string or m.id)
    return out


@cache
def _one(lang: str):  # noqa: ANN202 - babel's PluralRule
    from babel.core import Locale

    return Locale.parse(lang).plural_form


class Words:
    """`words("deck", count=3)`: the text `screen.deck` of the language, filled in."""

    def __init__(self, lang: str):
        self.lang = lang
        self.texts = _read("en") | (_read(lang) if lang != "en" else {})

    def __call__(self, key: str, **values: object) -> str:
        text = self.texts.get(key, key)
        if isinstance(text, tuple):
            # the first form for what CLDR calls "one", the last for the rest: the catalogs
            # hold two forms (one form in Thai, which does not inflect)
            count = values.get("count", 0)
            one = isinstance(count, int) and _one(self.lang)(count) == "one"
            text = text[0] if one else text[-1]
        return text.format(**with_cases(values))  # `{host_acc}`: a name in a case
