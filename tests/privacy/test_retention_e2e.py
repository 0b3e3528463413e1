"""The purges that run on their own (issue 25), on SimCord's clock: move logs of finished
games after the server's retention, and a server's whole data some time after the bot
leaves it (cancelled when it is added back)."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from bot.discord_front import privacy_commands
from tests.conftest import make_bot
from tests.privacy.test_privacy_e2e import EXTENSIONS, play_toy_game, rows, world

DAY = 86400


@pytest.fixture
def simcord_bot(data_dir, monkeypatch):
    # Once a day rather than every 6 hours: months of SimCord's clock pass in fewer wake-ups.
    monkeypatch.setattr(privacy_commands, "PURGE_EVERY_SECONDS", DAY)
    return make_bot(data_dir, EXTENSIONS)


def admin_of(env, guild):
    role = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user("admin"), roles=[role])


async def test_move_logs_go_after_the_servers_retention_and_results_stay(simcord_env, data_dir):
    env = simcord_env
    guild, channel, (a, b) = await world(env)
    await play_toy_game(env, channel, [a, b])
    short, short_channel, (c, d) = await world(env)
    refused = await c.slash(short_channel, "settings keep-moves", days=1)
    assert "Only members with Manage Server" in refused.response.content
    set_ = await admin_of(env, short).slash(short_channel, "settings keep-moves", days=1)
    assert "1 day after each game ends" in set_.response.content
    await play_toy_game(env, short_channel, [c, d])
    moves = rows(data_dir, guild.id, "SELECT COUNT(*) FROM actions")[0][0]
    assert moves > 0 and rows(data_dir, short.id, "SELECT COUNT(*) FROM actions")[0][0] > 0

    await env.advance_time(2 * DAY)
    assert rows(data_dir, short.id, "SELECT COUNT(*) FROM actions") == [(0,)]
    assert rows(data_dir, short.id, "SELECT COUNT(*) FROM results") == [(2,)]
    assert rows(data_dir, guild.id, "SELECT COUNT(*) FROM actions") == [(moves,)]  # 90 days by default

    for _ in range(8):  # in steps: each wake-up of the purge must settle in SimCord's time limit
        await env.advance_time(10 * DAY)
    await env.advance_time(7 * DAY)
    assert rows(data_dir, guild.id, "SELECT COUNT(*) FROM actions") == [(moves,)]
    await env.advance_time(2 * DAY)
    assert rows(data_dir, guild.id, "SELECT COUNT(*) FROM actions") == [(0,)]
    assert rows(data_dir, guild.id, "SELECT COUNT(*) FROM results") == [(2,)]


async def test_a_game_in_play_keeps_its_moves(simcord_env, data_dir):
    env = simcord_env
    guild, channel, (a, b) = await world(env)
    lobby = (await a.slash(channel, "toy new")).response.message
    await b.click(lobby, label="Join")
    await a.click(lobby, label="Start")
    async with env.bot.storage.transaction(guild.id) as db:  # a move made long ago
        await db.execute("INSERT INTO actions (table_id, seq, user_id, code, source, at) VALUES (1, 1, ?, 'x', 'player', 0)", (a.id,))
        await db.execute("UPDATE game_tables SET updated_at = 0")
    await env.bot.get_cog("Privacy").purge_moves(400 * DAY + 1e9)
    assert rows(data_dir, guild.id, "SELECT COUNT(*) FROM actions") == [(1,)]


async def test_a_left_servers_data_goes_after_the_grace_period(simcord_env, data_dir):
    env = simcord_env
    guild, channel, (a, b) = await world(env)
    await admin_of(env, guild).slash(channel, "settings leave-grace", days=3)
    await play_toy_game(env, channel, [a, b])
    database = data_dir / "guilds" / f"{guild.id}.sqlite3"
    assert database.exists()

    await env.bot.get_guild(guild.id).leave()
    await env.advance_time(1)
    assert (data_dir / "departed" / str(guild.id)).exists()  # survives a restart: it is a file
    await env.advance_time(2 * DAY)
    assert database.exists()
    await env.advance_time(DAY + 1)
    assert not database.exists() and not (data_dir / "departed" / str(guild.id)).exists()


async def test_coming_back_cancels_the_deletion(simcord_env, data_dir):
    env = simcord_env
    guild, channel, (a, b) = await world(env)
    await play_toy_game(env, channel, [a, b])
    await env.bot.get_guild(guild.id).leave()
    await env.advance_time(1)
    assert (data_dir / "departed" / str(guild.id)).exists()
    # Added back: discord.py's on_guild_join (SimCord cannot re-add a removed guild).
    await env.bot.get_cog("Privacy").on_guild_join(SimpleNamespace(id=guild.id))
    for _ in range(4):
        await env.advance_time(8 * DAY)
    assert (data_dir / "guilds" / f"{guild.id}.sqlite3").exists()
    assert rows(data_dir, guild.id, "SELECT COUNT(*) FROM results") == [(2,)]
