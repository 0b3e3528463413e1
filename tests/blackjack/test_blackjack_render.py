"""Blackjack rendering: Discord limits for the biggest tables and hands, and no leaks."""

from __future__ import annotations

import random

from bj_helpers import play, stacked

from bot.rules.cards import Suit, parse_card, standard_deck
from bot.words.render_util import card_text
from tests.cardcodes import as_text
from tests.e2e.embeds import assert_house_rules_read_well, assert_within_limits, embed_text
from bot.pictures.cardart import CardRow
from bot.rules.engine import Action
from cogs.blackjack import render
from cogs.blackjack.rules import HOUSE_RULES, BlackjackGame

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
        assert card_text(code) in embed.description
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
    assert as_text("**Top card:** 9♣") in text
    assert as_text("**This turn:** 9♣") in text
    assert "<@1>: 2 cards" in text and "<@2>: 1 card" in text
    assert "**Turn:** <@1>" in text and "▶" not in text  # the turn is said once, on the Turn line


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
    # No "It's <@2>'s turn" line: the board shows whose turn it is, the log carries plays.
    assert lines == [as_text("<@1> played J♠ J♣ J♥ (pickup now 13)")]


def test_event_lines_never_show_drawn_cards():
    game = stacked({1: ["5d"], 2: ["Kc"]}, discard=["7s"], deck=["Qh", "2d"])
    events = play(game, 1, "draw")
    lines = render.event_lines(events, {1: "<@1>"})
    assert lines[0] == "<@1> drew 1 card (nothing to play)"
    assert card_text("2d") not in "\n".join(lines) and "2♦" not in "\n".join(lines)


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
            assert not any(card_text(code) in text for code in drawn_hidden)
            assert "'s turn" not in text  # the log carries plays; the board shows whose turn it is
            # The table (without the log, whose old plays may since have been drawn
            # back after a reshuffle) shows no card that sits in any hand.
            table = embed_text(render.table_embed(game.observation(None), LONG_NAMES, []))
            in_hands = {card_text(str(c)) for hand in game.hands.values() for c in hand}
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


# --------------------------------------------------------------------------- words


def test_house_rules_read_as_sentences():
    assert_house_rules_read_well(HOUSE_RULES)
    assert HOUSE_RULES[0].describe("debt").startswith("A pickup bigger than the cards left to draw is owed")
    assert HOUSE_RULES[0].describe("nonsense") == "nonsense"  # an unknown stored value is shown as it is


def test_footer_hint_says_the_house_rules_in_words_and_where_the_rules_are():
    game = stacked({1: ["9h"], 2: ["Kc"]}, options={"pickup_shortfall": "debt", "voluntary_draw": "yes"})
    obs = game.observation(None)
    embed = render.table_embed(obs, {}, [])
    assert embed.footer == render.footer_hint(obs)
    assert embed.footer == (
        "Turn 1 · Pickup cards that cannot be drawn are owed · You may draw instead of playing · The rules: /rules blackjack"
    )
    assert "Shortfall" not in embed.footer and ": yes" not in embed.footer


def _task(game: BlackjackGame, player: int) -> str:
    description = render.hand_embed(game.observation(player), {}).description
    return [line for line in description.splitlines() if line.startswith("**") and line.endswith("**")][-1]


def test_after_a_three_nobody_is_offered_a_draw_the_controls_lack():
    # Regression: the table said "(or draw one)" and the hand "or draw one" with no Draw button.
    game = stacked({1: ["3h", "5h", "9c"], 2: ["Kc"]}, discard=["7h"])
    play(game, 1, "3h")
    assert game.phase == "must_play"
    labels = [c.label for c in render.controls(game.observation(1), game.legal_actions(1))]
    assert labels == ["5♥"]
    assert _task(game, 1) == "**Play another card matching the top card (or an Ace).**"
    table = render.table_embed(game.observation(None), {1: "<@1>"}, []).description
    assert "**Turn:** <@1>, to play another card matching the top card, or an Ace" in table
    assert "draw" not in table.lower()

    voluntary = stacked({1: ["3h", "5h", "9c"], 2: ["Kc"]}, discard=["7h"], options={"voluntary_draw": "yes"})
    play(voluntary, 1, "3h")
    labels = [c.label for c in render.controls(voluntary.observation(1), voluntary.legal_actions(1))]
    assert labels == ["5♥", "Draw 1 card"]
    assert _task(voluntary, 1) == "**Play another card matching the top card (or an Ace) or draw 1 card.**"
    assert "(or draw 1 card)" in render.table_embed(voluntary.observation(None), {}, []).description


def test_a_pickup_on_the_table_says_how_to_answer_it():
    game = stacked({1: ["2h", "9c"], 2: ["2c", "5d"]}, discard=["7h"], deck=["3s", "4s", "5s"])
    play(game, 1, "2h")  # no other 2: the turn ends by itself
    table = render.table_embed(game.observation(None), {2: "<@2>"}, []).description
    assert "**Turn:** <@2>, to answer the pickup with an Ace or a matching 2 or Jack, or pick up 2 cards" in table


def test_hints_offer_a_draw_exactly_when_the_controls_have_one():
    rng = random.Random(11)
    for seed in range(16):
        options = {"voluntary_draw": "yes" if seed % 2 else "no"}
        game = BlackjackGame.new(list(range(1, rng.randint(2, 5) + 1)), options, seed=seed)
        for _ in range(400):
            if game.is_over():
                break
            player = next(iter(game.current_players()))
            legal = game.legal_actions(player)
            draw = any(a.kind == "draw" for a in legal)
            plays = any(a.kind == "play" for a in legal)
            task = _task(game, player).lower()
            table = render.table_embed(game.observation(None), {}, []).description.lower()
            if game.pickup and game.phase == "start":
                assert draw and "pick them up" in task and ("or pick up" in table or "or pick it up" in table)
            elif "if you have none, draw" in task:
                assert draw == (not plays) and "(or draw 1 card if they cannot)" in table
            elif "if you have none, pass: there is nothing to draw" in task:  # nothing to draw (issue 37)
                assert draw == (not plays) and "(if they cannot, their turn ends: there is nothing to draw)" in table
            elif "or pass: there is nothing to draw" in task:
                assert draw and "(or pass: there is nothing to draw)" in table
            elif "draw" in task:
                assert draw, (game.phase, task)
                assert "(or draw 1 card)" in table
            else:
                assert not draw or game.phase == "start", (game.phase, task, legal)
            game.apply(player, rng.choice(legal))


def test_counts_are_singular_when_there_is_one():
    game = stacked({1: ["5d"], 2: ["Kc"]}, discard=["9s", "7s"], deck=[], debts={1: 1}, options={"pickup_shortfall": "debt"})
    assert "You owe 1 card:" in render.hand_embed(game.observation(1), {}).description
    events = play(game, 1, "draw")
    lines = render.event_lines(events, {1: "<@1>"})
    assert "🔀 The discard pile was shuffled into a new draw pile (1 card)" in lines
    game = stacked({1: ["5d", "6d"], 2: ["Kc"], 3: ["4h"]})
    lines = render.event_lines(game.remove_player(3), {3: "<@3>"})
    assert lines[0] == "<@3> left the game; their 1 card went under the draw pile"


# --------------------------------------------------------------------------- pictures


def test_table_cards_show_the_public_table():
    game = stacked({1: ["9h", "9c", "9s", "4c"], 2: ["Kc", "2d"]}, discard=["Jd", "Ah"], deck=["5s", "6s"], chosen_suit="c")
    obs = game.observation(None)
    rows = render.table_cards(obs)
    assert rows[0] == CardRow("Top card · discard pile 2 · clubs named", ("Ah",))
    assert rows[1] == CardRow("Draw pile · 2 cards", face_down=2)
    assert rows[2:] == [CardRow("Seat 1 · 4 cards · to play", face_down=4), CardRow("Seat 2 · 2 cards", face_down=2)]
    play(game, 1, "9c", "9h")
    rows = render.table_cards(game.observation(None), {1: "Ann", 2: "<@2>"})
    assert rows[0].cards == ("9c", "9h") and rows[0].label.startswith("Played this turn")
    assert rows[2].label == "Seat 1 · Ann · 2 cards · to play" and rows[3].label == "Seat 2 · 2 cards"


def test_hand_cards_are_the_players_own_hand_by_suit():
    game = stacked({1: ["9h", "9c", "4c", "As"], 2: ["Kc"]}, discard=["Jd"])
    rows = render.hand_cards(game.observation(1))
    assert rows == [
        CardRow("Top card", ("Jd",)),
        CardRow("Your clubs", ("4c", "9c")),
        CardRow("Your hearts", ("9h",)),
        CardRow("Your spades", ("As",)),
    ]


def test_no_hidden_card_ever_reaches_a_table_picture():
    rng = random.Random(3)
    for seed in range(10):
        game = BlackjackGame.new(list(range(1, rng.randint(2, 8) + 1)), {}, seed=seed)
        while not game.is_over():
            obs = game.observation(None)
            rows = render.table_cards(obs)
            public = {obs["top"], *obs["turn_cards"]}
            in_hands = {str(c) for hand in game.hands.values() for c in hand}
            for row in rows:
                assert set(row.cards) <= public and not set(row.cards) & in_hands
            assert sum(r.face_down for r in rows) == len(game.deck) + sum(len(h) for h in game.hands.values())
            for player in game.players:
                mine = render.hand_cards(game.observation(player))
                assert sorted(c for r in mine[1:] for c in r.cards) == sorted(str(c) for c in game.hands[player])
            player = next(iter(game.current_players()))
            game.apply(player, rng.choice(game.legal_actions(player)))


def test_lobby_options_read_as_sentences_not_keys():
    from tests.lobby import lobby_option_lines, spec_of

    spec = spec_of(BlackjackGame, render, HOUSE_RULES)
    lines = lobby_option_lines(spec, {"pickup_shortfall": "debt", "voluntary_draw": "yes"})
    assert lines == [HOUSE_RULES[0].describe("debt"), HOUSE_RULES[1].describe("yes")]
    assert lines[1] == "You may draw 1 card and end your turn even when you could play."
    defaults = {rule.key: rule.default for rule in HOUSE_RULES}
    assert lobby_option_lines(spec, defaults) == [rule.describe(rule.default) for rule in HOUSE_RULES]


def test_the_hand_picture_says_the_suit_named_for_the_top_ace():
    """The hand's text said "(♦ diamonds named)" while its picture and its description
    showed only the Ace on top."""
    game = stacked({1: ["Ah", "9h", "9c"], 2: ["Kc", "5d"]})
    play(game, 1, "Ah")
    play(game, 1, "suit::d")
    (top, *_rest) = render.hand_cards(game.observation(2))
    assert top.cards == ("Ah",) and top.label == "Top card · diamonds named", top.label
    assert top.spoken == "The top card is {cards}, and diamonds are named", top.spoken
