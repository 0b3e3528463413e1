"""bot.cards' fast paths (issue 12: engine speed) against the plain library calls
they replace: every seeded deal must stay exactly what it was."""

from __future__ import annotations

import bisect
import random
from operator import attrgetter

from bot.rules.cards import Card, Rank, Suit, _shuffle, insort_by_key, parse_card, seeded_rng, shuffled, standard_deck


def test_the_inline_shuffle_makes_the_same_swaps_as_random_shuffle():
    for size in (0, 1, 2, 3, 7, 52, 104, 1030):
        for seed in range(40):
            expected = list(range(size))
            random.Random(f"{seed}/deal").shuffle(expected)
            got = list(range(size))
            _shuffle(random.Random(f"{seed}/deal"), got)
            assert got == expected, (size, seed)


def test_a_shuffled_deck_and_what_the_generator_does_next_are_unchanged():
    for seed in ("x", 7, "digest-3"):
        rng = seeded_rng(seed, "set-1-search")
        expected = standard_deck(2)
        rng.shuffle(expected)
        assert shuffled(standard_deck(2), seed, "set-1-search") == expected
        # The generator is left where Random.shuffle leaves it, too.
        ours = seeded_rng(seed, "set-1-search")
        _shuffle(ours, standard_deck(2))
        assert ours.random() == rng.random()


def test_decks_are_fresh_lists_of_equal_cards_in_the_fixed_order():
    one, again = standard_deck(), standard_deck()
    assert one == again and one is not again
    one.pop()
    assert len(standard_deck()) == 52
    assert standard_deck() == [Card(rank, suit) for suit in Suit for rank in Rank]
    assert standard_deck(2) == standard_deck() * 2


def test_canonical_codes_and_other_spellings_parse_to_equal_cards():
    for card in standard_deck():
        assert parse_card(str(card)) == card
        assert parse_card(str(card).lower()) == card
        assert parse_card(f" {card.display()} ") == card


def test_insort_by_key_puts_a_card_where_bisect_insort_would():
    rng = random.Random(9)
    # Two decks of distinct objects: equal cards come up, told apart by identity (the
    # new one must go after its equals).
    deck = [Card(card.rank, card.suit) for card in standard_deck(2)]
    for _ in range(2000):
        hand = sorted(rng.sample(deck, rng.randint(0, 12)), key=lambda c: c._key)
        card = rng.choice(deck)
        expected = list(hand)
        bisect.insort(expected, card, key=attrgetter("_key"))
        insort_by_key(hand, card)
        assert [id(c) for c in hand] == [id(c) for c in expected]
    # Cards built apart from the shared deck: placed by key, not identity.
    hand = [Card(Rank.TWO, Suit.CLUBS), Card(Rank.NINE, Suit.HEARTS)]
    twin = Card(Rank.TWO, Suit.CLUBS)
    insort_by_key(hand, twin)
    assert hand[1] is twin and hand == [twin, twin, Card(Rank.NINE, Suit.HEARTS)]


def test_a_cards_code_and_display_read_from_its_key_are_its_rank_and_suit():
    codes = {"A": Rank.ACE, "T": Rank.TEN, "J": Rank.JACK, "Q": Rank.QUEEN, "K": Rank.KING}
    symbols = {"♣": Suit.CLUBS, "♦": Suit.DIAMONDS, "♥": Suit.HEARTS, "♠": Suit.SPADES}
    for rank in Rank:
        for suit in Suit:
            card = Card(rank, suit)  # a fresh object, not one of the shared deck's
            code, shown = str(card), card.display()
            assert codes.get(code[:-1], Rank(int(code[:-1])) if code[:-1].isdigit() else None) is rank and code[-1] == suit.value
            assert shown[:-1] == ("10" if rank is Rank.TEN else code[:-1]) and symbols[shown[-1]] is suit
