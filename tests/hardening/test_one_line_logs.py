"""Issue 27 item 7: expected failures are one log line with the cause and what to do;
their traceback goes out at DEBUG only (an owner reading the log at INFO sees no crash
where there is none)."""

from __future__ import annotations

import logging
import sqlite3

import pytest

from storage.db import GuildDataReadOnly, log_failure
from tests.conftest import restart
from tests.e2e.ui import game_place
from tests.e2e.world import TOY, world
from tests.hardening.forge import text_of
from tests.hardening.test_files import start_toy

pytestmark = pytest.mark.extensions(*TOY)


def tracebacks(caplog, level=logging.INFO):
    return [r for r in caplog.records if r.levelno >= level and r.exc_info]


def lines_with(caplog, words):
    return [r for r in caplog.records if words in r.getMessage() and r.levelno >= logging.INFO]


def test_log_failure_is_one_line_with_the_remedy_and_the_traceback_at_debug(caplog):
    logger = logging.getLogger("deckhand.test")
    caplog.set_level(logging.DEBUG, logger="deckhand.test")
    error = GuildDataReadOnly("/data/guilds/1.sqlite3: attempt to write a readonly database")
    log_failure(logger, error, "Could not save a move at table %s (%s).", 7, error)
    first, second = caplog.records
    assert first.levelno == logging.WARNING and first.exc_info is None
    assert first.getMessage() == (
        "Could not save a move at table 7 (/data/guilds/1.sqlite3: attempt to write a readonly database). "
        f"{GuildDataReadOnly.remedy}"
    )
    assert second.levelno == logging.DEBUG and second.exc_info[1] is error


async def test_a_move_that_cannot_be_saved_is_one_line(simcord_env, data_dir, caplog):
    env = simcord_env
    guild, channel, members = world(env, 2)
    table, mover, place = await start_toy(env, guild, channel, members)
    hand = await mover.slash(place, "hand")
    code = table.state.legal_actions(mover.id)[0].code()
    other_process = sqlite3.connect(data_dir / "guilds" / f"{guild.id}.sqlite3", isolation_level=None)
    other_process.execute("BEGIN IMMEDIATE")  # a locked file, as another process could hold it
    caplog.set_level(logging.INFO)
    try:
        refused = await mover.select(hand.response.message, [code])
    finally:
        other_process.execute("ROLLBACK")
        other_process.close()
    assert "could not save that move" in text_of(refused)
    assert tracebacks(caplog) == []  # before: log.exception's full traceback
    (line,) = lines_with(caplog, "Could not save a move")
    assert "database is locked" in line.getMessage() and "online .backup" in line.getMessage()


async def test_an_unreadable_file_at_restore_is_one_line_each(simcord_env, data_dir, caplog):
    env = simcord_env
    guild, channel, members = world(env, 2)
    await start_toy(env, guild, channel, members)
    await env.bot.tables.close()
    await env.bot.storage.close()
    path = data_dir / "guilds" / f"{guild.id}.sqlite3"
    for companion in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        companion.unlink(missing_ok=True)
    path.write_bytes(b"not a database any more " * 200)
    caplog.set_level(logging.INFO)
    bot = await restart(env, data_dir, TOY)
    await bot.restore_task
    assert tracebacks(caplog) == []  # before: "Could not read the database of guild" with a traceback
    (closed,) = lines_with(caplog, "its unfinished tables stay closed")
    assert "quarantine" in closed.getMessage() and closed.exc_info is None
    assert caplog.text.count(str(path)) == 1  # the pool names the file once


async def test_a_snapshot_replayed_from_its_log_is_one_line_and_its_traceback_is_at_debug(simcord_env, data_dir, caplog):
    env = simcord_env
    guild, channel, members = world(env, 2)
    table, mover, place = await start_toy(env, guild, channel, members)
    hand = await mover.slash(place, "hand")
    await mover.select(hand.response.message, [table.state.legal_actions(mover.id)[0].code()])
    good = table.state.to_json()
    await env.bot.tables.close()
    with sqlite3.connect(data_dir / "guilds" / f"{guild.id}.sqlite3") as con:
        con.execute("UPDATE game_tables SET state = '{broken'")
    caplog.set_level(logging.DEBUG, logger="bot.tables")
    bot = await restart(env, data_dir, TOY)
    await bot.restore_task
    (restored,) = bot.tables.tables()
    assert restored.state.to_json() == good
    assert tracebacks(caplog) == []
    (line,) = lines_with(caplog, "Snapshot of table")
    assert "JSONDecodeError" in line.getMessage() and "replaying its action log instead" in line.getMessage()
    assert [r for r in caplog.records if r.levelno == logging.DEBUG and r.exc_info]  # still there for whoever asks
    assert game_place(channel) is not None
