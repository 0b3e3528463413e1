"""Render tests for Idiot: Discord limits, labels, and no hidden card in public text."""

from __future__ import annotations

import random


from bot.rules.cards import parse_card, standard_deck
from tests.e2e.embeds import assert_house_rules_read_well, assert_within_limits, embed_text
from bot.pictures.cardart import CardRow
from bot.rules.engine import Action, Event
from cogs.idiot import render
from cogs.idiot.rules import HOUSE_RULES, STALEMATE_TURNS, IdiotGame, sorted_cards
from bot.words.render_util import card_text
from tests.cardcodes import as_text

A, B, C = 1, 2, 3
NAMES = {p: f"<@{100000000000000000 + p}>" for p in range(1, 9)}






def assert_controls_within_limits(controls) -> None:
    for control in controls:
        if control.place == "select":
            assert 0 < len(control.label) <= 100 and len(control.description) <= 100
        else:
            assert 0 < len(control.label) <= 80
        assert len(control.action.code()) <= 100  # fits a custom_id


def test_biggest_hand_fits_every_limit():
    # Eight players, two decks, one player holding almost everything after pickups.
    deck = sorted(standard_deck(2), key=lambda c: (c.rank, c.suit.value))
    big, rest = deck[:90], deck[90:]
    others = {p: [str(rest.pop())] for p in range(2, 9)}
    game = IdiotGame.new(
        list(range(1, 9)),
        deal={
            "phase": "play",
            "first": 1,
            "hands": {1: [str(c) for c in big], **others},
            "face_up": {p: [str(rest.pop())] for p in range(1, 8)},
            "pile": [str(c) for c in rest],
        },
    )
    assert len(game.hands[1]) == 90
    mine = game.observation(1)
    hand = render.hand_embed(mine, NAMES)
    assert_within_limits(hand)
    assert "Your hand (90)" in hand.description
    table = render.table_embed(game.observation(None), NAMES, [f"line {i} " + "x" * 90 for i in range(200)])
    assert_within_limits(table)
    assert table.fields[0].value.endswith("line 199 " + "x" * 90)  # newest lines kept
    controls = render.controls(mine, game.legal_actions(1))
    assert controls and all(c.place == "select" for c in controls if c.action.kind == "play")
    assert_controls_within_limits(controls)


def test_table_and_hand_show_what_players_need():
    game = IdiotGame.new(
        [A, B],
        deal={
            "phase": "play",
            "hands": {A: ["7c", "9d"], B: ["Kh"]},
            "face_up": {A: ["Qs"], B: ["2c", "2d"]},
            "face_down": {A: ["3h", None, "4h"], B: ["5h", "6h", "8h"]},
            "pile": ["4c", "5c", "6c", "6d", "7d"],
            "draw": ["Ac"],
        },
    )
    table = render.table_embed(game.observation(None), NAMES, ["A played 7♦."])
    text = embed_text(table)
    assert as_text("(1 more below) 5♣ 6♣ 6♦ **7♦** · next: a 7 or higher, or a 2 or 10") in text
    assert as_text(f"\n{NAMES[A]}: hand 2 · face up Q♠ · face down 2") in text and "▶" not in text  # the Turn line says whose turn
    assert as_text(f"{NAMES[B]}: hand 1 · face up 2♣ 2♦ · face down 3") in text
    assert "Draw pile:** 1" in text and "The first player out wins" in text
    hand = render.hand_embed(game.observation(A), NAMES)
    assert as_text("Your hand (2):** 7♣ 9♦") in hand.description
    assert "numbered 1, 3 (unseen" in hand.description and "🂠" not in hand.description and "Your turn:** you play from your hand" in hand.description


def test_controls_labels_and_hints():
    game = IdiotGame.new(
        [A, B],
        deal={"phase": "play", "hands": {A: ["7c", "7s", "Th", "2d"], B: ["Kh"]}, "pile": ["6c", "7h", "7d"]},
    )
    by_code = {c.action.code(): c for c in render.controls(game.observation(A), game.legal_actions(A))}
    assert by_code["play:2d"].description == "Play a 2: goes on anything"
    assert by_code["play:7c"].label == "7♣" and by_code["play:7c"].description == "Play a 7"
    assert by_code["play:7c.7s"].label == "7♣ 7♠"
    assert by_code["play:7c.7s"].description == "Play two 7s: four of a kind burns the pile, then you play again"
    assert "burns the pile" in by_code["play:Th"].description
    assert all(c.place == "select" for c in by_code.values())

    blind_game = IdiotGame.new(
        [A, B], deal={"phase": "play", "face_down": {A: ["3h", None, "4h"]}, "hands": {B: ["Kh"]}, "pile": ["9c"]}
    )
    buttons = render.controls(blind_game.observation(A), blind_game.legal_actions(A))
    assert [(c.label, c.place) for c in buttons] == [("Turn face-down card 1", "button"), ("Turn face-down card 3", "button")]

    swap_game = IdiotGame.new([A, B], deal={"hands": {A: ["3c"], B: ["4c"]}, "face_up": {A: ["Kd"]}, "pile": ["9c"]})
    swaps = render.controls(swap_game.observation(A), swap_game.legal_actions(A))
    assert [(c.label, c.place) for c in swaps] == [("Ready", "button"), ("Swap K♦ ↔ 3♣", "select")]  # the move that moves on first
    pick = render.controls(game.observation(A), [Action("pickup")])
    assert pick[0].label == "Pick up the pile (3)" and pick[0].style == "danger"


def test_event_lines_read_well_and_hide_private_details():
    events = [
        Event("play", A, {"cards": ["7c", "7s"], "from": "hand"}),
        Event("draw", A, {"cards": ["Qh", "Kd"], "count": 2}, private=True, public_data={"count": 2}),
        Event("burn", A, {"reason": "four", "count": 5}),
        Event("turn", A, {"again": True}),
        Event("draw", B, {"cards": ["Qs"], "count": 1}, private=True, public_data={"count": 1}),
        Event("turn", B),
        Event("pickup", B, {"cards": ["9h"], "count": 1}, private=True, public_data={"count": 1}),
        Event("blind", C, {"position": 2, "card": "3c", "played": False, "picked_up": 4}),
        Event("out", A, {"place": 1}),
        Event("game_over", data={"reason": "finished", "placements": [[A], [C], [B]], "idiot": B}),
    ]
    lines = render.event_lines(events, NAMES)
    assert lines == [as_text(line) for line in [
        f"{NAMES[A]} played 7♣ 7♠ and drew 2 cards.",
        f"🔥 {NAMES[A]} burns the pile with four of a kind (5 cards) and plays again.",
        f"{NAMES[B]} drew 1 card.",
        f"{NAMES[B]} picked up the pile (1 card).",
        f"{NAMES[C]} turned over face-down card 2, 3♣, which cannot be played: they picked it up with the pile (4 cards).",
        f"🏁 {NAMES[A]} has played out all their cards (1st place).",
        f"Game over. Winner: {NAMES[A]}. The Idiot: {NAMES[B]}.",
    ]]
    assert not any(as_text(hidden) in line for line in lines for hidden in ("Q♥", "K♦", "9♥", "Q♠"))


def test_random_games_never_show_hidden_cards_in_public_text():
    """One deck, so each card shows one way: no hand card or face-down card appears
    on the public table, and no freshly drawn card or face-down card in the log."""
    for seed in range(12):
        count = 2 + seed % 3
        game = IdiotGame.new(list(range(1, count + 1)), {"finish": "last_idiot"}, seed=seed)
        rng = random.Random(seed)
        recent: list[str] = []
        steps = 0
        while not game.is_over() and steps < 400:
            player = rng.choice(sorted(game.current_players()))
            legal = game.legal_actions(player)
            action = Action("ready") if game.phase == "swap" and rng.random() < 0.5 else rng.choice(legal)
            events = game.apply(player, action)
            steps += 1
            face_down = {card_text(str(c)) for p in game.players for c in game.face_down[p] if c}
            in_hands = {card_text(str(c)) for p in game.players for c in game.hands[p]}
            drawn = {card_text(code) for e in events if e.kind == "draw" for code in e.data["cards"]}
            lines = render.event_lines(events, NAMES)
            recent = (recent + lines)[-10:]
            log_text = "\n".join(lines)
            assert not any(card in log_text for card in face_down | drawn)
            assert_within_limits(render.table_embed(game.observation(None), NAMES, recent))
            # The log may name cards that were public once and picked up since: check the table alone.
            table_text = embed_text(render.table_embed(game.observation(None), NAMES, []))
            assert not any(card in table_text for card in in_hands | face_down), seed
            for p in game.players:
                assert_within_limits(render.hand_embed(game.observation(p), NAMES))
                assert_controls_within_limits(render.controls(game.observation(p), game.legal_actions(p)))
        assert steps > 20


# --------------------------------------------------------------------------- words


def test_house_rules_read_as_sentences():
    assert_house_rules_read_well(HOUSE_RULES)


def test_footer_hint_says_the_house_rules_in_words():
    game = IdiotGame.new([A, B], {"finish": "last_idiot", "voluntary_pickup": "on"}, seed=1)
    obs = game.observation(None)
    footer = render.table_embed(obs, NAMES, []).footer
    assert footer == render.footer_hint(obs) == (
        "Play goes on until one player is left holding cards: the Idiot · You may pick up the pile by choice"
        " · The rules: /rules idiot"
    )


def test_a_burn_of_one_card_says_one_card():
    # Regression: "burns the pile with a 10 (1 cards)".
    game = IdiotGame.new([A, B], deal={"phase": "play", "first": A, "hands": {A: ["Th", "5c"], B: ["Kh"]}, "pile": []})
    lines = render.event_lines(game.apply(A, Action.play("Th")), NAMES)
    assert lines == [as_text(f"{NAMES[A]} played 10♥."), f"🔥 {NAMES[A]} burns the pile with a 10 (1 card) and plays again."]


def _about_to_stalemate() -> IdiotGame:
    game = IdiotGame.new(
        [A, B, C],
        deal={"phase": "play", "first": A, "hands": {A: ["5c"], B: ["4c", "3c"], C: ["6d", "7d", "8d"]}, "pile": ["9c"]},
    )
    game.idle_turns = STALEMATE_TURNS - 1  # the 200th turn without progress is next
    return game


def test_the_stalemate_countdown_counts_one_turn():
    game = _about_to_stalemate()
    text = render.table_embed(game.observation(None), NAMES, []).description
    assert "⚠️ Stalemate in 1 turn unless" in text


def test_a_stalemate_is_announced_as_one_never_as_a_win():
    game = _about_to_stalemate()
    lines = render.event_lines(game.apply(A, Action("pickup")), NAMES)
    assert game.is_over() and game.stalemate
    assert lines[-2:] == [
        f"Stalemate: {STALEMATE_TURNS} turns without progress.",
        # A picked up the pile (2 cards), B holds 2, C 3: all three tie, nobody won.
        f"Game over: a stalemate, nobody wins it: the players still holding cards tie. Standings: 1st {NAMES[A]}, {NAMES[B]}, {NAMES[C]}. "
        f"Cards left: {NAMES[A]} 2, {NAMES[B]} 2, {NAMES[C]} 3.",
    ]
    embed = render.table_embed(game.observation(None), NAMES, lines)
    table = embed.description + "\n" + "\n".join(field.value for field in embed.fields)  # the footer states the rule
    assert f"**Game over: a stalemate** ({STALEMATE_TURNS} turns without progress)" in table
    assert f"the players still holding cards tie.\n1. {NAMES[A]}, {NAMES[B]}, {NAMES[C]}\nCards left: {NAMES[A]} 2, {NAMES[B]} 2, {NAMES[C]} 3" in table
    assert "Winner" not in table and " won" not in table and " wins" not in table.replace("nobody wins", "")
    assert "a stalemate" in render.hand_embed(game.observation(A), NAMES).description


def test_a_player_who_is_out_is_told_so():
    game = IdiotGame.new(
        [A, B, C],
        {"finish": "last_idiot"},
        deal={"phase": "play", "first": A, "hands": {A: ["Kc"], B: ["4c", "3c"], C: ["6d"]}, "pile": ["9c"]},
    )
    lines = render.event_lines(game.apply(A, Action.play("Kc")), NAMES)
    assert lines == [as_text(f"{NAMES[A]} played K♣."), f"🏁 {NAMES[A]} has played out all their cards (1st place)."]
    out_hand = render.hand_embed(game.observation(A), NAMES).description
    assert "You are out of cards" in out_hand and "Waiting for" not in out_hand  # the hand's status line says who
    assert f"{NAMES[A]}: out of cards (1st)" in render.table_embed(game.observation(None), NAMES, []).description


# --------------------------------------------------------------------------- pictures


def test_table_and_hand_cards_match_the_observations():
    game = IdiotGame.new(
        [A, B],
        deal={
            "phase": "play",
            "hands": {A: ["7c", "9d"], B: ["Kh"]},
            "face_up": {A: ["Qs"], B: ["2c", "2d"]},
            "face_down": {A: ["3h", None, "4h"], B: ["5h", "6h", "8h"]},
            "pile": ["4c", "5c", "6c", "6d", "7d"],
            "draw": ["Ac"],
        },
    )
    assert render.table_cards(game.observation(None), {A: "Ann", B: "<@2>"}) == [
        CardRow("Pile · 5 cards (top 4 shown) · next: a 7 or higher, or a 2 or 10", ("5c", "6c", "6d", "7d")),
        CardRow("Draw pile · 1 card · burned 0", face_down=1),
        CardRow("Seat 1 · Ann · 2 in hand · to play", ("Qs",), face_down=2),
        CardRow("Seat 2 · 1 in hand", ("2c", "2d"), face_down=3),
    ]
    assert render.hand_cards(game.observation(A)) == [
        CardRow("Pile · next: a 7 or higher, or a 2 or 10", ("5c", "6c", "6d", "7d")),
        CardRow("Your hand · 2 cards", ("7c", "9d")),
        CardRow("Your face-up cards", ("Qs",)),
        CardRow("Your face-down cards: 1, 3", face_down=2),
    ]


def test_no_hidden_card_ever_reaches_a_table_picture():
    """One deck: each code is one card. Every code on the table picture is on the pile's
    shown top or face up at a seat, never in a hand, face down or in the draw pile."""
    for seed in range(10):
        game = IdiotGame.new(list(range(1, 2 + seed % 3 + 1)), {"finish": "last_idiot"}, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not game.is_over() and steps < 300:
            obs = game.observation(None)
            rows = render.table_cards(obs)
            shown = {code for row in rows for code in row.cards}
            public = set(obs["pile_top"]) | {code for seat in obs["seats"] for code in seat["face_up"]}
            hidden = {str(c) for p in game.players for c in [*game.hands[p], *game.face_down[p]] if c} | {
                str(c) for c in game.draw
            }
            assert shown <= public and not shown & hidden
            backs = sum(r.face_down for r in rows)
            assert backs == len(game.draw) + sum(1 for p in game.players for c in game.face_down[p] if c)
            for p in game.players:
                mine = render.hand_cards(game.observation(p))
                assert mine[1].cards == tuple(str(c) for c in sorted_cards(game.hands[p]))
                assert not {code for row in mine for code in row.cards} & {str(c) for c in game.face_down[p] if c}
            player = rng.choice(sorted(game.current_players()))
            legal = game.legal_actions(player)
            action = Action("ready") if game.phase == "swap" and rng.random() < 0.5 else rng.choice(legal)
            game.apply(player, action)
            steps += 1


def test_the_pile_says_what_may_go_on_it_in_words():
    def table(pile: list[str], phase: str = "play") -> str:
        game = IdiotGame.new([A, B], deal={"phase": phase, "hands": {A: ["5c"], B: ["Kh"]}, "pile": pile})
        return render.table_embed(game.observation(None), NAMES, []).description

    assert "· next: an 8 or higher, or a 2 or 10" in table(["8h"])
    assert "· next: an Ace, or a 2 or 10" in table(["Ah"])
    assert "· next: any card (a 2 is on top)" in table(["9c", "2h"])
    assert "· next: any card (a 10 on top burns the pile)" in table(["Th"], phase="swap")  # the starter burns at play
    assert "**Pile:** empty: any card starts a new one." in table([])


def test_lobby_options_read_as_sentences_not_keys():
    from tests.lobby import lobby_option_lines, spec_of

    spec = spec_of(IdiotGame, render, HOUSE_RULES)
    assert lobby_option_lines(spec, {"finish": "last_idiot", "voluntary_pickup": "on"}) == [
        "Play goes on until one player is left holding cards, the Idiot; everyone is placed in the order they went out.",
        "You may also choose to pick up the pile on your turn.",
    ]


def test_the_boards_turn_line_says_where_the_player_to_move_plays_from():
    def turn_line(deal) -> str:
        game = IdiotGame.new([A, B], deal={"phase": "play", "pile": [], "draw": [], **deal})
        text = render.table_embed(game.observation(None), NAMES, []).description
        return next(line for line in text.splitlines() if line.startswith("**Turn:**"))

    both = {"face_up": {A: ["Qs"], B: ["5c"]}, "face_down": {A: ["3h", None, None], B: ["5h", None, None]}}
    assert turn_line({"hands": {A: ["7c"], B: ["Kh"]}, **both}) == f"**Turn:** {NAMES[A]} plays from their hand"
    assert turn_line({"hands": {A: [], B: ["Kh"]}, **both}) == f"**Turn:** {NAMES[A]} plays from their face-up cards"
    blind = {"hands": {A: [], B: ["Kh"]}, "face_up": {A: [], B: ["5c"]}, "face_down": both["face_down"]}
    assert turn_line(blind) == f"**Turn:** {NAMES[A]} turns over a face-down card"


def test_beside_the_picture_a_recent_line_with_a_mention_is_kept_whole():
    """A blind flip that failed is the one line saying why a player's hand grew by the
    pile: clipped to 100 characters as sent (a mention is 21 of them), it ended "they
    picked it u…"."""
    mention = "<@1456074443980800027>"
    (line,) = render.event_lines([Event("blind", A, {"position": 1, "card": "5c", "played": False, "picked_up": 13})],
                                 {A: mention})
    board = embed_text(render.table_embed(_about_to_stalemate().observation(None), NAMES, [line], pictures=True))
    assert line in board and line.endswith("with the pile (13 cards)."), board
