"""Enid's SimCord tests run as an application allowed Message Content: SimCord's
application info has no flags, so the flag the Developer Portal sets for a bot under
100 servers is given here (``bot.tables.reads_chat`` reads it). Tests of a bot without
it clear the flag again."""

from __future__ import annotations

import discord
import pytest

ALLOWED = discord.ApplicationFlags(gateway_message_content_limited=True)


@pytest.fixture(autouse=True)
def message_content_allowed(monkeypatch):
    monkeypatch.setattr(discord.AppInfo, "flags", property(lambda self: ALLOWED))
    return ALLOWED
