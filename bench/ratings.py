"""Ratings at scale (issue 25): one server with 100,000 finished games.

    python bench/ratings.py [--games 100000] [--players 300] [--game idiot] [--data-dir DIR] [--database-url URL]

Builds one guild's database (SQLite by default; PostgreSQL with --database-url) holding
--games finished tables of --game with their results (2 to 6 seats, now and then an easy
or hard computer, one in twenty a stalemate), written straight into the tables, then
measures through the same code the bot runs:

1. a full ratings recompute as /leaderboard runs it (``recompute_guild``: read, replay in a
   worker thread, one write transaction), each phase timed, and the process's peak RSS
   (with --tracemalloc also the peak of Python allocations, about ten times slower); then
   ``recompute(db)`` inside one transaction;
2. ``/leaderboard``'s reads (top ten, the caller's row and place) for a listed player,
   repeated: median and p99;
3. ``/profile``'s reads and picture for the busiest player (history, rivals, the PNG);
4. one more finished game rated incrementally (``record_game``), as the end of a game does.

Numbers only: nothing here asserts a timing.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import shutil
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.pictures import rating_chart
from bot.players import ratings  # noqa: E402
from storage import open_storage, repos  # noqa: E402

GUILD = 1
EASY, HARD = -201, -301


def placements(rng: random.Random, people: list[int]) -> list[list[int]]:
    seats = rng.randint(2, 6)
    seated = rng.sample(people, seats)
    if rng.random() < 0.15:
        seated[-1] = rng.choice((EASY, HARD))
    # Players have a hidden skill, so the ratings have something to find.
    seated.sort(key=lambda p: -(rng.gauss(0, 1) + (p % 7) / 3 if p > 0 else rng.gauss(0.3, 1)))
    if rng.random() < 0.05:
        return [seated]
    return [[p] for p in seated]


async def build(storage, game: str, games: int, players: int, seed: int) -> None:
    rng = random.Random(seed)
    people = list(range(1000, 1000 + players))
    chunk = 2000
    now = 1_700_000_000.0
    for start in range(0, games, chunk):
        async with storage.transaction(GUILD) as db:
            tables, results = [], []
            for n in range(start, min(games, start + chunk)):
                table_id = n + 1
                at = now + n * 60.0
                groups = placements(rng, people)
                count = sum(len(g) for g in groups)
                tables.append((table_id, game, 10, groups[0][0] if groups[0][0] > 0 else 1000, "finished", "[]", at, at))
                for place, group in enumerate(groups, start=1):
                    results.extend((table_id, game, user, place, count, at) for user in group)
            await repos.insert_many(db, "game_tables", ("id", "game", "channel_id", "host_id", "status", "players", "created_at", "updated_at"), tables)
            await repos.insert_many(db, "results", ("table_id", "game", "user_id", "place", "players", "finished_at"), results)


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(args: argparse.Namespace) -> None:
    directory = Path(args.data_dir or tempfile.mkdtemp(prefix="deckhand-ratings-"))
    storage = open_storage(directory, args.database_url)
    try:
        backend = "PostgreSQL" if args.database_url else "SQLite"
        started = time.perf_counter()
        await build(storage, args.game, args.games, args.players, args.seed)
        print(f"{backend}: built {args.games:,} finished {args.game} games, {args.players} players, in {time.perf_counter() - started:.1f} s")

        # The replay as /leaderboard runs it (ratings.recompute_guild), phase by phase.
        rss_before = rss_mb()
        if args.tracemalloc:
            tracemalloc.start()
        started = time.perf_counter()
        async with storage.reading(GUILD) as db:
            feed = await repos.rating_feed(db, args.game, ratings.source_of(args.game))
        read = time.perf_counter()
        result = await asyncio.to_thread(ratings.replay, args.game, feed)
        replayed = time.perf_counter()
        async with storage.transaction(GUILD) as db:
            assert await repos.results_mark(db, args.game, ratings.source_of(args.game)) == ratings._mark(feed)
            rated = await ratings._write_replay(db, args.game, result)
        written = time.perf_counter()
        peak = tracemalloc.get_traced_memory()[1] if args.tracemalloc else None
        tracemalloc.stop()
        print(f"full recompute (recompute_guild): {rated:,} rated games, {len(result[2]):,} history rows in {written - started:.2f} s: "
              f"read {read - started:.2f} s, replay {replayed - read:.2f} s ({(replayed - read) / max(rated, 1) * 1e6:.0f} µs a game, "
              f"worker thread), write transaction {written - replayed:.2f} s")
        print(f"memory: process peak RSS {rss_before:.0f} MiB before, {rss_mb():.0f} MiB after"
              + (f"; peak of Python allocations {peak / 2**20:.1f} MiB (tracemalloc: times above are inflated)" if peak else ""))
        del feed, result
        started = time.perf_counter()
        async with storage.transaction(GUILD) as db:
            await ratings.recompute(db, args.game)
        print(f"recompute(db) inside one transaction: {time.perf_counter() - started:.2f} s")

        async with storage.reading(GUILD) as db:
            top = await repos.top_ratings(db, args.game, ratings.MIN_GAMES, 10)
        caller = top[-1].user_id
        times = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            async with storage.reading(GUILD) as db:
                await repos.top_ratings(db, args.game, ratings.MIN_GAMES, 10)
                mine = (await repos.ratings_of(db, args.game, [caller]))[caller]
                await repos.rating_place(db, args.game, mine, ratings.MIN_GAMES)
            times.append((time.perf_counter() - started) * 1000)
        print(f"/leaderboard reads ({args.repeat} times): median {statistics.median(times):.2f} ms, p99 {pct(times, 0.99):.2f} ms")

        async with storage.reading(GUILD) as db:
            busiest = max((await repos.top_ratings(db, args.game, 0, 10_000)), key=lambda r: r.played)
        times, draw = [], []
        for _ in range(max(1, args.repeat // 10)):
            started = time.perf_counter()
            async with storage.reading(GUILD) as db:
                await repos.player_ratings(db, busiest.user_id)
                history = await repos.rating_history_of(db, args.game, busiest.user_id)
                await repos.rivals(db, args.game, busiest.user_id, ratings.source_of(args.game))
            times.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            png = rating_chart.draw("bench", [h[1] for h in history])
            draw.append((time.perf_counter() - started) * 1000)
        print(f"/profile reads for the busiest player ({busiest.played:,} rated games): median {statistics.median(times):.1f} ms, "
              f"p99 {pct(times, 0.99):.1f} ms; picture ({len(png) // 1024} KiB) median {statistics.median(draw):.1f} ms (in a worker thread)")

        rng = random.Random(args.seed + 1)
        times = []
        for n in range(args.repeat // 10 or 1):
            groups = placements(rng, list(range(1000, 1000 + args.players)))
            at = 1_700_000_000.0 + (args.games + n + 1) * 60.0
            started = time.perf_counter()
            async with storage.transaction(GUILD) as db:
                table_id = await repos.insert_table(db, game=args.game, channel_id=10, host_id=1000, options={}, timer_seconds=60, now=at)
                await repos.update_table(db, table_id, now=at, status="finished")
                await repos.record_results(db, table_id, args.game, groups, at)
                await ratings.record_game(db, args.game, table_id, groups, at)
            times.append((time.perf_counter() - started) * 1000)
        print(f"a finished game's results and rating, one transaction: median {statistics.median(times):.2f} ms, p99 {pct(times, 0.99):.2f} ms")
    finally:
        await storage.close()
        if not args.data_dir:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--game", default="idiot")
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--tracemalloc", action="store_true", help="also trace the replay's Python allocations (about 10x slower)")
    parser.add_argument("--data-dir")
    parser.add_argument("--database-url")
    asyncio.run(main(parser.parse_args()))
