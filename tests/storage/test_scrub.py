"""``storage.scrub(guild)`` (issue 37, item 13): after data is erased, none of its bytes
stay in a SQLite guild's files (the WAL's old pages, the file's free space); a reader
holding an old snapshot makes it report busy rather than claim it finished. On
PostgreSQL it vacuums the tables that hold people's ids (all that can be done there:
docs/players/your-data.md)."""

from __future__ import annotations

import sqlite3

import pytest

from storage import repos
from storage.db import GuildDataBusy, Storage

SECRET = 987654321987654321


def files(storage: Storage, guild_id: int) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(storage.guild_dir.glob(f"{guild_id}.sqlite3*")))


async def erase_someone(storage, guild_id: int = 5) -> None:
    async with storage.transaction(guild_id) as db:
        for n in range(200):  # enough rows to spill over several pages, rewritten below
            await repos.set_user_setting(db, SECRET + n % 2, f"k{n}", "x" * 40)
        await repos.set_guild_setting(db, "note", f"about {SECRET}")
    async with storage.transaction(guild_id) as db:
        await repos.delete_user_settings(db, SECRET)
        await repos.set_guild_setting(db, "note", "nothing")


async def test_sqlite_leaves_no_byte_of_erased_rows(tmp_path):
    storage = Storage(tmp_path)
    try:
        await erase_someone(storage)
        assert str(SECRET).encode() in files(storage, 5) or SECRET.to_bytes(8, "big") in files(storage, 5)
        await storage.scrub(5)
        everything = files(storage, 5)
        assert str(SECRET).encode() not in everything and SECRET.to_bytes(8, "big") not in everything
        async with storage.reading(5) as db:  # the rest is intact
            assert await repos.get_user_setting(db, SECRET + 1, "k1", None) == "x" * 40
        await storage.scrub(404)  # a guild with no database: nothing to do, nothing created
        assert not storage.has_database(404)
    finally:
        await storage.close()


async def test_a_reader_holding_old_pages_makes_it_busy_not_done(tmp_path, monkeypatch):
    import storage.db as db_module

    monkeypatch.setattr(db_module, "SCRUB_ATTEMPTS", 2)
    storage = Storage(tmp_path)
    try:
        await erase_someone(storage)
        reader = sqlite3.connect(storage.path_for(5))  # a backup reading an old snapshot
        reader.execute("BEGIN")
        reader.execute("SELECT COUNT(*) FROM user_settings").fetchone()
        try:
            with pytest.raises(GuildDataBusy):
                await storage.scrub(5)
        finally:
            reader.rollback()
            reader.close()
        await storage.scrub(5)  # run again once the reader is gone: finished
        assert str(SECRET).encode() not in files(storage, 5)
    finally:
        await storage.close()


async def test_postgresql_vacuums_the_tables_that_hold_people(backend_name, storage_backend):
    if backend_name != "postgresql":
        pytest.skip("the PostgreSQL half of the backends")
    await erase_someone(storage_backend)
    await storage_backend.scrub(5)
    pool = await storage_backend.start()
    rows = await pool.fetch("SELECT relname, last_vacuum FROM pg_stat_user_tables WHERE schemaname = 'deckhand'")
    vacuumed = {row["relname"] for row in rows if row["last_vacuum"] is not None}
    assert {"user_settings", "results", "actions", "game_tables", "carryover"} <= vacuumed, rows
