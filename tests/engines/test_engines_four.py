"""Scenario tests for the four-player ("SI") rules: teams, matches, first played per
team, refilling from the partner, short hands, reshuffles, sets and the match."""

from __future__ import annotations

import random

import pytest

from bot.rules.cards import parse_card
from bot.rules.engine import Action, IllegalAction, RuleError
from cogs.engines.rules import GOOGLE, SEARCH, YAHOO, EnginesGame, teams_from_seat_choices
from helpers_engines import FULL_DECK, TEAMS_4 as TEAMS, four_player, kinds, play, zones_by_deck

# Google: 1 and 3. Yahoo: 2 and 4. Seats 1, 2, 3, 4; Yahoo's 2 holds the first turn,
# so "first played" order for the first search is 2, 3, 4, 1.
HANDS = {
    1: "6c 9c 2c 3c 4c",
    2: "6d 8d 3d 4d",
    3: "6h 7h 2h 3h Kh",
    4: "Js 7s 3s Ks",
}
# No 2 or 8 for Yahoo, so Yahoo's special cannot settle a tie on a 5.
NO_SPECIAL = {**HANDS, 2: "6d 5d 3d 4d"}


def c(code: str):
    return parse_card(code)


def test_every_match_is_put_aside_and_scores():
    game = four_player(HANDS, "6s 9s 8s")
    play(game, 1, "6c")
    play(game, 2, "6d")
    play(game, 3, "6h")
    events = play(game, 4, "Js")
    won = next(e for e in events if e.kind == "search_won")
    assert won.data["reason"] == "match"
    assert [w["player"] for w in won.data["winners"]] == [2, 3, 1]  # play order from 2
    assert sorted(map(str, game.put_aside[GOOGLE])) == ["6c", "6h"] and game.put_aside[YAHOO] == [c("6d")]
    assert game.last_winner == GOOGLE  # two matches to one
    assert c("Js") in game.hands[4]
    # Both Google players won, so neither can take from the other; Yahoo's 2 may.
    assert game.phase == "refill" and game.current_players() == frozenset({2})
    assert game.legal_actions(2) == [Action("refill", arg="deck"), Action("refill", arg="partner")]


def test_both_teams_matching_equally_leads_with_the_first_match():
    game = four_player(HANDS, "6s 9s 8s")
    play(game, 1, "6c")
    play(game, 2, "6d")
    play(game, 3, "2h")
    play(game, 4, "Js")
    assert game.put_aside == {GOOGLE: [c("6c")], YAHOO: [c("6d")]}
    assert game.last_winner == YAHOO  # 2 plays before 1 in this turn's order
    assert game.current_players() == frozenset({1, 2})  # each lone winner picks a refill


def test_only_the_first_played_of_equal_closest_cards_per_team():
    # Request 8: Google's 9 (player 1) and 7 (player 3) are both one away. Play order
    # starts with the turn holder (2), so 3 is "first played".
    game = four_player(HANDS, "8s 9s 5s", last_winner=YAHOO)
    play(game, 1, "9c")
    play(game, 2, "3d")
    play(game, 3, "7h")
    play(game, 4, "Js")
    assert game.put_aside == {GOOGLE: [c("7h")], YAHOO: []}
    assert c("9c") in game.hands[1]


def test_refill_blindly_from_the_partner_then_the_partner_refills_from_the_deck():
    game = four_player(HANDS, "8s 9s 5s", google_deck="Ts Js Qs")
    play(game, 1, "2c")
    play(game, 2, "3d")
    play(game, 3, "7h")
    play(game, 4, "Js")
    assert game.current_players() == frozenset({3}) and game.phase == "refill"
    partner_before = list(game.hands[1])
    events = game.apply(3, Action("refill", arg="partner"))
    taken = [c for c in game.hands[3] if c not in [parse_card(x) for x in "6h 2h 3h Kh".split()]]
    assert len(taken) == 1 and taken[0] in partner_before
    # The partner is back to 5 with the top card of the team deck.
    assert len(game.hands[1]) == 5 and c("Ts") in game.hands[1]
    assert game.decks[GOOGLE] == [c("Js"), c("Qs")]
    refill = next(e for e in events if e.kind == "refill")
    assert refill.visible_to(None) == {"player": 3, "source": "partner", "partner": 1, "count": 1}
    assert refill.visible_to(3)["cards"] == [str(taken[0])]
    assert "cards" not in refill.visible_to(1) and "cards" not in refill.visible_to(2)
    assert game.phase == "choose" and game.turn == 3  # play passed to the left of 2


def test_refill_from_the_deck_is_the_ordinary_draw():
    game = four_player(HANDS, "8s 9s 5s", google_deck="Ts Js Qs")
    for player, code in ((1, "2c"), (2, "3d"), (3, "7h"), (4, "Js")):
        play(game, player, code)
    game.apply(3, Action("refill", arg="deck"))
    assert c("Ts") in game.hands[3] and len(game.hands[1]) == 5
    assert game.decks[GOOGLE] == [c("Js"), c("Qs")]


def test_a_player_short_of_cards_at_the_end_of_the_team_deck_plays_on():
    game = four_player(HANDS, "8s 9s 5s", google_deck="")
    for player, code in ((1, "2c"), (2, "3d"), (3, "7h"), (4, "Js")):
        play(game, player, code)
    game.apply(3, Action("refill", arg="deck"))
    assert len(game.hands[3]) == 4 and not game.is_over() and game.set_number == 1
    assert 3 in game.current_players()


def test_cross_team_tie_goes_to_the_last_winning_team():
    game = four_player(NO_SPECIAL, "5s 9s 8s", last_winner=GOOGLE)
    play(game, 1, "9c")
    play(game, 2, "3d")  # 2 away
    play(game, 3, "3h")  # 2 away
    play(game, 4, "Ks")
    assert game.put_aside == {GOOGLE: [c("3h")], YAHOO: []}


def test_first_search_tie_in_four_players_returns_every_card():
    game = four_player(NO_SPECIAL, "5s 9s 8s")
    play(game, 1, "9c")
    play(game, 2, "3d")
    play(game, 3, "3h")
    events = play(game, 4, "Ks")
    assert "tie_returned" in kinds(events)
    assert game.put_aside == {GOOGLE: [], YAHOO: []} and game.turn == 2 and game.request == c("9s")


def test_yahoo_special_counts_when_the_partner_did_play_the_card():
    # Request 9: Google 10 and Yahoo 8 tie; Yahoo's other player played the 7.
    hands = {**HANDS, 1: "Tc 9c 2c 3c 4c"}
    game = four_player(hands, "9s 5s 8s", last_winner=GOOGLE)
    play(game, 1, "Tc")
    play(game, 2, "8d")
    play(game, 3, "Kh")
    events = play(game, 4, "7s")
    won = next(e for e in events if e.kind == "search_won")
    assert won.data["reason"] == "yahoo_special" and won.data["shown"] == {"player": 4, "card": "7s"}
    assert game.put_aside == {GOOGLE: [], YAHOO: [c("8d")]}
    assert c("7s") in game.hands[4]


def test_yahoo_special_counts_when_the_partner_can_play_the_card():
    hands = {**HANDS, 1: "Tc 9c 2c 3c 4c"}
    game = four_player(hands, "9s 5s 8s", last_winner=GOOGLE)
    play(game, 1, "Tc")
    play(game, 2, "8d")
    play(game, 3, "Kh")
    events = play(game, 4, "Js")  # 4 still holds the 7♠
    offered = next(e for e in events if e.kind == "tiebreak_offered")
    assert offered.data == {"players": [4], "distance": 1}
    assert game.current_players() == frozenset({4})
    game.apply(4, Action("tiebreak", (c("7s"),)))
    assert game.put_aside == {GOOGLE: [], YAHOO: [c("8d")]}
    # The winner (2) now chooses how to refill.
    assert game.phase == "refill" and game.current_players() == frozenset({2})


def test_search_deck_is_reshuffled_when_used_up():
    game = four_player(HANDS, "6s Qs")
    for player, code in ((1, "2c"), (2, "3d"), (3, "6h"), (4, "Js")):
        play(game, player, code)
    game.apply(3, Action("refill", arg="deck"))
    assert game.request == c("Qs") and game.decks[SEARCH] == []
    events = []
    for player, code in ((1, "2c"), (2, "3d"), (3, "2h"), (4, "Js")):
        events += play(game, player, code)
    assert "search_discarded" in kinds(events) and "search_reshuffled" in kinds(events)
    assert game.request in (c("6s"), c("Qs")) and len(game.decks[SEARCH]) == 1
    assert game.search_discard == []


def test_ipo_in_four_players_is_the_turn_holders_once_per_set():
    hands = {1: "7c 2c 3c 4c 5c", 2: "6d 8d 3d 4d", 3: "Kh", 4: "2s 7s 3s Ks"}
    game = four_player(hands, "Ks 9s", first=1, google_deck="Ac As Ah Ad")
    assert Action("ipo") in game.legal_actions(1) and Action("ipo") not in game.legal_actions(3)
    with pytest.raises(IllegalAction, match="own turn"):
        game.apply(3, Action("ipo"))
    game.apply(1, Action("ipo"))
    assert len(game.hands[1]) == 9 and game.decks[GOOGLE] == []
    assert game.observation(None)["ipos_left"] == 0
    # Set end: Google's deck is used up and player 3 runs out of cards.
    play(game, 1, "2c")
    play(game, 2, "3d")
    play(game, 3, "Kh")
    events = play(game, 4, "2s")
    assert game.current_players() == frozenset({3})  # 3 may refill from the partner
    events += game.apply(3, Action("refill", arg="deck"))
    set_over = next(e for e in events if e.kind == "set_over")
    assert set_over.data["winner"] == GOOGLE and set_over.data["scores"] == {GOOGLE: 1, YAHOO: 0}
    assert set_over.data["reason"] == "google_out"
    assert "new_set" in kinds(events)
    # The next set starts from three freshly shuffled decks, and the IPO is back.
    assert game.set_number == 2 and game.set_wins == {GOOGLE: 1, YAHOO: 0}
    assert game.put_aside == {GOOGLE: [], YAHOO: []} and game.last_winner is None
    assert {len(game.hands[p]) for p in (1, 3)} == {5} and {len(game.hands[p]) for p in (2, 4)} == {4}
    assert all(counter == FULL_DECK for counter in zones_by_deck(game).values())
    assert game.observation(None)["ipos_left"] == 1 and game.ipos_this_game == 1
    assert game.side_of[game.turn] == YAHOO  # Yahoo cut again for the first turn


def test_taking_the_partners_last_cards_ends_the_set():
    hands = {1: "7c", 2: "6d 8d 3d 4d", 3: "Kh 2h", 4: "2s 7s 3s Ks"}
    game = four_player(hands, "7s 9s", google_deck="")
    play(game, 1, "7c")
    play(game, 2, "3d")
    play(game, 3, "2h")
    play(game, 4, "2s")
    events = game.apply(1, Action("refill", arg="partner"))
    assert next(e for e in events if e.kind == "refill").data["count"] == 2  # both cards 3 held
    assert next(e for e in events if e.kind == "set_over").data["winner"] == GOOGLE


def _random_game(seed: int, chooser_seed: int) -> tuple[EnginesGame, list]:
    game = EnginesGame.new([11, 12, 13, 14], seed=seed)
    rng = random.Random(chooser_seed)
    events = []
    for _ in range(5000):
        if game.is_over():
            break
        player = rng.choice(sorted(game.current_players()))
        events += game.apply(player, rng.choice(game.legal_actions(player)))
    return game, events


def test_full_best_of_three_games():
    went_the_distance = 0
    for seed in range(6):
        game, events = _random_game(seed, seed)
        assert game.is_over()
        sets = [e.data for e in events if e.kind == "set_over"]
        assert len(sets) in (2, 3)
        assert [{k: v for k, v in s.items() if k != "set_wins"} for s in sets] == game.set_results
        winner = max(game.set_wins, key=game.set_wins.get)
        assert game.set_wins[winner] == 2 and min(game.set_wins.values()) == len(sets) - 2
        assert game.placements() == [game.teams[winner], game.teams[GOOGLE if winner == YAHOO else YAHOO]]
        for record in sets:
            scores = record["scores"]
            if scores[GOOGLE] != scores[YAHOO]:
                assert record["winner"] == max(scores, key=scores.get)
        went_the_distance += len(sets) == 3
    assert went_the_distance >= 1  # at least one of these went to a third set


def test_a_game_played_only_by_timeouts_finishes():
    game = EnginesGame.new([11, 12, 13, 14], seed="afk")
    for _ in range(5000):
        if game.is_over():
            break
        player = min(game.current_players())
        game.apply(player, game.timeout_action(player))
    assert game.is_over() and game.result["reason"] == "sets"
    assert max(game.set_wins.values()) == 2


def test_a_long_run_of_unanswered_requests_ends_the_set():
    # Only images in hand and only numbers to search for: nothing can ever be won.
    hands = {1: "Jc Qc", 2: "Jd", 3: "Jh", 4: "Js"}
    game = four_player(hands, "2s 3s", google_deck="", yahoo_deck="")
    events = []
    for _ in range(52 * 4):
        if game.set_number > 1:
            break
        player = min(game.current_players())
        events += game.apply(player, game.timeout_action(player))
    set_over = next(e for e in events if e.kind == "set_over")
    assert set_over.data["reason"] == "stalemate" and set_over.data["set"] == 1
    assert set_over.data["scores"] == {GOOGLE: 0, YAHOO: 0} and set_over.data["winner"] == GOOGLE
    assert sum(e.kind == "search_discarded" for e in events) == 52
    assert game.set_number == 2 and not game.is_over()


def test_a_player_leaving_forfeits_for_the_team():
    game = four_player(HANDS, "8s 9s")
    play(game, 1, "2c")
    events = game.remove_player(4)
    assert events[-1].kind == "game_over" and game.is_over()
    assert game.placements() == [[1, 3], [2, 4]]
    assert c("2c") in game.hands[1]


def test_the_cut_is_public_until_the_first_reveal():
    game = EnginesGame.new([1, 2, 3, 4], {"teams": TEAMS}, seed=8)
    cut = game.observation(None)["cut"]
    assert [entry["player"] for entry in cut] == [2, 4] and game.observation(1)["cut"] == cut
    assert EnginesGame.from_json(game.to_json()).observation(None)["cut"] == cut


def test_lobby_side_choices_become_teams():
    options = teams_from_seat_choices([1, 2, 3, 4], {1: GOOGLE, 2: YAHOO}, {"yahoo_tiebreak": "auto"}, "s")
    teams = options["teams"]
    assert 1 in teams[GOOGLE] and 2 in teams[YAHOO] and options["yahoo_tiebreak"] == "auto"
    assert sorted(teams[GOOGLE] + teams[YAHOO]) == [1, 2, 3, 4] and len(teams[GOOGLE]) == 2
    assert EnginesGame.new([1, 2, 3, 4], options, seed="s").teams == teams
    with pytest.raises(RuleError, match="Google has 3 players .* switch to Yahoo"):
        teams_from_seat_choices([1, 2, 3, 4], {1: GOOGLE, 2: GOOGLE, 3: GOOGLE}, {}, "s")
    assert "teams" not in teams_from_seat_choices([1, 2], {}, {}, "s")
