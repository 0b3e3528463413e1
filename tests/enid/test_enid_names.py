"""Enid's names: every alias the seed allows, the forgiving matcher, server renames."""

from __future__ import annotations

import pytest

from bot.rules.cards import parse_card
from cogs.enid.names import (
    BUILTIN,
    Names,
    hear_card,
    hear_enid,
    mentions,
    middle_name_problem,
    said_cry,
    said_last,
    said_shout,
    words,
)
from bot.rules.cards import Rank

BUILT_IN = Names({})

SEED_NAMES = [
    ("As", "Rob McMahon of Sturgeon"),
    ("Ac", "Rob McMahon of Carp"),
    ("Ah", "Jeff Smith of Halibut"),
    ("Ad", "Jeffy-pheasant(sic) without /cs/res of Dalmations"),
    ("Ad", "Jeffy-pheasant without /cs/res of Dalmations"),
    ("2c", "Marvin Minsky of Carp"),
    ("3c", "Dennis Mungo Richie of Carp"),
    ("4s", "Brian Wombat Kernighan of Sturgeon"),
    ("5h", "Tarski of Halibut"),
    ("5h", "The Boring One of Halibut"),
    ("6d", "Alan Turing of Dalmatians"),
    ("7c", "Alonzo Church of Carp"),
    ("8s", "Aho/Sethi/Hopcroft/Ullman of Sturgeon"),
    ("9h", "Terry Wogan of Halibut"),
    ("Tc", "Terry Winograd of Carp"),
    ("Tc", "Terry who Mage can't pronounce of Carp"),
    ("Tc", "The bloke who wrote SHRDLU of Carp"),
    ("Js", "Mark Rafter of Sturgeon"),
    ("Jh", "John Buckle of Halibut"),
    ("Qd", "Julia Dain of Dalmations"),
    ("Qd", "Julia Ordain of Dalmations"),
    ("Qd", "Julia Hors d'Ouvre of Dalmations"),
    ("Qd", "Julia Hors d'Ouvre which must be obeyed as all times of Dalmations"),
    ("Kc", "Ken Thompson of Carp"),
    ("Kc", "Kendall Mint Thompson of Carp"),
]


@pytest.mark.parametrize(("code", "text"), SEED_NAMES)
def test_every_name_the_seed_allows_is_accepted(code, text):
    assert hear_card(words(text), parse_card(code), BUILT_IN).right


@pytest.mark.parametrize(
    ("code", "text"),
    [
        ("As", "Jeff Smith of Sturgeon"),  # a red Ace's name on a black Ace
        ("Js", "John Buckle of Sturgeon"),
        ("7c", "Alonzo Church of Sturgeon"),  # wrong suit
        ("7c", "Alonzo Church"),  # the suit is part of the name
        ("7c", "Alonzo Churches of Carp"),  # strict about words
        ("Tc", "Terry Winnograd of Carp"),
        ("4s", "Brian Kernighan of Sturgeon"),  # no middle name at all
        ("Kc", "Kendall Thompson of Carp"),
    ],
)
def test_wrong_words_are_refused(code, text):
    assert not hear_card(words(text), parse_card(code), BUILT_IN).right


def test_forgiving_of_case_spacing_and_punctuation_and_chat_around_the_name():
    card = parse_card("7c")
    for text in ["ha! Alonzo Church of Carp", "ALONZO   church, of carp!!!", "alonzo\nchurch of carp :)", "Alonzo-Church of Carp."]:
        assert hear_card(words(text), card, BUILT_IN).right, text
    assert words("Julia Hors d\u2019Ouvre") == ("julia", "hors", "douvre")


def test_middle_names_are_heard_and_judged():
    heard = hear_card(words("Brian Water-buffalo Kernighan of Carp"), parse_card("4c"), BUILT_IN)
    assert heard.right and heard.middle == ("water", "buffalo")
    assert middle_name_problem(Rank.THREE, ("mungo",), []) is None
    assert "begin with M" in middle_name_problem(Rank.THREE, ("wombat",), [])
    assert "bare initial" in middle_name_problem(Rank.FOUR, ("w",), [])
    assert "already used" in middle_name_problem(Rank.FOUR, ("wom", "bat"), ["wombat"])


def test_the_enid_is_enid_then_the_chain_in_order_then_one_new_name_then_blyton():
    chain = [["marmalade"], ["quux"], ["ethel"]]
    heard = hear_enid(words("Enid Marmalade Quux Ethel Zebedee Blyton!"), chain)
    assert heard.right and heard.middle == ("zebedee",)
    assert not hear_enid(words("Enid Quux Marmalade Ethel Zebedee Blyton"), chain).right  # order matters
    assert not hear_enid(words("Enid Marmalade Quux Ethel Blyton"), chain).right  # no new name
    assert hear_enid(words("Enid Zebedee Blyton"), []).middle == ("zebedee",)


def test_rituals_and_mentions():
    assert said_shout(words("HAAAARGH!!! Be Alonzo Churched! (a bit) <@42>"))
    assert not said_shout(words("Haaargh! Be Alonzo Churched!"))  # "(a bit)" is part of it
    assert mentions("Haaargh <@42> and <@!7>") == [42, 7]
    assert said_cry(words("My John Buckle casts your Mark Rafter to type void!"))
    assert said_last(words("last saint francis of assisi"), True)
    assert said_last(words("Last St. Francis of Assisi;;"), True)
    assert not said_last(words("Last card"), True) and said_last(words("last card!"), False)


def test_server_renames_join_or_replace_the_built_in_names():
    renames = {"black_ace": "Ada Lovelace", "queen": ["Grace Hopper", "Amazing Grace"], "two": "not renameable"}
    kept = Names.from_options(renames, keep_builtin=True)
    dropped = Names.from_options(renames, keep_builtin=False)
    assert "two" not in kept.renames
    for names in (kept, dropped):
        assert hear_card(words("Ada Lovelace of Carp"), parse_card("Ac"), names).right
        assert hear_card(words("Amazing Grace of Carp"), parse_card("Qc"), names).right
    assert hear_card(words("Rob McMahon of Carp"), parse_card("Ac"), kept).right
    assert not hear_card(words("Rob McMahon of Carp"), parse_card("Ac"), dropped).right
    assert not hear_card(words("Julia Dain of Carp"), parse_card("Qc"), dropped).right
    # A slot the server did not rename keeps its built-in names even with 'drop'.
    assert hear_card(words("Mark Rafter of Carp"), parse_card("Jc"), dropped).right
    assert dropped.display(parse_card("Qh")) == "Grace Hopper of Halibut"
    assert set(BUILTIN) >= set(kept.renames)
