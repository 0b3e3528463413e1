"""Cripple Mr Onion rules engine speed: a whole round, and the showdown with modifiers.

    python bench/onion_round.py [--rounds 300] [--players 4] [--seed 1]

Round: random legal play (staying in mostly, so most rounds reach the showdown) from
``OnionGame.new`` to the end, timed as a whole (deal, every move, the showdown's
evaluation) and per move. Showdown: rounds driven to the declaration round, a few
special cards declared (the Fool, Great A'Tuin, the Archchancellor, Death) where held,
with wild eights in half of them; then the showdown alone (every hand's best
arrangement under its context, crippling, seniority) is timed. Prints numbers only;
it asserts nothing about time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cogs.onion.rules import DECLARE, OnionGame  # noqa: E402


def summary(ts: list[float]) -> str:
    ts = sorted(ts)
    p99 = ts[min(len(ts) - 1, int(0.99 * len(ts)))]
    return f"median {statistics.median(ts) * 1e3:8.3f} ms  p99 {p99 * 1e3:8.3f} ms  max {ts[-1] * 1e3:8.3f} ms"


def choose(game: OnionGame, rng: random.Random):
    p = rng.choice(sorted(game.current_players()))
    legal = game.legal_actions(p)
    staying = [a for a in legal if a.kind not in ("fold", "pass", "decline")]
    return p, rng.choice(staying if staying and rng.random() < 0.95 else legal)


def whole_rounds(n: int, players: int, seed: int):
    per_round, per_move, showdowns = [], [], 0
    for i in range(n):
        rng = random.Random(seed * 100003 + i)
        opts = {"carry": {"eights_wild": i % 2 == 1}}
        t0 = time.perf_counter()
        game = OnionGame.new(list(range(1, players + 1)), opts, seed=f"{seed}-{i}")
        while not game.is_over():
            p, action = choose(game, rng)
            t = time.perf_counter()
            game.apply(p, action)
            per_move.append(time.perf_counter() - t)
        per_round.append(time.perf_counter() - t0)
        showdowns += game.outcome in ("showdown", "seniority")
    return per_round, per_move, showdowns


def showdown_times(n: int, players: int, seed: int):
    times, declared = [], 0
    for i in range(n):
        rng = random.Random(seed * 7919 + i)
        game = OnionGame.new(list(range(1, players + 1)), {"carry": {"eights_wild": i % 2 == 0}},
                             seed=f"sd-{seed}-{i}")
        while not game.is_over() and game.phase != DECLARE:
            p = sorted(game.current_players())[0]
            game.apply(p, game.timeout_action(p))  # nobody folds: everyone reaches the showdown
        if game.is_over():
            continue
        while not game.is_over():
            p = sorted(game.current_players())[0]
            legal = game.legal_actions(p)
            wanted = [a for a in legal if a.arg in ("fool", "atuin", "archchancellor", "death", "elephants")]
            if game.tasks or not wanted:
                action = game.timeout_action(p) if not game.tasks else legal[0]
                if len(game.queue) == 1 and not game.tasks and action.kind == "done":
                    break  # the last "done" runs the showdown: time it below
                game.apply(p, action)
            else:
                declared += 1
                game.apply(p, rng.choice(wanted))
        if game.is_over():
            continue
        p = game.queue[0]
        t = time.perf_counter()
        game.apply(p, game.timeout_action(p))
        times.append(time.perf_counter() - t)
    return times, declared


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    per_round, per_move, showdowns = whole_rounds(args.rounds, args.players, args.seed)
    print(f"{args.rounds} rounds, {args.players} players, random play (seed {args.seed}); "
          f"{showdowns} reached the showdown; {len(per_move)} moves")
    print(f"whole round (engine only)        {summary(per_round)}")
    print(f"one move                          {summary(per_move)}")
    times, declared = showdown_times(args.rounds, args.players, args.seed)
    print(f"showdown with modifiers ({len(times)} showdowns, {declared} declarations, half with wild eights)")
    print(f"showdown (all hands evaluated)   {summary(times)}")


if __name__ == "__main__":
    main()
