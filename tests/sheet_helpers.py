"""Shipped sheets laid out once per test process (the session fixture `laid_out`, conftest.py).

Laying out a sheet (`pdf._build`, up to six passes of reportlab) is most of what the sheet tests
cost: the modules that read the same sheets laid each out again, 147 times for 56 distinct
sheets in one process. Here each (edition, expansions, language, paper) is laid out once, and
its PDF, its page starts and its HTML page (whose print styles need the PDF's page starts)
come from that one layout. The memo lives in the test process only: the product renders
afresh, and the tests of determinism and of the public API (`api.sheet`) still render through
it and compare with what is shared here.
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from grove.compiler import cardset as cs
from grove.printouts.sheets import html, pdf
from grove.printouts.sheets.content import Sheet, build_sheet

Key = tuple[str, tuple[str, ...], str]  # edition, expansions, language


class LaidOut:
    """The shipped sheets, each built and laid out on first use. Not for a test that changes
    what a layout depends on (layout constants, fonts, shaping): it lays out afresh, and the
    other tests never see its result. Not for threads: `html` and `page_starts` swap
    `pdf._build` while they render (render before handing work to a pool)."""

    def __init__(self) -> None:
        self._sheets: dict[Key, Sheet] = {}
        self._built: dict[tuple[Key, str], pdf._Built] = {}
        self._html: dict[tuple[Key, str], str] = {}

    def sheet(self, edition: str, expansions: tuple[str, ...], lang: str) -> Sheet:
        key = (edition, tuple(expansions), lang)
        if key not in self._sheets:
            self._sheets[key] = build_sheet(cs.build(edition, list(expansions)), lang)
        return self._sheets[key]

    def built(self, edition: str, expansions: tuple[str, ...], lang: str,
              paper: str = "a4") -> pdf._Built:
        """What `pdf.render` and `pdf.page_starts` read: the sheet laid out on `paper`."""
        key = ((edition, tuple(expansions), lang), paper)
        if key not in self._built:
            self._built[key] = pdf._build(self.sheet(edition, expansions, lang), paper)
        return self._built[key]

    def pdf(self, edition: str, expansions: tuple[str, ...], lang: str,
            paper: str = "a4") -> bytes:
        """The bytes `pdf.render` gives (it returns `pdf._build(...).data`)."""
        return self.built(edition, expansions, lang, paper).data

    def page_starts(self, edition: str, expansions: tuple[str, ...], lang: str,
                    paper: str = "a4") -> pdf.Pages:
        sheet = self.sheet(edition, expansions, lang)
        with self._reusing(sheet, paper, self.built(edition, expansions, lang, paper)):
            return pdf.page_starts(sheet, paper)

    def html(self, edition: str, expansions: tuple[str, ...], lang: str,
             paper: str = "a4") -> str:
        """`html.render`'s page, its print styles from the shared layout."""
        key = ((edition, tuple(expansions), lang), paper)
        if key not in self._html:
            sheet = self.sheet(edition, expansions, lang)
            with self._reusing(sheet, paper, self.built(edition, expansions, lang, paper)):
                self._html[key] = html.render(sheet, paper)
        return self._html[key]

    @staticmethod
    @contextmanager
    def _reusing(sheet: Sheet, paper: str, built: pdf._Built):
        """`pdf._build` gives `built` for this very sheet object on `paper` (and lays out any
        other afresh), so that the product's own code reads the shared layout."""
        fresh = pdf._build
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(pdf, "_build", lambda s, p: built if s is sheet and p == paper
                          else fresh(s, p))
            yield
