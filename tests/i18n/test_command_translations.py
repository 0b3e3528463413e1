"""Slash commands in the user's client language (bot/discord_front/translator.py): the tree Deckhand
syncs carries Spanish descriptions and choices for es-ES and es-419, every localisation
within Discord's rules, and a translation Discord would refuse falls back to English."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.words import i18n
from bot.discord_front.app import EXTENSIONS
from bot.discord_front.translator import CatalogTranslator, translate
from tests.conftest import make_bot
from tests.discord_conformance import check_commands

Location = app_commands.TranslationContextLocation


async def translated_payload(data_dir) -> list[dict[str, Any]]:
    """What the start-up sync sends with the translator set, built the way
    ``CommandTree.sync`` builds it (``get_translated_payload``), without a bot running."""
    bot = make_bot(data_dir, EXTENSIONS)
    for name in EXTENSIONS:
        await bot.load_extension(name)
    await bot.tree.set_translator(CatalogTranslator())
    translator = bot.tree.translator
    return [await command.get_translated_payload(bot.tree, translator) for command in bot.tree._get_all_commands(guild=None)]


def localised(payloads: list[dict[str, Any]], key: str) -> list[dict[str, str]]:
    found = []

    def walk(node: dict[str, Any]) -> None:
        if node.get(key):
            found.append(node[key])
        for child in node.get("options", []) or []:
            walk(child)
        for choice in node.get("choices", []) or []:
            if choice.get("name_localizations"):
                found.append({**choice["name_localizations"], "_choice": choice["name"]})

    for payload in payloads:
        walk(payload)
    return found


async def test_the_synced_tree_carries_spanish_and_conforms(data_dir):
    payloads = await translated_payload(data_dir)
    problems = check_commands(payloads)
    assert not problems, "\n".join(map(str, problems))
    join = next(p for p in payloads if p["name"] == "join")
    assert join["description"] == "Join the lobby in this channel."
    assert join["description_localizations"] == {"es-ES": "Únete a la sala de este canal.", "es-419": "Únete a la sala de este canal."}
    descriptions = [d for d in localised(payloads, "description_localizations") if "_choice" not in d]
    # Every command, group and option description has its Spanish, in both Spanish locales.
    assert len(descriptions) >= 60
    assert all(set(d) == {"es-ES", "es-419"} for d in descriptions)
    assert all(1 <= len(text) <= 100 for d in descriptions for text in d.values())
    choices = [c for c in localised(payloads, "_none_") if "_choice" in c]
    timer = next(o for o in next(p for p in payloads if p["name"] == "settings")["options"] if o["name"] == "timer")
    assert timer["options"][0]["description_localizations"]["es-ES"].startswith("de 15 a ")
    assert any(c["es-ES"] == "en mis mensajes directos" for c in choices)
    # Names stay English (see bot/discord_front/translator.py): no name localisations are sent.
    assert not [n for n in localised(payloads, "name_localizations") if "_choice" not in n]


def test_no_translation_for_english_or_unknown_locales():
    assert translate("Join the lobby in this channel.", "en-US", Location.command_description) is None
    assert translate("Join the lobby in this channel.", "ja", Location.command_description) is None
    assert translate("Join the lobby in this channel.", "es-ES", Location.command_description) == "Únete a la sala de este canal."


def test_a_translation_discord_would_refuse_falls_back_to_english(monkeypatch):
    monkeypatch.setattr(i18n, "pgettext", lambda context, msgid: "Unirse Ahora")  # capitals and a space
    assert translate("join", "es-ES", Location.command_name) is None
    monkeypatch.setattr(i18n, "_", lambda msgid, **fields: "x" * 101)
    assert translate("Join the lobby in this channel.", "es-ES", Location.command_description) is None
    monkeypatch.setattr(i18n, "pgettext", lambda context, msgid: "unirse")
    assert translate("join", "es-ES", Location.command_name) == "unirse"


def test_the_translator_is_discord_pys(data_dir):
    assert isinstance(CatalogTranslator(), app_commands.Translator)
    assert discord.Locale("es-419").value == "es-419"
