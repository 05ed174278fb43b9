"""The screen's and the line mode's words in a language, from the `screen` message catalogs
(`printouts/catalogs/<lang>/LC_MESSAGES/screen.po`, msgctxt `screen.*`), read like the game
log's; a text a catalog lacks falls back to English, so a new language can start small."""

from __future__ import annotations

from functools import cache

DOMAIN = "screen"


@cache
def _read(lang: str) -> dict[str, str]:
    from babel.messages.pofile import read_po

    from grove.printouts.phrases import CATALOG_DIR

    path = CATALOG_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.is_file():
        return {}
    with open(path, "rb") as fh:
        catalog = read_po(fh, locale=lang, domain=DOMAIN)
    return {m.context.removeprefix("screen."): str(m.string or m.id)
            for m in catalog if m.id and m.context}


class Words:
    """`words("deck", count=3)`: the text `screen.deck` of the language, filled in."""

    def __init__(self, lang: str):
        self.lang = lang
        self.texts = _read("en") | (_read(lang) if lang != "en" else {})

    def __call__(self, key: str, **values: object) -> str:
        return self.texts.get(key, key).format(**values)
