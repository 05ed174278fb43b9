"""The overviews' words per language (`glossary.yaml`, beside the message catalogs): the word
each language uses for a term of the game, as the rules overview of that language uses it, and
the words no printout may use instead.

Data, not code, so that a translator changes a term in one place and the check
(`avoided_in`) tells every catalog line, card name and screen word still saying the old one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ruamel.yaml import YAML

GLOSSARY_PATH = Path(__file__).parent / "glossary.yaml"


@dataclass(frozen=True)
class Term:
    key: str  # "clearing", "winter_card", ...
    lang: str
    use: str  # the word the language's overview uses
    source: str  # the overview it is taken from ("004"), or "none"
    avoid: tuple[str, ...] = ()
    editions: tuple[tuple[str, str], ...] = ()  # (edition id, its own word for the term)
    quote: str = ""  # the term as its overview writes it, where inflected there

    def word(self, edition: str | None = None) -> str:
        """The term as `edition`'s overview says it (Dartmoor's German „Blattsymbol")."""
        return dict(self.editions).get(edition or "", self.use)


@cache
def glossary(lang: str) -> dict[str, Term]:
    """term key -> Term in `lang` (empty for a language the glossary does not hold)."""
    with open(GLOSSARY_PATH, encoding="utf-8") as fh:
        data = YAML(typ="safe").load(fh)
    out = {}
    for key, langs in data["terms"].items():
        entry = langs.get(lang)
        if entry is None:
            continue
        out[key] = Term(key, lang, str(entry["use"]), str(entry["source"]),
                        tuple(str(w) for w in entry.get("avoid", ())),
                        tuple((str(e), str(w)) for e, w in entry.get("editions", {}).items()),
                        str(entry.get("quote", "")))
    return out


def term(lang: str, key: str, edition: str | None = None) -> str:
    return glossary(lang)[key].word(edition)


def avoided_in(text: str, lang: str) -> list[tuple[str, str]]:
    """(term key, avoided word) for each word of `text` the glossary says `lang` must not use."""
    return [(t.key, w) for t in glossary(lang).values() for w in t.avoid if w in text]


def in_edition(text: str, lang: str, edition: str) -> str:
    """`text` with each term said as `edition`'s own overview says it (Dartmoor's German
    „Blattsymbol" for the catalogs' „Baumsymbol", its plural with it): the catalogs are shared
    by every edition, the overviews are not."""
    for t in glossary(lang).values():
        word = t.word(edition)
        if word != t.use:
            text = text.replace(t.use, word)
    return text
