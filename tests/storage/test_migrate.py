"""``deckhand migrate``: SQLite files into PostgreSQL, idempotent, never overwriting."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from storage import repos
from storage.db import Storage
from storage.pg import PostgresStorage
from storage.transfer import copy_guilds

ROOT = Path(__file__).resolve().parents[2]


async def fill(data_dir: Path, guild_id: int, channel_id: int) -> tuple[int, int]:
    """A finished game with results and a session, and an unfinished one; returns their ids."""
    storage = Storage(data_dir)
    async with storage.transaction(guild_id) as db:
        done = await repos.insert_table(db, game="toy", channel_id=channel_id, host_id=1, options={"h": 1}, timer_seconds=60, now=1.0)
        await repos.append_action(db, done, 1, 1, "play", "player", 2.0)
        await repos.update_table(db, done, now=3.0, status="finished", players=[1, 2], version=1, seed="abc")
        await repos.record_results(db, done, "toy", [[1], [2]], 3.0)
        await repos.set_carryover(db, channel_id, "toy", {"chain": 3}, 3.0)
        await repos.set_guild_setting(db, "turn_timer", 45)
        await repos.set_user_setting(db, 2, "hand", "dm")
        open_id = await repos.insert_table(db, game="toy", channel_id=channel_id, host_id=2, options={}, timer_seconds=90, now=4.0)
        await repos.update_table(db, open_id, now=5.0, status="playing", players=[2, 1], state='{"turn":2}', deadline=65.5)
    await storage.close()
    return done, open_id


async def snapshot(storage, guild_id: int, table_ids: list[int]) -> tuple:
    async with storage.reading(guild_id) as db:
        return (
            [await repos.get_table(db, t) for t in table_ids],
            await repos.actions_for(db, table_ids[0]),
            [(s.user_id, s.played, s.wins) for s in await repos.leaderboard(db, "toy")],
            await repos.get_guild_setting(db, "turn_timer"),
            await repos.get_user_setting(db, 2, "hand"),
            await repos.active_table_ids(db),
        )


async def test_guilds_are_copied_whole_then_left_alone(tmp_path, postgres_dsn):
    data_dir = tmp_path / "data"
    ids_a = await fill(data_dir, 10, 100)
    ids_b = await fill(data_dir, 11, 100)
    assert ids_a == ids_b  # per-file ids: the same numbers in both servers

    done, refused = await copy_guilds(data_dir, postgres_dsn, None)
    assert refused == [] and [(o.guild_id, o.copied) for o in done] == [(10, True), (11, True)]
    assert done[0].rows["game_tables"] == 2 and done[0].rows["actions"] == 1

    sqlite, postgres = Storage(data_dir), PostgresStorage(postgres_dsn)
    for guild, ids in ((10, ids_a), (11, ids_b)):
        assert await snapshot(postgres, guild, list(ids)) == await snapshot(sqlite, guild, list(ids))
    assert await postgres.active_guilds() == [10, 11]
    async with postgres.reading(10) as db:
        assert await repos.get_carryover(db, 100, "toy") == {"chain": 3}

    # Twice: nothing changes.
    done, refused = await copy_guilds(data_dir, postgres_dsn, [10, 11])
    assert refused == [] and [o.copied for o in done] == [False, False]
    assert "nothing changed" in done[0].describe()
    for guild, ids in ((10, ids_a), (11, ids_b)):
        assert await snapshot(postgres, guild, list(ids)) == await snapshot(sqlite, guild, list(ids))

    # New tables in PostgreSQL get ids past every copied one.
    async with postgres.transaction(12) as db:
        fresh = await repos.insert_table(db, game="toy", channel_id=5, host_id=1, options={}, timer_seconds=60, now=9.0)
    assert fresh > max(ids_a)
    await sqlite.close()
    await postgres.close()


async def test_a_guild_with_other_data_in_postgresql_is_refused(tmp_path, postgres_dsn):
    data_dir = tmp_path / "data"
    ids = await fill(data_dir, 20, 7)
    await copy_guilds(data_dir, postgres_dsn, [20])
    postgres = PostgresStorage(postgres_dsn)
    before = await snapshot(postgres, 20, list(ids))
    # The server played on in PostgreSQL; its old file differs now.
    async with postgres.transaction(20) as db:
        await repos.set_guild_setting(db, "turn_timer", 30)
    done, refused = await copy_guilds(data_dir, postgres_dsn, [20])
    assert done == [] and len(refused) == 1
    assert "already has different data" in refused[0] and "nothing was copied or overwritten" in refused[0]
    after = await snapshot(postgres, 20, list(ids))
    assert after[0] == before[0] and after[3] == 30
    await postgres.close()


async def test_a_server_without_a_file_is_named_and_others_go_on(tmp_path, postgres_dsn):
    data_dir = tmp_path / "data"
    await fill(data_dir, 30, 7)
    done, refused = await copy_guilds(data_dir, postgres_dsn, [31, 30])
    assert [o.guild_id for o in done] == [30]
    assert refused == [f"Server 31: there is no SQLite database at {data_dir / 'guilds' / '31.sqlite3'}; nothing copied."]


def run_cli(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATA_DIR")}
    full_env.update(env, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bot", "migrate", *args], env=full_env, cwd=cwd,
                          capture_output=True, text=True, timeout=120)


async def test_the_command_copies_and_reports(tmp_path, postgres_dsn):
    data_dir = tmp_path / "data"
    await fill(data_dir, 40, 7)
    env = {"DATA_DIR": str(data_dir), "DATABASE_URL": postgres_dsn}
    first = run_cli("--all", env=env, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert "Server 40: copied" in first.stdout and "1 server(s) copied, 0 already there, 0 not copied." in first.stdout
    second = run_cli("40", env=env, cwd=tmp_path)
    assert second.returncode == 0 and "already in PostgreSQL with the same data" in second.stdout
    missing = run_cli("41", env=env, cwd=tmp_path)
    assert missing.returncode == 1 and "Server 41: there is no SQLite database" in missing.stderr
    usage = run_cli("not-a-number", env=env, cwd=tmp_path)
    assert usage.returncode == 2 and "Usage: deckhand migrate" in usage.stderr
    unset = run_cli("40", env={"DATA_DIR": str(data_dir)}, cwd=tmp_path)
    assert unset.returncode == 2 and "set DATABASE_URL" in unset.stderr
