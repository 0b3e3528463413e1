"""Blackjack rules: setup, each power card, turn steps, reshuffles, house rules, platform hooks."""

from __future__ import annotations

from collections import Counter

import pytest
from bj_helpers import codes, hand, kinds, play, stacked

from bot.rules.cards import card_counter, parse_cards, standard_deck
from bot.rules.engine import Action, GameOver, IllegalAction, NotYourTurn, RuleError, UnknownPlayer
from cogs.blackjack.rules import HOUSE_RULES, BlackjackGame

# ----------------------------------------------------------------- setup


@pytest.mark.parametrize("count", [2, 3, 7, 10])
def test_new_deals_the_whole_deck_round_robin(count):
    players = list(range(100, 100 + count))
    game = BlackjackGame.new(players, {}, seed=42)
    sizes = [len(game.hands[p]) for p in players]
    assert sum(sizes) == 52 and max(sizes) - min(sizes) <= 1
    assert sizes == sorted(sizes, reverse=True)  # dealing starts at the first seat
    assert game.deck == [] and game.discard == [] and game.pickup == 0 and game.offset == 1
    assert card_counter(game.hands.values()) == Counter(standard_deck())
    assert game.current_players() <= set(players) and len(game.current_players()) == 1


def test_two_players_get_26_each_and_the_first_player_depends_on_the_seed():
    firsts = {next(iter(BlackjackGame.new([1, 2, 3, 4], {}, seed=s).current_players())) for s in range(40)}
    assert len(firsts) > 1
    game = BlackjackGame.new([1, 2], {}, seed="abc")
    assert [len(h) for h in game.hands.values()] == [26, 26]
    assert game.to_dict() == BlackjackGame.new([1, 2], {}, seed="abc").to_dict()


@pytest.mark.parametrize("players", [[1], list(range(11)), [1, 1]])
def test_player_count_is_checked(players):
    with pytest.raises(RuleError):
        BlackjackGame.new(players, {}, seed=1)


def test_seed_or_deal_exactly_one():
    with pytest.raises(RuleError):
        BlackjackGame.new([1, 2], {})
    with pytest.raises(RuleError):
        BlackjackGame.new([1, 2], {}, seed=1, deal={"hands": {}})


def test_house_rules_declared_with_defaults_and_unknown_values_fall_back():
    assert {r.key: r.default for r in HOUSE_RULES} == {"pickup_shortfall": "cap", "voluntary_draw": "no"}
    game = BlackjackGame.new([1, 2], {"pickup_shortfall": "bogus", "voluntary_draw": "yes"}, seed=1)
    assert game.options == {"pickup_shortfall": "cap", "voluntary_draw": "yes"}


# ----------------------------------------------------------------- matching and step 5


def test_step_5_only_accepts_the_same_value():
    game = stacked({1: ["9h", "4h", "9s"], 2: ["Kc"]})
    play(game, 1, "9h")
    assert codes(game.legal_actions(1)) == ["play:9s", "end"]
    with pytest.raises(IllegalAction) as refused:
        game.apply(1, Action.play("4h"))
    assert str(refused.value) == "After 9♥ you may only add more 9s this turn, or end your turn."


def test_a_same_value_card_after_a_forced_step_4_may_end_the_turn():
    # 9h 9c, then 9d can count as a fresh step-4 card (end allowed) or as a third
    # step-5 card (then a matching card must follow): the player may do either.
    game = stacked({1: ["9h", "9c", "9d", "5d", "Kh"], 2: ["Kc"]})
    play(game, 1, "9h", "9c", "9d")
    assert game.observation(1)["phase"] == "free"
    assert codes(game.legal_actions(1)) == ["play:5d", "end"]
    play(game, 1, "end")
    assert hand(game, 1) == {"5d", "Kh"}
    assert game.current_players() == {2}


def test_pickup_cards_can_be_continued_from_and_the_continuation_wipes_the_pickup():
    game = stacked({1: ["Jh", "Jc", "5c", "Kd"], 2: ["Kc"]})
    play(game, 1, "Jh", "Jc")
    assert game.pickup == 8
    events = play(game, 1, "5c")  # "goto step 4 if you wish": a non-2/J card resets pickup
    assert events[0].data == {"card": "5c", "cancelled": 8, "pickup": 0}
    assert game.pickup == 0
    assert game.current_players() == {2}  # no more 5s: the turn ended by itself



def test_first_card_on_a_pickup_must_be_an_ace_or_a_matching_2_or_jack():
    game = stacked({1: ["2h", "2c", "Jd", "Ad", "5h", "Js"], 2: ["Kc"]}, discard=["9c", "Jh"], pickup=3)
    # 2♣ neither matches J♥ by suit nor by value, so it cannot stop the pickup.
    assert codes(game.legal_actions(1)) == ["play:Ad", "play:Jd", "play:2h", "play:Js", "draw"]
    with pytest.raises(IllegalAction) as refused:
        game.apply(1, Action.play("5h"))
    assert str(refused.value) == (
        "There are 3 cards to pick up: only an Ace, or a 2 or Jack that matches J♥, avoids them. "
        "Otherwise take the pickup with Draw."
    )


def test_two_adds_two_and_stacks_on_a_matching_jack():
    game = stacked({1: ["2h", "2s", "4c"], 2: ["Kc"]}, discard=["Jh"], pickup=3)
    play(game, 1, "2h")
    assert game.pickup == 5
    assert codes(game.legal_actions(1)) == ["play:2s", "end"]
    play(game, 1, "2s")  # last card a 2 and 4♣ does not match: the turn ends by itself
    assert game.pickup == 7
    assert game.current_players() == {2}


def test_jack_values_red_three_black_five():
    game = stacked({1: ["Jd", "Js", "Jh", "Jc", "9d"], 2: ["Kc"]})
    play(game, 1, "Jd", "Js", "Jh", "Jc")
    assert game.pickup == 3 + 5 + 3 + 5


def test_ace_can_be_played_on_anything_mid_turn_and_names_the_suit():
    game = stacked({1: ["3h", "As", "7c", "Kd"], 2: ["Kc"]}, discard=["5h"])
    play(game, 1, "3h")
    assert codes(game.legal_actions(1)) == ["play:As"]
    play(game, 1, "As")
    with pytest.raises(IllegalAction) as refused:
        game.apply(1, Action("end"))
    assert str(refused.value) == "Name a suit for your Ace first."
    play(game, 1, "suit::c")
    assert game.current_players() == {2}  # no other Ace: turn over
    assert game.observation(None)["suit"] == "c"


def test_three_must_be_followed_else_draw_one():
    game = stacked({1: ["3h", "9c", "Kd"], 2: ["Kc"]}, deck=["4s"], discard=["3d"])
    events = play(game, 1, "3h")
    assert [e.data.get("reason") for e in events if e.kind == "draw"] == ["cannot_play"]
    assert hand(game, 1) == {"9c", "Kd", "4s"}
    assert game.current_players() == {2}


def test_queen_allows_any_card():
    game = stacked({1: ["Qh", "5c", "6d"], 2: ["Kc"]}, discard=["9h"])
    play(game, 1, "Qh")
    assert game.observation(1)["phase"] == "any_card"
    assert codes(game.legal_actions(1)) == ["play:5c", "play:6d"]
    play(game, 1, "5c")
    assert game.current_players() == {2}


def test_queen_then_nothing_left_draws_one():
    game = stacked({1: ["Qh"], 2: ["Kc"]}, deck=["4s"], discard=["9h"])
    play(game, 1, "Qh")
    assert hand(game, 1) == {"4s"}
    assert game.winner is None and game.current_players() == {2}


def test_eight_skips_a_player_and_offset_resets_next_turn():
    game = stacked({1: ["8h", "4c"], 2: ["Kc"], 3: ["8c", "4d"], 4: ["5s"]}, discard=["9h"])
    events = play(game, 1, "8h")
    assert ("skip", {"offset": 2}) in [(e.kind, dict(e.data)) for e in events]
    assert game.current_players() == {3}
    assert game.offset == 1  # step 1 of player 3's turn


def test_two_eights_skip_two_and_wrap_round():
    game = stacked({1: ["8h", "8d", "4d", "5s"], 2: ["Kc"], 3: ["4c"]}, discard=["9h"])
    play(game, 1, "8h", "8d", "4d")  # offset 3 in a 3-player game lands on player 1 again
    assert game.current_players() == {1}
    assert game.observation(1)["phase"] == "start"


def test_eight_with_two_players_gives_another_turn():
    game = stacked({1: ["8h", "4c"], 2: ["Kc"]}, discard=["9h"])
    play(game, 1, "8h")
    assert game.current_players() == {1}


def test_king_reverses_and_the_direction_persists():
    game = stacked({1: ["5h", "5c"], 2: ["Kh", "9c"], 3: ["6h", "7d"], 4: ["5s", "6s"]}, discard=["9h"], first=2)
    events = play(game, 2, "Kh")
    assert ("reverse", {"direction": -1}) in [(e.kind, dict(e.data)) for e in events]
    assert game.current_players() == {1}
    assert game.observation(None)["direction"] == -1
    play(game, 1, "5h", "end")
    assert game.current_players() == {4}  # still counting to the right


def test_two_kings_cancel_out():
    game = stacked({1: ["Kh", "Kc", "2c"], 2: ["5d"], 3: ["6d"]}, discard=["9h"])
    play(game, 1, "Kh", "Kc", "2c")
    assert game.current_players() == {2}


# ----------------------------------------------------------------- step 8: winning


def test_last_card_not_a_power_card_wins():
    game = stacked({1: ["9h"], 2: ["Kc", "2d"], 3: ["4c"]}, discard=["5h"])
    events = play(game, 1, "9h")
    assert kinds(events)[-2:] == ["won", "game_over"]
    assert game.is_over() and game.winner == 1 and game.current_players() == frozenset()
    assert game.placements() == [[1], [3], [2]]
    assert events[-1].data == {"winner": 1, "placements": [[1], [3], [2]]}
    assert game.legal_actions(2) == []
    with pytest.raises(GameOver):
        game.apply(2, Action("draw"))


def test_placements_group_ties():
    game = stacked({1: ["9h"], 2: ["Kc", "2d"], 3: ["4c", "5c"]}, discard=["5h"])
    play(game, 1, "9h")
    assert game.placements() == [[1], [2, 3]]


@pytest.mark.parametrize("last", ["Ah", "2h", "3h", "8h", "Jh", "Qh", "Kh"])
def test_power_card_as_last_card_draws_one(last):
    game = stacked({1: [last], 2: ["Kc", "2d"]}, discard=["5h"], deck=["6c"])
    events = play(game, 1, last)
    if last == "Ah":
        events += play(game, 1, "suit::s")
    assert not game.is_over()
    if last in ("3h", "Qh"):
        # 3 and Queen send you back to step 4: you cannot play, so step 4's draw happens.
        assert [e.data["reason"] for e in events if e.kind == "draw"] == ["cannot_play"]
    else:
        assert [e.data["reason"] for e in events if e.kind == "draw"] == ["power_last"]
    assert hand(game, 1) == {"6c"}


def test_pair_of_plain_cards_as_last_cards_does_not_win():
    # Same as example 6: 9h 9c sends you back to step 4, you cannot play, so draw one.
    game = stacked({1: ["9h", "9c"], 2: ["Kh"]}, deck=["4s"])
    play(game, 1, "9h", "9c")
    assert not game.is_over() and hand(game, 1) == {"4s"}


def test_odd_run_of_plain_cards_as_last_cards_wins():
    game = stacked({1: ["9h", "9c", "9d"], 2: ["Kh"]})
    play(game, 1, "9h", "9c", "9d")
    assert game.winner == 1


# ----------------------------------------------------------------- drawing and the deck


def test_reshuffle_keeps_the_top_card_and_is_seeded():
    def run(seed):
        game = stacked({1: ["5d"], 2: ["Kc"]}, discard=["2c", "3c", "4c", "5c", "7s"], seed=seed)
        return game, play(game, 1, "draw")

    game, events = run(9)
    assert [str(c) for c in game.discard] == ["7s"]
    assert next(e for e in events if e.kind == "reshuffle").data == {"cards": 4, "number": 1}
    assert len(game.deck) == 3 and len(game.hands[1]) == 2
    assert card_counter([game.deck, game.hands[1]]) == Counter(parse_cards("5d 2c 3c 4c 5c"))
    assert run(9)[0].to_dict() == game.to_dict()
    decks = {tuple(map(str, run(seed)[0].deck)) for seed in range(8)}
    assert len(decks) > 1  # the order really comes from the seed


def test_cap_rule_takes_what_exists_and_forgives_the_rest():
    game = stacked({1: ["5d"], 2: ["Kc"]}, discard=["4c", "Jh"], deck=["6s"], pickup=5)
    events = play(game, 1, "draw")
    assert next(e for e in events if e.kind == "pickup_taken").data == {"count": 5, "drawn": 2}
    draw = next(e for e in events if e.kind == "draw")
    assert draw.visible_to(None) == {"count": 2, "reason": "pickup", "short": 3}
    assert game.debts == {1: 0, 2: 0}
    assert game.observation(None)["seats"][0] == {"player": 1, "cards": 3, "debt": 0}


def test_debt_rule_owes_the_rest_and_pays_it_as_cards_come_back():
    game = stacked(
        {1: ["5d", "9d"], 2: ["Kh", "5h", "7c"], 3: ["Ks"]},
        discard=["4c", "Jh"],
        deck=["6s"],
        pickup=5,
        options={"pickup_shortfall": "debt"},
    )
    play(game, 1, "draw")
    assert game.debts[1] == 3
    assert game.observation(2)["seats"][0] == {"player": 1, "cards": 4, "debt": 3}
    # Player 2's King goes on the J♥: at the end of that turn one card (the J♥ under
    # the King) is available again, and player 1's debt takes it.
    events = play(game, 2, "Kh")
    debt_draws = [e for e in events if e.kind == "draw" and e.data["reason"] == "debt"]
    assert [(e.player, e.data["cards"]) for e in debt_draws] == [(1, ["Jh"])]
    assert game.debts[1] == 2
    assert len(game.hands[1]) == 5
    assert game.current_players() == {1}  # the King reversed play


def test_debt_rule_a_player_who_owes_cards_has_not_won():
    game = stacked({1: ["9h"], 2: ["Kc"]}, discard=["5h"], debts={1: 2}, options={"pickup_shortfall": "debt"})
    play(game, 1, "9h")
    assert not game.is_over()
    assert hand(game, 1) == {"5h"} and game.debts[1] == 1
    assert game.current_players() == {2}


def test_cap_rule_a_player_left_with_no_cards_wins_at_step_8_of_a_later_turn():
    # The edge the cap rule allows: a Power Card was the last card but nothing was
    # left to draw, so the player sits on 0 cards; next turn they play nothing.
    game = stacked({1: ["Kh"], 2: ["5c", "6c"]})
    events = play(game, 1, "Kh")
    assert next(e for e in events if e.kind == "draw").data == {"count": 0, "reason": "power_last", "short": 1, "cards": []}
    assert hand(game, 1) == set() and not game.is_over()
    play(game, 2, "draw")  # nothing matches K♥, and nothing can be drawn either
    assert hand(game, 2) == {"5c", "6c"}
    assert codes(game.legal_actions(1)) == ["draw"]
    play(game, 1, "draw")
    assert game.winner == 1


# ----------------------------------------------------------------- voluntary draws


def test_without_voluntary_draw_a_player_who_can_play_may_not_draw():
    game = stacked({1: ["9h", "5c"], 2: ["Kc"]}, discard=["7h"], deck=["2s"])
    assert "draw" not in codes(game.legal_actions(1))
    with pytest.raises(IllegalAction) as refused:
        game.apply(1, Action("draw"))
    assert str(refused.value) == (
        "You can play a card (for example 9♥), so you may not draw: at this table you draw only when you cannot play."
    )


def test_with_voluntary_draw_a_player_may_draw_instead_of_playing():
    game = stacked({1: ["9h", "5c"], 2: ["Kc"]}, discard=["7h"], deck=["2s"], options={"voluntary_draw": "yes"})
    assert codes(game.legal_actions(1)) == ["play:9h", "draw"]
    events = play(game, 1, "draw")
    assert next(e for e in events if e.kind == "draw").data["reason"] == "voluntary"
    assert hand(game, 1) == {"9h", "5c", "2s"} and game.current_players() == {2}


# ----------------------------------------------------------------- refusals leave the state alone

UNKNOWN_KIND = "Blackjack has no 'dance' action: play a card, draw, end your turn, or name a suit after an Ace."


@pytest.mark.parametrize(
    ("player", "code", "error", "message"),
    [
        (2, "play:Kc", NotYourTurn, "It is not your turn yet: wait for the player whose turn it is."),
        (9, "draw", UnknownPlayer, "You are not playing in this game."),
        (1, "play:Kc", IllegalAction, "You don't have K♣."),
        (1, "end", IllegalAction, "You haven't played yet: play a card or draw."),
        (1, "suit::h", IllegalAction, "There is no Ace waiting for a suit."),
        (1, "dance", IllegalAction, UNKNOWN_KIND),
        (1, "play:9h.9c", IllegalAction, "Play one card at a time."),
    ],
)
def test_refused_actions_explain_and_change_nothing(player, code, error, message):
    game = stacked({1: ["9h", "9c", "5c"], 2: ["Kc"]}, discard=["7h"], deck=["2s"])
    before = game.to_json()
    with pytest.raises(error) as refused:
        game.apply(player, Action.parse(code))
    assert str(refused.value) == message
    assert game.to_json() == before


def test_chosen_suit_is_named_in_the_mismatch_message():
    game = stacked({1: ["9c"], 2: ["Kc"]}, discard=["Ah"], chosen_suit="s")
    with pytest.raises(IllegalAction) as refused:
        game.apply(1, Action.play("9c"))
    assert str(refused.value) == "9♣ does not match the A♥ (spades named) on the pile: play a spade or an Ace."


def test_ending_is_refused_with_the_reason():
    game = stacked({1: ["3h", "9h", "9c", "4c", "5s"], 2: ["Kc"]}, discard=["7h"])
    play(game, 1, "3h")
    with pytest.raises(IllegalAction, match="You played a 3, so you must play another card"):
        game.apply(1, Action("end"))
    play(game, 1, "9h", "9c")
    with pytest.raises(IllegalAction, match="You played more than one 9 in a row"):
        game.apply(1, Action("end"))


# ----------------------------------------------------------------- platform hooks


def test_timeout_takes_a_pending_pickup():
    game = stacked({1: ["Ad", "5d"], 2: ["Kc"]}, discard=["9h", "Jh"], deck=["2s", "3s", "4s"], pickup=3)
    assert game.timeout_action(1) == Action("draw")
    game.apply(1, game.timeout_action(1))
    assert len(game.hands[1]) == 5 and game.current_players() == {2}


def test_timeout_names_the_suit_held_most():
    game = stacked({1: ["Ad", "5d", "6d", "7s", "As"], 2: ["Kc"]}, discard=["9h"])
    play(game, 1, "Ad")
    assert game.timeout_action(1) == Action("suit", arg="d")
    assert game.timeout_action(2) == Action("draw")  # not their turn: a harmless value, no exception
    game.apply(1, game.timeout_action(1))
    assert game.observation(None)["suit"] == "d"


def test_timeout_draws_even_when_a_play_was_possible():
    game = stacked({1: ["9h", "9c", "5s"], 2: ["Kc"]}, discard=["7h"], deck=["2s"])
    timeout = game.timeout_action(1)
    assert timeout == Action("draw", arg="timeout") and timeout not in game.legal_actions(1)
    events = game.apply(1, timeout)
    assert next(e for e in events if e.kind == "draw").data["reason"] == "timeout"
    assert game.current_players() == {2} and hand(game, 1) == {"9h", "9c", "5s", "2s"}
    with pytest.raises(NotYourTurn):
        game.apply(1, Action("draw", arg="timeout"))


def test_the_timers_forced_draw_is_refused_where_it_is_not_the_timers_move():
    # Under voluntary draws the timer's move is the ordinary draw, so a forged
    # "draw::timeout" (the code a custom_id could carry) is refused like any other.
    game = stacked({1: ["9h", "9c", "5s"], 2: ["Kc"]}, discard=["7h"], deck=["2s"], options={"voluntary_draw": "yes"})
    assert game.timeout_action(1) == Action("draw")
    before = game.to_json()
    with pytest.raises(IllegalAction):
        game.apply(1, Action("draw", arg="timeout"))
    assert game.to_json() == before


@pytest.mark.parametrize("code", ["draw::x", "draw:5c", "draw:5c:timeout"])
def test_a_draw_with_an_unknown_argument_or_a_card_is_refused_with_a_sentence(code):
    # No draw of this game names a card or an argument other than the timer's
    # "timeout"; with no card to play their refusal once took an example from an
    # empty list (IndexError).
    game = stacked({1: ["5c"], 2: ["Kc"]}, discard=["7h"], deck=["2s"])
    before = game.to_json()
    with pytest.raises(IllegalAction) as refused:
        game.apply(1, Action.parse(code))
    assert str(refused.value) == f"You cannot do that now ({code})."
    assert game.to_json() == before


def test_timeout_ends_when_ending_is_allowed():
    game = stacked({1: ["9h", "9c"], 2: ["Kc"]}, discard=["7h"])
    play(game, 1, "9h")
    assert game.timeout_action(1) == Action("end")
    game.apply(1, game.timeout_action(1))
    assert game.current_players() == {2}


def test_removing_a_waiting_player_returns_their_cards_to_the_bottom_of_the_deck():
    game = stacked({1: ["9h"], 2: ["Kc", "5c"], 3: ["4h"]}, discard=["7h"], deck=["2s"])
    events = game.remove_player(2)
    assert kinds(events) == ["player_removed"] and events[0].data == {"player": 2, "cards": 2}
    assert [str(c) for c in game.deck] == ["Kc", "5c", "2s"]
    assert game.players == [1, 3] and game.current_players() == {1}
    play(game, 1, "9h")
    assert game.winner == 1


@pytest.mark.parametrize(("offset", "expected"), [(1, 3), (-1, 1), (2, 4), (-2, 4), (3, 1)])
def test_removing_the_current_player_passes_the_turn_by_the_offset(offset, expected):
    game = stacked({1: ["4c"], 2: ["8h", "9h", "5c"], 3: ["4d"], 4: ["4s"]}, discard=["7h"], first=2, offset=offset)
    events = game.remove_player(2)
    assert kinds(events) == ["player_removed", "turn"]
    assert game.current_players() == {expected}
    assert game.observation(None)["phase"] == "start"


def test_removing_the_current_player_mid_turn_keeps_their_played_pickup():
    game = stacked({1: ["Jh", "Jd", "9c"], 2: ["4h"], 3: ["4c"]}, discard=["7h"], pickup=2)
    play(game, 1, "Jh")
    game.remove_player(1)
    assert game.pickup == 5 and game.current_players() == {2}
    assert len(game.deck) == 2


def test_a_pickup_faced_by_a_leaving_player_leaves_with_them():
    game = stacked({1: ["Jh"], 2: ["4h"], 3: ["4c"]}, discard=["7h"], pickup=3)
    game.remove_player(1)
    assert game.pickup == 0 and game.current_players() == {2}


def test_removing_a_player_during_a_suit_choice_leaves_the_ace_its_own_suit():
    game = stacked({1: ["Ac", "9c"], 2: ["4h"], 3: ["4c"]}, discard=["7h"])
    play(game, 1, "Ac")
    game.remove_player(1)
    assert game.observation(None)["suit"] == "c"
    assert codes(game.legal_actions(2)) == ["draw"]


def test_last_player_standing_wins():
    game = stacked({1: ["9h"], 2: ["Kc", "5c"]}, discard=["7h"])
    events = game.remove_player(1)
    assert kinds(events) == ["player_removed", "won", "game_over"]
    assert game.winner == 2 and game.placements() == [[2]]
    assert game.remove_player(7) == []


def test_observation_shows_own_hand_and_public_facts_only():
    game = stacked({1: ["9h", "2c", "Ks"], 2: ["Kc", "5c"]}, discard=["7h"], deck=["2s", "3d"], pickup=2)
    mine = game.observation(1)
    assert mine["hand"] == ["2c", "9h", "Ks"]  # clubs, diamonds, hearts, spades
    assert mine["seats"] == [{"player": 1, "cards": 3, "debt": 0}, {"player": 2, "cards": 2, "debt": 0}]
    assert (mine["top"], mine["suit"], mine["pickup"], mine["deck_size"], mine["discard_size"]) == ("7h", "h", 2, 2, 1)
    assert mine["current"] == [1] and mine["phase"] == "start" and mine["winner"] is None
    spectator = game.observation(None)
    assert "hand" not in spectator and spectator["viewer"] is None
    public_part = {k: v for k, v in mine.items() if k not in ("hand", "viewer")}
    assert public_part == {k: v for k, v in spectator.items() if k != "viewer"}


def test_json_round_trip_mid_turn_keeps_behaviour():
    game = stacked({1: ["9h", "9c", "4c", "Ac"], 2: ["Kc", "4d"]}, deck=["2s", "3d"])
    play(game, 1, "9h", "9c", "Ac")
    copy = BlackjackGame.from_json(game.to_json())
    assert copy.to_dict() == game.to_dict()
    assert codes(copy.legal_actions(1)) == codes(game.legal_actions(1))
    assert [e.kind for e in copy.apply(1, Action("suit", arg="d"))] == [e.kind for e in game.apply(1, Action("suit", arg="d"))]
    assert copy.to_dict() == game.to_dict()
