"""Enid in Spanish and in the pseudo-language: the board, a hand, the card menu, the
log, a refusal, the votes and the session's story, rendered from real games.

Enid's names, rituals and the phrases players type stay English in every language
(they are the game): they go into the translated sentences through fields."""

from __future__ import annotations

import random
import re

import pytest

from bot.words import i18n
from bot.rules.engine import Action, RuleError
from cogs.enid import render
from cogs.enid.names import BUILTIN, SUIT_NAMES, words
from cogs.enid.rules import EnidGame
from tests.e2e.embeds import assert_within_limits, embed_text
from tests.enid.enid_helpers import act, random_step, say, stacked
from tests.i18n.pseudo import english_words
from bot.words.render_util import text_cards

NAMES = {1: "Ana", 2: "Bruno", 3: "Cata"}
CHAIN = {"chain": [{"words": ["marmalade"], "author": 2}]}
CARRY = {
    "chain": [{"words": ["zebedee"], "author": 1}, {"words": ["quokka", "pie"], "author": 2}],
    "middle_names": [{"key": "marmoset"}],
    "results": [{"winner": 1, "placements": [[1], [2, 3]]}, {"winner": None, "placements": []}],
}


def _limerick_game() -> EnidGame:
    """Ana has laid a black Six, named it and set a limerick for Bruno."""
    game = stacked({1: ["6s", "5c", "5s"], 2: ["Kc", "Kd"], 3: ["Qc", "Qd"]}, discard=["4s"], deck=["3c", "3d"], carry=CHAIN)
    act(game, 1, "6s")
    say(game, 1, "Alan Turing of Sturgeon")
    say(game, 1, "There once was a coder from Warwick")
    return game


# --------------------------------------------------------------------------- Spanish


def test_the_board_and_a_hand_in_spanish():
    game = stacked({1: ["6s", "5c", "5s"], 2: ["Kc", "Kd"], 3: ["Qc", "Qd"]}, discard=["4s"], deck=["3c", "3d"], carry=CHAIN)
    with i18n.using("es-ES"):
        board = embed_text(render.table_embed(game.observation(None), NAMES, []))
        hand = render.hand_embed(game.observation(1), NAMES)
    assert text_cards("**Boca arriba:** 4♠") in board
    # The Enid's name and the fish stay as the seed has them; the rest is Spanish.
    assert text_cards("**La Enid Blyton:** el nueve de ♠ Sturgeon, cadena de 1 segundo nombre") in board
    assert "**Turno 1:** Ana · el juego pasa a la izquierda ↻" in board
    assert "**Cartas:** Ana 3 · Bruno 2 · Cata 2 · mazo 2 · descarte 1" in board
    assert hand.title == "Tu mano: 3 cartas"
    assert "**Te toca: juega una carta del mismo palo o valor; roba solo si no puedes.**" in hand.description


def test_a_ritual_owed_is_explained_in_spanish_and_its_words_stay_english():
    game = stacked({1: ["7h", "5c", "5s"], 2: ["Kc", "Kd", "Ks"], 3: ["Qc", "Qd", "Qs"]}, discard=["4h"])
    act(game, 1, "7h")
    say(game, 1, "Alonzo Church of Halibut")
    with i18n.using("es"):
        task = render.hand_embed(game.observation(1), NAMES).description
        board = render.table_embed(game.observation(None), NAMES, []).description
    assert "grita “Haaargh! Be Alonzo Churched! (a bit)” en el hilo de la partida" in task
    assert "⏳ Ana debe lanzar el grito de Church" in board and "a la derecha ↺" in board


def test_the_log_in_spanish():
    game = _limerick_game()
    events = game.opening_events
    with i18n.using("es"):
        opening = render.event_lines(events, NAMES)
    assert opening[0].startswith(text_cards("Carta descubierta: 4♠. La Enid Blyton es el nueve de ♠ Sturgeon"))
    game = stacked({1: ["6s", "5c", "5s"], 2: ["Kc", "Kd"], 3: ["Qc", "Qd"]}, discard=["4s"], deck=["3c", "3d"], carry=CHAIN)
    events = act(game, 1, "6s") + say(game, 1, "Alan Turing of Sturgeon") + say(game, 1, "There once was a coder from Warwick")
    with i18n.using("es"):
        lines = render.event_lines(events, NAMES)
    assert lines[0] == text_cards("Ana jugó 6♠")
    assert text_cards("✅ Ana nombró bien 6♠") in lines
    assert "📜 Ana dejó un limerick para el siguiente jugador" in lines
    # What players said is logged as they said it.
    assert "💬 Ana: “Alan Turing of Sturgeon”" in lines


def test_a_misnamed_card_and_its_draw_in_spanish():
    game = stacked({1: ["3c", "5c", "5s"], 2: ["Kc", "Kd"], 3: ["Qc", "Qd"]}, discard=["4c"])
    events = act(game, 1, "3c") + say(game, 1, "Dennis Richie of Carp")
    with i18n.using("es"):
        lines = render.event_lines(events, NAMES)
    assert text_cards("❌ Ana nombró mal 3♣: necesita un segundo nombre inventado (Dennis M… Richie, Brian W… Kernighan); su magia queda anulada") in lines
    assert "Ana robó 1 por un nombre incorrecto o ausente" in lines


def test_a_refusal_is_written_in_the_language_of_the_move():
    game = _limerick_game()
    with i18n.using("es"), pytest.raises(RuleError) as refused:
        game.apply(2, Action.play("Kc"))
    assert str(refused.value) == "Te toca un limerick: juega un Seis o la Enid, recítalo, o roba una para rechazarlo."
    with i18n.using("es"), pytest.raises(RuleError) as refused:
        game.apply(3, Action.play("Qc"))
    assert str(refused.value) == "No es tu turno."
    with pytest.raises(RuleError) as refused:  # the next move, in English again
        game.apply(3, Action.play("Qc"))
    assert str(refused.value) == "It is not your turn."


def test_the_card_menu_and_buttons_in_spanish():
    game = _limerick_game()
    with i18n.using("es"):
        labels = [c.label for c in render.controls(game.observation(2), game.legal_actions(2))]
    assert labels == ["Recitar el limerick", "Rechazar (robar 1)"]
    game = stacked({1: ["2c", "Qc", "5s"], 2: ["Kc"], 3: ["Qd"]}, discard=["4c"])
    with i18n.using("es"):
        described = {c.label: c.description for c in render.controls(game.observation(1), game.legal_actions(1))}
    assert described["2♣"] == "El siguiente roba 2 más" and described["Q♣"] == "Salta al siguiente jugador"


def test_the_session_story_and_the_vote_in_spanish():
    with i18n.using("es"):
        story = render.session_summary(CARRY)
    assert "**La cadena de Enid** (2 segundos nombres):" in story
    assert "1. Zebedee — de <@1>" in story and "Completo: Enid Zebedee Quokka Pie Blyton." in story
    assert "Partida 1: ganó <@1> (<@1>, luego <@2> y <@3>)." in story and "Partida 2: sin ganador." in story
    assert "**Resultados** (2 partidas):" in story
    game = _limerick_game()
    act(game, 2, "recite")
    say(game, 2, "Who was terribly fond of the cat\nOne day with a hat\nAnd a very small bat\nAnd that was the end of the mat")
    with i18n.using("es"):
        (ballot,) = render.ballots(game.observation(None), NAMES)
    assert ballot.question == "¿tiene el limerick buen ritmo y rima?"
    assert [c.label for c in ballot.choices] == ["Sí, vale", "No"]
    assert ballot.body.startswith("Bruno recitó:\n> There once was a coder from Warwick")


# --------------------------------------------------------------------------- pseudo-language

#: Kept in English on purpose: the names players say (computer scientists, fish, the
#: Enid Blyton), the game's title, and the words of the rituals.
ENID_WORDS = (
    {w for names in BUILTIN.values() for name in names for w in words(name)}
    | {w for names in SUIT_NAMES.values() for name in names for w in words(name)}
    | {"enid", "blyton", "blackjack"}
)
#: bot/rules/cards.py's suit titles (plain mode's suit buttons and refusals) are wrapped by
#: the shared modules' translation, not by Enid's.
SHARED_SUIT_TITLES = {"clubs", "diamonds", "hearts", "spades"}


def _read(text: str) -> str:
    """What players read as the bot's own words: lines quoting what players typed
    (said lines, a recited limerick) are theirs, logged as typed."""
    text = _SAID.sub("", text)
    return "\n".join(line for line in text.splitlines() if not line.startswith("> "))


_SAID = re.compile(r"💬 [^\n]*?: “.*?”", re.S)  # a said line; what was said may run over several lines


@pytest.mark.parametrize("mode, seed", [("enid", 1), ("enid", 2), ("plain", 3)])
def test_every_word_of_a_whole_game_goes_through_the_catalog(mode, seed):
    rng = random.Random(seed)
    game = EnidGame.new([1, 2, 3], {"mode": mode, "beginner_names": "yes", "carry": CARRY}, seed=seed)
    seen: list[str] = []
    kinds: set[str] = set()
    with i18n.using(i18n.PSEUDO):
        seen += render.event_lines(game.opening_events, NAMES)
        for _ in range(400):
            if game.is_over():
                break
            player, action, events = random_step(game, rng)
            kinds.update(e.kind for e in events)
            lines = render.event_lines(events, NAMES)
            seen += lines
            table = render.table_embed(game.observation(None), NAMES, lines)
            assert_within_limits(table)
            seen.append(embed_text(table))
            for p in game.players:
                hand = render.hand_embed(game.observation(p), NAMES)
                assert_within_limits(hand)
                seen.append(embed_text(hand))
                for control in render.controls(game.observation(p), game.legal_actions(p)):
                    assert 0 < len(control.label) <= (100 if control.place == "select" else 80)
                    seen += [control.label, control.description or ""]
            for ballot in render.ballots(game.observation(None), NAMES):
                seen += [ballot.question, ballot.body, *(c.label for c in ballot.choices)]
            for ballot_id in {str(e.data.get("id")) for e in events if e.kind == "vote_closed"}:
                seen.append(render.ballot_verdict(events, ballot_id, NAMES) or "")
            seen.append(render.ping_task(game.observation(None)) or "")
            if rng.random() < 0.2 and game.hands[player]:
                # Refusals: a card from the mover's hand by anyone, and stray words.
                for refused_move in (Action.play(rng.choice(sorted(game.hands[player], key=str))), Action("say", arg="hello")):
                    try:
                        game.validate(rng.choice(game.players), refused_move)
                    except RuleError as refused:
                        seen.append(str(refused))
        seen.append(render.session_summary(game.carry_out()))
        seen += render.table_option_lines({"mode": mode})
        seen.append(render.house_rule_line("ritual_seconds", "30", {"mode": "plain"}) or "")
    assert len(kinds) > 8, kinds  # the game went far enough to say many things
    allowed = ENID_WORDS | (SHARED_SUIT_TITLES if mode == "plain" else set())
    leaks = {text: found for text in seen if (found := english_words(_read(text), allowed))}
    assert leaks == {}


def test_the_pseudo_check_finds_an_unwrapped_word():
    with i18n.using(i18n.PSEUDO):
        text = i18n._("{player} laid {card}", player="Ana", card="6♠") + " and then left"
    assert english_words(text, {"Ana"}) == ["and", "then", "left"]
    assert english_words("⟦Ŵåîţîñĝ ⟦ñéšţéð⟧⟧ <@12> <t:1:R>") == []
