"""Items 6, 7 and 8 through Discord: a guild file that is not a database, a
read-only data directory, a database locked by another process, a move slow
enough to need deferring. Each is answered with a sentence; other servers carry on."""

from __future__ import annotations

import asyncio
import logging
import sqlite3

import pytest

import storage.db
from bot.discord_front.tables.moves import Clicks
from storage.db import StorageError
from storage.maintenance import quarantine
from tests.e2e.ui import game_place, head
from tests.e2e.world import TOY, world
from tests.hardening.forge import text_of

pytestmark = pytest.mark.extensions(*TOY)


def acknowledge_storage_errors(env):
    """Commands that hit a broken file still raise into discord.py's tree (so the
    failure is logged); SimCord records those. Each must be a StorageError."""
    for error in env.errors:
        assert isinstance(getattr(error, "original", error), StorageError), error


async def start_toy(env, guild, channel, members):
    lobby = (await members[0].slash(channel, "toy new")).response.message
    await members[1].click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    place = game_place(channel)  # the game's thread
    table = env.bot.tables.active_in_channel(guild.id, place.id)
    (pid,) = table.state.current_players()
    return table, next(m for m in members if m.id == pid), place


async def test_a_guild_file_that_is_not_a_database_gets_a_plain_sentence(simcord_env, data_dir, caplog):
    env = simcord_env
    broken, fine = env.create_guild(), env.create_guild()
    bc, fc = broken.create_text_channel("cards"), fine.create_text_channel("cards")
    member = broken.add_member(env.create_user("m"))
    other = fine.add_member(env.create_user("o"))
    path = data_dir / "guilds" / f"{broken.id}.sqlite3"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"this is not a database, just text " * 200)
    caplog.set_level(logging.ERROR)
    for name in ("toy new", "settings show", "stats", "hand", "settings hands"):
        options = {"where": "dm"} if name == "settings hands" else {}
        result = await member.slash(bc, name, **options)
        text = text_of(result)
        assert "saved data cannot be read" in text and "backup" in text, (name, text)
    acknowledge_storage_errors(env)
    assert str(path) in caplog.text  # the owner can find the file from the log
    assert caplog.text.count(str(path)) == 1  # logged once, not once per command
    # Other servers carry on.
    opened = await other.slash(fc, "toy new")
    assert not opened.ephemeral and env.bot.tables.active_in_channel(fine.id, fc.id) is not None
    # The owner's choice: quarantine the file; the server then starts afresh.
    moved = quarantine(data_dir, broken.id)
    assert moved.exists() and not path.exists()
    fresh = await member.slash(bc, "toy new")
    assert not fresh.ephemeral and env.bot.tables.active_in_channel(broken.id, bc.id) is not None


async def test_a_read_only_data_directory_refuses_with_a_sentence(simcord_env, data_dir, monkeypatch):
    env = simcord_env
    guild, empty = env.create_guild(), env.create_guild()
    channel, empty_channel = guild.create_text_channel("cards"), empty.create_text_channel("cards")
    admin_role = guild.create_role("Admins", permissions=__import__("discord").Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[admin_role])
    member = empty.add_member(env.create_user("m"))
    await admin.slash(channel, "settings timer", seconds=30)  # the file exists
    lobby_channel = guild.create_text_channel("lobby")
    lobby = (await admin.slash(lobby_channel, "toy new")).response.message
    joiner = guild.add_member(env.create_user("joiner"))
    await env.bot.storage.close()
    # Stand in for a read-only disk (the tests run as root, so chmod would not do):
    # SQLite opens every file read-only, and the guild folder cannot be created.
    monkeypatch.setattr(storage.db, "_connect_target", lambda path: f"file:{path}?mode=ro")
    for name, options in (("toy new", {}), ("settings timer", {"seconds": 45}), ("settings hands", {"where": "dm"})):
        result = await admin.slash(channel, name, **options)
        assert "read-only" in text_of(result), (name, text_of(result))
    refused = await member.slash(empty_channel, "toy new")  # a server with no file yet
    assert "read-only" in text_of(refused) or "cannot" in text_of(refused)
    acknowledge_storage_errors(env)
    # A button whose save fails is answered too (components have no error handler of
    # their own in discord.py), and the lobby is unchanged.
    join = await joiner.click(lobby, label="Join")
    assert "read-only" in text_of(join) and join.ephemeral
    (table,) = env.bot.tables.tables()
    assert table.record.players == [admin.id]
    # What can be played still works: reading settings.
    shown = await admin.slash(channel, "settings show")
    assert "30 s" in text_of(shown)


async def test_a_locked_database_refuses_the_move_and_keeps_the_game(simcord_env, data_dir):
    env = simcord_env
    guild, channel, members = world(env, 2)
    table, mover, place = await start_toy(env, guild, channel, members)
    hand = await mover.slash(place, "hand")
    code = table.state.legal_actions(mover.id)[0].code()
    other_process = sqlite3.connect(data_dir / "guilds" / f"{guild.id}.sqlite3", isolation_level=None)
    other_process.execute("BEGIN IMMEDIATE")  # holds the write lock, as another process could
    try:
        refused = await mover.select(hand.response.message, [code])
        assert "could not save that move" in text_of(refused)
        assert table.record.version == 0 and table.status == "playing"
    finally:
        other_process.execute("ROLLBACK")
        other_process.close()
    hand = await mover.slash(place, "hand")
    played = await mover.select(hand.response.message, [code])
    assert table.record.version == 1 and "Waiting for" in text_of(played)


async def test_a_slow_move_is_deferred_then_answered(simcord_env, monkeypatch):
    env = simcord_env
    guild, channel, members = world(env, 2)
    table, mover, place = await start_toy(env, guild, channel, members)
    hand = await mover.slash(place, "hand")
    code = table.state.legal_actions(mover.id)[0].code()
    original = Clicks._apply

    async def slow_apply(self, *args, **kwargs):
        await asyncio.sleep(2.5)  # a disk that takes its time
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(Clicks, "_apply", slow_apply)
    # SimCord's clock runs the pending timers: the watchdog's at 2 s, the save at 2.5 s.
    result = await mover.select(hand.response.message, [code])
    assert result.deferred  # acknowledged before Discord's 3 s ran out, not answered late
    assert table.record.version == 1
    assert "Waiting for" in head(result.response)  # then the hand was updated in place
