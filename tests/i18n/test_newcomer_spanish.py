"""Spanish slips a newcomer read (issue 37, item 8): a language named in a sentence is
written as Spanish writes it ("en español", "en inglés"), one person per sentence ("solo
robas si no puedes jugar"), "se salta a un jugador", and a rating is a "valoración",
never a score ("puntuación")."""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from bot.words import i18n
from bot.players import ratings
from bot.words.i18n import _
from cogs.blackjack import render as blackjack
from tests.e2e.world import ALL_EXTENSIONS
from tests.i18n.test_languages_e2e import server

CATALOGS = "bot/words/locales/es/LC_MESSAGES"


def test_a_language_is_named_as_the_sentence_says_it():
    with i18n.using("es"):
        assert (i18n.language_name("es"), i18n.language_name("en")) == ("español", "inglés")
    with i18n.using("en"):
        assert (i18n.language_name("es"), i18n.language_name("en")) == ("Spanish", "English")


@pytest.mark.extensions(*ALL_EXTENSIONS)
async def test_settings_language_answers_en_espanol_and_en_ingles(simcord_env, monkeypatch):
    _guild, channel, ana, _bob = server(simcord_env, monkeypatch, "es-ES")
    to_spanish = await ana.slash(channel, "settings language", language="es")
    assert "estarán en español." in to_spanish.response.content, to_spanish.response.content
    to_english = await ana.slash(channel, "settings language", language="en")
    assert "estarán en inglés." in to_english.response.content, to_english.response.content


def test_blackjack_speaks_to_one_person_and_skips_with_se():
    with i18n.using("es"):
        footer = blackjack.footer_hint({"rules": {"voluntary_draw": "no"}})
        assert "Solo robas si no puedes jugar" in footer, footer
        assert _("skips a player") == "se salta a un jugador"
        refusal = _("You can play a card (for example {card}), so you may not draw: at this table you draw only when you cannot play.", card="7♣")
        assert "solo robas cuando no puedes jugar" in refusal, refusal


def test_a_rating_is_a_valoracion_never_a_puntuacion():
    with i18n.using("es"):
        assert ratings.moves_text({7: 12}).startswith("📈 Valoraciones: <@7> +12")
    for area in ("commands", "platform"):
        with open(f"{CATALOGS}/{area}.po", encoding="utf-8") as po:
            catalog = read_po(po)
        for message in catalog:
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if any("rating" in str(i).lower() or "rated" in str(i).lower() for i in ids):
                assert not any("puntua" in str(s).lower() for s in strings), (ids, strings)
