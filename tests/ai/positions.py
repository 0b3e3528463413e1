"""Random positions to ask computer players about: seeded games of 2-5 seats played a
random number of moves (a mix of random and easy moves, so positions look like play)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from bot.ai import PlayerView, decide, game_ai
from bot.rules.engine import Game

SEATS = {"blackjack": (2, 3, 5), "idiot": (2, 3, 5), "engines": (2, 4)}


def positions(key: str, count: int, seed: int = 0) -> Iterator[tuple[Game, int]]:
    """``count`` (game, seat to ask) pairs; the game must not be changed by the caller."""
    rng = random.Random(f"{key}-{seed}")
    ai = game_ai(key)
    made = 0
    game_no = 0
    while made < count:
        seats = SEATS[key][game_no % len(SEATS[key])]
        game = ai.game_cls.new(list(range(11, 11 + seats)), {}, seed=f"pos-{key}-{seed}-{game_no}")
        game_no += 1
        while not game.is_over() and made < count:
            current = sorted(game.current_players())
            player = rng.choice(current)
            yield game, player
            made += 1
            view = PlayerView.of(game, player)
            action = rng.choice(view.legal) if rng.random() < 0.5 else decide(view, "easy", rng)
            game.apply(player, action)
