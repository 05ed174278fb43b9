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
import sys
import threading
import unicodedata
from bisect import bisect_left
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph
from reportlab.platypus.paragraph import _getFragWords, _processed_frags

THAI = re.compile(r"[\u0e00-\u0e7f]")
_NO_BREAK_BEFORE = frozenset("ะาำๅๆฯ")  # vowels written after their consonant, repetition marks
_NO_BREAK_AFTER = frozenset("เแโใไ")  # vowels written before their consonant
_SILENT = re.compile(r"[ก-ฮ][ิุ]?์")  # a consonant silenced by the thanthakhat (the ร์ of ลาร์ช)
_VOWELS = re.compile(r"[ะ-ฺเ-ไ็]")
NO_WORDS: frozenset[str] = frozenset()


def has_thai(text: str) -> bool:
    return THAI.search(text) is not None


def _is_thai(ch: str) -> bool:
    return "\u0e00" <= ch <= "\u0e7f"


# the game's own words and fixed phrases that newmm's dictionary lacks and would cut in two
# (ผู้ / เล่น, "player"; อย่าง / น้อย, "at least"): data, in thai_phrases.txt; every sheet's
# dictionary holds them
PHRASES = frozenset(
    line.strip() for line in (Path(__file__).parent / "thai_phrases.txt").read_text(
        encoding="utf-8").splitlines() if line.strip() and not line.startswith("#"))
GAME_WORDS = PHRASES


def dictionary_words(names: Iterable[str]) -> frozenset[str]:
    """The words a card set adds to the segmenter's dictionary: its Thai names (species,
    symbols, hosts, editions), whole and each part between spaces, and the game's words."""
    out: set[str] = set(GAME_WORDS)
    for name in names:
        for part in (name, *name.split()):
            part = part.strip("()[]\"'.,;:!?")
            if len(part) > 1 and has_thai(part):
                out.add(part)
    return frozenset(out)


class _Words:
    """Words as newmm asks a dictionary for them: `prefixes(text)`, the words `text` starts
    with, shortest first, as newmm's Trie answers. newmm builds that Trie of its 62,000 words
    when imported, 0.7 s of CPU that every command laying out Thai paid (half of a cold `grove
    lint` of a set with Thai names); sorted, the words take 0.02 s and answer the same."""

    def __init__(self, words: Iterable[str]):
        self.words = frozenset(w.strip() for w in words if w.strip())  # as Trie.add strips
        self._sorted = sorted(self.words)

    def __bool__(self) -> bool:  # newmm takes an empty dictionary for none
        return True

    def __contains__(self, word: str) -> bool:
        return word in self.words

    def prefixes(self, text: str) -> list[str]:
        # the words that start with a prefix lie together, from where it would be inserted
        found, at, end = [], 0, len(self._sorted)
        for i in range(1, len(text) + 1):
            prefix = text[:i]
            at = bisect_left(self._sorted, prefix, at, end)
            if at == end or not self._sorted[at].startswith(prefix):
                break
            if self._sorted[at] == prefix:
                found.append(prefix)
        return found


_IMPORTING = threading.Lock()


@lru_cache(maxsize=1)
def _newmm() -> tuple[Callable[..., list[str]], _Words]:
    """newmm's segmenter and its dictionary. newmm makes its default dictionary, a Trie, as
    its module is imported; the import runs with `_Words` in the Trie's place, so the
    dictionary is read and sorted, not built into 235,000 trie nodes."""
    import newmm_tokenizer.trie as trie

    with _IMPORTING:  # two threads laying out sheets: the second finds the Trie restored
        if "newmm_tokenizer.newmm" not in sys.modules:
            built = trie.Trie
            trie.Trie = _Words  # type: ignore[misc]  # for this import only
            try:
                import newmm_tokenizer.newmm  # noqa: F401
            finally:
                trie.Trie = built
    from newmm_tokenizer.newmm import DEFAULT_WORD_DICT_TRIE, segment

    words = DEFAULT_WORD_DICT_TRIE
    if not isinstance(words, _Words):  # imported before, with its Trie
        from newmm_tokenizer.common import thai_words

        words = _Words(thai_words())
    return segment, words


class _Dictionary:
    """newmm's dictionary with a card set's names added (newmm only asks for `prefixes`); the
    names get a small dictionary of their own beside newmm's."""

    def __init__(self, words: frozenset[str]):
        self.names = _Words(words)

    def __bool__(self) -> bool:
        return True

    def prefixes(self, text: str) -> list[str]:
        found = _newmm()[1].prefixes(text)
        return found + [w for w in self.names.prefixes(text) if w not in found]


@lru_cache(maxsize=16)
def _dictionary(words: frozenset[str]) -> _Dictionary:
    return _Dictionary(words)


@lru_cache(maxsize=16)
def _names_pattern(words: frozenset[str]) -> re.Pattern[str] | None:
    """Every occurrence of a name, overlapping ones included (a lookahead per position)."""
    if not words:
        return None
    alts = "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))
    return re.compile(f"(?=({alts}))")


def may_break(text: str, i: int) -> bool:
    """Whether a line may break between text[i - 1] and text[i] (a boundary the segmenter
    found): only between two Thai letters; never before a combining mark (vowels above or
    below, tone marks, the thanthakhat), a following vowel (ะ า ำ) or ๆ ฯ; never after a
    leading vowel (เ แ โ ใ ไ); never before a consonant the thanthakhat silences."""
    if not 0 < i < len(text):
        return False
    before, ch = text[i - 1], text[i]
    if not (_is_thai(before) and _is_thai(ch)):
        return False
    if unicodedata.category(ch) == "Mn" or ch in _NO_BREAK_BEFORE or before in _NO_BREAK_AFTER:
        return False
    return not _SILENT.match(text, i)


def _cut(text: str, bounds: Iterable[int]) -> tuple[str, ...]:
    out, prev = [], 0
    for b in sorted(set(bounds)):
        if 0 < b < len(text):
            out.append(text[prev:b])
            prev = b
    out.append(text[prev:])
    return tuple(out)


# Thai counts as "noun, number, classifier" and shares out as "noun ละ number classifier"
# (ช่องละหนึ่งใบ, one card per slot): a line that ends after the number word or the ละ, or
# before the ละ (or before the เดียว of ใบเดียว, "a single card"), leaves a reader with half a
# phrase ("ช่อง / ละหนึ่งใบ").
_NUMBER_WORDS = frozenset(["หนึ่ง", "สอง", "สาม", "สี่", "ห้า", "หก", "เจ็ด", "แปด", "เก้า", "สิบ",
                           "ร้อย"])
_SHARE_OUT = "ละ"
_NUMBER_SPACE = re.compile(r"(?<=\d) (?=[\u0e00-\u0e7f])")


def bind_numbers(text: str) -> str:
    """`text` with the space between a numeral and the Thai word after it (its classifier or
    unit: "3 ต้น", "10 คะแนน") made a no-break space, so no line ends between them."""
    return _NUMBER_SPACE.sub("\u00a0", text)


def _newmm_bounds(text: str, words: frozenset[str]) -> list[int]:
    """The ends of newmm's tokens, except where a number word or ละ would part from what
    follows it, or ละ from the noun before it."""
    segment = _newmm()[0]  # imported only when text with Thai asks for it
    tokens = segment(text, _dictionary(words))
    out, pos = [], 0
    for i, token in enumerate(tokens):
        pos += len(token)
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        if token in _NUMBER_WORDS or token == _SHARE_OUT or after in (_SHARE_OUT, "เดียว"):
            continue
        out.append(pos)
    return out


@lru_cache(maxsize=8192)
def segments(text: str, words: frozenset[str] = NO_WORDS) -> tuple[str, ...]:
    """`text` cut at the places a line may break inside it: between two Thai words as newmm
    finds them, with `words` (a card set's names, `dictionary_words`) in its dictionary. Never
    inside a name of `words`, never before a combining mark (`may_break`), never next to
    punctuation, digits or Latin letters; joined back together the pieces are `text` again."""
    if not has_thai(text):
        return (text,)
    bounds = {b for b in _newmm_bounds(text, words) if may_break(text, b)}
    pattern = _names_pattern(words)
    if pattern is not None and bounds:
        for m in pattern.finditer(text):
            start, end = m.start(), m.start() + len(m.group(1))
            bounds = {b for b in bounds if not start < b < end}
    return _cut(text, bounds)


@lru_cache(maxsize=4096)
def fine_segments(text: str) -> tuple[str, ...]:
    """For a word wider than its line (a long name in a narrow column): `text` cut between
    the words newmm's own dictionary finds in it, with the rules of `may_break`; a piece with
    no vowel and at most two consonants (the ล of เฮล, the อร์ of เดอร์) stays with the piece
    before it."""
    if not has_thai(text):
        return (text,)
    pieces = list(_cut(text, (b for b in _newmm_bounds(text, NO_WORDS) if may_break(text, b))))
    out: list[str] = []
    for p in pieces:
        consonants = sum(1 for c in p if "ก" <= c <= "ฮ")
        if out and _is_thai(p[0]) and not _VOWELS.search(p) and consonants <= 2 and (
                consonants < 2 or "์" in p):
            out[-1] += p
        else:
            out.append(p)
    return tuple(out)


def _known(token: str, words: frozenset[str]) -> bool:
    return token in words or token in _newmm()[1]


@lru_cache(maxsize=4096)
def word_segments(text: str, words: frozenset[str] = NO_WORDS) -> tuple[str, ...]:
    """For a name wider than its line, the cuts to try first: only after a word the
    dictionaries know (newmm's, and the sheet's `words` but the name itself), so that
    ซาลาแมนเดอร์เฮลเบนเดอร์ breaks as ซาลาแมนเดอร์ / เฮลเบนเดอร์, not inside the loanword that
    newmm knows only as syllables (เฮ ล เบน เด อร ์; issue 44: "...เฮลเบน / เดอร์"). A token no
    dictionary knows stays with both its neighbours, and two pieces that each hold one are one
    word; a name of known words breaks between them (นก หัวขวาน ดูด ...)."""
    if not has_thai(text):
        return (text,)
    own = frozenset(w for w in words if w != text.strip())
    tokens = _cut(text, (b for b in _newmm_bounds(text, own) if may_break(text, b)))
    pieces: list[list[str]] = []  # each: its tokens
    for tok in tokens:
        prev = pieces[-1] if pieces else None
        if prev is not None and not (_known(prev[-1].strip(), own) and _known(tok.strip(), own)):
            prev.append(tok)
        else:
            pieces.append([tok])
    out: list[str] = []
    strange = [any(not _known(t.strip(), own) for t in p) for p in pieces]
    for i, p in enumerate(pieces):
        if out and strange[i] and strange[i - 1]:
            out[-1] += "".join(p)
        else:
            out.append("".join(p))
    return tuple(out)


def _split_word(word: list, words: frozenset[str] = NO_WORDS,
                cut: Callable[[str], tuple[str, ...]] | None = None) -> list[list]:
    """One reportlab frag word -> words that break at Thai segment boundaries, joined without
    a space; the last piece keeps the original word's class (space after it or not). `cut`:
    a text's pieces, in place of `segments` with `words`."""
    text = "".join(t for _, t in word[1:])
    if not has_thai(text):
        return [word]
    pieces = cut(text) if cut is not None else segments(text, words)
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
        # an icon glued to the name has no text: it goes with the last piece, not away (issue
        # 44: a wrapped Thai name lost its icon)
        if part[prev:] or not current or _image_frag(frag):
            current.append((frag, part[prev:]))
        if start + len(part) in bounds and current:
            out.append(current)
            current = []
        start += len(part)
    if current:
        out.append(current)
    words: list[list] = []
    for i, parts in enumerate(out):
        width = sum(_image_frag(f).width if _image_frag(f) else
                    stringWidth(t, f.fontName, f.fontSize) for f, t in parts)
        cls = type(word) if i == len(out) - 1 else list
        words.append(cls([width, *parts]))
    return words


def break_words(frags: list, words: frozenset[str] = NO_WORDS) -> list:
    """reportlab frag words with Thai break opportunities added."""
    out: list = []
    for w in _getFragWords(frags):
        out.extend(_split_word(w, words) if _thai_word(w) else [w])
    return out


def _refined(frag_words: list, width: float, words: frozenset[str] = NO_WORDS) -> list:
    """A copy of `frag_words` in which each Thai word wider than `width` is cut finer, so that
    a name wider than its column breaks between its own words: after a known word first
    (`word_segments`), and only a piece still wider than the line between syllables
    (`fine_segments`)."""
    out: list = []
    for w in frag_words:
        if isinstance(w, list) and w[0] > width and _thai_word(w):
            for piece in _split_word(w, cut=lambda t: word_segments(t, words)):
                out.extend(_split_word(piece, cut=fine_segments) if piece[0] > width else [piece])
        else:
            out.append(type(w)(w) if isinstance(w, list) else w)
    return out


def _image_frag(frag: object) -> object:
    """The inline image a frag stands for (its `cbDefn`), or None for text."""
    cb = getattr(frag, "cbDefn", None)
    return cb if cb is not None and getattr(cb, "kind", "img") == "img" else None


def _thai_word(word: list) -> bool:
    return any(isinstance(t, str) and has_thai(t) for _, t in word[1:])


def _is_image(w: object) -> bool:
    return (isinstance(w, list) and type(w) is list and len(w) == 2
            and getattr(w[1][0], "cbDefn", None) is not None)


def glue_images(frag_words: list) -> list:
    """Frag words in which an inline image (a symbol's icon) and the word written against it,
    with no space between, are one word: reportlab made each image a word of its own, and a
    line could end between an icon and its name ("Stone Pine" before its icon, the icons of a
    species name dropped to a line of their own)."""
    out: list = []
    for w in frag_words:
        prev = out[-1] if out else None
        if _is_image(prev) and isinstance(w, list):  # icon, then the name it stands before
            out[-1] = type(w)([prev[0] + w[0], *prev[1:], *w[1:]])
        elif _is_image(w) and isinstance(prev, list) and type(prev) is list:  # after a word
            out[-1] = type(w)([prev[0] + w[0], *prev[1:], *w[1:]])  # that ends with no space
        else:
            out.append(w)
    return out


def hyphen_breaks(frag_words: list) -> list:
    """A word glued to its icon may still break after a hyphen inside its name
    ("Blauflügel-" | "Prachtlibelle <icon>"): reportlab splits a word at its hyphen only when
    the word is text alone, so a name with an icon wider than its column ran over the icon
    (issue 44: Alpen-Apollofalter, Dartmoor-Kaninchen). The piece up to the hyphen becomes a
    word of its own with no space after it, where a line may end; the icon stays with the
    piece after it."""
    out: list = []
    for w in frag_words:
        if not (isinstance(w, list) and any(getattr(f, "cbDefn", None) is not None
                                            for f, _ in w[1:])):
            out.append(w)
            continue
        frag, text = w[1]
        cut = text.rfind("-", 0, len(text) - 1) + 1
        if cut <= 1 or getattr(frag, "cbDefn", None) is not None:
            out.append(w)
            continue
        head = stringWidth(text[:cut], frag.fontName, frag.fontSize)
        out.append([head, (frag, text[:cut])])
        out.append(type(w)([w[0] - head, (frag, text[cut:]), *w[2:]]))
    return out


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
    ("DartmoorKaninchen"). So every wrap starts again from the frags as parsed.

    `words`: the card set's names (`dictionary_words`), which a line never breaks inside,
    unless one is wider than the line: that one breaks between its own words (`fine_segments`).
    """

    def __init__(self, text, style=None, *args, words: frozenset[str] = NO_WORDS, **kw):
        self._words = words
        super().__init__(text, style, *args, **kw)

    def _setup(self, text, style, bulletText, frags, cleaner):  # noqa: N803 - reportlab's names
        super()._setup(text, style, bulletText, frags, cleaner)
        raw = bool(self.frags) and not _processed_frags(self.frags)
        self._thai = raw and any(has_thai(getattr(f, "text", "") or "") for f in self.frags)
        images = raw and any(getattr(f, "cbDefn", None) is not None for f in self.frags)
        if self._thai:
            self.frags = break_words(self.frags, getattr(self, "_words", NO_WORDS))
        if images:
            self.frags = hyphen_breaks(glue_images(
                self.frags if self._thai else _getFragWords(self.frags)))
        self._parsed = _copy_frags(self.frags)
        self._fine = False
        self._wrapped: tuple[float, tuple[float, float], object] | None = None

    def wrap(self, availWidth, availHeight):  # noqa: N803 - reportlab's names
        # a table wraps its cells to size its rows, again to draw them, and again in each piece
        # it splits into at a page break; a wrap reads only the width, and every wrap at one
        # width ends alike (above), so the last stands while its lines do (a split that finds
        # no room drops them); the table's widths for one column differ in the last bits
        last = self._wrapped
        if (last is not None and abs(last[0] - availWidth) < 1e-6
                and last[2] is getattr(self, "blPara", None)):
            return last[1]
        size = self._wrap(availWidth, availHeight)
        self._wrapped = (availWidth, size, getattr(self, "blPara", None))
        return size

    def _wrap(self, availWidth, availHeight):  # noqa: N803 - reportlab's names
        line = availWidth - self.style.leftIndent - self.style.rightIndent
        if self._thai and any(isinstance(w, list) and w[0] > line and _thai_word(w)
                              for w in self._parsed):
            self.frags, self._fine = _refined(self._parsed, line, self._words), True
        # only a wrap that split a word leaves its pieces behind; the others' words are reused
        elif (self._fine or getattr(self, "_hyphenations", 0)
              or getattr(self, "_splitLongWordCount", 0)):
            self.frags, self._fine = _copy_frags(self._parsed), False
        return super().wrap(availWidth, availHeight)


__all__ = ["SegmentedParagraph", "bind_numbers", "break_words", "dictionary_words",
           "fine_segments", "has_thai", "may_break", "segments", "word_segments"]
