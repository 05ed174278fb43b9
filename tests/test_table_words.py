"""Playing at the table (issue 29): the log's turns hold what happened in them, `show NAME`, every
hand's size, the edition by its own name, a full hand's turn, and the final scoreboard's words.

Through a pipe, as a person at the line mode sees them, and checked against the engine's own
facts (events, hands, rules text), so a wrong word cannot pass for a right one. Small games:
two players, greedy or a scripted human against greedy; each whole game takes about a second.
"""

from __future__ import annotations

import json
import re

import pytest

from grove.engine import runner
from grove.engine.action import Draw
from grove.engine.game import Game
from grove.printouts.rules_text import card_text, field_label
from grove.report import final_words
from grove.seatview.view import View
from grove.seatview.words import Words
from tests.test_play_terminal import SCRIPT, grove, lines_of

TURN = re.compile(r"^Turn (\d+): (.+)$")


# ---- 1. the log's turns -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def greedy_game(tmp_path_factory):
    """`grove play --ai greedy,greedy --seed 2`: its log (stderr), its board and its record."""
    folder = tmp_path_factory.mktemp("greedy")
    proc = grove("play", "--ai", "greedy,greedy", "--seed", "2", "--record", "g.jsonl",
                 cwd=folder)
    assert proc.returncode == 0, proc.stderr
    lines = (folder / "g.jsonl").read_text().splitlines()
    return proc, json.loads(lines[-1])


def test_every_turn_has_its_header_in_order(greedy_game):
    proc, end = greedy_game
    headers = [int(m[1]) for line in proc.stderr.splitlines() if (m := TURN.match(line))]
    assert end["type"] == "end" and len(headers) == end["turns"]
    assert headers == list(range(1, end["turns"] + 1))


def test_each_winter_card_stands_under_the_turn_it_was_drawn_in(greedy_game, base):
    """The engine's events say in which turn and whose each winter card came; the log's line
    for it must stand under that turn's header, the game-ending one included."""
    proc, _ = greedy_game
    out = runner.play(base, ["greedy", "greedy"], 2, names=["Greedy 1", "Greedy 2"])
    events = out.game.events
    drawn = []
    for k, e in enumerate(events):
        if e.kind == "winter":
            owner = next((x.player for x in events[k:] if x.turn == e.turn and x.player >= 0),
                         out.game.current)
            drawn.append((e.turn + 1, f"Greedy {owner + 1}"))
    assert len(drawn) == base.setup.winter_cards
    header = None
    seen = []
    for line in proc.stderr.splitlines():
        if m := TURN.match(line):
            header = (int(m[1]), m[2])
        elif "winter card" in line:
            seen.append(header)
    assert seen == drawn
    assert proc.stderr.splitlines()[-2:] == [f"  * winter card {len(drawn)} is drawn",
                                             "  * the game ends"]


# ---- 2. show NAME -------------------------------------------------------------------------------
# What the tests type at the first prompt of `grove play --ai human,greedy --seed 5 --plain
# --quiet --lang LANG`, one game a language: a line shows or lists and changes nothing, so each
# test reads its own answers out of the one session (a game started for each read the same
# board, at 0.3 s of CPU a start)
ASKED = {
    "en": ["show Red Fox", "show red_fox", "show rED fOX", "show base:red_fox", "show b",
           "show xyzzy", "show red fax", "show ", "help"],
    "de": ["show Fuchs", "show Red Fox", "show fuch", "show eiche", "show type:bird cost<=1",
           "show name:fuchs cost=2", "show cost<", "show type:walrus", "clearing"],
    "it": ["show volpe"],
}


@pytest.fixture(scope="module")
def session() -> dict[str, dict[str, str]]:
    """Per language: the board before the first prompt ("") and the answer to each line of
    `ASKED`, cut at the prompt that follows each."""
    out = {}
    for lang, asked in ASKED.items():
        proc = grove("play", "--ai", "human,greedy", "--seed", "5", "--plain", "--quiet",
                     "--lang", lang, stdin=lines_of([*asked, "quit"]))
        assert proc.returncode == 0, proc.stderr
        prompt = proc.stderr.splitlines()[-2]  # the prompt that "quit" answered, then "stopped"
        assert prompt.endswith(": "), proc.stderr[-1000:]
        board, *answers, _ = proc.stderr.split(prompt)
        assert len(answers) == len(asked), proc.stderr[-3000:]
        out[lang] = {"": board, **dict(zip(asked, answers, strict=True))}
    return out


def _show(session: dict[str, dict[str, str]], lang: str, *names: str) -> str:
    """The answers to `show NAME` at the first prompt, as one text."""
    return "".join(session[lang][f"show {n}"] for n in names)


def _expected(base, key: str, lang: str) -> list[str]:
    sp = base.species[key]
    rules = card_text(sp, base, lang)
    assert rules  # a species with rules, so their words are checked
    return [f"  {sp.name(lang)} [{sp.id}]", *(f"    {field_label(f, lang)}: {t}"
                                              for f, t in rules.items())]


@pytest.mark.parametrize(("lang", "asked"), [("en", "Red Fox"), ("en", "red_fox"),
                                               ("en", "rED fOX"), ("de", "Fuchs"),
                                               ("de", "Red Fox"), ("de", "fuch"),
                                               ("it", "volpe"), ("en", "base:red_fox")])
def test_show_finds_a_species_by_name_id_or_prefix(base, session, lang, asked):
    said = _show(session, lang, asked)
    for line in _expected(base, "base:red_fox", lang):
        assert line + "\n" in said, (line, said[-1500:])  # the first follows the prompt
    w = Words(lang)
    assert "    " + w("show.cost", cost=2) in said
    sides = ", ".join(_side(lang, s) for s in ("left", "right"))
    assert "    " + w("show.kind", kind=w("kind.dweller", sides=sides)) in said


def _side(lang: str, side: str) -> str:
    from grove.game_log import sentences

    return sentences(lang).get(f"log.side.{side}", side)


def test_show_a_tree_says_its_kind_and_symbol(base, session):
    said = _show(session, "de", "eiche")
    w = Words("de")
    assert "  Eiche [oak]" in said and "    " + w("show.kind", kind="Baum") in said
    assert "    " + w("show.symbols", symbols="‹Eiche› ×7") in said


def test_show_several_or_none_says_so_with_candidates(session):
    said = _show(session, "en", "b", "xyzzy", "red fax", "").splitlines()
    many = next(line for line in said if "fits several species" in line)
    assert len(many.split(": ", 1)[1].split(", ")) == 5  # five candidates at most
    assert any("no species of this game is called “xyzzy”" in line for line in said)
    fax = said.index(next(line for line in said if "called “red fax”" in line))
    assert "Red Fox" in said[fax + 1]  # the near names follow
    assert any("show NAME: a species of this game" in line for line in said)


def test_show_takes_a_query_of_grove_find(base, session):
    """`show` with a query answers as `grove find` does over the game's editions: one species
    in full, several by name, and a query that cannot be asked with its caret, not a crash."""
    from grove import api

    want = [r["key"] for r in api.find("type:bird cost<=1", ["base"], "de")]
    assert len(want) > 1
    said = _show(session, "de", "type:bird cost<=1", "name:fuchs cost=2", "cost<",
                 "type:walrus")
    many = next(line for line in said.splitlines() if "passen zu „type:bird cost<=1“" in line)
    assert many.rsplit("“: ", 1)[1].split(", ") == [base.species[k].name("de") for k in want]
    for line in _expected(base, "base:red_fox", "de"):
        assert line + "\n" in said
    lines = said.splitlines()
    caret = lines.index(next(line for line in lines if "USAGE-QUERY-SYNTAX" in line))
    assert any(line.strip() == "^" or line.strip().startswith("^") for line in lines[caret:caret + 4])
    assert "USAGE-QUERY-VALUE" in said and "Traceback" not in said


def test_help_lists_show(session):
    assert "  show NAME" not in session["en"][""]  # nothing asked yet
    assert re.search(r"^  show NAME +a species in full", session["en"]["help"], re.M)


# ---- 3. every hand's size -----------------------------------------------------------------------
def test_the_table_line_counts_every_other_hand(base):
    """At each of the human's turns, the table line counts the other player's hand as the
    engine holds it, and never the seat's own."""
    game = Game(base, ["Ana", "Bot"], 11)
    players = runner.seats(["random", "random"], 11)
    checked = 0
    while game.decision is not None and checked < 40:
        d = game.decision
        if d.kind == "turn" and d.player == 0:
            line = View(game.seats[0], "en").table_line()
            n = len(game.players[1].hand)
            assert f"Bot: {n} card{'' if n == 1 else 's'} in hand" in line
            assert "Ana:" not in line
            checked += 1
        game.apply(players[d.player].choose(game.seats[d.player], d))
    assert checked == 40


def test_clearing_shows_the_hand_sizes_through_the_pipe(session):
    said = session["de"][""] + session["de"]["clearing"]  # the board's table line and its own
    table = [line for line in said.splitlines() if "Stapel:" in line]
    assert len(table) == 2 and all("Greedy 2: 6 Karten auf der Hand" in t for t in table)


# ---- 4. the edition's name, a full hand ---------------------------------------------------------
@pytest.mark.parametrize(("lang", "title"), [("en", "grove · Forest Shuffle · turn 1"),
                                             ("de", "grove · Mischwald · Zug 1"),
                                             ("it", "grove · Forest Shuffle · turno 1")])
def test_the_turn_shows_the_edition_by_its_own_name(session, lang, title):
    board = session[lang][""].splitlines()
    assert title in board
    assert not any(line.startswith("grove · base") for line in board)


def test_a_full_hand_is_not_asked_to_draw(base):
    """The engine offers no draw to a full hand; the question must not offer one either."""
    game = Game(base, ["Ana", "Bot"], 3)
    players = runner.seats(["random", "random"], 3)
    w = Words("en")
    full = 0
    while game.decision is not None and full < 3:
        d = game.decision
        if d.kind == "turn" and d.player == 0:
            view = View(game.seats[0], "en")
            draws = [a for a in d.actions if isinstance(a, Draw)]
            if len(game.players[0].hand) >= base.setup.hand_limit:
                assert not draws and view.ask(d) == w("ask.turn_full")
                assert w("do.draw_deck") not in [o.label for o in view.options(d)]
                full += 1
                game.apply(players[0].choose(game.seats[0], d))
            else:
                assert draws and view.ask(d) == w("ask.turn")
                game.apply(draws[0])  # drawing only, to fill the hand
            continue
        game.apply(players[d.player].choose(game.seats[d.player], d))
    assert full == 3


# ---- 5. the final scoreboard --------------------------------------------------------------------
def test_the_final_board_says_final_winner_and_margin(greedy_game):
    proc, end = greedy_game
    board = proc.stdout.splitlines()
    totals = sorted(((s["total"], s["name"]) for s in end["scores"]), reverse=True)
    assert board[0] == f"Final scores after {end['turns']} turns"
    assert board[-1] == (f"{totals[0][1]} wins by {totals[0][0] - totals[1][0]} points over "
                         f"{totals[1][1]}")


def test_a_human_game_ends_with_the_final_board_in_german():
    proc = grove("play", "--ai", "human,greedy", "--seed", "5", "--plain", "--quiet", "--lang",
                 "de", "--json", stdin=lines_of(SCRIPT))
    result = json.loads(proc.stdout)
    proc = grove("play", "--ai", "human,greedy", "--seed", "5", "--plain", "--quiet", "--lang",
                 "de", stdin=lines_of(SCRIPT))
    board = proc.stdout.splitlines()
    assert board[0] == f"Endstand nach {result['turns']} Zügen"
    ranked = sorted(result["players"], key=lambda p: -p["total"])
    margin = ranked[0]["total"] - ranked[1]["total"]
    assert board[-1] == (f"{ranked[0]['name']} gewinnt mit {margin} Punkten Vorsprung vor "
                         f"{ranked[1]['name']}")


def test_final_words_of_a_tie_and_a_lone_player():
    tie = {"turns": 9, "winners": ["A", "B"],
           "players": [{"name": "A", "total": 40}, {"name": "B", "total": 40}]}
    assert final_words(tie, "en") == ("Final scores after 9 turns", "a tie at 40 points")
    alone = {"turns": 5, "winners": ["A"], "players": [{"name": "A", "total": 12}]}
    assert final_words(alone, "it")[1] == "A chiude con 12 punti"


@pytest.mark.parametrize(("edition", "expansions"), [("base", ["alpine", "woodland_edge"]),
                                                     ("dartmoor", [])])
def test_show_finds_every_species_and_words_it_in_every_language(edition, expansions):
    """Every species, by its name in each language, or by its key where two editions share a
    name (Squeaker in base and woodland_edge); each shown with its kind and all its rules."""
    from grove.compiler import cardset as cs

    cset = cs.build(edition, expansions)
    seat = Game(cset, ["A", "B"], 1).seats[0]
    for lang in ("en", "de", "it", "th"):
        view = View(seat, lang)
        names = [sp.name(lang) for sp in cset.species.values()]
        for sp in cset.species.values():
            found, candidates = view.find_species(sp.name(lang))
            if names.count(sp.name(lang)) > 1:
                assert found is None and sp in candidates
                found, _ = view.find_species(sp.key.upper())
            assert found is sp, (lang, sp.key)
            lines = view.species_lines(sp)
            assert "kind." not in lines[1], lines  # every kind has a word
            assert len(lines) == 4 + bool(sp.variants and any(s for _, s in sp.variants)) + len(
                card_text(sp, cset, lang))


def test_show_names_the_key_of_species_that_share_a_name():
    proc = grove("play", "--with", "woodland_edge", "--ai", "human,greedy", "--seed", "5",
                 "--plain", "--quiet", stdin=lines_of(["show squeaker", "quit"]))
    assert "fits several species: Squeaker [base:squeaker], Squeaker [woodland_edge:squeaker]" \
        in proc.stderr
