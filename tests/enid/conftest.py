"""Enid's SimCord tests run as an application allowed Message Content: SimCord's
application info has no flags, so the flag the Developer Portal sets for a bot under
100 servers is given here (``bot.discord_front.tables.reads_chat`` reads it). Tests of a bot without
it clear the flag again. ``deals`` stacks the deals of the e2e tests."""

from __future__ import annotations

import discord
import pytest

from cogs.enid.rules import EnidGame

ALLOWED = discord.ApplicationFlags(gateway_message_content_limited=True)


@pytest.fixture(autouse=True)
def message_content_allowed(monkeypatch):
    monkeypatch.setattr(discord.AppInfo, "flags", property(lambda self: ALLOWED))
    return ALLOWED


DECK = ["5d", "4c", "3d", "5h", "4h", "3h", "2d", "2h"]  # bottom..top


@pytest.fixture
def deals(monkeypatch):
    """Queue stacked deals (hands in seat order); each Start takes the next one."""
    queue: list[dict] = []
    real_new = EnidGame.new.__func__

    def new(cls, players, options=None, *, seed=None, deal=None):
        hands, discard = queue.pop(0)
        stacked = {"hands": dict(zip(players, hands, strict=True)), "discard": discard, "deck": list(DECK), "first": players[0]}
        return real_new(cls, players, options, deal=stacked)

    monkeypatch.setattr(EnidGame, "new", classmethod(new))
    return queue
