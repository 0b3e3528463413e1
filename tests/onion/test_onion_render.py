"""Cripple Mr Onion rendering: Discord limits at the biggest table, public facts, no leaks."""

from __future__ import annotations

import io
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from onion_round_helpers import act, advance, codes, lady_round as _lady_round, new_round
from PIL import Image

from bot.pictures import cardart
from bot.pictures.cardart import CardRow, alt_text, render_rows
from cogs.onion import render
from cogs.onion.rules import BUY, DECLARE, HOUSE_RULES, OnionGame
from cogs.onion.scoring import parse_card
from tests.e2e.embeds import assert_within_limits, board_lines, embed_text
from bot.words.render_util import text_cards

LONG_NAMES = {p: f"<@{10**18 + p}>" for p in range(1, 8)}


def _seven_at_the_showdown() -> OnionGame:
    game = OnionGame.new(list(range(1, 8)), {"carry": {"eights_wild": True}}, seed=11)
    rng = random.Random(3)
    while not game.is_over():
        p = sorted(game.current_players())[0]
        legal = game.legal_actions(p)
        staying = [a for a in legal if a.kind not in ("fold", "pass", "decline")]
        game.apply(p, rng.choice(staying or legal))
    return game


def test_the_biggest_table_and_every_hand_fit_discords_limits_and_show_no_face_down_card():
    game = OnionGame.new(list(range(1, 8)), {}, seed=4)
    advance(game, BUY)
    while game.phase == BUY:
        p = game.queue[0]
        act(game, p, "buy::2" if game.step == "buy" else "extra::3")
    obs = game.observation(None)
    embed = render.table_embed(obs, LONG_NAMES, ["x" * 300] * 40)
    assert_within_limits(embed)
    text = embed_text(embed)
    for p in game.players:
        assert all(render.show(str(card)) in text for card in game.up[p])
        assert not any(card.display() in text for card in game.down[p])  # every card is unique
    for p in game.players:
        hand = render.hand_embed(game.observation(p), LONG_NAMES)
        assert_within_limits(hand)
        assert all(render.show(str(c)) in hand.description for c in game.down[p])
    final = _seven_at_the_showdown()
    embed = render.table_embed(final.observation(None), LONG_NAMES, render.event_lines([], LONG_NAMES))
    assert_within_limits(embed)
    assert "Showdown" in embed_text(embed)


def test_table_shows_pot_roles_betting_part_and_who_must_act():
    game = new_round([1, 2, 3], 1, {1: codes("2c 3s 4d 5c 9s"), 2: codes("2s 3h 4s 7c 7s"),
                                    3: codes("2h 3c 4h 5h 7h")})
    advance(game, "bet")
    act(game, 1, "bet::2")
    text = embed_text(render.table_embed(game.observation(None), {1: "Ann", 2: "Bob", 3: "Cy"}, []))
    assert "Dealer Ann · Elder Bob · Younger Cy" in text
    assert "**Pot:** 5" in text and "first round, part 1 (raising allowed)" in text
    assert "**Turn:** Bob to match the Dealer's amount, raise, or fold (owes 2 chips)" in text
    assert "\nBob (Elder): 99 chips" in text and "▶" not in text  # the Turn line says whose turn


def test_controls_label_amounts_discards_and_declarations():
    game = new_round([1, 2, 3], 1, {1: codes("2c 3s 4d 5c 9s"), 2: codes("Qs 3h 4s 7c 7s"),
                                    3: codes("2h 3c 4h 5h 7h")})
    obs = game.observation(2)
    controls = render.controls(obs, game.legal_actions(2))
    # The 30 discard subsets become one multi-card select of the five cards (1 to 4 of them).
    multi = [c for c in controls if c.place == "multi"]
    assert len(multi) == 1 and multi[0].action.kind == "discard" and multi[0].max_values == 4
    assert [label for _, label in multi[0].choices] == ["3♥", "4♠", "7♣", "7♠", "Q♠✦"]
    buttons = [c.action for c in controls if c.place == "button"]
    assert buttons == [a for a in game.legal_actions(2) if not (a.kind == "discard" and a.cards)]
    labels = {c.label for c in controls}
    assert "Keep all five" in labels and "Fold" in labels
    assert all(len(c.label) <= 100 for c in controls)
    advance(game, "bet")
    dealer_controls = render.controls(game.observation(1), game.legal_actions(1))
    form = [c for c in dealer_controls if c.place == "amount"]
    assert [(c.action.code(), c.label) for c in form] == [("bet", "Bet another amount (0–10)…")]
    advance(game, DECLARE)
    labels = [c.label for c in render.controls(game.observation(2), game.legal_actions(2))]
    assert labels[0] == "Declare the Lady: replace her" and labels[-1] == "Done declaring"


def test_event_lines_are_public():
    game = new_round([1, 2, 3], 1, {1: codes("2c 3s 4d 5c 9s"), 2: codes("2s 3h 4s 7c 7s"),
                                    3: codes("2h 3c 4h 5h 7h")}, exchange={2: codes("Kh Ah")})
    lines = render.event_lines(act(game, 2, "discard:2s.3h"), {2: "Bob"})
    assert lines[0] == "Bob exchanged 2 cards"
    assert not any("K♥" in line or "A♥" in line for line in lines)


def test_every_state_of_random_rounds_renders_within_limits():
    for seed in range(12):
        game = OnionGame.new(list(range(1, 2 + seed % 6 + 1)), {"carry": {"eights_wild": seed % 2 == 0}},
                             seed=seed)
        rng = random.Random(seed)
        recent: list[str] = []
        while True:
            assert_within_limits(render.table_embed(game.observation(None), LONG_NAMES, recent))
            for p in game.players:
                obs = game.observation(p)
                assert_within_limits(render.hand_embed(obs, LONG_NAMES))
                controls = render.controls(obs, game.legal_actions(p))
                assert all(0 < len(c.label) <= (100 if c.place == "select" else 80) for c in controls)
            if game.is_over():
                break
            p = sorted(game.current_players())[0]
            legal = game.legal_actions(p)
            staying = [a for a in legal if a.kind not in ("fold", "pass", "decline")]
            events = game.apply(p, rng.choice(staying or legal))
            recent += render.event_lines(events, LONG_NAMES)
        assert any("takes the Pot" in line or "Everybody folds" in line for line in recent)


def test_lobby_sentences_and_footer():
    from tests.lobby import lobby_option_lines, spec_of

    spec = spec_of(OnionGame, render, HOUSE_RULES)
    lines = lobby_option_lines(spec, {"stake": 2, "raise_cap": 5, "chips": 50, "mod0": "on", "mod11": "off", "rebuy": "on"})
    assert lines == [
        "Gambling: everyone starts with 50 chips; the Stake is 2 chips and a raise is at most 10 chips.",
        next(r for r in HOUSE_RULES if r.key == "mod0").sentence("on"),
        "Modifier #11, the Fool (J♣), is switched off.",
        "A player without chips for the Stake buys back in with the starting chips.",
    ]
    assert lines[1].startswith("Modifier #0, crippling, is in play: a nine/ten-card running flush")
    assert render.table_option_lines({"variant": "plain"})[0].startswith("Plain variant")
    game = OnionGame.new([1, 2], {"mod3": "off"}, seed=1)
    assert "modifiers off: #3" in render.footer_hint(game.observation(None))


# ------------------------------------------------------------------ sentences a newcomer reads


def test_house_rules_name_the_modifier_once_and_keep_card_names_capitalised():
    lines = [rule.sentence("off" if rule.key == "mod5" else rule.default) for rule in HOUSE_RULES]
    assert "Modifier #5, Fate (K🏆), is switched off." in lines
    assert "Modifier #6, Great A'Tuin (Q🪙), is in play: shift 8 points from one card to another." in lines
    assert any(line.startswith("Modifier #4, the Lady (Q♠), is in play: replaced by") for line in lines)
    assert any(line.startswith("Modifier #1, null eights, is in play: an eight may count 0") for line in lines)
    assert not any(line.count(":") > 1 and "(ten: also" not in line for line in lines)


def test_chip_counts_are_plural_only_when_they_should_be():
    assert render.table_option_lines({"stake": 1, "chips": 1, "raise_cap": 1})[0] == (
        "Gambling: everyone starts with 1 chip; the Stake is 1 chip and a raise is at most 1 chip.")
    game = new_round([1, 2, 3], 1, {1: codes("2c 3s 4d 5c 9s"), 2: codes("2s 3h 4s 7c 7s"),
                                    3: codes("2h 3c 4h 5h 7h")}, chips=2)
    text = embed_text(render.table_embed(game.observation(None), {1: "Ann", 2: "Bob", 3: "Cy"}, []))
    assert "Bob (Elder): 1 chip ·" in text and "1 chips" not in text


def test_the_players_task_reads_as_one_sentence():
    game = new_round([1, 2, 3], 1, {1: codes("2c 3s 4d 5c 9s"), 2: codes("2s 3h 4s 7c 7s"),
                                    3: codes("2h 3c 4h 5h 7h")})
    advance(game, "bet")
    hand = render.hand_embed(game.observation(1), {})
    assert "**Your turn as the Dealer to name the amount.**" in hand.description
    act(game, 1, "bet::1")
    hand = render.hand_embed(game.observation(2), {})
    assert "**Your turn to match the Dealer's amount, raise, or fold. You owe 1 chip.**" in hand.description
    text = embed_text(render.table_embed(game.observation(None), {1: "Ann", 2: "Bob"}, []))
    assert "**Turn:** Bob to match the Dealer's amount, raise, or fold (owes 1 chip)" in text
    labels = [c.label for c in render.controls(game.observation(2), game.legal_actions(2))]
    assert labels[0] == "Match 1 chip"  # the price is on the button


def test_a_newcomer_reads_the_price_and_whether_raising_is_allowed():
    game = new_round([1, 2, 3], 1, {1: codes("2c 3s 4d 5c 9s"), 2: codes("2s 3h 4s 7c 7s"),
                                    3: codes("2h 3c 4h 5h 7h")})
    advance(game, "bet")
    act(game, 1, "bet::0")
    hand = render.hand_embed(game.observation(2), {})
    assert "The Dealer named nothing: matching costs nothing." in hand.description
    assert [c.label for c in render.controls(game.observation(2), game.legal_actions(2))][0] == "Match (nothing to pay)"
    for p in (2, 3):
        act(game, p, "match")
    act(game, 1, "bet::2")  # part 2
    for p in (2, 3):
        act(game, p, "match")
    act(game, 1, "bet::1")  # part 3: no raising
    hand = render.hand_embed(game.observation(2), {})
    assert "**Your turn to match the Dealer's amount or fold (no raising in this part). You owe 1 chip.**" in hand.description
    text = embed_text(render.table_embed(game.observation(None), {2: "Bob"}, []))
    assert "**Turn:** Bob to match the Dealer's amount or fold (no raising in this part) (owes 1 chip)" in text


def test_buying_and_extra_bets_read_as_sentences():
    game = OnionGame.new([1, 2, 3], {}, seed=4)
    advance(game, BUY)
    p = game.queue[0]
    labels = [c.label for c in render.controls(game.observation(p), game.legal_actions(p))]
    assert labels[:3] == ["Buy none", "Buy 1 card face down", "Buy 2 cards face down"]
    line = render.event_lines(act(game, p, "buy::1"), {p: "Bob"})[0]
    assert line.startswith("Bob bought 1 card face down; the rest are dealt face up: ")
    labels = [c.label for c in render.controls(game.observation(p), game.legal_actions(p))]
    assert labels[0] == "No extra bet"
    assert render.event_lines(act(game, p, "extra::0"), {p: "Bob"}) == ["Bob makes no extra bet"]
    q = game.queue[0]
    line = render.event_lines(act(game, q, "buy::0"), {q: "Cy"})[0]
    # "Buy none" is not followed by a line that seems to say the player got cards anyway.
    assert line.startswith("Cy bought no cards, so all five are dealt face up: ") and line.count(" ") == 15
    assert render.event_lines(act(game, q, "extra::2"), {q: "Cy"}) == [
        "Cy makes an extra bet of 2 chips", "Extra bets total 2 chips: the Dealer matches or passes the dealership"]


def test_the_dealers_amount_is_in_chips():
    game = new_round([1, 2, 3], 1, {1: codes("2c 3s 4d 5c 9s"), 2: codes("2s 3h 4s 7c 7s"),
                                    3: codes("2h 3c 4h 5h 7h")})
    advance(game, "bet")
    assert render.event_lines(act(game, 1, "bet::1"), {1: "Ann"})[0] == "Ann (Dealer) names 1 chip for part 1 of the betting"
    act(game, 2, "raise::1")
    lines = render.event_lines(act(game, 3, "match"), {2: "Bob", 3: "Cy"})
    assert "The Dealer must match the collective raise of 1 chip or fold" in lines


# ------------------------------------------------------------------ card pictures

PICTURE_NAMES = {1: "Ann", 2: "Bob", 3: "Cy"}


def _shape(rows):
    return [(row.cards, row.face_down, row.deck) for row in rows]


def test_table_cards_show_face_up_cards_backs_and_the_marked_copy():
    game = _lady_round()
    rows = render.table_cards(game.observation(None), PICTURE_NAMES)
    assert _shape(rows) == [((), 10, "onion"), (("Tc", "Th", "9h", "Ts", "6s"), 5, "onion"),
                            (("Kw*", "3w", "4w", "5w", "7w"), 5, "onion")]
    # (The counts are the picture's: the cards, and the backs as a stack with its count.)
    assert [row.label for row in rows] == ["Seat 1 · Ann · Dealer", "Seat 2 · Bob · Elder · to act",
                                           "Seat 3 · Cy · Younger"]
    # Without names (or with a mention) a row is only its seat.
    assert render.table_cards(game.observation(None))[0].label == "Seat 1 · Dealer"


def test_a_declared_lady_is_set_aside_and_the_offer_is_only_in_the_hand_picture():
    game = _lady_round()
    hand = render.hand_cards(game.observation(2))
    assert _shape(hand) == [(("2s", "3h", "4s", "7c", "Qs*"), 0, "onion"),
                            (("Tc", "Th", "9h", "Ts", "6s"), 0, "onion")]
    assert hand[0].label == "Your face-down cards · 5 (only you see them)"
    act(game, 2, "declare:Qs:lady")
    text = embed_text(render.table_embed(game.observation(None), PICTURE_NAMES, []))
    assert text_cards("\nBob (Elder): 99 chips · 4 face down · face up 10♣ 10♥ 9♥ 10♠ 6♠ · set aside Q♠✦") in text
    table = render.table_cards(game.observation(None), PICTURE_NAMES)
    assert table[1].face_down == 4
    assert (table[2].label, table[2].cards) == ("Seat 2 · Bob · set aside, no longer in the hand", ("Qs*",))
    assert not any(code in ("Ad", "Kc") for row in table for code in row.cards)  # the offer is private
    hand = render.hand_cards(game.observation(2))
    assert [row.cards for row in hand[2:]] == [("Qs*",), ("Ad", "Kc")]
    assert hand[-1].label == "Offered: take one in the special card's place"
    assert not any(code in ("Ad", "Kc") for row in render.hand_cards(game.observation(3)) for code in row.cards)


def test_the_showdown_picture_shows_every_hand_in_its_groupings():
    game = _lady_round()
    act(game, 2, "declare:Qs:lady")
    act(game, 2, "pick:Kc")
    advance(game, "over")
    obs = game.observation(None)
    rows = render.table_cards(obs, PICTURE_NAMES)
    entries = {s["player"]: s for s in obs["showdown"]}
    assert len(rows) == 3  # one row a seat: the Lady set aside ends Bob's, after a gap
    for p, row in zip((1, 2, 3), rows):
        assert row.face_down == 0
        hand = row.cards[:len(row.cards) - row.apart]
        assert sorted(c.rstrip("*") for c in hand) == sorted(str(c) for c in game.hand(p))
        assert list(hand) == [render.art_code(c) for c in entries[p]["grouped"]]
        assert ", ".join(entries[p]["groupings"]) in row.label
        assert ("· wins" in row.label) == (p == obs["winner"])
    bob = rows[1]
    assert (bob.cards[-1:], bob.apart) == (("Qs*",), 1) and bob.label.endswith(" · the last card set aside")
    assert "Bob, in seat 2, set aside Queen of Spades (marked), no longer in the hand." in alt_text([bob])
    # The grouped order reads like the explanation: its first grouping's cards come first.
    first = entries[obs["winner"]]["explanation"].split(" · ")[0]
    assert render.show(entries[obs["winner"]]["grouped"][0]) in text_cards(first)


def test_hand_picture_of_a_player_without_cards_says_so():
    game = new_round([1, 2, 3], 1, {1: codes("2c 3s 4d 5c 9s"), 2: codes("2s 3h 4s 7c 7s"),
                                    3: codes("2h 3c 4h 5h 7h")})
    act(game, 2, "fold")
    assert _shape(render.hand_cards(game.observation(2))) == [((), 0, "onion")]
    assert render.hand_cards(game.observation(2))[0].label == "Your cards: none (folded)"
    # The seats that folded share one row, last (a row each would be a card's height of felt).
    row = render.table_cards(game.observation(None), PICTURE_NAMES)[-1]
    assert (row.label, row.cards, row.face_down) == ("Folded · Seat 2 · Bob", (), 0)
    assert row.spoken == "Bob, in seat 2, the Elder, folded"


PICTURE_SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PICTURE_SETTINGS
@given(st.integers(0, 10**9), st.integers(2, 7), st.booleans(), st.integers(0, 2**32))
def test_pictures_of_random_rounds_show_only_public_cards_and_draw(seed, n, wild, choice_seed):
    game = OnionGame.new(list(range(1, n + 1)), {"carry": {"eights_wild": wild}}, seed=seed)
    rng = random.Random(choice_seed)
    drawn: set[CardRow] = set()
    for _ in range(400):
        obs = game.observation(None)
        rows = render.table_cards(obs)
        revealed = {s["player"] for s in obs["showdown"]}
        hidden = {c for p in game.players if p not in revealed for c in map(str, game.down[p])}
        for p in game.players:
            mine = [r for r in rows if f"{r.label} ·".startswith(f"Seat {p} ·")]  # ("Seat 2", or "Seat 2 · Dealer")
            shown = sorted(c.rstrip("*") for r in mine for c in r.cards)
            public = game.hand(p) if p in revealed else game.up[p]
            assert shown == sorted(str(c) for c in public + game.aside[p])
            assert sum(r.face_down for r in mine) == (0 if p in revealed else len(game.down[p]))
            hand = render.hand_cards(game.observation(p))
            assert sorted(c.rstrip("*") for r in hand for c in r.cards) == sorted(
                map(str, game.hand(p) + game.aside[p] + [parse_card(c) for t in game.tasks
                                                         if t["player"] == p for c in t["cards"]]))
            drawn.update(hand)
        for row in rows:
            assert row.deck == "onion"
            for code in row.cards:
                assert code.rstrip("*") not in hidden
                assert code.endswith("*") == bool(parse_card(code.rstrip("*")).special)
        drawn.update(rows)
        if game.is_over():
            break
        p = sorted(game.current_players())[0]
        legal = game.legal_actions(p)
        staying = [a for a in legal if a.kind not in ("fold", "pass", "decline")]
        game.apply(p, rng.choice(staying if staying and rng.random() < 0.9 else legal))
    assert game.is_over()
    unique = sorted(drawn, key=repr)
    for i in range(0, len(unique), 10):  # render_rows raises on a code it cannot draw
        assert render_rows(unique[i:i + 10]).startswith(b"\x89PNG")



SHORT_NAMES = {1: "@ann", 2: "@bob", 3: "@cy", 4: "@dee"}  # as Discord renders the mentions
PLAIN_NAMES = {1: "ann", 2: "bob", 3: "cy", 4: "dee"}
WINNER_MARK = re.compile(r"(^|\s)🏆(\s|\*)")  # 🏆 as a mark, not the cups suit of a card ("10🏆")


def _played(seed: int, moves: int | None = None, players: int = 4) -> tuple[OnionGame, list[str]]:
    """A round played by random moves that mostly stay in, to ``moves`` moves or its end."""
    game = OnionGame.new(list(range(1, players + 1)), {}, seed=seed)
    rng, recent = random.Random(seed), []
    while not game.is_over() and (moves is None or moves > 0):
        p = rng.choice(sorted(game.current_players()))
        legal = game.legal_actions(p)
        staying = [a for a in legal if a.kind not in ("fold", "pass", "decline", "concede")]
        recent += render.event_lines(game.apply(p, rng.choice(staying if staying and rng.random() < 0.9 else legal)),
                                     SHORT_NAMES)
        moves = None if moves is None else moves - 1
    return game, recent


def test_over_the_picture_the_board_says_only_what_the_picture_cannot():
    game, recent = _played(2, moves=14)
    obs = game.observation(None)
    assert obs["phase"] == "bet"
    lean = render.table_embed(obs, SHORT_NAMES, recent, pictures=True)
    text = embed_text(lean)
    assert board_lines(lean) <= 10, text
    assert lean.description.startswith("**Turn:** @cy as the Dealer to name the amount")
    assert "**Pot:** 70" in lean.description
    for seat in obs["seats"]:  # the chips, which the picture does not show
        assert f"{SHORT_NAMES[seat['player']]} {seat['chips']}" in text
    # What the picture shows is not said again: roles, face-down counts, who folded.
    assert "face down" not in text and "Dealer @" not in text and "folded" not in text
    assert recent[-1] in text and recent[-4] not in text  # the last three events
    whole = embed_text(render.table_embed(obs, SHORT_NAMES, recent))
    assert "5 face down" in whole and "Dealer @cy" in whole and all(line in whole for line in recent[-10:])
    rows = render.table_cards(obs, PLAIN_NAMES)
    picture = Image.open(io.BytesIO(render_rows(rows, title="Cripple Mr Onion #1")))
    assert picture.width > picture.height  # a grid, not a column of stacks
    assert cardart.DISPLAY_BOX[0] * picture.height / picture.width <= cardart.DISPLAY_BOX[1]


def test_the_final_board_over_the_picture_names_the_winner_once_and_marks_no_one_with_the_cups():
    game, recent = _played(2)
    obs = game.observation(None)
    assert obs["outcome"] == "showdown" and obs["winner"] == 3
    final = render.final_text(obs)
    lean = render.table_embed(obs, SHORT_NAMES, recent, pictures=True)
    text = embed_text(lean)
    assert final.startswith("🥇 <@3> won the Cripple Mr Onion round at the showdown with ")
    assert "Pot won: 139 chips." in final
    assert final.count("<@3>") == 1
    # The board under it lists the chips (the winner's among them) and names nobody as the winner.
    assert text.count("@cy") == 1 and "**Chips:**" in text
    assert not re.search(r"\bwins?\b|\bwon\b|takes the Pot", text), text
    assert board_lines(lean, content=final) <= 8, text
    for said in (final, text, embed_text(render.table_embed(obs, SHORT_NAMES, recent)), *recent):
        assert not WINNER_MARK.search(said), said


def test_a_result_line_never_puts_brackets_inside_brackets():
    for seed in range(30):
        game, _ = _played(seed, players=3 + seed % 2)
        depth = 0
        for char in render.final_text(game.observation(None)):
            depth += {"(": 1, ")": -1}.get(char, 0)
            assert depth <= 1, render.final_text(game.observation(None))


def test_a_hand_with_no_face_up_cards_yet_has_no_empty_face_up_line():
    game = new_round([1, 2, 3], 1, {1: codes("2c 3s 4d 5c 9s"), 2: codes("Ac Ah 2u 2w 4t"), 3: codes("Qo Kt Ad 3w 4o")})
    assert not game.observation(2)["face_up"]
    said = embed_text(render.hand_embed(game.observation(2), PICTURE_NAMES))
    assert text_cards("**Face down:** A♣ A♥ 2") in said and "Face up" not in said


def test_a_menu_labels_the_latin_suits_with_the_signs_the_hand_s_legend_explains():
    """The hand's text prints 5♆ and its legend says ♆ is staves; its discard menu said
    5🪄, an emoji named nowhere (and 1.25:1 on the light theme)."""
    game = new_round([1, 2, 3], 1, {1: codes("2c 3s 4d 5c 9s"), 2: codes("5t 2w 5u 5o 4t"), 3: codes("Qo Kt Ad 3w 4o")})
    said = embed_text(render.hand_embed(game.observation(2), PICTURE_NAMES))
    assert "⚔\ufe0e swords, ♆ staves, ⚱\ufe0e cups, ◉ coins" in said, said
    (discard,) = [c for c in render.controls(game.observation(2), game.legal_actions(2)) if c.place == "multi"]
    labels = [label for _code, label in discard.choices]
    assert labels == ["2⚔\ufe0e", "4♆", "5♆", "5⚱\ufe0e", "5◉"], labels
    assert not any(emoji in label for label in labels for emoji in "🪄🏆🪙")


def test_bets_given_back_when_the_dealer_folds_are_told_and_a_bet_of_nothing_says_so():
    """The Dealer folding against a collective raise gives the raises back: the board's
    chips grew by them with no word why, and "(+2 near it)" had said where they lay in
    the seed's words only. Two parts named at nothing read as one line said twice."""
    names = {1: "Ann", 2: "Bob", 3: "Cy"}
    game = new_round([1, 2, 3], 1, {1: codes("2c 3s 4d 5c 9s"), 2: codes("2s 3h 4s 7c 7s"), 3: codes("2h 3c 4h 5h 7h")})
    advance(game, "bet")
    assert render.event_lines(act(game, 1, "bet::0"), names) == [
        "Ann (Dealer) names nothing for part 1 of the betting: staying in costs nothing"]
    act(game, 2, "raise::2")
    act(game, 3, "raise::1")
    board = embed_text(render.table_embed(game.observation(None), names, [], pictures=True))
    assert "**Pot:** 3 (+3 bet, not yet in it)" in board, board
    chips = {p: game.chips[p] for p in (2, 3)}
    lines = render.event_lines(act(game, 1, "fold"), names)
    assert "The bets not yet in the Pot go back to whoever made them: Bob 2, Cy 1" in lines, lines
    assert lines.index("Ann folded") < lines.index("The bets not yet in the Pot go back to whoever made them: Bob 2, Cy 1")
    assert {p: game.chips[p] for p in (2, 3)} == {2: chips[2] + 2, 3: chips[3] + 1}
