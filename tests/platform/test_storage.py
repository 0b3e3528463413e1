"""Per-guild SQLite only: migrations, WAL, a bounded pool. What both backends share
(atomic transactions, no interleaving, the schema's constraints, guild scoping) is
in tests/storage/test_backends.py, run on SQLite and PostgreSQL."""

from __future__ import annotations

from storage import repos
from storage.db import Storage, migrations


async def test_a_guild_database_is_created_migrated_and_in_wal(tmp_path):
    storage = Storage(tmp_path)
    async with storage.transaction(42):
        pass  # the first write creates the file (reading never does)
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


async def test_a_server_with_a_game_in_play_keeps_its_database_open(tmp_path):
    """Issue 22: with more active servers than the pool's cap, evicting least recently
    used connections made most moves reopen their database. Idle servers go first; an
    active one (its marker in the index) is closed only past the file-handle budget."""
    storage = Storage(tmp_path, max_open=2)
    for idle in (10, 11, 12, 13):
        await storage.probe(idle)  # servers with a database (reading creates none)
    await storage.close()
    storage = Storage(tmp_path, max_open=2)
    opened = []
    original = storage._open

    async def counting_open(guild_id, create=True):
        opened.append(guild_id)
        return await original(guild_id, create)

    storage._open = counting_open
    for guild in (1, 2):
        async with storage.transaction(guild) as db:
            await repos.set_guild_setting(db, "turn_timer", 30)
        storage._set_marker(guild, True)  # a table is open there
    for _ in range(3):  # moves at both active servers, between idle servers' reads
        for guild in (1, 10, 2, 11, 12):
            async with storage.reading(guild) as db:
                await repos.get_guild_setting(db, "turn_timer")
    assert opened.count(1) == 1 and opened.count(2) == 1  # never reopened
    assert opened.count(10) == 3  # idle servers still make room
    assert {1, 2} <= set(storage._slots) and storage.open_connections <= 3
    storage._handle_budget = 2  # past what the file handles allow, active servers are closed too
    async with storage.reading(13) as db:
        await repos.get_guild_setting(db, "turn_timer")
    assert storage.open_connections == 2
    await storage.close()
