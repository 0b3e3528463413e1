"""Idiot in Spanish and in the pseudo-language: the board, a hand, its controls, a
refusal and the log lines all go through the catalog."""

from __future__ import annotations

from pseudo import assert_all_translated, refusal

from bot.words import i18n
from bot.rules.engine import Action
from cogs.idiot import render
from cogs.idiot.rules import HOUSE_RULES, IdiotGame
from tests.e2e.embeds import assert_within_limits, embed_text
from tests.cardcodes import as_text

A, B = 1, 2
NAMES = {A: "<@1>", B: "<@2>"}
#: Game titles stay English in every language.
ALLOWED = ("Idiot",)


def game(phase: str = "swap", options: dict | None = None) -> IdiotGame:
    """A two-player game, A first, an 8♥ on the pile."""
    return IdiotGame.new(
        [A, B], options or {},
        deal={
            "phase": phase, "first": A,
            "hands": {A: ["7h", "Kc", "2d"], B: ["4s", "5s", "6s"]},
            "face_up": {A: ["3c", "Th", "Qd"], B: ["8c", "8d", "9h"]},
            "face_down": {A: ["Ac", "Jd", "5c"], B: ["3h", "4h", "9c"]},
            "draw": ["Kh", "Qs"], "pile": ["8h"],
        },
    )


def test_the_swap_phase_in_spanish():
    with i18n.using("es"):
        state = game()
        board = embed_text(render.table_embed(state.observation(None), NAMES, []))
        hand = embed_text(render.hand_embed(state.observation(A), NAMES))
        swap = next(c for c in render.controls(state.observation(A), state.legal_actions(A)) if c.action.kind == "swap")
        log = render.event_lines(state.apply(A, Action("ready")) + state.apply(B, Action("ready")), NAMES)
    assert "**Fase de intercambio:**" in board
    assert as_text("**Montón (1 carta):** **8♥** · siguiente: un 8 o una carta más alta, o un 2 o un 10") in board
    assert as_text("<@1>: mano 3 · boca arriba 3♣ 10♥ Q♦ · boca abajo 3 ⏳ intercambiando") in board
    assert "Gana el primero que se queda sin cartas · Las reglas: /rules idiot" in board
    assert "**Boca abajo:** las número 1, 2, 3 (nadie las ha visto, ni tú)" in hand
    assert "luego pulsa **Listo**." in hand
    assert (swap.label, swap.description) == ("Cambiar 3♣ ↔ 2♦", "Pon 2♦ boca arriba y llévate 3♣ a la mano")
    assert log == ["<@1> está listo.", "<@2> está listo.", "Empieza el juego: sale <@1>."]


def test_play_a_refusal_and_a_burn_in_spanish():
    state = game("play")
    with i18n.using("es"):
        hand = embed_text(render.hand_embed(state.observation(A), NAMES))
        plays = [(c.label, c.description) for c in render.controls(state.observation(A), state.legal_actions(A))]
        low = refusal(state, A, Action.play("7h"))
        blind = refusal(state, A, Action("blind", arg="1"))
        swap = refusal(state, A, Action("swap", (state.face_up[A][0], state.hands[A][0])))
        log = render.event_lines(state.apply(A, Action.play("Kc")), NAMES)
    assert "**Te toca:** juegas desde tu mano." in hand
    assert ("K♣", "Jugar un Rey") in plays and ("2♦", "Jugar un 2: va sobre cualquier carta") in plays
    assert low == "7♥ es más baja que el 8♥ del montón: juega un 8 o una carta más alta, un 2 o un 10."
    assert blind == "Todavía tienes cartas en la mano: júgalas antes de dar la vuelta a una carta boca abajo."
    assert swap == "La fase de intercambio ha terminado: las cartas solo se cambian antes de empezar el juego."
    assert log == [as_text("<@1> jugó K♣ y robó 1 carta.")]
    # The same refusal, in English, once the Spanish block is over.
    assert refusal(state, B, Action.play("4s")) == (
        "4♠ is lower than the K♣ on the pile: play a King or higher, a 2 or a 10, or pick up the pile."
    )


def test_plural_plays_and_pictures_in_spanish():
    with i18n.using("es"):
        pair = IdiotGame.new([A, B], deal={"phase": "play", "first": A, "hands": {A: ["9c", "9d", "4c"], B: ["5c"]}, "pile": ["3h"]})
        plays = [c.description for c in render.controls(pair.observation(A), pair.legal_actions(A))]
        rows = render.table_cards(game("play").observation(None), {A: "Ann", B: "<@2>"})
        mine = render.hand_cards(game("play").observation(A))
    assert "Jugar dos 9" in plays
    assert rows[0].label == "Montón · 1 carta · siguiente: un 8 o una carta más alta, o un 2 o un 10"
    assert rows[1].spoken == "El mazo tiene 2 cartas"
    assert rows[2].label == "Asiento 1 · Ann · 3 en la mano · le toca"
    assert rows[2].spoken == "Ann, en el asiento 1, tiene 3 cartas en la mano; boca arriba: {cards}; y 3 boca abajo. Es su turno"
    assert mine[-1].spoken == "Tienes 3 cartas boca abajo, que ni tú has visto, con los números 1, 2 y 3"


def test_every_word_goes_through_the_catalog_in_the_pseudo_language():
    texts: list[str] = []
    with i18n.using(i18n.PSEUDO):
        state = game(options={"finish": "last_idiot", "voluntary_pickup": "on"})
        texts.append(refusal(state, A, Action.play("7h")))
        for player in (A, B):
            controls = render.controls(state.observation(player), state.legal_actions(player))
            texts += [text for c in controls for text in (c.label, c.description)]
        events = state.apply(A, Action("swap", (state.face_up[A][0], state.hands[A][0])))
        events += state.apply(A, Action("ready")) + state.apply(B, Action("ready"))
        controls = render.controls(state.observation(A), state.legal_actions(A))
        for control in controls:
            assert 0 < len(control.label) <= (100 if control.place == "select" else 80)
            assert len(control.description) <= 100
            texts += [control.label, control.description]
        texts += [refusal(state, A, Action.play("7h")), refusal(state, B, Action("pickup")), refusal(state, A, Action("fly"))]
        events += state.apply(A, Action.play("Kc")) + state.apply(B, Action("pickup"))
        log = render.event_lines(events, NAMES)
        texts += log
        for view in (render.table_embed(state.observation(None), NAMES, log), render.hand_embed(state.observation(A), NAMES)):
            assert_within_limits(view)
            texts.append(embed_text(view))
        for row in [*render.table_cards(state.observation(None), NAMES), *render.hand_cards(state.observation(B))]:
            texts += [row.label, row.spoken]
        texts += [rule.sentence(choice) for rule in HOUSE_RULES for choice in rule.choices]
    assert len(log) >= 5
    assert_all_translated(texts, ALLOWED)
