"""How long /privacy show, export and forget take for a player with a long history, and the
move-log purge of a server (issue 25). Prints numbers; asserts nothing.

    python bench/privacy.py [--games 2000] [--moves 30] [--database-url postgresql://...]

Builds one server with ``--games`` finished two-player games of one player (``--moves``
moves each, half theirs), then times privacy.show, privacy.export (and the JSON's size),
privacy.forget (one transaction: the guild's write lock is held that long), and the purge.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.players import privacy  # noqa: E402
from storage import open_storage, repos  # noqa: E402

A, B = 1456074443980800019, 1456074443980800020
GUILD = 1


async def build(storage, games: int, moves: int) -> None:
    async with storage.transaction(GUILD) as db:
        for n in range(games):
            table = await repos.insert_table(db, game="idiot", channel_id=7, host_id=A, options={}, timer_seconds=60, now=n)
            players = [A, B]
            state = json.dumps({"players": players, "hands": {str(A): ["3h"], str(B): ["4c"]}, "winner": A})
            await repos.update_table(db, table, now=n + 1.0, status="finished", players=players, version=moves, state=state,
                                     recent=[f"<@{A}> played 3h", f"<@{B}> played 4c"])
            for seq in range(1, moves + 1):
                await repos.append_action(db, table, seq, players[seq % 2], f"play:{seq}", "player", n + 0.5)
            await repos.record_results(db, table, "idiot", [[A], [B]], n + 1.0)
        await repos.set_user_setting(db, A, "hands", "dm")


async def timed(label: str, coroutine):
    start = time.perf_counter()
    result = await coroutine
    print(f"{label:<34} {1000 * (time.perf_counter() - start):9.1f} ms")
    return result


async def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        storage = open_storage(Path(folder), args.database_url)
        try:
            start = time.perf_counter()
            await build(storage, args.games, args.moves)
            print(f"{storage.dialect}: {args.games} games x {args.moves} moves built in {time.perf_counter() - start:.1f} s")

            async def show():
                async with storage.reading(GUILD) as db:
                    return await privacy.show(db, A)

            async def export():
                async with storage.reading(GUILD) as db:
                    return await privacy.export(db, A, GUILD, 0.0)

            async def forget():
                async with storage.transaction(GUILD) as db:
                    return await privacy.forget(db, A, 0.0)

            async def purge():
                async with storage.reading(GUILD) as db:
                    before = await privacy.moves_to_purge(db, 1e12)
                async with storage.transaction(GUILD) as db:
                    return await privacy.purge_moves(db, before)

            await timed("/privacy show", show())
            data = await timed("/privacy export (build the data)", export())
            print(f"{'export JSON size':<34} {len(json.dumps(data, indent=1)) / 1024:9.1f} KiB")
            await timed("/privacy forget (one transaction)", forget())
            deleted = await timed("move-log purge (everything due)", purge())
            print(f"{'moves deleted':<34} {deleted:9d}")
        finally:
            await storage.close()


if __name__ == "__main__":
    asyncio.run(main())
