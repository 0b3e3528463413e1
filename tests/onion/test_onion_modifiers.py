"""Scoring effects of modifiers #0 to #11 (and running flushes)."""

import pytest

from cogs.onion.scoring import (
    GREAT_ATUIN, LADY, Arrangement, ScoringContext, best_arrangement, compare, cripples,
    grouping_order, parse_card, parse_cards, running_flush, showdown_winners,
)


def best(codes: str, **ctx) -> Arrangement:
    return best_arrangement(parse_cards(codes), ScoringContext(**ctx))


def names(a: Arrangement) -> list[str]:
    return [g.name for g in a.groupings]


# ------------------------------------------------------------------ running flushes, #0, #2, #3

GREATER = "Kc Ah Qd As Jh Ad Ko Aw Qw Ao"
LESSER = "Kc Ah Qd As Jh Ad Ko Aw 2c 3d"


def test_running_flush_detection_aces_low_and_high_no_wrap():
    nine = running_flush(parse_cards("Ac 2c 3w 4c 5c 6w 7c 8c 9c Kd"))
    assert nine is not None and nine.length == 9 and nine.low == 1
    high = running_flush(parse_cards("6h 7h 8u 9h Th Ju Qh Kh Ah 2c"))
    assert high is not None and high.length == 9 and high.low == 6
    ten = running_flush(parse_cards("5s 6s 7t 8s 9s Ts Jt Qs Ks As"))
    assert ten is not None and ten.length == 10
    assert running_flush(parse_cards("Qc Kc Ac 2c 3c 4c 5c 6c 7c Td")) is None  # wraps
    assert running_flush(parse_cards("2c 3c 4c 5c 6h 7c 8c 9c Tc")) is None  # off suit
    assert running_flush(parse_cards("2c 3c 4c 5c 6c 7c 8c 9c")) is None  # eight cards


def test_nine_card_running_flush_cripples_a_greater_onion_only():
    rf = best("2c 3c 4w 5c 6c 7c 8w 9c Tc Kd")
    greater = best(GREATER)
    lesser = best(LESSER)
    assert rf.running_flush.length == 9
    assert compare(rf, greater) == 1 and compare(greater, rf) == -1
    assert compare(rf, lesser) == -1
    assert cripples(rf.running_flush, greater.top)
    assert not cripples(rf.running_flush, lesser.top)


def test_ten_card_running_flush_also_cripples_a_lesser_onion():
    rf = best("2c 3c 4w 5c 6c 7c 8w 9c Tc Jc")
    assert rf.running_flush.length == 10
    assert compare(rf, best(LESSER)) == 1
    assert compare(rf, best(GREATER)) == 1


def test_showdown_the_ten_card_run_outcripples_the_nine():
    hands = [best(GREATER), best("2c 3c 4w 5c 6c 7c 8w 9c Tc Kd"),
             best("2h 3h 4u 5h 6h 7h 8u 9h Th Jh"), best("Kd Qh")]
    assert showdown_winners(hands) == [2]
    assert showdown_winners([best(GREATER), best("Kd Qh")]) == [0]


def test_octavo_is_a_lesser_onion_that_beats_lesser_onions_and_cannot_be_crippled():
    octavo = best("8c 8h 8d 8s 8w 8t 8u 8o", eights_wild=True)
    assert names(octavo) == ["the Octavo (Lesser Onion)"]
    lesser = best(LESSER, eights_wild=True)
    greater = best(GREATER, eights_wild=True)
    assert compare(octavo, lesser) == 1 and compare(greater, octavo) == 1
    rf = best("2c 3c 4w 5c 6c 7c 8w 9c Tc Jc", eights_wild=True)
    assert not cripples(rf.running_flush, octavo.top, eights_wild=True)
    assert compare(rf, octavo) == -1
    # eights not wild: eight eights are just eights
    assert "Octavo" not in best("8c 8h 8d 8s 8w 8t 8u 8o").explain()


def test_wild_crippling_rule():
    # a run needing one wild eight cannot cripple a Greater Onion without wild cards
    rf = best("2c 3c 4w 5c 6c 7c 8h 9c Tc Kd", eights_wild=True)
    assert rf.running_flush.length == 9 and rf.running_flush.wilds == 1
    greater = best(GREATER, eights_wild=True)
    assert greater.top.wilds == 0
    assert not cripples(rf.running_flush, greater.top, eights_wild=True)
    assert compare(rf, greater) == -1
    # ... but it cripples one that holds a wild eight
    greater_wild = best("Kc Ah Qd As Jh Ad Ko Aw Qw 8o", eights_wild=True)
    assert greater_wild.top.name == "Greater Onion" and greater_wild.top.wilds == 1
    assert compare(rf, greater_wild) == 1


# ------------------------------------------------------------------ #1 null eights


def test_null_eight_trumps_up_an_onion():
    assert names(best("3c 5h 6d 7s 8h")) == ["broken Royal"]  # 6 7 8; the 3 and 5 idle
    a = best("3c 5h 6d 7s 8h", null_eights=True)
    assert names(a) == ["five-card onion (1 null eight)"]
    assert "8♥=0" in a.explain()


def test_three_card_onion_trumped_into_a_seven_card_onion_with_four_null_eights():
    a = best("4c 7h Td 8c 8h 8d 8w", null_eights=True)
    assert names(a) == ["seven-card onion (4 null eights)"]


def test_fewer_null_eights_wins_between_onions_of_equal_size():
    one_null = best("3c 5h 6d 7s 8h", null_eights=True)
    none = best("2c 3h 4d 6s 6h", null_eights=True)
    assert names(none) == ["five-card onion"]
    assert compare(none, one_null) == 1
    # but a bigger onion with nulls beats a smaller one without
    assert compare(one_null, best("4c 5h 5d 7s", null_eights=True)) == 1


def test_null_eights_only_in_onions_not_bagels_or_flushes():
    # Kc Qc 8c would be a flush of 20 with the eight as 0: not allowed
    a = best("Kc 6c 8c", null_eights=True)
    assert names(a) == []
    # no null eights at all when eights are wild (they are wild instead)
    assert "=0" not in best("3c 5h 6d 7s 8h", eights_wild=True).explain()


# ------------------------------------------------------------------ #1 ii wild eights


def test_wild_eight_is_any_regular_card():
    assert names(best("8c Kh 5c", eights_wild=True)) == ["three-card onion"]
    assert names(best("8c Kh", eights_wild=True)) == ["two-card onion"]  # 8 as an ace
    assert names(best("8c Kh Qd Ah", eights_wild=True)) == ["Double Onion"]
    assert names(best("8c 7h 7d", eights_wild=True)) == ["Royal"]


def test_three_wild_eights_are_a_wild_royal():
    assert names(best("8c 8h 8d", eights_wild=True)) == ["Wild Royal"]
    assert compare(best("8c 8h 8d", eights_wild=True), best("7c 7h 7d", eights_wild=True)) == 1


# ------------------------------------------------------------------ #4 the Lady


def test_lady_devalues_one_ace_for_other_players_when_eights_are_wild():
    plain = best("Kc Ah Qd As", eights_wild=True)
    hit = best("Kc Ah Qd As", eights_wild=True, lady_devalues=True)
    assert names(plain) == ["Double Onion"]
    assert names(hit) == ["three-card onion"]
    assert "the Lady holds" in hit.explain()
    # no effect while eights are not wild (then the Lady is replaced instead: flow)
    assert names(best("Kc Ah Qd As", lady_devalues=True)) == ["Double Onion"]


def test_lady_spares_greater_onions():
    a = best(GREATER, eights_wild=True, lady_devalues=True)
    assert names(a) == ["Greater Onion"]


def test_lady_can_devalue_a_wild_eight_playing_as_ace():
    hit = best("Kc 8h", eights_wild=True, lady_devalues=True)
    assert names(hit) == ["bagel"]


def test_declared_lady_is_excluded_from_groupings():
    a = best("Qs Kh 5c", excluded=frozenset({LADY}))
    assert names(a) == [] and LADY in a.unused


# ------------------------------------------------------------------ #5 Fate, #8 Sender


def test_zeroed_aces_join_nothing_and_cannot_trump_up_onions():
    a = best("Kc Ah Qd As 9c", aces_zeroed=True)
    assert names(a) == ["bagel"]  # K Q; the 9 has no ace to make 20
    assert names(best("4c 7h Td Ah", aces_zeroed=True)) == ["three-card onion"]


def test_sender_visible_eights_normal_zeroes_aces_of_a_player_using_eights():
    # with the 8 the hand is a four-card onion 8 2 A(1) T... but using the eight kills the aces
    free = best("8c 2h Ad Ts")
    assert names(free) == ["four-card onion"]
    hit = best("8c 2h Ad Ts", sender=True)
    assert names(hit) == ["two-card onion"]  # T + A, eight left out
    both = best("8c 3h Td Kd As Ah Ks", sender=True)
    assert names(both)[0] == "Double Onion"


def test_sender_declared_with_wild_eights():
    a = best("Kc 8h", eights_wild=True, sender=True)
    assert names(a) == ["bagel"]  # the eight may not be an ace (value 1 or 11)
    a = best("Kc Ah Qd As", eights_wild=True, sender=True)
    assert names(a) == ["bagel"]  # all aces zeroed


# ------------------------------------------------------------------ #6 Great A'Tuin


def test_atuin_two_up_to_ten_is_a_picture():
    # Q🪙 down to 2, 2♥ up to 10 as a picture: with A A and K: Double Onion
    # 9♦ down to 1, 2♥ up to 10 as a picture: Q🪙 A♠ and 2♥ A♥ make a Double Onion
    a = best("Qo 2h 9d As Ah", atuin=True)
    assert names(a)[0] == "Double Onion"
    assert "Great A'Tuin" in a.explain() and "2♥→10" in a.explain()
    assert names(best("Qo 2h 9d As Ah"))[0] != "Double Onion"


def test_atuin_three_up_to_eleven_is_an_ace():
    a = best("Qo Kd 3h Qh Ac", atuin=True)
    assert names(a)[0] == "Double Onion"  # K+3→A, Q♥+A♣; the Q🪙 goes down to 2


def test_atuin_values_stay_between_one_and_eleven():
    # 9♣ down to 1 and 3♥ up to 11: an ace for the Q🪙; a 4 cannot go up to 12
    assert names(best("Qo 3h 9c", atuin=True)) == ["two-card onion"]
    assert names(best("Qo 3h 9c")) == []
    assert names(best("Qo 4h 9c", atuin=True)) == []


def test_atuin_may_lower_one_ace_and_raise_its_twin():
    # #6 shifts between two *different* cards, and two aces of one paired suit are
    # different cards: A♥ goes down (11→3) and A🏆 up (1→9) for 6 6 9, so K⚔ Q🪙 stay
    # a bagel, which the Fool ranks above the two-card onion lowering Q🪙 would leave.
    a = best("Qo Kw 6t 6d Ah Au", atuin=True, fool=True)
    assert names(a) == ["three-card onion", "bagel"]
    assert "(11→3)" in a.explain() and "(1→9)" in a.explain()


def test_atuin_needs_the_queen_of_coins_in_hand():
    assert names(best("2h Kd As Ah Qs", atuin=True)) == names(best("2h Kd As Ah Qs"))


# ------------------------------------------------------------------ #7 the Elephants


def test_elephants_example_from_the_text():
    a = best("9c 9h Tc Th Qo 5d", elephants=True)
    assert names(a) == ["Elephants' Double Onion"]
    assert "now 6" in a.explain()
    assert names(best("9c 9h Tc Th Qo 5d"))[0] != "Elephants' Double Onion"


def test_elephants_double_onion_is_beaten_by_any_double_onion():
    el = best("9c 9h Tc Th Qo 5d", elephants=True)
    assert compare(best("Kc Ah Qd As"), el) == 1
    assert compare(el, best("8c 8h 8d", eights_wild=True)) == 1


def test_elephants_need_two_nines_or_wild_eights_for_the_pictures():
    assert "Elephants" not in best("9c Td Tc Th Qo", elephants=True).explain()
    assert names(best("9c 8d Tc Th Qo", elephants=True, eights_wild=True))[0] == "Elephants' Double Onion"


def test_elephants_spare_nines_and_tens_count_one_and_two():
    # 9s 9d Tc Th are the Elephants; Q🪙 is now 6; the spare 9 as 1 and 10 as 2: 6+1+2+... 
    a = best("9c 9h Tc Th Qo 9s Ts 5d 7c", elephants=True)
    assert names(a)[0] == "Elephants' Double Onion"
    assert "9♠=1" in a.explain() or "10♠=2" in a.explain()


# ------------------------------------------------------------------ #9 Death


def test_death_bars_a_picture_from_a_double_onion():
    assert names(best("Kc Ah Qd As", death=True)) == ["three-card onion"]
    assert names(best("Kc Ah Qd As", death=True, death_victim=parse_card("Kc"))) == ["three-card onion"]


def test_death_spares_hands_with_fewer_than_two_pictures_and_triple_onions():
    assert names(best("Kc Ah Ts As", death=True)) == names(best("Kc Ah Ts As"))
    assert names(best("Kc Ah Qd As Jh Ad", death=True)) == ["Triple Onion"]


def test_death_with_wild_eights_also_bars_triple_onions():
    a = best("Kc Ah Qd As Jh Ad", death=True, eights_wild=True)
    assert names(a)[0] == "Double Onion"
    assert names(best("Kc Ah Qd As Jh Ad Ks Ao", death=True, eights_wild=True)) == ["Lesser Onion"]


# ------------------------------------------------------------------ #10 the Archchancellor


def test_playing_the_jack_of_staves_forbids_eights_counting_eight():
    # J🪄 + A: two-card onion; 6 7 8: broken Royal. Both together are not allowed.
    free = best("Jt Ad 6c 7h 8s")
    assert names(free) == ["broken Royal", "two-card onion"]
    ruled = best("Jt Ad 6c 7h 8s", archchancellor=True)
    assert names(ruled) == ["broken Royal"]
    declared = best("Jt Ad 6c 7h 8s", archchancellor_declared=True)
    assert names(declared) == ["two-card onion"]


def test_archchancellor_null_eights_still_allowed():
    a = best("Jt 4c 7h 8s", archchancellor_declared=True, null_eights=True)
    assert names(a) == ["four-card onion (1 null eight)"]


def test_jack_of_staves_wild():
    assert names(best("Jt 6c 7h", archchancellor_wild=True)) == ["broken Royal"]
    assert names(best("Jt 6c 7h")) == []


# ------------------------------------------------------------------ #11 the Fool


def test_fool_order_swaps_bagels_and_onions():
    order = grouping_order(fool=True)
    assert order[0] == "two-card onion"
    assert order.index("Double Onion") < order.index("bagel") < order.index("broken flush")
    assert order[-2:] == ["great bagel", "Greater Onion"]
    assert order.index("seven-card onion") < order.index("double bagel") < order.index("triple bagel")


def test_fool_makes_bagels_worth_something():
    bagels = best("Kc Qh Ts Td", fool=True)
    onion = best("Kc Ah Qd As", fool=True)
    assert names(bagels) == ["double bagel"]
    assert compare(bagels, onion) == 1
    assert compare(best("Kc Qh Ts Td"), best("Kc Ah Qd As")) == -1


def test_fool_great_bagel_beaten_only_by_greater_onion_and_crippled_like_it():
    great_bagel = best("Kc Qh Ts Td Jc Jw Ko Qo Tw Th", fool=True)
    assert names(great_bagel) == ["great bagel"]
    assert compare(best(GREATER, fool=True), great_bagel) == 1
    assert compare(great_bagel, best("8c 8h 8d 8s 8w 8t 8u 8o", fool=True, eights_wild=True)) == 1
    rf = best("2c 3c 4w 5c 6c 7c 8w 9c Tc Kd", fool=True)
    assert compare(rf, great_bagel) == 1


def test_fool_single_picture_ace_pair_is_the_lowest_grouping():
    assert compare(best("Kc Ah", fool=True), best("Kc Qh", fool=True)) == -1


@pytest.mark.parametrize("fool", [False, True])
def test_qo_held_without_atuin_is_a_plain_queen(fool):
    assert names(best("Qo Ah", fool=fool)) == ["two-card onion"]
    assert GREAT_ATUIN.special == "Great A'Tuin"


def test_death_victim_named_by_the_game():
    # Death took the J♥, which the Double Onion does not need
    a = best("Kc Ah Qd As Jh", death=True, death_victim=parse_card("Jh"))
    assert names(a) == ["Double Onion"]
    # left to the evaluator, the worst picture for the player is taken
    assert names(best("Kc Ah Qd As Jh", death=True)) == ["Double Onion"]  # J♥ replaces the victim
    assert names(best("Kc Ah Qd As 5h", death=True)) == ["three-card onion"]
