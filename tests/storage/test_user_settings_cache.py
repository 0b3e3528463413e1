"""Players' settings kept in memory per SQLite file (storage/settings_cache.py, issue 22):
a second read asks no query, and every way a setting changes is seen at once, through
any connection this process has to the file; a transaction's reads are never kept."""

from __future__ import annotations

import pytest

from storage import open_storage, repos, settings_cache


class Queries:
    """Counts the user_settings SELECTs a connection runs."""

    def __init__(self, db) -> None:
        self.count = 0
        original = db.execute

        def execute(sql, *args, **kwargs):
            if sql.startswith("SELECT value FROM user_settings"):
                self.count += 1
            return original(sql, *args, **kwargs)

        db.execute = execute


@pytest.fixture
async def two_storages(tmp_path):
    """Two storages on one data directory (as two bots in one process may share it)."""
    first, second = open_storage(tmp_path / "data"), open_storage(tmp_path / "data")
    yield first, second
    await first.close()
    await second.close()


async def test_a_setting_read_twice_is_asked_once_even_when_unset(two_storages):
    storage, _ = two_storages
    async with storage.transaction(1):
        pass  # the server has a database (reading never creates one)
    async with storage.reading(1) as db:
        queries = Queries(db)
        assert await repos.get_user_setting(db, 7, "pictures", "on") == "on"
        assert await repos.get_user_setting(db, 7, "pictures", "default differs") == "default differs"
        assert queries.count == 1
        await repos.set_user_setting(db, 7, "pictures", "off")
        assert await repos.get_user_setting(db, 7, "pictures", "on") == "off"
        assert await repos.get_user_setting(db, 7, "pictures", "on") == "off"
        assert await repos.get_user_setting(db, 8, "pictures", "on") == "on"  # another player: their own entry
        assert queries.count == 3


async def assert_a_write_elsewhere_is_seen(reader, writer) -> None:
    """A setting read through ``reader``, then changed through ``writer``, reads changed."""
    async with reader.reading(1) as db:
        assert await repos.get_user_setting(db, 7, "pictures", "on") == "on"
    async with writer.transaction(1) as other:
        await repos.set_user_setting(other, 7, "pictures", "off")
    async with reader.reading(1) as db:
        assert await repos.get_user_setting(db, 7, "pictures", "on") == "off"


async def test_a_write_through_another_connection_to_the_file_is_seen(two_storages):
    first, second = two_storages
    await assert_a_write_elsewhere_is_seen(first, second)
    async with second.transaction(1) as other:
        assert await repos.delete_user_settings(other, 7) == 1
    async with first.reading(1) as db:
        assert await repos.get_user_setting(db, 7, "pictures", "on") == "on"


async def test_a_rolled_back_write_and_a_transactions_reads_are_not_kept(two_storages):
    storage, _ = two_storages

    class Abandon(Exception):
        pass

    with pytest.raises(Abandon):
        async with storage.transaction(1) as db:
            await repos.set_user_setting(db, 7, "pictures", "off")
            assert await repos.get_user_setting(db, 7, "pictures", "on") == "off"  # read inside: not kept
            raise Abandon
    async with storage.reading(1) as db:
        assert await repos.get_user_setting(db, 7, "pictures", "on") == "on"


async def test_a_closed_servers_file_forgets_its_settings(two_storages):
    storage, _ = two_storages
    async with storage.transaction(1):
        pass  # the server has a database (reading never creates one)
    async with storage.reading(1) as db:
        await repos.get_user_setting(db, 7, "pictures", "on")
    path = str(storage.path_for(1))
    assert settings_cache.USER_SETTINGS.get(path)
    await storage.close_guild(1)  # e.g. before storage/purge.py deletes it
    assert path not in settings_cache.USER_SETTINGS


async def test_postgresql_is_always_asked(backend_name, storage_backend, request, tmp_path):
    """Several processes may share one PostgreSQL database: another's write is seen at once."""
    if backend_name != "postgresql":
        pytest.skip("the PostgreSQL half of the backends")
    other_process = open_storage(tmp_path / "other", request.getfixturevalue("postgres_dsn"))
    try:
        await assert_a_write_elsewhere_is_seen(storage_backend, other_process)
    finally:
        await other_process.close()
