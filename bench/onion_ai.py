"""Cripple Mr Onion computer players: chips won per round, win rates and decision times.

    python bench/onion_ai.py [--rounds 300] [--hard-rounds N] [--hard-ms 100] [--hard-evaluations N] [--players 2]
                             [--pairings random-easy easy-hard] [--variant gambling]

Each pairing plays ``--rounds`` independent rounds (each a new session: 100 chips each,
Stake 1, cap 10) between the two levels, ``--players`` seats alternating between them.
Rounds come in pairs on one fixed seed (``onion-ai-<pairing>-<i // 2>``) with the seats
swapped, so neither level is the first Dealer or holds the better cards more often.
Every seat decides through ``bot.ai.decide`` from a ``PlayerView`` only; hard thinks for
``--hard-ms`` by ``time.perf_counter`` (``Budget.timed``), as at the table, or, with
``--hard-evaluations N``, for N hand evaluations whatever the clock (results independent of
the machine's load).

Printed per pairing, for the second level (the challenger):
- chips won per round (its seats' chips after the round minus before, ante included),
  mean with a 95% confidence interval (normal approximation over rounds);
- its win rate: the share of rounds with a winner won by one of its seats, with a 95%
  interval (rounds where everybody folded have no winner and are counted apart);
- decision time per level: median, p99 and max, next to hard's budget.
Numbers only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo root

from bot.ai import Budget, PlayerView, decide  # noqa: E402
from cogs.onion.rules import OnionGame  # noqa: E402

MAX_MOVES = 400


def interval(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("nan")
    return mean, mean - half, mean + half


def play_round(levels: tuple[str, str], index: int, players: int, hard_seconds: float, variant: str,
               times: dict[str, list[float]], evaluations: int | None = None) -> tuple[int, bool | None]:
    """One round; returns (challenger's chips won, challenger won: True/False/None for all fold)."""
    seats = list(range(1, players + 1))
    swap = index % 2
    level_of = {p: levels[(i + swap) % 2] for i, p in enumerate(seats)}
    tag = f"onion-ai-{levels[0]}-{levels[1]}-{index // 2}"
    game = OnionGame.new(seats, {"variant": variant, "carry": {"dealer": seats[0]}}, seed=tag)
    before = {p: game.chips[p] + (game.options["stake"] if variant == "gambling" else 0) for p in seats}
    rng = random.Random(f"{tag}-{swap}")
    for _ in range(MAX_MOVES):
        if game.is_over():
            break
        player = min(game.current_players(), key=seats.index)
        level = level_of[player]
        view = PlayerView.of(game, player)
        started = time.perf_counter()
        budget = Budget(iterations=evaluations) if evaluations else Budget.timed(time.perf_counter, hard_seconds)
        action = decide(view, level, rng, budget=budget)
        times.setdefault(level, []).append(time.perf_counter() - started)
        game.apply(player, action)
    mine = [p for p in seats if level_of[p] == levels[1]]
    won = sum(game.chips[p] - before[p] for p in mine)
    if variant != "gambling":
        won = 0
    return won, (game.winner in mine) if game.winner is not None else None


def summary(ts: list[float]) -> str:
    ts = sorted(ts)
    p99 = ts[min(len(ts) - 1, int(0.99 * len(ts)))]
    return f"median {statistics.median(ts) * 1e3:6.1f} ms  p99 {p99 * 1e3:6.1f} ms  max {ts[-1] * 1e3:6.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--hard-rounds", type=int, default=None, help="rounds for pairings with hard")
    parser.add_argument("--hard-ms", type=float, default=100.0)
    parser.add_argument("--hard-evaluations", type=int, default=None,
                        help="cap hard at this many hand evaluations instead of a time budget (load-independent)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--variant", default="gambling", choices=("gambling", "plain"))
    parser.add_argument("--pairings", nargs="+", default=["random-easy", "easy-hard"])
    args = parser.parse_args()
    thinking = f"{args.hard_evaluations} evaluations" if args.hard_evaluations else f"{args.hard_ms:g} ms"
    print(f"Cripple Mr Onion computer players, {args.players} seats, {args.variant}, hard {thinking}")
    for pairing in args.pairings:
        levels = tuple(pairing.split("-"))
        rounds = args.hard_rounds if "hard" in levels and args.hard_rounds else args.rounds
        times: dict[str, list[float]] = {}
        chips: list[float] = []
        wins: list[float] = []
        all_fold = 0
        started = time.perf_counter()
        for i in range(rounds):
            won, result = play_round(levels, i, args.players, args.hard_ms / 1000, args.variant, times,
                                     args.hard_evaluations)
            chips.append(won)
            if result is None:
                all_fold += 1
            else:
                wins.append(1.0 if result else 0.0)
        m, lo, hi = interval(chips)
        w, wlo, whi = interval(wins)
        print(f"\n{levels[1]} vs {levels[0]}: {rounds} rounds in {time.perf_counter() - started:.0f} s")
        print(f"  {levels[1]} chips won per round: {m:+.2f} [{lo:+.2f}, {hi:+.2f}]")
        print(f"  {levels[1]} win rate: {100 * w:.1f}% [{100 * wlo:.1f}-{100 * whi:.1f}] "
              f"over {len(wins)} rounds with a winner ({all_fold} all-fold)")
        for level, ts in sorted(times.items()):
            print(f"  {level:6} {len(ts):5} decisions  {summary(ts)}")


if __name__ == "__main__":
    main()
