"""Millard's showdown (house rule ``showdown: millard``), from stacked packs: the Elder's
hand is laid, each player in turn equals or beats it, plays a modifier or concedes, and
the survivor faces the next player up to the Dealer (docs/rules/onion.md, "The showdown").

Seats 1, 2, 3; seat 1 deals, so the Elder is 2 and the Younger 3. Timer defaults up to the
declaration round (no discards, zero bets, nothing bought: the second five of 2 and 3 are
face up), then everyone says done."""

from __future__ import annotations

import pytest
from onion_round_helpers import act, advance, codes, default_step, kinds, new_round

from bot.engine import Action, RuleError
from cogs.onion.rules import DECLARE, DUEL, HOUSE_RULES, OnionGame

P = [1, 2, 3]
DEALER_JUNK = ("2c 3s 4d 5c 9s", "2d 3d 4c 6c 9d")


def to_duel(p2, p3, p1=DEALER_JUNK, after=(), **options) -> tuple[OnionGame, list]:
    hands = {1: p1, 2: p2, 3: p3}
    game = new_round(P, 1, {p: codes(h[0]) for p, h in hands.items()},
                     second={p: codes(h[1]) for p, h in hands.items()}, after=list(after),
                     showdown="millard", **options)
    advance(game, DECLARE)
    events = []
    for p in (2, 3, 1):
        events += act(game, p, "done")
    return game, events


def finish(game):
    events = []
    while not game.is_over():
        events += default_step(game)
    return events


def test_the_showdown_is_the_duel_unless_the_server_chooses_quick():
    rule = next(r for r in HOUSE_RULES if r.key == "showdown")
    assert rule.choices == ("millard", "quick") and rule.default == "millard"
    game = new_round(P, 1, {1: codes(DEALER_JUNK[0]), 2: codes("Ac Kd Ah Qh 2u"), 3: codes("Aw Ko Au Qu Tt")},
                     showdown="quick")
    advance(game, DECLARE)
    events = []
    for p in (2, 3, 1):
        events += act(game, p, "done")
    assert game.is_over() and "duel_start" not in kinds(events) and kinds(events).count("showdown") == 3


# Both hold a Double Onion; seat 2's next grouping (a flush) beats seat 3's broken flush.
FLUSH_SECOND = ("Ac Kd Ah Qh 2u", "Tc Ts 9u 6h 7u")
BROKEN_SECOND = ("Aw Ko Au Qu Tt", "Th 7w 7s 5w 5t")


def test_a_lower_grouping_decides_equal_top_groupings_and_the_dealer_is_brought_in_last():
    game, events = to_duel(FLUSH_SECOND, BROKEN_SECOND)
    # Nobody has a modifier to play: equal hands are shown, beaten ones concede, by themselves.
    assert game.is_over() and game.winner == 2 and game.outcome == "showdown"
    duels = [(e.data["champion"], e.data["challenger"]) for e in events if e.kind == "duel"]
    assert duels == [(2, 3), (2, 1)]  # from the Elder, the Dealer brought in last
    lead = next(e for e in events if e.kind == "duel_lead")
    assert lead.data == {"winner": 2, "loser": 3, "tie": False}
    assert [e.player for e in events if e.kind == "concede"] == [3, 1]
    assert [s["player"] for s in game.observation(None)["showdown"]] == [2, 3, 1]  # all laid face up
    # Swapped seats: the challenger wins on the next grouping, and the Elder concedes.
    game, events = to_duel(BROKEN_SECOND, FLUSH_SECOND)
    assert game.winner == 3 and [e.player for e in events if e.kind == "concede"] == [2, 1]


# Seat 2 (Elder): a Double Onion of K♦ Q♥ and two aces. Seat 3 holds Death (K⚔) face down
# and a seven-card onion, which loses to a Double Onion.
DOUBLE = ("Ac Kd Ah Qh 2u", "Tc Ts 9u 6h 7u")
DEATH_AND_SEVEN = ("Kw 2h 2s 4u 5h", "6s As Aw 9c 7c")


def test_a_modifier_played_in_answer_and_the_laid_hand_re_formed_once():
    game, events = to_duel(DOUBLE, DEATH_AND_SEVEN)
    assert game.phase == DUEL and game.current_players() == {3}
    obs = game.observation(3)
    assert obs["duel"]["champion"] == 2 and obs["duel"]["challenger"] == 3 and obs["duel"]["step"] == "challenge"
    assert obs["showdown"][0]["groupings"][0] == "Double Onion"
    # The seven-card onion can neither equal nor beat: show is not offered; Death (it
    # touches the Elder's Double Onion) and conceding are.
    assert [a.code() for a in game.legal_actions(3)] == ["declare:Kw:death", "concede"]
    with pytest.raises(RuleError, match="show your hand, play a modifier or concede"):
        act(game, 3, "show")
    events = act(game, 3, "declare:Kw:death")
    reformed = [e for e in events if e.kind == "reformed"]
    assert [e.player for e in reformed] == [2]  # the devalued hand re-forms, once
    assert game.observation(None)["showdown"][0]["groupings"][0] != "Double Onion"
    events += finish(game)
    assert game.winner == 3 and game.outcome == "showdown"
    assert kinds(events).count("reformed") == 1
    assert [e.player for e in events if e.kind == "concede"] == [2, 1]


# Seat 3 holds the Lady (Q♠) with K♥ K♠ A♠: one Onion pair, and a six-card onion that loses
# to seat 2's seven-card onion. The next two cards are A♦ and 2♦: taking the A♦ in the
# Lady's place makes a Double Onion.
SEVEN = ("Ac Ah 2u 2w 4t", "5t 6h Tc Ts 9u")
LADY = ("Qs Kh Ks As 2h", "3u 4u 5h 6s 7c")


def test_the_lady_declared_in_the_middle_of_the_showdown():
    game, _ = to_duel(SEVEN, LADY, after=("Ad", "7d"))
    assert game.current_players() == {3}
    assert "declare:Qs:lady" in [a.code() for a in game.legal_actions(3)]
    assert "show" not in [a.code() for a in game.legal_actions(3)]
    act(game, 3, "declare:Qs:lady")
    assert game.current_players() == {3} and game.observation(3)["offered"] == ["Ad", "7d"]
    events = act(game, 3, "pick:Ad")
    assert game.is_over() and game.winner == 3
    mine = next(s for s in game.observation(None)["showdown"] if s["player"] == 3)
    assert mine["groupings"][0] == "Double Onion" and "Qs" not in mine["cards"]
    assert [e.player for e in events if e.kind == "concede"] == [2, 1]


def test_a_beaten_champion_answers_with_a_modifier():
    # Seat 2 (Elder) holds Death face down and a seven-card onion; seat 3 beats it with a
    # Double Onion. Beaten, the Elder answers with Death, and the Double Onion falls.
    game, events = to_duel(DEATH_AND_SEVEN, DOUBLE)
    # The challenger has no modifier to play: its hand, which beats, is shown for it.
    assert "show" not in kinds(events) and [e.player for e in events if e.kind == "showdown"] == [2, 3]
    lead = next(e for e in events if e.kind == "duel_lead")
    assert lead.data["winner"] == 3 and game.current_players() == {2}
    assert [a.code() for a in game.legal_actions(2)] == ["declare:Kw:death", "concede"]
    events = act(game, 2, "declare:Kw:death")
    events += finish(game)
    assert game.winner == 2


def test_timer_concedes_unless_the_hand_may_be_shown_and_the_duel_survives_a_restart():
    game, _ = to_duel(DOUBLE, DEATH_AND_SEVEN)
    assert game.timeout_action(3) == Action("concede")
    saved = game.to_dict()
    back = OnionGame.from_dict(saved)
    assert back.to_dict() == saved and back.legal_actions(3) == game.legal_actions(3)
    act(back, 3, "concede")
    finish(back)
    assert back.winner == 2
    game, _ = to_duel(DEATH_AND_SEVEN, DOUBLE)
    assert game.timeout_action(2) == Action("concede")  # beaten, with Death unplayed
    # A challenger whose hand beats, asked because it holds a modifier: the cards speak.
    game, _ = to_duel(SEVEN, ("Kw Kh As Ks Ad", "2h 3h 4s 5h 6s"))
    assert [a.code() for a in game.legal_actions(3)] == ["show", "declare:Kw:death", "concede"]
    assert game.timeout_action(3) == Action("show")


def test_a_duellist_leaving_brings_in_the_next_player():
    game, _ = to_duel(DOUBLE, DEATH_AND_SEVEN)
    events = game.remove_player(2)  # the champion leaves: the challenger holds on
    events += finish(game)
    assert game.is_over() and game.winner in (1, 3) and 2 in game.folded
    assert game.total_chips() == 300


def test_the_archchancellor_may_be_declared_at_any_time_during_the_game():
    # "At any time during the game": here by the Elder while the Dealer's amount is owed.
    game = new_round(P, 1, {1: codes(DEALER_JUNK[0]), 2: codes("Jt 3h 4s 7c 7s"), 3: codes("Kw 3c 4h 5h 7h")})
    advance(game, "bet")
    act(game, 1, "bet::1")
    assert game.current_players() == {2}
    assert "declare:Jt:archchancellor" in [a.code() for a in game.legal_actions(2)]
    events = act(game, 2, "declare:Jt:archchancellor")
    assert [(e.data["card"], e.data["forced"]) for e in events if e.kind == "declared"] == [("Jt", False), ("Kw", True)]
    assert game.current_players() == {1}  # the Dealer discloses a card first
    act(game, 1, "disclose:2c")
    assert game.current_players() == {2} and game.phase == "bet" and game.owed(2) == 1  # the turn goes on
    assert "declare:Jt:archchancellor" not in [a.code() for a in game.legal_actions(2)]
    act(game, 2, "match")
    assert game.current_players() == {3}


def test_a_hand_given_up_is_conceded_not_crippled_and_a_cripple_is_recorded():
    from bot.publish import final_text
    from cogs.onion import render

    # Seat 3 (Death, a Double Onion of its own) beats the Elder's seven-card onion but gives up.
    game, _ = to_duel(SEVEN, ("Kw Kh As Ks Ad", "2h 3h 4s 5h 6s"))
    act(game, 3, "concede")
    finish(game)
    assert game.winner == 2
    said = final_text("Cripple Mr Onion", game, unit="round", render=render)
    assert "crippling" not in said and "<@3> (conceded with Double Onion)" in said
    # A ten-card running flush against the Elder's Greater Onion: crippled, and said so.
    game, events = to_duel(("Ac As Ah Ad Aw", "Kc Ks Kh Kd Qc"), ("2h 3h 4h 5h 6h", "7h 8u 9u Tu Ju"))
    assert game.winner == 3 and "crippled" in kinds(events)
    said = final_text("Cripple Mr Onion", game, unit="round", render=render)
    assert "by crippling <@2>'s Greater Onion" in said
