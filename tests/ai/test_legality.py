"""Every level of every game's computer player always chooses a legal action, over
thousands of positions (hard with a tiny budget: it must still be legal, and its
fallback too)."""

from __future__ import annotations

import random

import pytest

from bot.ai import LEVELS, Budget, PlayerView, decide
from tests.ai.positions import positions

GAMES = ("blackjack", "idiot", "engines")
COUNT = {"random": 3000, "easy": 3000, "hard": 2000}
TINY = Budget(iterations=40, determinizations=2, playout_moves=6)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("key", GAMES)
def test_the_chosen_action_is_always_legal(key, level):
    asked = 0
    kinds = set()
    for game, player in positions(key, COUNT[level], seed=LEVELS.index(level)):
        view = PlayerView.of(game, player)
        action = decide(view, level, random.Random(asked), budget=TINY)
        assert action in view.legal, (key, level, action, view.legal)
        game.validate(player, action)  # the engine agrees
        kinds.add(action.kind)
        asked += 1
    assert asked == COUNT[level]
    assert len(kinds) >= 2  # the positions were varied enough to offer different kinds


@pytest.mark.parametrize("key", GAMES)
def test_hard_out_of_time_plays_easy_and_stays_legal(key):
    expired = Budget(deadline=lambda: True)
    for index, (game, player) in enumerate(positions(key, 300, seed=7)):
        view = PlayerView.of(game, player)
        action = decide(view, "hard", random.Random(index), budget=expired)
        assert action == decide(view, "easy", random.Random(index))
        assert action in view.legal


def test_unknown_level_and_nothing_to_do_are_refused_with_a_sentence():
    game, player = next(positions("blackjack", 1))
    view = PlayerView.of(game, player)
    with pytest.raises(ValueError, match="not a computer player level"):
        decide(view, "expert", random.Random(0))
    idle = next(p for p in game.players if p != player)
    with pytest.raises(ValueError, match="nothing to do"):
        decide(PlayerView.of(game, idle), "easy", random.Random(0))
