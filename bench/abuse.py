"""One member abusing one thing at a time, over a background of normal play, under
Discord's rate limits (issue 40): what the abuser gets, what it costs the bot's global
budget, and what the other servers feel.

    python bench/abuse.py [--tables 200] [--background 25] [--seconds 25] [--drain 10]
                          [--abuses all|new_cancel:20,new_cancel:60,...] [--budget 50] [--seed 1]
                          [--pictures on|off] [--profile FILE]

Set-up as bench/rate_limits.py's (bench/load.py's tables, one server each, on SimCord's
clock standing still), plus one server per abuse with its abuser (a member of their
own, so one abuse's share does not carry into the next): 50 channels for ``/idiot new``
then ``/cancel``; a lobby opened by someone else for typed ``/join`` and ``/leave``; an
Idiot game the abuser plays with their hands in DMs (Show hand), another with hands
shown in the channel (Show hand on the board); and 30 rated games of history for
``/profile`` (its chart). Then the real clock and the stand-in between the bot and
SimCord (tests/e2e/standin: ``--budget`` requests a second on the bot's token,
interaction routes exempt, 5 writes per 5 s per channel).

Each phase runs ``--background`` clicks a second of normal play on the tables (bench/
load.py's open loop) for ``--seconds``, the first with nothing else ("background
alone"), each next one with one abuse at its rate (``name:rate``; the issue's table:
new_cancel at 20, 60 and 100 commands a second, dm_show_hand 20/s, join_leave 10/s,
show_refresh 50/s, profile 20/s), its commands and clicks emitted as Discord's gateway
delivers them (open loop, evenly spaced), then ``--drain`` quiet seconds. Printed per
phase:

- the abuser's answers: answered (a deferral or a refusal counts) of asked, p50 and p99
  from the command's emission to its first answer, and how many were answered past 3 s
  (Discord shows "This interaction failed" for those);
- extra bot-token requests a second: what Discord saw from the bot's token for the
  abuser (to their server's channels and threads, and their DMs) from the abuse's start
  to the drain's end, per second of abuse;
  beside it, everything the bot's token sent less the background alone's (on a loaded
  machine the abuse's CPU slows the background's own moves, so this can go below 0);
- global 429s; invalid requests (401, 403, 429) scaled to 10 minutes;
- the other servers' board lag p99 (per background move, from its click's answer to the
  first board Discord accepted that shows it, as bench/rate_limits.py measures it);
- requests waiting in the pacer's line when the abuse stops; the refusals of the shares
  (when the code has them); the main thread's CPU seconds a second, and the whole
  process's (its drawing and database threads too: /profile draws in a thread);
- for join_leave: whether the lobby message shows the lobby's players once the drain is
  over (newest state) .

Numbers only; nothing is asserted. Run it on the old code by copying this file into
its tree (it reads only what both have). The machine is usually shared: the load
average is printed at the start and the end.
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import simcord  # noqa: E402
from simcord import actors as sim_actors  # noqa: E402
from simcord import interactions as sim_interactions  # noqa: E402
from simcord.http import router  # noqa: E402

import load  # noqa: E402
import rate_limits  # noqa: E402
from tests.e2e.standin import Limits, StandIn, follow_real_time  # noqa: E402

APPLICATION_COMMAND = 2
CHANNEL = re.compile(r"/channels/(\d+)")
CHANNELS = 50  # the abuser's lobbies spread over this many channels
ALL = "new_cancel:20,new_cancel:60,new_cancel:100,dm_show_hand:20,join_leave:10,show_refresh:50,profile:20"


@dataclass
class Asked:
    """The abuser's interactions: when each was emitted and first answered (perf_counter)."""

    sent: dict[int, float] = field(default_factory=dict)
    answered: dict[int, float] = field(default_factory=dict)
    kinds: dict[int, int] = field(default_factory=dict)  # the first answer's callback type

    def install(self) -> None:
        original = router.dispatch

        def seen(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            if path.startswith("/interactions/") and path.endswith("/callback"):
                interaction = int(path.split("/")[2])
                if interaction in self.sent and interaction not in self.answered:
                    self.answered[interaction] = time.perf_counter()
                    self.kinds[interaction] = (kwargs.get("json") or {}).get("type")
            return original(backend, method, path, **kwargs)

        router.dispatch = seen

    def emitted(self, record: Any) -> None:
        self.sent[record.id] = time.perf_counter()


def command_data(member: Any, channel: Any, name: str, **options: Any) -> dict[str, Any]:
    """A slash command's interaction data, as SimCord's ``slash`` builds it."""
    parts = name.split()
    root = sim_actors._resolve_visible_command(member, channel.id, parts[0], 1)
    leaf, nesting = sim_interactions.walk_to_subcommand(root, parts[1:])
    leaf_options, resolved = sim_interactions.build_options(member, name, leaf, options, channel_id=channel.id)
    data: dict[str, Any] = {"id": root["id"], "name": root["name"], "type": root.get("type", 1),
                            "options": sim_interactions.nest_options(root, nesting, leaf_options)}
    if resolved:
        data["resolved"] = resolved
    if root.get("guild_id"):
        data["guild_id"] = root["guild_id"]
    return data


def emit_command(env: Any, guild_id: int, member: Any, channel: Any, data: dict[str, Any]) -> Any:
    """One slash command, as Discord's gateway delivers it, without waiting for the bot."""
    backend = env.backend
    record, payload = sim_interactions.base_payload(backend, type=APPLICATION_COMMAND, channel_id=channel.id, guild_id=guild_id,
                                                    user_id=member.id, data=data)
    env._notify_dispatch_observers(record)
    backend.emit("INTERACTION_CREATE", payload)
    return record


@dataclass
class Abuser:
    """One abuse's server, member and what they click or type, in order."""

    name: str
    guild: Any
    member: Any
    steps: list[Any]  # callables (env) -> interaction record, taken in turn
    lobby: tuple[Any, Any] | None = None  # (channel, table) of join_leave


async def idiot_table(env: Any, guild: Any, channel: Any, players: list[Any], hands_in_dm: bool) -> Any:
    if hands_in_dm:
        await players[0].slash(channel, "settings hands", where="dm")
    lobby = (await players[0].slash(channel, "idiot new")).response.message
    for m in players[1:]:
        await m.click(lobby, label="Join")
    await players[0].click(lobby, label="Start")
    await load.until(lambda: channel.threads and env.bot.tables.active_in_channel(guild.id, channel.threads[-1].id) is not None
                     and env.bot.tables.active_in_channel(guild.id, channel.threads[-1].id).record.message_id is not None, "the board")
    table = env.bot.tables.active_in_channel(guild.id, channel.threads[-1].id)
    bt = load.BenchTable("idiot", guild, channel, {}, table)
    await load.until(lambda: load.board_of(env, bt) is not None, "the board message")
    return bt


async def set_up_abusers(env: Any, names: list[str]) -> dict[str, Abuser]:
    observer = load.light_settling(env)
    made: dict[str, Abuser] = {}
    for n, name in enumerate(dict.fromkeys(names)):
        guild = env.create_guild()
        abuser = guild.add_member(env.create_user(f"abuser{n}"))
        kind = name.split(":")[0]
        if kind == "new_cancel":
            channels = [guild.create_text_channel(f"lobby-{i}") for i in range(CHANNELS)]
            new = [command_data(abuser, c, "idiot new") for c in channels]
            cancel = [command_data(abuser, c, "cancel") for c in channels]
            steps = [(lambda env, c=c, d=d, g=guild.id, a=abuser: emit_command(env, g, a, c, d)) for c, d in zip(channels, new)]
            steps += [(lambda env, c=c, d=d, g=guild.id, a=abuser: emit_command(env, g, a, c, d)) for c, d in zip(channels, cancel)]
            made[name] = Abuser(name, guild, abuser, steps)
        elif kind == "join_leave":
            channel = guild.create_text_channel("lobby")
            host = guild.add_member(env.create_user(f"host{n}"))
            await host.slash(channel, "idiot new")
            table = env.bot.tables.active_in_channel(guild.id, channel.id)
            join, leave = command_data(abuser, channel, "join"), command_data(abuser, channel, "leave")
            steps = [lambda env, g=guild.id, a=abuser, c=channel: emit_command(env, g, a, c, join),
                     lambda env, g=guild.id, a=abuser, c=channel: emit_command(env, g, a, c, leave)]
            made[name] = Abuser(name, guild, abuser, steps, lobby=(channel, table))
        elif kind in ("dm_show_hand", "show_refresh"):
            channel = guild.create_text_channel("game")
            friends = [guild.add_member(env.create_user(f"friend{n}x{i}")) for i in range(2)]
            bt = await idiot_table(env, guild, channel, [abuser, *friends], hands_in_dm=kind == "dm_show_hand")

            def show(env: Any, bt: Any = bt, g: int = guild.id, a: int = abuser.id) -> Any:
                board = load.board_of(env, bt)
                return load.emit_click(env, g, a, board, load.show_hand_data(board))

            made[name] = Abuser(name, guild, abuser, [show])
        elif kind == "profile":
            channel = guild.create_text_channel("profile")
            friend = guild.add_member(env.create_user(f"rival{n}"))
            from bot.players import ratings

            async with env.bot.storage.transaction(guild.id) as db:
                for game in range(30):
                    placements = [[abuser.id], [friend.id]] if game % 3 else [[friend.id], [abuser.id]]
                    await ratings.record_game(db, "idiot", 100_000 + game, placements, time.time() - 3600 + game)
            data = command_data(abuser, channel, "profile", game="idiot")
            made[name] = Abuser(name, guild, abuser, [lambda env, g=guild.id, a=abuser, c=channel, d=data: emit_command(env, g, a, c, d)])
        else:
            raise SystemExit(f"unknown abuse {kind!r}: new_cancel, dm_show_hand, join_leave, show_refresh, profile")
    env._dispatch_observers.remove(observer)
    return made


async def abuse(env: Any, abuser: Abuser, rate: float, seconds: float, asked: Asked) -> int:
    """The abuser's steps in turn, ``rate`` a second for ``seconds`` (open loop)."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    n = 0
    while True:
        due = start + n / rate
        if due >= start + seconds:
            return n
        delay = due - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        asked.emitted(abuser.steps[n % len(abuser.steps)](env))
        n += 1


async def phase(env: Any, standin: StandIn, meter: load.Meter, boards: rate_limits.Boards, tables: list[Any], args: argparse.Namespace,
                rng: random.Random, asked: Asked, abuser: Abuser | None, rate: float, baseline: float | None) -> dict[str, Any]:
    bot = env.bot
    tally = standin.tally
    asked.sent.clear()
    asked.answered.clear()
    asked.kinds.clear()
    before = (tally.global_429, tally.invalid, len(standin.log), getattr(getattr(bot.tables, "shares", None), "counts", None))
    refused_before = before[3].refused if before[3] is not None else 0
    began = time.perf_counter()
    window_began = standin.clock()
    cpu, process_cpu, world_cpu = time.thread_time(), time.process_time(), meter.simcord_cpu
    work = [load.run_rate(env, meter, tables, args.background, args.seconds, rng)]
    if abuser is not None:
        work.append(abuse(env, abuser, rate, args.seconds, asked))
    row, *_ = await asyncio.gather(*work)
    cpu_rate = (time.thread_time() - cpu) / args.seconds
    world_rate = (meter.simcord_cpu - world_cpu) / args.seconds  # SimCord's, the stand-in's and the clicks' part of it
    process_rate = (time.process_time() - process_cpu) / args.seconds  # with the drawing and database threads
    waiting = bot.pacer.waiting if getattr(bot, "pacer", None) is not None else 0
    for click in load.moves_made(row):
        boards.moved(click.table.table.record.place, range(click.version + 1, click.version + 2), click.finished)
    await asyncio.sleep(args.drain)
    elapsed = time.perf_counter() - began
    window_end = time.perf_counter()
    lags = []
    for click in load.moves_made(row):
        key = (click.table.table.record.place, click.version + 1)
        made = boards.made.get(key)
        if made is not None:
            shown = boards.shown.get(key)
            lags.append((shown if shown is not None else window_end) - made)
    sent = [e for e in standin.log[before[2]:] if e.who == "bot" and window_began <= e.at <= window_began + args.seconds]
    per_second = len(sent) / args.seconds
    # The abuser's own: requests to a channel of their server (its threads too) or to their DMs.
    mine = 0
    if abuser is not None:  # from the abuse's start to the drain's end: what it cost, whenever it went
        for e in standin.log[before[2]:]:
            if e.who != "bot":
                continue
            match = CHANNEL.match(e.path)
            channel = env.backend.channels.get(int(match.group(1))) if match else None
            if channel is not None and (getattr(channel, "guild_id", None) == abuser.guild.id
                                        or abuser.member.id in (getattr(channel, "recipient_ids", None) or ())):
                mine += 1
    waits = sorted((asked.answered[i] - asked.sent[i]) * 1000 for i in asked.answered)
    shares = getattr(bot.tables, "shares", None)
    out = {
        "what": "background alone" if abuser is None else f"{abuser.name.split(':')[0]} {rate:g}/s",
        "asked": len(asked.sent), "answered": len(asked.answered),
        "p50": statistics.median(waits) if waits else float("nan"), "p99": load.pct(waits, 0.99),
        "late": sum(1 for w in waits if w > 3000) + len(asked.sent) - len(asked.answered),
        "deferred": sum(1 for k in asked.kinds.values() if k in (5, 6)),
        "bot_rps": per_second, "extra": per_second - baseline if baseline is not None else 0.0, "mine": mine / args.seconds,
        "global429": tally.global_429 - before[0], "invalid10": (tally.invalid - before[1]) / elapsed * 600,
        "lag99": load.pct(lags, 0.99), "lag50": statistics.median(lags) if lags else float("nan"), "moves": len(lags),
        "waiting": waiting, "refused": (shares.counts.refused - refused_before) if shares is not None else None, "cpu": cpu_rate, "process_cpu": process_rate, "world_cpu": world_rate,
        "lobby_right": None,
    }
    if abuser is not None and abuser.lobby is not None:
        channel, table = abuser.lobby
        message = load.stored(env, (channel.id, table.record.lobby_message_id))
        shown = str(message.embeds[0] if message is not None and message.embeds else "")
        out["lobby_right"] = (f"<@{abuser.member.id}>" in shown) == (abuser.member.id in table.record.players)
    print(f"  {out['what']:>22}: abuser answered {out['answered']} of {out['asked']} (p50 {out['p50']:.0f} ms, p99 {out['p99']:.0f} ms, "
          f"{out['late']} past 3 s or never, {out['deferred']} deferred, refused by the shares {out['refused']}) | bot token {per_second:.1f} req/s "
          f"({out['extra']:+.1f} on the background alone's; the abuser's own {out['mine']:.1f}) | global 429s {out['global429']} | invalid {out['invalid10']:,.0f} per 10 min | "
          f"other servers' board lag p50 {out['lag50']:.2f} p99 {out['lag99']:.2f} s over {out['moves']} moves | pacer's line at the end {waiting} | "
          f"main thread {cpu_rate:.2f} CPU-s/s (the bench's world: SimCord, the stand-in, the clicks {world_rate:.2f}; the bot {cpu_rate - world_rate:.2f}), "
          f"the whole process {process_rate:.2f}" + (f" | lobby right after: {out['lobby_right']}" if out["lobby_right"] is not None else ""), flush=True)
    return out


def print_table(rows: list[dict[str, Any]], label: str) -> None:
    print(f"\n{label}\n")
    print("| what one member does | their answers (p99) | past 3 s or never | extra bot-token requests/s: the abuser's own (all, less the background alone's) | global 429s | "
          "invalid requests per 10 min | other servers' board lag p99 | refused by the shares | main thread CPU-s/s (of it the bench's world) | process CPU-s/s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        answers = "-" if not r["asked"] else f"{r['answered']} of {r['asked']} ({r['p99']:,.0f} ms)"
        print(f"| {r['what']} | {answers} | {r['late'] if r['asked'] else '-'} | {r['mine']:.1f} ({r['extra']:+.1f}) | {r['global429']:,} | {r['invalid10']:,.0f} | "
              f"{r['lag99']:.2f} s | {'-' if r['refused'] is None else r['refused']} | {r['cpu']:.2f} ({r['world_cpu']:.2f}) | {r['process_cpu']:.2f} |")


async def main_async(args: argparse.Namespace, data_dir: Path) -> None:
    rng = random.Random(args.seed)
    meter = load.Meter()
    meter.install()
    asked = Asked()
    asked.install()
    load.lighter_simcord()
    bot = rate_limits.make_bot(data_dir, args.budget)
    trace = bot.http.http_trace
    boards = rate_limits.Boards()
    bot_log = logging.getLogger("bot")
    bot_log.setLevel(logging.WARNING)
    bot_log.propagate = False
    bot_log.addHandler(rate_limits.GivenUp(boards))
    printed = logging.StreamHandler()
    printed.setLevel(logging.ERROR)
    bot_log.addHandler(printed)
    from cogs.enid import limerick

    limerick.load_dictionary()
    standin = None
    try:
        async with simcord.run(bot) as env:
            env._work.callbacks = load.IdentitySet(env._work.callbacks)
            meter.bot_parses_gateway(bot)
            began = time.perf_counter()
            tables = await load.set_up(env, args.tables, args.tables, args.pictures)
            abusers = await set_up_abusers(env, args.abuses)
            env.backend.http_requests.clear()
            env.backend.transcript.clear()
            from bot.discord_front.run import freeze_heap

            freeze_heap()
            follow_real_time(env)
            standin = StandIn(env, limits=Limits(global_per_second=args.budget))
            standin.remember(bot, trace)
            await standin.start()
            standin.server.work = meter.charged(standin.server.work, "simcord")  # the stand-in's work: the bench's, not the bot's
            standin.server.observers.append(boards.saw)
            boards.by_place = {bt.table.record.place: bt for bt in tables}
            print(f"set-up: {len(tables)} tables in {len(tables)} servers and {len(abusers)} abusers' servers, "
                  f"{time.perf_counter() - began:.0f} s; then the real clock and the stand-in (budget {args.budget:g}/s)", flush=True)
            rows = [await phase(env, standin, meter, boards, tables, args, rng, asked, None, 0.0, None)]
            baseline = rows[0]["bot_rps"]
            profile = None
            if args.profile:
                import cProfile

                profile = cProfile.Profile()
                profile.enable()
            for name in args.abuses:
                rows.append(await phase(env, standin, meter, boards, tables, args, rng, asked, abusers[name], float(name.split(":")[1]), baseline))
            if profile is not None:
                profile.disable()
                profile.dump_stats(args.profile)
            print_table(rows, f"{args.label} ({args.seconds:g} s of abuse per row, {args.background:g} background clicks/s on {len(tables)} tables, "
                              f"loaded machine: load average {load.load_average()})")
    except ExceptionGroup as errors:  # SimCord raises what the bot raised (unanswered work, a busy database) at its exit
        kinds = sorted({type(e).__name__ + ": " + str(e)[:100] for e in errors.exceptions})[:5]
        print(f"the bot raised {len(errors.exceptions)} errors during the run (SimCord's count), e.g.: " + " / ".join(kinds), flush=True)
    finally:
        if standin is not None:
            await standin.close()
        await bot.storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--background", type=float, default=25.0, help="background clicks a second on the tables")
    parser.add_argument("--seconds", type=float, default=25.0, help="seconds of each phase")
    parser.add_argument("--drain", type=float, default=10.0, help="quiet seconds after each phase")
    parser.add_argument("--abuses", default=ALL, help=f"name:rate, comma-separated (default {ALL})")
    parser.add_argument("--budget", type=float, default=50.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pictures", choices=("on", "off"), default="on")
    parser.add_argument("--profile", help="write cProfile's statistics of the abuses' phases (not the set-up or the background alone) to this file")
    parser.add_argument("--label", default="this code", help="the table's title (e.g. before, after)")
    args = parser.parse_args()
    args.abuses = [a for a in args.abuses.split(",") if a]
    load.run_in_scratch("abuse.py", main_async, args)


if __name__ == "__main__":
    main()
