"""Render tests for Engines of Discrimination: Discord limits, and nothing hidden in
public text."""

from __future__ import annotations

import random
import re

import pytest

from bot.pictures.cardart import CardRow
from bot.rules.cards import parse_card
from bot.words.render_util import card_text, show_card, text_cards
from tests.e2e.embeds import assert_house_rules_read_well, assert_within_limits, board_lines, embed_text
from bot.rules.engine import Action, Event, RuleError
from cogs.engines import render
from cogs.engines.rules import GOOGLE, HOUSE_RULES, EnginesGame, prepare_table_options
from helpers_engines import G, Y, four_player, play, two_player
from bot.words.render_util import text_cards

LONG_NAMES = {p: f"<@{p}{'9' * 17}>" for p in (1, 2, 3, 4, G, Y, 101, 102, 103, 104)}






def assert_controls_fit(controls) -> None:
    for control in controls:
        limit = 100 if control.place == "select" else 80
        assert 0 < len(control.label) <= limit
        assert len(control.description) <= 100


def test_a_hidden_pick_never_reaches_the_table_or_the_log():
    game = two_player("Kh Tc 4c 3c 2c", "8d 7d Jd Qs", "9h 8h", last_winner=GOOGLE)
    events = play(game, G, "Kh")
    public = embed_text(render.table_embed(game.observation(None), LONG_NAMES, render.event_lines(events, LONG_NAMES)))
    yahoo_view = embed_text(render.hand_embed(game.observation(Y), LONG_NAMES))
    for text in (public, yahoo_view):
        assert "K♥" not in text and "Kh" not in text
    assert "✅" in public and LONG_NAMES[G] in public  # who has picked is shown
    assert text_cards("Your pick: **K♥**") in embed_text(render.hand_embed(game.observation(G), LONG_NAMES))
    # Once everybody has picked, the reveal shows it to all.
    events = play(game, Y, "8d")
    lines = render.event_lines(events, LONG_NAMES)
    assert any(text_cards("K♥") in line for line in lines)
    assert text_cards("K♥") in embed_text(render.table_embed(game.observation(None), LONG_NAMES, lines))


def test_drawn_and_ipo_cards_stay_out_of_public_lines():
    game = two_player("Tc 9c 4c 3h 2h", "8d 7d Jd Qs", "9h 8h 7h", last_winner="yahoo",
                      google_deck="Ah As Ad Ac 5h", yahoo_deck="6s 6c")
    play(game, G, "2h")
    events = play(game, Y, "8d")  # Yahoo wins and draws the 6♠
    assert "drew" in [e.kind for e in events]
    events += game.apply(G, Action("ipo"))
    lines = render.event_lines(events, LONG_NAMES)
    assert any("IPO" in line for line in lines)
    joined = "\n".join(lines)
    for secret in ("6♠", "A♥", "A♠", "A♦", "A♣"):
        assert secret not in joined


def test_controls_for_picks_ipo_tiebreak_and_refill():
    game = two_player("Tc 9c 4c 3h Kh", "8d 7d Jd Qs", "9h 8h 7h", last_winner="yahoo")
    picks = render.controls(game.observation(G), game.legal_actions(G))
    assert [c.label for c in picks] == ["3♥", "4♣", "9♣", "10♣", "K♥"]
    assert all(c.place == "select" for c in picks)
    assert picks[2].description == text_cards("matches the 9♥ request")
    assert picks[3].description == text_cards("1 point away from the 9♥ request")
    assert picks[4].description.startswith("an image")
    play(game, G, "3h")
    play(game, Y, "8d")
    ipo = render.controls(game.observation(G), game.legal_actions(G))[-1]
    assert ipo.place == "button" and ipo.action == Action("ipo") and "IPO" in ipo.label

    game = two_player("Tc 9c 4c 3h 2h", "8d 7d Jd Qs", "9h 8h", last_winner="google")
    play(game, G, "Tc")
    play(game, Y, "8d")
    buttons = render.controls(game.observation(Y), game.legal_actions(Y))
    assert [b.label for b in buttons] == ["Show 7♦ and win the tie", "Don't show a tie-breaker"]
    assert "Tie!" in render.table_embed(game.observation(None), LONG_NAMES, []).description

    hands = {1: "6c 9c 2c 3c 4c", 2: "6d 8d 3d 4d", 3: "6h 7h 2h 3h Kh", 4: "Js 7s 3s Ks"}
    game = four_player(hands, "8s 9s")
    for player, code in ((1, "2c"), (2, "3d"), (3, "7h"), (4, "Js")):
        play(game, player, code)
    refill = render.controls(game.observation(3), game.legal_actions(3))
    assert [r.action.arg for r in refill] == ["deck", "partner"]
    assert all(r.place == "button" for r in refill)


def test_biggest_hands_and_long_logs_fit_discord():
    # Four players, Google's turn holder after an IPO (9 cards), very long names and log.
    hands = {1: "Tc 9c 4c 3c 2c", 2: "8d 7d 6d 5d", 3: "Th 9h 4h 3h 2h", 4: "8s 7s 6s 5s"}
    game = four_player(hands, "9h 8h 7h", first=1, google_deck="Ah As Ad Ac 5h 6h")
    game.apply(1, Action("ipo"))
    recent = [f"🏆 {'x' * 300} line {i}" for i in range(40)]
    table = render.table_embed(game.observation(None), LONG_NAMES, recent)
    assert_within_limits(table)
    hand = render.hand_embed(game.observation(1), LONG_NAMES)
    assert_within_limits(hand)
    assert hand.description.count(" — ") == 9
    controls = render.controls(game.observation(1), game.legal_actions(1))
    assert len([c for c in controls if c.place == "select"]) == 9
    assert_controls_fit(controls)


def test_every_step_of_random_games_renders_within_limits():
    for players, seed in (([101, 102], 3), ([101, 102, 103, 104], 4)):
        game = EnginesGame.new(players, seed=seed)
        rng = random.Random(seed)
        recent: list[str] = render.event_lines(game.opening_events, LONG_NAMES)
        steps = 0
        while not game.is_over() and steps < 700:
            player = rng.choice(sorted(game.current_players()))
            events = game.apply(player, rng.choice(game.legal_actions(player)))
            recent += render.event_lines(events, LONG_NAMES)
            steps += 1
            if steps % 5 and not game.is_over():
                continue
            assert_within_limits(render.table_embed(game.observation(None), LONG_NAMES, recent[-20:]))
            for p in game.seats:
                assert_within_limits(render.hand_embed(game.observation(p), LONG_NAMES))
                assert_controls_fit(render.controls(game.observation(p), game.legal_actions(p)))
        assert all(len(line) < 2000 for line in recent)


def test_game_over_lines():
    game = two_player("Tc 9c 4c 3h 2h", "8d 7d Jd Qs", "9h", last_winner="yahoo")
    play(game, G, "9c")
    events = play(game, Y, "8d")
    lines = render.event_lines(events, LONG_NAMES)
    assert lines[-1] == f"🏁 Game over: {LONG_NAMES[G]} wins!"
    table = render.table_embed(game.observation(None), LONG_NAMES, lines)
    assert "Game over: Google wins!" in table.description


def test_the_table_shows_the_cut_before_the_first_reveal():
    game = EnginesGame.new([1, 2, 3, 4], {"teams": {"google": [1, 3], "yahoo": [2, 4]}}, seed=8)
    description = render.table_embed(game.observation(None), LONG_NAMES, []).description
    cut = game.observation(None)["cut"]
    assert "Yahoo cut for low card" in description
    assert all(card_text(entry["card"]) in description for entry in cut)


# --------------------------------------------------------------------------- words


def test_house_rules_read_as_sentences():
    assert_house_rules_read_well(HOUSE_RULES)


def test_footer_hint_is_the_games_own_and_follows_the_table():
    game = two_player("Kh Tc 4c 3c 2c", "8d 7d Jd Qs", "9h 8h")
    obs = game.observation(None)
    footer = render.table_embed(obs, LONG_NAMES, []).footer
    assert footer == render.footer_hint(obs)
    assert footer.startswith("Closest card wins · an image (J, Q, K) only matches the same image")
    assert footer.endswith("Google may declare an IPO for 4 extra cards")
    auto = two_player("Kh Tc 4c 3c 2c", "8d 7d Jd Qs", "9h 8h", options={"yahoo_tiebreak": "auto"})
    assert "one point further away (shown for them)" in render.footer_hint(auto.observation(None))


def test_a_lobby_one_short_says_one_has_joined():
    # Regression: "This table was opened for 2 players and 1 have joined".
    with pytest.raises(RuleError) as refused:
        prepare_table_options([5], {}, {"players": 2}, "seed")
    assert str(refused.value).startswith("This table was opened for 2 players and 1 has joined: wait for 1 more player to join")


def test_counts_are_singular_when_there_is_one():
    lines = render.event_lines(
        [Event("search_reshuffled", None, {"count": 1}), Event("ipo", G, {"player": G, "count": 1})], LONG_NAMES
    )
    assert lines == ["♻️ The search deck is reshuffled (1 card).", f"📈 {LONG_NAMES[G]} declares an IPO and takes 1 card!"]


# --------------------------------------------------------------------------- pictures


def test_table_and_hand_cards_match_the_observations():
    game = two_player("Kh Tc 4c 3c 2c", "8d 7d Jd Qs", "9h 8h", last_winner=GOOGLE)
    play(game, G, "Kh")
    assert render.table_cards(game.observation(None), {G: "Gail", Y: "<@2>"}) == [
        CardRow("Search Request #1", ("9h",)),
        CardRow("Seat 1 · Gail · Google · has picked", face_down=4),
        CardRow("Seat 2 · Yahoo", face_down=4),
        CardRow("Search deck · 0 discarded", face_down=1),
    ]
    assert render.hand_cards(game.observation(G)) == [
        CardRow("Search Request", ("9h",)),
        CardRow("Your pick (hidden from the others until everyone has picked)", ("Kh",)),
        CardRow("Your hand · 4 cards", ("2c", "3c", "4c", "Tc")),
    ]
    assert render.hand_cards(game.observation(Y))[-1] == CardRow("Your hand · 4 cards", ("7d", "8d", "Jd", "Qs"))
    play(game, Y, "8d")  # the reveal: both picks are public now
    rows = render.table_cards(game.observation(None))
    reveal = next(r for r in rows if "search #1" in r.label)
    # In the reveal's own order (Yahoo turned the request, so Yahoo's pick comes first).
    assert [p["card"] for p in game.observation(None)["reveal"]["plays"]] == ["8d", "Kh"]
    assert reveal.cards == ("8d", "Kh") and reveal.label == "Last search #1, to Yahoo · played by Seat 2, Seat 1"  # request #2 is up now
    named = render.table_cards(game.observation(None), {G: "Gail", Y: "Yuri"})
    assert "to Yahoo · played by Yuri, Gail" in next(r.label for r in named if r.cards == reveal.cards)


def test_no_hidden_card_ever_reaches_a_table_picture():
    """Three decks share codes, so check by elimination: a code on the table picture
    is the request or a revealed pick, and a code that is only in hands or hidden picks
    (not public anywhere) never appears."""
    for players, seed in (([101, 102], 5), ([101, 102, 103, 104], 6)):
        game = EnginesGame.new(players, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not game.is_over() and steps < 400:
            obs = game.observation(None)
            shown = {code for row in render.table_cards(obs) for code in row.cards}
            public = {obs["request"]} | {p["card"] for p in (obs["reveal"] or {}).get("plays", [])}
            secret = {str(c) for p in game.seats for c in game.hands[p]}
            if obs["phase"] == "choose":
                secret |= {str(c) for c in game.choices.values()}
            assert shown <= public and not shown & (secret - public)
            for p in game.seats:
                mine = render.hand_cards(game.observation(p))
                assert mine[-1].cards == tuple(str(c) for c in game.hands[p])
            player = rng.choice(sorted(game.current_players()))
            game.apply(player, rng.choice(game.legal_actions(player)))
            steps += 1
        assert steps > 30


def test_lobby_options_read_as_sentences_not_keys():
    from tests.lobby import lobby_option_lines, spec_of

    # The table size is said in the lobby's first line ("2 players."), not among the options.
    spec = spec_of(EnginesGame, render, HOUSE_RULES)
    assert lobby_option_lines(spec, {"players": 2, "yahoo_tiebreak": "auto"}) == [
        "Yahoo's tie-breaker: the bot shows the card for Yahoo whenever it can.",
    ]


SHORT_NAMES = {1: "@ann", 2: "@bob", 3: "@cy", 4: "@dee"}  # as Discord renders the mentions


def _random_game(players: int, seed: int, moves: int | None = None) -> tuple[EnginesGame, list[str]]:
    game = EnginesGame.new(list(range(1, players + 1)), {}, seed=seed)
    rng, recent = random.Random(seed), []
    while not game.is_over() and (moves is None or moves > 0):
        p = rng.choice(sorted(game.current_players()))
        recent += render.event_lines(game.apply(p, rng.choice(game.legal_actions(p))), SHORT_NAMES)
        moves = None if moves is None else moves - 1
    return game, recent


def test_over_the_picture_the_board_says_only_what_the_picture_cannot():
    game, recent = _random_game(4, 1, moves=60)
    obs = game.observation(None)
    lean = render.table_embed(obs, SHORT_NAMES, recent, pictures=True)
    text = embed_text(lean)
    assert board_lines(lean) <= 10, text
    assert lean.description.startswith(f"🔎 Search Request **{card_text(obs['request'])}**")
    assert f"**Put aside:** 🔵 Google {obs['scores']['google']} · 🟣 Yahoo {obs['scores']['yahoo']}" in text
    # The hands' sizes, the last search's cards and the search deck are the picture's.
    assert "in hand" not in text and "Last search" not in text and "Search deck" not in text
    # Who is still to pick is the platform's 👉 line above the board, who has picked the picture's.
    assert "Picks (hidden" not in text
    assert recent[-1] in text and recent[-4] not in text
    whole = embed_text(render.table_embed(obs, SHORT_NAMES, recent))
    assert "cards in hand" in whole and "**Last search** — " in whole and "Search deck" in whole
    assert "Picks (hidden until everyone has picked): " in whole


def test_the_last_search_and_its_caption_cannot_be_read_as_the_game_s_result():
    game, recent = _random_game(2, 6)  # its last search is a tie, won by the side that won the one before
    obs = game.observation(None)
    assert obs["phase"] == "over" and obs["reveal"]["outcome"]["kind"] == "won"
    side = {"google": "Google", "yahoo": "Yahoo"}[obs["reveal"]["outcome"]["side"]]
    head = render.table_embed(obs, SHORT_NAMES, recent).description.split("\n")
    assert head[0].startswith("🏁 **Game over: ")
    assert head[1].startswith(f"**The game's last search, #{obs['reveal']['search']}** — Request ")
    assert head[2].startswith(f"→ the search goes to {side} (") and " wins" not in head[2]
    lean = render.table_embed(obs, SHORT_NAMES, recent, pictures=True).description
    assert lean.startswith("🏁 **Game over** (") and not re.search(r"\bwins?\b|search", lean), lean
    (caption,) = [row.label for row in render.table_cards(obs, {1: "Ada", 2: "Bob"}) if "search #" in row.label]
    assert caption.startswith(f"Last search #{obs['reveal']['search']}, to {side} · played by ")
    assert "won" not in caption
    assert not any(line.startswith("🏆") for line in recent)  # a search is not the game: 🎯, not a trophy


def test_a_search_both_teams_scored_is_told_as_going_to_both():
    """Four players, both teams match: each team's card is put aside for it, so the search
    is not "Google's" (it read "goes to Google" above Yahoo's own card put aside, and told
    that Yahoo player "You won"); the team that counts as its winner at the next tie is
    named as that."""
    game = four_player({1: "6c 9c 2c 3c 4c", 2: "6d 8d 3d 4d", 3: "6h 7h 2h 3h Kh", 4: "Js 7s 3s Ks"}, "6s 9s 8s")
    names = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee"}
    for player, card in ((1, "6c"), (2, "6d"), (3, "6h")):
        play(game, player, card)
    events = play(game, 4, "Js")
    (won,) = [line for line in render.event_lines(events, names) if line.startswith("🎯")]
    assert won == text_cards("🎯 The search goes to both teams (exact match): Bob 6♦ (Yahoo), Cy 6♥ (Google), "
                             "Ann 6♣ (Google); for the next tie, Google counts as its winner"), won
    board = embed_text(render.table_embed(game.observation(None), names, []))
    assert text_cards("→ the search goes to both teams (exact match): Bob 6♦ (Yahoo), Cy 6♥ (Google), Ann 6♣ (Google) "
                      "put aside; for the next tie, Google counts as its winner") in board, board
    (caption,) = [row.label for row in render.table_cards(game.observation(None), names) if "search #" in row.label]
    assert caption.startswith("This search #1, to both teams · played by "), caption
    # One team's cards alone: told as before, with no teams in brackets.
    lone = four_player({1: "6c 9c 2c 3c 4c", 2: "5d 8d 3d 4d", 3: "2h 7h 6h 3h Kh", 4: "Js 7s 3s Ks"}, "6s 9s 8s")
    for player, card in ((1, "6c"), (2, "5d"), (3, "2h")):
        play(lone, player, card)
    (won,) = [line for line in render.event_lines(play(lone, 4, "Js"), names) if line.startswith("🎯")]
    assert won == text_cards("🎯 The search goes to Google (exact match): Ann 6♣"), won


def test_while_a_decided_search_waits_for_refills_the_hand_shows_no_empty_request():
    game = four_player({1: "6c 9c 2c 3c 4c", 2: "6d 8d 3d 4d", 3: "6h 7h 2h 3h Kh", 4: "Js 7s 3s Ks"}, "6s 9s 8s")
    for player, card in ((1, "6c"), (2, "6d"), (3, "6h"), (4, "Js")):
        play(game, player, card)
    assert game.phase == "refill" and game.request is None
    said = render.hand_embed(game.observation(2), {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee"}).description
    assert said.startswith("**This search** — Request ") and "Search Request:" not in said, said


def test_two_winners_of_opposite_teams_refilling_are_listed_as_people_not_a_pair():
    game = four_player({1: "6c 9c 2c 3c 4c", 2: "6d 8d 3d 4d", 3: "6h 7h 2h 3h Kh", 4: "Js 7s 3s Ks"}, "6s 9s 8s")
    for player, card in ((1, "6c"), (2, "6d"), (3, "2h")):
        play(game, player, card)
    lines = render.event_lines(play(game, 4, "Js"), {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee"})
    assert "🔄 Bob and Ann may refill from the team deck or blindly from their partner." in lines, lines
