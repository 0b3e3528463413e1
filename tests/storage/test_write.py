"""``storage.write``: a move's transaction in one call (issue 22), on both backends
(through aiosqlite's public calls on SQLite since issue 38); ``known_user_setting``: a player's
setting answered from memory. Same guarantees as a ``transaction``: a stale version
guard or a failing statement changes nothing, a locked or read-only file answers with
its sentence, and the connection is usable afterwards."""

from __future__ import annotations

import asyncio
import sqlite3

import aiosqlite
import pytest

import storage.db as db_module
from storage import open_storage, repos, settings_cache
from storage.db import GuildDataBusy, GuildDataReadOnly, Storage


class Trips:
    """Counts the calls queued to aiosqlite connections' threads."""

    def __init__(self, monkeypatch) -> None:
        self.count = 0
        original = aiosqlite.Connection._execute

        def counted(connection, function, *args, **kwargs):
            self.count += 1
            return original(connection, function, *args, **kwargs)

        monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)


async def new_table(storage, guild_id: int) -> int:
    async with storage.transaction(guild_id) as db:
        table_id = await repos.insert_table(db, game="toy", channel_id=1, host_id=2, options={}, timer_seconds=60, now=0.0)
        await repos.update_table(db, table_id, now=0.0, status="playing")
    return table_id


def move(table_id: int, version: int, state: str, seq: int | None = None) -> list[repos.Write]:
    """What a move saves: the version-guarded row, then its action."""
    return [
        repos.table_update_at_version(table_id, version, now=1.0 + version, state=state, version=version + 1),
        repos.action_insert(table_id, version + 1 if seq is None else seq, 2, f"c{version + 1}", "player", 1.0 + version),
    ]


async def saved(storage, guild_id: int, table_id: int) -> tuple[int, str | None, list[str]]:
    async with storage.reading(guild_id) as db:
        record = await repos.get_table(db, table_id)
        actions = [code for _, code, _ in await repos.actions_for(db, table_id)]
    return record.version, record.state, actions


async def test_a_write_commits_and_a_stale_guard_changes_nothing(storage_backend):
    table_id = await new_table(storage_backend, 5)
    assert await storage_backend.write(5, move(table_id, 0, "a"))
    assert await saved(storage_backend, 5, table_id) == (1, "a", ["c1"])
    # Written again for version 0: the guard fails, and the action after it is not kept.
    assert not await storage_backend.write(5, move(table_id, 0, "b"))
    # A guard that fails after a statement that ran: that statement is rolled back too.
    late_guard = [repos.action_insert(table_id, 9, 2, "late", "player", 3.0), *move(table_id, 0, "c")[:1]]
    assert not await storage_backend.write(5, late_guard)
    assert await saved(storage_backend, 5, table_id) == (1, "a", ["c1"])
    assert await storage_backend.write(5, move(table_id, 1, "d"))
    assert await saved(storage_backend, 5, table_id) == (2, "d", ["c1", "c2"])


async def test_a_failing_statement_rolls_the_whole_write_back(storage_backend):
    table_id = await new_table(storage_backend, 6)
    assert await storage_backend.write(6, move(table_id, 0, "a"))
    with pytest.raises(sqlite3.IntegrityError):  # ConstraintViolation on PostgreSQL
        await storage_backend.write(6, move(table_id, 1, "b", seq=1))  # the action's seq is taken
    assert await saved(storage_backend, 6, table_id) == (1, "a", ["c1"])
    assert await storage_backend.write(6, move(table_id, 1, "c"))  # nothing was left open
    assert await saved(storage_backend, 6, table_id) == (2, "c", ["c1", "c2"])


async def test_a_write_that_opens_a_table_marks_the_server_first(tmp_path):
    storage = Storage(tmp_path)
    assert await storage.active_guilds() == []
    opened = repos.Write(
        "INSERT INTO game_tables (game, channel_id, host_id, status, players, options, timer_seconds, created_at, updated_at)"
        " VALUES ('toy', 1, 2, 'lobby', '[2]', '{}', 60, 0, 0)"
    )
    assert await storage.write(8, [opened])
    assert (tmp_path / "active" / "8").exists() and await storage.active_guilds() == [8]
    closed = repos.Write("UPDATE game_tables SET status = 'finished'", rows=1)
    assert await storage.write(8, [closed])
    assert not (tmp_path / "active" / "8").exists()
    assert await storage.write(8, [opened])  # the connection took the next one as usual
    await storage.close()


async def test_a_locked_file_refuses_the_write_within_the_bound(tmp_path):
    storage = Storage(tmp_path, busy_timeout_ms=200)
    table_id = await new_table(storage, 3)
    other = sqlite3.connect(storage.path_for(3), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(GuildDataBusy) as raised:
            await storage.write(3, move(table_id, 0, "a"))
        assert "busy" in raised.value.sentence
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert not storage._slots[3].connection.in_transaction
    assert await storage.write(3, move(table_id, 0, "a"))
    await storage.close()


async def test_a_read_only_file_refuses_the_write_with_its_sentence(tmp_path, monkeypatch):
    storage = Storage(tmp_path)
    table_id = await new_table(storage, 4)
    await storage.close()
    monkeypatch.setattr(db_module, "_connect_target", lambda path: f"file:{path}?mode=ro")
    read_only = Storage(tmp_path)
    with pytest.raises(GuildDataReadOnly):
        await read_only.write(4, move(table_id, 0, "a"))
    assert await saved(read_only, 4, table_id) == (0, None, [])
    await read_only.close()


async def test_a_cancelled_write_leaves_the_connection_usable(tmp_path):
    store = Storage(tmp_path)
    table_id = await new_table(store, 2)
    writing = asyncio.create_task(store.write(2, move(table_id, 0, "a")))
    await asyncio.sleep(0)
    writing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await writing
    # Committed whole, or not at all; never left open.
    version, state, actions = await saved(store, 2, table_id)
    assert (version, state, actions) in ((1, "a", ["c1"]), (0, None, []))
    assert await store.write(2, move(table_id, version, "b"))
    assert not store._slots[2].connection.in_transaction
    await store.close()


async def test_a_known_setting_is_answered_without_the_connection(tmp_path, monkeypatch):
    store = Storage(tmp_path)
    assert store.known_user_setting(1, 7, "pictures") is settings_cache.UNKNOWN  # nothing open yet
    async with store.transaction(1):
        pass  # the server has a database (reading never creates one)
    await store.close_guild(1)
    assert store.known_user_setting(1, 7, "pictures") is settings_cache.UNKNOWN  # nothing open yet
    async with store.reading(1) as db:
        assert store.known_user_setting(1, 7, "pictures") is settings_cache.UNKNOWN  # never read
        assert await repos.get_user_setting(db, 7, "pictures", "on") == "on"
    trips = Trips(monkeypatch)
    assert store.known_user_setting(1, 7, "pictures") is settings_cache.UNSET
    async with store.transaction(1) as db:
        await repos.set_user_setting(db, 7, "pictures", "off")
    assert store.known_user_setting(1, 7, "pictures") is settings_cache.UNKNOWN  # changed: read again
    async with store.reading(1) as db:
        assert await repos.get_user_setting(db, 7, "pictures", "on") == "off"
    before = trips.count
    assert store.known_user_setting(1, 7, "pictures") == "off"
    assert trips.count == before
    await store.close_guild(1)
    assert store.known_user_setting(1, 7, "pictures") is settings_cache.UNKNOWN
    await store.close()


async def test_postgresql_never_answers_from_memory(backend_name, storage_backend):
    if backend_name != "postgresql":
        pytest.skip("the PostgreSQL half of the backends")
    async with storage_backend.reading(1) as db:
        assert await repos.get_user_setting(db, 7, "pictures", "on") == "on"
    assert storage_backend.known_user_setting(1, 7, "pictures") is settings_cache.UNKNOWN


async def test_settings_read_per_move_come_from_memory(tmp_path, monkeypatch):
    """``hands_in_dm`` and ``pictures_mine`` (asked per move and per hand): once read,
    no trip to the database and no wait for its lock, and a change is seen at once."""
    from bot.core.settings import GuildSettings

    store = open_storage(tmp_path)
    settings = GuildSettings(store)
    async with store.transaction(1):
        pass  # a server with a game has a database (reading never creates one)
    assert not await settings.hands_in_dm(1, 7) and await settings.pictures_mine(1, 7)
    trips = Trips(monkeypatch)
    for _ in range(3):
        assert not await settings.hands_in_dm(1, 7) and await settings.pictures_mine(1, 7)
    assert trips.count == 0
    async with store.transaction(1) as db:
        await repos.set_user_setting(db, 7, "hands", "dm")
        await repos.set_user_setting(db, 7, "pictures", "off")
    assert await settings.hands_in_dm(1, 7) and not await settings.pictures_mine(1, 7)
    await store.close()


async def test_a_committed_move_survives_the_process_dying(tmp_path):
    """WAL with ``synchronous=NORMAL`` (docs/owners/backups.md): a process killed right
    after a move's COMMIT, without closing anything, loses nothing of it."""
    import subprocess
    import sys
    import textwrap
    from pathlib import Path

    store = Storage(tmp_path)
    table_id = await new_table(store, 1)
    async with store.reading(1) as db:
        assert (await db.execute_fetchall("PRAGMA journal_mode"))[0][0] == "wal"
        assert (await db.execute_fetchall("PRAGMA synchronous"))[0][0] == 1  # NORMAL
    await store.close()
    script = textwrap.dedent(f"""
        import asyncio, os
        from storage import repos
        from storage.db import Storage

        async def main():
            store = Storage({str(tmp_path)!r})
            update = repos.table_update_at_version({table_id}, 0, now=1.0, state="a", version=1)
            assert await store.write(1, [update, repos.action_insert({table_id}, 1, 2, "c1", "player", 1.0)])
            os._exit(0)  # no close, no checkpoint: as a crash right after the COMMIT

        asyncio.run(main())
    """)
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", script], check=True, cwd=root, timeout=60)
    assert (tmp_path / "guilds" / "1.sqlite3-wal").stat().st_size > 0  # the move is in the log only
    store = Storage(tmp_path)
    assert await saved(store, 1, table_id) == (1, "a", ["c1"])
    await store.close()


async def test_a_connection_held_too_long_answers_busy_and_a_short_wait_is_served(storage_backend, monkeypatch):
    """Transactions of one guild wait for each other in the process, at most a bound."""
    import storage.pg as pg_module

    monkeypatch.setattr(db_module, "CONNECTION_WAIT_SECONDS", 0.2)
    monkeypatch.setattr(pg_module, "GUILD_WAIT_SECONDS", 0.2)
    table_id = await new_table(storage_backend, 11)
    held, release = asyncio.Event(), asyncio.Event()

    async def hold() -> None:
        async with storage_backend.transaction(11):
            held.set()
            await release.wait()

    holder = asyncio.create_task(hold())
    await held.wait()
    with pytest.raises(GuildDataBusy):
        await storage_backend.write(11, move(table_id, 0, "a"))
    waiting = asyncio.create_task(storage_backend.write(11, move(table_id, 0, "a")))
    await asyncio.sleep(0.05)
    release.set()
    await holder
    assert await waiting
    assert await saved(storage_backend, 11, table_id) == (1, "a", ["c1"])
