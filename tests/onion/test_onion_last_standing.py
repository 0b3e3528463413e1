"""The last player standing takes the Pot at once, in every phase (issue 24), and the
Dealer may fold when offered the extra bets. Stacked packs; rules in docs/rules/onion.md."""

from __future__ import annotations

from onion_round_helpers import act, advance, codes, kinds, new_round

from bot.rules.engine import Action
from cogs.onion.rules import AUCTION, BET, BUY, DECLARE, OFFER

JUNK = {
    1: codes("2c 3s 4h 5d 9c"),
    2: codes("2s 3h 4d 5c 9s"),
    3: codes("2h 3d 4c 5s 9h"),
    4: codes("2d 3c 4s 5h 9d"),
}


def two(**options):
    return new_round([1, 2], 1, {1: JUNK[1], 2: JUNK[2]}, **options)


def three(**options):
    return new_round([1, 2, 3], 1, {p: JUNK[p] for p in (1, 2, 3)}, **options)


def won_at_once(game, winner, events):
    assert game.is_over() and game.winner == winner and game.outcome == "last", kinds(events)
    assert "auction" not in kinds(events) and "all_fold" not in kinds(events)
    assert game.pot == 0 and game.total_chips() == 100 * len(game.players)


def test_two_players_the_dealer_folding_in_the_exchange_leaves_the_elder_the_pot():
    game = two()
    act(game, 2, "discard")
    events = act(game, 1, "fold")
    won_at_once(game, 2, events)
    assert game.chips == {1: 99, 2: 101} and game.carry_out()["dealer"] == 2


def test_three_players_the_elder_then_the_dealer_folding_in_the_exchange():
    game = three()
    act(game, 2, "fold")
    act(game, 3, "discard")
    events = act(game, 1, "fold")
    won_at_once(game, 3, events)
    assert game.chips[3] == 99 + 3


def test_the_dealer_refusing_the_collective_raise_of_the_last_other_player():
    game = three()
    advance(game, BET)
    act(game, 1, "bet::2")
    act(game, 2, "fold")
    act(game, 3, "raise::4")
    events = act(game, 1, "fold")
    won_at_once(game, 3, events)
    # The refused raise came back to its raiser, and the Pot (antes and bets) is theirs.
    assert game.chips == {1: 97, 2: 99, 3: 99 - 2 + (3 + 2 + 2)}


def test_the_dealer_refusing_a_raise_in_the_last_two_parts_heads_up():
    game = two()
    advance(game, BET)
    for _ in range(3):
        act(game, 1, "bet::0")
        act(game, 2, "match")
    act(game, 2, "buy::0")
    act(game, 2, "extra::0")  # nothing to match: the last two parts start at once
    assert game.phase == BET and game.part == 4
    act(game, 1, "bet::1")
    act(game, 2, "raise::3")
    events = act(game, 1, "fold")
    won_at_once(game, 2, events)


def test_the_dealer_leaving_with_one_player_left_gives_that_player_the_pot():
    game = two()
    advance(game, BET)
    act(game, 1, "bet::3")
    events = game.remove_player(1)
    won_at_once(game, 2, events)
    assert game.chips[2] == 99 + 1 + 1 + 3


def test_a_bidder_leaving_the_auction_leaves_the_last_player_the_pot():
    game = three()
    advance(game, BET)
    act(game, 1, "bet::0")
    act(game, 2, "raise::1")
    act(game, 3, "match")
    act(game, 1, "fold")
    assert game.phase == AUCTION
    act(game, 2, "bid::2")
    events = game.remove_player(3)
    won_at_once(game, 2, events)


def _to_offer(game, extras):
    advance(game, BUY)
    for p, extra in extras:
        act(game, p, "buy::0")
        act(game, p, f"extra::{extra}")
    assert game.phase == OFFER


def test_the_dealer_may_fold_on_the_extra_bets_heads_up_the_other_wins_at_once():
    game = two()
    _to_offer(game, [(2, 3)])
    assert Action("fold") in game.legal_actions(1)
    events = act(game, 1, "fold")
    won_at_once(game, 2, events)
    assert game.chips == {1: 99, 2: 101}  # the unmatched extra bet came back


def test_the_dealer_folding_on_the_extra_bets_auctions_the_dealership_then_the_last_two_parts():
    game = three()
    _to_offer(game, [(2, 2), (3, 1)])
    assert [a.code() for a in game.legal_actions(1)] == ["match", "pass", "fold"]
    events = act(game, 1, "fold")
    assert "auction" in kinds(events) and game.phase == AUCTION
    assert game.pending == {1: 0, 2: 0, 3: 0} and game.chips == {1: 99, 2: 99, 3: 99}
    act(game, 2, "bid::1")
    act(game, 3, "decline")
    assert game.dealer == 2 and game.phase == BET and game.part == 4
    assert game.current_players() == {2} and game.total_chips() == 300
    # Passed-on offers do not let a player who is not the Dealer fold.
    game = three()
    _to_offer(game, [(2, 2), (3, 1)])
    act(game, 1, "pass")
    assert Action("fold") not in game.legal_actions(2)


def test_nothing_is_asked_of_the_last_player_in_the_declarations():
    game = two()
    _to_offer(game, [(2, 1)])
    act(game, 1, "match")
    act(game, 1, "bet::1")
    events = act(game, 2, "fold")
    won_at_once(game, 1, events)
    assert game.phase != DECLARE


def test_a_round_on_a_carried_pot_deals_in_a_player_without_the_stake():
    from cogs.onion.rules import OnionGame

    # An all-fold round with a carried Pot: seat 1 has 1 chip, the Stake is 2.
    carry = {"bankrolls": {"1": 1, "2": 40}, "pot": 9, "dealer": 2, "round": 3}
    nxt = OnionGame.new([1, 2], {"stake": 2, "carry": carry}, seed=7)
    assert nxt.out == [] and nxt.pot == 9 and nxt.chips == {1: 1, 2: 40}  # nobody antes
    assert sorted(nxt.live()) == [1, 2]
    # Where an ante is due, a player without the Stake sits out, as before.
    with_ante = OnionGame.new([1, 2, 3], {"stake": 2, "carry": {**carry, "pot": 0, "bankrolls": {"1": 1, "2": 40, "3": 9}}},
                              seed=7)
    assert with_ante.out == [1]


def test_the_carry_of_an_all_fold_round_names_nobody_out():
    game = new_round([1, 2, 3], 1, {p: JUNK[p] for p in (1, 2, 3)}, stake=5,
                     carry={"bankrolls": {"1": 6, "2": 50, "3": 50}})
    advance(game, BET)
    act(game, 1, "bet::0")
    act(game, 2, "raise::5")
    act(game, 3, "match")
    act(game, 1, "fold")
    act(game, 2, "decline")
    act(game, 3, "decline")
    assert game.winner is None and game.chips[1] == 1
    carry = game.carry_out()
    assert carry["pot"] == 15 and carry["out"] == []


def test_the_last_player_standing_in_the_duel_takes_the_pot():
    # Millard's showdown, heads up: the Elder's Double Onion is laid, the Dealer (Death in
    # hand) is asked to answer; the Elder leaves: the Dealer is the last player in.
    game = new_round([1, 2], 1, {1: codes("Kw 2h 2s 4u 5h"), 2: codes("Ac Kd Ah Qh 2u")},
                     second={1: codes("6s As Aw 9c 7c"), 2: codes("Tc Ts 9u 6h 7u")}, showdown="millard")
    advance(game, DECLARE)
    act(game, 2, "done")
    act(game, 1, "done")
    assert game.phase == "duel" and game.current_players() == {1}
    events = game.remove_player(2)
    won_at_once(game, 1, events)
