"""Blackjack deals the whole deck (issue 37, item 5): at the start there is nothing to
draw, and a draw with nothing under the discard pile's top card draws nothing and ends
the turn. The board, the hand and the Draw button say what really happens then, and
the Piles line says what a draw does once the draw pile is empty."""

from __future__ import annotations

from bj_helpers import play, stacked

from cogs.blackjack import render
from cogs.blackjack.rules import BlackjackGame
from tests.e2e.embeds import embed_text

NAMES = {1: "<@1>", 2: "<@2>", 3: "<@3>"}


def words(game: BlackjackGame, viewer: int) -> tuple[str, str, list[str]]:
    board = embed_text(render.table_embed(game.observation(None), NAMES, []))
    hand = embed_text(render.hand_embed(game.observation(viewer), NAMES))
    labels = [c.label for c in render.controls(game.observation(viewer), game.legal_actions(viewer))]
    return board, hand, labels


def test_three_players_after_the_first_card_nothing_can_be_drawn():
    game = BlackjackGame.new([1, 2, 3], {}, seed="newcomer")
    assert game.observation(None)["deck_size"] == 0  # the whole deck is dealt
    first = game.current
    while game.current == first:  # the first turn: one card, then end it
        legal = game.legal_actions(first)
        game.apply(first, next((a for a in legal if a.kind == "end"), legal[0]))
    assert game.observation(None)["discard_size"] == 1, "the seed's first turn is one card"
    board, _hand, _labels = words(game, game.current)
    assert "draw 1 card if they cannot" not in board
    assert "Draw pile: 0 · Discard pile: 1 (nothing to draw until more cards are played)" in board, board
    assert "(if they cannot, their turn ends: there is nothing to draw)" in board, board


def test_a_player_who_cannot_play_is_told_they_pass_and_the_button_says_so():
    # Ann to play on 7♥ with nothing matching; the draw pile is empty, the discard pile holds only its top card.
    game = stacked({1: ["2c", "3s"], 2: ["Kd"]}, discard=["7h"], deck=[], first=1)
    board, hand, labels = words(game, 1)
    assert "(if they cannot, their turn ends: there is nothing to draw)" in board, board
    assert "if you have none, pass: there is nothing to draw" in hand, hand
    assert labels == ["Pass (nothing to draw)"]
    events = play(game, 1, "draw")
    assert render.event_lines(events, NAMES)[0] == "<@1> had to draw, but there was nothing to draw (nothing to play)"


def test_an_empty_draw_pile_with_cards_under_the_top_says_a_draw_reshuffles():
    game = stacked({1: ["2c", "3s"], 2: ["Kd"]}, discard=["9c", "8d", "7h"], deck=[], first=1)
    board, hand, labels = words(game, 1)
    assert "a draw shuffles the discard pile but its top card into a new one" in board, board
    assert "(or draw 1 card if they cannot)" in board and labels == ["Draw 1 card"]


def test_a_pickup_larger_than_what_can_be_drawn_says_what_becomes_of_the_rest():
    forgiven = stacked({1: ["2c", "3s"], 2: ["Kd"]}, discard=["9c", "Jh"], deck=[], first=1, pickup=3)
    assert "1 of the 3 cards can be drawn, the rest is forgiven" in words(forgiven, 1)[0]
    owed = stacked({1: ["2c", "3s"], 2: ["Kd"]}, discard=["9c", "Jh"], deck=[], first=1, pickup=3,
                   options={"pickup_shortfall": "debt"})
    assert "1 of the 3 cards can be drawn, the rest is owed" in words(owed, 1)[0]
