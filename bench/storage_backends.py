"""Moves per second and p99 per move, SQLite vs PostgreSQL, 1 vs 2 processes, in one run.

    python bench/storage_backends.py [--quick] [--tables N] [--guilds N] [--seconds S]
                                     [--rate R] [--database-url URL]

A move is what the core's ``Moves.commit`` (bot/core/moves.py) writes for a player's move: under the
table's asyncio lock, one transaction that appends the action and updates the
table row (a state snapshot of about 2 KB, version, deadline, recent lines...)
with the optimistic version check several processes need
(``update_table_at_version``). Moves are driven through the storage interface directly
(no SimCord), on both backends with the bot's settings: SQLite WAL with
``synchronous=NORMAL`` (a commit survives the process crashing, not a power loss:
no fsync per commit); PostgreSQL with fsync and synchronous commits on.

For each backend, and for 1 and 2 processes (each process owns half the guilds,
as two shard processes would, and has its own pool):

- saturation: every table has a player moving back to back, with no pause: the
  moves/s is the ceiling, p50/p99 include the queueing;
- offered load: moves arrive evenly at ``--rate``/s on random tables: p50/p99 at
  the same load for both backends.

PostgreSQL is a server this script starts (tests/pg.py: Debian's postgresql
programs, a temporary folder, a unix socket) unless ``--database-url`` names one
(its database is used as is: give it an empty one). Numbers only: nothing here
asserts a timing. The machine's other load shows in them: compare the rows of one run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from storage import open_storage, repos  # noqa: E402
from storage.db import StorageError  # noqa: E402

STATE = json.dumps({"hands": {str(p): ["9h", "Ts", "Qd", "2c", "As"] * 8 for p in range(4)}, "pile": ["Kh"] * 120, "turn": 0})


def storage_for(backend: str, data_dir: Path, url: str | None):
    return open_storage(data_dir, url if backend == "postgresql" else None)


async def create_tables(backend: str, data_dir: Path, url: str | None, guilds: int, tables: int) -> dict[int, list[int]]:
    storage = storage_for(backend, data_dir, url)
    made: dict[int, list[int]] = {}
    for n in range(tables):
        guild = 1 + n % guilds
        async with storage.transaction(guild) as db:
            table = await repos.insert_table(db, game="blackjack", channel_id=1000 + n, host_id=7, options={}, timer_seconds=120, now=time.time())
            await repos.update_table(db, table, now=time.time(), status="playing", players=[7, 8], seed="1", state=STATE, version=0)
        made.setdefault(guild, []).append(table)
    await storage.close()
    return made


async def drive(backend: str, data_dir: Path, url: str | None, tables: dict[int, list[int]], mode: str, rate: float, seconds: float) -> tuple[list[float], float, int, int]:
    """Run moves for ``seconds``; returns (latencies of the saved moves, elapsed, stale writes,
    moves refused as busy)."""
    storage = storage_for(backend, data_dir, url)
    keys = [(g, t) for g, ts in tables.items() for t in ts]
    locks = {k: asyncio.Lock() for k in keys}
    versions = {}
    for guild, table in keys:  # where the previous row left them (this also opens the connections)
        async with storage.reading(guild) as db:
            versions[(guild, table)] = (await repos.get_table(db, table)).version
    latencies: list[float] = []
    stale = busy = 0
    loop = asyncio.get_running_loop()

    async def move(key: tuple[int, int], due: float) -> None:
        nonlocal stale, busy
        guild, table = key
        async with locks[key]:
            version = versions[key]
            now = time.time()
            try:
                async with storage.transaction(guild) as db:
                    await repos.append_action(db, table, version + 1, 7, "play:9h", "player", now)
                    ok = await repos.update_table_at_version(db, table, version, now=now, status="playing", state=STATE,
                                                  version=version + 1, deadline=now + 120, strikes={}, recent=["a line"] * 6, obligations={})
            except StorageError:
                busy += 1  # the player would read "busy, nothing changed"
                return
            if ok:
                versions[key] = version + 1
            else:
                stale += 1
        latencies.append(loop.time() - due)

    start = loop.time()
    end = start + seconds
    if mode == "saturation":
        async def player(key: tuple[int, int]) -> None:
            while loop.time() < end:
                await move(key, loop.time())

        await asyncio.gather(*(player(k) for k in keys))
    else:
        rng = random.Random(1)
        tasks = []
        for n in range(int(rate * seconds)):
            due = start + n / rate
            delay = due - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(move(rng.choice(keys), due)))
        await asyncio.gather(*tasks)
    elapsed = loop.time() - start
    await storage.close()
    return latencies, elapsed, stale, busy


def _child(args: tuple) -> tuple[list[float], float, int, int]:
    return asyncio.run(drive(*args))


def run(backend: str, data_dir: Path, url: str | None, tables: dict[int, list[int]], processes: int, mode: str, rate: float, seconds: float) -> str:
    guilds = sorted(tables)
    shares = [{g: tables[g] for g in guilds[i::processes]} for i in range(processes)]
    jobs = [(backend, data_dir, url, share, mode, rate / processes, seconds) for share in shares]
    if processes == 1:
        results = [_child(jobs[0])]
    else:
        with multiprocessing.get_context("spawn").Pool(processes) as pool:
            results = pool.map(_child, jobs)
    latencies = sorted(x for r in results for x in r[0])
    elapsed = max(r[1] for r in results)
    stale = sum(r[2] for r in results)
    busy = sum(r[3] for r in results)
    p50 = statistics.median(latencies)
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    note = (f", {stale} stale" if stale else "") + (f", {busy} refused as busy" if busy else "")
    return f"{len(latencies) / elapsed:8.1f} moves/s   p50 {p50 * 1000:7.1f} ms   p99 {p99 * 1000:7.1f} ms   ({len(latencies)} moves{note})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs")
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables (default 200)")
    parser.add_argument("--guilds", type=int, default=100, help="guilds they are spread over (default 100)")
    parser.add_argument("--seconds", type=float, default=None, help="per measurement (default 8, --quick 3)")
    parser.add_argument("--rate", type=float, default=100.0, help="offered moves/s for the fixed-load rows (default 100)")
    parser.add_argument("--database-url", default=None, help="an existing, empty PostgreSQL database (default: start one)")
    args = parser.parse_args()
    seconds = args.seconds or (3 if args.quick else 8)
    base = Path(tempfile.mkdtemp(prefix="deckhand-bench-"))
    server = None
    url = args.database_url
    try:
        if url is None:
            from tests.pg import NoPostgres, PostgresServer

            try:
                server = PostgresServer.start(durable=True)
            except NoPostgres as error:
                print(f"PostgreSQL: {error}; only SQLite is measured.")
            else:
                url = server.create_database("bench")
        backends = ["sqlite"] + (["postgresql"] if url else [])
        print(f"{args.tables} tables over {args.guilds} guilds, {seconds:g} s per row; durable commits on both backends")
        for backend in backends:
            data_dir = base / backend
            tables = asyncio.run(create_tables(backend, data_dir, url, args.guilds, args.tables))
            for processes in (1, 2):
                print(f"  {backend:<10} {processes} process{'es' if processes > 1 else '  '}  saturation:      "
                      + run(backend, data_dir, url, tables, processes, "saturation", args.rate, seconds))
                print(f"  {backend:<10} {processes} process{'es' if processes > 1 else '  '}  at {args.rate:4.0f}/s offered: "
                      + run(backend, data_dir, url, tables, processes, "offered", args.rate, seconds))
    finally:
        if server is not None:
            server.stop()
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
