"""Checks every game's render tests share: a board's or a hand's text (a render module's
panel, or an embed the bot sent), and Discord's limits."""

from __future__ import annotations

import re

import discord

from bot.words.panel import Panel


def footer_of(embed: Panel | discord.Embed) -> str:
    """The footer's text: a panel's own, an embed's from its footer proxy."""
    return (embed.footer if isinstance(embed, Panel) else embed.footer.text) or ""


def embed_text(embed: Panel | discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", footer_of(embed)]
    for field in embed.fields:
        parts += [field.name or "", field.value or ""]
    return "\n".join(parts)


def assert_within_limits(embed: Panel) -> None:
    assert len(embed.title or "") <= 256 and len(footer_of(embed)) <= 2048
    assert len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    for field in embed.fields:
        assert 0 < len(field.name) <= 256 and 0 < len(field.value) <= 1024
    assert len(embed) <= 6000


def assert_sentence(text: str) -> None:
    """Reads as a sentence: a capital first, a full stop last, no option key in quotes."""
    assert text and text[0].isupper() and text.endswith("."), text
    assert "'" not in text.replace("'s ", "") and "=" not in text and "_" not in text, text


def assert_house_rules_read_well(rules) -> None:
    """Every house rule and every one of its choices is described in a sentence."""
    for rule in rules:
        assert_sentence(rule.description)
        assert len(rule.choice_descriptions) == len(rule.choices), rule.key
        for choice in rule.choices:
            assert_sentence(rule.describe(choice))
        assert len(set(rule.choice_descriptions)) == len(rule.choices), rule.key


#: Characters a line of a 960 px message area holds, about (issue 35's measure); a subtext
#: line ("-# ", Discord's small print) holds more.
LINE_CHARACTERS, SUBTEXT_CHARACTERS = 85, 110
_MARKUP = re.compile(r"\*\*|__|~~|`")
_MENTION = re.compile(r"<@!?(\d+)>")


def board_lines(embed: Panel, content: str | None = None) -> int:
    """The text lines of a board as a Components V2 message shows them above its picture
    (bot/discord_front/layout.py's blocks: content, description, fields' names and values, the game's
    footer), the title not counted, plus the platform's footer line ("Game #1 · move 9").
    Markdown's marks take no room; a raw mention counts as "@" and a short name (names are
    best given as Discord renders them, "@ann")."""
    from bot.discord_front.layout import embed_blocks

    lines = [line for line in "\n".join(embed_blocks(embed, content)).split("\n") if line and not line.startswith("### ")]
    count = 1
    for line in lines:
        width = SUBTEXT_CHARACTERS if line.startswith("-# ") else LINE_CHARACTERS
        shown = _MENTION.sub("@name", _MARKUP.sub("", line.removeprefix("-# ")))
        count += max(1, -(-len(shown) // width))
    return count
