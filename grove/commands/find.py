"""`grove find QUERY`: the species of every card set on the search path that a query matches
(docs/find.md), one line each in `--lang`, or as `grove cards --json` rows.

A query that cannot be asked is a usage error (exit 2), printed with the query and a caret under
the mistake: the printer shows a file's line, and a query is no file, so it is given the query."""

from __future__ import annotations

import sys

import click

from grove.commands.common import (
    card_sets,
    echo_json,
    exit_code,
    guarded,
    json_option,
    lang_option,
    language,
    print_diagnostics,
)
from grove.dsl.diagnostics import DiagnosticError, echo_text, format_json


@click.command(short_help="List the species a query matches, in any language (docs/find.md).")
@click.argument("query")
@click.option("--edition", "editions", multiple=True, metavar="E",
              help="search this edition only (repeatable); every edition when not given")
@lang_option("names and rules text in this language, and name: searches it alone: {languages}")
@json_option("the rows as JSON, with the fields of grove cards --json and the edition")
@guarded
@card_sets
def find(query: str, editions: tuple[str, ...], lang: str | None, as_json: bool, roots) -> None:
    """List the species a query matches: type:bird cost<=1, water -type:fish (docs/find.md)."""
    from grove import api
    from grove.database.query import QUERY, shown

    fmt = "json" if as_json else "text"
    if lang is not None:
        language(lang)
    warnings = []
    try:
        rows = api.find(query, list(editions), lang, roots, on_warning=warnings.append)
    except DiagnosticError as exc:
        mine = [d for d in exc.diagnostics if d.span is not None and d.span.file == QUERY]
        if not mine:
            raise
        click.echo(format_json(mine) if as_json else shown(mine, query), err=True)
        sys.exit(exit_code(mine))
    print_diagnostics(warnings, fmt)
    if as_json:
        echo_json(rows)
        return
    from grove.printouts.phrases import words

    fields = sorted({f for r in rows for f in r["text"]})
    labels = words(lang or "en", tuple(f"field.{f}" for f in fields))  # cached: no Babel
    for r in rows:  # names and rules come from card files, perhaps an author's: echoed escaped
        types = ", ".join(r["types"]) or "-"
        rules = "; ".join(f"{labels[f'field.{f}']}: {t}" for f, t in r["text"].items())
        click.echo(echo_text(f"{r['name']} ({r['edition']}) {r['kind']}, cost {r['cost']}, "
                             f"{types}" + (f" | {rules}" if rules else "")))
