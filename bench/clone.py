"""Copying a game for search: ``Game.clone()`` (containers copied) against the
``to_dict``/``from_dict`` round trip it replaces, per game, on mid-game states.

    python bench/clone.py [--states 200] [--repeat 20]

Prints microseconds per copy for each way and the ratio. Numbers only.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo root

from bot.ai import game_ai  # noqa: E402
from bot.rules.engine import Game  # noqa: E402

SEATS = {"blackjack": 3, "idiot": 3, "engines": 4}


def states(key: str, count: int) -> list[Game]:
    ai = game_ai(key)
    rng = random.Random(key)
    found: list[Game] = []
    index = 0
    while len(found) < count:
        game = ai.game_cls.new(list(range(1, SEATS[key] + 1)), {}, seed=f"clone-{index}")
        index += 1
        for _ in range(rng.randrange(5, 60)):
            if game.is_over():
                break
            player = rng.choice(sorted(game.current_players()))
            game.apply(player, rng.choice(game.legal_actions(player)))
        if not game.is_over():
            found.append(game)
    return found


def per_copy(games: list[Game], copy, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for game in games:
            copy(game)
    return (time.perf_counter() - start) / (repeat * len(games)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--states", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    print(f"{'game':<10} {'clone() us':>11} {'dict round trip us':>19} {'ratio':>7}")
    for key in SEATS:
        games = states(key, args.states)
        fast = per_copy(games, lambda g: g.clone(), args.repeat)
        slow = per_copy(games, lambda g: type(g).from_dict(g.to_dict()), args.repeat)
        print(f"{key:<10} {fast:>11.1f} {slow:>19.1f} {slow / fast:>6.1f}x")


if __name__ == "__main__":
    main()
