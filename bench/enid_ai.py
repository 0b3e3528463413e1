"""Enid's computer players in the tournament format of bench/tournament.py: random vs
easy vs hard, 2 players, scores with 95% confidence intervals, moves/s per level and
hard's decision times against its budget (issue 12).

    python bench/enid_ai.py [--games 1000] [--hard-games N] [--hard-ms 100] [--hard-iterations 1000000]
                            [--pairings random-easy random-hard easy-hard] [--mode enid|plain] [--session] [--jobs 1]

As in bench/tournament.py: games of a pairing come in pairs on one fixed seed
(``tournament-enid-<i // 2>``) with the two levels in swapped seats; each seat decides
through ``bot.ai.decide`` from its own ``PlayerView`` with its own seeded
``random.Random``, and hard gets a fresh ``Budget.timed(time.perf_counter, --hard-ms)``
for every decision, as at a table. Enid's own part: a seat owing words (a card's name,
a shout, "Last St. Francis", a limerick's line) is asked before the current player, as
the platform asks every computer seat that ``owes``; nobody times out. ``random`` says
its words with ``ai.SLIP["random"]`` slips and forgets half the chain, and picks turn
moves uniformly.

By default every game starts a fresh session (an empty Enid chain, no middle names
used). ``--session`` carries the session from game to game within a pairing (within a
worker's share with ``--jobs``), so memory matters (easy forgets, hard does not).

Printed per pairing: the challenger's (second-named level's) score (win 1, draw 0.5,
loss 0) with its 95% confidence interval, W/D/L, moves/s per level (decisions / time
spent deciding, words included), and hard's median / p99 / max decision time over its
decisions with a choice; then the table of bench/tournament.py. Numbers only.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo root
sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/, for tournament's table

from tournament import MAX_MOVES, Result, report, summary  # noqa: E402

from bot.ai import PlayerView, game_ai  # noqa: E402
from bot.rules.engine import Action  # noqa: E402
from cogs.enid.rules import EnidGame  # noqa: E402

AI = game_ai("enid")


def play_one(levels: tuple[str, str], index: int, args: argparse.Namespace, result: Result, carry: dict | None) -> dict:
    """Game ``index``: ``levels[0]`` is the incumbent, ``levels[1]`` the challenger.
    Returns the session to carry on."""
    players = [1, 2]
    level_of = {1: levels[index % 2], 2: levels[1 - index % 2]}
    challenger = 1 if index % 2 else 2
    options = {"mode": args.mode, **({"carry": carry} if carry else {})}
    game = EnidGame.new(players, options, seed=f"tournament-enid-{index // 2}")
    rngs = {p: random.Random(f"enid-{index}-{p}") for p in players}
    hard_seconds = args.hard_ms / 1000
    moves = 0
    while not game.is_over() and moves < MAX_MOVES:
        owing = [p for p in game.players if AI.owes(game.observation(p), p)]
        askable = owing + sorted(game.current_players())
        if not askable:  # cannot happen with every seat answering; kept so a bug shows as a timeout, not a hang
            o = game.obligations[0]
            game.apply(o["player"], Action("timeout", arg=o["id"]))
            continue
        player = askable[0]
        level = level_of[player]
        action = result.decide(PlayerView.of(game, player), level, rngs[player], hard_seconds, args.hard_iterations)
        game.apply(player, action)
        moves += 1
    if not game.is_over():
        result.cut += 1
        result.scores.append(0.5)
    else:
        result.scores.append(1.0 if game.winner == challenger else 0.0)
    return game.carry_out() if args.session and args.mode == "enid" else {}


def run_chunk(levels: tuple[str, str], indices: range, args: argparse.Namespace) -> Result:
    result = Result()
    carry: dict = {}
    for index in indices:
        carry = play_one(levels, index, args, result, carry)
    return result


def run_pairing(levels: tuple[str, str], games: int, args: argparse.Namespace) -> Result:
    if args.jobs <= 1:
        return run_chunk(levels, range(games), args)
    step = math.ceil(games / args.jobs)
    step += step % 2  # a chunk holds whole pairs of games on one deal
    chunks = [range(i, min(games, i + step)) for i in range(0, games, step)]
    total = Result()
    with ProcessPoolExecutor(args.jobs) as pool:
        for part in pool.map(run_chunk, [levels] * len(chunks), chunks, [args] * len(chunks)):
            total.merge(part)
    return total


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per pairing (default 1000)")
    parser.add_argument("--hard-games", type=int, default=None, help="games for pairings with hard (default: --games)")
    parser.add_argument("--hard-ms", type=float, default=100.0, help="hard's time per decision in ms (default 100)")
    parser.add_argument("--hard-iterations", type=int, default=1_000_000, help="hard's simulation cap per decision")
    parser.add_argument("--pairings", nargs="*", default=["random-easy", "random-hard", "easy-hard"],
                        help="incumbent-challenger pairs (default: random-easy random-hard easy-hard)")
    parser.add_argument("--mode", choices=("enid", "plain"), default="enid")
    parser.add_argument("--session", action="store_true", help="carry the session (chain, middle names) from game to game")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = parser.parse_args(argv)
    AI.warm_up()  # as the platform does before a table's first decision
    print(f"Enid tournament: 2 players, mode {args.mode}, games in pairs on one deal with seats swapped, "
          f"{'one session per pairing' if args.session else 'a fresh session every game'}, "
          f"hard budget {args.hard_ms:g} ms/decision, jobs {args.jobs}")
    rows = []
    for pairing in args.pairings:
        levels = tuple(pairing.split("-"))
        assert len(levels) == 2, pairing
        games = args.hard_games if "hard" in levels and args.hard_games else args.games
        start = time.perf_counter()
        result = run_pairing(levels, games, args)  # type: ignore[arg-type]
        report("enid", levels, result, time.perf_counter() - start, args)  # type: ignore[arg-type]
        rows.append(("enid", levels, result))
    summary(rows, args)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
