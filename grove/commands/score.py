"""`grove score`: the forests of a finished game (a forest file or a record's end line) scored."""

from __future__ import annotations

import click

from grove.commands.common import card_sets, echo_json, guarded, language
from grove.commands.records import record_size


@click.command()
@click.argument("forest_file", type=click.Path())
@click.option("--explain", is_flag=True, help="show every card's points and the rule behind them")
@click.option("--json", "as_json", is_flag=True)
@click.option("--lang", default="en", show_default=True)
@guarded
@card_sets
def score(forest_file: str, explain: bool, as_json: bool, lang: str, roots) -> None:
    """Score the forests of a finished game: a forest file (YAML or JSON), or a game record
    (`grove play --record`), whose end line holds the final forests."""
    from grove import api, report

    language(lang)
    record_size(forest_file, record=False)
    result = api.score_file(forest_file, explain=explain, roots=roots)
    if as_json:
        echo_json(result)
        return
    click.echo(report.scoreboard(result, api.cardset_of(result, roots), lang, explain=explain))
