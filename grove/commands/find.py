"""`grove find QUERY`: the species of every card set on the search path that a query matches
(docs/find.md), one line each in `--lang`, or as `grove cards --json` rows.

A query that cannot be asked is a usage error (exit 2), printed with the query and a caret under
the mistake: the printer shows a file's line, and a query is no file, so it is given the query."""

from __future__ import annotations

import itertools
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


class _QueryCommand(click.Command):
    """A query may start with `-` (`grove find -water`, `grove find -type:fish water`): every
    argument that is not one of the command's options is a word of the query, so it is set
    after `--` before click reads the options; one that starts with `--` is an option grove
    lacks (after a `--`, anything is the query's)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        takes = {o: not p.is_flag for p in self.get_params(ctx) if isinstance(p, click.Option)
                 for o in (*p.opts, *p.secondary_opts)}
        options: list[str] = []
        words: list[str] = []
        rest = iter(args)
        for arg in rest:
            name = arg.partition("=")[0]
            if arg == "--":
                words += rest
            elif arg in takes or (name in takes and arg.startswith("--")):
                options.append(arg)
                if takes[name] and "=" not in arg:
                    value = list(itertools.islice(rest, 1))
                    if not value:
                        raise click.BadOptionUsage(name, f"Option '{name}' requires an argument.",
                                                   ctx=ctx)
                    options += value
            elif arg.startswith("--"):  # a query negates with one dash: two are a mistyped option
                raise click.NoSuchOption(name, ctx=ctx)
            else:
                words.append(arg)
        return super().parse_args(ctx, [*options, "--", *words])


@click.command(cls=_QueryCommand,
               short_help="List the species a query matches, in any language (docs/find.md).")
@click.argument("query_words", nargs=-1, required=True, metavar="QUERY...")
@click.option("--edition", "editions", multiple=True, metavar="E",
              help="search this edition only (repeatable); every edition when not given")
@lang_option("names and rules text in this language, and name: searches it alone: {languages}")
@json_option("the rows as JSON, with the fields of grove cards --json and the edition")
@guarded
@card_sets
def find(query_words: tuple[str, ...], editions: tuple[str, ...], lang: str | None,
         as_json: bool, roots) -> None:
    """List the species a query matches: type:bird cost<=1, water -type:fish (docs/find.md)."""
    from grove import api
    from grove.database.query import QUERY, shown

    query = " ".join(query_words)  # `grove find type:bird cost<=1` is one query
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

    if not rows:  # said on stderr: stdout stays the (empty) answer for a pipe
        click.echo("no species matches the query", err=True)
        return
    fields = sorted({f for r in rows for f in r["text"]})
    labels = words(lang or "en", tuple(f"field.{f}" for f in fields))  # cached: no Babel
    for r in rows:  # names and rules come from card files, perhaps an author's: echoed escaped
        types = ", ".join(r["types"]) or "-"
        rules = "; ".join(f"{labels[f'field.{f}']}: {t}" for f, t in r["text"].items())
        click.echo(echo_text(f"{r['name']} ({r['edition']}) {r['kind']}, cost {r['cost']}, "
                             f"{types}" + (f" | {rules}" if rules else "")))
