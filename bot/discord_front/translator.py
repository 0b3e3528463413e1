"""Slash commands in each player's client language: discord.py's ``Translator`` over
Deckhand's catalogs (``bot/words/i18n.py``).

Discord shows a command's localisations to each user in their client's language. What is
translated here: command and group descriptions, option descriptions and the names of
fixed choices. Command and option *names* stay English on purpose: every board, hint and
help page names commands (``/hand``, ``/say``), and a board is read by people whose
clients speak different languages; one name that works for all of them is worth more
than a translated one. (The hook is here: a catalog entry with the context
``"command name"`` would be used, checked against Discord's name rule first.)

Whatever Discord would refuse (a name that is not 1-32 lowercase letters, digits, ``-``
or ``_``; a description or choice name outside 1-100 characters) falls back to English,
so a translation can never stop the command sync.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands

from bot.words import i18n

#: Discord's rule for command and option names (its API description's pattern).
NAME_PATTERN = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
TEXT_LIMIT = 100

_NAMES = {
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
}
_TEXTS = {
    app_commands.TranslationContextLocation.command_description,
    app_commands.TranslationContextLocation.group_description,
    app_commands.TranslationContextLocation.parameter_description,
    app_commands.TranslationContextLocation.choice_name,
}


def with_numbers(template: str, /, **fields: object) -> app_commands.locale_str:
    """A command text with numbers in it (``"{low} to {high}"``): English now, and the
    translator looks the template up and fills the same numbers in."""
    return app_commands.locale_str(template.format(**fields), template=template, fields=fields)


class CatalogTranslator(app_commands.Translator):
    """Looks a command's English texts up in the catalog of the user's language."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale, context: app_commands.TranslationContext
    ) -> str | None:
        template = string.extras.get("template")
        if template is not None:
            return translate(template, locale.value, context.location, string.extras.get("fields") or {})
        return translate(string.message, locale.value, context.location)


def translate(message: str, locale: str, location: app_commands.TranslationContextLocation,
              fields: dict[str, object] | None = None) -> str | None:
    """The translation of one command text, or None (Discord then shows the English)."""
    lang = i18n.supported(locale)
    if lang is None or lang == i18n.ENGLISH:
        return None
    with i18n.using(lang):
        if location in _NAMES:
            text = i18n.pgettext("command name", message)
            ok = bool(NAME_PATTERN.fullmatch(text)) and text == text.lower()
        elif location in _TEXTS:
            text = i18n._(message, **(fields or {}))
            ok = 1 <= len(text) <= TEXT_LIMIT
        else:
            return None
    if not ok or text == message.format(**(fields or {})):
        return None
    return text
