"""Per-guild SQLite only: migrations, WAL, a bounded pool. What both backends share
(atomic transactions, no interleaving, the schema's constraints, guild scoping) is
in tests/storage/test_backends.py, run on SQLite and PostgreSQL."""

from __future__ import annotations

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
