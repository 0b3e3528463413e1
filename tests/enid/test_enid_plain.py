"""Plain mode: Mike Taylor's "natural" Blackjack and its magic cards (the seed's first half)."""

from __future__ import annotations

from collections import Counter

import pytest
from enid_helpers import act, drawn, hand, kinds, owed, say, stacked, timeout

from bot.rules.cards import card_counter, standard_deck
from bot.rules.engine import Action, IllegalAction, NotYourTurn, RuleError
from cogs.enid.rules import HOUSE_RULES, EnidGame

PLAIN = {"mode": "plain"}


def plain(hands, **kw):
    return stacked(hands, options={**PLAIN, **kw.pop("options", {})}, **kw)


def test_deal_seven_each_one_card_turned_up_rest_is_the_deck():
    game = EnidGame.new([1, 2, 3], PLAIN, seed=7)
    assert [len(game.hands[p]) for p in (1, 2, 3)] == [7, 7, 7]
    assert len(game.discard) == 1 and len(game.deck) == 52 - 21 - 1
    assert card_counter([*game.hands.values(), game.deck, game.discard]) == Counter(standard_deck())
    assert game.enid is None and game.options["mode"] == "plain"
    assert game.to_json() == EnidGame.new([1, 2, 3], PLAIN, seed=7).to_json()
    assert [e.kind for e in game.opening_events] == ["turned_up", "turn"]


@pytest.mark.parametrize("players", [[1], [1, 2, 3, 4, 5, 6], [1, 1]])
def test_two_to_five_players(players):
    with pytest.raises(RuleError):
        EnidGame.new(players, PLAIN, seed=1)


def test_house_rules_and_mode_defaults_and_bad_values_fall_back():
    assert {r.key: r.default for r in HOUSE_RULES} == {
        "voluntary_draw": "no", "beginner_names": "naming", "ritual_seconds": "30",
        "limerick_seconds": "180", "vote_seconds": "30", "builtin_names": "keep",
    }
    game = EnidGame.new([1, 2], {"mode": "bogus", "ritual_seconds": "7"}, seed=1)
    assert game.options["mode"] == "enid" and game.options["ritual_seconds"] == "30"


def test_follow_suit_or_rank_and_a_refusal_changes_nothing():
    game = plain({1: ["9h", "4c", "5d"], 2: ["Kc", "3c"]}, discard=["4h"])
    assert [a.code() for a in game.legal_actions(1)] == ["play:4c", "play:9h"]
    before = game.to_json()
    with pytest.raises(IllegalAction) as refused:
        game.apply(1, Action.play("5d"))
    assert str(refused.value) == "5♦ does not follow 4♥: match its suit (Hearts) or its rank."
    with pytest.raises(NotYourTurn):
        game.apply(2, Action.play("3c"))
    with pytest.raises(IllegalAction):
        game.apply(1, Action("draw"))  # may draw only when unable to lay
    assert game.to_json() == before
    events = act(game, 1, "4c")
    assert kinds(events) == ["play", "turn"] and game.current == 2


def test_draw_one_when_you_cannot_and_the_house_rule_that_lets_you_draw_anyway():
    game = plain({1: ["9s", "2d"], 2: ["Kc"]}, discard=["4h"], deck=["8c", "6c"])
    assert [a.code() for a in game.legal_actions(1)] == ["draw"]
    events = act(game, 1, "draw")
    assert hand(game, 1) == ["2d", "6c", "9s"] and game.current == 2
    assert [e.visible_to(None)["reason"] for e in events if e.kind == "draw"] == ["cannot_play"]
    loose = plain({1: ["9h", "2d"], 2: ["Kc"]}, discard=["4h"], options={"voluntary_draw": "yes"})
    assert "draw" in [a.code() for a in loose.legal_actions(1)]


def test_empty_deck_is_replenished_from_the_face_up_stock_keeping_the_top_card():
    game = plain({1: ["9s", "2d"], 2: ["Kc"]}, discard=["5h", "6h", "4h"], deck=[])
    events = act(game, 1, "draw")
    assert "reshuffle" in kinds(events)
    assert [str(c) for c in game.discard] == ["4h"] and len(game.hands[1]) == 3 and len(game.deck) == 1


def test_ace_names_a_suit_which_the_next_play_must_follow():
    game = plain({1: ["Ah", "2c"], 2: ["9h", "9s", "Ac"]}, discard=["4h"])
    act(game, 1, "Ah")
    assert game.phase == "suit" and game.current == 1
    act(game, 1, "suit::s")
    assert game.current == 2
    assert [a.code() for a in game.legal_actions(2)] == ["play:Ac", "play:9s"]


def test_two_makes_the_next_player_pick_up_two_or_four_or_six():
    game = plain({1: ["2h", "5c", "7c"], 2: ["2c", "7d", "7h"], 3: ["2s", "9d", "9c"], 4: ["Kh", "Qh"]}, discard=["4h"],
                 deck=[f"{r}d" for r in "3456"] + ["3c", "4c", "5s", "6s", "8s", "9s"])
    act(game, 1, "2h")
    assert game.pickup == 2
    assert [a.code() for a in game.legal_actions(2)] == ["play:2c", "draw"]  # only a Two, or take it
    act(game, 2, "2c")
    assert game.pickup == 4
    act(game, 3, "2s")
    assert game.pickup == 6
    events = act(game, 4, "draw")
    assert drawn(events, 4) == 6 and game.pickup == 0 and game.current == 1


def test_seven_reverses_direction():
    game = plain({1: ["7h", "5c"], 2: ["Kc"], 3: ["7c", "9d"]}, discard=["4h"])
    act(game, 1, "7h")
    assert game.direction == -1 and game.current == 3
    act(game, 3, "7c")
    assert game.direction == 1 and game.current == 1


def test_eight_must_be_followed_by_any_other_card_of_the_same_player():
    game = plain({1: ["8h", "Ks", "5c"], 2: ["Kc"]}, discard=["4h"])
    act(game, 1, "8h")
    assert game.current == 1 and game.phase == "eight"
    assert [a.code() for a in game.legal_actions(1)] == ["play:5c", "play:Ks"]  # any card, no matching
    act(game, 1, "5c")
    assert game.current == 2


def test_an_eight_as_last_card_draws():
    game = plain({1: ["8h"], 2: ["Kc"]}, discard=["4h"], deck=["6c"])
    events = act(game, 1, "8h")
    assert [e.visible_to(None)["reason"] for e in events if e.kind == "draw"] == ["eight_last"]
    assert hand(game, 1) == ["6c"] and not game.is_over() and game.current == 2


def test_ten_lays_three_more_of_its_suit():
    game = plain({1: ["Th", "3h", "6h", "Jh", "5c"], 2: ["Kc"]}, discard=["4h"])
    act(game, 1, "Th")
    assert game.phase == "ten" and [a.code() for a in game.legal_actions(1)] == ["play:3h", "play:6h", "play:Jh", "end"]
    act(game, 1, "3h", "6h", "Jh")
    assert hand(game, 1) == ["5c"] and game.current == 2
    assert game.pickup == 0  # cards laid under a Ten have no magic (docs/rules/enid.md)


def test_ten_may_stop_early_with_end():
    game = plain({1: ["Th", "3h", "6h", "5c"], 2: ["Kc"]}, discard=["4h"])
    act(game, 1, "Th", "3h", "end")
    assert hand(game, 1) == ["5c", "6h"] and game.current == 2


def test_black_jack_black_jack_red_jack_leaves_seven_to_pick_up():
    game = plain({1: ["Js", "5c", "7c"], 2: ["Jc", "5d", "7d"], 3: ["Jh", "9d", "9c"], 4: ["Kh", "Qh"]}, discard=["4s"],
                 deck=[f"{r}{s}" for r in "3456" for s in "cd"])
    act(game, 1, "Js")
    assert game.pickup == 7
    act(game, 2, "Jc")
    assert game.pickup == 14
    act(game, 3, "Jh")
    assert game.pickup == 7
    events = act(game, 4, "draw")
    assert drawn(events, 4) == 7


def test_a_red_jack_neutralises_a_single_black_jack():
    game = plain({1: ["Js", "5c"], 2: ["Jd", "5d"], 3: ["9d"]}, discard=["4s"])
    act(game, 1, "Js")
    act(game, 2, "Jd")
    assert game.pickup == 0 and game.current == 3
    assert [a.code() for a in game.legal_actions(3)] == ["play:9d"]  # follows the Jack of diamonds normally


def test_a_red_jack_alone_is_an_ordinary_card():
    game = plain({1: ["Jh", "5c"], 2: ["Kc"]}, discard=["4h"])
    act(game, 1, "Jh")
    assert game.pickup == 0 and game.current == 2


def test_queen_skips_one_and_king_skips_two():
    game = plain({1: ["Qh", "5c"], 2: ["Kc"], 3: ["Kh", "6c"], 4: ["9d"]}, discard=["4h"])
    act(game, 1, "Qh")
    assert game.current == 3
    act(game, 3, "Kh")
    assert game.current == 2  # 4 and 1 skipped


def test_last_card_said_in_time_costs_nothing():
    game = plain({1: ["5h", "6h"], 2: ["Kh", "Kc"]}, discard=["4h"])
    act(game, 1, "5h")
    assert owed(game, 1) == ["last"] and game.current == 2  # plain: the turn passed at once
    events = say(game, 1, "Last card!")
    assert "ritual_met" in kinds(events) and owed(game, 1) == []
    events = act(game, 2, "Kh")
    assert drawn(events, 1) == 0


def test_last_card_forgotten_picks_up_seven_when_the_next_player_moves():
    game = plain({1: ["5h", "6h"], 2: ["Kh", "Kc"]}, discard=["4h"], deck=[f"{r}{s}" for r in "23456" for s in "cs"])
    act(game, 1, "5h")
    events = act(game, 2, "Kh")
    assert drawn(events, 1) == 7 and owed(game, 1) == []
    assert kinds(events)[:2] == ["obligation_closed", "ritual_failed"]


def test_last_card_timer_picks_up_seven():
    game = plain({1: ["5h", "6h"], 2: ["Kh", "Kc"]}, discard=["4h"], deck=[f"{r}{s}" for r in "23456" for s in "cs"])
    act(game, 1, "5h")
    events = timeout(game, "last")
    assert drawn(events, 1) == 7 and len(game.hands[1]) == 8


def test_chat_that_answers_nothing_is_refused_and_changes_nothing():
    game = plain({1: ["5h", "6h"], 2: ["Kh", "Kc"]}, discard=["4h"])
    before = game.to_json()
    with pytest.raises(RuleError):
        say(game, 2, "Last card!")  # nobody is waiting for words from player 2
    act(game, 1, "5h")
    before = game.to_json()
    with pytest.raises(RuleError):
        say(game, 1, "hmm, what now")
    assert game.to_json() == before


def test_laying_the_last_card_wins():
    game = plain({1: ["5h"], 2: ["Kh", "Kc"], 3: ["2c"]}, discard=["4h"])
    events = act(game, 1, "5h")
    assert game.is_over() and game.winner == 1 and kinds(events)[-2:] == ["won", "game_over"]
    assert game.placements() == [[1], [3], [2]] and game.current_players() == frozenset()
    assert game.carry_out()["results"] == [{"winner": 1, "placements": [[1], [3], [2]]}]


def test_plain_mode_tells_suits_by_their_names_and_the_hand_shows_the_suit_named():
    """Taylor's plain Blackjack has no fish: the log said "named ♠ Sturgeon" under
    buttons reading Spades. And the hand said only "Face up: A♥" while hearts were
    barred: the suit named for the Ace is on the hand's line too, as on the board."""
    from cogs.enid import render
    from tests.e2e.embeds import embed_text

    game = plain({1: ["Ah", "2c", "Tc"], 2: ["9h", "9s", "Ac"]}, discard=["4h"])
    act(game, 1, "Ah")
    lines = render.event_lines(act(game, 1, "suit::s"), {1: "Ann", 2: "Bob"})
    assert "Ann named ♠\ufe0e Spades" in lines, lines
    said = embed_text(render.hand_embed(game.observation(2), {1: "Ann", 2: "Bob"}))
    assert "**Face up:** A\u2060♥\ufe0e (♠\ufe0e Spades named)" in said, said
    act(game, 2, "Ac")
    act(game, 2, "suit::c")
    lines = render.event_lines(act(game, 1, "Tc"), {1: "Ann", 2: "Bob"})
    assert "Ann may lay more ♣\ufe0e Clubs" in lines, lines
