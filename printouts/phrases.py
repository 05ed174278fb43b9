"""Where the language catalogs lie, and a few of their words for callers that render no rules.

The scoreboard needs two words of a language ("Total", "Winner"), not the rules-text renderer:
parsing a whole catalog with Babel costs more than the rest of a warm `grove score`. So those
words are read once per catalog content and kept in the on-disk cache (`compiler.cache`); Babel
is imported only when a catalog changed.
"""

from __future__ import annotations

from pathlib import Path

from compiler import cache

CATALOG_DIR = Path(__file__).parent / "catalogs"


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


def _read(lang: str, contexts: tuple[str, ...]) -> dict[str, str]:
    from printouts.rules_text import load_catalog

    cat, en = load_catalog(lang), load_catalog("en")
    out = {}
    for ctxt in contexts:
        msg = cat.phrases.get(ctxt) or en.phrases[ctxt]
        text = msg.string if isinstance(msg.string, str) else (msg.string or ("",))[0]
        out[ctxt] = str(text or msg.id)
    return out
