"""Several bot processes on one token: Discord's global budget shared through PostgreSQL.

    python bench/shared_budget.py [--processes 2] [--budget 50] [--offered 50 | A,B,...] [--seconds 10]
                                  [--modes shared,alone,split] [--database-url URL]

Each process is what one ``python -m bot`` process is to Discord's REST API: discord.py's
own ``HTTPClient`` (its buckets, its 429 handling, aiohttp) with the bot's pacer
(bot/discord_front/pacing.py) handed in as ``http_trace``, the same token. They send
board edits (``PATCH /channels/{id}/messages/{id}``, spread over 2,000 channels so no
channel's own bucket is in the way), each ``--offered`` a second (one number for all, or
one a process: play is seldom spread evenly over shards; open loop, Poisson), for
``--seconds``, all at once, to the stand-in's server in another process
(tests/e2e/standin: Discord's global limit of ``--budget`` a second on the token, its
headers and 429s; a canned answer instead of SimCord's world). Modes:

- ``shared``: each pacer asks one row of PostgreSQL before every request
  (storage/pg_rate.py), what the bot does when DATABASE_URL is PostgreSQL;
- ``alone``: each paces itself to the whole budget (what several processes would do
  with no shared budget);
- ``split``: each paces itself to its share (budget / processes), the static split.

Printed per mode: what Discord saw (requests a second accepted, global 429s, invalid
requests scaled to 10 minutes), each process's share, the pacer's wait per request
(p50 / p99, from the call to the request going out), the shared budget's look-up (one
PostgreSQL round trip, p50 / p99), and each process's CPU per request.

PostgreSQL is a throwaway server (tests/pg.py) unless ``--database-url`` names one.
Numbers only; the load average is printed at the start and the end.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

TOKEN = "not-a-real-token"
CHANNELS = 2000


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))] if values else float("nan")


# ------------------------------------------------------------------ Discord's side


class CannedWorld:
    """Discord's answers without a simulated world: the bot user, and an edited message."""

    def dispatch(self, method: str, path: str, *, json_body: Any, params: Any, files: Any, reason: Any) -> tuple[int, Any]:
        if path == "/users/@me":
            return 200, {"id": "1", "username": "deckhand", "discriminator": "0", "avatar": None, "bot": True}
        parts = path.strip("/").split("/")
        return 200, {"id": parts[-1], "channel_id": parts[1] if len(parts) > 1 else "0", "content": (json_body or {}).get("content")}

    def message_created(self, channel_id: int, message_id: int) -> float | None:
        return None


def serve(budget: float, ports: Any, commands: Any, results: Any) -> None:
    """The stand-in in a process of its own; answers "tally" with what it saw since the last."""
    from tests.e2e.standin import Faults, Limits
    from tests.e2e.standin.limits import DiscordLimits
    from tests.e2e.standin.server import StandInServer

    async def main() -> None:
        limits = DiscordLimits(Limits(global_per_second=budget), clock=time.time)
        server = StandInServer(CannedWorld(), limits, Faults(time.time))
        await server.start()
        ports.put(server.port)
        loop = asyncio.get_running_loop()
        while True:
            command = await loop.run_in_executor(None, commands.get)
            if command == "stop":
                break
            log, server.log = server.log, []
            limits.set(Limits(global_per_second=budget))  # a fresh bucket for the next mode
            results.put({"accepted": [e.at for e in log if e.who == "bot" and e.status == 200],
                         "global_429": sum(1 for e in log if e.scope == "global"),
                         "invalid": sum(1 for e in log if e.status in (401, 403, 429) and e.scope != "shared")})
        await server.close()

    asyncio.run(main())


# ------------------------------------------------------------------ one bot process


def process(index: int, mode: str, args: Any, base: str, dsn: str | None, start_at: float, results: Any) -> None:
    from discord.http import HTTPClient, Route

    from bot.discord_front.pacing import LocalBudget, Pacer

    async def main() -> dict[str, Any]:
        import asyncpg

        Route.BASE = base
        rate = args.budget / args.processes if mode == "split" else args.budget
        local = LocalBudget(rate)
        pool = None
        looks: list[float] = []
        if mode == "shared":
            from bot.discord_front.pacing import pace_for
            from storage.pg_rate import SharedRate, budget_name

            pool = await asyncpg.create_pool(dsn, min_size=1, max_size=2)

            async def pool_of() -> Any:
                return pool

            budget: Any = SharedRate(pool_of, budget_name(TOKEN), rate, *pace_for(rate), clock=time.time, fallback=local)
            take = budget.try_take

            async def timed_take() -> float:
                began = time.perf_counter()
                try:
                    return await take()
                finally:
                    looks.append(time.perf_counter() - began)

            budget.try_take = timed_take
            lease = budget.lease

            async def timed_lease(count: int, ahead: float) -> tuple[list[float], float]:  # the pacer's pump asks for all its line at once
                began = time.perf_counter()
                try:
                    return await lease(count, ahead)
                finally:
                    looks.append(time.perf_counter() - began)

            budget.lease = timed_lease
        else:
            budget = local
        pacer = Pacer(budget)
        http = HTTPClient(asyncio.get_running_loop(), http_trace=pacer.trace_config)
        await http.static_login(TOKEN)
        rng = random.Random(index)
        waits: list[float] = []
        statuses: list[int] = []

        async def edit(n: int) -> None:
            channel = rng.randrange(CHANNELS) + 10_000
            route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=channel, message_id=channel + 1)
            began = time.perf_counter()
            try:
                await http.request(route, json={"content": f"move {n}"})
                statuses.append(200)
            except Exception as error:  # discord.py gave up (its tries spent on 429s)
                statuses.append(getattr(error, "status", 0))
            waits.append(time.perf_counter() - began)

        await asyncio.sleep(max(0.0, start_at - time.time()))
        cpu = time.process_time()
        tasks = []
        due = time.perf_counter()
        end = due + args.seconds
        n = 0
        while True:
            due += rng.expovariate(args.offered[index % len(args.offered)])
            if due >= end:
                break
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            tasks.append(asyncio.create_task(edit(n)))
            n += 1
        await asyncio.gather(*tasks)
        cpu = time.process_time() - cpu
        totals = pacer.totals()
        await http.close()
        await pacer.close()
        if pool is not None:
            await pool.close()
        return {"index": index, "sent": totals["sent"], "made": n, "given_up": sum(1 for s in statuses if s != 200), "waits": waits,
                "looks": looks, "cpu": cpu}

    results.put(asyncio.run(main()))


# ------------------------------------------------------------------ main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--budget", type=float, default=50.0, help="Discord's global limit on the token, requests a second")
    parser.add_argument("--offered", default="50", help="requests a second each process wants to send (one number, or one a process)")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--modes", default="shared,alone,split")
    parser.add_argument("--database-url", help="an empty PostgreSQL database (default: a throwaway server, tests/pg.py)")
    args = parser.parse_args()
    args.offered = [float(x) for x in args.offered.split(",") if x]
    modes = [m for m in args.modes.split(",") if m]
    print(f"bench/shared_budget.py: load average {load_average()}, {os.cpu_count()} CPUs; {args.processes} processes, "
          f"budget {args.budget:g}/s, {'/'.join(f'{x:g}' for x in args.offered)}/s offered by each, {args.seconds:g} s a mode", flush=True)
    server_pg = None
    dsn = args.database_url
    if "shared" in modes and not dsn:
        from tests.pg import PostgresServer

        server_pg = PostgresServer.start()
        dsn = server_pg.create_database("budget")
    context = multiprocessing.get_context("spawn")
    ports, commands, tallies, results = context.Queue(), context.Queue(), context.Queue(), context.Queue()
    server = context.Process(target=serve, args=(args.budget, ports, commands, tallies), daemon=True)
    server.start()
    rows = []
    try:
        base = f"http://127.0.0.1:{ports.get(timeout=60)}/api/v10"
        for mode in modes:
            start_at = time.time() + 3.0
            workers = [context.Process(target=process, args=(i, mode, args, base, dsn, start_at, results)) for i in range(args.processes)]
            for worker in workers:
                worker.start()
            outs = sorted((results.get(timeout=args.seconds + 300) for _ in workers), key=lambda r: r["index"])
            for worker in workers:
                worker.join()
            commands.put("tally")
            seen = tallies.get(timeout=60)
            accepted = sorted(seen["accepted"])
            span = (accepted[-1] - accepted[0]) if len(accepted) > 1 else 1.0
            waits = [w for out in outs for w in out["waits"]]
            looks = [w for out in outs for w in out["looks"]]
            row = {
                "mode": mode, "accepted/s": (len(accepted) - 1) / span if len(accepted) > 1 else 0.0, "global_429": seen["global_429"],
                "invalid_per_10min": seen["invalid"] / args.seconds * 600,
                "shares": ", ".join(f"{out['sent'] / max(1, sum(o['sent'] for o in outs)):.0%}" for out in outs),
                "given_up": sum(out["given_up"] for out in outs),
                "wait50": pct(waits, 0.5) * 1000, "wait99": pct(waits, 0.99) * 1000,
                "look50": pct(looks, 0.5) * 1000 if looks else float("nan"), "look99": pct(looks, 0.99) * 1000 if looks else float("nan"),
                "cpu": sum(out["cpu"] for out in outs) / max(1, sum(out["sent"] for out in outs)) * 1000,
            }
            rows.append(row)
            print(f"  {mode:>6}: Discord accepted {row['accepted/s']:.1f}/s (budget {args.budget:g}) | global 429s {row['global_429']} | "
                  f"invalid {row['invalid_per_10min']:,.0f} per 10 min | share of each process {row['shares']} | given up {row['given_up']} | "
                  f"call p50 {row['wait50']:.0f} p99 {row['wait99']:.0f} ms | budget look-up p50 {row['look50']:.2f} p99 {row['look99']:.2f} ms | "
                  f"CPU/request {row['cpu']:.2f} ms", flush=True)
    finally:
        commands.put("stop")
        server.join(timeout=10)
        if server.is_alive():
            server.kill()
        if server_pg is not None:
            server_pg.stop()
    print("\n| mode | Discord accepted/s | global 429s | invalid per 10 min | share of each process | call p50 / p99 | budget look-up p50 / p99 | CPU per request |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['mode']} | {r['accepted/s']:.1f} | {r['global_429']} | {r['invalid_per_10min']:,.0f} | {r['shares']} | "
              f"{r['wait50']:.0f} / {r['wait99']:.0f} ms | {r['look50']:.2f} / {r['look99']:.2f} ms | {r['cpu']:.2f} ms |")
    print(f"load average {load_average()}", flush=True)


if __name__ == "__main__":
    main()
