"""Replays (bot/replay/): opening one and stepping through it, and the animated picture
of a whole Idiot game. Numbers only: nothing here asserts a time.

    python bench/replay.py [--moves 300] [--clicks 60] [--games 3] [--players 3] [--seed 1]

**Steps.** A finished Idiot game of about ``--moves`` moves (random legal play, four
players; the first seed whose game is that long) is stored in a fresh SQLite folder,
as the table core stores one. Then, as a Discord step would cost it, each of
``--clicks`` clicks on a random step is timed whole: the replay opened from storage
(the row, the log, the rules playing it again), the step's heading, lines and board
embed, its picture's rows and the PNG drawn by ``cardart.render_rows`` (its part
caches warm from the clicks before, as in a running bot). Three ways:

- *cold*: every click opens the replay afresh (after a restart, or a replay the
  shelf dropped): the worst case of a click;
- *shelf*: the replay stays on a ``ReplayShelf`` (the usual case: the same person
  stepping), so a click is the step alone;
- *first*: the first click after a start, caches empty, the faces of the deck not yet
  drawn (the bot draws them at start-up, so this is worse than a bot's first click).

**Animated picture.** ``--games`` Idiot games played by easy computer players
(``--players`` seats), each replayed and turned into one animated PNG
(``animation.frames`` then ``animation.animate``): the process's CPU seconds for it
(``time.process_time``, all threads), its size in bytes and its frames. Each game is
drawn from empty picture caches (``cardart``'s caches cleared first), as an animation
is drawn rarely.

**Discord** (``--only discord``): the same long game, stored in a real bot's storage
(``tests/conftest.make_bot``) running against SimCord, a member of the game's server
presses Replay (open) and then ``--clicks`` times a step button (⏮ ◀ ▶ ⏭ or a step far
away, as Go to move… would), each click timed whole from the click to the edited
message (the bot's deferral guard, the replay opened from the shelf or storage, the
picture drawn through the bot's picture pool, the interaction answer, SimCord's own
work). Twice: with the replay on the shelf, and with the shelf emptied before each
click (a restart, or a replay the shelf dropped). It also counts the requests a step
made with the bot's token (against the global limit): 0 expected.

Run it alone on the machine for numbers to compare (it uses one core); a short run
(the defaults) takes about a minute.
"""

from __future__ import annotations

import argparse
import asyncio
import copy
import io
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path[:2]:
    sys.path.insert(0, str(ROOT))

from PIL import Image  # noqa: E402

from bot.pictures import cardart  # noqa: E402
from bot.replay import animation  # noqa: E402
from bot.replay.opening import ReplayShelf, open_replay  # noqa: E402
from bot.replay.steps import build  # noqa: E402
from cogs import catalog  # noqa: E402
from storage import open_storage, repos  # noqa: E402
from storage.repos import TableRecord  # noqa: E402

GUILD = 7
PEOPLE = [301_234_567_890_123_411 + i for i in range(6)]


def random_game(spec: Any, players: list[int], seed: int) -> tuple[dict[str, Any], list[tuple[int, str]], Any]:
    options = {rule.key: rule.default for rule in spec.house_rules}
    state = spec.game.new(players, copy.deepcopy(options), seed=str(seed))
    rng, log = random.Random(seed), []
    while not state.is_over():
        player = rng.choice(sorted(state.current_players()))
        action = rng.choice(state.legal_actions(player))
        state.apply(player, action)
        log.append((player, action.code()))
    return options, log, state


def easy_game(spec: Any, players: list[int], seed: int) -> tuple[dict[str, Any], list[tuple[int, str]], Any]:
    """A game played by easy computer players, as a table of computers plays it."""
    from bot.ai import PlayerView, decide

    options = {rule.key: rule.default for rule in spec.house_rules}
    state = spec.game.new(players, copy.deepcopy(options), seed=str(seed))
    rng, log = random.Random(seed), []
    while not state.is_over() and len(log) < 5000:
        player = sorted(state.current_players())[0]
        action = decide(PlayerView.of(state, player), "easy", rng)
        state.apply(player, action)
        log.append((player, action.code()))
    return options, log, state


async def store(storage: Any, key: str, players: list[int], seed: int, options: dict[str, Any], log: list[tuple[int, str]], state: Any) -> int:
    """The finished game as the table core leaves it in storage."""
    async with storage.transaction(GUILD) as db:
        table = await repos.insert_table(db, game=key, channel_id=1, host_id=players[0], options=options, timer_seconds=60, now=1.0)
        await repos.update_table(db, table, now=2.0, status="finished", players=players, seed=str(seed), state=state.to_json(), version=len(log))
        await repos.run_writes(db, [repos.action_insert(table, n, user, code, "player", 2.0) for n, (user, code) in enumerate(log, 1)])
    return table


def click(replay: Any, index: int, names: dict[int, str], plain: dict[int, str]) -> int:
    """What answering one step's click draws: the words and the picture (its bytes)."""
    step = replay.step(index)
    replay.heading(step)
    lines = replay.lines(step, names)
    replay.board(step, names, lines)
    rows = replay.rows(step, plain)
    return len(cardart.render_rows(rows, title=f"{replay.spec.title} #{replay.table_id} · {replay.heading(step)}"))


def summary(seconds: list[float], cpu: list[float]) -> str:
    """Wall time (what the person waits) and the process's CPU time (what it costs the
    machine, whatever else runs on it) per click."""
    def stats(values: list[float]) -> str:
        ordered = sorted(values)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        return f"median {statistics.median(ordered) * 1e3:6.1f}  p99 {p99 * 1e3:6.1f}  max {ordered[-1] * 1e3:6.1f} ms"

    return f"wall {stats(seconds)} | CPU {stats(cpu)}  ({len(seconds)} clicks)"


async def steps_bench(args: argparse.Namespace) -> None:
    spec = catalog.spec("idiot")
    players = PEOPLE[:4]
    for seed in range(args.seed, args.seed + 2000):
        options, log, state = random_game(spec, players, seed)
        if args.moves <= len(log) <= args.moves * 1.05:
            break
    else:
        raise SystemExit(f"no Idiot game of about {args.moves} moves in 2000 seeds")
    games = catalog.registry(("idiot",))
    with tempfile.TemporaryDirectory() as folder:
        storage = open_storage(Path(folder))
        try:
            table = await store(storage, "idiot", players, seed, options, log, state)
            started = time.perf_counter()
            replay = await open_replay(storage, games, GUILD, table)
            names = replay.names()
            plain = {p: f"Player {i}" for i, p in enumerate(replay.players, 1)}
            size = click(replay, 0, names, plain)
            first = time.perf_counter() - started
            print(f"game: Idiot, 4 players, {replay.moves} moves, {len(replay)} steps (seed {seed})")
            print(f"first click after a start (empty caches): {first * 1e3:.1f} ms, picture {size} bytes")
            rng = random.Random(args.seed)
            picks = [rng.randrange(len(replay)) for _ in range(args.clicks)]
            cold, cold_cpu, sizes = [], [], []
            for index in picks:
                t0, c0 = time.perf_counter(), time.process_time()
                opened = await open_replay(storage, games, GUILD, table)
                sizes.append(click(opened, index, names, plain))
                cold.append(time.perf_counter() - t0)
                cold_cpu.append(time.process_time() - c0)
            shelf = ReplayShelf()
            await open_replay(storage, games, GUILD, table, shelf=shelf)
            warm, warm_cpu = [], []
            for index in [rng.randrange(len(replay)) for _ in range(args.clicks)]:  # steps not all drawn yet
                t0, c0 = time.perf_counter(), time.process_time()
                opened = await open_replay(storage, games, GUILD, table, shelf=shelf)
                click(opened, index, names, plain)
                warm.append(time.perf_counter() - t0)
                warm_cpu.append(time.process_time() - c0)
            print(f"a click, replay opened afresh: {summary(cold, cold_cpu)}")
            print(f"a click, replay on the shelf : {summary(warm, warm_cpu)}")
            print(f"step pictures: median {statistics.median(sizes) / 1000:.1f} kB, max {max(sizes) / 1000:.1f} kB")
        finally:
            await storage.close()


def animation_bench(args: argparse.Namespace) -> None:
    spec = catalog.spec("idiot")
    players = PEOPLE[: args.players]
    for seed in range(args.seed, args.seed + args.games):
        animate_one(spec, players, seed, *easy_game(spec, players, seed), f"{args.players} easy players")
    for seed in range(args.seed, args.seed + 2000):  # the long game of the steps' bench
        options, log, state = random_game(spec, PEOPLE[:4], seed)
        if args.moves <= len(log) <= args.moves * 1.05:
            animate_one(spec, PEOPLE[:4], seed, options, log, state, "4 random players")
            break


def animate_one(spec: Any, players: list[int], seed: int, options: dict[str, Any], log: list[tuple[int, str]], state: Any, who: str) -> None:
    plain = {p: f"Player {i}" for i, p in enumerate(players, 1)}
    record = TableRecord(
        id=seed, game="idiot", channel_id=1, host_id=players[0], status="finished", players=players, seat_choices={},
        options=options, seed=str(seed), state=state.to_json(), version=len(log), timer_seconds=60, deadline=None,
        obligations={}, strikes={}, recent=[], lobby_message_id=None, message_id=None, message_posted_at=None,
        turn_players=[], created_at=0.0, updated_at=0.0,
    )
    replay = build(spec, record, [(user, code, "player") for user, code in log])
    cardart.clear_caches()  # drawn from cold caches (the faces stay: the bot draws them at start-up)
    cpu, wall = time.process_time(), time.perf_counter()
    shown = animation.frames(replay, plain)
    data = animation.animate(shown)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    with Image.open(io.BytesIO(data)) as image:
        frames = image.n_frames
    print(f"Idiot, {who}, seed {seed}: {replay.moves} moves, {len(replay)} steps -> "
          f"{frames} frames, {len(data):,} bytes ({len(data) / 2**20:.2f} MiB), CPU {cpu:.2f} s, wall {wall:.2f} s")


async def discord_bench(args: argparse.Namespace) -> None:
    from tests.conftest import make_bot

    with tempfile.TemporaryDirectory() as folder:
        bot = make_bot(Path(folder), ("bot.discord_front.commands", "cogs.idiot.cog"))
        try:
            await discord_clicks(args, bot)
        finally:
            await bot.tables.close()
            await bot.storage.close()


async def discord_clicks(args: argparse.Namespace, bot: Any) -> None:
    import simcord
    from simcord.results import to_discord_message

    from tests.hardening.forge import forge_component

    spec = catalog.spec("idiot")
    async with simcord.run(bot) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("cards")
        members = [guild.add_member(env.create_user(f"p{i}")) for i in range(4)]
        players = [m.id for m in members]
        for seed in range(args.seed, args.seed + 2000):
            options, log, state = random_game(spec, players, seed)
            if args.moves <= len(log) <= args.moves * 1.05:
                break
        async with bot.storage.transaction(guild.id) as db:
            table = await repos.insert_table(db, game="idiot", channel_id=channel.id, host_id=players[0], options=options, timer_seconds=60, now=1.0)
            await repos.update_table(db, table, now=2.0, status="finished", players=players, seed=str(seed), state=state.to_json(), version=len(log))
            await repos.run_writes(db, [repos.action_insert(table, n, user, code, "player", 2.0) for n, (user, code) in enumerate(log, 1)])
        clicker = members[0]

        def current(message: Any) -> Any:
            return to_discord_message(env, env.backend.messages[message.channel.id][message.id])

        def controls(message: Any, prefix: str) -> list[str]:
            return [c["custom_id"] for row in message.components for c in row.to_dict()["components"]
                    if c.get("custom_id", "").startswith(prefix) and not c.get("disabled")]

        own = await clicker.send(channel, "replay, please")
        t0 = time.perf_counter()
        opened = await forge_component(clicker, own, f"dh:replay:{guild.id}:{table}")
        first = time.perf_counter() - t0
        message = opened.response.message
        print(f"Discord: Idiot, 4 players, {len(log)} moves (seed {seed}); Replay pressed, first open (empty shelf, cold caches): {first * 1e3:.1f} ms")
        rng = random.Random(args.seed)
        for label, cold in (("on the shelf", False), ("shelf emptied", True)):
            seconds: list[float] = []
            cpu: list[float] = []
            token_requests = 0
            for _ in range(args.clicks):
                shown = current(message)
                form = None
                if rng.random() < 0.3:  # a step far away: Go to move… (the form's submit is timed)
                    form = await clicker.click(shown, custom_id=controls(shown, "dh:rpj:")[0])
                if cold:
                    bot.replays.shelf = ReplayShelf()
                start = len(env.http_requests)
                t0, c0 = time.perf_counter(), time.process_time()
                if form is not None:
                    await clicker.submit_modal(form, {"move": str(rng.randrange(len(log) + 1))})
                else:
                    await clicker.click(shown, custom_id=rng.choice(controls(shown, "dh:rp:")))
                seconds.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
                token_requests += sum(1 for r in env.http_requests[start:] if not r.path.startswith("/interactions/"))
            print(f"Discord step, replay {label:13}: {summary(seconds, cpu)}; requests with the bot's token: {token_requests}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--clicks", type=int, default=60)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", choices=("steps", "animation", "discord"), default=None)
    args = parser.parse_args()
    if args.only in (None, "steps"):
        asyncio.run(steps_bench(args))
    if args.only in (None, "animation"):
        animation_bench(args)
    if args.only in (None, "discord"):
        asyncio.run(discord_bench(args))


if __name__ == "__main__":
    main()
