"""Storage under load: start-up time against guild files, per-move latency with
many active tables, and the throughput ceiling at a rising offered load.

    python bench/storage_load.py [--quick] [--data-dir DIR] [--max-open N]

Moves are driven through ``storage.Storage`` directly, not SimCord (SimCord's
simulated Discord and its settling loop would be the bottleneck, not the
database). A move is what the core's ``Moves.commit`` (bot/core/moves.py) writes for a player's move: under
the table's asyncio lock, one transaction that appends the action and updates the
table row (state snapshot of about 2 KB, version, deadline, recent lines...), WAL
with the bot's ``synchronous=NORMAL``. Latency runs from the move's scheduled arrival to its
COMMIT, so queueing counts. Arrivals are evenly spaced at the offered rate and
pick a random table.

1. Start-up: N guild files (100, 1,000, 5,000; 20 of them with an unfinished table),
   then a new ``Storage`` lists the guilds to restore (the index) and reads their
   unfinished rows, as ``Restorer.restore_all`` (bot/discord_front/tables/restore.py) does before it touches Discord.
   "no index" is the first start after an upgrade, which opens every file once.
2. Per move p50/p99 with 1,000 active tables over 50 and over 1,000 guilds at 150/s.
3. Throughput ceiling: 300 tables in 300 guilds, offered 50 to 300 moves/s.

Numbers only: nothing here asserts a timing. Files go to --data-dir (a temporary
directory on the working disk by default).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from storage import repos  # noqa: E402
from storage.db import DEFAULT_MAX_OPEN, Storage, pool_budget  # noqa: E402

STATE = json.dumps({"hands": {str(p): ["9h", "Ts", "Qd", "2c", "As"] * 8 for p in range(4)}, "pile": ["Kh"] * 120, "turn": 0})


def template_file(directory: Path) -> Path:
    """One migrated guild file, copied for every guild (creating 5,000 by hand is slow)."""
    async def build() -> Path:
        storage = Storage(directory / "template")
        await storage.probe(1)
        await storage.close()
        return storage.path_for(1)

    path = asyncio.run(build())
    with sqlite3.connect(path) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


def make_guilds(data_dir: Path, template: Path, guilds: int, tables_per_guild: dict[int, int]) -> dict[int, list[int]]:
    """Guild files 1..guilds; tables_per_guild says which get unfinished tables."""
    guild_dir = data_dir / "guilds"
    guild_dir.mkdir(parents=True, exist_ok=True)
    for guild in range(1, guilds + 1):
        shutil.copyfile(template, guild_dir / f"{guild}.sqlite3")
    tables: dict[int, list[int]] = {}

    async def fill() -> None:
        storage = Storage(data_dir)
        (data_dir / "active").mkdir(exist_ok=True)
        (data_dir / "active" / ".built").touch()
        for guild, count in tables_per_guild.items():
            async with storage.transaction(guild) as db:
                for n in range(count):
                    table = await repos.insert_table(db, game="blackjack", channel_id=1000 + n, host_id=7, options={}, timer_seconds=120, now=time.time())
                    await repos.update_table(db, table, now=time.time(), status="playing", players=[7, 8], seed="1", state=STATE, version=0)
                    tables.setdefault(guild, []).append(table)
        await storage.close()

    asyncio.run(fill())
    return tables


async def restore_like(data_dir: Path, max_open: int) -> tuple[float, int]:
    start = time.perf_counter()
    storage = Storage(data_dir, max_open=max_open)
    rows = 0
    for guild in await storage.active_guilds():
        async with storage.reading(guild) as db:
            for row in await repos.active_rows(db):
                repos.TableRecord.from_row(row)
                rows += 1
    elapsed = time.perf_counter() - start
    await storage.close()
    return elapsed, rows


def bench_startup(base: Path, template: Path, sizes: list[int], max_open: int) -> None:
    print("Start-up: list and read the unfinished tables (20 guilds have one each)")
    for size in sizes:
        data_dir = base / f"startup-{size}"
        make_guilds(data_dir, template, size, {g: 1 for g in range(1, size + 1, max(1, size // 20))})
        with_index, rows = asyncio.run(restore_like(data_dir, max_open))
        shutil.rmtree(data_dir / "active")
        no_index, _ = asyncio.run(restore_like(data_dir, max_open))
        again, _ = asyncio.run(restore_like(data_dir, max_open))
        print(f"  {size:>5} guild files: {with_index * 1000:8.1f} ms with the index ({rows} tables); "
              f"first start without an index {no_index:6.2f} s (builds it); next start {again * 1000:6.1f} ms")
        shutil.rmtree(data_dir)


async def drive(data_dir: Path, tables: dict[int, list[int]], rate: float, seconds: float, max_open: int) -> tuple[float, float, float, int]:
    storage = Storage(data_dir, max_open=max_open)
    keys = [(g, t) for g, ts in tables.items() for t in ts]
    locks = {k: asyncio.Lock() for k in keys}
    versions = dict.fromkeys(keys, 0)
    latencies: list[float] = []
    rng = random.Random(1)
    loop = asyncio.get_running_loop()

    async def move(key: tuple[int, int], due: float) -> None:
        guild, table = key
        async with locks[key]:
            versions[key] += 1
            version = versions[key]
            now = time.time()
            async with storage.transaction(guild) as db:
                await repos.append_action(db, table, version, 7, "play:9h", "player", now)
                await repos.update_table(db, table, now=now, status="playing", state=STATE, version=version, deadline=now + 120,
                                         strikes={}, recent=["a line"] * 6, obligations={})
        latencies.append(loop.time() - due)

    tasks = []
    start = loop.time()
    total = int(rate * seconds)
    for n in range(total):
        due = start + n / rate
        delay = due - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(move(rng.choice(keys), due)))
    await asyncio.gather(*tasks)
    elapsed = loop.time() - start
    await storage.close()
    latencies.sort()
    p50 = statistics.median(latencies)
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    return total / elapsed, p50, p99, len(latencies)


def bench_moves(base: Path, template: Path, guilds: int, tables: int, rate: float, seconds: float, max_open: int) -> None:
    data_dir = base / f"moves-{guilds}"
    per_guild = {g: tables // guilds for g in range(1, guilds + 1)}
    made = make_guilds(data_dir, template, guilds, per_guild)
    achieved, p50, p99, n = asyncio.run(drive(data_dir, made, rate, seconds, max_open))
    print(f"  {tables} tables over {guilds:>4} guilds at {rate:.0f}/s offered: {achieved:6.1f} moves/s, "
          f"p50 {p50 * 1000:7.1f} ms, p99 {p99 * 1000:7.1f} ms ({n} moves)")
    shutil.rmtree(data_dir)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes and shorter runs")
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--max-open", type=int, default=DEFAULT_MAX_OPEN, help="the MAX_OPEN_DATABASES cap")
    args = parser.parse_args()
    max_open = pool_budget(args.max_open)
    base = Path(tempfile.mkdtemp(prefix="deckhand-storage-", dir=args.data_dir or Path.cwd()))
    try:
        print(f"Pool: {max_open} connections (cap {args.max_open}, within the file-handle limit)")
        template = template_file(base)
        bench_startup(base, template, [100, 1000] if args.quick else [100, 1000, 5000], max_open)
        seconds = 4 if args.quick else 10
        print("Per move, 1,000 active tables:")
        for guilds in (50, 1000):
            bench_moves(base, template, guilds, 1000, 150, seconds, max_open)
        print("Throughput, 300 tables in 300 guilds:")
        for rate in (50, 100, 150, 200, 250, 300):
            bench_moves(base, template, 300, 300, rate, seconds, max_open)
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
