"""`grove cards`: every species of an edition, with its facts and its rules (as written, or as
rule-book text in a language).

A word of the card files that no printout can carry (a lone surrogate, a control character:
grove/printouts/printable.py) is listed escaped, and reported once as TEXT-UNPRINTABLE: exit 1."""

from __future__ import annotations

import sys

import click

from grove.commands.common import (
    card_sets,
    echo_json,
    exit_code,
    expansions,
    guarded,
    json_option,
    lang_option,
    language,
    print_diagnostics,
    usage_error,
)
from grove.dsl.diagnostics import echo_text


@click.command(short_help="List every species of an edition with its facts and rules.")
@click.argument("named", metavar="[EDITION]", required=False)
@click.option("--edition", default=None, metavar="EDITION",
              help="the edition whose species to list (or name it first: `grove cards base`)")
@click.option("--with", "with_", default="", metavar="LIST", help="expansions, comma-separated")
@lang_option("word the facts and print the rules as rule-book text in this language: "
             "{languages}")
@json_option("print the species as JSON on stdout")
@guarded
@card_sets
def cards(named: str | None, edition: str | None, with_: str, lang: str | None, as_json: bool,
          roots) -> None:
    """List every species of an edition with its facts and rules: as the card files write
    them, or with --lang in the rule book's words of that language."""
    from grove import api

    edition = _edition(named, edition)
    lang_given, lang = lang is not None, language(lang or "en")

    rows = api.cards(edition, expansions(with_), lang if lang_given or as_json else "", roots)
    unprintable = _unprintable([edition, *expansions(with_)], roots)
    if as_json:
        echo_json(rows)
        _fail_on(unprintable, "json")
        return
    worded = _Worded(edition, expansions(with_), lang, roots) if lang_given else None
    for r in rows:  # names and rules come from card files, perhaps an author's: echoed escaped
        if worded is not None:
            click.echo(worded.head(r))
        else:
            click.echo(echo_text(f"{r['name']} [{r['key']}] {r['kind']}, cost {r['cost']}, "
                                  f"{r['copies']}x, types {', '.join(r['types']) or '-'}"))
        for f in ("effect", "bonus", "trigger", "placement", "modifier", "score"):
            if lang_given and r["text"].get(f):
                from grove.printouts.rules_text import field_label

                click.echo(f"    {field_label(f, lang)}: {echo_text(r['text'][f])}")
            elif r["rules"].get(f):
                click.echo(f"    {f}: {echo_text(r['rules'][f])}")
    _fail_on(unprintable, "text")


def _edition(named: str | None, option: str | None) -> str:
    """The edition, named first (`grove cards base`) or as every command names it
    (`--edition base`); both is fine when they agree."""
    if named and option and named != option:
        usage_error(f"two editions named: {named!r} and --edition {option!r}; name one")
    edition = option or named
    if not edition:
        usage_error("name the edition whose species to list: grove cards --edition base "
                    "(`grove editions` lists them)")
    return edition


class _Worded:
    """A species' facts in the words of a language: its kind, cost and types, named as the
    card data and the screen's catalogs name them (grove/card_words.py)."""

    def __init__(self, edition: str, exps: list[str], lang: str, roots):
        from grove.card_words import CardWords
        from grove.compiler.cardset import build
        from grove.compiler.universe import load_universe

        universe = load_universe(roots)
        ed = universe.editions.get(edition)
        base, with_ = ((ed.expansion_of, [edition, *exps]) if ed is not None and ed.expansion_of
                       else (edition, exps))
        self.cardset = build(base, with_, roots, programs=False)
        self.words = CardWords(self.cardset, lang)

    def head(self, row: dict) -> str:
        w = self.words
        types = ", ".join(w.symbol_name(t) for t in row["types"]) or "-"
        return (f"{echo_text(row['name'])} [{echo_text(row['key'])}] "
                f"{w.kind_name(self.cardset.species[row['key']])}, "
                f"{w.words('cost', cost=row['cost'])}, {row['copies']}×, "
                f"{w.words('show.types', types=types)}")


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
