"""Storage under failure and load: a failed COMMIT leaves no open transaction, a
locked or unreadable file raises a StorageError with a sentence, opening one
guild never blocks another, and the index of guilds with unfinished tables."""

from __future__ import annotations

import asyncio
import logging
import sqlite3

import aiosqlite
import pytest

import storage.db as dbmod
from storage import repos
from storage.db import GuildDataBusy, GuildDataUnreadable, Storage, migrations
from storage.maintenance import MaintenanceError, quarantine


async def test_a_failed_commit_is_rolled_back(tmp_path):
    storage = Storage(tmp_path)
    with pytest.raises(sqlite3.IntegrityError):
        async with storage.transaction(1) as db:
            await repos.set_guild_setting(db, "turn_timer", 99)
            # A deferred foreign key fails at COMMIT, which leaves SQLite's transaction open.
            await db.execute("PRAGMA defer_foreign_keys = ON")
            await repos.append_action(db, 12345, 1, 1, "draw", "player", 0.0)
    slot = storage._slots[1]
    assert not slot.connection.in_transaction
    async with storage.transaction(1) as db:  # the connection is usable again
        await repos.set_guild_setting(db, "turn_timer", 30)
    async with storage.reading(1) as db:
        assert await repos.get_guild_setting(db, "turn_timer") == 30
    await storage.close()


async def test_a_locked_file_raises_busy_within_the_bound(tmp_path):
    storage = Storage(tmp_path, busy_timeout_ms=200)
    await storage.probe(3)
    other = sqlite3.connect(storage.path_for(3), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(GuildDataBusy) as raised:
            async with storage.transaction(3) as db:
                await repos.set_guild_setting(db, "x", 1)
        assert "busy" in raised.value.sentence
    finally:
        other.execute("ROLLBACK")
        other.close()
    async with storage.transaction(3) as db:
        await repos.set_guild_setting(db, "x", 2)
    await storage.close()


async def test_an_unreadable_file_is_reported_once_and_others_carry_on(tmp_path, caplog):
    storage = Storage(tmp_path)
    storage.guild_dir.mkdir(parents=True)
    storage.path_for(8).write_bytes(b"garbage" * 1000)
    for _ in range(3):
        with pytest.raises(GuildDataUnreadable):
            await storage.probe(8)
    assert caplog.text.count(str(storage.path_for(8))) == 1
    async with storage.transaction(9) as db:
        await repos.set_guild_setting(db, "x", 1)
    moved = quarantine(tmp_path, 8)
    assert moved.parent.name == "quarantine" and moved.read_bytes().startswith(b"garbage")
    await storage.probe(8)  # starts afresh
    with pytest.raises(MaintenanceError):
        quarantine(tmp_path, 777)
    await storage.close()


async def test_opening_one_guild_does_not_block_another(tmp_path, monkeypatch):
    storage = Storage(tmp_path)
    stall = asyncio.Event()
    real_connect = aiosqlite.connect

    def connect(target, **kwargs):
        if str(target).endswith("/1.sqlite3"):
            async def slow():
                await stall.wait()
                return await real_connect(target, **kwargs)
            return slow()
        return real_connect(target, **kwargs)

    monkeypatch.setattr(dbmod.aiosqlite, "connect", connect)
    stalled = asyncio.create_task(storage.probe(1))
    await asyncio.sleep(0)
    async with storage.transaction(2) as db:  # completes while guild 1 is still opening
        await repos.set_guild_setting(db, "x", 1)
    assert not stalled.done()
    stall.set()
    await stalled
    await storage.close()


async def test_migrations_are_listed_once_per_process(tmp_path):
    migrations()
    before = migrations.cache_info().misses
    storage = Storage(tmp_path, max_open=2)
    for guild in range(6):
        await storage.probe(guild)
    assert migrations.cache_info().misses == before
    await storage.close()


async def test_the_index_lists_guilds_with_unfinished_tables(tmp_path):
    storage = Storage(tmp_path)
    assert await storage.active_guilds() == []
    async with storage.transaction(1) as db:
        await repos.set_guild_setting(db, "x", 1)  # no table: not listed
    async with storage.transaction(2) as db:
        table = await repos.insert_table(db, game="toy", channel_id=9, host_id=1, options={}, timer_seconds=60, now=0.0)
    assert (tmp_path / "active" / "2").exists()
    async with storage.transaction(2) as db:
        await repos.update_table(db, table, now=1.0, status="playing")
    assert (tmp_path / "active" / "2").exists()
    async with storage.transaction(2) as db:
        await repos.update_table(db, table, now=2.0, status="finished")
    assert not (tmp_path / "active" / "2").exists()
    await storage.close()
    # A new process reads the index, not every file.
    storage = Storage(tmp_path)
    assert await storage.active_guilds() == []
    # A stale marker only costs an extra open; a missing index is rebuilt from the files.
    (tmp_path / "active" / "1").touch()
    stale = Storage(tmp_path)
    assert await stale.active_guilds() == [1]
    await stale.refresh_marker(1)  # what a restore does when it finds no table there
    assert await stale.active_guilds() == [] and not (tmp_path / "active" / "1").exists()
    await stale.close()
    async with storage.transaction(3) as db:
        await repos.insert_table(db, game="toy", channel_id=9, host_id=1, options={}, timer_seconds=60, now=0.0)
    await storage.close()
    for marker in (tmp_path / "active").iterdir():
        marker.unlink()
    rebuilt = Storage(tmp_path)
    assert await rebuilt.active_guilds() == [3]
    await rebuilt.close()


async def test_the_pool_stays_within_its_cap_and_the_file_budget(tmp_path):
    storage = Storage(tmp_path, max_open=4)
    await asyncio.gather(*(storage.probe(g) for g in range(20)))
    await asyncio.sleep(0)
    assert storage.open_connections <= 4
    await storage.close()
    assert 1 <= dbmod.pool_budget(10**9) < 10**9  # bounded by RLIMIT_NOFILE


# ------------------------------------------------------------------ dangling markers (issue 27, item 6)


async def built_index(tmp_path):
    """A data directory whose index was built (as after any earlier start)."""
    storage = Storage(tmp_path)
    assert await storage.active_guilds() == []
    await storage.close()


def marker_lines(caplog):
    return [r for r in caplog.records if "active-table marker" in r.getMessage()]


async def test_a_marker_without_its_database_creates_nothing_and_is_removed_once(tmp_path, caplog):
    await built_index(tmp_path)
    (tmp_path / "active" / "41").touch()
    storage = Storage(tmp_path)
    caplog.set_level(logging.INFO)
    assert await storage.active_guilds() == []
    assert not storage.path_for(41).exists() and not (tmp_path / "active" / "41").exists()
    (line,) = marker_lines(caplog)
    assert line.levelno == logging.WARNING and line.exc_info is None
    assert "names server 41" in line.getMessage() and "is missing" in line.getMessage() and "removed it" in line.getMessage()
    assert await storage.active_guilds() == [] and len(marker_lines(caplog)) == 1  # once
    await storage.close()
    again = Storage(tmp_path)
    assert await again.active_guilds() == [] and len(marker_lines(caplog)) == 1  # and not at the next start
    await again.close()


async def test_a_directory_as_a_marker_is_reported_in_one_line_not_is_a_directory(tmp_path, caplog):
    await built_index(tmp_path)
    (tmp_path / "active" / "42").mkdir()
    storage = Storage(tmp_path)
    caplog.set_level(logging.INFO)
    assert await storage.active_guilds() == []
    assert not storage.path_for(42).exists() and not (tmp_path / "active" / "42").exists()
    assert len(marker_lines(caplog)) == 1 and "Is a directory" not in caplog.text
    await storage.close()


async def test_a_directory_marker_of_a_server_with_a_table_becomes_a_plain_marker(tmp_path, caplog):
    storage = Storage(tmp_path)
    async with storage.transaction(43) as db:
        await repos.insert_table(db, game="toy", channel_id=9, host_id=1, options={}, timer_seconds=60, now=0.0)
    await storage.close()
    marker = tmp_path / "active" / "43"
    marker.unlink()
    marker.mkdir()
    caplog.set_level(logging.INFO)
    again = Storage(tmp_path)
    assert await again.active_guilds() == [43] and marker.is_file()
    (line,) = marker_lines(caplog)
    assert "replaced it with one" in line.getMessage()
    await again.close()


async def test_a_marker_whose_database_is_a_directory_is_removed(tmp_path, caplog):
    await built_index(tmp_path)
    (tmp_path / "active" / "44").touch()
    storage = Storage(tmp_path)
    storage.path_for(44).mkdir(parents=True)
    caplog.set_level(logging.INFO)
    assert await storage.active_guilds() == []
    (line,) = marker_lines(caplog)
    assert "is not a file" in line.getMessage() and not (tmp_path / "active" / "44").exists()
    await storage.close()


async def test_names_with_unicode_digits_are_not_guilds(tmp_path):
    (tmp_path / "guilds").mkdir(parents=True)
    (tmp_path / "guilds" / "².sqlite3").write_bytes(b"")
    (tmp_path / "active").mkdir()
    (tmp_path / "active" / "¹").touch()
    storage = Storage(tmp_path)
    assert storage.known_guilds() == [] and await storage.active_guilds() == []
    await storage.close()


async def test_a_start_with_a_dangling_marker_creates_no_database(data_dir, caplog):
    from simcord import Env

    from tests.conftest import make_bot

    await built_index(data_dir)
    (data_dir / "active" / "45").touch()
    bot = make_bot(data_dir, ("bot.discord_front.commands", "tests.platform.toy"))
    env = Env(bot)
    caplog.set_level(logging.INFO)
    await env.start()
    try:
        await bot.restore_task
        assert not (data_dir / "guilds" / "45.sqlite3").exists()  # before: an empty database was created
        assert not (data_dir / "active" / "45").exists() and len(marker_lines(caplog)) == 1
    finally:
        await env.shutdown()


async def test_a_file_deleted_after_the_markers_were_checked_is_not_created_by_the_restore(data_dir, monkeypatch):
    from simcord import Env

    from tests.conftest import make_bot

    await built_index(data_dir)
    (data_dir / "active" / "46").touch()
    monkeypatch.setattr(Storage, "_drop_if_dangling", lambda self, guild_id: None)  # as if the file went just after
    bot = make_bot(data_dir, ("bot.discord_front.commands", "tests.platform.toy"))
    env = Env(bot)
    await env.start()
    try:
        await bot.restore_task
        assert not (data_dir / "guilds" / "46.sqlite3").exists()
    finally:
        await env.shutdown()
