"""Item 1: a component acts only on tables of the server it comes from; in DMs only
hand controls, for the clicking player's own seat. Forged custom_ids included."""

from __future__ import annotations

import discord
import pytest

from tests.e2e.world import TOY
from tests.hardening.forge import forge_component, text_of

pytestmark = pytest.mark.extensions(*TOY)


def two_servers(env):
    a, b = env.create_guild(), env.create_guild()
    ca, cb = a.create_text_channel("cards"), b.create_text_channel("cards")
    env.host_user = env.create_user("host")
    host = a.add_member(env.host_user)
    mate = a.add_member(env.create_user("mate"))
    admins = b.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    intruder = b.add_member(env.create_user("intruder"), roles=[admins])
    return a, b, ca, cb, host, mate, intruder


async def test_forged_lobby_controls_from_another_server_change_nothing(simcord_env, data_dir):
    env = simcord_env
    a, b, ca, cb, host, mate, intruder = two_servers(env)
    lobby = (await host.slash(ca, "toy new")).response.message
    (table,) = env.bot.tables.tables()
    # The intruder needs some message in their own server to press a forged control on.
    own = await intruder.send(cb, "hello")
    for verb in ("join", "cancel", "start", "leave"):
        result = await forge_component(intruder, own, f"dh:lobby:{a.id}:{table.id}:{verb}")
        assert "another server" in text_of(result)
        assert result.ephemeral
    assert table.record.players == [host.id] and table.status == "lobby"
    # Nothing was created for server A's id in B, or for an unknown guild id.
    await forge_component(intruder, own, f"dh:lobby:{123456789}:{1}:join")
    assert not (data_dir / "guilds" / "123456789.sqlite3").exists()
    # The real lobby still works for A's members.
    await mate.click(lobby, label="Join")
    assert table.record.players == [host.id, mate.id]


async def test_forged_moves_and_hands_from_another_server_are_refused(simcord_env):
    env = simcord_env
    a, b, ca, cb, host, mate, intruder = two_servers(env)
    lobby = (await host.slash(ca, "toy new")).response.message
    await mate.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    own = await intruder.send(cb, "hello")
    code = table.state.legal_actions(next(iter(table.state.current_players())))[0].code()
    for custom_id in (f"dh:hand:{a.id}:{table.id}", f"dh:act:{a.id}:{table.id}:0:{code}", f"dh:page:{a.id}:{table.id}:0:0"):
        result = await forge_component(intruder, own, custom_id)
        assert "another server" in text_of(result)
    result = await forge_component(intruder, own, f"dh:sel:{a.id}:{table.id}:0:0", values=[code])
    assert "another server" in text_of(result)
    assert table.record.version == 0


async def test_in_dms_only_hand_controls_for_your_own_seat(simcord_env):
    env = simcord_env
    a, b, ca, cb, host, mate, intruder = two_servers(env)
    lobby = (await host.slash(ca, "toy new")).response.message
    await mate.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    stranger = env.create_user("stranger")
    dm = await stranger.send_dm("hi")
    refused = await forge_component(stranger, dm, f"dh:lobby:{a.id}:{table.id}:cancel")
    assert "only in the server" in text_of(refused)
    refused = await forge_component(stranger, dm, f"dh:hand:{a.id}:{table.id}")
    assert "another player's seat" in text_of(refused)
    assert table.status == "playing"
    # A seated player's own hand button works from DMs; lobby controls do not.
    own_dm = await env.host_user.send_dm("hi")
    shown = await forge_component(env.host_user, own_dm, f"dh:hand:{a.id}:{table.id}")
    assert "Your move" in text_of(shown) or "Waiting for" in text_of(shown)
    refused = await forge_component(env.host_user, own_dm, f"dh:lobby:{a.id}:{table.id}:cancel")
    assert "only in the server" in text_of(refused)
    assert table.status == "playing"
