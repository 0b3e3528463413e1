"""Issue 27 items 2 and 3: a moderator deletes, or archives and locks, the thread a
game is played in. A deleted thread moves the game back to its parent channel (a new
board there, saying why), where /hand and /cancel reach it, also after a restart; an
archived or locked thread is reopened if the bot may, else the game is paused (no
timers, no retry storm, one note in the parent) and resumes when it is reopened."""

from __future__ import annotations

import discord
import pytest

from tests.conftest import restart
from tests.e2e.ui import board, head, text
from tests.e2e.world import TOY, world as shared_world

pytestmark = pytest.mark.extensions(*TOY)


def world(env, n=2, overwrites=None):
    return shared_world(env, n, overwrites=overwrites)


async def start(env, channel, members):
    lobby = (await members[0].slash(channel, "toy new")).response.message
    for m in members[1:]:
        await m.click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    (thread,) = channel.threads
    return table, thread


def mover_of(table, members):
    (pid,) = table.state.current_players()
    return next(m for m in members if m.id == pid)


def play_code(table, member):
    return next(a.code() for a in table.state.legal_actions(member.id) if a.kind == "play")


async def play_one(table, members, place):
    mover = mover_of(table, members)
    hand = await mover.slash(place, "hand")
    await mover.select(hand.response.message, [play_code(table, mover)])


def delete_unannounced(env, channel_id):
    """Delete a channel without the bot hearing of it (it was down, or the event was
    lost): it finds out from Discord's 404 Unknown Channel."""
    backend = env.backend
    emit = backend.emit
    backend.emit = lambda name, payload: None if name == "THREAD_DELETE" else emit(name, payload)
    try:
        backend.delete_channel(channel_id)
    finally:
        backend.emit = emit


def thread_posts(env, thread_id, since=0):
    """The bot's REST calls that write into the thread (posts and edits of its messages)."""
    return [r for r in env.http_requests[since:] if r.path.startswith(f"/channels/{thread_id}/messages") and r.method in ("POST", "PATCH")]


# ------------------------------------------------------------------ item 2: deleted


async def test_thread_deleted_mid_game_the_game_goes_on_in_the_parent(simcord_env, data_dir):
    env = simcord_env
    guild, channel, members = world(env)
    table, thread = await start(env, channel, members)
    await play_one(table, members, thread)
    version, state = table.record.version, table.state.to_json()
    env.backend.delete_channel(thread.id)  # a moderator deletes the thread
    await env.settle()
    assert table.record.thread_id is None and table.status == "playing"
    assert table.record.version == version and table.state.to_json() == state  # nothing lost
    moved = board(channel)
    assert "thread" in text(moved) and "deleted" in text(moved)
    # /hand in the parent channel reaches the game, and a move is played from it.
    mover = mover_of(table, members)
    shown = await mover.slash(channel, "hand")
    assert "Your move" in head(shown.response)
    await mover.select(shown.response.message, [play_code(table, mover)])
    assert table.record.version == version + 1
    # The move is kept across a restart, and the host can /cancel from the parent.
    await restart(env, data_dir, TOY)
    (table,) = env.bot.tables.tables()
    assert table.record.thread_id is None and table.record.version == version + 1
    cancelled = await members[0].slash(channel, "cancel")
    assert "cancelled" in head(cancelled.response) and env.bot.tables.tables() == []


async def test_thread_gone_without_an_event_is_found_from_discords_404(simcord_env, data_dir):
    env = simcord_env
    guild, channel, members = world(env)
    table, thread = await start(env, channel, members)
    delete_unannounced(env, thread.id)
    await restart(env, data_dir, TOY)
    (table,) = env.bot.tables.tables()
    # The host's /cancel in the parent no longer points at a thread that does not exist.
    cancelled = await members[0].slash(channel, "cancel")
    assert f"<#{thread.id}>" not in head(cancelled.response)
    assert "cancelled" in head(cancelled.response) and env.bot.tables.tables() == []


async def test_thread_gone_found_by_a_failed_board_edit(simcord_env):
    env = simcord_env
    guild, channel, members = world(env)
    table, thread = await start(env, channel, members)
    delete_unannounced(env, thread.id)
    await env.advance_time(table.record.timer_seconds + 1)  # the turn timer moves and edits the board
    assert table.record.thread_id is None and table.record.version == 1
    assert "deleted" in text(board(channel))
    mover = mover_of(table, members)
    shown = await mover.slash(channel, "hand")
    assert "Your move" in head(shown.response)


async def test_thread_deleted_and_the_parent_refuses_the_board_ends_the_game_keeping_its_state(simcord_env, data_dir):
    env = simcord_env
    guild, channel, members = world(env)
    table, thread = await start(env, channel, members)
    state = table.state.to_json()
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=403, code=50013, message="Missing Permissions", times=None)
    env.backend.delete_channel(thread.id)
    await env.settle()
    assert env.bot.tables.tables() == [] and table.status == "cancelled"
    lobby = channel.history()[0]  # the lobby message in the parent says what happened
    assert "deleted" in text(lobby)
    await restart(env, data_dir, TOY)
    async with env.bot.storage.reading(guild.id) as db:
        from storage import repos

        record = await repos.get_table(db, table.id)
    assert record.state == state  # the state is kept
    assert "another server" not in head((await members[0].slash(channel, "hand")).response)


# ------------------------------------------------------------------ item 3: archived, locked


def lock(env, thread, *, archived=True, locked=True):
    env.backend.edit_channel(thread.id, {}, thread_metadata={"archived": archived, "locked": locked})


async def test_thread_locked_without_manage_threads_pauses_the_game_and_resumes(simcord_env):
    env = simcord_env
    bot_user = env.bot.user
    guild, channel, members = world(env, overwrites={bot_user: discord.PermissionOverwrite(manage_threads=False)})
    table, thread = await start(env, channel, members)
    await play_one(table, members, thread)
    version = table.record.version
    # A moderator archives and locks the thread: Discord refuses the bot's messages there.
    env.inject_error("*", f"/channels/{thread.id}/messages*", status=400, code=50083, message="Thread is archived", times=None)
    since = len(env.http_requests)
    lock(env, thread)
    await env.settle()
    await env.advance_time(10 * table.record.timer_seconds)
    assert len(thread_posts(env, thread.id, since)) <= 1  # no retry storm
    assert table.record.version == version  # paused: no turn timer ran out
    notes = [m for m in channel.history() if m.author.bot and "paused" in (m.content or "")]
    assert len(notes) == 1 and f"<#{thread.id}>" in notes[0].content
    mover = mover_of(table, members)
    refused = await mover.slash(channel, "hand")
    assert "paused" in text(refused.response) or "paused" in head(refused.response)
    # A moderator unlocks it: the board is brought up to date there and the timers run again.
    env.backend.faults.clear()
    since = len(env.http_requests)
    lock(env, thread, archived=False, locked=False)
    await env.settle()
    assert thread_posts(env, thread.id, since)
    assert "paused" not in table.record.publish
    await play_one(table, members, thread)
    assert table.record.version == version + 1
    await env.advance_time(table.record.timer_seconds + 1)
    assert table.record.version == version + 2


async def test_thread_archived_and_locked_is_reopened_when_the_bot_may(simcord_env):
    env = simcord_env
    guild, channel, members = world(env)
    table, thread = await start(env, channel, members)
    lock(env, thread)
    await env.settle()
    meta = env.backend.get_channel(thread.id).thread_metadata
    assert not meta.archived and not meta.locked
    assert "paused" not in table.record.publish
    await play_one(table, members, thread)
    assert table.record.version == 1


async def test_board_refused_as_archived_without_an_event_pauses_once(simcord_env):
    env = simcord_env
    bot_user = env.bot.user
    guild, channel, members = world(env, overwrites={bot_user: discord.PermissionOverwrite(manage_threads=False)})
    table, thread = await start(env, channel, members)
    backend = env.backend
    meta = backend.get_channel(thread.id).thread_metadata
    meta.archived = meta.locked = True  # no THREAD_UPDATE reached the bot
    env.inject_error("*", f"/channels/{thread.id}/messages*", status=400, code=50083, message="Thread is archived", times=None)
    since = len(env.http_requests)
    await env.advance_time(table.record.timer_seconds + 1)  # the timer's move cannot be shown
    await env.advance_time(300)
    assert len(thread_posts(env, thread.id, since)) <= 2
    assert "paused" in table.record.publish and table.record.version == 1
    notes = [m for m in channel.history() if m.author.bot and "paused" in (m.content or "")]
    assert len(notes) == 1


async def test_a_paused_game_resumes_after_a_restart_when_its_thread_was_reopened_meanwhile(simcord_env, data_dir):
    env = simcord_env
    bot_user = env.bot.user
    guild, channel, members = world(env, overwrites={bot_user: discord.PermissionOverwrite(manage_threads=False)})
    table, thread = await start(env, channel, members)
    lock(env, thread)
    await env.settle()
    assert "paused" in table.record.publish
    await restart(env, data_dir, TOY)
    (table,) = env.bot.tables.tables()
    assert "paused" in table.record.publish and table.timer is None  # still paused, no timer
    lock(env, thread, archived=False, locked=False)  # reopened: the new bot hears it
    await env.settle()
    assert "paused" not in table.record.publish and table.timer is not None
    # And a game whose thread was reopened while the bot was away resumes at the start.
    lock(env, thread)
    await env.settle()
    assert "paused" in table.record.publish
    env.backend.get_channel(thread.id).thread_metadata.archived = False
    env.backend.get_channel(thread.id).thread_metadata.locked = False  # no event: the bot is down
    await restart(env, data_dir, TOY)
    await env.settle()
    (table,) = env.bot.tables.tables()
    assert "paused" not in table.record.publish
    await play_one(table, members, thread)
    assert table.record.version == 1


# ------------------------------------------------------------------ item 8: a damaged table's notice


def damage(data_dir, guild_id):
    import sqlite3

    with sqlite3.connect(data_dir / "guilds" / f"{guild_id}.sqlite3") as db:
        db.execute("UPDATE game_tables SET state = 'nope', seed = NULL")


def bot_said(place, words):
    return [m for m in place.history() if m.author.bot and words in (m.content or "")]


async def test_a_table_too_damaged_to_restore_is_announced_in_its_thread(simcord_env, data_dir):
    env = simcord_env
    guild, channel, members = world(env)
    table, thread = await start(env, channel, members)
    await env.bot.tables.close()
    damage(data_dir, guild.id)
    await restart(env, data_dir, TOY)
    assert env.bot.tables.tables() == []
    (notice,) = bot_said(thread, "could not be restored")  # where the players are
    assert f"<#{channel.id}>" in notice.content  # and where a new table can be opened
    assert bot_said(channel, "could not be restored") == []


async def test_a_damaged_tables_notice_goes_to_the_parent_naming_a_thread_that_is_gone(simcord_env, data_dir):
    env = simcord_env
    guild, channel, members = world(env)
    table, thread = await start(env, channel, members)
    await env.bot.tables.close()
    damage(data_dir, guild.id)
    delete_unannounced(env, thread.id)
    await restart(env, data_dir, TOY)
    (notice,) = bot_said(channel, "could not be restored")
    assert f"<#{thread.id}>" in notice.content


async def test_the_host_can_cancel_a_paused_game_from_the_parent(simcord_env):
    env = simcord_env
    bot_user = env.bot.user
    guild, channel, members = world(env, overwrites={bot_user: discord.PermissionOverwrite(manage_threads=False)})
    table, thread = await start(env, channel, members)
    lock(env, thread)
    await env.settle()
    assert "paused" in table.record.publish
    refused = await members[1].slash(channel, "cancel")
    assert "Only the host" in head(refused.response) and table.status == "playing"
    cancelled = await members[0].slash(channel, "cancel")
    assert "cancelled" in head(cancelled.response) and table.status == "cancelled"
