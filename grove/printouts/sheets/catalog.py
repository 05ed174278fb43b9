"""The sheet's own sentences: the gettext domain `sheet`, one `sheet.po` per language.

Kept apart from `grove.po` (the rules-text phrases) so that the two can be edited independently;
read with Babel and handed to Jinja2's i18n extension as ordinary gettext translations.
"""

from __future__ import annotations

from functools import cache
from io import BytesIO
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

from grove.printouts.phrases import CATALOG_DIR

DOMAIN = "sheet"


def catalog_path(lang: str) -> Path:
    return CATALOG_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def languages() -> tuple[str, ...]:
    """Languages a sheet can be printed in: those with both catalogs."""
    return tuple(sorted(p.name for p in CATALOG_DIR.iterdir()
                        if catalog_path(p.name).is_file()
                        and (p / "LC_MESSAGES" / "grove.po").is_file()))


@cache
def read_catalog(lang: str):
    with open(catalog_path(lang), "rb") as fh:
        return read_po(fh, locale=lang, domain=DOMAIN)


@cache
def translations(lang: str) -> Translations:
    """gettext translations of the sheet domain (compiled in memory; no .mo files to keep)."""
    buf = BytesIO()
    write_mo(buf, read_catalog(lang))
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)
