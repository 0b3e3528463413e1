"""Checks every game's render tests share: an embed's text, and Discord's limits."""

from __future__ import annotations

import discord


def embed_text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for field in embed.fields:
        parts += [field.name or "", field.value or ""]
    return "\n".join(parts)


def assert_within_limits(embed: discord.Embed) -> None:
    assert len(embed.title or "") <= 256 and len(embed.footer.text or "") <= 2048
    assert len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    for field in embed.fields:
        assert 0 < len(field.name) <= 256 and 0 < len(field.value) <= 1024
    assert len(embed) <= 6000
