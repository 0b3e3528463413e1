"""The showdown and modifiers #0-#11 in play, from stacked packs.

Seats 1, 2, 3 with seat 1 dealing unless said otherwise: Elder 2, Younger 3. Driven to the
declaration round by the timer defaults (no discards, zero bets, no cards bought, so the
Elder's and Younger's second five are face up and the Dealer's are face down).
"""

from __future__ import annotations

import pytest
from onion_round_helpers import act, advance, codes, default_step, kinds, new_round

from bot.rules.engine import Action, RuleError
from cogs.onion.rules import DECLARE, OnionGame
from cogs.onion.scoring import DEATH, SENDER_OF_EIGHT, parse_card

P = [1, 2, 3]
DEALER_JUNK = (codes("2c 3s 4d 5c 9s"), codes("2d 3d 4c 6c 9d"))


def round_with(p2, p3, p1=DEALER_JUNK, after=(), dealer=1, **options) -> OnionGame:
    """p1/p2/p3: (first five, second five) as code strings or lists."""
    hands = {1: p1, 2: p2, 3: p3}
    hands = {p: tuple(codes(h) if isinstance(h, str) else h for h in pair) for p, pair in hands.items()}
    game = new_round(P, dealer, {p: h[0] for p, h in hands.items()},
                     second={p: h[1] for p, h in hands.items()}, after=list(after), **options)
    advance(game, DECLARE)
    assert game.phase == DECLARE
    return game


def finish(game: OnionGame) -> list:
    events = []
    while not game.is_over():
        events += default_step(game)
    return events


# ------------------------------------------------------------------ showdown


GREATER_ONION = ("Ac As Ah Ad Aw", "Kc Ks Kh Kd Qc")
TEN_CARD_RUN = ("2h 3h 4h 5h 6h", "7h 8u 9u Tu Ju")


def test_a_greater_onion_is_crippled_by_a_ten_card_running_flush():
    game = round_with(GREATER_ONION, TEN_CARD_RUN)
    events = finish(game)
    assert game.winner == 3 and game.outcome == "showdown"
    crippled = next(e for e in events if e.kind == "crippled")
    assert crippled.data["victim"] == 2 and "ten-card running flush" in crippled.data["run"]
    shown = {s["player"]: s for s in game.observation(None)["showdown"]}
    assert shown[2]["explanation"].startswith("Greater Onion")
    assert "ten-card running flush" in shown[3]["explanation"] and shown[3]["cripples"] == 2
    # Showdown from the Elder, the Dealer last.
    assert [e.player for e in events if e.kind == "showdown"] == [2, 3, 1]
    assert game.chips[3] == 99 + 3


def test_without_crippling_the_greater_onion_wins():
    game = round_with(GREATER_ONION, TEN_CARD_RUN, mod0="off")
    finish(game)
    assert game.winner == 2


TIED = ("Ac Kd Ah Qh 2c", "3c 4h 5d 9s 6d")
TWIN = ("Aw Ko Au Qu 2w", "3w 4u 5o 9t 6o")  # the same ranks in the paired Latin suits
WEAK = ("2s 3h 4s 7c 7s", "Tc Th 9h Ts 6s")


def test_a_complete_tie_goes_to_the_dealer():
    game = round_with(WEAK, TWIN, p1=TIED)
    a1, a3, a2 = game.arrange(1), game.arrange(3), game.arrange(2)
    assert a1.key == a3.key > a2.key
    finish(game)
    assert game.winner == 1 and game.outcome == "seniority"


def test_a_complete_tie_between_elder_and_younger_goes_to_the_elder():
    # Seat 2 deals: Elder 3, Younger 1.
    game = round_with(WEAK, TWIN, p1=TIED, dealer=2)
    assert (game.elder(), game.younger()) == (3, 1)
    finish(game)
    assert game.winner == 3 and game.outcome == "seniority"
    assert game.carry_out()["dealer"] == 3  # the winner deals next


def test_null_eights_make_the_next_round_wild_and_then_normal_again():
    game = round_with(("3u 5u 6h 7d 8s", "Tw Tt 9w 9t Kd"), WEAK)
    assert any(g.null_eights for g in game.arrange(2).groupings)
    finish(game)
    carry = game.carry_out()
    assert carry["eights_wild"] is True
    second = OnionGame.new(P, {"carry": carry}, seed=7)
    assert second.wild_for(2) and second.observation(None)["eights_wild"]
    assert second.context_for(2).eights_wild and not second.context_for(2).null_eights
    finish(second)
    assert second.carry_out()["eights_wild"] is False
    third = OnionGame.new(P, {"carry": second.carry_out()}, seed=8)
    assert not third.wild_for(2)


def test_without_null_eights_nothing_becomes_wild():
    game = round_with(("3u 5u 6h 7d 8s", "Tw Tt 9w 9t Kd"), WEAK, mod1="off")
    assert not game.context_for(2).null_eights
    finish(game)
    assert game.carry_out()["eights_wild"] is False


# ------------------------------------------------------------------ the Lady and Fate


LADY_HAND = ("Qs 2s 3h 4s 7c", "Tc Th 9h Ts 6s")


def test_the_lady_is_replaced_by_the_players_choice_of_the_next_two_cards():
    game = round_with(LADY_HAND, ("2h 3c 4h 5h 7h", "Jh Kh 6h 9c 5s"),
                      after=["Ad", "Kc"])
    lady = Action("declare", (parse_card("Qs"),), "lady")
    assert lady in game.legal_actions(2)
    events = game.apply(2, lady)
    obligation = next(e for e in events if e.kind == "obligation")
    assert obligation.data["seconds"] == 60 and obligation.visible_to(3).get("cards") is None
    assert game.observation(2)["offered"] == ["Ad", "Kc"] and game.observation(3)["offered"] == []
    assert game.current_players() == {2}
    with pytest.raises(RuleError, match="one of the cards offered"):
        act(game, 2, "pick:Ah")
    act(game, 2, "pick:Kc")
    assert parse_card("Kc") in game.down[2] and parse_card("Qs") in game.aside[2]
    assert parse_card("Ad") in game.discard and len(game.hand(2)) == 10
    assert game.observation(None)["specials"]["Qs"] == "the Lady"
    # The move may not be rescinded: no second Lady.
    assert lady not in game.legal_actions(2)


def test_the_lady_s_choice_times_out_to_the_first_card():
    game = round_with(LADY_HAND, ("2h 3c 4h 5h 7h", "Jh Kh 6h 9c 5s"), after=["Ad", "Kc"])
    events = act(game, 2, "declare:Qs:lady")
    task_id = next(e for e in events if e.kind == "obligation").data["id"]
    assert game.timeout_action(2) == Action("timeout", arg=task_id)
    game.apply(2, Action("timeout", arg=task_id))
    assert parse_card("Ad") in game.down[2] and game.tasks == []
    with pytest.raises(RuleError, match="no longer running"):
        game.apply(2, Action("timeout", arg=task_id))


def test_fate_after_the_lady_zeroes_the_lady_users_aces():
    game = round_with(LADY_HAND, ("Ku 3c 4h 5h 7h", "Jh Kh 6h 9c 5s"), after=["Ad", "Kc", "2h", "3w"])
    assert Action("declare", (parse_card("Ku"),), "fate") not in game._declarations(3)
    act(game, 2, "declare:Qs:lady")
    act(game, 2, "pick:Ad")
    act(game, 2, "done")
    assert not game.context_for(2).aces_zeroed
    act(game, 3, "declare:Ku:fate")
    act(game, 3, "pick:3w")
    assert game.context_for(2).aces_zeroed and not game.context_for(3).aces_zeroed
    assert "A♦" not in " ".join(g.describe() for g in game.arrange(2).groupings)


def test_fate_stops_wild_eights_and_another_lady_holder_makes_their_own_wild_again():
    wild = {"carry": {"eights_wild": True}}
    game = round_with(("2s 3h 4s 7c 7s", "Tc Th 9h Ts 6s"), ("Ku 3c 4h 5h 7h", "Jh Kh 6h 9c 5s"),
                      p1=("Qs 3s 4d 5c 9s", "2d 3d 4c 6c 9d"), **wild)
    assert all(game.wild_for(p) for p in P)
    # #4 ii: the Lady (held by seat 1) devalues an ace for every other player.
    assert game.context_for(2).lady_devalues and not game.context_for(1).lady_devalues
    act(game, 2, "done")
    assert Action("rewild") not in game.legal_actions(3)
    act(game, 3, "declare:Ku:unwild")
    assert not any(game.wild_for(p) for p in P)
    assert Action("rewild") not in game.legal_actions(3)  # not the one who used Fate
    act(game, 3, "done")
    act(game, 1, "rewild")
    assert game.wild_for(1) and not game.wild_for(2) and not game.wild_for(3)


# ------------------------------------------------------------------ Great A'Tuin and the Elephants


def test_great_atuin_shifts_eight_points_for_the_declarer():
    game = round_with(("Qo Kc Ah Kd Ad", "2u Ac Aw Tw 4o"), WEAK)
    before = game.arrange(2)
    act(game, 2, "declare:Qo:atuin")
    after = game.arrange(2)
    assert game.context_for(2).atuin and after.key > before.key
    assert "Great A'Tuin shifts 8" in after.explain()
    assert parse_card("Qo") in game.up[2]  # declaring shows the card


def test_the_elephants_make_a_double_onion():
    game = round_with(("Qo 9w 9u Tw Tu", "2o 3o 5w 6o 7u"), WEAK)
    assert Action("declare", (parse_card("Qo"),), "elephants") in game.legal_actions(2)
    act(game, 2, "declare:Qo:elephants")
    assert game.context_for(2).elephants
    assert game.arrange(2).explain().startswith("Elephants' Double Onion")
    assert Action("declare", (parse_card("Qo"),), "atuin") not in game.legal_actions(2)


def test_the_elephants_need_four_nines_or_tens():
    game = round_with(("Qo 9w 9u Tw 2u", "2o 3o 5w 6o 7u"), WEAK)
    assert Action("declare", (parse_card("Qo"),), "elephants") not in game.legal_actions(2)


# ------------------------------------------------------------------ the Sender, Death, the Archchancellor


def test_the_sender_is_declared_as_soon_as_dealt_while_eights_are_wild():
    first = {1: DEALER_JUNK[0], 2: codes("2s 3h 4s 7c 7s"), 3: codes("Jd 3c 4h 5h 7h")}
    game = new_round(P, 1, first, carry={"eights_wild": True})
    declared = [e for e in game.opening_events if e.kind == "declared"]
    assert declared and declared[0].data == {"player": 3, "card": "Jd", "name": "the Sender of Eight",
                                             "power": "sender", "forced": True}
    assert SENDER_OF_EIGHT in game.up[3] and game.observation(None)["specials"] == {"Jd": "the Sender of Eight"}
    assert game.context_for(2).sender


def test_a_visible_sender_while_eights_are_normal():
    game = round_with(("Jd 3h 4s 7c 7s", "Tc Th 9h Ts 6s"), ("2h 3c 4h 5h 7h", "Jh Kh 6h 9c 5s"))
    assert not game.context_for(3).sender  # face down: not visible
    act(game, 2, "declare:Jd:sender")
    assert game.context_for(3).sender and game.context_for(1).sender


def test_death_acts_only_once_visible():
    hidden = round_with(("Kw 3h 4s 7c 7s", "Tc Th 9h Ts 6s"), ("2h 3c 4h 5h 7h", "Jh Kh 6h 9c 5s"))
    assert not hidden.context_for(3).death
    act(hidden, 2, "declare:Kw:death")
    assert hidden.context_for(3).death and DEATH in hidden.up[2]
    face_up = round_with(("2s 3h 4s 7c 7s", "Kw Th 9h Ts 6s"), ("2h 3c 4h 5h 7h", "Jh Kh 6h 9c 5s"))
    assert face_up.context_for(1).death
    assert "Death bars" in face_up.arrange(3).explain()


def test_the_archchancellor_forces_death_and_a_disclosure_from_the_others():
    game = round_with(("Jt 3h 4s 7c 7s", "Tc Th 9h Ts 6s"), ("Kw 3c 4h 5h 7h", "Jh Kh 6h 9c 5s"))
    events = act(game, 2, "declare:Jt:archchancellor")
    assert [(e.data["card"], e.data["forced"]) for e in events if e.kind == "declared"] == [
        ("Jt", False), ("Kw", True)]
    assert DEATH in game.up[3] and game.context_for(1).death
    assert game.current_players() == {1}  # the Dealer must disclose one undisclosed card
    assert {a.kind for a in game.legal_actions(1)} == {"disclose"} and len(game.legal_actions(1)) == 10
    obligation = next(e for e in events if e.kind == "obligation")
    game.apply(1, game.timeout_action(1))
    assert obligation.player == 1 and len(game.up[1]) == 1 and game.current_players() == {2}
    assert game.context_for(2).archchancellor_declared and not game.context_for(2).archchancellor_wild


def test_the_archchancellor_turns_wild_when_nobody_holds_death():
    game = round_with(("Jt 3h 4s 7c 7s", "Tc Th 9h Ts 6s"), ("2h 3c 4h 5h 7h", "Jh Kh 6h 9c 5s"))
    events = act(game, 2, "declare:Jt:archchancellor")
    assert "archchancellor_wild" in kinds(events) and game.tasks == []
    assert game.context_for(2).archchancellor_wild and not game.context_for(3).archchancellor_wild


# ------------------------------------------------------------------ the Fool


def test_the_fool_before_the_showdown_puts_bagels_above_onions():
    bagels = ("Jc Kc Qc Kh Qh", "Tc Th 2o 3o 4o")
    onions = ("Ks As Kd Ad 2h", "3h 5h 6d 7h 9c")
    plain = round_with(bagels, onions)
    finish(plain)
    assert plain.winner == 3
    game = round_with(bagels, onions)
    act(game, 2, "declare:Jc:fool")
    assert all(game.context_for(p).fool for p in P)
    finish(game)
    assert game.winner == 2


# ------------------------------------------------------------------ house rules


def test_modifier_switches_remove_the_declarations():
    game = round_with(("Qs Qo Jt Jc Kw", "Tw Tu 9u To 9o"), WEAK, mod4="off", mod6="off", mod7="off",
                      mod9="off", mod10="off", mod11="off")
    assert game.legal_actions(2) == [Action("done")]
    everything = round_with(("Qs Qo Jt Jc Kw", "Tw Tu 9u To 9o"), WEAK)
    assert {a.arg for a in everything.legal_actions(2)} >= {"lady", "atuin", "elephants", "death",
                                                            "archchancellor", "fool", ""}


WILD = {"carry": {"eights_wild": True}}
RUN_WITH_A_WILD_EIGHT = ("2h 3h 4h 5h 6h", "7h 8s 9h Th 2o")  # 8♠ is wild and fills the run's 8


def test_wild_crippling_needs_no_more_wild_cards_than_the_onion():
    game = round_with(GREATER_ONION, RUN_WITH_A_WILD_EIGHT, **WILD)
    assert game.arrange(3).running_flush.wilds == 1
    finish(game)
    assert game.winner == 2  # the run holds a wild card, the Greater Onion none
    switched_off = round_with(GREATER_ONION, RUN_WITH_A_WILD_EIGHT, mod2="off", **WILD)
    finish(switched_off)
    assert switched_off.winner == 3


def test_the_octavo_switched_off_is_an_ordinary_lesser_onion():
    octavo = ("8c 8s 8h 8d 8w", "8t 8u 8o 2c 3c")
    game = round_with(octavo, WEAK, p1=("2w 3w 4d 5c 9s", "2d 3d 4c 6c 9d"), **WILD)
    assert game.arrange(2).groupings[0].name == "the Octavo (Lesser Onion)"
    off = round_with(octavo, WEAK, p1=("2w 3w 4d 5c 9s", "2d 3d 4c 6c 9d"), mod3="off", **WILD)
    top = off.arrange(2).groupings[0]
    assert top.name == "Lesser Onion" and top.kind == ("Onion", 4)
