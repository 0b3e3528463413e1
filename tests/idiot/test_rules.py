"""Scenario tests for Idiot: one or more per rule of the seed text and the issue."""

from __future__ import annotations

import pytest

from bot.rules.cards import card_counter, parse_card, standard_deck
from bot.rules.engine import Action, GameOver, IllegalAction, NotYourTurn, RuleError, UnknownPlayer
from cogs.idiot.rules import HOUSE_RULES, STALEMATE_TURNS, IdiotGame

A, B, C = 1, 2, 3


def play(*codes: str) -> Action:
    return Action.play(*codes)


def blind(position: int) -> Action:
    return Action("blind", arg=str(position))


PICKUP = Action("pickup")
READY = Action("ready")


def stacked(deal: dict, players=(A, B, C), **options) -> IdiotGame:
    """A game already in the play phase, ``players[0]`` to move, from a stacked deal."""
    return IdiotGame.new(list(players), options, deal={"phase": "play", "first": players[0], **deal})


def codes(cards) -> list[str]:
    return [str(c) for c in cards]


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def legal_codes(game: IdiotGame, player: int) -> list[str]:
    return [a.code() for a in game.legal_actions(player)]


# --------------------------------------------------------------------------- the deal


def test_seeded_deal_three_down_three_up_three_in_hand_starter_from_draw_pile():
    game = IdiotGame.new([A, B, C], seed=7)
    for p in (A, B, C):
        assert len(game.hands[p]) == 3
        assert len(game.face_up[p]) == 3
        assert all(card is not None for card in game.face_down[p])
    assert len(game.pile) == 1
    assert len(game.draw) == 52 - 3 * 9 - 1
    assert card_counter(game.all_zones()) == card_counter([standard_deck(1)])
    assert game.phase == "swap"


@pytest.mark.parametrize(("count", "decks"), [(2, 1), (4, 1), (5, 2), (8, 2)])
def test_one_deck_up_to_four_players_two_decks_from_five(count, decks):
    game = IdiotGame.new(list(range(1, count + 1)), seed="s")
    assert game.decks == decks
    assert card_counter(game.all_zones()) == card_counter([standard_deck(decks)])
    assert len(game.draw) == 52 * decks - 9 * count - 1


def test_same_seed_same_deal_other_seed_other_deal():
    assert IdiotGame.new([A, B], seed=11).to_dict() == IdiotGame.new([A, B], seed=11).to_dict()
    assert IdiotGame.new([A, B], seed=11).to_dict() != IdiotGame.new([A, B], seed=12).to_dict()


def test_player_count_limits():
    with pytest.raises(RuleError, match="2 to 8"):
        IdiotGame.new([A], seed=1)
    with pytest.raises(RuleError, match="2 to 8"):
        IdiotGame.new(list(range(9)), seed=1)


def test_play_starts_left_of_the_dealer_and_the_deal_passes_left():
    game = IdiotGame.new([A, B, C], seed=3)
    assert game.dealer == C and game.first == A
    nxt = IdiotGame.new([A, B, C], {"carry": game.carry_out()}, seed=4)
    assert nxt.dealer == A and nxt.first == B


def test_unknown_house_rule_value_is_refused():
    with pytest.raises(RuleError, match="first_out or last_idiot"):
        IdiotGame.new([A, B], {"finish": "sometimes"}, seed=1)
    assert {rule.key: rule.default for rule in HOUSE_RULES} == {"finish": "first_out", "voluntary_pickup": "off"}


# --------------------------------------------------------------------------- swap phase


def swap_game() -> IdiotGame:
    return IdiotGame.new(
        [A, B],
        deal={
            "hands": {A: ["Th", "3c", "4d"], B: ["5s", "6s", "7s"]},
            "face_up": {A: ["2c", "Kd", "5h"], B: ["8s", "9s", "Js"]},
            "face_down": {A: ["Qh", "Qs", "Qd"], B: ["Ah", "As", "Ad"]},
            "draw": ["3h", "3s"],
            "pile": ["4c"],
        },
    )


def test_swap_phase_is_simultaneous_and_play_starts_when_everyone_is_ready():
    game = swap_game()
    assert game.current_players() == {A, B}
    events = game.apply(A, Action("swap", (parse_card("5h"), parse_card("Th"))))
    assert kinds(events) == ["swap"] and events[0].data == {"to_hand": "5h", "to_table": "Th"}
    assert codes(game.face_up[A]) == ["2c", "Kd", "Th"]
    assert sorted(codes(game.hands[A])) == ["3c", "4d", "5h"]
    # Swaps repeat, and B swaps meanwhile.
    game.apply(B, Action("swap", (parse_card("8s"), parse_card("5s"))))
    game.apply(A, Action("swap", (parse_card("2c"), parse_card("3c"))))
    assert codes(game.face_up[A]) == ["3c", "Kd", "Th"]
    game.apply(A, READY)
    assert game.current_players() == {B}
    with pytest.raises(NotYourTurn, match="ready"):
        game.apply(A, Action("swap", (parse_card("Kd"), parse_card("4d"))))
    events = game.apply(B, READY)
    assert kinds(events) == ["ready", "play_begins", "turn"]
    assert game.phase == "play" and game.current_players() == {A}
    assert codes(game.face_up[B]) == ["5s", "9s", "Js"]


def test_swap_phase_refuses_plays_and_bad_swaps_without_changing_anything():
    game = swap_game()
    before = game.to_dict()
    with pytest.raises(IllegalAction, match="Play has not started"):
        game.apply(A, play("Th"))
    with pytest.raises(IllegalAction, match="not one of your face-up cards"):
        game.apply(A, Action("swap", (parse_card("Th"), parse_card("3c"))))
    with pytest.raises(IllegalAction, match="not in your hand"):
        game.apply(A, Action("swap", (parse_card("Kd"), parse_card("Kh"))))
    with pytest.raises(UnknownPlayer):
        game.apply(99, READY)
    assert game.to_dict() == before


def test_a_play_by_someone_not_in_the_game_is_refused_as_unknown_not_a_key_error():
    # Also the seat's old holder once a computer has taken it (replace_player): their
    # id is gone from the game. A play once reached the hands lookup first (KeyError).
    game = swap_game()
    game.apply(A, READY)
    game.apply(B, READY)
    game.replace_player(A, 901)
    before = game.to_dict()
    for stranger in (A, 99):
        with pytest.raises(UnknownPlayer):
            game.apply(stranger, play("Th"))
    assert game.to_dict() == before


def test_no_swapping_once_play_has_started():
    game = swap_game()
    game.apply(A, READY)
    game.apply(B, READY)
    with pytest.raises(IllegalAction, match="swap phase is over"):
        game.apply(A, Action("swap", (parse_card("Kd"), parse_card("Th"))))


def test_swap_legal_actions_are_deduplicated_and_ready_last():
    game = IdiotGame.new(
        [A, B],
        deal={"hands": {A: ["Kd", "Kd", "4c"]}, "face_up": {A: ["Kd", "5h"]}, "pile": ["3c"]},
    )
    assert legal_codes(game, A) == ["swap:5h.4c", "swap:5h.Kd", "swap:Kd.4c", "ready"]


# --------------------------------------------------------------------------- ordinary play


def test_play_equal_or_higher_suits_do_not_matter_and_refill_to_three():
    game = stacked(
        {
            "hands": {A: ["9c", "7s", "3d"], B: ["9h", "8h", "Kc"], C: ["Qs", "Qd", "4h"]},
            "draw": ["5c", "6c", "Jc"],
            "pile": ["7h"],
        }
    )
    events = game.apply(A, play("7s"))  # equal value, another suit
    assert kinds(events) == ["play", "draw", "turn"]
    assert events[1].private and events[1].data["cards"] == ["5c"]
    assert events[1].visible_to(B) == {"count": 1}
    assert sorted(codes(game.hands[A])) == ["3d", "5c", "9c"]
    assert codes(game.draw) == ["6c", "Jc"]
    assert game.current_players() == {B}
    game.apply(B, play("8h"))
    assert codes(game.pile) == ["7h", "7s", "8h"]
    assert game.current_players() == {C}


def test_lower_card_is_refused_with_a_friendly_sentence():
    game = stacked({"hands": {A: ["6c", "9d", "3d"], B: ["5h"], C: ["5s"]}, "pile": ["9h"]})
    before = game.to_dict()
    with pytest.raises(IllegalAction) as refused:
        game.apply(A, play("6c"))
    assert str(refused.value) == "6♣ is lower than the 9♥ on the pile: play a 9 or higher, a 2 or a 10."
    assert game.to_dict() == before
    game.apply(A, play("9d"))
    # B can only pick up, and the sentence says so.
    with pytest.raises(IllegalAction, match=r"play a 9 or higher, a 2 or a 10, or pick up the pile\.$"):
        game.apply(B, play("5h"))
    assert legal_codes(game, B) == ["pickup"]


def test_ace_is_high():
    game = stacked({"hands": {A: ["Kc", "Ah"], B: ["As", "3c"], C: ["4c"]}, "pile": ["Qh"]})
    assert legal_codes(game, A) == ["play:Kc", "play:Ah"]
    game.apply(A, play("Ah"))
    assert legal_codes(game, B) == ["play:As"]
    with pytest.raises(IllegalAction, match="lower than the A♥ on the pile: play an Ace or higher"):
        game.apply(B, play("3c"))


def test_several_cards_of_one_value_together_but_not_mixed_values():
    game = stacked({"hands": {A: ["8c", "8d", "8s", "9c"], B: ["Kc"], C: ["Kd"]}, "pile": ["5h"]})
    assert legal_codes(game, A) == ["play:8c", "play:8c.8d", "play:8c.8d.8s", "play:9c"]
    with pytest.raises(IllegalAction, match="same value: 8♣ and 9♣ differ"):
        game.apply(A, play("8c", "9c"))
    # Any copies of that value are accepted, not only the canonical ones listed.
    events = game.apply(A, play("8s", "8d"))
    assert events[0].data == {"cards": ["8s", "8d"], "from": "hand"}
    assert codes(game.hands[A]) == ["8c", "9c"]
    assert codes(game.pile) == ["5h", "8s", "8d"]


def test_cards_you_do_not_hold_are_refused():
    game = stacked({"hands": {A: ["8c", "4d"], B: ["Kc"], C: ["Kd"]}, "face_up": {A: ["Qs"]}, "pile": ["5h"]})
    with pytest.raises(IllegalAction, match="Q♠ is face up on the table: play the cards in your hand first"):
        game.apply(A, play("Qs"))
    with pytest.raises(IllegalAction, match="8♦ is not in your hand"):
        game.apply(A, play("8d"))
    with pytest.raises(IllegalAction, match="8♣ is not in your hand \\(you hold fewer copies\\)"):
        game.apply(A, play("8c", "8c"))
    with pytest.raises(NotYourTurn):
        game.apply(B, play("Kc"))


def test_cannot_play_must_pick_up_whole_pile_and_next_player_starts_new_pile():
    game = stacked({"hands": {A: ["Qc"], B: ["3c", "4c"], C: ["5d", "2d"]}, "pile": ["6h", "Jh"], "draw": ["7c"]})
    game.apply(A, play("Qc"))
    assert legal_codes(game, B) == ["pickup"]
    events = game.apply(B, PICKUP)
    assert kinds(events) == ["pickup", "turn"]
    assert events[0].private and events[0].visible_to(None) == {"count": 3}
    assert sorted(codes(game.hands[B])) == sorted(["3c", "4c", "6h", "Jh", "Qc"])
    assert game.pile == [] and game.current_players() == {C}
    # A new pile: any card will do.
    assert legal_codes(game, C) == ["play:2d", "play:5d"]


def test_pickup_refused_while_a_play_exists_unless_voluntary_pickup_is_on():
    deal = {"hands": {A: ["Kc", "3c"], B: ["4c"], C: ["4d"]}, "pile": ["9h"]}
    game = stacked(deal)
    with pytest.raises(IllegalAction, match=r"You can still play \(for example K♣\)"):
        game.apply(A, PICKUP)
    voluntary = stacked(deal, voluntary_pickup="on")
    assert "pickup" in legal_codes(voluntary, A)
    voluntary.apply(A, PICKUP)
    assert sorted(codes(voluntary.hands[A])) == ["3c", "9h", "Kc"]


def test_nothing_to_pick_up_from_an_empty_pile():
    game = stacked({"hands": {A: ["Kc"], B: ["4c"], C: ["4d"]}, "pile": []}, voluntary_pickup="on")
    assert legal_codes(game, A) == ["play:Kc"]
    with pytest.raises(IllegalAction, match="The pile is empty"):
        game.apply(A, PICKUP)


# --------------------------------------------------------------------------- twos and tens


def test_a_two_goes_on_anything_and_anything_goes_on_a_two():
    game = stacked({"hands": {A: ["2s", "5c"], B: ["3c", "4c"], C: ["Kd"]}, "pile": ["Ah"]})
    assert legal_codes(game, A) == ["play:2s"]
    game.apply(A, play("2s"))
    assert legal_codes(game, B) == ["play:3c", "play:4c"]
    assert game.pile and str(game.pile[-1]) == "2s"  # a two does not burn


def test_a_ten_goes_on_anything_burns_the_pile_and_the_same_player_goes_again():
    game = stacked(
        {"hands": {A: ["Th", "4c", "5c"], B: ["3c"], C: ["Kd"]}, "pile": ["7c", "Ah"], "draw": ["9s"]}
    )
    assert "play:Th" in legal_codes(game, A)
    events = game.apply(A, play("Th"))
    assert kinds(events) == ["play", "draw", "burn", "turn"]
    assert events[2].data == {"reason": "ten", "count": 3}
    assert events[3].player == A and events[3].data == {"again": True}
    assert codes(game.burned) == ["7c", "Ah", "Th"]
    assert game.pile == [] and game.current_players() == {A}
    # A starts a new pile with any card, even a low one.
    assert legal_codes(game, A) == ["play:4c", "play:5c", "play:9s"]


def test_four_of_a_kind_across_players_burns_and_the_last_player_goes_again():
    game = stacked(
        {"hands": {A: ["7c", "Kc"], B: ["7d", "7h", "Kd"], C: ["7s", "3s"]}, "pile": ["5h"]}
    )
    game.apply(A, play("7c"))
    game.apply(B, play("7d", "7h"))
    assert codes(game.pile[-3:]) == ["7c", "7d", "7h"] and game.burned == []
    events = game.apply(C, play("7s"))
    assert kinds(events) == ["play", "burn", "turn"]
    assert events[1].player == C and events[1].data == {"reason": "four", "count": 5}
    assert game.pile == [] and game.current_players() == {C}


def test_four_of_a_kind_in_one_play_burns_too():
    game = stacked({"hands": {A: ["9c", "9d", "9h", "9s", "3c"], B: ["Kd"], C: ["Ks"]}, "pile": ["4h"]})
    events = game.apply(A, play("9c", "9d", "9h", "9s"))
    assert "burn" in kinds(events) and game.current_players() == {A}


def test_the_starting_card_counts_towards_four_of_a_kind():
    game = stacked({"hands": {A: ["6c", "6d", "6h", "Qc"], B: ["Kd"], C: ["Ks"]}, "pile": ["6s"]})
    game.apply(A, play("6c", "6d", "6h"))
    assert game.pile == [] and len(game.burned) == 4 and game.current_players() == {A}


def test_three_of_a_kind_then_other_value_does_not_burn():
    game = stacked({"hands": {A: ["8c", "8d", "8h", "Qc"], B: ["9d", "3s"], C: ["Ks"]}, "pile": ["8s", "2c"]})
    game.apply(A, play("8c", "8d", "8h"))  # 8s is under the 2: not four on top
    assert game.burned == [] and game.current_players() == {B}


def test_a_starting_ten_burns_as_play_begins():
    game = IdiotGame.new(
        [A, B],
        deal={"hands": {A: ["3c"], B: ["4c"]}, "face_up": {A: ["5c"], B: ["6c"]}, "pile": ["Td"]},
    )
    game.apply(A, READY)
    events = game.apply(B, READY)
    assert kinds(events) == ["ready", "play_begins", "burn", "turn"]
    assert events[2].player is None and events[2].data == {"reason": "starter", "count": 1}
    assert game.pile == [] and codes(game.burned) == ["Td"] and game.current_players() == {A}


def test_a_burn_with_an_empty_hand_continues_from_the_face_up_cards():
    game = stacked({"hands": {A: ["Tc"], B: ["3c"], C: ["3d"]}, "face_up": {A: ["4s", "Kh"]}, "pile": ["Ah"]})
    game.apply(A, play("Tc"))
    assert game.current_players() == {A} and game.stage(A) == "face_up"
    assert legal_codes(game, A) == ["play:4s", "play:Kh"]


def test_a_burn_with_the_last_card_puts_the_player_out():
    game = stacked({"hands": {A: ["Tc"], B: ["3c"], C: ["3d"]}, "pile": ["Ah"]}, finish="last_idiot")
    events = game.apply(A, play("Tc"))
    assert kinds(events) == ["play", "burn", "out", "turn"]
    assert game.current_players() == {B} and game.pile == []


# --------------------------------------------------------------------------- the table


def test_face_up_cards_only_once_the_hand_is_empty():
    game = stacked(
        {
            "hands": {A: ["9c"], B: ["Kd", "Kc"], C: ["3s", "4s"]},
            "face_up": {A: ["Jc", "Jd", "4h"]},
            "face_down": {A: ["3c", "3d", "3h"]},
            "pile": ["8h"],
        }
    )
    assert legal_codes(game, A) == ["play:9c"]
    game.apply(A, play("9c"))
    game.apply(B, play("Kd"))
    game.apply(C, PICKUP)
    # A's hand is empty (the draw pile is spent): play from the face-up cards, several at once.
    assert game.stage(A) == "face_up"
    assert legal_codes(game, A) == ["play:4h", "play:Jc", "play:Jc.Jd"]
    events = game.apply(A, play("Jc", "Jd"))
    assert events[0].data == {"cards": ["Jc", "Jd"], "from": "face_up"}
    assert codes(game.face_up[A]) == ["4h"]


def test_face_up_card_that_cannot_be_played_means_picking_up():
    game = stacked(
        {"hands": {A: [], B: ["Kc"], C: ["Ks"]}, "face_up": {A: ["4h", "5h"]}, "face_down": {A: ["Ac"]}, "pile": ["9h"]}
    )
    assert legal_codes(game, A) == ["pickup"]
    game.apply(A, PICKUP)
    assert codes(game.hands[A]) == ["9h"] and codes(game.face_up[A]) == ["4h", "5h"]


def test_face_down_cards_are_turned_blind_by_position():
    game = stacked(
        {"hands": {A: [], B: ["Kc"], C: ["Ks"]}, "face_down": {A: ["Qc", None, "3c"]}, "pile": ["9h"]}
    )
    assert game.stage(A) == "face_down"
    assert legal_codes(game, A) == ["blind::1", "blind::3"]
    with pytest.raises(IllegalAction, match="no face-down card at position '2': choose 1 or 3"):
        game.apply(A, blind(2))
    with pytest.raises(IllegalAction, match="played blind"):
        game.apply(A, play("Qc"))
    events = game.apply(A, blind(1))
    assert kinds(events) == ["blind", "turn"]
    assert events[0].data == {"position": 1, "card": "Qc", "played": True}
    assert codes(game.pile) == ["9h", "Qc"] and game.face_down[A] == [None, None, parse_card("3c")]


def test_a_blind_card_that_cannot_be_played_is_picked_up_with_the_pile():
    game = stacked(
        {"hands": {A: [], B: ["Kc"], C: ["Ks"]}, "face_down": {A: ["Qc", None, "3c"]}, "pile": ["5d", "9h"]}
    )
    events = game.apply(A, blind(3))
    assert kinds(events) == ["blind", "turn"]
    assert events[0].data == {"position": 3, "card": "3c", "played": False, "picked_up": 3}
    assert not events[0].private  # the turned card was shown to everyone
    assert sorted(codes(game.hands[A])) == ["3c", "5d", "9h"]
    assert game.pile == [] and game.current_players() == {B}
    assert game.stage(A) == "hand"


def test_after_a_pickup_the_hand_must_be_emptied_before_returning_to_the_table():
    game = stacked(
        {
            "hands": {A: [], B: ["Kc", "Qd"], C: ["Ks", "3d"]},
            "face_up": {A: ["6c"]},
            "face_down": {A: ["Ad", "Ah", "As"]},
            "pile": ["9h"],
        },
        players=(A, B, C),
    )
    game.apply(A, PICKUP)  # 6 cannot go on 9
    game.apply(B, play("Qd"))  # new pile
    game.apply(C, play("Ks"))
    # A holds the 9 again: the face-up 6 and the blind cards wait.
    assert game.stage(A) == "hand" and legal_codes(game, A) == ["pickup"]
    with pytest.raises(IllegalAction, match="still have cards in your hand"):
        game.apply(A, blind(1))
    game.apply(A, PICKUP)
    assert sorted(codes(game.hands[A])) == ["9h", "Ks", "Qd"]
    game.apply(B, play("Kc"))  # B's last card: first out wins
    assert game.is_over() and game.placements() == [[B], [A, C]]


def test_returning_to_the_table_after_emptying_the_hand():
    game = stacked(
        {"hands": {A: ["9h"], B: ["3c", "4c"], C: ["3d", "4d"]}, "face_up": {A: ["6c"]}, "face_down": {A: ["Ad"]}, "pile": []}
    )
    game.apply(A, play("9h"))
    game.apply(B, PICKUP)
    game.apply(C, play("4d"))
    assert game.stage(A) == "face_up" and legal_codes(game, A) == ["play:6c"]
    game.apply(A, play("6c"))
    game.apply(B, play("9h"))
    game.apply(C, PICKUP)
    assert game.stage(A) == "face_down" and legal_codes(game, A) == ["blind::1"]
    events = game.apply(A, blind(1))
    assert kinds(events)[:2] == ["blind", "out"] and game.placements() == [[A], [B, C]]


# --------------------------------------------------------------------------- the end


def test_first_out_wins_and_the_game_ends_by_default():
    game = stacked({"hands": {A: ["Kc"], B: ["3c"], C: ["Ad"]}, "pile": ["5h"]})
    events = game.apply(A, play("Kc"))
    assert kinds(events) == ["play", "out", "game_over"]
    assert events[-1].data == {"reason": "finished", "placements": [[A], [B, C]]}
    assert game.is_over() and game.current_players() == frozenset()
    with pytest.raises(GameOver):
        game.apply(B, PICKUP)
    assert game.legal_actions(B) == []


def test_last_idiot_plays_on_and_records_places():
    game = stacked({"hands": {A: ["Kc"], B: ["3c", "Qd"], C: ["Ad", "4h"]}, "pile": ["5h"]}, finish="last_idiot")
    game.apply(A, play("Kc"))
    assert not game.is_over() and game.current_players() == {B}
    # The pile stays: B must beat the king.
    assert legal_codes(game, B) == ["pickup"]
    game.apply(B, PICKUP)
    game.apply(C, play("4h"))
    assert game.current_players() == {B}  # A is out and skipped
    with pytest.raises(NotYourTurn, match="already played out"):
        game.apply(A, PICKUP)
    game.apply(B, play("5h"))
    events = game.apply(C, play("Ad"))
    assert kinds(events)[-2:] == ["out", "game_over"]
    assert game.placements() == [[A], [C], [B]]
    assert events[-1].data == {"reason": "finished", "placements": [[A], [C], [B]], "idiot": B}


# --------------------------------------------------------------------------- timer and leavers


def test_timeout_in_swap_phase_is_ready():
    game = swap_game()
    assert game.timeout_action(A) == READY


def test_timeout_plays_the_lowest_ordinary_card_then_a_two_then_a_ten():
    game = stacked({"hands": {A: ["Th", "2c", "9d", "Qs", "Qd"], B: ["3c"], C: ["3d"]}, "pile": ["8h"]})
    assert game.timeout_action(A) == play("9d")
    game = stacked({"hands": {A: ["Th", "2c", "4d"], B: ["3c"], C: ["3d"]}, "pile": ["8h"]})
    assert game.timeout_action(A) == play("2c")
    game = stacked({"hands": {A: ["Th", "4d"], B: ["3c"], C: ["3d"]}, "pile": ["8h"]})
    assert game.timeout_action(A) == play("Th")


def test_timeout_picks_up_or_turns_the_first_face_down_card():
    game = stacked({"hands": {A: ["4d"], B: ["3c"], C: ["3d"]}, "pile": ["8h"]})
    assert game.timeout_action(A) == PICKUP
    game = stacked({"hands": {A: []}, "face_down": {A: [None, "4d", "5d"]}, "pile": ["8h"]}, voluntary_pickup="on")
    assert game.timeout_action(A) == blind(2)
    game.apply(A, game.timeout_action(A))
    assert sorted(codes(game.hands[A])) == ["4d", "8h"]


def test_removed_player_cards_leave_the_game_and_turn_passes():
    game = IdiotGame.new([A, B, C], seed=5)
    for p in (A, B, C):
        game.apply(p, READY)
    assert game.current_players() == {A}
    total = card_counter(game.all_zones())
    events = game.remove_player(A)
    assert kinds(events) == ["player_removed", "turn"] and game.current_players() == {B}
    assert card_counter(game.all_zones()) == total
    assert len(game.burned) == 9 and game.observation(None)["seats"][0]["removed"] is True
    with pytest.raises(NotYourTurn, match="left this game"):
        game.apply(A, PICKUP)
    assert game.remove_player(A) == []
    events = game.remove_player(C)
    assert kinds(events) == ["player_removed", "game_over"]
    assert game.placements() == [[B], [A, C]]


def test_removal_in_swap_phase_can_start_play():
    game = IdiotGame.new([A, B, C], seed=5)
    game.apply(A, READY)
    game.apply(B, READY)
    events = game.remove_player(C)
    assert kinds(events) == ["player_removed", "play_begins", "turn"]
    assert game.current_players() == {A}


# --------------------------------------------------------------------------- stalemate


def test_endless_forced_play_ends_in_a_stalemate_where_those_holding_cards_tie():
    # Found by simulation: two players each playing the lowest card loop forever here.
    game = IdiotGame.new([A, B], seed=3)
    actions = 0
    while not game.is_over():
        player = min(game.current_players())
        events = game.apply(player, game.timeout_action(player))
        actions += 1
    assert game.stalemate and game.idle_turns == STALEMATE_TURNS
    assert events[-2].kind == "stalemate" and events[-1].data["reason"] == "stalemate"
    counts = {p: game._card_count(p) for p in (A, B)}
    assert counts[A] != counts[B]
    # Nobody won: both share the place (a tie), whoever holds fewer cards.
    assert game.placements() == [[A, B]]
    assert game.cards_left() == counts and events[-1].data["cards_left"] == {str(p): n for p, n in counts.items()}
    assert actions < 2000


def test_progress_resets_the_stalemate_count():
    game = stacked({"hands": {A: ["3c", "4c"], B: ["5c", "6c"], C: ["7c", "8c"]}, "draw": ["9c"], "pile": []})
    game.idle_turns = 5
    game.apply(A, play("3c"))  # draws the 9: progress
    assert game.idle_turns == 0
    game.apply(B, play("5c"))  # nothing drawn, nothing burned
    assert game.idle_turns == 1


# --------------------------------------------------------------------------- observation and codes


def test_observation_shows_own_hand_counts_and_no_face_down_card():
    game = IdiotGame.new([A, B], seed=9)
    mine = game.observation(A)
    assert sorted(mine["hand"]) == sorted(codes(game.hands[A]))
    assert "hand" not in game.observation(None)
    seat_b = mine["seats"][1]
    assert seat_b["hand_count"] == 3 and seat_b["face_down"] == [1, 2, 3]
    assert sorted(seat_b["face_up"]) == sorted(codes(game.face_up[B]))
    text = str(mine) + str(game.observation(None)) + str(game.observation(B))
    for p in (A, B):
        for card in game.face_down[p]:
            assert f"'{card}'" not in text
    assert mine["current"] == [A, B] and mine["phase"] == "swap"
    assert mine["pile_top"] == codes(game.pile) and mine["draw_size"] == 52 - 19


def test_hand_is_sorted_two_low_ace_high():
    game = stacked({"hands": {A: ["Ah", "2c", "Kd", "Tc"]}, "pile": []})
    assert game.observation(A)["hand"] == ["2c", "Tc", "Kd", "Ah"]


def test_action_codes_round_trip():
    for action in (play("7h", "7c"), PICKUP, READY, blind(2), Action("swap", (parse_card("Kc"), parse_card("4h")))):
        assert Action.parse(action.code()) == action
    assert blind(2).code() == "blind::2"


def test_a_blind_ten_burns_and_the_player_turns_another_card():
    game = stacked(
        {"hands": {A: [], B: ["Kc"], C: ["Ks"]}, "face_down": {A: ["Tc", "4d", None]}, "pile": ["Ah", "Ad"]}
    )
    events = game.apply(A, blind(1))
    assert kinds(events) == ["blind", "burn", "turn"]
    assert events[1].data == {"reason": "ten", "count": 3} and events[2].data == {"again": True}
    assert legal_codes(game, A) == ["blind::2"]
    events = game.apply(A, blind(2))  # anything goes on the fresh pile: A is out
    assert kinds(events) == ["blind", "out", "game_over"]
