"""The platform's own sentences (bot/discord_front/publish.py, bot/discord_front/tables/, bot/discord_front/views.py, bot/discord_front/votes.py,
bot/discord_front/guard.py) come out in Spanish under ``i18n.using("es")``, through the catalog in the
pseudo-language, and unchanged in English."""

from __future__ import annotations

from types import SimpleNamespace

from bot.discord_front import guard, publish, views, votes
from bot.words import i18n
from bot.words.i18n import _
from bot.discord_front.tables.moves import STALE_CLICK, out_of_turn_notice
from tests.i18n.pseudo import english_words


def _waiting_table(current: set[int]) -> SimpleNamespace:
    """Just what out_of_turn_notice reads: whose turn it is, and nothing legal for others."""
    state = SimpleNamespace(current_players=lambda: current, legal_actions=lambda user: [])
    return SimpleNamespace(state=state)


def _finished(placements: list[list[int]]) -> SimpleNamespace:
    return SimpleNamespace(placements=lambda: placements, observation=lambda viewer: {})


def _labels(items) -> list[str]:
    return [child.item.label for child in items]  # DynamicItems wrap their button


def test_refusals_in_spanish() -> None:
    with i18n.using("es"):
        assert _(STALE_CLICK).startswith("⚠️ Ese botón era de un momento anterior de la partida")
        assert out_of_turn_notice(_waiting_table({7}), 3) == (
            "⚠️ Es el turno de <@7>, no el tuyo, así que no se jugó nada. Se te avisará cuando te toque.")
        assert votes.refusal({}, "v1", 3, "yes") == "Esa votación se cerró, así que tu clic no cambió nada."
        assert views.amount_refusal("tres") == "«tres» no es un número entero de fichas; escribe solo cifras, p. ej. 3."
        other_server = SimpleNamespace(guild_id=5, data={})
        assert guard.scope_refusal(other_server, 6) == "Ese control es de una partida de otro servidor, así que no pasó nada."


def test_board_lines_in_spanish() -> None:
    with i18n.using("es"):
        assert publish.turn_line([1, 2]) == "👉 <@1> y <@2>: os toca elegir (cada uno elige)."
        assert publish.turn_line([1]) == "👉 <@1>: te toca."
        assert publish.final_text("Blackjack", _finished([[1], [2], [3]])) == (
            "🥇 ¡<@1> ganó la partida de Blackjack! Clasificación: 1.º <@1>; 2.º <@2>; 3.º <@3>.")
        assert publish.final_text("Blackjack", _finished([[1, 2]])) == "🤝 La partida de Blackjack terminó en empate entre <@1> y <@2>."


def test_lobby_buttons_in_spanish() -> None:
    with i18n.using("es"):
        assert _labels(views.lobby_view(1, 2, computers=True).children) == [
            "Unirse", "Salir", "Empezar", "Cancelar", "Añadir bot (fácil)", "Añadir bot (difícil)", "Quitar bot"]
        assert _labels(views.rematch_buttons(1, 2, label="Next round")) == ["Siguiente ronda"]
        assert _labels(views.table_buttons(1, 2)) == ["Ver mano"]


def test_english_is_unchanged() -> None:
    assert out_of_turn_notice(_waiting_table({7}), 3) == (
        "⚠️ It is <@7>'s turn, not yours, so nothing was played. You will be told when it is your move.")
    assert publish.turn_line([1, 2, 3]) == "👉 <@1>, <@2> and <@3>: your picks (each of you chooses)."
    assert publish.final_text("Blackjack", _finished([[1], [2]])) == "🥇 <@1> won the Blackjack game! Standings: 1st <@1>; 2nd <@2>."
    assert _labels(views.lobby_view(1, 2).children) == ["Join", "Leave", "Start", "Cancel"]


def test_nothing_bypasses_the_catalog_in_the_pseudo_language() -> None:
    with i18n.using(i18n.PSEUDO):
        texts = [
            _(STALE_CLICK),
            out_of_turn_notice(_waiting_table({7}), 3),
            out_of_turn_notice(_waiting_table({7, 8}), 3),
            publish.turn_line([1, 2, 3]),
            publish.final_text("Blackjack", _finished([[1], [2]])),
            votes.refusal({}, "v1", 3, "yes"),
            views.amount_refusal("x"),
            *_labels(views.lobby_view(1, 2, computers=True).children),
            *_labels(views.table_buttons(1, 2)),
        ]
    for text in texts:
        assert text and i18n.PSEUDO_OPEN in text
        assert english_words(text, allowed=["Blackjack"]) == [], text
