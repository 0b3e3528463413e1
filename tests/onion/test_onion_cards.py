"""The 104 Cripple Mr Onion cards: codes, parser, display, paired suits, special cards."""

import pytest

from cogs.onion.scoring import (
    ARCHCHANCELLOR, DEATH, FATE, FOOL, GREAT_ATUIN, LADY, SENDER_OF_EIGHT, SPECIAL_CARDS,
    CardCodeError, PairedSuit, Suit, display_cards, format_card, onion_deck, parse_card,
    parse_cards,
)


def test_deck_has_104_distinct_cards_with_distinct_codes():
    deck = onion_deck()
    assert len(deck) == 104 == len(set(deck))
    codes = {format_card(c) for c in deck}
    assert len(codes) == 104
    assert all(len(code) == 2 for code in codes)


def test_every_code_round_trips_and_display_parses_back():
    for card in onion_deck():
        assert parse_card(format_card(card)) == card
        assert parse_card(card.display()) == card
        assert parse_card(format_card(card).lower()) == card
        assert parse_card(format_card(card).upper()) == card


@pytest.mark.parametrize(
    "code, shown",
    [("Qs", "Q♠"), ("Kw", "K⚔"), ("Jt", "J🪄"), ("Ku", "K🏆"), ("Qo", "Q🪙"), ("10h", "10♥"),
     ("Tt", "10🪄"), ("Ac", "A♣"), ("8d", "8♦")],
)
def test_codes_and_display(code, shown):
    assert parse_card(code).display() == shown


def test_ten_may_be_written_T_or_10():
    assert parse_card("10o") == parse_card("To") == parse_card("to")
    assert format_card(parse_card("10o")) == "To"


def test_paired_suits_follow_the_text():
    pairs = {Suit.CLUBS: Suit.SWORDS, Suit.SPADES: Suit.STAVES, Suit.HEARTS: Suit.CUPS,
             Suit.DIAMONDS: Suit.COINS}
    for french, latin in pairs.items():
        assert french.paired == latin.paired
        assert not french.is_latin and latin.is_latin
    assert parse_card("5w").paired_suit == PairedSuit.CLUBS_SWORDS
    assert len({s.paired for s in Suit}) == 4


def test_special_cards():
    assert LADY == parse_card("Qs") and LADY.special == "the Lady"
    assert FATE == parse_card("Ku") and FATE.special == "Fate"
    assert GREAT_ATUIN == parse_card("Qo") and GREAT_ATUIN.special == "Great A'Tuin"
    assert SENDER_OF_EIGHT == parse_card("Jd")
    assert DEATH == parse_card("Kw")
    assert ARCHCHANCELLOR == parse_card("Jt")
    assert FOOL == parse_card("Jc")
    assert len(SPECIAL_CARDS) == 7
    assert parse_card("Qh").special is None


@pytest.mark.parametrize("bad", ["", "Q", "Qx", "1x", "11s", "Zs", "QQ"])
def test_bad_codes_raise_readable_errors(bad):
    with pytest.raises(CardCodeError):
        parse_card(bad)


def test_parse_cards_and_display_cards():
    cards = parse_cards("Qs, Kw 10o")
    assert display_cards(cards) == "Q♠ K⚔ 10🪙"


def test_scoring_is_pure_and_its_doctests_hold():
    import doctest
    import subprocess
    import sys

    import cogs.onion.scoring as scoring

    code = (
        "import sys, cogs.onion, cogs.onion.scoring; "
        "bad = [m for m in ('discord', 'asyncio', 'sqlite3', 'aiosqlite') if m in sys.modules]; "
        "sys.exit(str(bad) if bad else 0)"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=scoring.__file__.rsplit("/cogs/", 1)[0])
    source = open(scoring.__file__, encoding="utf-8").read()
    for banned in ("import discord", "import asyncio", "import sqlite", "import time", "from time",
                   "import datetime", "import random"):
        assert banned not in source
    result = doctest.testmod(scoring)
    assert result.failed == 0 and result.attempted >= 4
