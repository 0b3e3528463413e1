"""The first limerick after a start: how long from the typed poem to the judged board.

    python bench/enid_limerick.py [--starts 6] [--limericks 12] [--warm both|on|off]

Each start is a fresh Python process running the real bot in SimCord (so the
pronouncing dictionary is not in memory yet). In it, ``--limericks`` Enid tables are
played, each in its own channel, from a stacked deal up to a recited limerick: Ada lays
a black Six (Show hand, the hand's select), names it and types a first line; Bob presses
Recite; then the timed step: Bob's message with lines 2 to 5, from ``send`` until the
bot has judged it (the hint: syllables and rhymes from the dictionary), opened the vote,
posted its message and edited the board (SimCord returns once the bot is idle). The
poems differ from table to table (five of them, in turn), so later judgements are not
only cache hits.

``--warm on``: the bot as it starts now (``cogs/enid/cog.py`` reads the dictionary in a
worker thread at start-up; the bench waits for that, as the minutes before a table's
first limerick would). ``off``: that warm-up replaced by nothing, as before: the first
lookup reads the dictionary on the event loop. ``both`` (default) alternates the two,
one process at a time, so both see the same machine.

Printed per setting: each start's first judgement, and median / p95 / max of the later
ones (ms), and how long the worker took to read the dictionary. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

POEMS = [
    ["There once was a coder from Warwick", "Whose programs were rather historic", "She laid down a nine",
     "And named it just fine", "And her chain of names grew euphoric"],
    ["A fisherman out on the bay", "Caught a sturgeon one bright summer day", "It sang him a song",
     "That went on far too long", "So he threw the poor creature away"],
    ["A halibut swam to the shore", "Where it met a dalmatian named Thor", "They talked about cards",
     "With the utmost regards", "Then they played until quarter past four"],
    ["An engineer working in Crewe", "Built a compiler or two", "It parsed every line",
     "In a manner divine", "But nobody knew what to do"],
    ["A carp with a taste for the odd", "Wore a hat and a coat and a pod", "It swam to the fair",
     "With a flower to spare", "And was greeted with many a nod"],
]


async def one_start(limericks: int, warm: bool) -> dict:
    import discord
    import simcord

    from cogs.enid import limerick
    from cogs.enid.rules import EnidGame
    from tests.conftest import make_bot
    from tests.e2e.ui import game_place, use_control

    logging.disable(logging.CRITICAL)
    # The application may read chat (tests/enid/conftest.py does the same).
    allowed = discord.ApplicationFlags(gateway_message_content_limited=True)
    discord.AppInfo.flags = property(lambda self: allowed)  # type: ignore[assignment]
    if not warm:
        # As before: no reading at start-up, the first lookup's init_cmu reads it on the
        # event loop. (discord.py runs an extension's module afresh, so the patch goes
        # on the limerick module the cog and the rules share.)
        limerick.load_dictionary = lambda: None
    real_new = EnidGame.new.__func__  # type: ignore[attr-defined]

    def stacked(cls, players, options=None, *, seed=None, deal=None):
        hands = [["6s", "9d", "5c"], ["5h", "3c", "4d"], ["Qh", "7d", "7c"]]
        deal = {"hands": dict(zip(players, hands, strict=True)), "discard": ["4s"],
                "deck": ["5d", "4c", "3d", "5h", "4h", "3h", "2d", "2h"], "first": players[0]}
        return real_new(cls, players, options, deal=deal)

    EnidGame.new = classmethod(stacked)  # type: ignore[method-assign]
    times: list[float] = []
    with tempfile.TemporaryDirectory(prefix="deckhand-limerick-") as tmp:
        bot = make_bot(Path(tmp))
        try:
            started = time.perf_counter()
            async with simcord.run(bot) as env:
                warming = [c.warm_task for c in env.bot.cogs.values() if getattr(c, "warm_task", None) is not None]
                if warm:
                    await asyncio.gather(*warming)
                loaded = time.perf_counter() - started
                guild = env.create_guild()
                ada, bob, cyd = (guild.add_member(env.create_user(name)) for name in ("ada", "bob", "cyd"))
                for n in range(limericks):
                    poem = POEMS[n % len(POEMS)]
                    channel = guild.create_text_channel(f"enid-{n}")
                    lobby = (await ada.slash(channel, "enid new")).response.message
                    for member in (bob, cyd):
                        await member.click(lobby, label="Join")
                    await ada.click(lobby, label="Start")
                    place = game_place(channel)
                    board = next(m for m in reversed(place.history()) if m.embeds or m.flags.components_v2)
                    shown = await ada.click(board, label="Show hand")
                    await use_control(ada, shown.response.message, "play:6s")
                    await ada.send(place, "Alan Turing of Sturgeon")
                    await ada.send(place, poem[0])
                    board = next(m for m in reversed(place.history()) if m.embeds or m.flags.components_v2)
                    shown = await bob.click(board, label="Show hand")
                    await use_control(bob, shown.response.message, "recite")
                    table = env.bot.tables.active_in_channel(guild.id, place.id)
                    begin = time.perf_counter()
                    await bob.send(place, "\n".join(poem[1:]))
                    times.append((time.perf_counter() - begin) * 1000)
                    if table.state.vote is None:
                        raise SystemExit("the limerick was not judged: the bench's game went wrong")
        finally:
            await bot.storage.close()
    return {"warm": warm, "loaded_s": loaded if warm else None, "ms": times}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--starts", type=int, default=6, help="fresh processes (alternating settings with --warm both)")
    parser.add_argument("--limericks", type=int, default=12, help="limericks judged per start")
    parser.add_argument("--warm", choices=("both", "on", "off"), default="both")
    parser.add_argument("--child", choices=("on", "off"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(asyncio.run(one_start(args.limericks, args.child == "on"))))
        return
    settings = ["on", "off"] if args.warm == "both" else [args.warm]
    runs: dict[str, list[dict]] = {s: [] for s in settings}
    for i in range(args.starts):
        setting = settings[i % len(settings)]
        out = subprocess.run([sys.executable, __file__, "--child", setting, "--limericks", str(args.limericks)],
                             capture_output=True, text=True, check=True, cwd=ROOT)
        runs[setting].append(json.loads(out.stdout.strip().splitlines()[-1]))
    for setting in settings:
        done = runs[setting]
        if not done:
            continue
        firsts = [r["ms"][0] for r in done]
        rest = [t for r in done for t in r["ms"][1:]]
        label = "warm-up at start (now)" if setting == "on" else "no warm-up (before)"
        print(f"{label}: {len(done)} starts x {args.limericks} limericks")
        print("  first judgement after a start, ms: " + ", ".join(f"{t:.0f}" for t in firsts))
        if rest:
            print(f"  later judgements ({len(rest)}): median {statistics.median(rest):.0f} ms, p95 {percentile(rest, 0.95):.0f} ms, max {max(rest):.0f} ms")
        if setting == "on":
            print("  dictionary read in the worker by, s after the bot began starting: " + ", ".join(f"{r['loaded_s']:.2f}" for r in done))


if __name__ == "__main__":
    main()
