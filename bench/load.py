"""The whole move path under an open-loop load: clicks on hands arriving at random on
many tables, through SimCord's interaction dispatch, answered by the real bot.

    python bench/load.py [--tables 300] [--guilds 300] [--rates 50,100,150,200,300]
                         [--seconds 15] [--seed 1] [--pictures on|off|free] [--backend sqlite|postgresql]
                         [--profile RATE] [--max-open N] [--gc production|default] [--gc-thresholds A,B,C]

Set-up (not timed): ``--tables`` tables spread over ``--guilds`` servers, one channel
each, every game kind in turn (Blackjack, Idiot, Engines, Cripple Mr Onion, Enid in
plain mode), distinct members, the default Components V2 board, card pictures on
(``--pictures off``: the servers turn them off with ``/settings pictures off`` before
the games start; ``--pictures free``: pictures on, but every picture is one PNG drawn
once and handed back at once, what a move would cost if drawing cost nothing). Each
player who must act clicks Show hand once, as people do.

Then, per offered rate, arrivals are a Poisson process (scheduled from a seeded
``random.Random``, independently of completions: an open loop). Each arrival picks an
*idle* table (its previous click answered) and one of its current players clicks a
random legal move on their hand (the select or the button, as a person would), or
Show hand on the board when their hand has no control for any legal move. The click
is an ``INTERACTION_CREATE`` emitted on SimCord's simulated gateway, exactly what a
real click delivers to discord.py; the bench never calls the bot's internals and
never waits for SimCord to settle. Click-to-answer runs from the *scheduled* arrival
(so a late event loop counts) to the interaction callback reaching SimCord's HTTP
layer (the move's answer, or its deferral); a deferred move finishes at the edit of
its original response.

Printed per rate: achieved rate (moves finished per second), p50/p99/max
click-to-answer, moves finished, clicks answered past 2 s and past 3 s, deferrals,
SQLite connections opened per move, CPU per move (all: this process and the picture
worker process if any; main thread; pictures: the drawing threads or the worker process;
other threads: the database's, and the worker's queues) and SimCord's own share (its HTTP routes and gateway
emission, and its tracking of every callback and timer the bot schedules, timed with
``time.thread_time``; production does not pay it; discord.py's gateway parsers, which
SimCord's emission calls, are the bot's share, as production parses the same events
from Discord), and the garbage collector's passes
(full passes, CPU in all passes, the longest pass). The collector is set as
``python -m bot`` sets it (``bot.__main__.tune_gc`` at start, ``freeze_heap`` after the
set-up, as after a restore); ``--gc default`` leaves Python's default (what the bot
did before issue 22: use it to run this bench on older code). RSS per table is
printed after set-up. ``--profile RATE`` runs that rate once more under
cProfile (main thread) and splits the main thread's CPU by phase (module of the
function, stdlib and builtins charged to their callers), scaled to the unprofiled
run's CPU per move: rules, commit/storage, text rendering, picture, payload
building, discord.py (HTTP/gateway), event loop, bot glue, SimCord.

SimCord deep-copies every payload it is sent and every event it emits with
``copy.deepcopy``; on the bot's thread that cost more than the bot's own work, so the
bench has SimCord copy the same JSON trees with ``json_copy`` (``--simcord-copies
deep`` keeps SimCord's own).

Numbers only; nothing is asserted. The machine is usually shared: note the load
average (printed at the start and the end).
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import cProfile
import gc
import logging
import os
import pstats
import random
import statistics
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from collections.abc import Callable
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiosqlite  # noqa: E402
import discord  # noqa: E402
import simcord  # noqa: E402
from simcord import _runtime as sim_runtime  # noqa: E402
from simcord import env as sim_env  # noqa: E402
from simcord import interactions as sim_interactions  # noqa: E402
from simcord.backend import serializers  # noqa: E402
from simcord.http import router  # noqa: E402
from simcord.results import to_discord_message  # noqa: E402

from bot.pictures import cardart  # noqa: E402
from bot.discord_front.app import DeckhandBot  # noqa: E402
from bot.config import Settings  # noqa: E402
from bot.pictures.picture_pool import DRAWING_THREAD_NAME  # noqa: E402
from tests.e2e.ui import _items, _multi_select_for  # noqa: E402

GAMES = ("blackjack", "idiot", "engines", "onion", "enid")
PLAYERS = {"blackjack": 3, "idiot": 3, "engines": 2, "onion": 3, "enid": 3}
COMPONENT = 3  # InteractionType.MESSAGE_COMPONENT
BUTTON, SELECT = 2, 3


# ------------------------------------------------------------------ measuring


@dataclass
class Click:
    table: Any
    player: int
    kind: str  # "move" or "show"
    due: float
    version: int
    answered: float | None = None
    deferred: bool = False
    finished: float | None = None
    record: Any = None  # SimCord's interaction record (its message id, once answered)


MAIN_THREAD = threading.get_ident()  # the bench runs the bot's loop on the thread that imports it


@dataclass
class Meter:
    """What SimCord's HTTP layer sees, and SimCord's own CPU on the main thread.

    The main thread's CPU is charged to whoever owns it: SimCord (its routes, its
    gateway, the bench building a click, SimCord's tracking of the bot's callbacks) or
    the bot. Ownership nests both ways: a SimCord route emits a gateway event whose
    discord.py parser is the bot's work (production parses the same event from
    Discord), and that parser may schedule a callback SimCord tracks."""

    clicks: dict[int, Click] = field(default_factory=dict)  # interaction id -> click
    by_token: dict[str, Click] = field(default_factory=dict)
    simcord_cpu: float = 0.0
    tracking_cpu: float = 0.0  # the part of simcord_cpu spent tracking the bot's callbacks and timers
    connections: int = 0
    done: asyncio.Event | None = None
    on_finish: Any = None
    owner: str = "bot"  # "bot", "simcord" or "tracking": who the main thread works for now
    since: float = 0.0  # thread_time when the owner last changed

    def _switch(self, owner: str) -> str:
        now = time.thread_time()
        if self.owner != "bot":
            self.simcord_cpu += now - self.since
            if self.owner == "tracking":
                self.tracking_cpu += now - self.since
        previous, self.owner, self.since = self.owner, owner, now
        return previous

    @contextmanager
    def working_for(self, owner: str) -> Any:
        """Charge the main thread's CPU inside to ``owner`` (a nested owner takes over
        until it ends; other threads are not charged here)."""
        if threading.get_ident() != MAIN_THREAD or self.owner == owner:
            yield
            return
        previous = self._switch(owner)
        try:
            yield
        finally:
            self._switch(previous)

    def simcord(self, tracking: bool = False) -> Any:
        """Charge the main thread's CPU inside to SimCord."""
        return self.working_for("tracking" if tracking else "simcord")

    def charged(self, fn: Any, owner: str = "tracking") -> Any:
        """``fn``, its main-thread CPU charged to ``owner``. Called thousands of times a
        second (every callback the bot schedules), so written out without a context
        manager: the bench's own bookkeeping is charged to whoever owned the thread."""

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if threading.get_ident() != MAIN_THREAD or self.owner == owner:
                return fn(*args, **kwargs)
            previous = self._switch(owner)
            try:
                return fn(*args, **kwargs)
            finally:
                self._switch(previous)

        return wrapper

    def bot_parses_gateway(self, bot: Any) -> None:
        """discord.py's gateway parsers run inside SimCord's emission but are the bot's
        work: production parses the same events from Discord's gateway."""
        parsers = bot._connection.parsers
        for event, parser in list(parsers.items()):
            parsers[event] = self.charged(parser, "bot")

    def install(self) -> None:
        original = router.dispatch

        def timed(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            now = time.perf_counter()
            with self.simcord():
                if path.startswith("/interactions/") and path.endswith("/callback"):
                    click = self.clicks.get(int(path.split("/")[2]))
                    if click is not None and click.answered is None:
                        click.answered = now
                        kind = (kwargs.get("json") or {}).get("type")
                        click.deferred = kind in (5, 6)
                        if not click.deferred:
                            self._finish(click, now)
                elif method == "PATCH" and path.startswith("/webhooks/") and path.endswith("/messages/@original"):
                    click = self.by_token.get(path.split("/")[3])
                    if click is not None and click.deferred and click.finished is None:
                        self._finish(click, now)
                return original(backend, method, path, **kwargs)

        router.dispatch = timed
        # SimCord wraps every callback and timer the bot schedules (to settle and to run
        # virtual time; the loop's own call_soon inside is a few µs), and each timer that
        # fires scans every task the bot owns: work production does not do. Patched
        # before simcord.run binds them.
        sim_runtime._track_callback = self.charged(sim_runtime._track_callback)
        sim_env._wakes_recognized_wait = self.charged(sim_env._wakes_recognized_wait)

        connect = aiosqlite.connect

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.connections += 1
            return connect(*args, **kwargs)

        aiosqlite.connect = counted  # storage.db calls aiosqlite.connect through the module

    def _finish(self, click: Click, now: float) -> None:
        click.finished = now
        if self.on_finish is not None:
            asyncio.get_running_loop().call_soon(self.on_finish, click)


_ATOMS = (str, int, float, bool, type(None))


def json_copy(value: Any, memo: Any = None) -> Any:
    """A deep copy of a JSON tree (dicts, lists, tuples of strings, numbers, booleans,
    None), anything else handed to ``copy.deepcopy``. SimCord deep-copies every payload
    it is sent and every event it emits with ``copy.deepcopy``, whose memo and dispatch
    cost about five times this on such trees: SimCord's cost, not the bot's, and it is
    on the bot's thread, so the bench copies the same trees this way."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _ATOMS else json_copy(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _ATOMS else json_copy(v) for v in value]
    if kind in _ATOMS:
        return value
    if kind is tuple:
        return tuple(json_copy(v) for v in value)
    return copy.deepcopy(value, memo)


def lighter_simcord() -> None:
    """SimCord's payload copies made with :func:`json_copy` (same trees, same result)."""
    from types import SimpleNamespace

    from simcord import components as sim_components
    from simcord import gateway as sim_gateway

    fast = SimpleNamespace(deepcopy=json_copy, copy=copy.copy)
    router.copy = fast
    sim_gateway.copy = fast
    sim_components.deepcopy = json_copy
    serializers.deepcopy = json_copy


class GcMeter:
    """The collector's passes: how many full (oldest-generation) passes, the CPU spent in
    all passes, and the longest pass (wall time: the thread that collects holds the GIL,
    so the event loop stands still that long; on a loaded machine it includes waiting
    for a core)."""

    def __init__(self) -> None:
        self.full = 0
        self.cpu = 0.0
        self.longest = 0.0
        self._began = (0.0, 0.0)
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = (time.perf_counter(), time.thread_time())
            return
        self.cpu += time.thread_time() - self._began[1]
        self.longest = max(self.longest, time.perf_counter() - self._began[0])
        self.full += info["generation"] == 2

    def take(self) -> tuple[int, float, float]:
        """(full passes, CPU seconds in all passes, longest pass in seconds) since the last take."""
        out = (self.full, self.cpu, self.longest)
        self.full, self.cpu, self.longest = 0, 0.0, 0.0
        return out


GC = GcMeter()


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


#: The picture worker processes' ids (``--picture-process on``), whose CPU is the pictures' too.
WORKERS: list[Any] = []


def stat_cpu(path: str) -> float | None:
    """CPU seconds (user + system) a /proc ``stat`` file gives, None once it is gone."""
    try:
        with open(path) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int) -> float:
    """CPU seconds of another process (0 once it is gone)."""
    return stat_cpu(f"/proc/{pid}/stat") or 0.0


def process_rss(pid: int) -> int:
    """Resident bytes of another process (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


def thread_cpu() -> dict[str, float]:
    """CPU seconds of live threads by kind: the drawing thread's, the default executor's
    (pictures drawn through asyncio.to_thread, as before 2026-11-29) and the picture
    worker process's (pictures), and the rest."""
    names = {t.native_id: t.name for t in threading.enumerate()}
    main = threading.main_thread().native_id
    out = {"picture": 0.0, "other": 0.0}
    for tid in os.listdir("/proc/self/task"):
        cpu = stat_cpu(f"/proc/self/task/{tid}/stat")
        if cpu is None or int(tid) == main:
            continue
        out["picture" if names.get(int(tid), "").startswith(("asyncio_", DRAWING_THREAD_NAME)) else "other"] += cpu
    out["worker"] = sum(process_cpu(pid) for getter in WORKERS for pid in getter())
    out["picture"] += out["worker"]
    return out


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run_in_scratch(script: str, main_async: Callable[[argparse.Namespace, Path], Any], args: argparse.Namespace) -> None:
    """A bench's start as ``python -m bot`` runs (its garbage-collector tuning, errors only
    in the log), the machine's line printed, then ``main_async(args, data_dir)`` on a
    scratch data folder removed afterwards (bench/rate_limits.py, bench/abuse.py)."""
    from bot.__main__ import tune_gc

    tune_gc()
    logging.basicConfig(level=logging.ERROR)
    print(f"bench/{script}: load average {load_average()}, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}", flush=True)
    with tempfile.TemporaryDirectory(prefix=f"deckhand-{Path(script).stem}-", dir=Path.cwd()) as tmp:
        asyncio.run(main_async(args, Path(tmp)))


class IdentitySet:
    """SimCord keeps the bot's pending callbacks in a list and removes each one as it
    runs (``list.remove``: a scan with a dataclass ``__eq__``), so with hundreds of
    tables' timers pending its bookkeeping costs more than the bot. The bench swaps
    in this container after set-up (no settling happens afterwards): the same
    operations, by identity, O(1)."""

    def __init__(self, items: Any = ()) -> None:
        self._items = {id(item): item for item in items}

    def append(self, item: Any) -> None:
        self._items[id(item)] = item

    def remove(self, item: Any) -> None:
        if self._items.pop(id(item), None) is None:
            raise ValueError(item)

    def clear(self) -> None:
        self._items.clear()

    def forget_cancelled(self) -> None:
        """Drop the records of cancelled callbacks, as SimCord's own settling does
        (``_settlement._active_callbacks``), which no longer runs here: every click's
        cancelled deferral timer and every re-armed turn timer stayed, and the
        collector's passes walked them."""
        self._items = {key: record for key, record in self._items.items() if record.handle is None or not record.handle.cancelled()}

    def __iter__(self) -> Any:
        return iter(list(self._items.values()))

    def __len__(self) -> int:
        return len(self._items)


# ------------------------------------------------------------------ the tables


@dataclass
class Seat:
    member: Any
    hand: tuple[int, int] | None = None  # (channel id, message id) of their latest hand


@dataclass
class BenchTable:
    game: str
    guild: Any
    channel: Any
    seats: dict[int, Seat]
    table: Any = None  # the bot's Table (read to know whose turn it is, as a player sees on the board)
    stuck: bool = False
    shown: tuple[int, int] | None = None  # the hand the last Show hand gave


def stored(env: Any, where: tuple[int, int]) -> Any:
    return env.backend.messages.get(where[0], {}).get(where[1])


def board_of(env: Any, bt: BenchTable) -> Any:
    record = bt.table.record
    return stored(env, (record.place, record.message_id)) if record.message_id else None


def controls(message: Any) -> list[dict[str, Any]]:
    return _items(message)


def choose(rng: random.Random, message: Any, legal: list[str]) -> dict[str, Any] | None:
    """The component data of a random legal move this hand message has a control for."""
    items = controls(message)
    options: list[dict[str, Any]] = []
    for code in legal:
        for item in items:
            cid = item.get("custom_id", "")
            if item["type"] == SELECT and not cid.startswith("dh:multi:") and code in {o["value"] for o in item.get("options", [])}:
                options.append({"custom_id": cid, "component_type": SELECT, "values": [code]})
                break
            if item["type"] == BUTTON and cid.startswith("dh:act:") and cid.endswith(":" + code):
                options.append({"custom_id": cid, "component_type": BUTTON})
                break
        else:
            multi = _multi_select_for(message, code)
            if multi is not None:
                options.append({"custom_id": multi, "component_type": SELECT, "values": code.split(":", 1)[1].split(".")})
    return rng.choice(options) if options else None


def show_hand_data(message: Any) -> dict[str, Any] | None:
    for item in controls(message):
        if item["type"] == BUTTON and item.get("label") == "Show hand":
            return {"custom_id": item["custom_id"], "component_type": BUTTON}
    return None


def emit_click(env: Any, guild_id: int, user_id: int, message: Any, data: dict[str, Any]) -> Any:
    """One component interaction, as Discord's gateway delivers a click (SimCord's own
    payload builder), without waiting for the bot to settle."""
    backend = env.backend
    record, payload = sim_interactions.base_payload(
        backend, type=COMPONENT, channel_id=message.channel_id, guild_id=guild_id, user_id=user_id, data=data)
    payload["message"] = dict(serializers.message_payload(backend, message))
    record.source_message_id = message.id
    env._notify_dispatch_observers(record)
    backend.emit("INTERACTION_CREATE", payload)
    return record


async def until(condition: Any, what: str, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise TimeoutError(f"set-up: {what} did not happen within {timeout:.0f} s")
        await asyncio.sleep(0.002)


def light_settling(env: Any) -> Any:
    """SimCord's settling scans every task the bot owns at each step, so with a few
    hundred tables (a turn timer each) one set-up click takes seconds and then times
    out. During set-up an operation waits only for its own interaction's answer; what
    the set-up needs after that (the board of a started game) it waits for itself."""
    last: list[Any] = []
    env._dispatch_observers.append(last.append)

    async def settle(*args: Any, **kwargs: Any) -> None:
        if last:
            record = last[-1]
            last.clear()
            await until(lambda: record.responded, f"the answer to interaction {record.id}")
        await asyncio.sleep(0)

    env._settle_internal = settle
    return last.append


async def set_up(env: Any, tables: int, guilds: int, pictures: str) -> list[BenchTable]:
    made: list[BenchTable] = []
    observer = light_settling(env)
    servers = []
    for g in range(guilds):
        guild = env.create_guild()
        if pictures == "off":
            admin = guild.add_member(env.create_user(f"admin{g}"), roles=[guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))])
            await admin.slash(guild.create_text_channel("settings"), "settings pictures", mode="off")
        servers.append(guild)
    began = time.perf_counter()
    for n in range(tables):
        if n % 25 == 0:
            print(f"  set-up: {n} tables, {time.perf_counter() - began:.0f} s", file=sys.stderr, flush=True)
        game = GAMES[n % len(GAMES)]
        guild = servers[n % guilds]
        channel = guild.create_text_channel(f"{game}-{n}")
        members = [guild.add_member(env.create_user(f"p{n}x{i}")) for i in range(PLAYERS[game])]
        options: dict[str, Any] = {"players": 2} if game == "engines" else {"mode": "plain"} if game == "enid" else {}
        lobby = (await members[0].slash(channel, f"{game} new", **options)).response.message
        for m in members[1:]:
            await m.click(lobby, label="Join either side" if game == "engines" else "Join")
        await members[0].click(lobby, label="Start")
        await until(lambda: channel.threads and (t := env.bot.tables.active_in_channel(guild.id, channel.threads[-1].id)) is not None
                    and t.record.message_id is not None and board_of(env, BenchTable(game, guild, channel, {}, t)) is not None, "the board")
        place = channel.threads[-1]
        table = env.bot.tables.active_in_channel(guild.id, place.id)
        bt = BenchTable(game, guild, channel, {m.id: Seat(m) for m in members}, table)
        for pid in sorted(table.state.current_players()):
            result = await bt.seats[pid].member.click(to_discord_message(env, board_of(env, bt)), label="Show hand")
            bt.seats[pid].hand = (result.response.message.channel.id, result.response.message.id)
        made.append(bt)
    env._dispatch_observers.remove(observer)
    return made


# ------------------------------------------------------------------ one rate


@dataclass
class Row:
    rate: float
    seconds: float
    clicks: list[Click]
    cpu: float
    main_cpu: float
    picture_cpu: float
    other_cpu: float
    simcord_cpu: float
    tracking_cpu: float
    connections: int
    no_idle: int
    unanswered: int
    playing: int
    gc: tuple[int, float, float] = (0, 0.0, 0.0)


async def run_rate(env: Any, meter: Meter, tables: list[BenchTable], rate: float, seconds: float, rng: random.Random) -> Row:
    loop = asyncio.get_running_loop()
    idle = [bt for bt in tables if not bt.stuck and bt.table.status == "playing"]
    busy: set[int] = set()
    outstanding: dict[int, Click] = {}
    clicks: list[Click] = []
    drained = asyncio.Event()
    stopping = False

    def finished(click: Click) -> None:
        bt = click.table
        outstanding.pop(id(click), None)
        if click.kind == "show" and click.record.message_id is not None:
            bt.seats[click.player].hand = bt.shown = (click.record.channel_id, click.record.message_id)
        busy.discard(id(bt))
        if bt.table.status == "playing" and not bt.stuck:
            idle.append(bt)
        if stopping and not outstanding:
            drained.set()

    meter.on_finish = finished
    no_idle = 0
    GC.take()
    start_cpu, start_main, start_threads = time.process_time(), time.thread_time(), thread_cpu()
    start_sim, start_track, start_conn = meter.simcord_cpu, meter.tracking_cpu, meter.connections
    start = loop.time()
    due = start
    end = start + seconds
    pruned = start
    while True:
        due += rng.expovariate(rate)
        if due >= end:
            break
        delay = due - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        click = None
        with meter.simcord():  # the bench building a click and SimCord emitting it
            if loop.time() - pruned > 1.0:
                env._work.callbacks.forget_cancelled()
                pruned = loop.time()
            while idle and click is None:
                bt = idle.pop(rng.randrange(len(idle)))
                click = arrival(env, meter, bt, rng, due - loop.time() + time.perf_counter())
        if click is None:
            no_idle += 1
            continue
        busy.add(id(click.table))
        outstanding[id(click)] = click
        clicks.append(click)
    stopping = True
    if outstanding:
        try:
            await asyncio.wait_for(drained.wait(), 20)
        except TimeoutError:
            pass
    elapsed = loop.time() - start
    threads = thread_cpu()
    # Database threads: the rest of the process (a connection's thread may end within the window).
    worker = threads["worker"] - start_threads["worker"]  # another process: not in process_time
    row = Row(rate, elapsed, clicks, time.process_time() - start_cpu + worker, time.thread_time() - start_main,
              threads["picture"] - start_threads["picture"], 0.0,
              meter.simcord_cpu - start_sim, meter.tracking_cpu - start_track, meter.connections - start_conn, no_idle, len(outstanding),
              sum(1 for bt in tables if bt.table.status == "playing" and not bt.stuck))
    row.gc = GC.take()
    # Clicks left unanswered are forgotten; their tables stay out of the pool.
    # The rest of this process's threads: the database's, and the picture worker's queues
    # (pickling the rows and reading its answers) when pictures are drawn in a process.
    row.other_cpu = row.cpu - row.main_cpu - row.picture_cpu
    meter.clicks.clear()
    meter.by_token.clear()
    env.backend.http_requests.clear()  # SimCord's logs grow with every request
    env.backend.transcript.clear()
    await asyncio.sleep(0.5)  # the last publishes
    return row


def arrival(env: Any, meter: Meter, bt: BenchTable, rng: random.Random, due: float) -> Click | None:
    table = bt.table
    state = table.state
    if table.status != "playing" or state is None:
        return None
    from bot.core import computer

    current = computer.humans(sorted(state.current_players()))
    if not current:
        return None
    pid = rng.choice(current)
    seat = bt.seats[pid]
    hand = stored(env, seat.hand) if seat.hand else None
    data = choose(rng, hand, [a.code() for a in state.legal_actions(pid)]) if hand is not None else None
    kind = "move"
    message = hand
    if data is None:
        if hand is not None and seat.hand == bt.shown:
            bt.stuck = True  # a fresh hand with no control for any legal move (a typed call is owed)
            return None
        message = board_of(env, bt)
        data = show_hand_data(message) if message is not None else None
        if data is None:
            bt.stuck = True
            return None
        kind = "show"
    record = emit_click(env, bt.guild.id, pid, message, data)
    click = Click(bt, pid, kind, due, table.record.version, record=record)
    meter.clicks[record.id] = click
    meter.by_token[record.token] = click
    return click


# ------------------------------------------------------------------ report


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))] if values else float("nan")


def moves_made(row: Row) -> list[Click]:
    """The clicks of a run that made a move (answered, and their table moved on)."""
    return [c for c in row.clicks if c.kind == "move" and c.finished is not None and c.table.table.record.version > c.version]


def report(row: Row) -> dict[str, float]:
    answered = [c for c in row.clicks if c.answered is not None]
    waits = [(c.answered - c.due) * 1000 for c in answered]
    moves = moves_made(row)
    finished = [(c.finished - c.due) * 1000 for c in row.clicks if c.finished is not None]
    n = max(1, len(moves))
    out = {
        "achieved": len(moves) / row.seconds,
        "p50": statistics.median(waits) if waits else float("nan"),
        "p99": pct(waits, 0.99),
        "max": max(waits) if waits else float("nan"),
        "done_p99": pct(finished, 0.99),
        "moves": len(moves),
        "clicks": len(row.clicks),
        "past2": sum(1 for w in waits if w > 2000),
        "past3": sum(1 for w in waits if w > 3000) + row.unanswered,
        "deferred": sum(1 for c in answered if c.deferred),
        "conn": row.connections / n,
        "cpu": row.cpu * 1000 / n,
        "main": row.main_cpu * 1000 / n,
        "picture": row.picture_cpu * 1000 / n,
        "other": row.other_cpu * 1000 / n,
        "simcord": row.simcord_cpu * 1000 / n,
        "tracking": row.tracking_cpu * 1000 / n,
    }
    print(f"  {row.rate:5.0f}/s offered: {out['achieved']:6.1f} moves/s | answer p50 {out['p50']:7.1f} p99 {out['p99']:7.1f} "
          f"max {out['max']:7.1f} ms | move done p99 {out['done_p99']:7.1f} ms | moves {out['moves']} of {out['clicks']} clicks | "
          f">2s {out['past2']} >3s {out['past3']} deferred {out['deferred']} | conn/move {out['conn']:.2f} | "
          f"CPU/move {out['cpu']:.1f} ms (main {out['main']:.1f}, pictures {out['picture']:.1f}, other threads {out['other']:.1f}; "
          f"SimCord {out['simcord']:.1f} of which tracking {out['tracking']:.1f}; without SimCord {out['cpu'] - out['simcord']:.1f}) | "
          f"no idle table {row.no_idle}, tables playing {row.playing} | gc: {row.gc[0]} full passes, "
          f"{row.gc[1] * 1000:.0f} ms CPU in all passes, longest {row.gc[2] * 1000:.0f} ms", flush=True)
    return out


PHASES = ("rules", "commit/storage", "text rendering", "picture", "payload building", "discord.py (HTTP, gateway)",
          "event loop", "bot glue", "SimCord + bench", "other")


def phase_of(filename: str) -> str | None:
    """The phase a function's own time belongs to; None: the stdlib or a builtin, charged to its callers."""
    f = filename.replace("\\", "/")
    if "/simcord/" in f or "/bench/" in f:
        return "SimCord + bench"
    if "/PIL/" in f or "bot/pictures/cardart" in f:
        return "picture"
    if "/aiosqlite/" in f or "/storage/" in f or "/asyncpg/" in f or "sqlite3" in f:
        return "commit/storage"
    if "/cogs/" in f:
        name = f.rsplit("/", 1)[1]
        return "text rendering" if name.startswith("render") else "rules" if name in ("rules.py", "scoring.py", "names.py", "limerick.py") else "bot glue"
    if f.endswith(("bot/rules/engine.py", "bot/rules/cards.py")) or "/bot/ai/" in f:
        return "rules"
    if f.endswith(("bot/words/render_util.py",)):
        return "text rendering"
    if f.endswith(("bot/discord_front/layout.py", "bot/discord_front/views.py")) or "/discord/ui/" in f or f.endswith(("discord/embeds.py", "discord/components.py")):
        return "payload building"
    if "/discord/" in f:
        return "discord.py (HTTP, gateway)"
    if "/asyncio/" in f or f.endswith("selectors.py"):
        return "event loop"
    if "/bot/" in f:
        return "bot glue"
    if "site-packages" in f:
        return "other"
    return None


def split_profile(profile: cProfile.Profile | str) -> dict[str, float]:
    """Seconds of the profile by phase (a Profile, or a file ``--profile-out`` wrote)."""
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    memo: dict[Any, dict[str, float]] = {}

    def share(func: Any, visiting: frozenset[Any]) -> dict[str, float]:
        if func in memo:
            return memo[func]
        phase = phase_of(func[0])
        if phase is not None:
            return {phase: 1.0}
        callers = stats[func][4] if func in stats else {}
        weights: dict[str, float] = {}
        total = 0.0
        for caller, (_, _, tt, _) in callers.items():
            if caller in visiting or tt <= 0:
                continue
            parts = share(caller, visiting | {func})
            if not parts:
                continue  # a caller reached only from the recursion being resolved (deepcopy's helpers)
            for name, part in parts.items():
                weights[name] = weights.get(name, 0.0) + tt * part
            total += tt
        if total > 0:
            result = {k: v / total for k, v in weights.items()}
        else:  # no caller outside the recursion: nothing to say here (at the top: "other")
            result = {} if visiting else {"other": 1.0}
        if not visiting:
            memo[func] = result
        return result

    seconds: dict[str, float] = dict.fromkeys(PHASES, 0.0)
    for func, (_, _, tt, _, _) in stats.items():
        for name, part in share(func, frozenset()).items():
            seconds[name] += tt * part
    return seconds


# ------------------------------------------------------------------ main


def make_bot(data_dir: Path, database_url: str | None, max_open: int | None, picture_process: str = "off") -> DeckhandBot:
    extra: dict[str, Any] = {}
    if "picture_process" in Settings.__dataclass_fields__:  # (older code, run for a "before" row, has no such setting)
        extra["picture_process"] = picture_process
    if database_url:
        extra["database_url"] = database_url
    if max_open:
        extra["max_open_databases"] = max_open
    settings = Settings(token="not-a-real-token", data_dir=data_dir, log_level=logging.WARNING, **extra)
    return DeckhandBot(settings)


def draw_for_free(drawer: Any) -> None:
    """``--pictures free``: the bot asks for every picture as with pictures on, and gets
    one PNG, drawn at its first request, at once: no drawing, no thread. What is left of
    the pictures' cost is the bot's handling of them (rows, alt text, the attachment)."""
    drawn: list[bytes] = []

    async def draw(rows: Any, **layout: Any) -> bytes:
        if not drawn:
            drawn.append(cardart.render_rows(rows, **layout))
        return drawn[0]

    drawer.draw = draw


async def main_async(args: argparse.Namespace, data_dir: Path, database_url: str | None) -> None:
    rng = random.Random(args.seed)
    meter = Meter()
    meter.install()
    if args.simcord_copies == "json":
        lighter_simcord()
    bot = make_bot(data_dir, database_url, args.max_open, args.picture_process)
    drawer = getattr(bot, "pictures", None)
    if drawer is not None:
        WORKERS.append(drawer.worker_pids)
        if args.pictures == "free":
            draw_for_free(drawer)
    try:
        # SimCord gives the bot's start-up 5 s to settle, and Enid's cog reads its
        # pronouncing dictionary meanwhile, which on a loaded machine takes longer: it is
        # read first, as any start after the first lookup finds it.
        from cogs.enid import limerick

        limerick.load_dictionary()
        async with simcord.run(bot) as env:
            base = rss_bytes()
            began = time.perf_counter()
            env._work.callbacks = IdentitySet(env._work.callbacks)  # no SimCord settling from here on
            meter.bot_parses_gateway(bot)
            tables = await set_up(env, args.tables, args.guilds, args.pictures)
            env.backend.http_requests.clear()
            env.backend.transcript.clear()
            if args.gc == "production":
                from bot.__main__ import freeze_heap

                freeze_heap()  # as `python -m bot` does once its tables are restored
            per_table = (rss_bytes() - base) / len(tables)
            print(f"set-up: {len(tables)} tables ({', '.join(GAMES)}) in {args.guilds} servers, pictures {args.pictures} (drawn in {'a worker process' if getattr(drawer, 'in_process', False) else 'threads'}), "
                  f"{args.backend}, {time.perf_counter() - began:.0f} s; RSS {rss_bytes() / 2**20:.0f} MiB, "
                  f"{per_table / 1024:.0f} KiB per table; open database connections {getattr(bot.storage, 'open_connections', '-')}, "
                  f"threads {threading.active_count()}, file descriptors {len(os.listdir('/proc/self/fd'))}", flush=True)
            rows = []
            for rate in args.rates:
                rows.append(report(await run_rate(env, meter, tables, rate, args.seconds, rng)))
            if args.profile:
                plain = report(await run_rate(env, meter, tables, args.profile, args.seconds, rng))
                profile = cProfile.Profile(time.thread_time)  # CPU, not the wall time spent waiting in epoll
                before_main = time.thread_time()
                profile.enable()
                profiled_row = await run_rate(env, meter, tables, args.profile, args.seconds, rng)
                profile.disable()
                profiled = report(profiled_row)
                seconds = split_profile(profile)
                total = sum(seconds.values()) or 1.0
                scale = plain["main"]  # ms of main-thread CPU per move, unprofiled
                print(f"  main thread by phase at {args.profile:.0f}/s (cProfile share x the unprofiled run's {scale:.1f} ms/move; "
                      f"pictures {plain['picture']:.1f} ms/move and other threads {plain['other']:.1f} ms/move come on top):")
                for name in PHASES:
                    print(f"    {name:<28} {seconds[name] / total * 100:5.1f}%  {seconds[name] / total * scale:6.2f} ms/move")
                del before_main, profiled
                if args.profile_out:
                    pstats.Stats(profile).dump_stats(args.profile_out)
            workers = [pid for getter in WORKERS for pid in getter()]
            worker_rss = f" (and the picture worker's {sum(map(process_rss, workers)) / 2**20:.0f} MiB)" if workers else ""
            print(f"end: RSS {rss_bytes() / 2**20:.0f} MiB{worker_rss}; open database connections {getattr(bot.storage, 'open_connections', '-')}, "
                  f"threads {threading.active_count()}, file descriptors {len(os.listdir('/proc/self/fd'))}; load average {load_average()}")
    finally:
        await bot.storage.close()


def main_recording(argv: list[str], started: Callable[[], None], ended: Callable[[Row], None]) -> None:
    """:func:`main` with these options, calling ``started()`` as each measured run (a
    rate) begins and ``ended(row)`` as it ends: for the benches that record what the
    bot does during a run, not its set-up (bench/http_layer.py, bench/picture_replay.py)."""
    global run_rate
    measured = run_rate

    async def recorded(*args: Any, **kwargs: Any) -> Row:
        started()
        row = await measured(*args, **kwargs)
        ended(row)
        return row

    run_rate = recorded
    sys.argv = ["bench/load.py", *argv]
    try:
        main()
    finally:
        run_rate = measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--guilds", type=int, default=None, help="servers (default: one per table)")
    parser.add_argument("--rates", default="50,100,150,200,300", help="offered moves per second, comma-separated")
    parser.add_argument("--seconds", type=float, default=15.0, help="seconds per rate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pictures", choices=("on", "off", "free"), default="on",
                        help="card pictures on, off, or free (on, but one PNG drawn once stands for every picture)")
    parser.add_argument("--backend", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--database-url", help="an empty PostgreSQL database (default: a throwaway server, tests/pg.py)")
    parser.add_argument("--max-open", type=int, default=None, help="MAX_OPEN_DATABASES")
    parser.add_argument("--profile", type=float, default=None, help="run this rate again under cProfile and split its CPU by phase")
    parser.add_argument("--profile-out", help="write the cProfile stats here")
    parser.add_argument("--gc", choices=("production", "default"), default="production",
                        help="the collector as `python -m bot` sets it (thresholds, frozen after set-up), or Python's default "
                             "(what `python -m bot` used before issue 22: give it to run this bench on older code)")
    parser.add_argument("--gc-thresholds", help="other thresholds to try, e.g. 10000,10,100 (after --gc's)")
    parser.add_argument("--picture-process", choices=("auto", "on", "off"), default="off",
                        help="PICTURE_PROCESS: pictures drawn in threads (off, `python -m bot`'s default) or in a worker "
                             "process (on; auto: with two usable cores or more)")
    parser.add_argument("--simcord-copies", choices=("json", "deep"), default="json",
                        help="SimCord's payload copies: json (the same trees copied by the bench's json_copy) or deep "
                             "(SimCord's own copy.deepcopy, as before 2026-11-28's third round)")
    args = parser.parse_args()
    args.rates = [float(r) for r in args.rates.split(",") if r]
    args.guilds = args.guilds or args.tables
    if args.gc == "production":
        from bot.__main__ import tune_gc

        tune_gc()  # as `python -m bot` does at start
    if args.gc_thresholds:
        gc.set_threshold(*(int(n) for n in args.gc_thresholds.split(",")))
    logging.basicConfig(level=logging.ERROR)
    print(f"bench/load.py: load average {load_average()}, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}", flush=True)
    server = None
    database_url = args.database_url
    if args.backend == "postgresql" and not database_url:
        from tests.pg import PostgresServer

        server = PostgresServer.start()
        database_url = server.create_database()
    try:
        with tempfile.TemporaryDirectory(prefix="deckhand-load-", dir=Path.cwd()) as tmp:
            asyncio.run(main_async(args, Path(tmp), database_url))
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
