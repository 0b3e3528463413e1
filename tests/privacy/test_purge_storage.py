"""Deleting a server's data on both backends (issue 25): ``python -m bot purge <id>``,
the departure record the grace period is counted from, and the privacy queries that
must run unchanged on SQLite and PostgreSQL."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from bot.players import privacy
from storage import open_storage, repos
from storage.purge import cancel_departure, departures, guilds_with_data, purge_guild, record_departure

ROOT = Path(__file__).resolve().parents[2]
A, B = 1456074443980800019, 1456074443980800020  # Discord-sized ids


async def fill(storage, guild_id: int) -> int:
    """A finished game of A and B with moves, results, a setting and an Enid session."""
    async with storage.transaction(guild_id) as db:
        table = await repos.insert_table(db, game="toy", channel_id=7, host_id=A, options={}, timer_seconds=60, now=1.0)
        await repos.update_table(db, table, now=3.0, status="finished", players=[A, B], version=2,
                                 state=f'{{"players":[{A},{B}],"winner":{A}}}', recent=[f"<@{A}> played 3h", f"<@{B}> played 2c"])
        await repos.append_action(db, table, 1, A, "3h", "player", 2.0)
        await repos.append_action(db, table, 2, B, "2c", "player", 2.5)
        await repos.record_results(db, table, "toy", [[A], [B]], 3.0)
        await repos.set_user_setting(db, A, "hands", "dm")
        await repos.set_guild_setting(db, "turn_timer", 45)
        await repos.set_carryover(db, 7, "enid", {"chain": [{"words": ["jam"], "author": A, "heard_by": [A, B]}]}, 3.0)
    return table


async def counts(storage, guild_id: int) -> dict[str, int]:
    out = {}
    async with storage.reading(guild_id) as db:
        for table in ("game_tables", "actions", "results", "user_settings", "guild_settings", "carryover"):
            async with db.execute(f"SELECT COUNT(*) FROM {table}") as cursor:
                out[table] = (await cursor.fetchone())[0]
    return out


def run_cli(*args: str, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    full_env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DATA_DIR")}
    full_env.update(env, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bot", "purge", *args], env=full_env, cwd=cwd, capture_output=True, text=True, timeout=120)


async def test_privacy_on_both_backends(storage_backend):
    """Export, forget and the move-log purge: the same queries on SQLite and PostgreSQL."""
    storage = storage_backend
    await fill(storage, 10)
    async with storage.reading(10) as db:
        shown = dict(await privacy.show(db, A))
        data = await privacy.export(db, A, 10, 5.0)
    assert set(shown) == {"Your settings", "Your moves", "Your results", "Names you added to Enid's chain", "Games you played"}
    assert [m["move"] for m in data["moves"]] == ["3h"] and data["games"][0]["seats"] == ["you", "seat 2"]
    assert str(B) not in str(data)
    async with storage.transaction(10) as db:
        assert await privacy.forget(db, A, 6.0) == {"toy", "enid"}
    async with storage.reading(10) as db:
        assert await privacy.show(db, A) == []
        places = {r["user_id"]: r["place"] for r in await _results(db)}
        assert places == {privacy.former_id(0): 1, B: 2}
        assert (await repos.get_table(db, 1)).host_id == privacy.former_id(0)
        assert (await repos.get_carryover(db, 7, "enid"))["chain"][0] == {"words": ["jam"], "author": None, "heard_by": [privacy.former_id(0), B]}
        assert [s.user_id for s in await repos.leaderboard(db, "toy")] == [B]
    # Move logs: kept 90 days after the game ended, then deleted; results stay.
    async with storage.reading(10) as db:
        assert await privacy.moves_to_purge(db, 3.0 + 89 * privacy.DAY) is None
        before = await privacy.moves_to_purge(db, 3.0 + 91 * privacy.DAY)
    async with storage.transaction(10) as db:
        assert await privacy.purge_moves(db, before) == 2
    assert (await counts(storage, 10))["actions"] == 0 and (await counts(storage, 10))["results"] == 2


async def _results(db):
    async with db.execute("SELECT user_id, place FROM results") as cursor:
        return await cursor.fetchall()


async def test_departures_and_purge_on_both_backends(storage_backend):
    storage = storage_backend
    await fill(storage, 20)
    await fill(storage, 21)
    assert set(await guilds_with_data(storage)) == {20, 21}
    await record_departure(storage, 20, 1000.0)
    assert await departures(storage) == {20: 1000.0}
    assert await cancel_departure(storage, 20) and not await cancel_departure(storage, 20)
    assert await departures(storage) == {}
    await record_departure(storage, 20, 1000.0)
    said = await purge_guild(storage, 20)
    assert "Deleted server 20" in said
    assert await departures(storage) == {}
    assert set((await counts(storage, 20)).values()) == {0}
    assert (await counts(storage, 21))["results"] == 2  # the other server is untouched


async def test_purge_command_sqlite(tmp_path):
    data_dir = tmp_path / "data"
    storage = open_storage(data_dir)
    await fill(storage, 30)
    await fill(storage, 31)
    await storage.close()
    env = {"DATA_DIR": str(data_dir)}
    done = run_cli("30", env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Deleted server 30's database" in done.stdout
    assert not (data_dir / "guilds" / "30.sqlite3").exists() and (data_dir / "guilds" / "31.sqlite3").exists()
    again = run_cli("30", env=env, cwd=tmp_path)
    assert again.returncode == 0 and "There was no database for server 30" in again.stdout
    usage = run_cli("３0", env=env, cwd=tmp_path)  # a full-width digit is not an id
    assert usage.returncode == 2 and "Usage: python -m bot purge" in usage.stderr


def test_purge_command_refuses_while_the_bot_runs(tmp_path):
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; from bot.discord_front.app import claim_data_dir;"
         " claim_data_dir(Path(sys.argv[1])); print('held', flush=True); time.sleep(60)", str(data_dir)],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        refused = run_cli("30", env={"DATA_DIR": str(data_dir)}, cwd=tmp_path)
    finally:
        holder.kill()
        holder.wait()
    assert refused.returncode == 2 and "Stop it first" in refused.stderr


async def test_purge_command_postgres(tmp_path, postgres_dsn):
    storage = open_storage(tmp_path / "data", postgres_dsn)
    await fill(storage, 40)
    await fill(storage, 41)
    await storage.close()
    done = run_cli("40", env={"DATABASE_URL": postgres_dsn, "DATA_DIR": str(tmp_path / "data")}, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Deleted server 40's" in done.stdout
    storage = open_storage(tmp_path / "data", postgres_dsn)
    try:
        assert set((await counts(storage, 40)).values()) == {0}
        assert (await counts(storage, 41))["game_tables"] == 1
    finally:
        await storage.close()
