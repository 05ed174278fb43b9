"""`grove print`: print-and-play cards of a card set, as a PDF to cut, a PNG per card or
Tabletop Simulator deck sheets (docs/print.md).

Nothing is written when a text does not fit its box on a card (PRINT-OVERFLOW, exit 1) or a
word of the card set cannot be printed at all (TEXT-UNPRINTABLE, exit 1)."""

from __future__ import annotations

import click

from grove.commands.common import (
    card_sets,
    expansions,
    force_option,
    guarded,
    lang_option,
    output_option,
)
from grove.dsl.diagnostics import echo_text


@click.command("print", short_help="Print-and-play cards of a card set: a PDF to cut, PNG images, "
               "a Tabletop Simulator deck.")
@click.option("--edition", required=True, help="a standalone edition")
@click.option("--with", "with_", default="", help="expansions, comma-separated")
@lang_option("the language the cards are printed in: {languages}", required=True)
@click.option("--format", "fmt", type=click.Choice(["pdf", "png", "tts"]), default="pdf",
              show_default=True, help="pdf: pages to cut; png: an image per card; tts: "
              "Tabletop Simulator deck sheets and saved object")
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True,
              help="the paper the pages are laid out for")
@click.option("--size", default="63x88", show_default=True, help="card size WxH in mm")
@click.option("--bleed", type=float, default=0.0, show_default=True,
              help="mm of colour beyond the cut on every side")
@click.option("--backs", is_flag=True, help="a page of backs after each page of fronts, mirrored "
              "for double-sided printing")
@click.option("--unique", is_flag=True, help="each face once, with its count")
@click.option("--only", default="", help="only these cards, comma-separated: species ids, card "
              "numbers (67, 60-70), caves, winter, or grove find terms (kind:tree)")
@click.option("--cut", type=click.Choice(["marks", "lines"]), default="marks", show_default=True,
              help="pdf: crop marks only, or a thin line round each card too, for scissors")
@click.option("--checklist", is_flag=True, help="pdf: a last page listing every card and its "
              "count")
@click.option("--url-base", default="", help="tts: the address the images will be served from "
              "(https://..., file:///...), written into the saved object")
@output_option(default=None,
              help="pdf: the file (or a folder for it); png, tts: the folder "
              "(default: cards-EDITION-LANG here)")
@force_option()
@guarded
@card_sets
def print_cards(edition: str, with_: str, lang: str, fmt: str, paper: str, size: str,
                bleed: float, backs: bool, unique: bool, only: str, cut: str, checklist: bool,
                url_base: str, out: str | None, force: bool, roots) -> None:
    """Print-and-play cards: every physical card, 9 to a page with crop marks, or as images."""
    from grove import api
    from grove.commands.sheet import _refuse_unprintable

    _refuse_unprintable(edition, expansions(with_), roots)
    paths = api.print_cards(edition, expansions(with_), lang, out, fmt=fmt, paper=paper,
                            size=size, bleed=bleed, backs=backs, unique=unique,
                            only=expansions(only), cut=cut, checklist=checklist,
                            url_base=url_base, roots=roots, force=force)
    if fmt == "pdf":
        click.echo(f"wrote {echo_text(str(paths[0]))} ({paths[0].stat().st_size // 1024} KiB)",
                   err=True)
    else:
        folder = paths[0].parent if paths else out
        click.echo(f"wrote {len(paths)} files into {echo_text(str(folder))}", err=True)
