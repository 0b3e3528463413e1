"""The bot paces its requests to Discord's global budget (issue 39), end to end: the real
bot, discord.py's real request path, and Discord's limits in the stand-in
(tests/e2e/standin), on SimCord's clock.

The budget is run in slow motion here (one request every 200 s, two at once), so that
every wait is one SimCord's clock moves through with ``env.advance_time`` rather than
real seconds (a sleep shorter than a test's own run on a loaded machine would also fire
on the real clock, and SimCord would move its clock on its own); the pacer's logic does
not depend on the scale."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import math
import random
import re
import time

import discord
import pytest
from discord.http import HTTPClient, Route

from bot.discord_front.app import DeckhandBot
from bot.discord_front.pacing import LocalBudget, Pacer
from tests.conftest import make_settings
from tests.e2e.standin import Limits, follow_real_time
from tests.e2e.ui import board, game_place, head, text
from tests.platform.test_table_e2e import TOY, mover_of, now, play_code, start, world

pytestmark = pytest.mark.extensions(*TOY)

RATE = 0.005  # requests a second: one every 200 s
SLOW = Limits(global_per_second=RATE, global_burst=2)


def toy_bot(data_dir, rate: float = 50) -> DeckhandBot:
    return DeckhandBot(dataclasses.replace(make_settings(data_dir), requests_per_second=rate), extensions=TOY)


def tighten(standin) -> None:
    """Discord's budget in slow motion from now on (the set-up ran at the usual 50/s)."""
    standin.set_limits(SLOW)
    standin.env.bot.pacer.use(LocalBudget(RATE))


def loosen(standin) -> None:
    """Discord's usual budget again."""
    standin.set_limits(Limits())
    standin.env.bot.pacer.use(LocalBudget(50))


async def advance(env, seconds: float, step: float = 30.0) -> None:
    """``env.advance_time`` in steps (SimCord gives one call a few real seconds)."""
    while seconds > 0:
        await env.advance_time(min(step, seconds))
        seconds -= step


async def tables_with_open_hands(env, n: int):
    """``n`` toy games in ``n`` servers, both players looking at their hands."""
    made = []
    for i in range(n):
        guild, channel, members = world(env, 2, prefix=f"t{i}p")
        await start(channel, members)
        hands = {m.id: (await m.click(board(channel), label="Show hand")).response.message for m in members}
        (table,) = [t for t in env.bot.tables.tables() if t.guild_id == guild.id]
        made.append((channel, members, hands, table))
    return made


def shown_move(channel) -> int:
    return max(int(n) for n in re.findall(r"move (\d+)", text(board(channel))))


def bot_requests(standin, since: int = 0):
    return [e for e in standin.log[since:] if e.who == "bot"]




# ------------------------------------------------------------------ a burst across many tables


async def test_a_burst_across_many_tables_goes_out_at_the_budget_boards_merge_and_hands_never_wait(discord_standin):
    standin = discord_standin
    env = standin.env
    tables = await tables_with_open_hands(env, 12)
    tighten(standin)
    pacer = env.bot.pacer
    since = len(standin.log)
    timer = tables[0][3].record.timer_seconds
    # Every table's turn timer runs out at the same moment: 12 boards want out at once.
    await advance(env, timer + 1)
    assert all(t.record.version == 1 for *_, t in tables)
    assert standin.tally.global_429 == 0  # (discord.py alone sent them all and met the global limit)
    for channel, members, hands, table in tables:
        (following,) = table.state.current_players()
        assert "Your move" in head(now(env, hands[following]))  # told through their hand at once (exempt)
    assert sum(shown_move(channel) == 1 for channel, *_ in tables) <= 3  # the boards wait for the budget
    assert pacer.waiting >= 9
    # A click meanwhile is answered at once, whatever the boards wait for.
    channel, members, hands, table = tables[-1]
    asked = await members[0].click(board(channel), label="Show hand")
    assert "Your hand" in text(asked.response.message) or asked.response.message.flags.ephemeral
    hands[members[0].id] = asked.response.message  # (Show hand closes the player's older copy)
    # The next timers run out while most boards of the first still wait: each table's
    # waiting board gives way to its newer showing (in its place in line).
    await advance(env, timer - 1)
    for channel, members, hands, table in tables:
        (following,) = table.state.current_players()
        assert table.record.version == 2 and "Your move" in head(now(env, hands[following]))
    sent = bot_requests(standin, since)
    assert standin.tally.global_429 == 0 and standin.tally.route_429 == 0
    span = env.now().timestamp() - sent[0].at
    assert len(sent) <= 2 + span * RATE + 1e-6  # never above the budget (its two at once, then one every 200 s)
    merged = pacer.totals()["merged"]
    assert merged >= 8  # boards that waited gave way to their table's newer showing
    loosen(standin)  # the rest at the usual budget (from the pacer's next look): every board ends on its table's last move
    await advance(env, 30)
    assert [shown_move(channel) for channel, *_ in tables] == [t.record.version for *_, t in tables]
    assert len(bot_requests(standin, since)) < 2 * len(tables)  # two moves a table, fewer board edits


# ------------------------------------------------------------------ a 429 from a bucket the bot did not know


async def test_a_429_from_a_bucket_the_bot_did_not_know_holds_that_board_alone_and_never_the_hands(discord_standin):
    standin = discord_standin
    env = standin.env
    (a_channel, a_members, a_hands, a_table), (b_channel, b_members, b_hands, b_table) = await tables_with_open_hands(env, 2)
    a_thread = game_place(a_channel)
    # Discord limits A's board edits with a bucket no header announced (a sub-limit, the
    # old-message quota): 60 s.
    standin.faults.rate_limited(60, "PATCH", f"/channels/{a_thread.id}/messages/*", scope="user", times=1)
    mover, _ = mover_of_table(a_table, a_members)
    await mover.select(now(env, a_hands[mover.id]), [play_code(a_table, mover)])
    assert a_table.record.version == 1 and shown_move(a_channel) == 0  # refused: it waits out the 60 s in line
    # B is not held up: its board goes out at once.
    b_mover, _ = mover_of_table(b_table, b_members)
    await b_mover.select(now(env, b_hands[b_mover.id]), [play_code(b_table, b_mover)])
    assert shown_move(b_channel) == 1
    # A plays on meanwhile: each next player is told at once through their hand.
    following, _ = mover_of_table(a_table, a_members)
    assert "Your move" in head(now(env, a_hands[following.id]))
    await following.select(now(env, a_hands[following.id]), [play_code(a_table, following)])
    third, _ = mover_of_table(a_table, a_members)
    assert a_table.record.version == 2 and "Your move" in head(now(env, a_hands[third.id]))
    assert shown_move(a_channel) == 0
    await env.advance_time(61)
    assert shown_move(a_channel) == 2  # one edit for both moves, after the limit
    a_edits = [e for e in standin.log if e.who == "bot" and e.method == "PATCH" and e.path.startswith(f"/channels/{a_thread.id}/")]
    assert [e.status for e in a_edits] == [429, 200]
    totals = env.bot.pacer.totals()
    assert totals["route_429"] == 1 and totals["global_429"] == 0 and standin.tally.global_429 == 0


def members_of(made):
    return made[1]


def mover_of_table(table, members):
    (pid,) = table.state.current_players()
    return next(m for m in members if m.id == pid), table


# ------------------------------------------------------------------ a restart inside a global wait


async def test_a_restart_inside_a_global_wait_sends_nothing_of_the_old_process_and_shows_every_board(discord_standin, data_dir):
    standin = discord_standin
    env = standin.env
    tables = await tables_with_open_hands(env, 6)
    tighten(standin)
    old = env.bot
    # The first board to go out meets a global 429 (another process on the token, say):
    # the pacer stops every request for its 90 s.
    standin.faults.rate_limited(90, "*", "/channels/*/messages*", scope="global", times=1, who="bot")
    await advance(env, tables[0][3].record.timer_seconds + 1)
    assert old.pacer.totals()["global_429"] == 1 and old.pacer.waiting >= 5
    before_restart = len(standin.log)
    await env.advance_time(30)
    assert len(standin.log) == before_restart  # nothing went out during the wait
    await env.restart_bot(toy_bot(data_dir, RATE))
    await old.tables.close()
    await old.storage.close()
    new = env.bot
    assert old.pacer.waiting == 0 and standin.session is not None and not standin.session.closed
    await advance(env, 200 * 2)
    assert old.pacer.totals()["sent"] == sum(1 for e in standin.log[:before_restart] if e.who == "bot")
    loosen(standin)
    await advance(env, 30)
    for channel, members, hands, table in tables:
        (restored,) = [t for t in new.tables.tables() if t.guild_id == table.guild_id]
        assert shown_move(channel) == restored.record.version
    # The new process knew nothing of the wait: at most its first requests met the limit,
    # then it paced itself.
    assert standin.tally.global_429 <= 1 + 2


# ------------------------------------------------------------------ two processes on one token


def on_the_real_clock(standin, postgres_dsn):
    """Twelve channels (two messages each stay within a channel's bucket of 5), the world
    on the real clock with Discord's budget at 10 a second, and a PostgreSQL storage for
    the shared budget: (channels, rate, storage)."""
    from storage.pg import PostgresStorage

    env = standin.env
    channels = [world(env, 1, channel=f"c{n}")[1] for n in range(12)]
    follow_real_time(env)
    rate = 10.0
    standin.set_limits(Limits(global_per_second=rate))
    return channels, rate, PostgresStorage(postgres_dsn)


@pytest.mark.parametrize("shared", [True, False], ids=["one budget in PostgreSQL", "each alone"])
async def test_two_processes_on_one_token_share_its_budget_through_postgresql(discord_standin, postgres_dsn, shared):
    """Two processes of the bot (each its own discord.py client and pacer, as two
    ``python -m bot`` would be) send at once with the same token: with the budget in
    PostgreSQL, Discord sees them together within it; each alone, they exceed it. On the
    real clock, at 10 requests a second (the world switched to it, as the benches do)."""
    from bot.discord_front.pacing import pace_for
    from storage.pg_rate import SharedRate, budget_name

    standin = discord_standin
    channels, rate, storage = on_the_real_clock(standin, postgres_dsn)
    clients = []
    try:
        for _ in range(2):
            local = LocalBudget(rate)
            budget = SharedRate(storage.start, budget_name("not-a-real-token"), rate, *pace_for(rate), clock=time.time, fallback=local) if shared else local
            pacer = Pacer(budget)
            http = HTTPClient(asyncio.get_running_loop(), http_trace=pacer.trace_config)
            await http.static_login("not-a-real-token")
            clients.append((http, pacer))

        async def send(http, channel, n):
            route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id)
            await http.request(route, json={"content": f"n{n}", "allowed_mentions": {"parse": []}})

        since = len(standin.log)
        # 24 messages each (two per channel, so no channel's own bucket of 5 is in the way).
        await asyncio.gather(*(send(http, channels[n % 12], n) for http, _ in clients for n in range(24)))
        sent = bot_requests(standin, since)
        if shared:
            assert standin.tally.global_429 == 0
            assert len([e for e in sent if e.status == 200]) == 48
            counts = [pacer.totals()["sent"] for _, pacer in clients]
            assert min(counts) >= 24  # each sent all of its own (their tries: no 429 to try again)
        else:
            assert standin.tally.global_429 > 0  # each paced to the whole budget: together twice it
    finally:
        for http, pacer in clients:
            await http.close()
            await pacer.close()
        await storage.close()


class SlowPool:
    """A PostgreSQL pool whose every round trip takes ``latency`` seconds (a database far
    away, or an event loop too busy to read the answer sooner); counts the look-ups."""

    def __init__(self, pool, latency: float) -> None:
        self.pool, self.latency, self.looks = pool, latency, 0

    async def _slow(self, method, *args):
        self.looks += 1
        await asyncio.sleep(self.latency)
        return await getattr(self.pool, method)(*args)

    async def execute(self, *args):
        return await self._slow("execute", *args)

    async def fetchval(self, *args):
        return await self._slow("fetchval", *args)

    async def fetchrow(self, *args):
        return await self._slow("fetchrow", *args)


@contextlib.asynccontextmanager
async def paced_through_slow_postgres(standin, postgres_dsn, latency: float):
    """One process's discord.py client paced to a budget in PostgreSQL whose every look
    takes ``latency`` seconds, on the real clock at 10 requests a second: yields (send(n),
    the slow pool, the rate, the burst); send(n) posts message n in channel n % 12."""
    from bot.discord_front.pacing import pace_for
    from storage.pg_rate import SharedRate, budget_name

    channels, rate, storage = on_the_real_clock(standin, postgres_dsn)
    slow = SlowPool(await storage.start(), latency)

    async def pool_of():
        return slow

    pace, burst = pace_for(rate)
    budget = SharedRate(pool_of, budget_name("not-a-real-token"), rate, pace, burst, clock=time.time, fallback=LocalBudget(rate))
    pacer = Pacer(budget)
    http = HTTPClient(asyncio.get_running_loop(), http_trace=pacer.trace_config)
    try:
        await http.static_login("not-a-real-token")

        async def send(n):
            route = Route("POST", "/channels/{channel_id}/messages", channel_id=channels[n % 12].id)
            await http.request(route, json={"content": f"n{n}", "allowed_mentions": {"parse": []}})

        yield send, slow, rate, burst
    finally:
        await http.close()
        await pacer.close()
        await storage.close()


async def test_a_slow_shared_budget_is_asked_once_for_all_the_requests_waiting_not_once_each(discord_standin, postgres_dsn):
    """The pacer's pace is the budget's, not one request per look: with each look at the
    budget in PostgreSQL taking 0.3 s (three requests' worth at 10 a second), the
    requests waiting are given their turns several at a time, and none is forgotten.
    Before, the pump asked for one request a look (about 3 a second where 10 were
    allowed), and requests that joined the line while it was looking were not looked at
    until its next wake, up to an hour later: this test never finished."""
    standin = discord_standin
    async with paced_through_slow_postgres(standin, postgres_dsn, 0.3) as (send, slow, _rate, _burst):
        since, looks = len(standin.log), slow.looks
        await asyncio.gather(*(send(n) for n in range(30)))
        sent = [e for e in bot_requests(standin, since) if e.path.endswith("/messages")]
        assert len(sent) == 30 and all(e.status == 200 for e in sent) and standin.tally.global_429 == 0
        # 30 first looks at once (each request's own, the line empty), then the pump's:
        # one look each before, now one for every three or so.
        assert slow.looks - looks - 30 <= 15


async def test_a_shared_budget_whose_looks_are_slow_still_sends_at_its_pace(discord_standin, postgres_dsn):
    """Each look at the budget in PostgreSQL takes half a second (a saturated process's
    event loop): the requests still go out at the budget's pace, never above it. Before
    the lease, one look could take at most the burst (two requests at 10 a second), so
    the token sent about 4 a second of 10 exactly when it was busiest."""
    standin = discord_standin
    async with paced_through_slow_postgres(standin, postgres_dsn, 0.5) as (send, _slow, rate, burst):
        since = len(standin.log)
        began = standin.env.now().timestamp()
        # 48 messages, four a channel (a channel's own bucket is 5 in 5 s).
        await asyncio.gather(*(send(n) for n in range(48)))
        sent = sorted(e.at for e in bot_requests(standin, since) if e.path.endswith("/messages") and e.status == 200)
        assert len(sent) == 48 and standin.tally.global_429 == 0
        window = 3.0  # on the stand-in's clock (the real one here)
        # From the moment the sends began, not from the first arrival: a first request
        # that arrives late (its connection opened on a loaded machine) would stretch a
        # window anchored on it past the budget's own three seconds.
        in_window = sum(1 for at in sent if at <= began + window)
        # The budget allows its burst and 10 a second: 32 in 3 s. With a look of 0.5 s and
        # no lease, at most 2 a look: about 14 (12 seen).
        assert in_window <= burst + rate * window + 1
        assert in_window >= 0.65 * rate * window


def most_at_once(times: list[float], rate: float) -> float:
    """The most turns in any span beyond what ``rate`` gives in it (GCRA's burst: ``j - i
    + 1 - rate * (t_j - t_i)`` over every i <= j of the sorted times)."""
    worst, lowest = 0.0, math.inf
    times = sorted(times)
    for j, at in enumerate(times):
        here = j - rate * (at - times[0])  # (from the first: seconds since the epoch times 50 lose the digits that matter)
        lowest = min(lowest, here)
        worst = max(worst, here - lowest + 1)
    return worst


async def test_two_shared_budgets_on_one_row_never_give_more_than_the_budget_together(postgres_dsn):
    """Two processes' budgets on one row, looking at once and one after another with
    leases of every length, at moments far apart and close together (a clock of the
    test's, so the check is exact): every turn given, whichever process took it, keeps
    within the budget's burst and rate together, and together they are given much of it."""
    from bot.discord_front.pacing import LEASE_SECONDS, pace_for
    from storage.pg import PostgresStorage
    from storage.pg_rate import SharedRate, budget_name

    storage = PostgresStorage(postgres_dsn)
    clock = [1_800_000_000.0]
    rate, burst = pace_for(50)
    budgets = [SharedRate(storage.start, budget_name("not-a-real-token"), 50, rate, burst, clock=lambda: clock[0],
                          fallback=LocalBudget(50)) for _ in range(2)]
    rng = random.Random(39)
    turns: list[float] = []
    try:
        began = clock[0]
        for _ in range(300):
            asks = [(b, rng.randint(1, 40), rng.choice([0.0, 0.1, LEASE_SECONDS, 1.0])) for b in rng.sample(budgets, rng.randint(1, 2))]
            for times, wait in await asyncio.gather(*(b.lease(count, ahead) for b, count, ahead in asks)):
                assert times == sorted(times) and all(t >= 0 for t in times) and wait >= 0
                turns += [clock[0] + t for t in times]
            clock[0] += rng.choice([0.0, 0.001, 0.02, 0.1, 0.3, 1.0])
        assert most_at_once(turns, rate) <= burst + 1e-3  # (the clock's float: a microsecond is 5e-5 of a turn)
        # Together they were given much of the budget (not all: a second nobody asks in is
        # not banked beyond the burst, and the asks are at most 40 a look).
        assert len(turns) >= 0.5 * rate * (clock[0] - began)
    finally:
        await storage.close()


class LeasingBudget:
    """A budget that never has room at once and leases one turn a second ahead a request
    asked for; counts its looks."""

    limit = 1.0

    def __init__(self) -> None:
        self.looks: list[int] = []

    async def try_take(self) -> float:
        return 60.0

    async def lease(self, count: int, ahead: float) -> tuple[list[float], float]:
        self.looks.append(count)
        return [float(k) for k in range(count)], 0.0

    async def pause(self, seconds: float) -> None:
        pass

    async def close(self) -> None:
        pass


async def test_a_leased_turn_whose_board_gave_way_goes_to_the_next_request_without_a_look():
    """Two boards wait; one look leases a turn now and one a second later. The second board
    gives way to its table's newer showing before its turn: the turn is not wasted, the
    next request (a click's) takes it at its time, with no new look at the budget."""
    from bot.discord_front.pacing import BOARD, Superseded, Worth

    budget = LeasingBudget()
    pacer = Pacer(budget)
    newer_b = []
    try:
        first = asyncio.create_task(pacer.admit(Worth(BOARD, "table A", lambda: False)))
        second = asyncio.create_task(pacer.admit(Worth(BOARD, "table B", lambda: bool(newer_b))))
        await first  # the turn leased for now
        assert budget.looks == [2] and not second.done()
        newer_b.append(True)
        pacer.newer("table B")  # (before its turn, a second later)
        with pytest.raises(Superseded):
            await second
        await pacer.admit(Worth())  # waits for the leased turn: no look of its own
        assert budget.looks == [2]
        assert pacer.totals()["looks"] == 1 and pacer.totals()["granted"] == 2
    finally:
        await pacer.close()


async def test_when_postgresql_does_not_answer_a_lease_is_the_process_own_room_and_the_owner_is_told_once(caplog):
    """The database down: a look leases nothing ahead, it takes the room the process's own
    budget has now (its burst, then nothing until it refills), and the log says so once."""
    from bot.discord_front.pacing import LEASE_SECONDS, pace_for
    from storage.pg_rate import SharedRate, budget_name

    async def no_database():
        raise ConnectionRefusedError("the database is down")

    clock = [1_800_000_000.0]
    rate, burst = pace_for(50)
    budget = SharedRate(no_database, budget_name("not-a-real-token"), 50, rate, burst, clock=lambda: clock[0],
                        fallback=LocalBudget(50, clock=lambda: clock[0]))
    caplog.set_level(logging.WARNING, logger="storage.pg_rate")
    times, wait = await budget.lease(30, LEASE_SECONDS)
    assert times == [0.0] * int(burst) and wait > 0
    times, wait = await budget.lease(30, LEASE_SECONDS)
    assert len(times) < burst and wait > 0  # (aiolimiter refills at the budget's pace, on the real clock)
    said = [r.getMessage() for r in caplog.records if "paces its requests alone" in r.getMessage()]
    assert len(said) == 1 and "the database is down" in said[0]


# ------------------------------------------------------------------ the owner's view


async def test_the_owner_is_told_what_was_sent_waited_and_merged_and_warned_long_before_the_ban(discord_standin, caplog, monkeypatch):
    from bot.discord_front import pacing

    standin = discord_standin
    env = standin.env
    caplog.set_level(logging.INFO, logger="bot.discord_front.pacing")
    monkeypatch.setattr(pacing, "INVALID_WARN", (3, 6))  # 1,000 and 5,000 of Discord's 10,000 in production
    tables = await tables_with_open_hands(env, 4)
    tighten(standin)
    await advance(env, tables[0][3].record.timer_seconds + 1)  # four boards at once: two wait
    # Requests Discord refuses (a channel the bot may no longer see): invalid ones.
    (channel, *_), *_ = tables
    standin.faults.forbidden("POST", f"/channels/{channel.id}/messages", times=7)
    loosen(standin)

    async def refused():
        for _ in range(7):
            with contextlib.suppress(discord.Forbidden):
                await env.bot.http.request(Route("POST", "/channels/{channel_id}/messages", channel_id=channel.id),
                                           json={"content": "x", "allowed_mentions": {"parse": []}})

    await standin.as_bot(refused())
    warnings = [r for r in caplog.records if "invalid requests" in r.getMessage() and "cuts this IP off" in r.getMessage()]
    assert [(r.levelno, r.getMessage().split(" invalid")[0]) for r in warnings] == [
        (logging.WARNING, "Discord answered 3"), (logging.ERROR, "Discord answered 6")]
    assert "10,000" in warnings[0].getMessage() and "troubleshooting.md" in warnings[0].getMessage()
    await advance(env, 300)  # REQUEST_LOG_SECONDS: the next answer writes the report since the start
    await members_of(tables[0])[0].click(board(tables[0][0]), label="Show hand")
    (line,) = [r for r in caplog.records if r.getMessage().startswith("Discord requests in the last ")]
    said = line.getMessage()
    assert line.levelno == logging.WARNING  # many invalid requests: a warning, not the usual INFO line
    assert re.search(r": \d+ sent with the bot's token \(\d+\.\d/s of 50/s\), \d+ through interactions; [1-9]\d* waited for the budget", said)
    assert "board edits merged" in said and "429s: 0 global, 0 per route, 0 shared" in said
    assert "invalid requests in the last 10 min: 7 of Discord's 10,000" in said
