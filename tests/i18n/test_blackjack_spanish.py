"""Blackjack in Spanish and in the pseudo-language: the board, a hand, its controls, a
refusal and the log lines all go through the catalog."""

from __future__ import annotations

import pytest
from pseudo import assert_all_translated, refusal

from bot.words import i18n
from bot.rules.engine import Action
from cogs.blackjack import render
from cogs.blackjack.rules import HOUSE_RULES, BlackjackGame
from tests.e2e.embeds import assert_within_limits, embed_text
from tests.cardcodes import as_text

NAMES = {1: "<@1>", 2: "<@2>"}
#: Game titles stay English in every language.
ALLOWED = ("Blackjack",)


def game(**deal) -> BlackjackGame:
    """Ann (1) to play on a 7♥ with 9♥ 9♣ 4♣ A♦; Bob (2) holds K♣ 2♠."""
    return BlackjackGame.new(
        [1, 2], deal.pop("options", {}),
        deal={"hands": {1: ["9h", "9c", "4c", "Ad"], 2: ["Kc", "2s"]}, "discard": ["Jd", "7h"], "deck": ["3s", "5d", "6h"], **deal},
    )


def test_the_board_the_hand_and_the_log_in_spanish():
    with i18n.using("es"):
        state = game()
        events = state.apply(1, Action.play("9h"))
        log = render.event_lines(events, NAMES)
        board = embed_text(render.table_embed(state.observation(None), NAMES, log))
        hand = render.hand_embed(state.observation(1), NAMES)
        controls = render.controls(state.observation(1), state.legal_actions(1))
    assert log == [as_text("<@1> jugó 9♥")]
    assert as_text("**Carta de arriba:** 9♥") in board
    assert "**Turno:** <@1>, que puede añadir más cartas del mismo valor o terminar el turno" in board
    assert "<@2>: 2 cartas" in board
    assert "Mazo: 3 · Descarte: 3" in board
    assert "Las reglas: /rules blackjack" in board
    assert hand.title == "Tu mano: 3 cartas"
    assert "**Añade más 9 o termina tu turno.**" in hand.description
    assert [(c.label, c.description) for c in controls] == [("9♣", "Otro 9"), ("Terminar turno", "")]


def test_a_refusal_is_written_in_the_language_of_the_move():
    state = game()
    with i18n.using("es"):
        assert refusal(state, 1, Action.play("4c")) == (
            "4♣ no coincide con el 7♥ del descarte: juega un 7 o una carta de corazones, o un As."
        )
        assert refusal(state, 2, Action("draw")) == "Todavía no es tu turno: espera al jugador al que le toca."
        assert refusal(state, 1, Action("end")) == "Todavía no has jugado: juega una carta o roba."
    assert refusal(state, 1, Action.play("4c")) == "4♣ does not match the 7♥ on the pile: play a 7 or a heart, or an Ace."


def test_a_pickup_an_ace_and_a_named_suit_in_spanish():
    with i18n.using("es"):
        state = game(pickup=4)
        hand = render.hand_embed(state.observation(1), NAMES)
        draw = next(c for c in render.controls(state.observation(1), state.legal_actions(1)) if c.action.kind == "draw")
        events = state.apply(1, Action.play("Ad")) + state.apply(1, Action.parse("suit::s"))
        log = render.event_lines(events, NAMES)
        board = embed_text(render.table_embed(state.observation(None), NAMES, log))
        suits = [c.label for c in render.controls(game(discard=["Ah"]).observation(1), [Action.parse("suit::s")])]
        rule = HOUSE_RULES[0].sentence("debt")
    assert "Castigo de 4 cartas: responde con un As o con un 2 o una Jota que coincida, o róbalas." in hand.description
    assert draw.label == "Robar 4 cartas"
    assert log == [as_text("<@1> jugó A♦ (castigo de 4 anulado, pidió ♠ picas)")]
    assert as_text("**Carta de arriba:** A♦ (palo pedido: ♠ picas)") in board
    assert suits == ["♠ Picas"]
    assert rule.startswith("Un castigo mayor que las cartas que quedan por robar se debe")


def test_pictures_are_described_in_spanish():
    with i18n.using("es"):
        state = game()
        table = render.table_cards(state.observation(None), {1: "Ann", 2: "<@2>"})
        mine = render.hand_cards(state.observation(1))
    assert [row.label for row in table] == [
        "Carta de arriba · descarte 2", "Mazo · 3 cartas", "Asiento 1 · Ann · 4 cartas · le toca", "Asiento 2 · 2 cartas",
    ]
    assert table[0].spoken == "La carta de arriba es {cards}. El descarte tiene 2 cartas"
    assert table[2].spoken == "Ann, en el asiento 1, tiene 4 cartas, y es su turno"
    assert [row.label for row in mine] == ["Carta de arriba", "Tus tréboles", "Tus diamantes", "Tus corazones"]


def test_every_word_goes_through_the_catalog_in_the_pseudo_language():
    texts: list[str] = []
    with i18n.using(i18n.PSEUDO):
        facing_pickup = game(pickup=2)
        texts.append(embed_text(render.hand_embed(facing_pickup.observation(1), NAMES)))
        texts.append(refusal(facing_pickup, 1, Action.play("9h")))
        state = game(options={"pickup_shortfall": "debt", "voluntary_draw": "yes"})
        for each in (facing_pickup, state):
            obs = each.observation(1)
            for control in render.controls(obs, each.legal_actions(1)):
                assert 0 < len(control.label) <= (100 if control.place == "select" else 80)
                assert len(control.description) <= 100
                texts += [control.label, control.description]
        texts.append(refusal(state, 1, Action.play("4c")))
        texts.append(refusal(state, 2, Action("draw")))
        texts.append(refusal(state, 1, Action("fly")))
        events = state.apply(1, Action.play("9h")) + state.apply(1, Action.play("9c"))
        texts.append(refusal(state, 1, Action("end")))
        events += state.apply(1, Action("draw"))
        events += state.apply(2, Action("draw"))
        log = render.event_lines(events, NAMES)
        texts += log
        for view in (render.table_embed(state.observation(None), NAMES, log), render.hand_embed(state.observation(1), NAMES)):
            assert_within_limits(view)
            texts.append(embed_text(view))
        for row in [*render.table_cards(state.observation(None), NAMES), *render.hand_cards(state.observation(1))]:
            texts += [row.label, row.spoken]
        texts += [rule.sentence(choice) for rule in HOUSE_RULES for choice in rule.choices]
    assert len(log) >= 3
    assert_all_translated(texts, ALLOWED)


def test_the_pseudo_check_notices_an_english_word():
    with i18n.using(i18n.PSEUDO):
        wrapped = i18n._("{player} played {cards}", player="<@1>", cards="9♥")
    assert_all_translated([wrapped, "⟦⟦Šéåţ 1··⟧ · Blackjack⟧"], ALLOWED)
    with pytest.raises(AssertionError, match="played"):
        assert_all_translated([f"{wrapped} then played 9♣"], ALLOWED)
