"""Moves per second and p50/p99 per move through the table manager, with 1 vs 2
processes, SQLite vs PostgreSQL, over many concurrent tables (issue 13).

    python bench/multiprocess.py [--tables 100] [--guilds 50] [--seconds 5] [--database-url URL] [--no-postgres]

A move here is the whole platform path of a click minus Discord: the table's lock,
the version read a shared process makes first (``_sync``), the rules' ``apply``
(Blackjack, 4 players, random legal moves), the version-guarded commit, the owner's
timers re-armed, and the note on the bus. Publishing is stubbed (no Discord). A
finished game is replaced by a new one at once.

Rows (each process is a ``TableManager`` with its own connections and bus, as in
tests/multiprocess; both live in this one OS process, so they share one CPU: the
rows show the cost of the cross-process protocol, not a parallel speed-up; for
storage across real OS processes see bench/storage_backends.py):

- ``1 process``: one manager owns every shard (on SQLite: today's lone process, no
  version reads; with DATABASE_URL it reads versions, as other processes may exist);
- ``2 processes, at owner``: the guilds split by shard, each move reaches the process
  that owns the guild (guild clicks);
- ``2 processes, alternating``: every other move of a table reaches the other process
  (a DM-hand player's clicks at shard 0): that process reloads its stale copy first,
  and the owner reloads on the notification.

``stale`` counts moves not made: refused as stale by the version check, or a table
the process could not load just then.

Numbers only, never asserted. Compare rows of one run: the machine's load shows.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.bus import bus_for  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.core.games import GameRegistry, GameSpec  # noqa: E402
from bot.discord_front.tables import TableManager  # noqa: E402
from bot.discord_front.tables.moves import _SaveFailed  # noqa: E402
from cogs.blackjack import render  # noqa: E402
from cogs.blackjack.rules import HOUSE_RULES, BlackjackGame  # noqa: E402
from storage import open_storage, repos  # noqa: E402

SPEC = GameSpec(game=BlackjackGame, render=render, house_rules=HOUSE_RULES)
PLAYERS = [101, 102, 103, 104]


class _Bot:
    """What the manager reads from a bot when nothing is published."""

    restore_task = None


def manager(data_dir: Path, url: str | None, shard_ids: tuple[int, ...]) -> TableManager:
    games = GameRegistry()
    games.add(SPEC)
    settings = Settings(token="x", data_dir=data_dir, log_level=logging.WARNING, database_url=url, shard_count=2, shard_ids=shard_ids)
    m = TableManager(_Bot(), open_storage(data_dir, url), games, settings=settings, bus=bus_for(url, str(data_dir)))  # type: ignore[arg-type]

    async def publish(*_args, **_kwargs) -> None:
        return None

    m.publisher.publish = publish  # type: ignore[method-assign]
    return m


async def new_table(storage, guild: int, channel: int, seed: int) -> int:
    state = BlackjackGame.new(PLAYERS, {}, seed=str(seed))
    async with storage.transaction(guild) as db:
        table = await repos.insert_table(db, game="blackjack", channel_id=channel, host_id=PLAYERS[0], options={}, timer_seconds=120, now=time.time())
        await repos.update_table(db, table, now=time.time(), status="playing", players=PLAYERS, seed=str(seed), state=state.to_json(), version=0, deadline=time.time() + 120)
    return table


async def lookup(m: TableManager, guild: int, table_id: int):
    """The process's copy, else loaded from the database (a new game, or one held elsewhere)."""
    table = m.registry.tables.get((guild, table_id))
    if table is None:
        async with m.storage.reading(guild) as db:
            record = await repos.get_table(db, table_id)
        table = await m.restorer.load_elsewhere(guild, record)
    return table


async def run(label: str, url: str | None, processes: int, alternate: bool, tables: int, guilds: int, seconds: float) -> str:
    data_dir = Path(tempfile.mkdtemp(prefix="deckhand-bench-mp-"))
    shard_sets = [(0, 1)] if processes == 1 else [(0,), (1,)]
    managers = [manager(data_dir, url, s) for s in shard_sets]
    if processes == 1 and url is None:
        managers[0].shared = False  # the default lone process: what SQLite users run today
    for m in managers:
        await m.listen()
    setup = managers[0].storage
    keys: list[list[int]] = []
    for n in range(tables):
        guild = (1 + n % guilds) << 22  # shard (1 + n % guilds) % 2: half the guilds on each shard
        keys.append([guild, await new_table(setup, guild, 1000 + n, n)])
    owner = {g: next(m for m in managers if m.owns(g)) for g, _ in keys}
    latencies: list[float] = []
    stale = 0
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    rng = random.Random(1)

    async def player(slot: int) -> None:
        nonlocal stale
        turn = 0
        while loop.time() < end:
            guild, table_id = keys[slot]
            m = owner[guild]
            if alternate and turn % 2:
                m = next(x for x in managers if x is not owner[guild])
            turn += 1
            began = loop.time()
            table = await lookup(m, guild, table_id)
            if table is None:  # could not be loaded just now (the database busy under this load)
                stale += 1
                await asyncio.sleep(0)
                continue
            async with table.lock:
                await m.sync.sync(table)
                if table.state is None or table.status != "playing":
                    keys[slot][1] = await new_table(setup, guild, 1000 + slot, rng.randrange(1 << 30))
                    continue
                (who, *_) = sorted(table.state.current_players())
                action = rng.choice(table.state.legal_actions(who))
                try:
                    outcome = await m.moves.apply(table, who, action, source="player", synced=True)
                except _SaveFailed:
                    stale += 1
                    continue
                await m.clicks.after_move(table, outcome)
            latencies.append(loop.time() - began)
            if outcome.over:
                keys[slot][1] = await new_table(setup, guild, 1000 + slot, rng.randrange(1 << 30))

    start = loop.time()
    await asyncio.gather(*(player(i) for i in range(tables)))
    elapsed = loop.time() - start
    for m in managers:
        await m.close()
        await m.storage.close()
    latencies.sort()
    p = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000  # noqa: E731
    return (f"{label:<11} {processes} process{'es' if processes > 1 else '  '}{', alternating' if alternate else (', at owner   ' if processes > 1 else '             ')}"
            f" {len(latencies) / elapsed:8.0f} moves/s  p50 {p(0.5):6.1f} ms  p99 {p(0.99):7.1f} ms"
            f"  mean {statistics.fmean(latencies) * 1000 if latencies else 0:6.1f} ms  stale {stale}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--guilds", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--database-url", default=None, help="an existing, empty PostgreSQL database (default: start one)")
    parser.add_argument("--no-postgres", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    backends: list[tuple[str, str | None]] = [("SQLite", None)]
    server = None
    if not args.no_postgres:
        url = args.database_url
        if url is None:
            try:
                from tests.pg import NoPostgres, PostgresServer
            except ImportError:
                NoPostgres = PostgresServer = None  # type: ignore[assignment,misc]
            if PostgresServer is not None:
                try:
                    server = PostgresServer.start(durable=True)
                except NoPostgres as error:
                    print(f"PostgreSQL skipped: {error}")
        backends.append(("PostgreSQL", url))
    print(f"{args.tables} concurrent tables over {args.guilds} guilds, {args.seconds:g} s per row, Blackjack with 4 players")
    for name, url in backends:
        for processes, alternate in ((1, False), (2, False), (2, True)):
            if name == "PostgreSQL" and url is None:
                if server is None:
                    break
                dsn = server.create_database()
            else:
                dsn = url
            print(await run(name, dsn, processes, alternate, args.tables, args.guilds, args.seconds), flush=True)
    if server is not None:
        server.stop()


if __name__ == "__main__":
    asyncio.run(main())
