"""The wording faults a reader found on the printed sheets (issue 15), each pinned to the
sentence it was and the sentence it must be, so a catalog or card-data change that brings one
back fails here rather than on paper."""

from __future__ import annotations

from functools import cache

import pytest

from grove.compiler import cardset as cs
from grove.dsl.parser import parse_rule
from grove.printouts import rules_text as rt


@cache
def _built(base: str, *expansions: str) -> cs.CardSet:
    return cs.build(base, expansions)


def _text(card_set: tuple[str, ...], key: str, field: str, lang: str) -> str:
    cset = _built(*card_set)
    return rt.card_text(cset.species[key], cset, lang)[field]


BASE_ALL = ("base", "alpine", "woodland_edge")


# ---- German pronouns agree with the species, not with "die Karte" --------------------------
@pytest.mark.parametrize("card_set,key,field,expected", [
    (BASE_ALL, "base:chaffinch", "score", "5 Punkte, wenn er auf einer Buche sitzt"),
    (BASE_ALL, "base:red_squirrel", "score", "5 Punkte, wenn es auf einer Eiche sitzt"),
    (BASE_ALL, "woodland_edge:nightingale", "score", "5 Punkte, wenn sie auf einem Strauch sitzt"),
    (("dartmoor",), "dartmoor:wheatear", "score", "5 Punkte, wenn er auf einem Moor sitzt"),
    (("dartmoor",), "dartmoor:meadowsweet", "score", "5 Punkte, wenn es an einem Moor liegt"),
])
def test_german_pronoun_follows_the_species_gender(card_set, key, field, expected):
    assert _text(card_set, key, field, "de") == expected


def test_german_pronoun_of_every_card_phrase_follows_the_gender():
    """Every phrase that says "it" of the card itself (host, sharing, counts-as) takes the
    species' gender; a species without one is a gap, not a silent "sie"."""
    cset = _built(*BASE_ALL)
    chaffinch = cset.species["base:chaffinch"]  # der Buchfink
    r = lambda f, s: rt.Renderer(cset, "de", chaffinch).rule(parse_rule(f, s))  # noqa: E731
    assert r("score", "5 if sharing slot with common_toad") == \
        "5 Punkte, wenn er sich seinen Platz mit einer Erdkröte teilt"
    assert r("placement", "share slot with 1 chaffinch") == \
        "Ein weiterer Buchfink darf sich den Platz mit ihm teilen"
    nameless = rt.Renderer(cset, "de", cset.species["base:lynx"])
    nameless.rule(parse_rule("score", "5 if host is beech"))
    assert "article class of lynx" in nameless.misses


# ---- Dartmoor Cuckoo: the hosts a rule counts are the hosts it allows ----------------------
@pytest.mark.parametrize("lang,per_host,not_on", [
    ("en", "At most 1 copy per tree or shrub.", "May not be played on a moor"),
    ("de", "Höchstens 1 Exemplar pro Baum oder Strauch.", "Darf nicht an ein Moor angelegt"),
    ("it", "Al massimo 1 copia per ogni albero o arbusto.", "Non si può giocare su una"),
    ("th", "ไม่เกิน 1 ใบต่อต้นไม้หรือไม้พุ่ม", "ห้ามติดกับทุ่งพรุ"),
])
def test_cuckoo_does_not_count_the_moor_it_may_not_sit_on(lang, per_host, not_on):
    text = _text(("dartmoor",), "dartmoor:cuckoo", "placement", lang)
    assert per_host in text and not_on in text


def test_only_on_narrows_the_hosts_a_placement_rule_names():
    cset = _built("dartmoor")
    rule = parse_rule("placement", "only on moor; at most 1 per host")
    assert rt.Renderer(cset, "en").rule(rule) == "May only be played on a moor. At most 1 copy per moor"
    rule = parse_rule("placement", "at most 1 per host")
    assert rt.Renderer(cset, "en").rule(rule) == "At most 1 copy per tree, shrub or moor"


# ---- German counts species with one word: "für jede verschiedene Vogelart" (issue 33) -------
def test_german_species_count_uses_the_nouns_species_word():
    cset = _built(*BASE_ALL)
    r = rt.Renderer(cset, "de")
    assert r.rule(parse_rule("score", "2 per distinct bird species")) == \
        "2 Punkte für jede verschiedene Vogelart"
    # a noun whose card data gives no such word keeps the general phrase, and lint says so
    r = rt.Renderer(cset, "de")
    assert r.rule(parse_rule("score", "2 per distinct pawed species")) == \
        "2 Punkte pro verschiedener Art deiner Pfotentiere"
    assert "one word for a species of pawed" in r.misses
    # a language without the phrase is untouched
    assert rt.Renderer(cset, "en").rule(parse_rule("score", "2 per distinct bird species")) == \
        "2 points per different bird species"


def test_the_common_toad_shares_with_another_toad_in_every_language():
    expected = {"en": "5 points if it shares its slot with another Common Toad",
                "de": "5 Punkte, wenn sie sich ihren Platz mit einer weiteren Erdkröte teilt",
                "it": "5 punti se condivide il suo spazio con un altro Rospo",
                "th": "5 คะแนน ถ้าการ์ดนี้อยู่ช่องเดียวกับคางคกยุโรปอีก 1 ตัว"}
    for lang, text in expected.items():
        assert _text(BASE_ALL, "base:common_toad", "score", lang) == text


# ---- issue 44: "the same host" names only hosts with a slot on the card's sides --------------
@pytest.mark.parametrize("card_set,key,field,lang,expected,gone", [
    # left and right halves: a moor's slots are above and below, a river's too
    (("dartmoor",), "dartmoor:dartmoor_badger", "placement", "de", "am selben Baum oder Strauch",
     "Moor"),
    (("dartmoor",), "dartmoor:nuthatch", "score", "en", "every slot of the tree or shrub it sits on",
     "moor"),
    (("dartmoor",), "dartmoor:nuthatch", "score", "it", "sullo stesso albero o arbusto",
     "brughiera"),
    (("smoky_mountains",), "smoky_mountains:spotted_skunk", "score", "th", "บนต้นไม้เดียวกัน",
     "แม่น้ำ"),
    # a top half may lie at a moor: the moor stays
    (("dartmoor",), "dartmoor:water_soldiers", "placement", "en",
     "the top slot of the tree, shrub or moor it sits on", None),
])
def test_same_host_names_only_hosts_with_a_slot_on_the_card_s_side(card_set, key, field, lang,
                                                                   expected, gone):
    text = _text(card_set, key, field, lang)
    assert expected in text
    assert gone is None or gone not in text
