"""Per-guild SQLite: migrations, WAL, a bounded pool, atomic transactions."""

from __future__ import annotations

import asyncio

import pytest

from storage import repos
from storage.db import Storage, migrations


async def test_a_guild_database_is_created_migrated_and_in_wal(tmp_path):
    storage = Storage(tmp_path)
    async with storage.reading(42) as db:
        async with db.execute("PRAGMA user_version") as cursor:
            assert (await cursor.fetchone())[0] == len(migrations())
        async with db.execute("PRAGMA journal_mode") as cursor:
            assert (await cursor.fetchone())[0] == "wal"
    assert (tmp_path / "guilds" / "42.sqlite3").exists()
    assert storage.known_guilds() == [42]
    await storage.close()


async def test_open_connections_stay_bounded(tmp_path):
    storage = Storage(tmp_path, max_open=3)
    for guild in range(10):
        async with storage.transaction(guild) as db:
            await repos.set_guild_setting(db, "turn_timer", guild + 30)
        assert storage.open_connections <= 3
    # Evicted databases reopen with their data intact.
    async with storage.reading(0) as db:
        assert await repos.get_guild_setting(db, "turn_timer") == 30
    await storage.close()
    assert storage.open_connections == 0


async def test_a_failed_transaction_changes_nothing(tmp_path):
    storage = Storage(tmp_path)
    with pytest.raises(RuntimeError):
        async with storage.transaction(1) as db:
            await repos.set_guild_setting(db, "turn_timer", 99)
            raise RuntimeError("boom")
    async with storage.reading(1) as db:
        assert await repos.get_guild_setting(db, "turn_timer", "unset") == "unset"
    await storage.close()


async def test_concurrent_transactions_on_one_guild_do_not_interleave(tmp_path):
    storage = Storage(tmp_path)

    async def bump(n):
        async with storage.transaction(7) as db:
            value = await repos.get_guild_setting(db, "counter", 0)
            await asyncio.sleep(0)
            await repos.set_guild_setting(db, "counter", value + 1)

    await asyncio.gather(*(bump(n) for n in range(20)))
    async with storage.reading(7) as db:
        assert await repos.get_guild_setting(db, "counter") == 20
    await storage.close()


async def test_one_active_table_per_channel_is_enforced_by_the_schema(tmp_path):
    import sqlite3

    storage = Storage(tmp_path)
    async with storage.transaction(5) as db:
        await repos.insert_table(db, game="toy", channel_id=9, host_id=1, options={}, timer_seconds=60, now=0.0)
    with pytest.raises(sqlite3.IntegrityError):
        async with storage.transaction(5) as db:
            await repos.insert_table(db, game="toy", channel_id=9, host_id=2, options={}, timer_seconds=60, now=0.0)
    await storage.close()
