"""Cripple Mr Onion rendering: Discord limits at the biggest table, public facts, no leaks."""

from __future__ import annotations

import random

from onion_round_helpers import act, advance, codes, new_round

from cogs.onion import render
from cogs.onion.rules import BUY, DECLARE, OnionGame
from tests.e2e.embeds import assert_within_limits, embed_text

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
    assert "**Turn:** Bob" in text and "(owes 2)" in text
    assert "▶ Bob (Elder): 99 chips" in text


def test_controls_label_amounts_discards_and_declarations():
    game = new_round([1, 2, 3], 1, {1: codes("2c 3s 4d 5c 9s"), 2: codes("Qs 3h 4s 7c 7s"),
                                    3: codes("2h 3c 4h 5h 7h")})
    obs = game.observation(2)
    controls = render.controls(obs, game.legal_actions(2))
    assert [c.action for c in controls] == game.legal_actions(2)
    labels = {c.label for c in controls}
    assert "Keep all five" in labels and "Fold" in labels and "Discard 3♥ Q♠✦" in labels
    assert all(len(c.label) <= 100 for c in controls)
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
    lines = render.option_lines({"stake": 2, "raise_cap": 5, "chips": 50, "mod11": "off", "rebuy": "on"})
    assert lines[0] == "Gambling: everyone starts with 50 chips; the Stake is 2 and a raise is at most 10 chips."
    assert "Modifier #11 is switched off." in lines and "Modifier #0 is in play" in lines[1]
    assert lines[-1] == "A player without chips for the Stake buys back in with the starting chips."
    assert render.option_lines({"variant": "plain"})[0].startswith("Plain variant")
    game = OnionGame.new([1, 2], {"mod3": "off"}, seed=1)
    assert "modifiers off: #3" in render.footer_hint(game.observation(None))
