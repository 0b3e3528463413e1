"""Every grouping, the worked example, and how hands compare (plain rules)."""

import pytest

from cogs.onion.scoring import (
    PLAIN, Arrangement, HandError, ScoringContext, best_arrangement, compare, grouping_order,
    parse_card, parse_cards,
)


def best(codes: str, **ctx) -> Arrangement:
    return best_arrangement(parse_cards(codes), ScoringContext(**ctx))


def names(a: Arrangement) -> list[str]:
    return [g.name for g in a.groupings]


def test_order_of_groupings_follows_the_text():
    assert grouping_order() == [
        "bagel", "double bagel", "triple bagel", "lesser bagel", "great bagel",
        "two-card onion", "broken flush",
        "three-card onion (1 null eight)", "three-card onion", "flush",
        "four-card onion (2 null eights)", "four-card onion (1 null eight)", "four-card onion",
        "broken Royal",
        "five-card onion (3 null eights)", "five-card onion (2 null eights)",
        "five-card onion (1 null eight)", "five-card onion", "Royal",
        "six-card onion (4 null eights)", "six-card onion (3 null eights)",
        "six-card onion (2 null eights)", "six-card onion (1 null eight)", "six-card onion",
        "Wild Royal",
        "seven-card onion (5 null eights)", "seven-card onion (4 null eights)",
        "seven-card onion (3 null eights)", "seven-card onion (2 null eights)",
        "seven-card onion (1 null eight)", "seven-card onion",
        "Elephants' Double Onion", "Double Onion", "Triple Onion", "Lesser Onion",
        "the Octavo (Lesser Onion)", "Greater Onion",
    ]


@pytest.mark.parametrize(
    "codes, expected",
    [
        ("Kc Qh", "bagel"),
        ("Tc Th", "bagel"),
        ("9c Ah", "bagel"),
        ("Tc Ah", "two-card onion"),
        ("Kc Ah", "two-card onion"),
        ("Tc 4h 2h", "broken flush"),  # 16, two hearts and a club
        ("Ac 2c 4h", "broken flush"),  # ace as 11: 17
        ("4c 7h Tw", "three-card onion"),
        ("Ac Tw Th", "three-card onion"),
        ("Tc 4w 2c", "flush"),  # clubs and swords pair
        ("Ac 5w 2c", "flush"),  # 18 with the ace as 11
        ("4c 5h 5d 7s", "four-card onion"),
        ("Ac 4h 6s Td", "four-card onion"),
        ("6c 7h 8s", "broken Royal"),
        ("2c 3h 4d 6s 6h", "five-card onion"),
        ("2c 2h 3d 4s Kh", "five-card onion"),
        ("7c 7h 7o", "Royal"),
        ("Ac 2h 3d 4s 5h 6d", "six-card onion"),
        ("2c 2h 2d 5s 5h 5d", "six-card onion"),
        ("Ac Ah 2d 2s 4h 5d 6c", "seven-card onion"),
        ("Ac 2h 2d 3s 4h 4d 5c", "seven-card onion"),
        ("Kc Ah Qd As", "Double Onion"),
        ("Kc Ah Qd As Jh Ad", "Triple Onion"),
        ("Kc Ah Qd As Jh Ad Ko Aw", "Lesser Onion"),
        ("Kc Ah Qd As Jh Ad Ko Aw Qw Ao", "Greater Onion"),
        ("Kc Qh Th Td", "double bagel"),
        ("Kc Qh Ts Td Jc Jw", "triple bagel"),
        ("Kc Qh Ts Td Jc Jw Ko Qo", "lesser bagel"),
        ("Kc Qh Ts Td Jc Jw Ko Qo Tw Th", "great bagel"),
    ],
)
def test_each_grouping(codes, expected):
    a = best(codes)
    assert names(a)[0] == expected
    assert not a.unused


def test_a_set_counts_as_its_highest_grouping():
    # three sevens sum 21 too, but they are a Royal
    assert names(best("7c 7h 7s")) == ["Royal"]
    # a one-suit 6-7-8 is a flush and a three-card onion, but a broken Royal first
    assert names(best("6c 7c 8w")) == ["broken Royal"]
    # a one-suit three-card onion is a flush
    assert names(best("4c 7c Tc")) == ["flush"]
    # a single picture-and-ace pair is only a two-card onion
    assert names(best("Kc Ah")) == ["two-card onion"]


def test_no_eight_card_onion():
    a = best("Ac Ah 2c 2h 3c 3h 4c 5h")  # eight cards totalling 21 with the aces as 1
    assert "eight-card onion" not in a.explain()
    assert all(len(g.cards) <= 7 for g in a.groupings)
    assert names(a) == ["five-card onion", "broken flush"]


def test_values_aces_chosen_card_by_card():
    # A A 9: 11 + 1 + 9 = 21
    assert names(best("Ac Ah 9s")) == ["three-card onion"]
    # 9 + A + A as a bagel and a spare? no: as a three-card onion, which ranks higher
    assert names(best("9c Ah Ad")) == ["three-card onion"]


def test_the_worked_example_corrected():
    # "2234467KKA": the text says six-card onion 2234467 (which is 28, not 21) and KA;
    # under the rules the best is 2 2 3 4 4 6 and K K A with the ace as 1, the 7 unused.
    hand = parse_cards("2c 2h 3s 4d 4w 6t 7u Kc Ko Ah")
    a = best_arrangement(hand)
    assert names(a) == ["six-card onion", "three-card onion"]
    six, three = a.groupings
    assert sorted(int(c.rank) for c in six.cards) == [2, 2, 3, 4, 4, 6]
    assert sorted(int(c.rank) for c in three.cards) == [1, 13, 13]
    assert a.unused == (parse_card("7u"),)
    assert "A♥=1" in a.explain()
    assert a.explain() == (
        "six-card onion 2♣ 2♥ 3♠ 4♦ 4⚔ 6🪄 · three-card onion K♣ K🪙 A♥=1 · unused 7🏆"
    )
    # and the misprinted reading (six-card onion, then a two-card onion KA) is worse
    assert a.key > best("2c 2h 3s 4d 4w 6t Kc Ah").key


def test_cards_in_no_grouping_are_worthless():
    a = best("2c 3h 5d")
    assert a.groupings == () and len(a.unused) == 3
    assert a.explain() == "no grouping · unused 2♣ 3♥ 5♦"


def test_fewer_cards_mid_deal_and_empty_hand():
    assert names(best("Kc Ah 5d")) == ["two-card onion"]
    assert best("").groupings == ()


def test_bad_hands_are_refused():
    with pytest.raises(HandError):
        best_arrangement(parse_cards("Kc Kc"))
    with pytest.raises(HandError):
        best_arrangement(parse_cards("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc"))


# ------------------------------------------------------------------ comparison


def test_first_difference_decides():
    a = best("Kc Ah Qd As 2c 3c")  # Double Onion
    b = best("Tc Ah 7c 7h 7s")  # Royal, two-card onion
    assert compare(a, b) == 1 and compare(b, a) == -1


def test_second_grouping_breaks_a_tie_on_the_first():
    a = best("7c 7h 7s Tc Ah")  # Royal + two-card onion
    b = best("7d 7w 7t Kc Qh")  # Royal + bagel
    assert compare(a, b) == 1


def test_a_hand_that_still_has_a_grouping_wins():
    a = best("7c 7h 7s Kc Qh")  # Royal + bagel
    b = best("7d 7w 7t 2c 3h")  # Royal alone
    assert compare(a, b) == 1


def test_complete_tie_is_zero():
    a = best("7c 7h 7s Kc Qh")
    b = best("7d 7w 7t Ko Qo")
    assert compare(a, b) == 0


def test_two_bagels_make_one_double_bagel_which_beats_two_bagels_elsewhere():
    a = best("Kc Qh Th Td")
    assert names(a) == ["double bagel"]


def test_more_bagels_beat_fewer():
    assert compare(best("Kc Qh Th Td 9c Ah"), best("Kc Qh Th Td 2c 3c")) == 1


def test_two_card_onion_beats_any_bagel():
    assert compare(best("Tc Ah"), best("Kc Qh Ts Td Jc Jw Ko Qo Tw Th")) == 1


def test_ten_is_not_a_picture_for_the_onion_family():
    a = best("Tc Ah Td As")
    assert "Double Onion" not in names(a)
    assert names(a) == ["three-card onion"]  # 10 + 10 + 1 beats two two-card onions


def test_best_uses_pictures_for_the_onion_not_for_bagels():
    a = best("Kc Qh Ah As")
    assert names(a) == ["Double Onion"]


def test_plain_context_is_default():
    assert best_arrangement(parse_cards("Kc Ah")).key == best_arrangement(parse_cards("Kc Ah"), PLAIN).key
