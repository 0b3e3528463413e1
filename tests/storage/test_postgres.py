"""What only the PostgreSQL backend has: its failures as player sentences, the guild
scoping enforced by the database, migrations under two processes at once."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.config import ConfigError, Settings
from storage import open_storage, repos
from storage.db import GuildDataBusy, StorageError, migrations
from storage.pg import DatabaseRefused, DatabaseUnreachable, PostgresStorage, redact, translate


def test_placeholders_are_numbered_outside_quotes():
    assert translate("SELECT a FROM t WHERE b = ? AND c = '?' AND d = ?") == "SELECT a FROM t WHERE b = $1 AND c = '?' AND d = $2"


def test_the_password_stays_out_of_logs():
    assert redact("postgresql://deckhand:s3cret@db:5432/deckhand") == "postgresql://deckhand:***@db:5432/deckhand"
    assert redact("postgresql://db/deckhand?user=d&password=s3cret&sslmode=require") == "postgresql://db/deckhand?user=d&password=***&sslmode=require"


def test_database_url_chooses_the_backend(tmp_path):
    base = {"DISCORD_TOKEN": "x", "DATA_DIR": str(tmp_path)}
    assert Settings.from_env(base, load_dotenv_file=False).database_url is None
    settings = Settings.from_env({**base, "DATABASE_URL": " postgresql://u:p@h/d "}, load_dotenv_file=False)
    assert settings.database_url == "postgresql://u:p@h/d"
    assert open_storage(tmp_path, settings.database_url).dialect == "postgresql"
    assert open_storage(tmp_path, None).dialect == "sqlite"
    with pytest.raises(ConfigError, match="postgresql://"):
        Settings.from_env({**base, "DATABASE_URL": "mysql://u@h/d"}, load_dotenv_file=False)


async def test_a_server_that_is_down_gives_the_unreachable_sentence(tmp_path):
    storage = PostgresStorage(f"postgresql://deckhand@/deckhand?host={tmp_path}&port=1")
    for _ in range(2):  # and again: nothing stays half-started
        with pytest.raises(DatabaseUnreachable) as raised:
            async with storage.transaction(1) as db:
                await repos.set_guild_setting(db, "x", 1)
        assert "could not reach my database" in raised.value.sentence
    await storage.close()


async def test_a_refused_login_gives_the_owners_sentence(postgres_server):
    storage = PostgresStorage(postgres_server.dsn_for("no_such_database"))
    with pytest.raises(DatabaseRefused) as raised:
        await storage.probe(1)
    assert "must check its settings" in raised.value.sentence
    assert isinstance(raised.value, StorageError)
    await storage.close()


async def test_a_malformed_url_gives_the_owners_sentence(caplog):
    storage = PostgresStorage("postgresql://deckhand:pw@db:notaport/deckhand")
    with pytest.raises(DatabaseRefused):
        await storage.probe(1)
    assert "is malformed" in caplog.text and "pw" not in caplog.text
    await storage.close()


async def test_a_slow_statement_is_cut_short_as_busy(postgres_dsn):
    storage = PostgresStorage(postgres_dsn, statement_timeout_ms=200)
    with pytest.raises(GuildDataBusy) as raised:
        async with storage.transaction(1) as db:
            await repos.set_guild_setting(db, "x", 1)
            await db.execute("SELECT pg_sleep(5)")
    assert "busy" in raised.value.sentence
    async with storage.transaction(1) as db:  # rolled back, and the pool still works
        assert await repos.get_guild_setting(db, "x", "unset") == "unset"
    await storage.close()


async def test_a_full_pool_answers_busy_instead_of_waiting(postgres_dsn):
    storage = PostgresStorage(postgres_dsn, max_size=1, acquire_timeout=0.2)
    async with storage.reading(1):
        with pytest.raises(GuildDataBusy):
            await storage.probe(2)
    await storage.probe(2)
    await storage.close()


async def test_a_connection_with_no_guild_reads_nothing(postgres_dsn):
    storage = PostgresStorage(postgres_dsn)
    async with storage.transaction(1) as db:
        await repos.set_guild_setting(db, "x", 1)
    pool = await storage.start()
    async with pool.acquire() as raw:
        with pytest.raises(asyncpg.PostgresError):  # not an empty list: an error
            await raw.fetch("SELECT * FROM guild_settings")
        with pytest.raises(asyncpg.PostgresError):
            await raw.execute("INSERT INTO guild_settings (key, value) VALUES ('y', '1')")
        # Writing another guild's row through the views is refused.
        async with raw.transaction():
            await raw.execute("SELECT set_config('deckhand.guild_id', '2', true)")
            with pytest.raises(asyncpg.exceptions.WithCheckOptionViolationError):
                await raw.execute("INSERT INTO guild_settings (guild_id, key, value) VALUES (1, 'y', '1')")
    await storage.close()


async def test_two_processes_starting_at_once_migrate_once(postgres_dsn):
    first, second = PostgresStorage(postgres_dsn), PostgresStorage(postgres_dsn)
    await asyncio.gather(first.start(), second.start())
    assert await first.schema_version() == len(migrations("postgresql"))
    async with first.transaction(1) as db:
        table_id = await repos.insert_table(db, game="toy", channel_id=1, host_id=1, options={}, timer_seconds=60, now=0.0)
    async with second.reading(1) as db:
        assert (await repos.get_table(db, table_id)).host_id == 1
    # A restart applies nothing new and keeps the data.
    await first.close()
    third = PostgresStorage(postgres_dsn)
    assert await third.schema_version() == len(migrations("postgresql"))
    assert await third.active_guilds() == [1]
    await asyncio.gather(second.close(), third.close())


async def test_the_pool_and_dsn_are_there_for_other_processes(postgres_dsn):
    storage = PostgresStorage(postgres_dsn)
    assert storage.pool is None and storage.dsn == postgres_dsn
    pool = await storage.start()
    assert storage.pool is pool
    listener = await storage.connect()
    try:
        assert await listener.fetchval("SELECT 1") == 1
    finally:
        await listener.close()
    await storage.close()
    assert storage.pool is None


async def test_an_unknown_user_gives_the_owners_sentence(postgres_server):
    url = postgres_server.dsn_for("postgres").replace("://deckhand@", "://nobody_by_that_name@")
    storage = PostgresStorage(url)
    with pytest.raises(DatabaseRefused):
        await storage.probe(1)
    await storage.close()


async def test_a_server_that_stops_and_comes_back(tmp_path):
    """A server of its own (the session's one is shared): down mid-run, then back."""
    from tests.pg import NoPostgres, PostgresServer

    try:
        server = PostgresServer.start()
    except NoPostgres as error:
        pytest.skip(str(error))
    try:
        storage = PostgresStorage(server.create_database())
        async with storage.transaction(1) as db:
            await repos.set_guild_setting(db, "x", 1)
        await asyncio.to_thread(server.pg_ctl, "stop", "-m", "fast")
        with pytest.raises(StorageError) as raised:
            async with storage.transaction(1) as db:
                await repos.set_guild_setting(db, "x", 2)
        assert isinstance(raised.value, (DatabaseUnreachable, GuildDataBusy)), raised.value
        await asyncio.to_thread(server.pg_ctl, "start")
        async with storage.transaction(1) as db:  # the pool reconnects by itself
            assert await repos.get_guild_setting(db, "x") == 1
            await repos.set_guild_setting(db, "x", 3)
        await storage.close()
    finally:
        server.stop()


def test_a_connection_left_mid_operation_reads_as_unreachable():
    """Seen when the server stopped under a loaded machine: asyncpg refuses a connection
    whose last operation never finished ("cannot switch to state 15; another operation
    (2) is in progress"). It is a broken connection, not the statement's own error."""
    from storage.pg import classify

    error = asyncpg.InternalClientError("cannot switch to state 15; another operation (2) is in progress")
    assert isinstance(classify(error, "guild 1"), DatabaseUnreachable)
    assert classify(asyncpg.UniqueViolationError("duplicate key"), "guild 1") is None  # a statement's own error stays
