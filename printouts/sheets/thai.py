"""Line breaks inside Thai text, which writes words without spaces between them.

reportlab breaks lines only at spaces (and would otherwise cut an over-long "word" anywhere,
even between a consonant and its vowel mark). `SegmentedParagraph` gives it more places to
break: every boundary that the newmm dictionary segmenter finds between two Thai words. The
words stay joined with no space; a break simply becomes possible there.

It does so with reportlab's own word model: a paragraph's "frag words" are lists
`[width, (frag, text), ...]`; a word of class `_HSFrag` is followed by a space, a plain list is
not. Splitting a word that holds Thai into plain-list words at segment boundaries is all it takes;
wrapping, shaping (per word), splitting across frames and drawing stay reportlab's.
"""

from __future__ import annotations

import re
from functools import lru_cache

from newmm_tokenizer.tokenizer import word_tokenize
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph
from reportlab.platypus.paragraph import _getFragWords, _processed_frags

THAI = re.compile(r"[\u0e00-\u0e7f]")
_NO_BREAK_BEFORE = frozenset("ๆฯ")


def has_thai(text: str) -> bool:
    return THAI.search(text) is not None


def _is_thai(ch: str) -> bool:
    return "\u0e00" <= ch <= "\u0e7f"


@lru_cache(maxsize=8192)
def segments(text: str) -> tuple[str, ...]:
    """`text` cut at the places a line may break inside it: between two Thai words as newmm
    finds them. Never inside a word, never next to punctuation, digits or Latin letters, never
    before the repetition mark ๆ; joined back together the pieces are `text` again."""
    if not has_thai(text):
        return (text,)
    out: list[str] = []
    for token in word_tokenize(text, keep_whitespace=True):
        if out and _is_thai(out[-1][-1]) and _is_thai(token[0]) and token[0] not in _NO_BREAK_BEFORE:
            out.append(token)
        elif out:
            out[-1] += token
        else:
            out.append(token)
    return tuple(out)


def _split_word(word: list) -> list[list]:
    """One reportlab frag word -> words that break at Thai segment boundaries, joined without
    a space; the last piece keeps the original word's class (space after it or not)."""
    text = "".join(t for _, t in word[1:])
    pieces = segments(text) if has_thai(text) else (text,)
    if len(pieces) < 2:
        return [word]
    bounds, pos = [], 0
    for p in pieces[:-1]:
        pos += len(p)
        bounds.append(pos)
    out: list[list] = []
    current: list = []
    start = 0  # text offset of the current (frag, text) part
    for frag, part in word[1:]:
        cuts = [b - start for b in bounds if start < b < start + len(part)]
        prev = 0
        for c in cuts:
            current.append((frag, part[prev:c]))
            out.append(current)
            current = []
            prev = c
        if part[prev:] or not current:
            current.append((frag, part[prev:]))
        if start + len(part) in bounds and current:
            out.append(current)
            current = []
        start += len(part)
    if current:
        out.append(current)
    words: list[list] = []
    for i, parts in enumerate(out):
        width = sum(stringWidth(t, f.fontName, f.fontSize) for f, t in parts)
        cls = type(word) if i == len(out) - 1 else list
        words.append(cls([width, *parts]))
    return words


def break_words(frags: list) -> list:
    """reportlab frag words with Thai break opportunities added."""
    words: list = []
    for w in _getFragWords(frags):
        words.extend(_split_word(w) if _thai_word(w) else [w])
    return words


def _thai_word(word: list) -> bool:
    return any(isinstance(t, str) and has_thai(t) for _, t in word[1:])


def _copy_frags(frags: list) -> list:
    """A copy of a paragraph's frags deep enough that wrapping the copy leaves them as they
    were: frag words (lists of width and parts) are copied with their class."""
    return [type(w)(w) if isinstance(w, list) else w for w in frags]


class SegmentedParagraph(Paragraph):
    """A Paragraph that may also break lines between Thai words, and that wraps the same
    text each time it is wrapped.

    reportlab keeps the words of its first wrap in `self.frags`, with a word it split at an
    embedded hyphen ("Dartmoor-" | "Kaninchen") left as two pieces; a table wraps each cell
    more than once, and the second wrap joined the pieces without their hyphen
    ("DartmoorKaninchen"). So every wrap starts again from the frags as parsed."""

    def _setup(self, text, style, bulletText, frags, cleaner):  # noqa: N803 - reportlab's names
        super()._setup(text, style, bulletText, frags, cleaner)
        if self.frags and not _processed_frags(self.frags) and any(
                has_thai(getattr(f, "text", "") or "") for f in self.frags):
            self.frags = break_words(self.frags)
        self._parsed = _copy_frags(self.frags)

    def wrap(self, availWidth, availHeight):  # noqa: N803 - reportlab's names
        # only a wrap that split a word leaves its pieces behind; the others' words are reused
        if getattr(self, "_hyphenations", 0) or getattr(self, "_splitLongWordCount", 0):
            self.frags = _copy_frags(self._parsed)
        return super().wrap(availWidth, availHeight)


__all__ = ["SegmentedParagraph", "has_thai", "segments", "break_words"]
