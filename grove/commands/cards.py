"""`grove cards`: every species of an edition, with its facts and its rules (as written, or as
rule-book text in a language).

A word of the card files that no printout can carry (a lone surrogate, a control character:
printouts/printable.py) is listed escaped, and reported once as TEXT-UNPRINTABLE: exit 1."""

from __future__ import annotations

import sys

import click

from grove.commands.common import (
    card_sets,
    echo_json,
    exit_code,
    expansions,
    guarded,
    language,
    print_diagnostics,
)
from grove.dsl.diagnostics import echo_text


@click.command()
@click.argument("edition")
@click.option("--with", "with_", default="", help="expansions, comma-separated")
@click.option("--lang", default=None, help="print the rules as rule-book text (en, de, it, th)")
@click.option("--json", "as_json", is_flag=True)
@guarded
@card_sets
def cards(edition: str, with_: str, lang: str | None, as_json: bool, roots) -> None:
    """List every species of an edition with its facts and rules."""
    from grove import api

    lang_given, lang = lang is not None, language(lang or "en")

    rows = api.cards(edition, expansions(with_), lang if lang_given or as_json else "", roots)
    unprintable = _unprintable([edition, *expansions(with_)], roots)
    if as_json:
        echo_json(rows)
        _fail_on(unprintable, "json")
        return
    for r in rows:  # names and rules come from card files, perhaps an author's: echoed escaped
        click.echo(echo_text(f"{r['name']} [{r['key']}] {r['kind']}, cost {r['cost']}, "
                              f"{r['copies']}x, types {', '.join(r['types']) or '-'}"))
        for f in ("effect", "bonus", "trigger", "placement", "modifier", "score"):
            if lang_given and r["text"].get(f):
                from grove.printouts.rules_text import field_label

                click.echo(f"    {field_label(f, lang)}: {echo_text(r['text'][f])}")
            elif r["rules"].get(f):
                click.echo(f"    {f}: {echo_text(r['rules'][f])}")
    _fail_on(unprintable, "text")


def _unprintable(listed: list[str], roots) -> list:
    """TEXT-UNPRINTABLE for the editions whose cards are listed."""
    from grove.compiler.universe import load_universe
    from grove.printouts.printable import findings

    universe = load_universe(roots)  # the one `api.cards` read (kept per search path)
    return findings(universe.editions[e] for e in dict.fromkeys(listed) if e in universe.editions)


def _fail_on(found: list, fmt: str) -> None:
    if found:
        print_diagnostics(found, fmt)
        sys.exit(exit_code(found))
