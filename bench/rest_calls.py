"""REST calls, interactions and messages per move, per game, through the real bot in SimCord.

    python bench/rest_calls.py [--games 3] [--seed 1] [--game blackjack|idiot|engines|all] [--max-moves 400]
                               [--players N] [--forget P] [--layout v2|classic] [--dm N] [--deal-seed S]

Simulated members open a table (``/<game> new``), join, start, and play whole games the
way issue 9 expects a person to: a player clicks **Show hand** on the ping only when
they have no open hand message yet (or its 15-minute token ran out); otherwise the open
hand has already updated itself when their turn came, and they play from it. A move is a
random legal action (seeded ``random.Random``) made with the hand's select or button
(turning a select page when needed). Blackjack and Idiot: 3 players; Engines: 2
(``--players`` sets it for the chosen game). ``--forget P``: after each move the player
closes their hand with probability P (they then need the board's Show hand, and the bot
must ping them): 0 is the design's norm, 1 the worst case of nobody keeping a hand open.
``--layout``: the board and hand layout (``/settings layout``); Components V2 by default.
``--dm N``: the last N players of each table keep their hands in DMs (``/settings hands
where:dm``): their hand is the bot's latest DM, which it sends anew when their turn comes
(Show hand on the board only when that DM cannot play the move); 0 by default.

Printed per game (budgets of issue 9; numbers only, nothing is asserted):

- parent-channel messages per game: messages the bot POSTed to the channel the lobby
  was opened in (the lobby itself; edits are not messages). Target <= 2.
- thread messages per move: messages the bot POSTed in the game's thread (board
  re-posts and pings), per move.
- interactions per move by the acting player: Show hand, page turns and the move
  itself. Target: mean <= 1.2.
- REST calls per move, everything included: every request the bot made from the
  player's first click for the move until the bot settled (the interaction answer,
  the board edit, pings and their clean-up, the next player's live hand, DM notices).
  Target: mean <= 3; the max is printed.

The deal seed comes from the bot (``secrets``), so the games differ from run to run,
unless ``--deal-seed S`` draws the deals from ``random.Random(S)`` instead: the same
command then plays the same games, move for move, so two versions of the bot can be
compared on exactly the same play.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # so ``tests`` imports when run from anywhere

import discord  # noqa: E402
import simcord  # noqa: E402
from simcord.results import to_discord_message  # noqa: E402

from tests.conftest import make_bot  # noqa: E402
from tests.e2e.ui import has_control_for, head, use_control  # noqa: E402

PLAYERS = {"blackjack": 3, "idiot": 3, "engines": 2}
POSTED = (discord.MessageType.default, discord.MessageType.chat_input_command, discord.MessageType.reply)


def now(env: Any, message: Any) -> Any:
    return to_discord_message(env, env.backend.messages[message.channel.id][message.id])


def latest_dm(env: Any, member: Any) -> Any:
    """The bot's newest message in the member's DMs (their DM hand), or None."""
    channel = member.user.dm_channel
    mine = [m for m in channel.history() if m.author.bot] if channel is not None else []
    return now(env, mine[-1]) if mine else None


async def play(game: str, games: int, rng: random.Random, data_dir: Path, max_moves: int, forget: float = 0.0, layout: str = "v2", dm: int = 0) -> dict[str, Any]:
    calls: list[int] = []
    clicks: list[int] = []
    thread_posts: list[int] = []
    parent_posts: list[int] = []
    by_path: Counter[tuple[str, str]] = Counter()
    moves_per_game: list[int] = []
    bot = make_bot(data_dir / game)
    try:
        async with simcord.run(bot) as env:
            guild = env.create_guild()
            members = [guild.add_member(env.create_user(f"{game}{i}")) for i in range(PLAYERS[game])]
            by_id = {m.id: m for m in members}
            if layout != "v2":  # the default needs no setting
                admin = guild.add_member(env.create_user("admin"), roles=[guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))])
                await admin.slash(guild.create_text_channel("settings"), "settings layout", style=layout)
            in_dm = {m.id for m in members[len(members) - dm:]} if dm else set()
            for m in members:
                if m.id in in_dm:
                    await m.slash(guild.create_text_channel(f"settings-{m.id}"), "settings hands", where="dm")
            for number in range(games):
                channel = guild.create_text_channel(f"{game}-{number}")
                opened = await members[0].slash(channel, f"{game} new", **({"players": PLAYERS[game]} if game == "engines" else {}))
                lobby = opened.response.message
                for m in members[1:]:
                    await m.click(lobby, label="Join either side" if game == "engines" else "Join")
                await members[0].click(lobby, label="Start")
                (table,) = env.bot.tables.tables()
                place = table.record.place
                hands: dict[int, Any] = {}
                moves = 0
                while table.status == "playing" and moves < max_moves:
                    pid = rng.choice(sorted(table.state.current_players()))
                    mover = by_id[pid]
                    code = rng.choice(table.state.legal_actions(pid)).code()
                    start = len(env.http_requests)
                    if pid in in_dm:
                        hand = latest_dm(env, mover)
                    else:
                        hand = now(env, hands[pid]) if pid in hands else None
                    if hand is None or not has_control_for(hand, code) and "Your move" not in head(hand):
                        ping = next(m for m in reversed(channel.threads[-1].history() if channel.threads else channel.history()) if m.components)
                        shown = (await mover.click(ping, label="Show hand")).response.message
                        hand = latest_dm(env, mover) if pid in in_dm else shown
                    version = table.record.version
                    # A DM hand is clicked as the user (a DM is outside the server).
                    result = await use_control(mover.user if pid in in_dm else mover, hand, code)
                    if table.record.version != version + 1:
                        raise RuntimeError(f"move {code} by {pid} was not applied: {result.response}")
                    hands[pid] = result.response.message
                    if forget and rng.random() < forget:
                        del hands[pid]
                    requests = env.http_requests[start:]
                    calls.append(len(requests))
                    clicks.append(sum(1 for r in requests if r.path.startswith("/interactions/")))
                    thread_posts.append(sum(1 for r in requests if r.method == "POST" and r.path == f"/channels/{place}/messages"))
                    by_path.update((r.method, _shape(r.path)) for r in requests)
                    moves += 1
                if table.status == "playing":
                    await members[0].slash(channel.threads[-1] if channel.threads else channel, "cancel")
                moves_per_game.append(moves)
                # Messages from the bot in the parent channel (not Discord's "started a thread" notice).
                parent_posts.append(sum(1 for m in channel.history() if m.author.bot and m.type in POSTED))
    finally:
        await bot.storage.close()
    return {"calls": calls, "clicks": clicks, "thread_posts": thread_posts, "parent_posts": parent_posts,
            "moves": moves_per_game, "by_path": by_path, "layout": layout, "dm": dm}


def _shape(path: str) -> str:
    import re

    path = re.sub(r"/(interactions|webhooks)/(\d+|\{id\})/[^/]+", r"/\1/{id}/{token}", path)
    return re.sub(r"/\d{5,}", "/{id}", path)


def report(game: str, data: dict[str, Any]) -> None:
    calls, clicks = data["calls"], data["clicks"]
    print(f"== {game}: {len(data['moves'])} games, {PLAYERS[game]} players ({data['dm']} with DM hands), {data['layout']} layout, moves per game {data['moves']}")
    print(f"  parent-channel messages per game: {data['parent_posts']} (the lobby, edited to 'in play' then the result; target <= 2)")
    print(f"  thread messages per move: mean {statistics.fmean(data['thread_posts']):.3f}, max {max(data['thread_posts'])}")
    print(f"  interactions per move by the acting player: mean {statistics.fmean(clicks):.3f}, max {max(clicks)} (target mean <= 1.2)")
    print(f"  REST calls per move, everything included: mean {statistics.fmean(calls):.3f}, max {max(calls)} (target mean <= 3)")
    print("    distribution: " + ", ".join(f"{n} calls: {c}" for n, c in sorted(Counter(calls).items())))
    for (method, path), count in data["by_path"].most_common():
        print(f"    {count / len(calls):5.2f} x {method:<6} {path}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=(*PLAYERS, "all"), default="all")
    parser.add_argument("--max-moves", type=int, default=400, help="cancel a game after this many moves")
    parser.add_argument("--players", type=int, help="players at each table of the chosen game")
    parser.add_argument("--forget", type=float, default=0.0, help="chance a player closes their hand after a move")
    parser.add_argument("--layout", choices=("v2", "classic"), default="v2", help="board and hand layout (/settings layout)")
    parser.add_argument("--dm", type=int, default=0, help="players per table (the last ones) whose hands are in their DMs")
    parser.add_argument("--deal-seed", type=int, help="draw the deals from this seed (the same games every run) instead of secrets")
    args = parser.parse_args(argv)
    if args.players:
        if args.game == "all":
            parser.error("--players needs --game")
        PLAYERS[args.game] = args.players
    logging.basicConfig(level=logging.WARNING)
    rng = random.Random(args.seed)
    if args.deal_seed is not None:
        from types import SimpleNamespace

        import bot.discord_front.tables.lobby

        deals = random.Random(args.deal_seed)
        bot.discord_front.tables.lobby.secrets = SimpleNamespace(randbits=deals.getrandbits)  # type: ignore[attr-defined]
    with tempfile.TemporaryDirectory(prefix="deckhand-bench-") as tmp:
        for game in (PLAYERS if args.game == "all" else (args.game,)):
            report(game, asyncio.run(play(game, args.games, rng, Path(tmp), args.max_moves, args.forget, args.layout, args.dm)))


if __name__ == "__main__":
    main()
