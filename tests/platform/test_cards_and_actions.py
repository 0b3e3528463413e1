"""Card codes and action codes parse and print."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rules.cards import Card, CardCodeError, Rank, Suit, parse_card, parse_cards, shuffled, standard_deck
from bot.rules.engine import Action, BadActionCode


@pytest.mark.parametrize(
    ("text", "rank", "suit", "code", "shown"),
    [
        ("9h", Rank.NINE, Suit.HEARTS, "9h", "9♥"),
        ("Tc", Rank.TEN, Suit.CLUBS, "Tc", "10♣"),
        ("10c", Rank.TEN, Suit.CLUBS, "Tc", "10♣"),
        ("as", Rank.ACE, Suit.SPADES, "As", "A♠"),
        ("Q♦", Rank.QUEEN, Suit.DIAMONDS, "Qd", "Q♦"),
    ],
)
def test_card_codes(text, rank, suit, code, shown):
    card = parse_card(text)
    assert card == Card(rank, suit) and str(card) == code and card.display() == shown


@pytest.mark.parametrize("text", ["", "9", "1x", "11h", "Zh", "9hh"])
def test_bad_card_codes_say_what_to_write(text):
    with pytest.raises(CardCodeError, match="9h"):
        parse_card(text)


def test_parse_cards_and_decks():
    assert [str(c) for c in parse_cards("9h 9c, 4c")] == ["9h", "9c", "4c"]
    assert len(standard_deck()) == 52 and len(set(standard_deck())) == 52 and len(standard_deck(2)) == 104
    assert shuffled(standard_deck(), 5, "deal") == shuffled(standard_deck(), 5, "deal")
    assert shuffled(standard_deck(), 5, "deal") != shuffled(standard_deck(), 5, "reshuffle-1")


@given(st.sampled_from(standard_deck()))
def test_every_card_round_trips(card):
    assert parse_card(str(card)) == card and parse_card(card.display()) == card


@given(st.lists(st.sampled_from(standard_deck()), max_size=4), st.sampled_from(["play", "draw", "suit", "blind"]), st.sampled_from(["", "h", "2", "deck"]))
def test_action_codes_round_trip(cards, kind, arg):
    action = Action(kind, tuple(cards), arg)
    assert Action.parse(action.code()) == action


@pytest.mark.parametrize("code", ["", "pl ay", "play:9x", "play:Zz"])
def test_bad_action_codes_are_refused(code):
    with pytest.raises(BadActionCode):
        Action.parse(code)
