"""REST calls and handling time per Blackjack move, through the real bot in SimCord.

    python bench/rest_calls.py [--games 6] [--players 3] [--seed 1] [--flow both|show|refresh] [--data-dir DIR]

Simulated members open a ``/blackjack new`` table, join, start, and play whole games
through the UI. A move is a random legal action of the current player (seeded
``random.Random``), made by choosing the option whose value is ``action.code()`` in the
select (card plays) or clicking the button whose custom_id ends with ``:`` +
``action.code()`` (draw, end, suit). While a turn lasts the player keeps using the same
hand message, which each move edits in place. How a player gets a hand message when
their turn comes (not a move; its requests are counted apart) is the *flow*:

- ``show``: click **Show hand** on the newest table message (the one that pinged them):
  a new ephemeral hand message every turn.
- ``refresh``: click Show hand once per game, then **🔄 Refresh** on that same hand
  message at the start of each of their turns.

``both`` (the default) alternates the flows game by game in the same run.

Per move it records the REST requests the bot made (``env.http_requests`` before and
after) and the wall time of the ``select``/``click`` call, which returns once the bot
has settled: rules, the SQLite commit (WAL, ``synchronous=FULL``, in ``--data-dir``,
a temporary directory by default), rendering, and SimCord's simulated Discord on both
sides of the wire. So it is an upper bound of the bot's own time. Two inner timings
are printed too: ``TableManager.act`` (the bot's whole move handler) and
``TableManager._commit`` (the database write).

The process CPU time during each click is printed as well: it leaves out idle waits
(SimCord settles a Refresh click with a ~50 ms idle wait, for instance).

A harness effect to know about: discord.py gives every ephemeral message sent with a
view (each Show hand) a 15-minute timeout timer, and SimCord's settling loop scans all
pending timers on every wait, so in virtual time (which never moves by itself) each
Show hand makes every later action a bit slower. The ``refresh`` flow makes only one
such timer per player per game; between games the bench advances the virtual clock
past them (no table is open then, so no turn timer is touched). The "within a game"
lines show the effect. In production those timers are ordinary asyncio timers.

The deal seed comes from the bot (``secrets``), so request counts are exact but the
games differ from run to run. Numbers only: nothing here asserts a timing.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import platform
import random
import re
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # so ``tests`` imports when run from anywhere

import simcord  # noqa: E402

from tests.conftest import make_bot  # noqa: E402

TARGET_CALLS = 2.0
TARGET_P99_MS = 50.0
HAND_VIEW_TIMEOUT = 15 * 60  # discord.py's timeout for a view on an ephemeral message
FLOWS = ("show", "refresh")


@dataclass
class Move:
    flow: str
    kind: str  # action kind: play / draw / end / suit
    via: str  # select or button
    requests: list[tuple[str, str]]
    seconds: float
    cpu: float  # process CPU time (all threads) during the click: excludes idle waits
    turn_passed: bool
    over: bool
    index: int  # moves made before this one in the same game
    pending_views: int  # ephemeral hand messages sent so far this game (15-min timers)

    @property
    def category(self) -> str:
        """What the bot had to show, named from the requests it made."""
        if self.over:
            return "game over: final table message"
        if ("POST", "/channels/{id}/messages") in self.requests:
            return "turn passed: new table message"
        if ("PATCH", "/channels/{id}/messages/{id}") in self.requests:
            return "same turn: table message edited"
        return "other"


@dataclass
class Run:
    moves: list[Move] = field(default_factory=list)
    hand_clicks: dict[str, list[tuple[int, float, float]]] = field(default_factory=lambda: defaultdict(list))
    acts: list[float] = field(default_factory=list)
    commits: list[float] = field(default_factory=list)
    games: Counter[str] = field(default_factory=Counter)
    setup_requests: Counter[tuple[str, str]] = field(default_factory=Counter)


_SNOWFLAKE = re.compile(r"/\d{5,}")
_TOKEN = re.compile(r"(/(?:interactions|webhooks)/\{id\})/[^/]+")


def shape(path: str) -> str:
    """``/interactions/123/tok/callback`` -> ``/interactions/{id}/{token}/callback`` (webhooks alike)."""
    return _TOKEN.sub(r"\1/{token}", _SNOWFLAKE.sub("/{id}", path))


def requests_since(env: Any, start: int) -> list[tuple[str, str]]:
    return [(r.method, shape(r.path)) for r in env.http_requests[start:]]


def find_control(components: Sequence[dict], code: str) -> tuple[str, str]:
    """('select', custom_id) or ('button', custom_id) for the control that plays ``code``."""
    suffix = ":" + code
    for row in components:
        for item in row.get("components", ()):
            if item.get("type") == 3 and any(o.get("value") == code for o in item.get("options", ())):
                return "select", item["custom_id"]
            if item.get("type") == 2 and str(item.get("custom_id", "")).endswith(suffix):
                return "button", item["custom_id"]
    raise LookupError(f"no control for {code!r} in the hand message")


def _timed(run_list: list[float], func):
    """Wrap an async bound method so each call's wall time lands in ``run_list``."""

    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return await func(*args, **kwargs)
        finally:
            run_list.append(time.perf_counter() - start)

    return wrapper


async def play_games(args: argparse.Namespace, data_dir: Path) -> Run:
    run = Run()
    rng = random.Random(args.seed)
    flows = FLOWS if args.flow == "both" else (args.flow,)
    bot = make_bot(data_dir)
    try:
        async with simcord.run(bot) as env:
            tables = env.bot.tables
            # Instrumentation only (instance attributes; the class is untouched).
            tables.act = _timed(run.acts, tables.act)
            tables._commit = _timed(run.commits, tables._commit)
            guild = env.create_guild()
            channel = guild.create_text_channel("cards")
            members = [guild.add_member(env.create_user(f"player{i}")) for i in range(args.players)]
            by_id = {m.id: m for m in members}
            for game_number in range(args.games):
                flow = flows[game_number % len(flows)]
                host = members[game_number % len(members)]
                before = len(env.http_requests)
                lobby = (await host.slash(channel, "blackjack new")).response.message
                for m in members:
                    if m is not host:
                        await m.click(lobby, label="Join")
                await host.click(lobby, label="Start")
                run.setup_requests.update(requests_since(env, before))
                (table,) = tables.tables()
                hand_of: dict[int, Any] = {}  # each player's hand message (its latest InteractionResult)
                last_mover: int | None = None
                pending_views = 0
                index = 0
                while table.status == "playing":
                    (pid,) = table.state.current_players()
                    mover = by_id[pid]
                    if pid != last_mover or pid not in hand_of:  # a new turn for this player
                        before = len(env.http_requests)
                        start = time.perf_counter()
                        cpu0 = time.process_time()
                        if flow == "show" or pid not in hand_of:
                            label = "Show hand"
                            hand_of[pid] = await mover.click(channel.last_message, label=label)
                            pending_views += 1
                        else:
                            label = "Refresh"
                            hand_of[pid] = await mover.click(hand_of[pid].response.message, label=label)
                        run.hand_clicks[label].append((len(env.http_requests) - before, time.perf_counter() - start,
                                                       time.process_time() - cpu0))
                    hand = hand_of[pid]
                    action = rng.choice(table.state.legal_actions(pid))
                    code = action.code()
                    via, custom_id = find_control(hand.response.components or [], code)
                    before_version = table.record.version
                    before = len(env.http_requests)
                    start = time.perf_counter()
                    cpu0 = time.process_time()
                    if via == "select":
                        result = await mover.select(hand.response.message, [code], custom_id=custom_id)
                    else:
                        result = await mover.click(hand.response.message, custom_id=custom_id)
                    elapsed = time.perf_counter() - start
                    cpu = time.process_time() - cpu0
                    if table.record.version != before_version + 1:
                        raise RuntimeError(f"move {code} by {pid} was not applied: {result.response}")
                    over = table.status != "playing"
                    now_current = frozenset() if over else table.state.current_players()
                    run.moves.append(Move(flow, action.kind, via, requests_since(env, before), elapsed, cpu,
                                          turn_passed=pid not in now_current, over=over, index=index,
                                          pending_views=pending_views))
                    hand_of[pid] = result
                    last_mover = pid
                    index += 1
                run.games[flow] += 1
                # No table is open now (no turn timer runs): let the virtual clock pass the
                # 15-minute timers of this game's hand messages (see the module docstring).
                await env.advance_time(HAND_VIEW_TIMEOUT + 1)
    finally:
        await bot.storage.close()  # open aiosqlite threads would keep the process alive
    return run


def pct(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), -(-len(ordered) * q // 100)))
    return ordered[int(rank) - 1]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def timing(values: Sequence[float]) -> str:
    return f"median {ms(statistics.median(values))}, p99 {ms(pct(values, 99))}, max {ms(max(values))} ms"


def report(run: Run, args: argparse.Namespace, data_dir: Path) -> None:
    moves = run.moves
    games = sum(run.games.values())
    print(f"Python {platform.python_version()} ({platform.python_implementation()}) on {platform.machine()}, "
          f"discord.py {metadata.version('discord.py')}, simcord {metadata.version('simcord')}")
    print(f"{games} Blackjack games ({', '.join(f'{n} {f}' for f, n in run.games.items())} flow), "
          f"{args.players} players, rng seed {args.seed}, databases in {data_dir}")
    print()
    calls = [len(m.requests) for m in moves]
    print(f"moves: {len(moves)} ({len(moves) / games:.1f} per game)")
    print(f"REST calls per move: mean {statistics.fmean(calls):.3f}, max {max(calls)}  (issue target: mean <= {TARGET_CALLS:g})")
    print("  distribution: " + ", ".join(f"{n} calls: {c} moves" for n, c in sorted(Counter(calls).items())))
    print(f"handling time per move, click to settled (issue target: p99 <= {TARGET_P99_MS:g} ms):")
    for flow in FLOWS:
        group = [m.seconds for m in moves if m.flow == flow]
        if group:
            print(f"  {flow + ' flow':<13} {len(group):4} moves: {timing(group)}, mean {ms(statistics.fmean(group))} ms")
    print(f"  all           {len(moves):4} moves: {timing([m.seconds for m in moves])}")
    print(f"  CPU time of the process during those clicks (no idle waits): {timing([m.cpu for m in moves])}")
    print(f"  inside it, TableManager.act (lock, rules, commit, render, both REST calls): {timing(run.acts)}")
    print(f"  inside that, TableManager._commit (SQLite WAL, synchronous=FULL):           {timing(run.commits)}")
    for label, clicks in run.hand_clicks.items():
        counts = Counter(n for n, _, _ in clicks)
        print(f"{label} clicks (not moves): {len(clicks)}, REST calls each: "
              + ", ".join(f"{n} ({c}x)" for n, c in sorted(counts.items()))
              + f"; {timing([t for _, t, _ in clicks])}, CPU median {ms(statistics.median(c for _, _, c in clicks))} ms"
              + " (no commit: a yardstick of SimCord's share)")
    print()

    print("REST requests by what the move had to show (mean per move):")
    by_category: dict[str, list[Move]] = defaultdict(list)
    for m in moves:
        by_category[m.category].append(m)
    for category, group in sorted(by_category.items(), key=lambda kv: -len(kv[1])):
        print(f"  {category}: {len(group)} moves, {statistics.fmean(len(m.requests) for m in group):.2f} calls/move, "
              f"{timing([m.seconds for m in group])}")
        for (method, path), count in Counter(r for m in group for r in m.requests).most_common():
            print(f"      {count / len(group):5.2f} x {method:<6} {path}")
    print()
    print("By action (kind via control):")
    by_kind: dict[tuple[str, str], list[Move]] = defaultdict(list)
    for m in moves:
        by_kind[(m.kind, m.via)].append(m)
    for (kind, via), group in sorted(by_kind.items(), key=lambda kv: -len(kv[1])):
        passed = sum(m.turn_passed for m in group)
        print(f"  {kind:<5} via {via:<6}: {len(group):4} moves, turn passed on {passed:4}, "
              f"{statistics.fmean(len(m.requests) for m in group):.2f} calls/move, "
              f"median {ms(statistics.median(m.seconds for m in group))} ms")
    print()
    print("Within a game (the harness effect: pending 15-min hand-view timers slow SimCord's settling):")
    for flow in FLOWS:
        for label, low, high in (("moves 0-19", 0, 20), ("moves 20-59", 20, 60), ("moves 60+", 60, 10**9)):
            group = [m for m in moves if m.flow == flow and low <= m.index < high]
            if group:
                print(f"  {flow:<7} {label:<11}: {len(group):4} moves, {timing([m.seconds for m in group])}; "
                      f"hand-view timers pending {statistics.fmean(m.pending_views for m in group):.0f} on average")
    print()
    print(f"Per game, not moves: opening the table, joins and Start made {sum(run.setup_requests.values()) / games:.1f} "
          "REST calls on average:")
    for (method, path), count in run.setup_requests.most_common():
        print(f"      {count / games:5.2f} x {method:<6} {path}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="REST calls and handling time per Blackjack move through SimCord.")
    parser.add_argument("--games", type=int, default=6, help="whole games to play (default 6)")
    parser.add_argument("--players", type=int, default=3, help="simulated members at the table (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the members' random choices")
    parser.add_argument("--flow", choices=("both", *FLOWS), default="both",
                        help="how a player gets their hand each turn: show (Show hand), refresh (🔄 on one hand "
                             "message), both (default: alternate game by game)")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="where the guild databases go (default: a fresh temporary directory); "
                             "the disk under it sets the cost of synchronous=FULL commits")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="deckhand-bench-") as tmp:
        data_dir = args.data_dir or Path(tmp) / "data"
        run = asyncio.run(play_games(args, data_dir))
        report(run, args, data_dir)


if __name__ == "__main__":
    main()
