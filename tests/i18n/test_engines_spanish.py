"""Engines of Discrimination in Spanish and in the pseudo-language: the board, a hand,
its controls, a refusal and the log lines all go through the catalog. The sides'
names (Google, Yahoo) and the game's title stay English."""

from __future__ import annotations

import pytest
from pseudo import assert_all_translated, refusal

from bot.words import i18n
from bot.rules.engine import Action, RuleError
from cogs.engines import render
from cogs.engines.rules import HOUSE_RULES, EnginesGame, prepare_table_options
from tests.e2e.embeds import assert_within_limits, embed_text
from tests.engines.helpers_engines import G, Y, four_player, two_player
from bot.words.render_util import text_cards

NAMES = {p: f"<@{p}>" for p in range(1, 5)}
ALLOWED = ("Engines", "Discrimination", "Google", "Yahoo", "IPO", "IPOs")


def game() -> EnginesGame:
    """Google (1) and Yahoo (2); the 7♠ is the first Search Request."""
    return two_player("5h 9c Kd 2s", "6h 3c 8d Qs", "7s 4h 2c")


def test_a_search_in_spanish():
    with i18n.using("es"):
        state = game()
        hand = embed_text(render.hand_embed(state.observation(G), NAMES))
        controls = render.controls(state.observation(G), state.legal_actions(G))
        log = render.event_lines(state.apply(G, Action.play("5h")) + state.apply(Y, Action.play("8d")), NAMES)
        board = embed_text(render.table_embed(state.observation(None), NAMES, log))
    assert hand.startswith(text_cards("Tu mano — Google\n🔎 Petición de búsqueda: **7♠**"))
    assert text_cards("K♦ — una imagen: no vale nada contra la petición 7♠") in hand
    assert ("5♥", text_cards("a 2 puntos de la petición 7♠")) in [(c.label, c.description) for c in controls]
    assert log == [
        "✅ <@1> ha elegido una carta.",
        "✅ <@2> ha elegido una carta.",
        text_cards("🃏 Se destapan las cartas para 7♠: <@2> 8♦ · <@1> 5♥"),
        text_cards("🎯 La búsqueda es para Yahoo (carta más cercana): <@2> 8♦"),
        text_cards("🔎 <@1> destapa la petición de búsqueda n.º 2: **4♥**"),
    ]
    assert text_cards("🔎 Petición de búsqueda **4♥** (n.º 2, la destapó <@1>)") in board
    assert text_cards("**Última búsqueda** — Petición 7♠: <@2> 8♦ · <@1> 5♥\n→ la búsqueda es para Yahoo (carta más cercana): <@2> 8♦ apartadas") in board
    assert "cartas que quedan: 1 · descartadas: 1" in board
    assert "Ganó la última búsqueda" in board


def test_refusals_in_spanish_and_in_english():
    state = game()
    with i18n.using("es"):
        assert refusal(state, Y, Action("ipo")) == "Solo Google puede declarar una IPO."
        assert refusal(state, G, Action.play("6h")) == "No tienes 6♥: elige una de las cartas de tu mano."
        state.apply(G, Action.play("5h"))
        assert refusal(state, G, Action.play("9c")) == "Ya has elegido tu carta para esta búsqueda; esperando a los demás."
        with pytest.raises(RuleError, match="se abrió para 4 jugadores y se han unido 2: esperad a que se unan 2 jugadores más"):
            prepare_table_options([1, 2], {}, {"players": 4}, "seed")
    assert refusal(state, Y, Action("ipo")) == "Only Google can declare an IPO."


def test_four_players_and_pictures_in_spanish():
    with i18n.using("es"):
        state = four_player({1: "5h 9c", 2: "6h 3c", 3: "Kd 2s", 4: "8d Qs"}, "7s 4h 2c")
        board = render.table_embed(state.observation(None), NAMES, [])
        rows = render.table_cards(state.observation(None), {1: "Ann", 2: "<@2>", 3: "<@3>", 4: "<@4>"})
        rule = HOUSE_RULES[0].sentence("auto")
    assert board.title == "Engines of Discrimination — manga 1 (al mejor de tres)"
    assert board.fields[0].name == "🔵 Google — mangas ganadas: 0"
    assert rows[1].label == "Asiento 1 · Ann · Google"
    assert rows[1].spoken == "Ann, en el asiento 1, juega con Google y tiene 2 cartas en la mano"
    assert rows[-1].spoken == "Al mazo de búsqueda le quedan 2 cartas, y hay 0 descartadas"
    assert rule == "Desempate de Yahoo: el bot enseña la carta por Yahoo siempre que puede."


def test_every_word_goes_through_the_catalog_in_the_pseudo_language():
    texts: list[str] = []
    with i18n.using(i18n.PSEUDO):
        state = two_player("5h 9c Kd 2s", "9h 3c 8d Qs", "7s 4h 2c 6c 5d")
        texts += [refusal(state, Y, Action("ipo")), refusal(state, G, Action.play("6h")), refusal(state, G, Action("fly"))]
        events = state.apply(G, Action.play("5h")) + state.apply(Y, Action.play("9h"))  # a tie on the first search
        events += state.apply(G, Action.play("9c")) + state.apply(Y, Action.play("8d"))
        ipo = [c for c in render.controls(state.observation(G), state.legal_actions(G)) if c.action.kind == "ipo"]
        assert ipo, "Google may float at the start of its turn"
        for player in (G, Y):
            for control in render.controls(state.observation(player), state.legal_actions(player)):
                assert 0 < len(control.label) <= (100 if control.place == "select" else 80)
                assert len(control.description) <= 100
                texts += [control.label, control.description]
        events += state.apply(G, Action("ipo"))
        log = render.event_lines(events, NAMES)
        texts += log
        for view in (render.table_embed(state.observation(None), NAMES, log), render.hand_embed(state.observation(G), NAMES)):
            assert_within_limits(view)
            texts.append(embed_text(view))
        four = four_player({1: "5h 9c", 2: "6h 3c", 3: "Kd 2s", 4: "8d Qs"}, "7s 4h 2c")
        texts.append(embed_text(render.table_embed(four.observation(None), NAMES, [])))
        for row in [*render.table_cards(state.observation(None), NAMES), *render.hand_cards(state.observation(G))]:
            texts += [row.label, row.spoken]
        texts += [rule.sentence(choice) for rule in HOUSE_RULES for choice in rule.choices]
    assert len(log) >= 6
    assert_all_translated(texts, ALLOWED)
