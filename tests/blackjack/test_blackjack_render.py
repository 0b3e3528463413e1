"""Blackjack rendering: Discord limits for the biggest tables and hands, and no leaks."""

from __future__ import annotations

import random

from bj_helpers import play, stacked

from bot.cards import Suit, parse_card, standard_deck
from tests.e2e.embeds import assert_within_limits, embed_text
from bot.engine import Action
from cogs.blackjack import render
from cogs.blackjack.rules import BlackjackGame

LONG_NAMES = {p: f"<@{10**18 + p}>" for p in range(1, 11)}






def whole_deck_in_one_hand() -> BlackjackGame:
    deck = [str(c) for c in standard_deck()]
    return stacked({1: deck[:-1], **{p: [] for p in range(2, 11)}}, discard=[deck[-1]], pickup=40, offset=-3)


def test_biggest_hand_fits_the_limits():
    game = whole_deck_in_one_hand()
    obs = game.observation(1)
    embed = render.hand_embed(obs, LONG_NAMES)
    assert_within_limits(embed)
    assert "Your hand: 51 cards" in embed.title
    for code in obs["hand"]:
        assert parse_card(code).display() in embed.description
    legal = game.legal_actions(1)
    controls = render.controls(obs, legal)
    assert [c.action for c in controls] == legal
    for control in controls:
        if control.place == "select":
            assert 0 < len(control.label) <= 100 and len(control.description) <= 100
        else:
            assert 0 < len(control.label) <= 80
    assert next(c for c in controls if c.action.kind == "draw").label == "Pick up 40 cards"


def test_biggest_table_fits_the_limits():
    game = BlackjackGame.new(list(range(1, 11)), {"pickup_shortfall": "debt"}, seed=5)
    recent = ["x" * 300 for _ in range(40)]
    embed = render.table_embed(game.observation(None), LONG_NAMES, recent)
    assert_within_limits(embed)
    text = embed_text(embed)
    assert all(name in text for name in LONG_NAMES.values())


def test_table_shows_the_public_facts():
    game = stacked({1: ["9h", "9c", "4c"], 2: ["Kc"]}, discard=["Jd", "Ah"], chosen_suit="c", pickup=0)
    play(game, 1, "9c")
    obs = game.observation(None)
    text = embed_text(render.table_embed(obs, {1: "<@1>", 2: "<@2>"}, ["<@1> played 9♣"]))
    assert "**Top card:** 9♣" in text
    assert "**This turn:** 9♣" in text
    assert "▶ <@1>: 2 cards" in text and "<@2>: 1 card" in text


def test_suit_and_turn_controls():
    game = stacked({1: ["Ah", "9h", "9c"], 2: ["Kc"]})
    play(game, 1, "Ah")
    obs = game.observation(1)
    labels = [c.label for c in render.controls(obs, game.legal_actions(1))]
    assert labels == ["♣ Clubs", "♦ Diamonds", "♥ Hearts", "♠ Spades"]
    assert "Name a suit for your Ace." in render.hand_embed(obs, {}).description
    play(game, 1, "suit::h")
    # 9♥ matches the named hearts; not a chain phase any more (no other Ace) so the turn ended.
    assert game.current_players() == {2}


def test_event_lines_merge_a_turn_and_name_effects():
    game = stacked({1: ["Js", "Jc", "Jh", "5h"], 2: ["5s"]})
    events = play(game, 1, "Js", "Jc", "Jh", "end")
    lines = render.event_lines(events, {1: "<@1>", 2: "<@2>"})
    assert lines == ["<@1> played J♠ J♣ J♥ (pickup now 13)", "It's <@2>'s turn"]


def test_event_lines_never_show_drawn_cards():
    game = stacked({1: ["5d"], 2: ["Kc"]}, discard=["7s"], deck=["Qh", "2d"])
    events = play(game, 1, "draw")
    lines = render.event_lines(events, {1: "<@1>"})
    assert lines[0] == "<@1> drew 1 card (nothing to play)"
    assert "2♦" not in "\n".join(lines)


def test_no_hidden_card_in_public_text_during_random_games():
    rng = random.Random(7)
    for seed in range(12):
        game = BlackjackGame.new(list(range(1, rng.randint(2, 10) + 1)), {}, seed=seed)
        while not game.is_over():
            player = next(iter(game.current_players()))
            events = game.apply(player, rng.choice(game.legal_actions(player)))
            played = {e.data["card"] for e in events if e.kind == "play"}
            drawn_hidden = {
                code for e in events if e.kind == "draw" for code in e.data["cards"] if code not in played
            }
            lines = render.event_lines(events, LONG_NAMES)
            text = "\n".join(lines)
            assert not any(parse_card(code).display() in text for code in drawn_hidden)
            # The table (without the log, whose old plays may since have been drawn
            # back after a reshuffle) shows no card that sits in any hand.
            table = embed_text(render.table_embed(game.observation(None), LONG_NAMES, []))
            in_hands = {c.display() for hand in game.hands.values() for c in hand}
            assert not any(card in table for card in in_hands)


def test_every_suit_renders():
    labels = {c.label for c in render.controls({}, [Action("suit", arg=s.value) for s in Suit])}
    assert len(labels) == 4


def test_hand_embed_tells_the_player_what_to_do():
    game = stacked({1: ["Jh", "Jc", "5d"], 2: ["Kc"]})
    assert "play any card to start the pile" in render.hand_embed(game.observation(1), {}).description
    assert "Waiting for your turn." in render.hand_embed(game.observation(2), {}).description
    play(game, 1, "Jh")
    assert "Add more Jacks, or end your turn." in render.hand_embed(game.observation(1), {}).description
    descriptions = {c.label: c.description for c in render.controls(game.observation(1), game.legal_actions(1))}
    assert descriptions == {"J♣": "Pickup +5 for the next player", "End turn": ""}
