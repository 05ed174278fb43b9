"""The language catalogs: where they lie, each read whole, and a few of their words for callers
that render no rules.

The scoreboard needs two words of a language ("Total", "Winner"), not the rules-text renderer:
parsing a whole catalog with Babel costs more than the rest of a warm `grove score`. So those
words are read once per catalog content and kept in the on-disk cache (`compiler.cache`); Babel
is imported only when a catalog changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache as once
from pathlib import Path
from typing import Any

from grove.compiler import cache

CATALOG_DIR = Path(__file__).parent / "catalogs"
_CATEGORIES = ("zero", "one", "two", "few", "many", "other")


def catalog_path(lang: str) -> Path:
    return CATALOG_DIR / lang / "LC_MESSAGES" / "grove.po"


def available_languages() -> tuple[str, ...]:
    return tuple(sorted(p.name for p in CATALOG_DIR.iterdir() if catalog_path(p.name).is_file()))


def words(lang: str, contexts: tuple[str, ...]) -> dict[str, str]:
    """msgctxt -> text in `lang` (English where the language has no catalog or no text)."""
    lang = lang if lang in available_languages() else "en"
    paths = [catalog_path(lang), catalog_path("en")]
    k = cache.key("words", lang, *contexts, *(cache.file_digest(p) for p in paths))
    return cache.cached("words", k, lambda: _read(lang, contexts))


# ---- a whole catalog ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Catalog:
    lang: str
    phrases: dict[str, Any]  # msgctxt -> babel Message
    lexicon: dict[tuple[str, str], str]  # (msgctxt, msgid) -> msgstr
    plural_rule: Any  # babel.plural.PluralRule
    order: tuple[str, ...]  # plural categories in gettext index order

    def form_index(self, n: int) -> int:
        return self.order.index(self.plural_rule(n))

    def is_one(self, n: int) -> bool:
        return self.plural_rule(n) == "one"

    @property
    def single_form(self) -> bool:
        return not self.plural_rule.tags


@once
def load_catalog(lang: str) -> Catalog:
    from babel.core import Locale  # only here: most commands read no catalog
    from babel.messages.pofile import read_po

    path = catalog_path(lang)
    with open(path, "rb") as fh:
        cat = read_po(fh, locale=lang, domain="grove")
    rule = Locale.parse(lang).plural_form
    order = tuple(c for c in _CATEGORIES if c in rule.tags or c == "other")
    phrases: dict[str, Any] = {}
    lexicon: dict[tuple[str, str], str] = {}
    for msg in cat:
        if not msg.id:
            continue
        ctxt = msg.context or ""
        if ctxt.startswith("lexicon."):
            if msg.string:
                lexicon[(ctxt, msg.id)] = msg.string
        else:
            phrases[ctxt] = msg
    return Catalog(lang, phrases, lexicon, rule, order)


def _read(lang: str, contexts: tuple[str, ...]) -> dict[str, str]:
    cat, en = load_catalog(lang), load_catalog("en")
    out = {}
    for ctxt in contexts:
        msg = cat.phrases.get(ctxt) or en.phrases[ctxt]
        text = msg.string if isinstance(msg.string, str) else (msg.string or ("",))[0]
        out[ctxt] = str(text or msg.id)
    return out
