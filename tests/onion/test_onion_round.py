"""One round of Cripple Mr Onion, step by step, from stacked packs (rules in docs/rules/onion.md)."""

from __future__ import annotations

import pytest
from onion_round_helpers import FULL_PACK, act, advance, all_cards, codes, kinds, lady_round, new_round, stack

from bot.rules.engine import Action, RuleError
from bot.discord_front.publish import final_text
from cogs.onion import render
from cogs.onion.rules import AUCTION, BET, BUY, DECLARE, EXCHANGE, OFFER, OnionGame

P = [1, 2, 3, 4]  # seat order; each player's left is the next one
JUNK = {
    1: codes("2c 3s 4h 5d 9c"),
    2: codes("2s 3h 4d 5c 9s"),
    3: codes("2h 3d 4c 5s 9h"),
    4: codes("2d 3c 4s 5h 9d"),
}


def test_roles_precedence_and_ante():
    game = new_round(P, 3, JUNK)
    assert (game.dealer, game.elder(), game.younger()) == (3, 4, 2)
    assert game.precedence() == [3, 4, 1, 2]
    assert game.pot == 4 and all(game.chips[p] == 99 for p in P)
    assert game.phase == EXCHANGE and game.current_players() == {4}


def test_deal_order_dealer_two_others_three_then_dealer_three_others_two():
    # A pack numbered from the top: who gets which position tells the order.
    pack = codes("Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Kc Qc As 2s 3s 4s 5s 6s 7s 8s")
    game = OnionGame.new(P, {}, deal={"deck": pack, "dealer": 1})
    got = {p: [str(c) for c in game.down[p]] for p in P}
    assert got[1] == ["Ac", "2c", "Qc", "As", "2s"]   # 2 first, then 3 after the others' three
    assert got[2] == ["3c", "4c", "5c", "3s", "4s"]   # Elder: three, then two
    assert got[3] == ["6c", "7c", "8c", "5s", "6s"]
    assert got[4] == ["9c", "Tc", "Kc", "7s", "8s"]   # Younger last each time
    assert stack(P, 1, {p: got[p] for p in P}) == pack


def test_exchange_replaces_from_the_top_and_announces_only_the_count():
    game = new_round(P, 1, JUNK, exchange={2: codes("Kh Ah"), 1: codes("7c 7s 7h 7d")})
    events = act(game, 2, "discard:2s.9s")
    assert sorted(map(str, game.down[2])) == sorted(codes("3h 4d 5c Kh Ah"))
    exch = next(e for e in events if e.kind == "exchange")
    assert exch.visible_to(None) == {"player": 2, "count": 2}
    assert exch.visible_to(2)["cards"] == ["Kh", "Ah"]
    act(game, 3, "discard")
    act(game, 4, "discard")
    assert game.current_players() == {1}  # the Dealer exchanges last
    act(game, 1, "discard:2c.3s.4h.5d")
    assert sorted(map(str, game.down[1])) == sorted(codes("9c 7c 7s 7h 7d"))
    assert game.observation(None)["seats"][1]["exchanged"] == 2
    assert game.phase == BET and game.part == 1 and game.current_players() == {1}


def test_exchange_refuses_five_and_folds_with_fold():
    game = new_round(P, 1, JUNK)
    before = game.to_dict()
    with pytest.raises(RuleError, match="folding"):
        act(game, 2, "discard:2s.3h.4d.5c.9s")
    with pytest.raises(RuleError, match="only discard cards you hold"):
        act(game, 2, "discard:Kw")
    assert game.to_dict() == before
    act(game, 2, "fold")
    assert 2 in game.folded and game.exchanged[2] == 5 and len(game.discard) == 5


def test_everyone_but_the_dealer_folding_gives_the_dealer_the_pot():
    game = new_round(P, 1, JUNK)
    for p in (2, 3, 4):
        act(game, p, "fold")
    assert game.is_over() and game.winner == 1 and game.chips[1] == 99 + 4
    assert game.carry_out()["dealer"] == 1


def _to_betting(game: OnionGame) -> None:
    advance(game, BET)


def test_betting_parts_with_a_collective_raise_the_dealer_matches():
    game = new_round(P, 1, JUNK)
    _to_betting(game)
    act(game, 1, "bet::2")
    act(game, 2, "raise::3")
    act(game, 3, "match")
    act(game, 4, "raise::1")
    assert game.pending == {1: 0, 2: 3, 3: 0, 4: 1}
    obs = game.observation(None)
    assert obs["step"] == "dealer" and obs["owed"] == {"1": 4}
    act(game, 1, "match")
    assert game.pot == 4 + 4 * 2 + 4 + 4 and game.part == 2
    assert game.total_chips() == 400


def test_third_part_allows_no_raising():
    game = new_round(P, 1, JUNK)
    _to_betting(game)
    for _ in range(2):  # parts one and two: zero bets, everyone stays
        act(game, 1, "bet::0")
        for p in (2, 3, 4):
            act(game, p, "match")
    assert game.part == 3
    act(game, 1, "bet::1")
    assert Action("raise", arg="1") not in game.legal_actions(2)
    with pytest.raises(RuleError, match="No raising in the third part"):
        act(game, 2, "raise::1")


def test_bad_amounts_are_refused_with_a_sentence_and_change_nothing():
    game = new_round(P, 1, JUNK, chips=15)
    _to_betting(game)
    before = game.to_dict()
    for code, words in (("bet::11", "at most 10"), ("bet::-1", "negative"), ("bet::lots", "not a number"),
                        ("bid::3", "not possible now")):
        with pytest.raises(RuleError, match=words):
            act(game, 1, code)
        assert game.to_dict() == before
    # Any amount in range, not just the quick buttons.
    assert Action("bet", arg="7") not in game.legal_actions(1)
    act(game, 1, "bet::7")
    assert game.amount == 7
    with pytest.raises(RuleError, match="needs 17 chips; you have 14"):
        act(game, 2, "raise::10")
    with pytest.raises(RuleError, match="at least one Stake"):
        act(game, 2, "raise::0")
    act(game, 2, "raise::5")
    assert game.pending[2] == 5


def test_dealer_refusing_the_collective_raise_starts_the_auction():
    game = new_round(P, 1, JUNK)
    _to_betting(game)
    act(game, 1, "bet::1")
    act(game, 2, "raise::4")
    act(game, 3, "match")
    act(game, 4, "match")
    events = act(game, 1, "fold")
    # The refused raise was only placed near the Pot: it goes back to the raiser.
    assert game.chips[2] == 99 - 1 and game.pending[2] == 0
    assert game.phase == AUCTION and "auction" in kinds(events)
    assert game.current_players() == {2}  # from the Elder
    with pytest.raises(RuleError, match="at least 1 chips"):
        act(game, 2, "bid::0")
    act(game, 2, "bid::1")
    with pytest.raises(RuleError, match="at least 2 chips"):
        act(game, 3, "bid::1")
    act(game, 3, "bid::3")
    act(game, 4, "decline")
    assert game.observation(None)["auction"]["bids"] == {"2": 1, "3": 3}
    act(game, 2, "bid::5")     # round and round: adds 4 to the earlier 1
    assert game.pending[2] == 5
    events = act(game, 3, "decline")  # places its own total bid in the Pot as it declines
    assert game.dealer == 2 and any(e.kind == "new_dealer" for e in events)
    assert game.pot == 4 + 4 + 3 + 5 and game.total_chips() == 400
    # The betting carries on with the next part, the new Dealer naming the amount.
    assert game.phase == BET and game.part == 2 and game.current_players() == {2}
    assert (game.elder(), game.younger()) == (3, 1)
    assert game.order_from_elder() == [3, 4]


def test_nobody_bidding_means_all_fold_and_the_pot_carries_to_the_next_round():
    game = new_round(P, 1, JUNK)
    _to_betting(game)
    act(game, 1, "bet::2")
    act(game, 2, "raise::1")
    act(game, 3, "match")
    act(game, 4, "match")
    act(game, 1, "fold")
    for p in (2, 3, 4):
        act(game, p, "decline")
    assert game.is_over() and game.winner is None and game.pot == 4 + 8
    carry = game.carry_out()
    assert carry["pot"] == 12 and carry["dealer"] == 1
    nxt = OnionGame.new(P, {"carry": carry}, seed=5)
    # The carried Pot is the ante: nobody antes again, the old Dealer stays.
    assert nxt.pot == 12 and nxt.dealer == 1 and nxt.round_no == 2
    assert nxt.chips == {1: 97, 2: 97, 3: 97, 4: 97}
    assert nxt.total_chips() == 400
    # The end is announced as nobody's round, not as a draw; a won round keeps the platform's words.
    assert final_text("Cripple Mr Onion", game, unit="round", render=render) == (
        "🤝 Everybody folded: nobody won the Cripple Mr Onion round. The Pot of 12 chips carries to the next round.")
    won = new_round(P, 1, JUNK)
    for p in (2, 3, 4):
        act(won, p, "fold")
    said = final_text("Cripple Mr Onion", won, unit="round", render=render)
    assert said == "🥇 <@1> won the Cripple Mr Onion round as the last player in. Folded: <@2>, <@3> and <@4>."


def _to_buying(game: OnionGame) -> None:
    advance(game, BUY)


def test_buying_three_cards_deals_them_face_down_and_two_face_up_in_public():
    second = {1: codes("6c 6s 6h 6d 6w"), 2: codes("7c 7s 7h Kh Kd")}
    game = new_round(P, 1, JUNK, second=second)
    _to_buying(game)
    assert [str(c) for c in game.down[1]][-5:] == second[1]
    before = game.to_dict()
    with pytest.raises(RuleError, match="at most five"):
        act(game, 2, "buy::6")
    assert game.to_dict() == before
    events = act(game, 2, "buy::3")
    assert game.chips[2] == 99 - 3
    assert [str(c) for c in game.down[2]][-3:] == ["7c", "7s", "7h"]
    assert [str(c) for c in game.up[2]] == ["Kh", "Kd"]
    ev = next(e for e in events if e.kind == "bought")
    assert ev.visible_to(3) == {"player": 2, "count": 3, "face_up": ["Kh", "Kd"]}
    seat = game.observation(4)["seats"][1]
    assert seat["up"] == ["Kh", "Kd"] and seat["down"] == 8 and seat["bought"] == 3
    assert game.step == "extra" and game.current_players() == {2}


def test_extra_bets_matched_by_the_dealer_lead_to_the_last_two_parts():
    game = new_round(P, 1, JUNK)
    _to_buying(game)
    for p, extra in ((2, 2), (3, 0), (4, 3)):
        act(game, p, "buy::0")
        act(game, p, f"extra::{extra}")
    assert game.phase == OFFER and game.owed(1) == 5
    act(game, 1, "match")
    assert game.pot == 4 + 5 + 5 and game.phase == BET and game.part == 4
    assert game.current_players() == {1}
    act(game, 1, "bet::0")
    assert Action("raise", arg="1") in game.legal_actions(2)
    act(game, 2, "raise::1")  # the last two parts allow raising like the first two
    assert game.pending[2] == 1


def test_passing_the_dealership_around_the_full_circle_folds_everyone():
    game = new_round(P, 1, JUNK)
    _to_buying(game)
    for p, extra in ((2, 2), (3, 1), (4, 3)):
        act(game, p, "buy::0")
        act(game, p, f"extra::{extra}")
    act(game, 1, "pass")
    assert game.current_players() == {2} and game.owed(2) == 4  # the others' extra bets, not its own
    act(game, 2, "pass")
    assert game.owed(3) == 5
    act(game, 3, "pass")
    events = act(game, 4, "pass")
    assert game.is_over() and game.winner is None and "all_fold" in kinds(events)
    carry = game.carry_out()
    assert carry["dealer"] == 1 and carry["pot"] == 4 + 6
    assert sum(carry["bankrolls"].values()) + carry["pot"] == 400


def test_the_elder_taking_the_passed_dealership_loses_its_own_extra_bet():
    game = new_round(P, 1, JUNK)
    _to_buying(game)
    for p, extra in ((2, 2), (3, 1), (4, 3)):
        act(game, p, "buy::0")
        act(game, p, f"extra::{extra}")
    act(game, 1, "pass")
    act(game, 2, "match")
    assert game.dealer == 2 and game.younger() == 1 and game.elder() == 3
    assert game.chips[2] == 99 - 2 - 4 and game.pot == 4 + 6 + 4
    assert game.phase == BET and game.part == 4 and game.current_players() == {2}


def test_a_dealer_who_cannot_afford_the_collective_raise_can_only_fold():
    deck = stack([1, 2], 1, {1: JUNK[1], 2: JUNK[2]})
    carry = {"bankrolls": {"1": 5, "2": 20}}
    game = OnionGame.new([1, 2], {"carry": carry}, deal={"deck": deck, "dealer": 1})
    advance(game, BET)
    act(game, 1, "bet::3")
    act(game, 2, "raise::2")
    assert game.chips[1] == 1 and game.legal_actions(1) == [Action("fold")]
    with pytest.raises(RuleError, match="you can only fold"):
        act(game, 1, "match")


def test_timer_defaults():
    game = new_round(P, 1, JUNK)
    assert game.timeout_action(2) == Action("discard")
    advance(game, BET)
    assert game.timeout_action(1) == Action("bet", arg="0")
    act(game, 1, "bet::2")
    assert game.timeout_action(2) == Action("fold")  # a bet is owed
    act(game, 2, "match")
    act(game, 3, "match")
    act(game, 4, "match")
    act(game, 1, "bet::0")
    assert game.timeout_action(2) == Action("match")  # nothing owed: check
    advance(game, BUY)
    assert game.timeout_action(2) == Action("buy", arg="0")
    advance(game, DECLARE)
    assert game.timeout_action(2) == Action("done")


def test_plain_variant_keeps_deal_exchange_second_deal_and_showdown_without_chips():
    second = {1: codes("6c 6s 6h 6d 6w"), 2: codes("Kh Ah Kd Ad Tc")}
    game = new_round(P, 1, JUNK, exchange={2: ["Qh"]}, second=second, variant="plain")
    assert game.pot == 0 and game.chips == {p: 100 for p in P}
    act(game, 2, "discard:9s")
    for p in (3, 4, 1):
        act(game, p, "discard")
    # No betting, no buying: the second five are face up for all but the Dealer.
    assert game.phase == DECLARE
    assert [str(c) for c in game.up[2]] == second[2]
    assert len(game.down[1]) == 10 and game.up[1] == []
    for p in (2, 3, 4, 1):
        act(game, p, "done")
    assert game.is_over() and game.winner == 2 and game.chips == {p: 100 for p in P}
    assert game.carry_out()["wins"]["2"] == 1 and game.carry_out()["dealer"] == 2
    assert all(all_cards(game)[c] == 1 for c in FULL_PACK)


def test_a_player_leaving_folds_and_a_leaving_dealer_abandons_the_round():
    game = new_round(P, 1, JUNK)
    advance(game, BET)
    act(game, 1, "bet::1")
    game.remove_player(2)
    assert 2 in game.folded and game.current_players() == {3}
    act(game, 3, "raise::2")
    events = game.remove_player(1)
    assert game.is_over() and game.winner is None and "all_fold" in kinds(events)
    assert game.chips[3] == 99 - 1  # its raise came back
    assert game.carry_out()["dealer"] == 3


def test_sessions_without_chips_sit_out_or_rebuy():
    carry = {"bankrolls": {"1": 0, "2": 50, "3": 50}, "dealer": 2, "round": 4}
    game = OnionGame.new([1, 2, 3], {"carry": carry}, seed=1)
    assert game.out == [1] and 1 not in game.current_players() and game.round_no == 5
    assert game.carry_out()["out"] == [1]
    game = OnionGame.new([1, 2, 3], {"carry": carry, "rebuy": "on"}, seed=1)
    assert game.out == [] and game.chips[1] == 99 and game.carry_out()["rebuys"]["1"] == 100
    with pytest.raises(RuleError, match="At least two players"):
        OnionGame.new([1, 2], {"carry": {"bankrolls": {"1": 0, "2": 5}}}, seed=1)


def test_options_are_checked():
    with pytest.raises(RuleError, match="gambling' or 'plain"):
        OnionGame.new(P, {"variant": "poker"}, seed=1)
    with pytest.raises(RuleError, match="whole number"):
        OnionGame.new(P, {"stake": "x"}, seed=1)
    with pytest.raises(RuleError, match="2 to 7 players"):
        OnionGame.new(list(range(8)), {}, seed=1)


def test_discards_may_be_named_in_any_order():
    game = new_round(P, 1, JUNK, exchange={2: codes("Kh Ah")})
    act(game, 2, "discard:9s.2s")
    assert sorted(map(str, game.down[2])) == sorted(codes("3h 4d 5c Kh Ah"))


def test_a_leaving_top_bidder_s_bid_stays_in_the_pot():
    game = new_round(P, 1, JUNK)
    advance(game, BET)
    act(game, 1, "bet::0")
    act(game, 2, "raise::1")
    act(game, 3, "match")
    act(game, 4, "match")
    act(game, 1, "fold")
    act(game, 2, "bid::2")
    act(game, 3, "decline")
    act(game, 4, "bid::3")
    game.remove_player(4)
    # Seat 2 is the only bidder left: it becomes Dealer; both bids are in the Pot.
    assert game.dealer == 2 and game.pot == 4 + 3 + 2 and game.bids == {2: 2}
    assert game.phase == BET and game.part == 2 and game.current_players() == {2}


@pytest.mark.parametrize("leavers, outcome", [([1], "abandoned"), ([3, 1], "last")])
def test_a_round_ending_while_the_lady_s_choice_waits_discards_the_offered_cards(leavers, outcome):
    """Regression: the round ended (the Dealer left, or the last opponent) while Bob was
    choosing the Lady's replacement, and the two cards offered to him vanished from the pack
    (the property test once reported 2 cards lost). They go to the discard pot, unchosen."""
    game = lady_round()  # Dealer 1; Bob (2) holds Q♠; Ad and Kc are next on the deck
    act(game, 2, "declare:Qs:lady")
    assert game.current_players() == {2} and game.tasks[0]["cards"] == ["Ad", "Kc"]
    game = OnionGame.from_json(game.to_json())  # a restart while the choice waits
    for p in leavers:
        game.remove_player(p)
        assert all_cards(game) == FULL_PACK
    assert game.is_over() and game.outcome == outcome and game.tasks == []
    assert set(codes("Ad Kc")) <= {str(c) for c in game.discard}
    assert not {"Ad", "Kc"} & {str(c) for c in game.hand(2)} and [str(c) for c in game.aside[2]] == ["Qs"]


def test_a_player_away_for_a_round_keeps_their_bankroll_in_the_session():
    carry = {"bankrolls": {"1": 50, "2": 120, "3": 90, "4": 140}, "wins": {"4": 2}, "dealer": 1, "round": 2}
    game = OnionGame.new([1, 2, 3], {"carry": carry}, seed=3)  # seat 4 sits this round out
    for p in (2, 3):
        act(game, p, "fold")
    out = game.carry_out()
    assert out["bankrolls"]["4"] == 140 and out["wins"]["4"] == 2
    back = OnionGame.new([1, 2, 3, 4], {"carry": out}, seed=4)
    assert back.chips[4] == 139 and back.round_no == 4
