"""The sheet sentences a second reading found wanting (issue 33), each pinned in its language to
the words it must now say, so a catalog or template change that brings one back fails here.
The rule texts of the cards are pinned in tests/golden/ and tests/test_rules_text_wording.py."""

from __future__ import annotations

import dataclasses
import re
from functools import cache

import pytest
from markupsafe import Markup

from grove.compiler import cardset as cs
from grove.printouts.sheets.content import build_sheet
from grove.printouts.sheets.templates import render_sheet

BASE_ALL = ("base", ("alpine", "woodland_edge"))


@cache
def _text(base: str, expansions: tuple[str, ...], lang: str) -> str:
    """The sheet's words in reading order, markup and line breaks gone."""
    sheet = build_sheet(cs.build(base, expansions), lang)
    plain = Markup(re.sub(r"<[^>]+>", " ", render_sheet(sheet))).unescape()
    return re.sub(r"\s+", " ", plain).replace(" ,", ",").replace(" .", ".")


@pytest.mark.parametrize("edition,lang,expected", [
    (BASE_ALL, "en", "Reveal : whenever you play a tree or a sapling, also turn the top card"),
    (BASE_ALL, "de", "Aufdecken : Immer wenn du einen Baum oder einen Setzling ausspielst,"),
    (BASE_ALL, "it", "Rivela : ogni volta che giochi un albero o una piantina, metti anche"),
    (BASE_ALL, "th", "เปิดการ์ด : ทุกครั้งที่เล่นต้นไม้หรือต้นกล้า ให้เปิดการ์ด"),
    # Dartmoor: only a tree reveals, neither a shrub nor a moor (seed 001)
    (("dartmoor", ()), "en", "Reveal : whenever you play a tree, also turn"),
    (("dartmoor", ()), "de", "Immer wenn du einen Baum ausspielst,"),
    (("dartmoor", ()), "it", "ogni volta che giochi un albero, metti"),
    # a tree with a river beneath is a tree: one name, not "Tree and Tree with river"
    (("smoky_mountains", ()), "en", "Reveal : whenever you play a tree, also turn"),
])
def test_reveal_names_the_hosts_as_a_choice(edition, lang, expected):
    assert expected in _text(*edition, lang)


@pytest.mark.parametrize("edition,lang,expected", [
    # only the hosts that score: a face-down sapling, moor or river has no points (issue 44)
    (BASE_ALL, "en", "score pad: Trees and shrubs Top halves"),
    (BASE_ALL, "de", "Wertungsblocks ein: Bäume und Sträucher Obere Hälften"),
    (BASE_ALL, "it", "Alberi e arbusti Metà superiori"),
    (("dartmoor", ()), "en", "score pad: Trees and shrubs Moors Top halves"),
    (("smoky_mountains", ()), "en", "score pad: Trees Rivers Top halves"),
    (("base", ()), "en", "score pad: Trees Top halves"),
    (("smoky_mountains", ()), "th", "กระดาษจดคะแนน: ต้นไม้ แม่น้ำ การ์ดครึ่งบน"),
])
def test_scorepad_host_rows_are_plural_like_the_others(edition, lang, expected):
    assert expected in _text(*edition, lang)


@pytest.mark.parametrize("lang,present,gone", [
    ("en", ["Names that cover several species"], ["Names that count several species"]),
    ("de", ["Teile die übrigen Karten in drei etwa gleich große Stapel."],
     ["Teile den Stapel in drei Stapel", "Ohne bezahlte Karte gibt es keinen Bonus."]),
    # Italian after the fifth reading, in the base overview's words (seed 004): "capovolta",
    # "mettile nello scarto", "foglio del punteggio"; tante ... quante agree
    ("it", [
            "Paga il suo costo: metti nella radura, scoperte, tante altre carte della tua mano "
            "quante ne indica il costo.",
            "Carte giocate capovolte", "prendile tutte e mettile nello scarto",
            "foglio del punteggio", "Effetti comuni"],
     ["carta ospite", "Carte ospite", "altrettante altre carte", "quanto indica il costo",
      "rimuovile tutte dal gioco", "blocco segnapunti", "Effetti ricorrenti"]),
])
def test_sheet_sentences_read_as_written_in_the_language(lang, present, gone):
    text = _text(*BASE_ALL, lang)
    assert [p for p in present if p not in text] == []
    assert [g for g in gone if g in text] == []


# ---- issue 44: the wording list, and the hosts named by what they are -------------------------
@pytest.mark.parametrize("edition,lang,present,gone", [
    (BASE_ALL, "en", ["Trees, saplings and shrubs: their slots",
                      "A split card goes into a free slot of one of your trees, saplings and shrubs,"],
     ["A card played without paying any card", "host", "Host", "card with two halves"]),
    (("smoky_mountains", ()), "en", ["when you play a tree, you may lay"],
     ["when you play a card as Tree", "host", "Host"]),
    (("dartmoor", ()), "de", ["Anlegen an Bäume, Sträucher, Moore und Universalmoore",
                              "A. Zwei Karten ziehen",
                              "Zweigeteilte Karten kommen auf die Plätze rundherum",
                              "Karten in der Lichtung, werden sie alle aus dem Spiel entfernt.",
                              "bringt jede sichtbare Karte in deinem Wald die auf ihr angegebenen "
                              "Punkte."],
     ["Trägerkarte", "Karten mit zwei Hälften", "Zwei Karten nehmen", "wie ihr Text es sagt",
      "kommen alle aus dem Spiel"]),
    (("dartmoor", ()), "it", ["Alberi, arbusti, brughiere e brughiere universali: i loro spazi",
                              "Massimo 10 carte in mano."],
     ["Le carte che ospitano", "Limite di mano", "carta inverno", "carte inverno"]),
    (BASE_ALL, "it", ["Forest Shuffle", "carte invernali", "Zampa", "Ungulato"],
     ["Foresta Mista", "Alberello", "alberelli", "Animale con zampe", "Animale con zoccoli",
      "Nocciòlo"]),
    (("smoky_mountains", ()), "th", ["เทิร์นของคุณ", "การ์ดแบ่งส่วน", "พื้นที่กลาง", "ความสามารถ",
                                     "ผู้เล่นทุกคนรับการ์ดถ้ำคนละ 1 ใบ", "Forest Shuffle"],
     ["ตาของคุณ", "การ์ดที่มีสองครึ่ง", "เอฟเฟกต์", "การ์ดหลัก", "ลานโล่ง", "ป่าผสม"]),
])
def test_sheet_says_the_wording_list(edition, lang, present, gone):
    text = _text(*edition, lang)
    assert [p for p in present if p not in text] == []
    assert [g for g in gone if g in text] == []


# ---- issue 44, the second reading: the overviews' words where the sheets still had others ----
@pytest.mark.parametrize("edition,lang,present,gone", [
    # seed 002: "water requirement", not a "water symbol"; a tree in lower case mid-sentence
    (("smoky_mountains", ()), "en", ["Blue slots take only cards with the water requirement.",
                                     "take no card with the water requirement.",
                                     "when you play a tree, you may lay"],
     ["water symbol", "play a Tree"]),
    # seed 000: „Bedingung Wasser"
    (("smoky_mountains", ()), "de", ["Blaue Plätze nehmen nur Karten mit der Bedingung Wasser auf.",
                                     "nehmen keine Karte mit der Bedingung Wasser auf.",
                                     "je Platz eine Karte, es sei denn, eine Karte erlaubt mehrere:",
                                     "an einen freien Platz an (Plätze haben"],
     ["Wassersymbol", "sofern keine Zahl mehr erlaubt", "eine Zahl erlaubt"]),
    # seed 003: “ต้องการน้ำ”, and the deck is กองการ์ด
    (("smoky_mountains", ()), "th", ["ช่องสีฟ้ารับเฉพาะการ์ดที่ “ต้องการน้ำ”",
                                     "ไม่รับการ์ดที่ “ต้องการน้ำ”", "ใบจากกองการ์ด"],
     ["สัญลักษณ์น้ำ", "กองจั่ว"]),
    # seed 004: the winter card lies beside the draw deck; „mazzo di pesca"; three „mazzi"
    (BASE_ALL, "it", ["accanto al mazzo di pesca", "ognuna è la prima carta del mazzo di pesca",
                      "Dividi le carte rimanenti in tre mazzi più o meno uguali.", "A. Pesca due carte",
                      "ogni volta che giochi un albero o una piantina"],
     ["accanto alla radura", "tre pile", "giochi un Albero"]),
    (("dartmoor", ()), "it", ["mettine 2 nella radura"], ["sulla radura"]),
    # the type a face-down card counts as, as a sentence writes it
    (("smoky_mountains", ()), "en", ["universal river; it counts as a river."], ["counts as River"]),
    (BASE_ALL, "en", ["It counts as a tree but has no tree symbol"], ["counts as Tree"]),
    (BASE_ALL, "it", ["Conta come albero, ma non ha simbolo"], ["Conta come Albero"]),
    (BASE_ALL, "de", ["Sie zählt als Baum, hat aber kein Baumsymbol"], []),
    # a host that reveals no card is said too (seed 001: „Dies gilt nicht für Sträucher")
    (("dartmoor", ()), "de", ["Spielst du einen Strauch oder ein Moor aus, deckst du keine Karte auf."], []),
    (("dartmoor", ()), "it", ["Giocare un arbusto o una brughiera non rivela nessuna carta."], []),
    (("smoky_mountains", ()), "en", ["Playing a river reveals no card."], []),
    (("smoky_mountains", ()), "th", ["การเล่นแม่น้ำไม่ต้องเปิดการ์ด"], []),
    (("base", ()), "en", [], ["reveals no card"]),
    # the same winter rule in every language (seed 004 is the base game's only overview)
    (BASE_ALL, "en", ["Put each winter card you draw face up beside the deck"], ["beside the clearing"]),
    (BASE_ALL, "de", ["Lege jede gezogene Winterkarte offen neben den Stapel"], ["neben die Lichtung"]),
    (BASE_ALL, "th", ["ให้วางหงายหน้าไว้ข้างกองการ์ด"], ["ข้างพื้นที่กลาง"]),
])
def test_sheet_says_the_overviews_words(edition, lang, present, gone):
    text = _text(*edition, lang)
    assert [p for p in present if p not in text] == []
    assert [g for g in gone if g in text] == []


# ---- issue 44, the third reading: words a player would say otherwise -----------------------
@pytest.mark.parametrize("edition,lang,present,gone", [
    # seed 000: „Platziert Tiere und Pflanzen geschickt an Bäume und Flüsse"; one name for the
    # hickory, the tree card's
    (("smoky_mountains", ()), "de", ["Anlegen an Bäume, Flüsse und universelle Flüsse",
                                     "Hickorynussbaum", "pro unterschiedlichem Baumsymbol"],
     ["ihre Plätze", "pro verschiedenes", "Hickory ·", "Hickory\u00a0·"]),
    (BASE_ALL, "de", ["Anlegen an Bäume, Setzlinge und Sträucher"], ["ihre Plätze"]),
    # seed 003: a tree with a river „สามารถวางการ์ดประเภทใดก็ได้"; the stand-alone river
    # „แม่น้ำที่วางแยกเดี่ยว"; two things joined with no space before และ („สัตว์และพืช")
    (("smoky_mountains", ()), "th", ["ช่องที่มีสีฟ้าครึ่งช่องและมีคำว่า",
                                     "ติดได้เฉพาะกับต้นไม้ที่มีแม่น้ำหรือแม่น้ำที่วางแยกเดี่ยว",
                                     "ต้นไม้ แม่น้ำ และแม่น้ำสากล: ช่องวางการ์ด", "กองการ์ด"],
     ["ช่องสีฟ้าครึ่งหนึ่ง", "แม่น้ำหรือแม่น้ำ ", "กองจั่ว"]),
    (("base", ()), "th", ["ต้นไม้และต้นกล้า: ช่องวางการ์ด",
                          "คุณสามารถเล่นการ์ดใบใดก็ได้จากมือแบบคว่ำหน้า"],
     ["ต้นไม้ และต้นกล้า", "คุณเล่นการ์ดใบใดก็ได้"]),
    (BASE_ALL, "th", ["ต้นไม้ที่การ์ดนี้ติดอยู่นับเป็นต้นไม้เพิ่มอีก"], ["การ์ดที่การ์ดนี้ติดอยู่"]),
    # seed 002: "Stand-alone rivers only accept cards with water requirement"
    (("smoky_mountains", ()), "en", ["Only at a tree with river or a stand-alone river"],
     ["or a river"]),
])
def test_sheet_says_what_a_player_says(edition, lang, present, gone):
    text = _text(*edition, lang)
    assert [p for p in present if p not in text] == []
    assert [g for g in gone if g in text] == []


# ---- issue 44, the rules part: rules the readers found misfiled, unexplained or left over -----
SMOKY, DARTMOOR, BASE = ("smoky_mountains", ()), ("dartmoor", ()), ("base", ())


def _between(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end, text.index(start))]


@pytest.mark.parametrize("edition,lang,heading,line,end_of_turn", [
    (BASE_ALL, "en", "Winter and the end of the game",
     "As soon as the last of the 3 winter cards is revealed from the deck, the game ends "
     "immediately", "End of the turn"),
    (BASE_ALL, "de", "Winter und Spielende",
     "Sobald die 3. Winterkarte gezogen wird, endet das Spiel sofort", "Ende des Zuges"),
    (BASE_ALL, "it", "Inverno e fine del gioco",
     "Appena viene scoperta la 3ª carta invernale, il gioco finisce immediatamente",
     "Fine del turno"),
    (SMOKY, "th", "ฤดูหนาวและการจบเกม",
     "ทันทีที่เปิดเจอการ์ดฤดูหนาวใบที่ 3 จากกองการ์ด เกมจะจบลงทันที", "เมื่อจบเทิร์น"),
    (DARTMOOR, "de", "Winter und Spielende", "Sobald die 3. Winterkarte gezogen wird",
     "Ende des Zuges"),
])
def test_winter_has_its_own_heading_not_the_end_of_the_turn(edition, lang, heading, line,
                                                             end_of_turn):
    """A winter card may come at any time (seeds 000, 002, 003, 004), so it is no step of the
    end of the turn."""
    text = _text(*edition, lang)
    assert 0 <= text.index(heading) < text.index(line)
    assert line not in _between(text, end_of_turn, heading)


@pytest.mark.parametrize("edition,lang,expected", [
    (DARTMOOR, "de", "je Platz eine Karte, es sei denn, eine Karte erlaubt mehrere: Dartmoor-Dachs, "
                     "Krebsschere und Kuckuck."),
    (BASE, "it", "una carta ciascuno, salvo che una carta ne consenta di più: Lepre e Rospo."),
    (BASE_ALL, "en", "one card each unless a card allows more: Common Toad, European Hare, and "
                     "Stinging Nettle."),
    (SMOKY, "th", "เว้นแต่การ์ดบางใบอนุญาตให้วางได้มากกว่านั้น: จิ้งหรีดเทอร์โมมิเตอร์และน้ำตก"),
])
def test_slot_paragraph_names_the_cards_that_let_several_share_a_slot(edition, lang, expected):
    """The exceptions to one card a slot are card texts (a share, a join, a slot that holds
    more), read from the card data; the diagrams show no number that allows more."""
    text = _text(*edition, lang)
    assert expected in text
    assert "unless a number" not in text and "eine Zahl erlaubt" not in text


@pytest.mark.parametrize("edition,lang,line", [
    (BASE_ALL, "en", "A card that costs 0"), (BASE, "de", "0 kostet"), (SMOKY, "it", "costa 0"),
    (SMOKY, "th", "ค่าใช้จ่ายเป็น 0"), (SMOKY, "de", "0 kostet"),
])
def test_no_cost_0_bonus_rule_where_no_card_costs_0_and_has_a_bonus(edition, lang, line):
    assert line not in _text(*edition, lang)


@pytest.mark.parametrize("lang,line", [
    ("de", "Kostet eine Karte 0, bekommst du ihren Bonus immer."),
    ("en", "If a card costs 0, you always get its bonus."),
    ("it", "Se una carta costa 0, ottieni sempre il suo bonus."),
    ("th", "ถ้าการ์ดมีค่าใช้จ่ายเป็น 0 คุณจะได้รับโบนัสของการ์ดนั้นเสมอ"),
])
def test_dartmoor_says_its_cost_0_bonus_rule(lang, line):
    """Dartmoor's shrew costs 0 and has a bonus; there a bonus needs no payment."""
    assert line in _text(*DARTMOOR, lang)


def test_the_cost_0_rule_follows_the_card_data():
    """A base card set whose wolf cost 0 (its bonus kept) gets the base game's form of the
    rule, the one that never grants the bonus."""
    cset = cs.build("base", ())
    wolf = cset.species["base:wolf"]
    assert wolf.bonus is not None
    free = dataclasses.replace(cset, species={**cset.species,
                                              wolf.key: dataclasses.replace(wolf, cost=0)})
    plain = Markup(re.sub(r"<[^>]+>", " ", render_sheet(build_sheet(free, "en")))).unescape()
    assert "A card that costs 0 never gets its bonus." in re.sub(r"\s+", " ", plain)


@pytest.mark.parametrize("edition,lang,present,gone", [
    (DARTMOOR, "de", ["Universalmoor : Lege eine beliebige Karte aus deiner Hand verdeckt als "
                      "Universalmoor aus – nur, wenn ein Effekt oder Bonus es erlaubt."],
     ["nicht unter einem Baum", "nicht unter einen Baum", "allein ausgelegt"]),
    (DARTMOOR, "en", ["lay any card from your hand face down as a universal moor, but only when"],
     ["not beneath a tree", "on its own"]),
    (DARTMOOR, "it", ["gioca capovolta come brughiera universale una carta qualsiasi"],
     ["non sotto un albero"]),
    (DARTMOOR, "th", ["เล่นการ์ดใบใดก็ได้จากมือแบบคว่ำหน้าเป็นทุ่งพรุสากล แต่"], ["ไม่ได้อยู่ใต้"]),
    # Smoky Mountains: a universal river may lie beneath a tree too, so "not beneath a tree"
    (SMOKY, "en", ["lay any card from your hand face down on its own as a universal river, "
                   "not beneath a tree, but only"], []),
    (SMOKY, "de", ["verdeckt für sich allein als universellen Fluss aus, nicht unter einen Baum"], []),
    (SMOKY, "th", ["แบบคว่ำหน้าเป็นแม่น้ำสากลแยกเดี่ยว ไม่ได้อยู่ใต้ต้นไม้"], []),
])
def test_face_down_host_of_an_effect_has_a_verb_and_only_its_own_edition_s_words(
        edition, lang, present, gone):
    text = _text(*edition, lang)
    assert [p for p in present if p not in text] == []
    assert [g for g in gone if g in text] == []


@pytest.mark.parametrize("edition,lang,host,sentence,heading", [
    # seed 002: "place another card ... face down as a universal river under this tree"
    ("smoky_mountains", "en", "universal_river", "face down as a universal river", "Universal river"),
    ("smoky_mountains", "it", "universal_river", "capovolta come fiume universale", "Fiume universale"),
    ("dartmoor", "en", "universal_moor", None, "Universal moor"),
])
def test_a_name_is_lower_case_mid_sentence_and_capitalised_at_a_heading(edition, lang, host,
                                                                        sentence, heading):
    """The log and the screen write a face-down host as a sentence does; the sheet's list
    item and caption, the terminal's forest row and the browser's label start with it."""
    from click.testing import CliRunner

    from grove.card_words import CardWords
    from grove.cli import main

    words = CardWords(cs.build(edition, ()), lang)
    assert (words.host_name(host), words.host_label(host)) == (heading.lower(), heading)
    assert heading in _text(edition, (), lang)
    if sentence is not None:  # seed 3 lays a card face down as one
        res = CliRunner().invoke(main, ["play", "--edition", edition, "--ai", "greedy,greedy",
                                        "--seed", "3", "--lang", lang])
        assert res.exit_code == 0, res.stderr
        assert sentence in res.stderr and heading not in res.stderr


@pytest.mark.parametrize("edition,lang,present", [
    (BASE_ALL, "de", ["Teile die übrigen Karten in drei etwa gleich große Stapel. Mische 2 der 3 "
                      "Winterkarten in einen davon und lege die letzte obenauf. Lege diesen Stapel "
                      "unten hin und die beiden anderen darauf.", "Wer zuletzt im Wald war, beginnt."]),
    (BASE_ALL, "en", ["Shuffle 2 of the 3 winter cards into one of them and lay the last one on top. "
                      "Put that pile down and the other two on top of it.",
                      "The player who was most recently in a forest starts."]),
    (BASE, "it", ["Mischia 2 delle 3 carte invernali in uno di essi e metti l'ultima sopra.",
                  "Inizia chi è stato l'ultimo nel bosco."]),
    (SMOKY, "th", ["สับการ์ดฤดูหนาว 2 ใบจาก 3 ใบลงในกองหนึ่ง", "ผู้เล่นที่ไปป่ามาล่าสุดเป็นผู้เริ่มเล่นก่อน"]),
    # Dartmoor's caves 1 to 3 have effects: carried out once every player has taken one
    (DARTMOOR, "de", ["nimmt sich jeder eine davon. Danach führt jeder in derselben Reihenfolge "
                      "sofort den Effekt seiner Höhlenkarte aus.", "Wer zuletzt im Wald war, beginnt."]),
    (DARTMOOR, "it", ["Poi, nello stesso ordine, ognuno esegue subito l'effetto della sua carta "
                      "grotta."]),
])
def test_setup_says_the_piles_the_start_player_and_the_caves_effects(edition, lang, present):
    text = _text(*edition, lang)
    assert [p for p in present if p not in text] == []


def test_a_cave_without_an_effect_asks_for_none():
    """Smoky Mountains' caves have no effect, so its set-up says no cave effect is carried out."""
    assert "carries out the effect of their cave card" not in _text(*SMOKY, "en")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_cave_is_never_paid_so_its_cost_is_a_dash(lang):
    """Dartmoor's drafted caves are taken, never played: no cost "0" in the species table."""
    sheet = render_sheet(build_sheet(cs.build("dartmoor", ()), lang))
    rows = re.findall(r'<tr data-key="dartmoor:cave_\d">.*?</tr>', sheet)
    assert len(rows) == 5
    assert all('<td class="num">–</td>' in r for r in rows)


@pytest.mark.parametrize("edition,lang,expected", [
    (SMOKY, "en", "Immediate and permanent effects : immediate effects are activated right after "
                  "playing, permanent effects whenever their condition is met."),
    (BASE_ALL, "de", "Soforteffekte wirken gleich nach dem Ausspielen, Dauereffekte immer, wenn ihre "
                     "Bedingung erfüllt ist."),
    (DARTMOOR, "it", "un effetto permanente è sempre attivo"),
    (SMOKY, "th", "ความสามารถแบบทันทีและแบบถาวร"),
])
def test_effects_you_will_meet_explain_the_permanent_effect(edition, lang, expected):
    """The species table labels permanent effects; the overviews say what one is."""
    assert expected in _text(*edition, lang)


def test_a_card_set_where_no_card_lets_cards_share_a_slot_says_one_card_each():
    """The base game with its hare and toad sharing nothing: no card to name, no exception."""
    cset = cs.build("base", ())
    plain = {k: dataclasses.replace(sp, placement=None) for k, sp in cset.species.items()}
    sheet = render_sheet(build_sheet(dataclasses.replace(cset, species=plain), "en"))
    assert "dashed boxes, one card each." in sheet
    assert "unless a card allows more" not in sheet
