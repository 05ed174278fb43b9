"""The few words a printed card shows beyond the card data's names and the rules text: the
gettext domain `print`, one `print.po` per language beside the other catalogs (English where a
language lacks a text, so a new language can start small)."""

from __future__ import annotations

from functools import cache

from babel.messages.pofile import read_po

from grove.printouts.phrases import CATALOG_DIR

DOMAIN = "print"


@cache
def _messages(lang: str) -> dict[str, tuple[str, ...]]:
    """msgctxt -> its forms (one, or one per plural category of the language)."""
    path = CATALOG_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.is_file():
        return {}
    with open(path, "rb") as fh:
        catalog = read_po(fh, locale=lang, domain=DOMAIN)
    out = {}
    for m in catalog:
        if not m.id or not m.context:
            continue
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        if any(forms):
            out[m.context] = tuple(forms)
    return out


def word(lang: str, key: str, n: int | None = None, **values: object) -> str:
    """The text of `key` in `lang`, its plural form for `n` where it has forms."""
    forms = _messages(lang).get(key) or _messages("en")[key]
    if n is not None and len(forms) > 1:
        from babel.core import Locale

        tag = Locale.parse(lang if key in _messages(lang) else "en").plural_form(n)
        text = forms[0] if tag == "one" else forms[-1]
    else:
        text = forms[0]
    return text.format(n=n, **values)
