"""`grove score`: the forests of a finished game (a forest file or a record's end line) scored."""

from __future__ import annotations

import click

from grove.commands.common import card_sets, echo_json, guarded, json_option, lang_option, language
from grove.commands.records import record_size


@click.command(short_help="Score the forests of a finished game, from a forest file or a "
               "game record.")
@click.argument("forest_file", type=click.Path())
@click.option("--explain", is_flag=True, help="show every card's points and the rule behind them")
@json_option("print the scores as JSON on stdout (with --explain, each rule's points)")
@lang_option("the scoreboard's words, and with --explain the rules in the rule book's words of "
             "this language (without it, as the card files write them): {languages}")
@guarded
@card_sets
def score(forest_file: str, explain: bool, as_json: bool, lang: str | None, roots) -> None:
    """Score the forests of a finished game: a forest file (YAML or JSON), or a game record
    (`grove play --record`), whose end line holds the final forests."""
    from grove import api, report

    worded = lang is not None
    lang = language(lang or "en")
    from grove.compiler.search_path import roots_near

    record_size(forest_file, record=False)
    roots = roots_near(forest_file, roots)  # the card set a forest file sits in, found
    result = api.score_file(forest_file, explain=explain, roots=roots)
    if as_json:
        echo_json(result)
        return
    cardset = api.cardset_of(result, roots, programs=explain and worded)
    click.echo(report.scoreboard(result, cardset, lang, explain=explain, worded=worded))
