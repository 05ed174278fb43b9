"""The Jinja2 templates of the sheet, with the i18n extension fed by the `sheet` catalog.

The templates are compiled once, in one environment whose own translations are the null ones;
each render passes its language's gettext callables (and list joining) in the render context, so
no language's setting lingers in shared state and no template is compiled twice.
"""

from __future__ import annotations

from functools import cache, wraps
from pathlib import Path
from typing import Any

from babel.lists import format_list
from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from grove.printouts import cases, glossary
from grove.printouts.sheets import catalog, thai
from grove.printouts.sheets.content import Sheet
from grove.printouts.sheets.diagrams import Labels

TEMPLATE_DIR = Path(__file__).resolve().parent.parent / "templates"
_CALLABLES = ("gettext", "ngettext", "pgettext", "npgettext")


@cache
def environment() -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATE_DIR)), extensions=["jinja2.ext.i18n"],
                      autoescape=True, undefined=StrictUndefined, keep_trailing_newline=True)
    env.install_null_translations(newstyle=True)  # type: ignore[attr-defined]
    return env


@cache
def _language(lang: str) -> dict[str, Any]:
    """The newstyle gettext callables of one language, as Jinja2's i18n extension builds them,
    plus `join_and` ("A, B and C" by the CLDR list patterns of the language)."""
    scratch = Environment(extensions=["jinja2.ext.i18n"])
    scratch.install_gettext_translations(catalog.translations(lang), newstyle=True)  # type: ignore[attr-defined]
    out = {k: _with_cases(scratch.globals[k]) for k in _CALLABLES}

    def join_and(items: Any) -> str:
        items = [str(i) for i in items]
        return format_list(items, locale=lang) if items else ""

    out["join_and"] = join_and
    return out


def _with_cases(gettext: Any) -> Any:
    """A gettext callable whose sentence may ask for a case of any value it is given
    (`%(beneath_acc)s`, `cases.py`); Jinja2's mark that it takes the context is kept."""
    @wraps(gettext)
    def call(*args: Any, **values: Any) -> Any:
        return gettext(*args, **cases.with_cases(values))

    return call


def _plain(markup: Any) -> str:
    return Markup(str(markup)).unescape().strip()


@cache
def _label_module(lang: str) -> Any:
    return environment().get_template("_labels.j2").make_module(vars=_language(lang))


@cache
def labels(lang: str) -> Labels:
    """The words printed inside the slot diagrams, from the templates' label macros."""
    m = _label_module(lang)
    return Labels(
        sides={s: _plain(m.side(s)) for s in ("top", "bottom", "left", "right")},
        water=_plain(m.water()), with_water=_plain(m.with_water()), dry=_plain(m.dry()),
        either=_plain(m.either()),
        face_down=_plain(m.face_down()),
        capacity=_plain(m.capacity()),
    )


NAME_SHARE = (0.15, 0.21)  # the species table's name column, as a share of the page width


def name_share(sheet: Sheet) -> float:
    """The share of the page width the species table gives to names: enough for the widest
    part of a name a line cannot break inside (a Thai name is one, `thai.segments`; a Latin
    one breaks at spaces and after hyphens) that fits within the larger share, measured on A4
    (the narrower paper) in the bold of the table's cells, the last with the row's icons
    (which never leave its line); the effect column gives way."""
    from grove.printouts.sheets import layout
    from grove.printouts.sheets.columns import break_words, text_width

    size, bold = layout.styles().cell.fontSize, layout.register().bold
    frame = layout.page("a4").frame_width
    icon = size * layout.ICON_SCALE * layout.ICON_ROOM
    low, high = NAME_SHARE
    shares = [low]
    for row in sheet.all_species:
        words = row.name.split()
        for i, word in enumerate(words):
            parts = break_words(word, sheet)
            need = max(text_width(p, bold, size) for p in parts)
            if i == len(words) - 1 and row.icons:  # the icons stay on the last word's line
                need = max(need, text_width(parts[-1] + "\u00a0", bold, size)
                           + icon * len(row.icons))
            need += 2 * layout.CELL_PAD
            if need / frame <= high:
                shares.append(need / frame)
    return round(max(shares), 3)


def join_and(lang: str, items: list[str]) -> str:
    """"A, B and C" in the language, as the templates join lists."""
    return _language(lang)["join_and"](items)


def reveal(lang: str, n: int) -> str:
    """A host's caption "+n cards to the clearing", as its diagram's figure prints it."""
    return _plain(_label_module(lang).reveal(n))


def species_widths(sheet: Sheet) -> tuple[float, ...]:
    """The species table's column widths (`columns.py`), as shares of the page width."""
    from grove.printouts.sheets import columns

    lang = sheet.lang
    slot = columns.slot_share(sheet, labels(lang), _plain(_label_module(lang).cave()))
    cost = columns.cost_share(catalog.translations(lang).gettext("Cost"))
    return columns.species_widths(sheet, name_share(sheet), slot, cost)


def _context(sheet: Sheet, svg: dict[str, str] | None) -> dict[str, Any]:
    return {
        **_language(sheet.lang),
        "s": sheet,
        "species_widths": " ".join(f"{w:.3f}" for w in species_widths(sheet)),
        "svg": {k: Markup(v) for k, v in (svg or {}).items()},
        "water_slots": any(sl.water for h in sheet.hosts for sl in h.slots),
        "dry_slots": any(sl.dry for h in sheet.hosts for sl in h.slots),
        "either_slots": any(sl.either for h in sheet.hosts for sl in h.slots),
    }


def _bound(sheet: Sheet, text: str) -> str:
    """Thai keeps a numeral on the line of its classifier ("3 ต้น", `thai.bind_numbers`); the
    edition's own words where its overview has them (`glossary.in_edition`)."""
    text = glossary.in_edition(text, sheet.lang, sheet.edition_id)
    return thai.bind_numbers(text) if sheet.lang == "th" else text


def render_sheet(sheet: Sheet, svg: dict[str, str] | None = None) -> str:
    """The sheet as an XHTML fragment (`<article>`), for the PDF builder or the HTML page."""
    return _bound(sheet, environment().get_template("sheet.j2").render(_context(sheet, svg)))


def render_page(sheet: Sheet, svg: dict[str, str], css: str) -> str:
    """A standalone HTML page around the same fragment."""
    return _bound(sheet, environment().get_template("page.html.j2").render(
        {**_context(sheet, svg), "css": Markup(css)}))
