"""Card faces for the browser table: the faces `grove print` draws, as PNG images.

A face is named by its place among the card set's distinct faces in one language (the same
for every copy of a card), never by a card's number: an image's name says what the face shows,
which is only asked for a card the seat sees. Each face is drawn once, when first asked for
(a print of one face to a page, rasterised as `grove print --format png` does), and kept in
memory and in grove's cache folder, keyed by the card files' digests, the language and grove
itself, so a server started again serves them at once.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

import orjson

from grove.compiler.cardset import CardSet
from grove.printouts.cards.faces import Deck, Face, read_deck
from grove.printouts.cards.geometry import POKER

if TYPE_CHECKING:
    from PIL.Image import Image

MM = 72 / 25.4  # points to the millimetre
SCALE = 2.0  # pixels to the point: a poker card 357 x 499 pixels, sharp at twice its size
BACK = "back"
# zlib's level for a face: the table waits for its faces, which the cache keeps and a browser
# fetches once, so the time to make them counts for more than their bytes
PNG_LEVEL = 1
_RASTER = threading.Lock()  # PDFium may not be entered from two threads at once


@dataclass
class Faces:
    """One card set's faces in one language: which face each card shows, each face's words,
    and its image, drawn when first asked for."""

    cardset: CardSet
    lang: str

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._png: dict[int | str, bytes] = {}
        self._drawn: dict[int | str, Image] = {}  # by the warming, not yet made PNG
        self._warming: threading.Thread | None = None
        self._rastered = threading.Event()  # the warming's images are in `_drawn`

    def warm(self) -> None:
        """Draw every face not yet drawn, in a thread of its own: one document for all of them
        is drawn in far less time than a document a face, so a table's first look finds its
        images ready. A face asked for meanwhile waits for the warming's images: a page asks
        for a score of faces at once, and each drawn alone (while the warming, or another
        language's, held PDFium) was drawn twice."""
        with self._lock:
            if self._warming is not None:
                return
            self._warming = threading.Thread(target=self._draw_all, daemon=True,
                                             name=f"faces-{self.key}")
        self._warming.start()

    def _draw_all(self) -> None:
        from grove.compiler import cache
        from grove.printouts.cards import raster

        try:
            faces = self._faces[0]
            missing = [k for k in range(len(faces))
                       if cache.get("face", self._key(k)) is None]
            if not missing:
                return
            images = self._images([faces[k] for k in missing])
            with self._lock:
                self._drawn = dict(zip([*missing, BACK], images, strict=True))
        finally:
            self._rastered.set()  # drawn, or nothing to draw, or failed: no ask waits longer
        for k in [*missing, BACK]:
            with self._lock:  # an ask that came first takes its image and makes its PNG
                img = self._drawn.pop(k, None)
            if img is not None:
                png = raster.png(img, level=PNG_LEVEL)
                cache.put("face", self._key(k), png)
                with self._lock:
                    self._png.setdefault(k, png)

    def _images(self, faces: list[Face]) -> list[Image]:
        """`faces` drawn in one document, and after them the back every card shares."""
        from grove.printouts.cards import pdf, raster

        w, h = POKER[0] * MM, POKER[1] * MM
        with _RASTER:
            return list(raster.images(pdf.single(self.deck, faces, w, h, 0.0), SCALE))

    def _key(self, k: int | str) -> str:
        from grove.compiler import cache

        return cache.key("serve-face", self.key, str(k))

    @cached_property
    def deck(self) -> Deck:
        return read_deck(self.cardset, self.lang)

    @cached_property
    def _faces(self) -> tuple[tuple[Face, ...], dict[Face, int]]:
        faces = tuple(f for f, _ in self.deck.unique())
        return faces, {f: k for k, f in enumerate(faces)}

    @property
    def count(self) -> int:
        return len(self._faces[0])

    @cached_property
    def _by_card(self) -> tuple[int, ...]:
        """By card number (the deck as the edition files list it, as a game numbers its
        cards): the face the card shows; the caves and winter cards after it have no number."""
        index = self._faces[1]
        return tuple(index[c.face] for c in self.deck.cards[:len(self.cardset.deck)])

    @property
    def key(self) -> str:
        """The card set and language, as a URL names them (`base+alpine.de.1f3a...`)."""
        ids = "+".join(e.id for e in self.cardset.editions)
        digest = "".join(e.digest[:6] for e in self.cardset.editions)
        return f"{ids}.{self.lang}.{digest}"

    def of_card(self, number: int) -> int | None:
        """The face card `number` shows (None for a winter card, which has none of its own)."""
        return self._by_card[number] if 0 <= number < len(self._by_card) else None

    def text(self, k: int) -> dict[str, object]:
        """A face's words: each part's name and its rules, as the printed card says them."""
        face = self._faces[0][k]
        return {"title": face.title,
                "parts": [{"name": p.name, "cost": p.cost, "host": p.host,
                           "tree": p.tree.name if p.tree else None,
                           "types": [t.name for t in p.types], "water": p.water,
                           "fields": [[f.label, f.text] for f in p.fields]}
                          for p in face.parts]}

    @cached_property
    def words(self) -> bytes:
        """Every face's words, in face order, as the JSON the page reads once: a card set's
        faces are no secret (its sheet lists them all), and a table names only the faces its
        seat sees, so no message need carry their words again."""
        return orjson.dumps([self.text(k) for k in range(self.count)])

    def png(self, k: int | str) -> bytes:
        """Face k's image (`BACK`: the back every card shares), drawn once."""
        with self._lock:
            found = self._png.get(k)
        if found is None:
            found = self._draw(k)
            with self._lock:
                found = self._png.setdefault(k, found)
        return found

    def _draw(self, k: int | str) -> bytes:
        from grove.compiler import cache

        warming = self._warming
        if warming is not None and warming.is_alive():  # it draws this face with every other
            self._rastered.wait()
            with self._lock:
                found = self._png.get(k)
            if found is not None:
                return found
        faces = self._faces[0]
        face = faces[0] if k == BACK else faces[k]  # type: ignore[index]
        page = 1 if k == BACK else 0

        def build() -> bytes:
            from grove.printouts.cards import raster

            with self._lock:  # drawn by the warming, its PNG not yet made?
                drawn = self._drawn.pop(k, None)
            if drawn is None:
                drawn = self._images([face])[page]
            return raster.png(drawn, level=PNG_LEVEL)

        return cache.cached("face", self._key(k), build)


class Shelf:
    """The faces of one server, by card set and language: every game of the same set shares
    its images, and an image's URL (`Faces.key`) finds them at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._by_key: dict[str, Faces] = {}

    def of(self, cardset: CardSet, lang: str) -> Faces:
        made = Faces(cardset, lang)
        with self._lock:
            return self._by_key.setdefault(made.key, made)

    def get(self, key: str) -> Faces | None:
        with self._lock:
            return self._by_key.get(key)
