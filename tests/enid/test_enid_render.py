"""Enid rendering: Discord limits, the public facts, and no hidden card or chain name."""

from __future__ import annotations

import random

from enid_helpers import act, random_step, say, stacked

from bot.rules.cards import standard_deck
from cogs.enid import render
from cogs.enid.rules import EnidGame
from tests.e2e.embeds import assert_within_limits, board_lines, embed_text
from bot.words.render_util import text_cards

LONG_NAMES = {p: f"<@{10**18 + p}>" for p in range(1, 6)}
CHAIN = {"chain": [{"words": ["marmalade"], "author": 2}]}


def test_biggest_hand_and_table_fit_the_limits():
    deck = [str(c) for c in standard_deck()]
    game = stacked({1: deck[:-1], 2: []}, discard=[deck[-1]], deck=[], options={"beginner_names": "yes"})
    obs = game.observation(1)
    embed = render.hand_embed(obs, LONG_NAMES)
    assert_within_limits(embed)
    assert "Your hand: 51 cards" in embed.title and "Alonzo Church of Carp" in embed.description
    legal = game.legal_actions(1)
    controls = render.controls(obs, legal)
    assert [c.action for c in controls] == legal
    assert all(0 < len(c.label) <= (100 if c.place == "select" else 80) for c in controls)
    table = render.table_embed(game.observation(None), LONG_NAMES, ["x" * 300] * 40)
    assert_within_limits(table)


def test_the_opening_lines_say_which_nine_is_the_enid():
    game = EnidGame.new([1, 2], {}, seed=4)
    lines = render.event_lines(game.opening_events, LONG_NAMES)
    suit = game.discard[0].suit
    assert lines[0].startswith(text_cards(f"Turned up: {game.discard[0].display()}. The Enid Blyton is the nine of {suit.symbol}"))
    # Whose turn it is shows on the board; the log carries plays only.
    assert len(lines) == 1 and not any("'s turn" in line for line in lines)


def test_table_shows_the_public_facts_and_never_the_chain():
    game = stacked({1: ["6s", "5c", "5s"], 2: ["Kc", "Kd"], 3: ["Qc", "Qd"]}, discard=["4s"], deck=["3c", "3d"], carry=CHAIN)
    events = act(game, 1, "6s") + say(game, 1, "Alan Turing of Sturgeon") + say(game, 1, "There once was a coder from Warwick")
    lines = render.event_lines(events, LONG_NAMES)
    assert lines[0] == text_cards(f"{LONG_NAMES[1]} laid 6♠") and f"💬 {LONG_NAMES[1]}: “Alan Turing of Sturgeon”" in lines
    text = embed_text(render.table_embed(game.observation(None), LONG_NAMES, lines))
    assert text_cards("**Face up:** 6♠") in text and "chain of 1 middle name" in text and "Limerick waiting" in text
    assert "marmalade" not in text.lower()
    controls = render.controls(game.observation(2), game.legal_actions(2))
    assert [c.label for c in controls] == ["Recite the limerick", "Refuse (draw 1)"]


def test_random_games_render_without_leaking_hidden_cards():
    rng = random.Random(3)
    for seed in range(4):
        game = EnidGame.new([1, 2, 3], {"mode": "enid" if seed % 2 == 0 else "plain"}, seed=seed)
        for _ in range(300):
            if game.is_over():
                break
            _, _, events = random_step(game, rng)
            held = {c.display() for h in game.hands.values() for c in h}
            public = "\n".join(render.event_lines(events, LONG_NAMES))
            drawn_lines = [line for line in public.splitlines() if " drew" in line or "picked up" in line]
            assert not any(card in line for line in drawn_lines for card in held)
            table = render.table_embed(game.observation(None), LONG_NAMES, public.splitlines())
            assert_within_limits(table)
            for p in game.players:
                assert_within_limits(render.hand_embed(game.observation(p), LONG_NAMES))
                render.controls(game.observation(p), game.legal_actions(p))


def test_open_obligations_show_their_deadlines_as_discord_timestamps():
    game = stacked({1: ["7h", "5c", "5s"], 2: ["Kc", "Kd", "Ks"], 3: ["Qc", "Qd", "Qs"]}, discard=["4h"])
    act(game, 1, "7h")
    observation = game.observation(None)
    (obligation,) = observation["obligations"]
    plain = render.table_embed(observation, LONG_NAMES, [])
    assert "must name their card" in plain.description and "<t:" not in plain.description
    timed = render.table_embed({**observation, "deadlines": {obligation["id"]: 1_900_000_000}}, LONG_NAMES, [])
    assert f"{LONG_NAMES[1]} must name their card · time runs out <t:1900000000:R>" in timed.description


def test_the_board_names_whose_turn_it_is_once():
    """The Turn line names the player to move; seats carry no ▶ (issue 23, item 12), and a
    vote names who still has to vote instead of marking their seats."""
    game = stacked({1: ["6s", "5c"], 2: ["Kc", "Kd"], 3: ["Qc", "Qd"]}, discard=["4s"], deck=["3c", "3d"])
    observation = game.observation(None)
    text = embed_text(render.table_embed(observation, LONG_NAMES, []))
    assert text.count("**Turn 1:**") == 1 and f"**Turn 1:** {LONG_NAMES[1]}" in text
    assert "▶" not in text and "👉" not in text
    voting = {**observation, "current": [2, 3], "vote": {"about": "limerick", "voters": [2, 3], "voted": [3]}}
    text = embed_text(render.table_embed(voting, LONG_NAMES, []))
    assert f"**Vote on the limerick:** 1/2 voted, waiting for {LONG_NAMES[2]}" in text
    assert "▶" not in text
    # Under the platform's first line ("👉 @Bob: vote on the limerick ..."), which names who
    # must act and what they do (turn_task), the board names nobody again.
    said = embed_text(render.table_embed(voting, LONG_NAMES, [], first_line=True))
    assert "**Turn 1**" in said and "**Turn 1:**" not in said and "waiting for" not in said
    assert "**Vote on the limerick:** 1/2 voted" in said
    assert render.turn_task(observation) == "lay a card of the same suit or rank; draw only if you cannot"
    assert render.turn_task(voting) is None and render.ping_task(voting)


SHORT_NAMES = {1: "@ann", 2: "@bob", 3: "@cy", 4: "@dee"}  # as Discord renders the mentions


def test_a_limerick_vote_shows_the_poem_once_on_its_vote_message_not_again_on_the_board():
    game = stacked({1: ["6s", "5c"], 2: ["Kc", "Kd"], 3: ["Qc", "Qd"]}, discard=["4s"], deck=["3c", "3d"])
    poem = ["There once was a coder from Warwick", "Whose functions were frankly historic",
            "She nested them deep", "Then fell fast asleep", "And woke to a stack most euphoric"]
    vote = {"id": "v1", "about": "limerick", "subject": 2, "voters": [1, 3], "voted": [], "lines": poem,
            "hint": {"syllables": [9, 9, 5, 5, 9], "rhyme_125": True, "rhyme_34": True}}
    observation = {**game.observation(None), "vote": vote, "current": [1, 3]}
    recent = [f"📜 {SHORT_NAMES[1]} set a limerick for the next player",
              f"💬 {SHORT_NAMES[2]}: “{poem[0]}”",
              f"💬 {SHORT_NAMES[2]}: “{poem[1]}\n{poem[2]}\n{poem[3]}\n{poem[4]}”",
              "🗳️ Vote open: does the limerick scan and rhyme?"]
    board = embed_text(render.table_embed(observation, SHORT_NAMES, recent))
    assert not any(verse in board for verse in poem), board
    assert "🗳️ Vote open: does the limerick scan and rhyme?" in board and "**Vote on the limerick:** 0/2 voted" in board
    (ballot,) = render.ballots(observation, SHORT_NAMES)
    assert all(verse in ballot.body for verse in poem)
    # Words said that are not the poem stay on the board.
    chat = [*recent, f"💬 {SHORT_NAMES[3]}: “Haaargh!”"]
    assert "Haaargh!" in embed_text(render.table_embed(observation, SHORT_NAMES, chat))


def test_a_four_player_board_is_eight_lines_and_says_every_public_fact():
    game = EnidGame.new([1, 2, 3, 4], {}, seed=2)
    recent = [f"{SHORT_NAMES[1]} laid 6♠", f"✅ {SHORT_NAMES[1]} named 6♠ right", f"{SHORT_NAMES[2]} drew 1 card (nothing to lay)",
              f"{SHORT_NAMES[3]} laid 6♥", f"✅ {SHORT_NAMES[3]} named 6♥ right"]
    observation = game.observation(None)
    for pictures in (False, True):  # Enid draws no table picture: the keyword changes nothing
        embed = render.table_embed(observation, SHORT_NAMES, recent, pictures=pictures)
        assert board_lines(embed) <= 8, embed.description
        text = embed_text(embed)
        for seat in observation["seats"]:
            assert f"{SHORT_NAMES[seat['player']]} {seat['cards']}" in text
        assert f"deck {observation['deck_size']}" in text and "**Face up:**" in text and "play passes to the" in text
        assert recent[-1] in text and recent[0] not in text  # the last three events


def test_the_end_names_the_winner_nowhere_on_the_board():
    game = stacked({1: ["6s"], 2: ["Kc", "Kd"], 3: ["Qc", "Qd"]}, discard=["4s"], deck=["3c", "3d"],
                   options={"mode": "plain"})
    events = act(game, 1, "6s")
    assert game.is_over()
    lines = render.event_lines(events, SHORT_NAMES)
    assert f"🏁 {SHORT_NAMES[1]} is out of cards and wins!" in lines and not any("🏆" in line for line in lines)
    board = embed_text(render.table_embed(game.observation(None), SHORT_NAMES, lines))
    assert "**Game over.**" in board and "wins" not in board and "🏆" not in board


def test_a_pickup_says_what_answers_it():
    """"Answer with a matching card" read as the suit or the rank; only a Two (after a
    Two) or the Enid Blyton answers, as the menu offers."""
    from bot.rules.cards import parse_card

    game = stacked({1: ["2h", "5c"], 2: ["2c", "7d", "9h"]}, discard=["4h"])
    act(game, 1, "2h")
    say(game, 1, game.names.display(parse_card("2h")) + " last card")  # the Two named: its magic holds
    assert game.pickup == 2 and game.current == 2
    said = embed_text(render.hand_embed(game.observation(2), LONG_NAMES))
    assert game.observation(2).get("enid_suit")  # an Enid Blyton is in play: it answers too
    assert "**2 cards to pick up: answer with a Two or the Enid Blyton, or pick them up.**" in said, said


def test_a_refused_limerick_is_one_line_with_its_draw():
    from bot.rules.engine import Event

    events = [Event("limerick_refused", 2, {}),
              Event("draw", 2, {"count": 1, "reason": "limerick_refused", "short": 0, "cards": ["5c"]}, private=True,
                    public_data={"count": 1, "reason": "limerick_refused", "short": 0})]
    assert render.event_lines(events, {2: "Bob"}) == ["Bob refused the limerick and drew 1"]
