"""Cripple Mr Onion in Spanish, and nothing left behind in the pseudo-language: the
board, a hand, the buttons, refusals, event lines, explanations, the pictures' labels and
alt text, the end of a round. Hand and special card names stay English (the game's own
Discworld terms)."""

from __future__ import annotations

import random
import re

import pytest

from bot.words import i18n
from bot.rules.engine import IllegalAction, NotYourTurn, RuleError
from cogs.onion import render
from cogs.onion.rules import HOUSE_RULES, OnionGame
from cogs.onion.scoring import best_arrangement, explanation_text, parse_cards
from tests.e2e.embeds import embed_text
from tests.i18n.pseudo import english_words
from tests.onion.onion_round_helpers import act, advance, codes, lady_round as _lady_round, new_round
from bot.words.render_util import text_cards

NAMES = {1: "Ann", 2: "Bob", 3: "Cy"}

#: What stays English on purpose: the hand names (every word of scoring's grouping
#: names), the special cards' names, the game's title, the players' names in these tests.
ONION_TERMS = (
    "Cripple Mr Onion", "the Octavo", "Elephants' Double Onion", "the Lady", "Great A'Tuin", "the Elephants",
    "the Sender of Eight", "the Archchancellor", "the Fool", "Fate", "Death",
    "Double", "Triple", "Lesser", "Greater", "Great", "double", "triple", "lesser", "great", "Onion", "onion",
    "bagel", "broken", "flush", "Royal",
    "running", "card", "two", "three", "four", "five", "six", "seven", "nine", "ten",
    *NAMES.values(),
)
#: The shared helpers of bot/words/render_util.py (name_of, seat_label, seat_spoken) are not
#: wrapped by this game: their English words are allowed until they are.
SHARED_HELPER_WORDS = ("Seat", "seat", "someone", "Player", "Dealer", "Elder", "Younger")


def _betting_round() -> OnionGame:
    """Ann deals; she has just named 2 chips, Bob (the Elder) is to answer."""
    game = new_round([1, 2, 3], 1, {1: codes("2c 3s 4d 5c 9s"), 2: codes("2s 3h 4s 7c 7s"),
                                    3: codes("2h 3c 4h 5h 7h")})
    advance(game, "bet")
    return game


def test_the_board_a_hand_the_buttons_and_an_event_in_spanish():
    game = _betting_round()
    with i18n.using("es"):
        lines = render.event_lines(act(game, 1, "bet::2"), NAMES)
        board = embed_text(render.table_embed(game.observation(None), NAMES, lines))
        hand = render.hand_embed(game.observation(2), NAMES)
        labels = [c.label for c in render.controls(game.observation(2), game.legal_actions(2))]
    assert lines == ["Ann (la Banca) fija 2 fichas para la parte 1 de las apuestas"]
    assert "Ronda 1 · Banca Ann · Mayor Bob · Menor Cy" in board
    assert "**Bote:** 5 · Puesta 1 · tope de subida 10" in board
    assert "**Apuestas:** primera ronda, parte 1 (se puede subir) · cantidad de la Banca: 2" in board
    assert "**Turno:** Bob: igualar la cantidad de la Banca, subir o retirarse (debe 2 fichas)" in board
    assert "Bob (Mayor): 99 fichas · 5 boca abajo" in board
    assert "✦ marca una carta especial" in board
    assert hand.title == "Tus cartas: 5"
    assert text_cards("**Boca abajo:** 2♠ 3♥ 4♠ 7♣ 7♠") in hand.description
    assert "**Te toca: igualar la cantidad de la Banca, subir o retirarse. Debes 2 fichas.**" in hand.description
    assert labels[:2] == ["Igualar 2 fichas", "Igualar y subir 1"]
    assert "Retirarse" in labels and "Igualar y subir otra cantidad (1–10)…" in labels


def test_refusals_are_in_the_language_of_whoever_moves():
    game = _betting_round()
    act(game, 1, "bet::2")
    with i18n.using("es"):
        with pytest.raises(IllegalAction, match=r"^Una subida puede ser como mucho de 10 fichas \(el tope de subida\)\.$"):
            act(game, 2, "raise::999")
        with pytest.raises(IllegalAction, match=r"^'mucho' no es un número de fichas para una subida\.$"):
            act(game, 2, "raise::mucho")
        with pytest.raises(NotYourTurn, match=r"^No es tu turno\.$"):
            act(game, 3, "match")
    with pytest.raises(NotYourTurn, match=r"^It is not your turn\.$"):  # the next mover reads English
        act(game, 3, "match")


def test_a_showdown_explains_hands_in_spanish_with_the_names_the_spanish_rules_page_chooses():
    """Issue 36: no English name or article inside Spanish ("Declarar the Lady", "seven-card onion
    (1 ocho nulo)"): the hands and the special cards have the names of docs/rules/es/onion.md,
    the same on the board, in the log, in the final line and in the picture's labels."""
    game = _lady_round()
    with i18n.using("es"):
        events = act(game, 2, "declare:Qs:lady") + act(game, 2, "pick:Kc") + advance(game, "over")
        lines = render.event_lines(events, NAMES)
        board = embed_text(render.table_embed(game.observation(None), NAMES, []))
        final = render.final_text(game.observation(None))
        labels = [row.label for row in render.table_cards(game.observation(None), NAMES)]
    assert text_cards("Bob declara Q♠✦ la Dama: se cambia por una de las dos cartas siguientes") in lines
    assert "El enfrentamiento, mano contra mano: el Mayor baja su mano primero" in lines
    assert (text_cards("La mano de Ann no puede igualarla ni superarla, así que queda fuera: onion de cinco cartas 2♣ 3♠ 5♣ 6♥ "
                       "5♠ · bagel J♥ K♥ · sin usar 4♦ 9♠ 9♣ (la Muerte impide que J♥ forme una Onion Doble)")) in lines
    assert "La mano de Cy supera a la de Bob: onion de seis cartas contra onion de cuatro cartas" in lines
    assert "**Cy gana el enfrentamiento** y reparte en la siguiente." in board
    assert text_cards("Cartas especiales en la mesa\nQ♠✦ la Dama, K⚔✦ la Muerte") in board
    assert "El enfrentamiento, tal como fue\nBob baja su mano la primera, como Mayor: onion de cuatro cartas" in board
    assert final.startswith("🥇 <@3> ganó la ronda de Cripple Mr Onion en el enfrentamiento "
                            "con onion de seis cartas, color roto. Bote ganado: ")
    assert "Asiento 3 · Cy · Menor · gana · onion de seis cartas, color roto" in labels
    for said in (*lines, board, final, *labels):
        assert not re.search(r"\b(the|card|Lady|Death|Fate|Double|Lesser|Greater|flush)\b", said), said
    # The state keeps the English explanation whatever language the mover spoke.
    assert all("sin usar" not in entry["explanation"] for entry in game.observation(None)["showdown"])


def test_explanations_translate_their_notes_and_null_eights_and_english_comes_back_unchanged():
    english = best_arrangement(parse_cards("2c 2h 3s 4d 4w 6t 7u Kc Ko Ah")).explain()
    assert explanation_text(english) == english
    with i18n.using("es"):
        assert explanation_text(english).endswith("· sin usar 7🏆")
        noted = explanation_text("four-card onion (1 null eight) 8♠=0 A♥ 2♦ · unused Q♦ (the Lady holds A♥ to 1; "
                                 "Great A'Tuin shifts 8 from 9♣ (9→1) to 2♦ (2→10); holds a nine-card running "
                                 "flush 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣)")
    assert noted == ("onion de cuatro cartas (1 ocho nulo) 8♠=0 A♥ 2♦ · sin usar Q♦ (la Dama deja A♥ en 1; "
                     "Gran A'Tuin pasa 8 de 9♣ (9→1) a 2♦ (2→10); tiene una escalera de color de nueve cartas "
                     "2♣ 3♣ 4♣ 5♣ 6♣ 7♣ 8♣ 9♣ 10♣)")


def test_house_rules_and_the_lobby_in_spanish():
    lady = next(rule for rule in HOUSE_RULES if rule.key == "mod4")
    with i18n.using("es"):
        assert i18n._(lady.describe("off")) == "El modificador #4, la Dama (Q♠), está desactivado."
        assert render.table_option_lines({}) == [
            "Con apuestas: todos empiezan con 100 fichas; la Puesta es de 1 ficha y una subida es como mucho de 10 fichas."]
        assert render.session_summary({"round": 3, "bankrolls": {"1": 120, "2": 80}, "wins": {"1": 2, "2": 1}}) == (
            "3 rondas jugadas.\n<@1>: 120 fichas (2 rondas ganadas)\n<@2>: 80 fichas (1 ronda ganada)")


def _pseudo_leftovers(text: str) -> list[str]:
    return english_words(text, ONION_TERMS + SHARED_HELPER_WORDS)


@pytest.mark.parametrize("seed, players, options", [
    (1, [1, 2, 3], {}),
    (2, [1, 2], {"carry": {"eights_wild": True}}),
    (5, [1, 2, 3], {"showdown": "quick", "variant": "plain"}),
])
def test_a_whole_round_in_the_pseudo_language_leaves_no_english_word(seed, players, options):
    rng = random.Random(seed)
    seen: list[str] = []
    with i18n.using(i18n.PSEUDO):
        game = OnionGame.new(players, options, seed=seed)
        recent: list[str] = []
        while True:
            obs = game.observation(None)
            seen.append(embed_text(render.table_embed(obs, NAMES, recent[-5:])))
            seen += [f"{row.label}\n{row.spoken}" for row in render.table_cards(obs, NAMES)]
            for p in players:
                mine = game.observation(p)
                seen.append(embed_text(render.hand_embed(mine, NAMES)))
                seen += [f"{row.label}\n{row.spoken}" for row in render.hand_cards(mine)]
                seen += [c.label for c in render.controls(mine, game.legal_actions(p))]
            if game.is_over():
                break
            p = sorted(game.current_players())[0]
            legal = game.legal_actions(p)
            staying = [a for a in legal if a.kind not in ("fold", "pass", "decline")]
            recent += render.event_lines(game.apply(p, rng.choice(staying or legal)), NAMES)
            try:
                game.apply(p, game.parse_action("bid::-1"))
            except RuleError as refusal:  # whatever the phase, a refusal
                seen.append(str(refusal))
        seen += recent
        seen.append(render.final_text(game.observation(None)))
        seen += render.table_option_lines(options) + [render.footer_hint(game.observation(None))]
        seen += [i18n._(rule.describe(choice)) for rule in HOUSE_RULES for choice in rule.choices]
    left = {text: _pseudo_leftovers(text) for text in seen}
    assert {text: words for text, words in left.items() if words} == {}
    assert any("⟦" in line for line in recent)
