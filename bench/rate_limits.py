"""The bot under Discord's real rate limits: clicks offered at 1, 2 and 4 times what the
global budget allows, on many tables with pictures, and what Discord would see.

    python bench/rate_limits.py [--tables 300] [--guilds N] [--rates 50,100,200] [--seconds 20]
                                [--drain 15] [--budget 50] [--pacing on,off] [--seed 1]
                                [--pictures on|off] [--enforce-ban] [--processes N] [--pacers postgresql|split]
                                [--profile FILE]

Set-up as bench/load.py's (its tables, games, servers and Show hands; SimCord's clock
standing still meanwhile). Then the world is switched to the real clock
(tests/e2e/standin/realtime.py: the bot's timers, discord.py's waits and the limits all
run on it, as in production) and the stand-in is put between the bot and SimCord
(tests/e2e/standin): every request leaves the bot through discord.py's own
``HTTPClient.request`` or webhook adapter and aiohttp, to a local server that applies
Discord's limits (``--budget`` requests a second on the bot's token, interaction routes
exempt, 5 per 5 s per channel for message writes, Discord's headers and 429 bodies) and
then lets SimCord do the work.

Per offered rate and pacing (``--pacing on,off`` runs each rate with the bot's pacer on,
then off, on the same tables: ``off`` is discord.py's own handling alone, what the bot
did before bot/discord_front/pacing.py), clicks arrive for ``--seconds`` as in
bench/load.py (open loop, Poisson, an idle table each), then ``--drain`` quiet seconds
let the boards catch up. Printed:

- moves/s achieved, and the click's answer p50/p99 (from the click's scheduled time to
  its first answer at Discord: the interaction's callback);
- what Discord saw from the bot's token: requests a second while the clicks came (each
  try counts, a refused one too); global 429s; per-route
  429s (and per 10,000 requests); invalid requests (401, 403, 429) scaled to 10 minutes,
  beside the 10,000 that gets the IP banned, and when in the run that ban would have
  begun (``--enforce-ban``: the stand-in then answers as Discord's edge does);
- board edits given up (the bot's "Could not update the board" after discord.py's tries);
- board lag: per move, from its click's answer to the first board Discord accepted that
  shows that move or a later one ("move N" in the board), p50 / p99, and the moves whose
  board was more than 3 s late (a move never shown by the end of the drain counts, with
  its lag up to then);
- the pacer's own count (requests waited, board edits merged) when it is on;
- at the end: tables whose last board does not show their last move, and moves logged
  twice.

``--processes N``: N bot processes on one token, each with its own SimCord world and
stand-in and its share of the tables, servers and clicks, on one clock; the stand-ins
share one global bucket (Discord counts the token as one), the bots' pacers one budget
row in PostgreSQL (storage/pg_rate.py, as ``pacing.budget_for`` picks it on PostgreSQL;
a throwaway server from tests/pg.py); every rate begins in all of them at once; the
parent prints one table for the token as a whole. ``--profile FILE``: cProfile's
statistics of the clicking phases (FILE.0, FILE.1, ... with several processes).
``--pacers split``: each process's pacer paces alone to its part of the budget (budget ÷
N, no round trip), to tell the shared budget's cost from the pacing's.

Numbers only; nothing is asserted. The machine is usually shared: the load average is
printed at the start and the end. The stand-in's server runs in the bot's process (it
must reach SimCord's world); its CPU, and that of the bench's whole world (SimCord, the
stand-in, building the clicks), are printed apart from the bot's.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import re
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord  # noqa: E402

import load  # noqa: E402  (bench/load.py: its set-up and open-loop run)
from tests.e2e.standin import Exchange, Limits, StandIn, follow_real_time  # noqa: E402

TOKEN = "not-a-real-token"
MOVE_SHOWN = re.compile(r"· move (\d+)")
BOARD_WRITE = re.compile(r"/channels/(\d+)/messages(?:/\d+)?")


@dataclass
class Boards:
    """When each move was made (its click answered) and when Discord first accepted a
    board showing it, per table (its thread's id)."""

    by_place: dict[int, Any] = field(default_factory=dict)  # thread id -> BenchTable
    made: dict[tuple[int, int], float] = field(default_factory=dict)  # (place, version) -> perf_counter
    shown: dict[tuple[int, int], float] = field(default_factory=dict)
    last_shown: dict[int, int] = field(default_factory=dict)  # place -> highest version a board showed
    given_up: int = 0

    def moved(self, place: int, versions: range, at: float) -> None:
        for version in versions:
            self.made.setdefault((place, version), at)

    def saw(self, exchange: Exchange) -> None:
        """A request answered by the stand-in: a board accepted shows its move and every earlier one."""
        if exchange.who != "bot" or exchange.method not in ("POST", "PATCH") or not 200 <= exchange.status < 300:
            return
        match = BOARD_WRITE.fullmatch(exchange.path)
        if match is None or int(match.group(1)) not in self.by_place:
            return
        found = MOVE_SHOWN.findall(str(exchange.body))
        if not found:
            return
        place, version = int(match.group(1)), max(int(v) for v in found)
        now = time.perf_counter()
        for v in range(self.last_shown.get(place, -1) + 1, version + 1):
            self.shown.setdefault((place, v), now)
        self.last_shown[place] = max(self.last_shown.get(place, -1), version)


class GivenUp(logging.Handler):
    """Counts the bot's "Could not update the board" (discord.py's tries spent, or a refusal)."""

    def __init__(self, boards: Boards) -> None:
        super().__init__(logging.WARNING)
        self.boards = boards

    def emit(self, record: logging.LogRecord) -> None:
        if record.getMessage().startswith("Could not update the board"):
            self.boards.given_up += 1


def pct(values: list[float], q: float) -> float:
    return load.pct(values, q)


def pacer_of(bot: Any) -> Any:
    return getattr(bot, "pacer", None)


def pacer_counts(bot: Any) -> Counter[str]:
    pacer = pacer_of(bot)
    return Counter(pacer.totals()) if pacer is not None else Counter()


async def one_rate(env: Any, standin: StandIn, meter: load.Meter, boards: Boards, tables: list[Any], rate: float, args: argparse.Namespace,
                   rng: random.Random, pacing: str) -> dict[str, Any]:
    bot = env.bot
    pacer = pacer_of(bot)
    if pacer is not None:
        pacer.enabled = pacing == "on"
    elif pacing == "on":
        raise SystemExit("--pacing on: this bot has no pacer (bot.pacer); run with --pacing off")
    tally = standin.tally
    before = (tally.requests["bot"], tally.global_429, tally.route_429, tally.invalid, boards.given_up, standin.server.cpu,
              pacer_counts(bot), len(standin.log))
    began = time.perf_counter()
    clicks_began = standin.clock()
    cpu = time.process_time()

    row = await load.run_rate(env, meter, tables, rate, args.seconds, rng)
    for click in load.moves_made(row):  # each click made the move after the version it saw (one click a table at a time)
        boards.moved(click.table.table.record.place, range(click.version + 1, click.version + 2), click.finished)
    await asyncio.sleep(args.drain)  # the boards catch up
    elapsed = time.perf_counter() - began
    answers = load.report(row)
    lags = []
    window_end = time.perf_counter()
    for click in load.moves_made(row):
        key = (click.table.table.record.place, click.version + 1)
        made = boards.made.get(key)
        if made is not None:
            shown = boards.shown.get(key)
            lags.append((shown if shown is not None else window_end) - made)
    sent = tally.requests["bot"] - before[0]
    clicking = [e for e in standin.log[before[7]:] if e.who == "bot" and clicks_began <= e.at <= clicks_began + args.seconds]
    route_429 = tally.route_429 - before[2]
    invalid = tally.invalid - before[3]
    counts = pacer_counts(bot) - before[6]
    kinds = Counter(f"{e.method} {'message' if BOARD_WRITE.fullmatch(e.path) else e.path.split('/')[1]}" for e in clicking)
    out = {
        "pacing": pacing, "rate": rate, "moves/s": answers["achieved"], "p50": answers["p50"], "p99": answers["p99"],
        "sent/s": len(clicking) / args.seconds, "global429": tally.global_429 - before[1], "route429": route_429,
        "route429_per_10k": route_429 / max(1, sent) * 10_000, "invalid_per_10min": invalid / elapsed * 600,
        "given_up": boards.given_up - before[4], "lag50": statistics.median(lags) if lags else float("nan"), "lag99": pct(lags, 0.99),
        "late": sum(1 for lag in lags if lag > 3.0), "moves": len(lags), "standin_cpu": (standin.server.cpu - before[5]) / max(1, len(lags)) * 1000,
        "cpu": (time.process_time() - cpu) / max(1, len(lags)) * 1000, "world_cpu": row.simcord_cpu / max(1, len(lags)) * 1000, "waited": counts.get("waited", 0), "merged": counts.get("merged", 0), "looks": counts.get("looks", 0), "granted": counts.get("granted", 0),
        "longest_wait": counts.get("longest_wait", 0.0),
        "behind": behind_now(boards, {id(c.table): c.table for c in load.moves_made(row)}.values()),
    }
    out["answer_waits"] = [(c.answered - c.due) * 1000 for c in row.clicks if c.answered is not None]
    out["lags"] = lags
    out["elapsed"] = elapsed
    out["sent"] = sent
    ban = f", the ban would have begun {tally.ban_began - standin.clock() + 0:.0f} s ago" if tally.ban_began is not None else ""
    print(f"  {args.tag}pacing {pacing:>3} | {rate:5.0f} clicks/s offered: {out['moves/s']:6.1f} moves/s | answer p50 {out['p50']:6.0f} p99 {out['p99']:6.0f} ms | "
          f"bot token {out['sent/s']:5.1f} req/s | global 429s {out['global429']} | route 429s {route_429} ({out['route429_per_10k']:.1f} per 10k) | "
          f"invalid {out['invalid_per_10min']:,.0f} per 10 min (Discord bans at 10,000){ban} | board edits given up {out['given_up']} | "
          f"board lag p50 {out['lag50']:.2f} p99 {out['lag99']:.2f} s, > 3 s late {out['late']} of {out['moves']} | "
          f"after the drain, tables whose board is behind: {out['behind']} | "
          f"pacer: waited {out['waited']}, merged {out['merged']}, {out['granted'] / max(1, out['looks']):.1f} turns a look of the pump's {out['looks']} | CPU/move {out['cpu']:.1f} ms (the bench's world: SimCord, the stand-in, the clicks "
          f"{out['world_cpu']:.1f}, of it the stand-in's server {out['standin_cpu']:.1f}) | "
          f"bot-token requests a move: {', '.join(f'{n / max(1, len(lags)):.2f} {k}' for k, n in kinds.most_common())}",
          flush=True)
    return out


def behind_now(boards: Boards, tables: Any) -> int:
    """Tables still playing whose last board Discord accepted does not show their last move."""
    return sum(1 for bt in tables if bt.table.status == "playing"
               and boards.last_shown.get(bt.table.record.place, -1) not in (-1, bt.table.record.version))


async def standin_closed(standin: StandIn | None) -> None:
    if standin is not None:
        await standin.close()


def print_table(rows: list[dict[str, Any]]) -> None:
    print("\n| pacing | clicks offered/s | moves/s | answer p99 | bot-token req/s | global 429s | per-route 429s (per 10k) | "
          "edits given up | invalid requests per 10 min | board lag p50 / p99 | boards > 3 s late | boards behind after the drain |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['pacing']} | {r['rate']:.0f} | {r['moves/s']:.1f} | {r['p99']:.0f} ms | {r['sent/s']:.1f} | {r['global429']:,} | "
              f"{r['route429']:,} ({r['route429_per_10k']:.1f}) | {r['given_up']:,} | {r['invalid_per_10min']:,.0f} | "
              f"{r['lag50']:.2f} / {r['lag99']:.2f} s | {r['late']:,} of {r['moves']:,} | {r['behind']} |")


def make_bot(data_dir: Path, budget: float) -> Any:
    """bench/load.py's bot, told the budget the stand-in enforces (older code, run for a
    "before" row, has no such setting)."""
    from bot.discord_front.app import DeckhandBot
    from bot.config import Settings

    extra: dict[str, Any] = {}
    if "requests_per_second" in Settings.__dataclass_fields__:
        extra["requests_per_second"] = int(budget)
    return DeckhandBot(Settings(token=TOKEN, data_dir=data_dir, log_level=logging.WARNING, **extra))


class PostgresBudget:
    """What ``pacing.budget_for`` reads off the bot's storage to share the budget on
    PostgreSQL (its dialect, and ``start()`` giving the pool), for a bench bot whose
    tables stay on SQLite: the pacer asks the same row, the same way, as bots whose
    storage is PostgreSQL."""

    dialect = "postgresql"

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self.pool: Any = None

    async def start(self) -> Any:
        if self.pool is None:
            import asyncpg

            self.pool = asyncio.ensure_future(asyncpg.create_pool(self.dsn, min_size=1, max_size=4))  # made once, for every caller
        return await asyncio.shield(self.pool)

    async def close(self) -> None:
        if self.pool is not None:
            await (await self.pool).close()


async def main_async(args: argparse.Namespace, data_dir: Path) -> None:
    rng = random.Random(args.seed)
    meter = load.Meter()
    meter.install()
    load.lighter_simcord()
    bot = make_bot(data_dir, args.budget)
    trace = bot.http.http_trace  # the bot's own hook into aiohttp (its pacer), before SimCord replaces the client
    boards = Boards()
    bot_log = logging.getLogger("bot")  # the bot's warnings counted, its errors still printed
    bot_log.setLevel(logging.WARNING)
    bot_log.propagate = False
    bot_log.addHandler(GivenUp(boards))
    printed = logging.StreamHandler()
    printed.setLevel(logging.ERROR)
    bot_log.addHandler(printed)
    from cogs.enid import limerick

    limerick.load_dictionary()
    try:
        async with simcord.run(bot) as env:
            env._work.callbacks = load.IdentitySet(env._work.callbacks)
            meter.bot_parses_gateway(bot)
            began = time.perf_counter()
            tables = await load.set_up(env, args.tables, args.guilds, args.pictures)
            env.backend.http_requests.clear()
            env.backend.transcript.clear()
            from bot.discord_front.run import freeze_heap

            freeze_heap()
            together = args.together  # None, or what a process of several on one token shares with the others
            follow_real_time(env, together.origin if together else None)
            standin = StandIn(env, limits=Limits(global_per_second=args.budget, enforce_ban=args.enforce_ban),
                              shared=together.bucket if together else None)
            standin.remember(bot, trace)
            await standin.start()
            standin.server.work = meter.charged(standin.server.work, "simcord")  # the stand-in's work: the bench's, not the bot's
            shared_budget = None
            if together is not None:
                from bot.discord_front import pacing

                if args.pacers == "split":  # each process its part of the budget, counted alone (no round trip)
                    pacer_of(bot).use(pacing.LocalBudget(args.budget / args.processes))
                else:
                    shared_budget = PostgresBudget(together.dsn)
                    pacer_of(bot).use(pacing.budget_for(args.budget, TOKEN, shared_budget))
            standin.server.observers.append(boards.saw)
            boards.by_place = {bt.table.record.place: bt for bt in tables}
            print(f"set-up: {len(tables)} tables in {args.guilds} servers, pictures {args.pictures}, {time.perf_counter() - began:.0f} s; "
                  f"then the real clock and the stand-in (budget {args.budget:g} requests/s on the bot's token)", flush=True)
            rows = []
            profile = None
            if args.profile:
                import cProfile

                profile = cProfile.Profile()
                profile.enable()
            for rate in args.rates:
                for pacing in args.pacing:
                    if together is not None:  # every process's clicks begin together
                        await asyncio.get_running_loop().run_in_executor(None, together.barrier.wait)
                    rows.append(await one_rate(env, standin, meter, boards, tables, rate, args, rng, pacing))
                    if together is not None:
                        together.results.put((together.index, rows[-1]))
            if profile is not None:
                profile.disable()
                profile.dump_stats(args.profile)
            if together is None:
                print_table(rows)
                print(f"load average {load.load_average()}", flush=True)
    finally:
        await standin_closed(locals().get("standin"))
        if locals().get("shared_budget") is not None:
            await locals()["shared_budget"].close()
        await bot.storage.close()


@dataclass
class Together:
    """What one of several bot processes on one token shares with the others: the
    stand-ins' global bucket, the common clock (a date and a monotonic reading), the
    PostgreSQL database of the pacers' shared budget, the barrier every rate starts at,
    and the queue its rows go back on."""

    index: int
    bucket: Any
    origin: tuple[Any, float]
    dsn: str
    barrier: Any
    results: Any


def one_process(args: argparse.Namespace, together: Together) -> None:
    args.together = together
    args.tag = f"[process {together.index}] "
    load.run_in_scratch("rate_limits.py", main_async, args)


def combined(outs: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    """One row for several processes' rows of the same rate (what Discord and the
    players saw of the token as a whole)."""
    waits = [w for o in outs for w in o["answer_waits"]]
    lags = [lag for o in outs for lag in o["lags"]]
    total = {key: sum(o[key] for o in outs) for key in ("moves/s", "sent/s", "global429", "route429", "invalid_per_10min", "given_up",
                                                          "late", "moves", "behind", "waited", "merged", "sent", "looks", "granted")}
    return {**outs[0], **total, "p50": statistics.median(waits) if waits else float("nan"), "p99": pct(waits, 0.99),
            "lag50": statistics.median(lags) if lags else float("nan"), "lag99": pct(lags, 0.99),
            "route429_per_10k": total["route429"] / max(1, total["sent"]) * 10_000,
            "cpu": statistics.mean(o["cpu"] for o in outs), "world_cpu": statistics.mean(o["world_cpu"] for o in outs), "standin_cpu": statistics.mean(o["standin_cpu"] for o in outs)}


def several(args: argparse.Namespace) -> None:
    """``--processes N``: N bot processes, each with its own SimCord world, stand-in and
    share of the tables and clicks, on one token: one global bucket at Discord (the
    stand-ins share it), one budget for the pacers (a PostgreSQL row, storage/pg_rate.py)."""
    import multiprocessing
    from datetime import UTC, datetime, timedelta

    from tests.e2e.standin import SharedBucket
    from tests.pg import PostgresServer

    n = args.processes
    print(f"bench/rate_limits.py: {n} processes on one token; load average {load.load_average()}, {multiprocessing.cpu_count()} CPUs", flush=True)
    server = PostgresServer.start()
    context = multiprocessing.get_context("spawn")
    try:
        dsn = server.create_database("budget")
        bucket, barrier, results = SharedBucket(context), context.Barrier(n), context.Queue()
        # SimCord's worlds begin at 2026-01-01 and their set-up moves them only a little: every
        # world then reads this date plus the real time since now.
        origin = (datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=10), time.monotonic())
        workers = []
        for index in range(n):
            part = argparse.Namespace(**vars(args))
            part.tables = args.tables // n + (index < args.tables % n)
            part.guilds = args.guilds // n + (index < args.guilds % n)
            part.rates = [rate / n for rate in args.rates]
            part.seed = args.seed + index
            part.profile = f"{args.profile}.{index}" if args.profile else None
            together = Together(index, bucket, origin, dsn, barrier, results)
            workers.append(context.Process(target=one_process, args=(part, together)))
        for worker in workers:
            worker.start()
        by_phase: dict[int, list[dict[str, Any]]] = {}
        phases = len(args.rates) * len(args.pacing)
        seen = Counter()
        while len(by_phase) < phases or any(len(v) < n for v in by_phase.values()):
            try:
                index, out = results.get(timeout=30)
            except Exception:
                if not all(w.is_alive() for w in workers):
                    raise SystemExit("a bench process ended early (its output above says why)")
                continue
            by_phase.setdefault(seen[index], []).append(out)
            seen[index] += 1
        for worker in workers:
            worker.join()
        rows = []
        for phase in sorted(by_phase):
            row = combined(by_phase[phase], args.seconds)
            row["rate"] = row["rate"] * n
            rows.append(row)
        print(f"\n{n} processes together, {args.tables} tables, clicks offered at the rates below in all:")
        print_table(rows)
        print(f"load average {load.load_average()}", flush=True)
    finally:
        for worker in locals().get("workers", []):
            if worker.is_alive():  # stopped early (an error, Ctrl-C): the processes stop with the bench
                worker.terminate()
                worker.join(10)
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--guilds", type=int, default=None, help="servers (default: one per table)")
    parser.add_argument("--rates", default="50,100,200", help="clicks offered per second, comma-separated")
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of clicks per rate")
    parser.add_argument("--drain", type=float, default=15.0, help="quiet seconds after each rate, for the boards to catch up")
    parser.add_argument("--budget", type=float, default=50.0, help="the stand-in's global limit (requests a second on the bot's token)")
    parser.add_argument("--pacing", default="on,off", help="on, off, or both in turn (on,off) for each rate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pictures", choices=("on", "off"), default="on")
    parser.add_argument("--enforce-ban", action="store_true", help="answer as Discord's edge does once 10,000 invalid requests were made in 10 minutes")
    parser.add_argument("--processes", type=int, default=1,
                        help="bot processes on one token, each with its share of the tables and clicks (one global bucket at the stand-ins, "
                             "the pacers' budget shared through PostgreSQL)")
    parser.add_argument("--pacers", choices=("postgresql", "split"), default="postgresql",
                        help="with --processes: the pacers share the budget in PostgreSQL (as the bot does), or each paces to its part alone")
    parser.add_argument("--profile", help="write cProfile's statistics of the clicks (every rate, not the set-up) to this file")
    args = parser.parse_args()
    args.rates = [float(r) for r in args.rates.split(",") if r]
    args.pacing = [p for p in args.pacing.split(",") if p]
    if set(args.pacing) - {"on", "off"}:
        parser.error("--pacing: on, off or on,off")
    args.guilds = args.guilds or args.tables
    args.together, args.tag = None, ""
    if args.processes > 1:
        several(args)
    else:
        load.run_in_scratch("rate_limits.py", main_async, args)


if __name__ == "__main__":
    main()
