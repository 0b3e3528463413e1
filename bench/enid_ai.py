"""Enid's computer players against each other: win rates with 95% confidence intervals
and decisions per second per level.

    python bench/enid_ai.py [--games 300] [--mode enid|plain] [--seed 1] [--session]

Each pairing (random vs easy, easy vs hard, random vs hard) plays ``--games`` 2-player
games from fixed seeds, the seats swapping every game (so each level goes first as
often). Every seat acts through ``bot.ai.decide`` from its own ``PlayerView`` exactly as
at a table: a seat owing words (a card's name, a shout, "Last St. Francis", a limerick)
is asked first, then the current player; nobody times out. ``random`` speaks with
``ai.SLIP["random"]`` slips and forgets half the chain, and picks turn moves uniformly.

``--session`` carries the session (chain, middle names) from game to game within a
pairing, so memory matters (easy forgets, hard does not); by default every game starts
a fresh session.

Printed per pairing: wins of the first-named level, the win rate and its 95% Wilson
interval, mean moves per game. Per level: decisions per second and the slowest decision
seen (microseconds), measured around ``decide`` only.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo root

from bot.ai import Budget, PlayerView, decide, game_ai  # noqa: E402
from bot.engine import Action  # noqa: E402
from cogs.enid.rules import EnidGame  # noqa: E402

AI = game_ai("enid")
PAIRINGS = (("easy", "random"), ("hard", "easy"), ("hard", "random"))


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def play(levels: dict[int, str], seed: str, mode: str, carry: dict | None, timing: dict[str, list[float]]) -> tuple[EnidGame, int]:
    options = {"mode": mode, **({"carry": carry} if carry else {})}
    game = EnidGame.new(list(levels), options, seed=seed)
    rng = random.Random(seed)
    budget = Budget.timed(time.perf_counter)
    moves = 0
    while not game.is_over() and moves < 3000:
        owing = [p for p in game.players if AI.owes(game.observation(p), p)]
        askable = owing + sorted(game.current_players())
        if not askable:  # cannot happen with every seat answering; kept so a bug shows as a timeout, not a hang
            o = game.obligations[0]
            game.apply(o["player"], Action("timeout", arg=o["id"]))
            continue
        player = askable[0]
        view = PlayerView.of(game, player)
        start = time.perf_counter()
        action = decide(view, levels[player], rng, budget=budget)
        timing[levels[player]].append(time.perf_counter() - start)
        game.apply(player, action)
        moves += 1
    return game, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--mode", choices=("enid", "plain"), default="enid")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--session", action="store_true")
    args = parser.parse_args()
    timing: dict[str, list[float]] = defaultdict(list)
    AI.warm_up()  # as the platform does before a table's first decision
    print(f"Enid computer players, mode {args.mode}, {args.games} two-player games per pairing"
          f"{', one session per pairing' if args.session else ''}")
    print(f"{'pairing':<18}{'wins':>8}{'win rate':>10}{'95% CI':>18}{'moves/game':>12}")
    for first, second in PAIRINGS:
        wins = total_moves = 0
        carry = None
        for n in range(args.games):
            seats = {1: first, 2: second} if n % 2 == 0 else {1: second, 2: first}
            game, moves = play(seats, f"bench-{args.seed}-{first}-{second}-{n}", args.mode, carry, timing)
            total_moves += moves
            wins += game.winner is not None and seats[game.winner] == first
            if args.session and args.mode == "enid":
                carry = game.carry_out()
        low, high = wilson(wins, args.games)
        print(f"{first + ' vs ' + second:<18}{wins:>8}{wins / args.games:>10.3f}{f'[{low:.3f}, {high:.3f}]':>18}{total_moves / args.games:>12.1f}")
    print(f"\n{'level':<8}{'decisions':>10}{'decisions/s':>13}{'p99 us':>9}{'max us':>9}")
    for level in ("random", "easy", "hard"):
        times = sorted(timing[level])
        if times:
            p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
            print(f"{level:<8}{len(times):>10}{len(times) / sum(times):>13.0f}{p99 * 1e6:>9.0f}{times[-1] * 1e6:>9.0f}")


if __name__ == "__main__":
    main()
