"""SHARD_COUNT / SHARD_IDS, the shard-ownership function, the refusal of several
processes on one DATA_DIR of SQLite files, and the bus."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.core import computer
from bot.discord_front.app import DeckhandBot, ShardedDeckhandBot, claim_data_dir, create_bot
from bot.bus import LocalBus, PostgresBus, TableChange, bus_for
from bot.config import ConfigError, Settings, shard_of

ROOT = Path(__file__).resolve().parents[2]
PG = "postgresql://u:p@db/deckhand"


def settings(**env: str) -> Settings:
    return Settings.from_env({"DISCORD_TOKEN": "abc", **env})


def test_no_shard_settings_is_one_unsharded_process_owning_everything():
    s = settings()
    assert s.shard_count is None and s.shard_ids is None and s.runs_every_shard
    assert s.owns(None) and s.owns(1 << 22) and isinstance(create_bot(s), DeckhandBot)


def test_shard_count_and_ids_are_parsed_sorted():
    s = settings(SHARD_COUNT="4", SHARD_IDS=" 3, 1 ", DATABASE_URL=PG)
    assert s.shard_count == 4 and s.shard_ids == (1, 3) and not s.runs_every_shard
    assert settings(SHARD_COUNT="2").shard_ids is None  # every shard in this process
    assert settings(SHARD_COUNT="2", SHARD_IDS="0,1").runs_every_shard  # SQLite is fine: one process has them all


@pytest.mark.parametrize(
    ("env", "words"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_IDS is set but SHARD_COUNT is not"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT '0' must be a whole number of at least 1"),
        ({"SHARD_COUNT": "two"}, "SHARD_COUNT 'two'"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,2", "DATABASE_URL": PG}, "from 0 to 1 separated by commas"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0;1", "DATABASE_URL": PG}, "separated by commas"),
        ({"SHARD_COUNT": "3", "SHARD_IDS": "1,1", "DATABASE_URL": PG}, "lists shard 1 twice"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, "set DATABASE_URL to a PostgreSQL database"),
    ],
)
def test_bad_shard_settings_are_refused_with_a_sentence(env, words):
    with pytest.raises(ConfigError) as refused:
        settings(**env)
    assert words in str(refused.value)


def test_shard_of_is_discords_formula_and_dms_go_to_shard_zero():
    assert shard_of(None, 4) == 0
    for shard in range(4):
        guild = (123456 << 22) + (shard << 22)
        assert shard_of(guild, 4) == (123456 + shard) % 4
    assert shard_of(41771983423143937, 1) == 0
    s = settings(SHARD_COUNT="2", SHARD_IDS="1", DATABASE_URL=PG)
    assert s.owns(1 << 22) and not s.owns(2 << 22) and not s.owns(None)  # a DM belongs to shard 0's process


def test_sharded_settings_build_an_auto_sharded_bot_over_those_shards():
    bot = create_bot(settings(SHARD_COUNT="4", SHARD_IDS="2,3", DATABASE_URL=PG))
    assert isinstance(bot, ShardedDeckhandBot)
    assert bot.shard_count == 4 and list(bot.shard_ids) == [2, 3]
    assert isinstance(bot.tables.bus, PostgresBus) and bot.tables.shared
    lone = create_bot(settings(SHARD_COUNT="2"))
    assert isinstance(lone, ShardedDeckhandBot) and lone.shard_ids is None and not lone.tables.shared


def test_a_second_process_on_one_sqlite_data_dir_is_refused(tmp_path):
    claim_data_dir(tmp_path)
    claim_data_dir(tmp_path)  # bots in one process share the claim
    script = (
        "import sys; from pathlib import Path; from bot.discord_front.app import claim_data_dir; from bot.config import ConfigError\n"
        f"try:\n    claim_data_dir(Path({str(tmp_path)!r}))\nexcept ConfigError as e:\n    print(e); sys.exit(3)\n"
    )
    other = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert other.returncode == 3, other.stderr
    assert "Another Deckhand process is already running on the data directory" in other.stdout
    assert "set DATABASE_URL to a PostgreSQL database" in other.stdout


def test_computer_players_are_scheduled_only_by_the_owner(monkeypatch):
    started = []
    monkeypatch.setattr(computer, "_play", lambda manager, table: started.append(table) or asyncio.sleep(0))
    seat = computer.computer_id("easy", 1)
    # A game without an AI module: no rituals owed out of turn, only the current seat moves.
    state = SimpleNamespace(key="no-such-game", players=[seat], is_over=lambda: False, current_players=lambda: frozenset({seat}))
    table = SimpleNamespace(guild_id=1 << 22, id=1, state=state, status="playing", computer=None)

    async def run():
        for shard_ids, expected in (((0,), 0), ((1,), 1)):
            s = settings(SHARD_COUNT="2", SHARD_IDS=",".join(map(str, shard_ids)), DATABASE_URL=PG)
            computer.schedule(SimpleNamespace(owns=s.owns), table)
            assert len(started) == expected
            if table.computer is not None:
                await table.computer

    asyncio.run(run())


def test_bus_messages_round_trip_and_bad_ones_are_ignored():
    change = TableChange(5 << 22, 7, 12, "abc")
    assert TableChange.decode(change.encode()) == change
    assert TableChange.decode("{not json") is None and TableChange.decode('{"g": 1}') is None
    assert isinstance(bus_for(None, "x"), LocalBus) and isinstance(bus_for(PG, "x"), PostgresBus)


async def test_local_bus_reaches_the_others_not_the_sender():
    heard: dict[str, list[TableChange]] = {"a": [], "b": [], "c": []}
    buses = {name: LocalBus("shared") for name in ("a", "b")}
    buses["c"] = LocalBus("elsewhere")
    for name, bus in buses.items():
        async def on_change(change, name=name):
            heard[name].append(change)

        await bus.start(on_change, lambda: asyncio.sleep(0))
    await buses["a"].publish(1, 2, 3)
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert heard["a"] == [] and heard["c"] == [] and [(c.table_id, c.version) for c in heard["b"]] == [(2, 3)]
    for bus in buses.values():
        await bus.close()


async def test_postgres_bus_delivers_between_connections(postgres_dsn):
    sender, receiver = PostgresBus(postgres_dsn), PostgresBus(postgres_dsn)
    got: asyncio.Queue[TableChange] = asyncio.Queue()
    resynced = []

    async def on_change(change):
        await got.put(change)

    async def on_resync():
        resynced.append(True)

    await receiver.start(on_change, on_resync)
    await sender.start(on_change, on_resync)
    try:
        await sender.publish(9 << 22, 4, 2)
        change = await asyncio.wait_for(got.get(), 10)
        assert (change.guild_id, change.table_id, change.version, change.origin) == (9 << 22, 4, 2, sender.origin)
        assert got.empty()  # the sender did not hear itself
        # The receiver's connection drops: it reconnects and resynchronises.
        await receiver._connection.close()
        receiver._lost(None)
        await asyncio.wait_for(receiver._reconnect, 10)
        assert resynced == [True]
        await sender.publish(9 << 22, 4, 3)
        assert (await asyncio.wait_for(got.get(), 10)).version == 3
    finally:
        await sender.close()
        await receiver.close()
