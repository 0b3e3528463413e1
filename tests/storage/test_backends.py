"""The storage interface, run against both backends (``storage_backend`` is
per-guild SQLite, then a real PostgreSQL server started by the tests)."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from storage import StorageBackend, repos
from storage.db import migrations


def test_both_dialects_have_the_same_numbered_migrations():
    sqlite_numbers = [number for number, _ in migrations("sqlite")]
    postgres_numbers = [number for number, _ in migrations("postgresql")]
    assert sqlite_numbers == postgres_numbers
    assert sqlite_numbers == list(range(1, len(sqlite_numbers) + 1))
    names = [path.name for _, path in migrations("sqlite")]
    assert names == [path.name for _, path in migrations("postgresql")]


async def test_a_guild_starts_migrated_and_empty(storage_backend):
    async with storage_backend.reading(42) as db:
        assert await repos.active_table_ids(db) == []
        assert await repos.get_guild_setting(db, "turn_timer", "unset") == "unset"
    assert await storage_backend.active_guilds() == []


async def test_a_table_round_trips_with_every_column(storage_backend):
    async with storage_backend.transaction(1) as db:
        table_id = await repos.insert_table(db, game="toy", channel_id=9, host_id=11, options={"a": 1}, timer_seconds=60, now=5.0)
        changed = await repos.update_table_at_version(
            db, table_id, 0, now=6.5, status="playing", players=[11, -1], seat_choices={11: "north"}, seed="s", state='{"x":1}',
            version=3, deadline=99.25, obligations={"o": [11, 7.0]}, strikes={11: 1}, recent=["hi"], lobby_message_id=2**62,
            message_id=5, message_posted_at=6.0, turn_players=[11], thread_id=77, publish={"ping": 1},
        )
        assert changed
        for seq in (1, 2, 3):
            await repos.append_action(db, table_id, seq, 11, f"c{seq}", "player", float(seq))
    async with storage_backend.reading(1) as db:
        record = await repos.get_table(db, table_id)
        assert await repos.actions_for(db, table_id) == [(11, "c1", "player"), (11, "c2", "player"), (11, "c3", "player")]
        assert await repos.last_action_seq(db, table_id) == 3
        assert await repos.active_table_at(db, 77) == table_id
        assert await repos.active_table_at(db, 9) is None  # it lives in its thread
        assert await repos.active_table_in_channel(db, 9) == table_id
        assert await repos.last_host(db, 9, "toy") == 11
        assert [row["id"] for row in await repos.active_rows(db)] == [table_id]
    assert (record.status, record.players, record.seat_choices, record.seed, record.version) == ("playing", [11, -1], {11: "north"}, "s", 3)
    assert (record.deadline, record.obligations, record.strikes, record.recent) == (99.25, {"o": [11, 7.0]}, {11: 1}, ["hi"])
    assert (record.lobby_message_id, record.thread_id, record.place, record.publish) == (2**62, 77, 77, {"ping": 1})
    assert (record.created_at, record.updated_at, record.options) == (5.0, 6.5, {"a": 1})
    assert await storage_backend.active_guilds() == [1]


async def test_an_update_with_a_stale_version_changes_nothing_and_says_so(storage_backend):
    async with storage_backend.transaction(3) as db:
        table_id = await repos.insert_table(db, game="toy", channel_id=1, host_id=2, options={}, timer_seconds=60, now=0.0)
    async with storage_backend.transaction(3) as db:
        assert await repos.update_table_at_version(db, table_id, 0, now=1.0, version=1, state="a")
    async with storage_backend.transaction(3) as db:
        assert not await repos.update_table_at_version(db, table_id, 0, now=2.0, version=1, state="b")
        assert await repos.table_version(db, table_id) == (1, "lobby")
        assert await repos.table_version(db, table_id + 1000) is None
        assert await repos.execute_count(db, "UPDATE game_tables SET seed = ? WHERE id = ? AND version = ?", ("x", table_id, 1)) == 1
    async with storage_backend.reading(3) as db:
        record = await repos.get_table(db, table_id)
    assert (record.state, record.version, record.seed, record.updated_at) == ("a", 1, "x", 1.0)


async def test_settings_results_and_carryover_upsert(storage_backend):
    async with storage_backend.transaction(4) as db:
        first = await repos.insert_table(db, game="toy", channel_id=1, host_id=10, options={}, timer_seconds=60, now=0.0)
        await repos.update_table(db, first, now=1.0, status="finished")
        second = await repos.insert_table(db, game="toy", channel_id=1, host_id=10, options={}, timer_seconds=60, now=2.0)
        await repos.update_table(db, second, now=3.0, status="finished")
        await repos.set_guild_setting(db, "turn_timer", 30)
        await repos.set_guild_setting(db, "turn_timer", 45)
        await repos.set_guild_setting(db, "art:toy", "plain")
        await repos.set_user_setting(db, 10, "hand", "dm")
        await repos.set_user_setting(db, 10, "hand", "thread")
        await repos.record_results(db, first, "toy", [[10], [20]], 4.0)
        await repos.record_results(db, first, "toy", [[20], [10]], 4.0)  # a replay replaces
        await repos.record_results(db, second, "toy", [[10], [-1]], 5.0)  # with a computer seat
        await repos.set_carryover(db, 1, "toy", {"chain": 1}, 6.0)
        await repos.set_carryover(db, 1, "toy", {"chain": 2}, 7.0)
    async with storage_backend.reading(4) as db:
        assert await repos.get_guild_setting(db, "turn_timer") == 45
        assert await repos.guild_settings_with_prefix(db, "art:") == {"art:toy": "plain"}
        assert await repos.get_user_setting(db, 10, "hand") == "thread"
        people = await repos.leaderboard(db, "toy")
        with_computers = await repos.leaderboard(db, "toy", with_computers=True)
        assert await repos.get_carryover(db, 1, "toy") == {"chain": 2}
    assert [(s.user_id, s.played, s.wins) for s in people] == [(20, 1, 1), (10, 1, 0)]
    assert [(s.user_id, s.played, s.wins) for s in with_computers] == [(10, 1, 1)]
    async with storage_backend.transaction(4) as db:
        await repos.clear_carryover(db, 1, "toy")
    async with storage_backend.reading(4) as db:
        assert await repos.get_carryover(db, 1, "toy") == {}


async def test_guilds_never_see_each_others_rows(storage_backend):
    async with storage_backend.transaction(100) as db:
        mine = await repos.insert_table(db, game="toy", channel_id=5, host_id=1, options={}, timer_seconds=60, now=0.0)
        await repos.set_guild_setting(db, "turn_timer", 30)
        await repos.set_user_setting(db, 1, "hand", "dm")
        await repos.set_carryover(db, 5, "toy", {"chain": 1}, 0.0)
        await repos.record_results(db, mine, "toy", [[1]], 0.0)
    async with storage_backend.transaction(200) as db:
        # The same channel id in another guild is another place: no conflict.
        theirs = await repos.insert_table(db, game="toy", channel_id=5, host_id=2, options={}, timer_seconds=60, now=0.0)
        assert await repos.get_guild_setting(db, "turn_timer", "unset") == "unset"
        assert await repos.get_user_setting(db, 1, "hand", "unset") == "unset"
        assert await repos.get_carryover(db, 5, "toy") == {}
        assert await repos.leaderboard(db, "toy") == []
        assert await repos.active_table_ids(db) == [theirs]
        if mine != theirs:  # PostgreSQL's ids are global; SQLite's are per file
            assert await repos.get_table(db, mine) is None
            assert not await repos.update_table_at_version(db, mine, 0, now=1.0, status="cancelled")
            assert await repos.execute_count(db, "DELETE FROM guild_settings") == 0
    async with storage_backend.reading(100) as db:
        record = await repos.get_table(db, mine)
        assert record.status == "lobby" and record.host_id == 1
        assert await repos.get_guild_setting(db, "turn_timer") == 30
    assert await storage_backend.active_guilds() == [100, 200]


async def test_a_failed_transaction_changes_nothing(storage_backend):
    with pytest.raises(RuntimeError):
        async with storage_backend.transaction(1) as db:
            await repos.set_guild_setting(db, "turn_timer", 99)
            await repos.insert_table(db, game="toy", channel_id=9, host_id=1, options={}, timer_seconds=60, now=0.0)
            raise RuntimeError("boom")
    async with storage_backend.reading(1) as db:
        assert await repos.get_guild_setting(db, "turn_timer", "unset") == "unset"
        assert await repos.active_table_ids(db) == []
    async with storage_backend.transaction(1) as db:  # the connection is usable again
        await repos.set_guild_setting(db, "turn_timer", 30)
    async with storage_backend.reading(1) as db:
        assert await repos.get_guild_setting(db, "turn_timer") == 30


async def test_concurrent_transactions_on_one_guild_do_not_interleave(storage_backend):
    async def bump():
        async with storage_backend.transaction(7) as db:
            value = await repos.get_guild_setting(db, "counter", 0)
            await asyncio.sleep(0)
            await repos.set_guild_setting(db, "counter", value + 1)

    await asyncio.gather(*(bump() for _ in range(20)))
    async with storage_backend.reading(7) as db:
        assert await repos.get_guild_setting(db, "counter") == 20


async def test_one_active_table_per_place_is_enforced_by_the_schema(storage_backend):
    async with storage_backend.transaction(5) as db:
        await repos.insert_table(db, game="toy", channel_id=9, host_id=1, options={}, timer_seconds=60, now=0.0)
    with pytest.raises(sqlite3.IntegrityError):
        async with storage_backend.transaction(5) as db:
            await repos.insert_table(db, game="toy", channel_id=9, host_id=2, options={}, timer_seconds=60, now=0.0)
    async with storage_backend.reading(5) as db:
        assert len(await repos.active_table_ids(db)) == 1


async def test_a_finished_guild_leaves_the_active_index(storage_backend):
    async with storage_backend.transaction(8) as db:
        table_id = await repos.insert_table(db, game="toy", channel_id=9, host_id=1, options={}, timer_seconds=60, now=0.0)
    assert await storage_backend.active_guilds() == [8]
    async with storage_backend.transaction(8) as db:
        await repos.update_table(db, table_id, now=1.0, status="finished")
    assert await storage_backend.active_guilds() == []


async def test_the_connection_names_its_dialect(storage_backend, backend_name):
    assert isinstance(storage_backend, StorageBackend)
    assert storage_backend.dialect == backend_name
    async with storage_backend.reading(1) as db:
        assert repos.dialect(db) == backend_name



def twin(storage):
    """Another process's storage on the same data (its own connections and locks)."""
    from storage import open_storage

    if storage.dialect == "postgresql":
        return open_storage(None, storage.dsn)
    return open_storage(storage.data_dir)


async def test_two_processes_moving_one_table_at_once_apply_exactly_one(storage_backend):
    """Both processes hold the table at version 0 in memory and write "0 -> 1" at the same
    moment, each in its own transaction: the version check lets exactly one through."""
    async with storage_backend.transaction(9) as db:
        table_id = await repos.insert_table(db, game="toy", channel_id=1, host_id=1, options={}, timer_seconds=60, now=0.0)
    other = twin(storage_backend)

    async def move(storage, name):
        async with storage.transaction(9) as db:
            changed = await repos.update_table_at_version(db, table_id, 0, now=1.0, version=1, state=name)
            if changed:
                await repos.append_action(db, table_id, 1, 1, name, "player", 1.0)
            return changed

    results = await asyncio.gather(move(storage_backend, "first"), move(other, "second"))
    assert sorted(results) == [False, True]
    winner = "first" if results[0] else "second"
    async with other.reading(9) as db:
        record = await repos.get_table(db, table_id)
        assert await repos.actions_for(db, table_id) == [(1, winner, "player")]
    assert record.version == 1 and record.state == winner
    await other.close()


async def test_a_players_dm_channel_is_kept_per_server_replaced_and_forgotten(storage_backend):
    """Migration 003: the DM channel bot/discord_front/publish.py sends DM hands to."""
    async with storage_backend.transaction(1) as db:
        assert await repos.get_dm_channel(db, 7) is None
        await repos.set_dm_channel(db, 7, 700)
        await repos.set_dm_channel(db, 7, 701)
    async with storage_backend.reading(1) as db:
        assert await repos.get_dm_channel(db, 7) == 701
    async with storage_backend.reading(2) as db:
        assert await repos.get_dm_channel(db, 7) is None  # another server's rows are its own
    async with storage_backend.transaction(1) as db:
        await repos.set_dm_channel(db, 7, None)
        assert await repos.get_dm_channel(db, 7) is None
