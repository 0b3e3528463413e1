"""The seed text's Examples 1 to 9, each played move by move from a stacked deal."""

from __future__ import annotations

import pytest
from bj_helpers import codes, hand, kinds, play, stacked

from bot.rules.engine import Action, IllegalAction

# ----------------------------------------------------------------- first-turn examples
# "If I'm playing first in a game (i.e. discard is empty) ... simple turns which do not
# result in the player having to pick up any extra cards themselves."


def test_example_1_single_card_is_a_whole_turn():
    game = stacked({1: ["9h", "5d"], 2: ["Kc", "Qc"]})
    assert game.observation(1)["phase"] == "start"
    assert "play:5d" in codes(game.legal_actions(1))  # empty discard: any card may be played
    events = play(game, 1, "9h")
    # No other 9 to add, so the turn ends by itself: no draw, next player's turn.
    assert "draw" not in kinds(events)
    assert hand(game, 1) == {"5d"}
    assert game.current_players() == {2}
    assert [str(c) for c in game.discard] == ["9h"]
    assert game.pickup == 0


def test_example_1_player_may_stop_even_holding_more_of_the_value():
    game = stacked({1: ["9h", "9c"], 2: ["Kc"]})
    play(game, 1, "9h")
    assert codes(game.legal_actions(1)) == ["play:9c", "end"]
    play(game, 1, "end")
    assert hand(game, 1) == {"9c"}
    assert game.current_players() == {2}


def test_example_2_chained_pair_then_a_matching_card():
    game = stacked({1: ["9h", "9c", "4c", "Kd"], 2: ["5s"]})
    play(game, 1, "9h", "9c")
    # Step 6: cards were played at step 5, so back to step 4: no stopping here.
    assert game.observation(1)["phase"] == "must_play"
    assert codes(game.legal_actions(1)) == ["play:4c"]
    with pytest.raises(IllegalAction):
        game.apply(1, Action("end"))
    events = play(game, 1, "4c")
    assert "draw" not in kinds(events)
    assert hand(game, 1) == {"Kd"}
    assert game.current_players() == {2}
    assert [str(c) for c in game.discard] == ["9h", "9c", "4c"]


def test_example_3_three_forces_another_card():
    game = stacked({1: ["9h", "9c", "3c", "4c", "Kd"], 2: ["5s"]})
    play(game, 1, "9h", "9c", "3c")
    assert game.observation(1)["phase"] == "must_play"
    assert codes(game.legal_actions(1)) == ["play:4c"]
    events = play(game, 1, "4c")
    assert "draw" not in kinds(events)
    assert hand(game, 1) == {"Kd"}
    assert game.current_players() == {2}


def test_example_4_jacks_need_no_capping_off():
    game = stacked({1: ["Js", "Jc", "Jh", "5h"], 2: ["5s"]})
    play(game, 1, "Js", "Jc", "Jh")
    # Last card is a Jack: the player may end (step 6's "unless") or go on (5h matches).
    assert codes(game.legal_actions(1)) == ["play:5h", "end"]
    events = play(game, 1, "end")
    assert "draw" not in kinds(events)
    assert hand(game, 1) == {"5h"}
    assert game.pickup == 5 + 5 + 3
    assert game.current_players() == {2}


# ----------------------------------------------------------------- must pick up one card


def test_example_5_cannot_play_so_draw_one():
    # No 7, no spade, no Ace: "If you cannot play, then draw one card ... proceed to step 7".
    game = stacked({1: ["9h", "5d"], 2: ["Kc"]}, deck=["Qc", "2d"], discard=["7s"])
    assert codes(game.legal_actions(1)) == ["draw"]
    with pytest.raises(IllegalAction) as refused:
        game.apply(1, Action.play("9h"))
    assert str(refused.value) == "9♥ does not match the 7♠ on the pile: play a 7 or a spade, or an Ace."
    events = play(game, 1, "draw")
    draw = next(e for e in events if e.kind == "draw")
    assert draw.data["cards"] == ["2d"]  # the top of the deck (last in the list)
    assert draw.visible_to(None) == {"count": 1, "reason": "cannot_play", "short": 0}
    assert hand(game, 1) == {"9h", "5d", "2d"}
    assert game.current_players() == {2}


def test_example_5_on_the_first_turn_you_always_can_play_so_no_draw():
    game = stacked({1: ["9h"], 2: ["Kc"]})
    assert "draw" not in codes(game.legal_actions(1))


def test_example_6_pair_without_follow_up_draws_one():
    game = stacked({1: ["9h", "9c", "5d"], 2: ["Kh"]}, deck=["Qs"])
    events = play(game, 1, "9h", "9c")
    # Back at step 4 with nothing matching 9♣: the forced draw happens by itself.
    draw = next(e for e in events if e.kind == "draw")
    assert draw.data == {"count": 1, "reason": "cannot_play", "short": 0, "cards": ["Qs"]}
    assert hand(game, 1) == {"5d", "Qs"}
    assert game.current_players() == {2}
    assert [str(c) for c in game.discard] == ["9h", "9c"]


# ----------------------------------------------------------------- after `9c 9h Jh`


def after_9c_9h_jh(hand_of_2: list[str], deck: list[str] | None = None):
    """Player 1 plays the seed's previous turn `9c 9h Jh`; player 2 is next."""
    game = stacked(
        {1: ["9c", "9h", "Jh", "4d"], 2: hand_of_2, 3: ["Kd", "6c"]},
        deck=deck or ["5s", "6s", "7s", "8s"],
    )
    play(game, 1, "9c", "9h", "Jh")  # Jh matches 9h; no other Jack, so the turn ends
    assert game.pickup == 3
    assert str(game.top_card()) == "Jh"
    assert game.current_players() == {2}
    return game


def test_example_7_nothing_to_cancel_the_pickup():
    game = after_9c_9h_jh(["5c", "7d", "2c"])  # 2c does not match J♥: no escape
    assert codes(game.legal_actions(2)) == ["draw"]
    events = play(game, 2, "draw")
    assert kinds(events)[:2] == ["draw", "pickup_taken"]
    assert events[1].data == {"count": 3, "drawn": 3}
    assert hand(game, 2) == {"5c", "7d", "2c", "8s", "7s", "6s"}
    assert game.pickup == 0
    assert game.current_players() == {3}
    assert str(game.top_card()) == "Jh"


def test_example_8_ace_cancels_pickup_and_names_a_suit():
    game = after_9c_9h_jh(["Ac", "5d"])
    assert codes(game.legal_actions(2)) == ["play:Ac", "draw"]
    events = play(game, 2, "Ac")
    assert events[0].data == {"card": "Ac", "cancelled": 3, "pickup": 0}
    assert game.pickup == 0
    assert game.observation(2)["phase"] == "suit"
    assert codes(game.legal_actions(2)) == ["suit::c", "suit::d", "suit::h", "suit::s"]
    play(game, 2, "suit::d")
    assert hand(game, 2) == {"5d"}
    assert game.current_players() == {3}
    obs = game.observation(3)
    assert (obs["top"], obs["suit"], obs["chosen_suit"]) == ("Ac", "d", "d")
    # Diamonds were named: K♦ may follow the A♣, 6♣ may not (clubs no longer count).
    assert codes(game.legal_actions(3)) == ["play:Kd"]


def test_example_9_jack_on_jack_passes_a_bigger_pickup_on():
    game = after_9c_9h_jh(["Jc", "5d"])
    assert codes(game.legal_actions(2)) == ["play:Jc", "draw"]
    play(game, 2, "Jc")
    assert game.pickup == 8
    assert hand(game, 2) == {"5d"}
    assert game.current_players() == {3}
    # Player 3 has nothing that avoids the pickup, so they take all 8 the deck can give...
    # the deck holds 4, and the 3 discards under the top J♣ are reshuffled in (cap rule).
    events = play(game, 3, "draw")
    assert "reshuffle" in kinds(events)
    taken = next(e for e in events if e.kind == "pickup_taken")
    assert taken.data == {"count": 8, "drawn": 7}
    assert len(game.hands[3]) == 2 + 7
    assert game.debts[3] == 0
