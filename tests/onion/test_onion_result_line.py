"""The end of a round says who won and how, who was beaten by what, and who folded
(issue 24: "Standings: 1st @ada; 2nd @bob, @cy and @dee" lumped them together)."""

from __future__ import annotations

from onion_round_helpers import act, advance, codes, default_step, new_round

from bot.discord_front.publish import final_text
from cogs.onion import render
from cogs.onion.rules import DECLARE, OnionGame

P = [1, 2, 3]
DEALER_JUNK = ("2c 3s 4d 5c 9s", "2d 3d 4c 6c 9d")
WEAK = ("2s 3h 4s 7c 7s", "Tc Th 9h Ts 6s")


def played(p2, p3, p1=DEALER_JUNK, players=P, fold=()) -> OnionGame:
    hands = {1: p1, 2: p2, 3: p3}
    hands = {p: tuple(codes(h) for h in pair) for p, pair in hands.items() if p in players}
    game = new_round(players, 1, {p: h[0] for p, h in hands.items()}, second={p: h[1] for p, h in hands.items()})
    for p in fold:
        act(game, p, "fold")
    advance(game, DECLARE)
    while not game.is_over():
        default_step(game)
    return game


def said(game: OnionGame) -> str:
    return final_text("Cripple Mr Onion", game, unit="round", render=render)


def test_the_winner_the_beaten_by_what_and_the_folded_are_told_apart():
    four = [1, 2, 3, 4]
    hands = {1: DEALER_JUNK, 2: ("Ac Kd Ah Qh 2u", "3u 4h 5d 9t 6d"), 3: WEAK,
             4: ("2h 3w 4w 5s 9u", "")}
    game = new_round(four, 1, {p: codes(h[0]) for p, h in hands.items()},
                     second={p: codes(h[1]) for p, h in hands.items() if p != 4})
    act(game, 2, "discard")
    act(game, 3, "discard")
    act(game, 4, "fold")
    advance(game, DECLARE)
    while not game.is_over():
        default_step(game)
    assert game.winner == 2
    text = said(game)
    assert text.startswith("🥇 <@2> won the Cripple Mr Onion round at the showdown with Double Onion")
    assert "Beaten: <@3> — " in text and "<@1> — " in text
    assert text.endswith("Folded: <@4>.")
    assert "Standings" not in text


def test_a_lower_grouping_deciding_is_said():
    # Both have a Double Onion; seat 2's second grouping (a flush) beats seat 3's broken flush.
    game = played(("Ac Kd Ah Qh 2u", "Tc Ts 9u 6h 7u"), ("Aw Ko Au Qu Tt", "Th 7w 7s 5w 5t"))
    assert game.winner == 2, game.observation(None)["showdown"]
    text = said(game)
    assert "<@3> — Double Onion too, lost on the 2nd grouping: " in text
    assert "with Double Onion, flush and more. Pot won: " in text


def test_the_last_player_in_and_a_complete_tie():
    game = new_round(P, 1, {1: codes(DEALER_JUNK[0]), 2: codes("2h 3d 4c 5s 9h"), 3: codes(WEAK[0])})
    act(game, 2, "fold")
    act(game, 3, "fold")
    assert said(game) == "🥇 <@1> won the Cripple Mr Onion round as the last player in. Folded: <@2> and <@3>."
    tie = played(WEAK, ("Aw Ko Au Qu 2w", "3w 4u 5o 9t 6o"), p1=("Ac Kd Ah Qh 2c", "3c 4h 5d 9s 6d"))
    assert tie.winner == 1 and tie.outcome == "seniority"
    assert "won the Cripple Mr Onion round on a complete tie, by seniority" in said(tie)
    assert "the same groupings: the tie goes to seniority" in said(tie)


def test_a_crippling_is_said():
    game = played(("Ac As Ah Ad Aw", "Kc Ks Kh Kd Qc"), ("2h 3h 4h 5h 6h", "7h 8u 9u Tu Ju"))
    assert game.winner == 3
    text = said(game)
    assert "won the Cripple Mr Onion round by crippling <@2>'s Greater Onion with a running flush" in text
    assert "<@2> — crippled" in text
