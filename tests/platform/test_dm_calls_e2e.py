"""DM hands spend no call they do not need (issue 20): the DM channel is kept (with the
table, and per player in the server's storage), so a DM turn is the DM itself and the
previous DM's cut, never a user lookup, and a restart does not open the channel again.
Closed DMs (403) and a kept channel Discord no longer knows (404) still work."""

from __future__ import annotations

import pytest

from storage import repos
from tests.conftest import restart
from tests.e2e.ui import board, game_place, head
from tests.platform.test_table_e2e import TOY, mover_of, play_code, start, world


pytestmark = pytest.mark.extensions(*TOY)


def dms(member):
    channel = member.user.dm_channel
    return [m for m in channel.history() if m.author.bot] if channel is not None else []


def calls(env, since, method, pattern):
    import fnmatch

    return [r for r in env.http_requests[since:] if r.method == method and fnmatch.fnmatch(r.path, pattern)]


async def play_to(env, channel, members, dm_player, *, turns):
    """Play until the DM player has been told their turn ``turns`` times (each a new DM);
    everyone plays from a hand they open (the DM player: their latest DM)."""
    seen = 0
    while env.bot.tables.tables() and seen < turns:
        mover, table = mover_of(env, members)
        if mover is dm_player:
            seen += 1
            await mover.user.select(dms(mover)[-1], [play_code(table, mover)])
        else:
            hand = await mover.click(board(channel), label="Show hand")
            await mover.select(hand.response.message, [play_code(table, mover)])
    return seen


async def test_dm_turns_cost_no_user_lookup_and_a_restart_does_not_reopen_the_channel(simcord_env, data_dir):
    env = simcord_env
    guild, channel, members = world(env, 2)
    dm_player = members[1]
    await dm_player.slash(channel, "settings hands", where="dm")
    since = len(env.http_requests)
    await start(channel, members)
    assert await play_to(env, channel, members, dm_player, turns=1) == 1
    assert calls(env, since, "GET", "/users/*") == []
    assert len(calls(env, since, "POST", "/users/@me/channels")) == 1  # opened once, then kept
    async with env.bot.storage.reading(guild.id) as db:
        assert await repos.get_dm_channel(db, dm_player.id) == dm_player.user.dm_channel.id
    await restart(env, data_dir, TOY)
    since = len(env.http_requests)
    mover, table = mover_of(env, members)
    if mover is not dm_player:
        hand = await mover.click(board(channel), label="Show hand")
        await mover.select(hand.response.message, [play_code(table, mover)])
    mover, table = mover_of(env, members)
    assert mover is dm_player and "Your move" in head(dms(dm_player)[-1])
    assert calls(env, since, "GET", "/users/*") == [] and calls(env, since, "POST", "/users/@me/channels") == []
    assert calls(env, since, "POST", f"/channels/{dm_player.user.dm_channel.id}/messages")


async def test_a_new_table_sends_the_first_dm_to_the_kept_channel(simcord_env, data_dir):
    """The channel is kept per player in the server's storage, not only with the table:
    the next table (after a restart too) opens nothing."""
    env = simcord_env
    guild, channel, members = world(env, 2)
    dm_player = members[1]
    await dm_player.slash(channel, "settings hands", where="dm")
    await start(channel, members)
    await play_to(env, channel, members, dm_player, turns=1)
    await members[0].slash(game_place(channel), "cancel")
    await restart(env, data_dir, TOY)
    since = len(env.http_requests)
    other = guild.create_text_channel("more-cards")
    await start(other, members)
    await play_to(env, other, members, dm_player, turns=1)
    assert calls(env, since, "POST", "/users/@me/channels") == [] and calls(env, since, "GET", "/users/*") == []
    assert calls(env, since, "POST", f"/channels/{dm_player.user.dm_channel.id}/messages")


async def test_dms_closed_at_the_send_fall_back_to_ephemeral_hands(simcord_env):
    """Real Discord opens a DM channel even when the user's DMs are closed and refuses
    the message itself (403, 50007): hands fall back to ephemeral, said once, as when
    opening the channel is refused."""
    import discord

    env = simcord_env
    guild, channel, members = world(env, 2)
    for m in members:
        await m.slash(channel, "settings hands", where="dm")
        opened = await env.bot.create_dm(discord.Object(m.id))
        env.inject_error("POST", f"/channels/{opened.id}/messages", status=403, code=50007, message="Cannot send messages to this user", times=None)
    await start(channel, members)
    mover, table = mover_of(env, members)
    thread = game_place(channel)
    first = await mover.click(thread.last_message, label="Show hand")
    assert first.ephemeral and "could not DM you" in head(first.response)
    second = await mover.click(thread.last_message, label="Show hand")
    assert second.ephemeral and "could not DM you" not in head(second.response) and "Your move" in head(second.response)
    assert dms(mover) == []


async def test_a_kept_channel_discord_no_longer_knows_is_opened_again(simcord_env, data_dir):
    env = simcord_env
    guild, channel, members = world(env, 2)
    dm_player = members[1]
    await dm_player.slash(channel, "settings hands", where="dm")
    async with env.bot.storage.transaction(guild.id) as db:
        await repos.set_dm_channel(db, dm_player.id, 424242424242424242)  # no such channel
    since = len(env.http_requests)
    await start(channel, members)
    assert await play_to(env, channel, members, dm_player, turns=1) == 1
    assert len(calls(env, since, "POST", "/users/@me/channels")) == 1
    async with env.bot.storage.reading(guild.id) as db:
        assert await repos.get_dm_channel(db, dm_player.id) == dm_player.user.dm_channel.id
