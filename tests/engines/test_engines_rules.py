"""Scenario tests for Engines of Discrimination: every rule of the issue and every
worked example of the seed text, from stacked deals."""

from __future__ import annotations

import pytest

from bot.rules.cards import parse_card
from bot.rules.engine import Action, IllegalAction, NotYourTurn, RuleError
from cogs.engines.rules import GOOGLE, SEARCH, YAHOO, EnginesGame, distance
from helpers_engines import FULL_DECK, G, Y, kinds, play, two_player, zones_by_deck


def c(code: str):
    return parse_card(code)


# --------------------------------------------------------------------------- setup


def test_three_players_are_refused_with_a_sentence():
    with pytest.raises(RuleError, match="cannot be played by 3"):
        EnginesGame.new([1, 2, 3], seed=1)
    EnginesGame.check_player_count([1, 2])
    EnginesGame.check_player_count([1, 2, 3, 4])


def test_teams_option_must_split_the_table_evenly():
    with pytest.raises(RuleError, match="2 for Google and 2 for Yahoo"):
        EnginesGame.new([1, 2, 3, 4], {"teams": {"google": [1, 2, 3], "yahoo": [4]}}, seed=1)


def test_two_player_setup_hands_decks_and_yahoo_first():
    game = EnginesGame.new([10, 20], {"teams": {"google": [10], "yahoo": [20]}}, seed=7)
    assert len(game.hands[10]) == 5 and len(game.hands[20]) == 4
    assert len(game.decks[GOOGLE]) == 47 and len(game.decks[YAHOO]) == 48
    # The first Search Request is already turned, by Yahoo, who goes first.
    assert game.turn == 20 and game.request is not None and len(game.decks[SEARCH]) == 51
    assert game.current_players() == frozenset({10, 20})
    assert all(counter == FULL_DECK for counter in zones_by_deck(game).values())


def test_sides_without_a_teams_option_come_from_the_seed():
    sides = {tuple(EnginesGame.new([1, 2], seed=s).teams[GOOGLE]) for s in range(12)}
    assert sides == {(1,), (2,)}
    again = EnginesGame.new([1, 2], seed=5).teams
    assert EnginesGame.new([1, 2], seed=5).teams == again


def test_four_player_seats_alternate_and_yahoo_cuts_for_low_card():
    game = EnginesGame.new([1, 2, 3, 4], {"teams": {"google": [1, 3], "yahoo": [2, 4]}}, seed=3)
    assert game.seats == [1, 2, 3, 4]
    assert game.partner(1) == 3 and game.partner(2) == 4
    assert {len(game.hands[p]) for p in (1, 3)} == {5} and {len(game.hands[p]) for p in (2, 4)} == {4}
    # Both Google players drew from the one Google deck.
    assert len(game.decks[GOOGLE]) == 52 - 10 and len(game.decks[YAHOO]) == 52 - 8
    first = next(e for e in game.opening_events if e.kind == "first_turn")
    cut = {entry["player"]: c(entry["card"]) for entry in first.data["cut"]}
    assert set(cut) == {2, 4}
    low = min(cut, key=lambda p: int(cut[p].rank))
    assert cut[2].rank != cut[4].rank and game.turn == low


def test_card_values_and_distances():
    assert distance(c("5h"), c("3c")) == 2 and distance(c("5h"), c("Ac")) == 4
    assert distance(c("5h"), c("Kc")) is None  # an image has no value
    assert distance(c("Qh"), c("Qs")) == 0 and distance(c("Qh"), c("Kh")) is None
    assert distance(c("Qh"), c("Th")) is None


# --------------------------------------------------------------------------- one search


def test_closest_card_wins_and_is_put_aside_the_loser_keeps_theirs():
    game = two_player("3c 9c Kc 4h 2h", "7d 8d Jd 2s", "6h 8h")
    assert game.request == c("6h")
    play(game, G, "3c")
    events = play(game, Y, "7d")
    assert kinds(events)[:3] == ["chosen", "reveal", "search_won"]
    assert game.put_aside == {GOOGLE: [], YAHOO: [c("7d")]}
    assert c("3c") in game.hands[G] and len(game.hands[G]) == 5
    # Yahoo refills to 4 from its own deck; the request goes to the search discard.
    assert len(game.hands[Y]) == 4 and c("2d") in game.hands[Y]
    assert game.search_discard == [c("6h")]
    # Play passes to the left: Google turns the next request.
    assert game.turn == G and game.request == c("8h") and game.last_winner == YAHOO


def test_seed_example_tie_goes_to_the_last_winner():
    # "The Search Request is a 5. Google plays a 3 and Yahoo plays a 7 ... If Yahoo
    # won the last Search Request, it would win this one as well."
    game = two_player("3c 9c Kc 4h 2h", "7d Td Jd Qs", "5h 8h", last_winner=YAHOO)
    play(game, G, "3c")
    events = play(game, Y, "7d")
    won = next(e for e in events if e.kind == "search_won")
    assert won.data["reason"] == "tie_last_winner" and won.data["side"] == YAHOO
    assert game.put_aside[YAHOO] == [c("7d")] and c("3c") in game.hands[G]


def test_tie_goes_to_google_when_google_won_last_and_yahoo_cannot_break_it():
    game = two_player("3c 9c Kc 4h 2h", "7d Td Jd Qs", "5h 8h", last_winner=GOOGLE)
    play(game, G, "3c")
    play(game, Y, "7d")
    assert game.put_aside[GOOGLE] == [c("3c")] and c("7d") in game.hands[Y]
    assert game.last_winner == GOOGLE


def test_first_search_tie_returns_the_cards_and_turns_a_new_request():
    game = two_player("3c 9c Kc 4h 2h", "7d 5d Jd Qs", "5h 8h 4s")
    turn = game.turn
    play(game, G, "3c")
    events = play(game, Y, "7d")
    assert "tie_returned" in kinds(events) and "search_won" not in kinds(events)
    assert game.put_aside == {GOOGLE: [], YAHOO: []}
    assert c("3c") in game.hands[G] and c("7d") in game.hands[Y]
    assert len(game.hands[G]) == 5 and len(game.hands[Y]) == 4
    # Same player turns the new request; the procedure repeats until a search is won.
    assert game.turn == turn and game.request == c("8h") and game.search_discard == [c("5h")]
    assert game.current_players() == frozenset({G, Y})
    play(game, G, "9c")
    play(game, Y, "7d")  # 9 vs 7 for an 8: tie again, still no winner yet
    assert game.request == c("4s") and game.last_winner is None
    play(game, G, "4h")
    play(game, Y, "7d")
    assert game.put_aside[GOOGLE] == [c("4h")] and game.last_winner == GOOGLE


def test_exact_matches_on_both_sides_are_a_tie():
    game = two_player("5c 9c Kc Th 2h", "5d Td Jd Qs", "5h 8h", last_winner=GOOGLE)
    play(game, G, "5c")
    play(game, Y, "5d")
    assert game.put_aside[GOOGLE] == [c("5c")]


def test_face_request_is_won_only_by_the_same_face():
    game = two_player("Qc 9c Kc Th 2h", "Jd Td 3d Qs", "Qh 8h", last_winner=YAHOO)
    play(game, G, "Qc")
    play(game, Y, "Jd")
    assert game.put_aside[GOOGLE] == [c("Qc")]


def test_face_request_with_no_exact_match_is_discarded():
    game = two_player("Kc 9c 4c Th 2h", "Jd Td 3d Qs", "Qh 8h", last_winner=YAHOO)
    play(game, G, "Kc")
    events = play(game, Y, "Jd")
    discarded = next(e for e in events if e.kind == "search_discarded")
    assert discarded.data == {"request": "Qh", "reason": "no_match"}
    assert game.put_aside == {GOOGLE: [], YAHOO: []} and game.search_discard == [c("Qh")]
    assert c("Kc") in game.hands[G] and c("Jd") in game.hands[Y]
    assert game.last_winner == YAHOO and game.turn == G  # play still passes left


def test_a_face_card_never_answers_a_number_request():
    game = two_player("Kc 9c 4c Th 2h", "Td Jd 3d Qs", "2h 8h")
    play(game, G, "Kc")  # right beside nothing: an image has no value
    play(game, Y, "Td")  # 8 away, but a value
    assert game.put_aside[YAHOO] == [c("Td")]


def test_only_images_on_a_number_request_discard_it():
    game = two_player("Kc 9c 4c Th 2h", "Td Jd 3d Qs", "2h 8h")
    play(game, G, "Kc")
    events = play(game, Y, "Jd")
    assert next(e for e in events if e.kind == "search_discarded").data["reason"] == "no_value"


# --------------------------------------------------------------------------- Yahoo's special


def test_seed_example_yahoo_special_asked_and_shown():
    # "The Search Request is a 9. Google plays a 10 and Yahoo plays an 8 for a tie.
    # If Yahoo is able to play a 7 right now, Yahoo wins the tie."
    game = two_player("Tc 9c 4c 3h 2h", "8d 7d Jd Qs", "9h 8h", last_winner=GOOGLE)
    play(game, G, "Tc")
    events = play(game, Y, "8d")
    assert "tiebreak_offered" in kinds(events)
    assert game.phase == "tiebreak" and game.current_players() == frozenset({Y})
    assert game.legal_actions(Y) == [Action("tiebreak", (c("7d"),)), Action("decline")]
    assert game.legal_actions(G) == []
    events = game.apply(Y, Action("tiebreak", (c("7d"),)))
    won = next(e for e in events if e.kind == "search_won")
    assert won.data["reason"] == "yahoo_special" and won.data["shown"] == {"player": Y, "card": "7d"}
    # The tied 8 is put aside; the 7 was only shown and stays in Yahoo's hand.
    assert game.put_aside == {GOOGLE: [], YAHOO: [c("8d")]}
    assert c("7d") in game.hands[Y] and c("Tc") in game.hands[G]
    assert game.last_winner == YAHOO


def test_yahoo_special_declined_falls_back_to_the_last_winner():
    game = two_player("Tc 9c 4c 3h 2h", "8d 7d Jd Qs", "9h 8h", last_winner=GOOGLE)
    play(game, G, "Tc")
    play(game, Y, "8d")
    game.apply(Y, Action("decline"))
    assert game.put_aside == {GOOGLE: [c("Tc")], YAHOO: []}


def test_yahoo_special_applied_automatically_under_the_auto_house_rule():
    game = two_player("Tc 9c 4c 3h 2h", "8d 7d Jd Qs", "9h 8h", last_winner=GOOGLE,
                      options={"yahoo_tiebreak": "auto"})
    play(game, G, "Tc")
    events = play(game, Y, "8d")
    assert "tiebreak_offered" not in kinds(events)
    assert game.put_aside[YAHOO] == [c("8d")] and c("7d") in game.hands[Y]


def test_yahoo_special_one_further_on_either_side_and_on_the_first_search():
    # Request 5, Google 3 and Yahoo 7 tie at 2 points; an 8 is 3 points away too.
    game = two_player("3c 9c 4c Th 2h", "7d 8d Jd Qs", "5h 8h")
    play(game, G, "3c")
    play(game, Y, "7d")
    assert game.phase == "tiebreak"  # the special also settles a first-search tie
    game.apply(Y, Action("tiebreak", (c("8d"),)))
    assert game.put_aside[YAHOO] == [c("7d")]


def test_yahoo_special_wrong_card_is_refused_with_a_reason_and_nothing_changes():
    game = two_player("Tc 9c 4c 3h 2h", "8d 7d 6d Qs", "9h 8h", last_winner=GOOGLE)
    play(game, G, "Tc")
    play(game, Y, "8d")
    before = game.to_dict()
    with pytest.raises(IllegalAction, match=r"6♦ does not break the tie.*\(a 7\)"):
        game.apply(Y, Action("tiebreak", (c("6d"),)))
    assert game.to_dict() == before


def test_yahoo_special_is_not_offered_when_it_changes_nothing():
    # Yahoo won the last search, so it wins the tie anyway.
    game = two_player("Tc 9c 4c 3h 2h", "8d 7d Jd Qs", "9h 8h", last_winner=YAHOO)
    play(game, G, "Tc")
    events = play(game, Y, "8d")
    assert "tiebreak_offered" not in kinds(events) and game.put_aside[YAHOO] == [c("8d")]


def test_no_yahoo_special_on_a_face_request():
    game = two_player("Qc 9c 4c 3h 2h", "Qd Jd Kd 8s", "Qh 8h", last_winner=GOOGLE)
    play(game, G, "Qc")
    play(game, Y, "Qd")
    assert game.put_aside[GOOGLE] == [c("Qc")]


# --------------------------------------------------------------------------- Google's special


def test_ipo_on_googles_turn_adds_four_cards_and_stops_drawing():
    game = two_player("Tc 9c 4c 3h 2h", "8d 7d Jd Qs", "9h 8h 7h 6h", last_winner=YAHOO,
                      google_deck="Ac As Ah Ad 2s 3s")
    # Yahoo holds the first turn: no IPO for Google yet.
    assert Action("ipo") not in game.legal_actions(G)
    with pytest.raises(IllegalAction, match="start of your own turn"):
        game.apply(G, Action("ipo"))
    play(game, G, "2h")
    play(game, Y, "8d")  # Yahoo wins the 9
    assert game.turn == G and Action("ipo") in game.legal_actions(G)
    events = game.apply(G, Action("ipo"))
    ipo = next(e for e in events if e.kind == "ipo")
    assert ipo.visible_to(Y) == {"player": G, "count": 4}
    assert len(game.hands[G]) == 9 and game.decks[GOOGLE] == [c("2s"), c("3s")]
    assert G in game.current_players()  # the IPO does not use up the pick
    play(game, G, "9c")  # 9 is closest to the 8
    play(game, Y, "2d")
    assert game.put_aside[GOOGLE] == [c("9c")]
    # 8 cards left, above the usual 5: no drawing.
    assert len(game.hands[G]) == 8 and len(game.decks[GOOGLE]) == 2
    # Once a game (two players).
    play(game, G, "2h")
    play(game, Y, "7d")
    assert game.turn == G
    assert Action("ipo") not in game.legal_actions(G)
    with pytest.raises(IllegalAction, match="already used its IPO for this game"):
        game.apply(G, Action("ipo"))


def test_ipo_only_before_picking_and_never_for_yahoo():
    game = two_player("Tc 9c 4c 3h 2h", "8d 7d Jd Qs", "9h 8h 7h", last_winner=YAHOO)
    with pytest.raises(IllegalAction, match="Only Google"):
        game.apply(Y, Action("ipo"))
    play(game, G, "2h")
    play(game, Y, "8d")
    play(game, G, "Tc")
    with pytest.raises(NotYourTurn, match="already picked"):
        game.apply(G, Action("ipo"))


# --------------------------------------------------------------------------- two-player end


def test_two_player_game_ends_when_the_search_deck_is_used_up():
    game = two_player("Tc 9c 4c 3h 2h", "8d 7d Jd Qs", "9h 3s", last_winner=YAHOO)
    play(game, G, "9c")
    play(game, Y, "8d")  # Google wins the 9
    assert not game.is_over() and game.request == c("3s") and game.decks[SEARCH] == []
    play(game, G, "Tc")
    events = play(game, Y, "Jd")  # the last request is still played out
    over = next(e for e in events if e.kind == "game_over")
    assert game.is_over() and over.data["reason"] == "deck_used_up"
    assert over.data["empty_decks"] == [SEARCH]
    assert over.data["scores"] == {GOOGLE: 2, YAHOO: 0}
    assert game.placements() == [[G], [Y]]
    assert game.current_players() == frozenset() and game.legal_actions(G) == []


def test_two_player_game_ends_when_a_player_deck_is_used_up():
    game = two_player("Tc 9c 4c 3h 2h", "8d 7d Jd Qs", "9h 3s 4s 5s", google_deck="Kd",
                      last_winner=YAHOO)
    play(game, G, "9c")
    events = play(game, Y, "8d")
    over = next(e for e in events if e.kind == "game_over")
    assert over.data["empty_decks"] == [GOOGLE]
    assert game.placements() == [[G], [Y]] and over.data["scores"] == {GOOGLE: 1, YAHOO: 0}


def test_equal_scores_at_the_end_are_a_draw():
    game = two_player("Tc 9c 4c 3h 2h", "8d 7d Jd Qs", "9h", last_winner=YAHOO)
    play(game, G, "2h")
    play(game, Y, "Jd")  # the 2 is 7 away, the J has no value: Google wins 1-0
    assert game.placements() == [[G], [Y]]
    game = two_player("Kc 9c 4c 3h 2h", "Kd 7d Jd Qs", "9h")
    play(game, G, "Kc")
    play(game, Y, "Kd")  # nothing answers the 9: 0-0
    assert game.is_over() and game.placements() == [[G, Y]]


# --------------------------------------------------------------------------- errors and timeouts


def test_picking_a_card_you_do_not_hold_is_refused_and_changes_nothing():
    game = two_player("Tc 9c 4c 3h 2h", "8d 7d Jd Qs", "9h 3s")
    before = game.to_dict()
    with pytest.raises(IllegalAction, match="You don't hold 8♦"):
        play(game, G, "8d")
    assert game.to_dict() == before
    play(game, G, "Tc")
    before = game.to_dict()
    with pytest.raises(NotYourTurn, match="already picked"):
        play(game, G, "9c")
    assert game.to_dict() == before


def test_legal_picks_are_deduplicated_and_sorted():
    game = two_player("9c 9c 2h Tc Ac", "8d 7d Jd Qs", "9h 3s")
    assert [a.code() for a in game.legal_actions(G)] == ["play:Ac", "play:2h", "play:9c", "play:Tc"]


def test_timeout_picks_the_closest_card_lower_first():
    game = two_player("Tc 8c Kc 3h 2h", "Jd Qd Kd Qs", "9h 3s")
    assert game.timeout_action(G) == Action.play("8c")  # 8 and 10 both one away: lower
    assert game.timeout_action(Y) == Action.play("Jd")  # nothing answers: the lowest card
    game = two_player("Tc 8c Kc 3h 2h", "Jd Qd Kd Qs", "Kh 3s")
    assert game.timeout_action(G) == Action.play("Kc")  # the exact image


def test_timeout_shows_the_tie_breaker():
    game = two_player("Tc 9c 4c 3h 2h", "8d 7d Jd Qs", "9h 8h", last_winner=GOOGLE)
    play(game, G, "Tc")
    play(game, Y, "8d")
    action = game.timeout_action(Y)
    assert action == Action("tiebreak", (c("7d"),))
    game.apply(Y, action)
    assert game.put_aside[YAHOO] == [c("8d")]


def test_leaving_forfeits_for_the_side():
    game = two_player("Tc 9c 4c 3h 2h", "8d 7d Jd Qs", "9h 8h")
    zones_before = zones_by_deck(game)
    play(game, G, "Tc")
    events = game.remove_player(G)
    assert kinds(events) == ["player_removed", "game_over"]
    assert game.is_over() and game.placements() == [[Y], [G]]
    assert zones_by_deck(game) == zones_before
    assert c("Tc") in game.hands[G]  # the hidden pick went back, never shown
    assert game.remove_player(G)[0].kind == "player_removed"  # never raises


def test_action_codes_round_trip():
    for action in (Action.play("Tc"), Action("ipo"), Action("decline"), Action("tiebreak", (c("7d"),)),
                   Action("refill", arg="deck"), Action("refill", arg="partner")):
        assert Action.parse(action.code()) == action
    assert Action("refill", arg="partner").code() == "refill::partner"
