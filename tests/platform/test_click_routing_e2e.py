"""Clicks reach their DynamicItem without discord.py rebuilding the clicked message's
whole view (bot/views.py route_clicks): the item comes from the message's own
components, and the guard, the callback and every answer are as before."""

from __future__ import annotations

import discord
import pytest

from tests.e2e.ui import board
from tests.hardening.forge import forge_component
from tests.platform.test_table_e2e import TOY, mover_of, now, play_code, start, world

pytestmark = pytest.mark.extensions(*TOY)


@pytest.fixture
def no_view_rebuilt(monkeypatch):
    def refuse(cls, message, /, *, timeout=180.0):
        raise AssertionError("a click rebuilt the clicked message's view")

    for cls in (discord.ui.View, discord.ui.LayoutView):
        monkeypatch.setattr(cls, "from_message", classmethod(refuse))


@pytest.mark.parametrize("layout", ["v2", "classic"])
async def test_a_whole_game_is_clicked_through_without_rebuilding_a_view(simcord_env, no_view_rebuilt, layout):
    env = simcord_env
    guild, channel, members = world(env, 2)
    if layout == "classic":
        admin = guild.add_member(env.create_user("admin"), roles=[guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))])
        await admin.slash(channel, "settings layout", style="classic")
    await start(channel, members)
    moves = 0
    while env.bot.tables.tables():
        mover, table = mover_of(env, members)
        hand = (await mover.click(board(channel), label="Show hand")).response.message
        version = table.record.version
        await mover.select(now(env, hand), [play_code(table, mover)])
        assert table.record.version == version + 1
        moves += 1
    assert moves > 2 and "won the Toy game" in str([c.to_dict() for c in now(env, board(channel)).components]) + (now(env, board(channel)).content or "")


@pytest.mark.parametrize("shape,values", [("dh:act:{g}:{t}:0:play:2C", None), ("dh:sel:{g}:{t}:0:0", ["play:2C"])])
async def test_a_click_from_another_server_is_refused_as_before(simcord_env, no_view_rebuilt, shape, values):
    env = simcord_env
    guild, channel, members = world(env, 2)
    await start(channel, members)
    (table,) = env.bot.tables.tables()
    other = env.create_guild()
    stranger = other.add_member(env.create_user("stranger"))
    own = await stranger.send(other.create_text_channel("elsewhere"), "hello")
    result = await forge_component(stranger, own, shape.format(g=guild.id, t=table.id), values=values)
    assert result.ephemeral and "another server" in (result.response.content or "")
    assert table.record.version == 0
