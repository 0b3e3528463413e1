"""The search's building blocks: Game.clone, rewards, determinism, the time budget."""

from __future__ import annotations

import random

import pytest

from bot.ai import DEFAULT_SECONDS, SEARCH_SHARE, Budget, PlayerView, decide, game_ai
from bot.ai.search import placement_rewards
from bot.rules.engine import Game
from tests.ai.positions import positions

GAMES = ("blackjack", "idiot", "engines")


def _random_moves(game: Game, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        if game.is_over():
            return
        player = rng.choice(sorted(game.current_players()))
        game.apply(player, rng.choice(game.legal_actions(player)))


@pytest.mark.parametrize("key", GAMES)
def test_a_clone_plays_on_exactly_like_the_original_and_shares_nothing(key):
    for index, (game, _) in enumerate(positions(key, 60, seed=3)):
        if index % 6:
            continue
        before = game.to_json()
        copy = game.clone()
        assert copy.to_json() == before
        _random_moves(copy, random.Random(index), 40)
        assert game.to_json() == before  # the original is untouched
        twin = game.clone()
        _random_moves(twin, random.Random(index), 40)
        assert twin.to_json() == copy.to_json()
        assert type(game).from_json(before).clone().to_json() == before


def test_the_default_clone_is_a_round_trip():
    from cogs.blackjack.rules import BlackjackGame

    game = BlackjackGame.new([1, 2], seed=5)
    assert Game.clone(game).to_json() == game.clone().to_json() == game.to_json()


def test_placement_rewards():
    class Over:
        def __init__(self, groups):
            self.groups = groups

        def placements(self):
            return self.groups

    assert placement_rewards(Over([[1], [2]])) == {1: 1.0, 2: 0.0}
    assert placement_rewards(Over([[1, 2]])) == {1: 0.5, 2: 0.5}
    assert placement_rewards(Over([[3], [1, 2], [4]])) == {3: 1.0, 1: 0.5, 2: 0.5, 4: 0.0}
    # Teams (Engines, 4 players): partners share a place.
    four = placement_rewards(Over([[1, 3], [2, 4]]))
    assert four[1] == four[3] > 0.5 > four[2] == four[4]


@pytest.mark.parametrize("key", GAMES)
def test_hard_with_an_iteration_cap_is_deterministic(key):
    budget = Budget(iterations=80, determinizations=4, playout_moves=10)
    for index, (game, player) in enumerate(positions(key, 40, seed=5)):
        view = PlayerView.of(game, player)
        first = decide(view, "hard", random.Random(index), budget=budget)
        assert decide(view, "hard", random.Random(index), budget=budget) == first


def test_a_timed_budget_reads_only_the_clock_it_is_given():
    now = [100.0]
    budget = Budget.timed(lambda: now[0], 0.1)
    assert not budget.out_of_time()
    now[0] += DEFAULT_SECONDS * SEARCH_SHARE - 1e-6
    assert not budget.out_of_time()
    now[0] += 2e-6
    assert budget.out_of_time()


def test_hard_stops_when_the_clock_says_so():
    """A fake clock that advances one tick per reading: the search must stop after the
    budget's ticks however many simulations the cap would allow."""
    ticks = [0]

    def clock() -> float:
        ticks[0] += 1
        return float(ticks[0])

    game, player = next(p for p in positions("idiot", 200, seed=9) if len(p[0].legal_actions(p[1])) > 2)
    view = PlayerView.of(game, player)
    budget = Budget.timed(clock, 50.0, iterations=10**9)
    action = decide(view, "hard", random.Random(1), budget=budget)
    assert action in view.legal
    assert ticks[0] < 60


def test_every_game_has_a_computer_player():
    from bot.ai import has_ai

    assert all(has_ai(key) for key in GAMES)
    assert not has_ai("no-such-game")
    for key in GAMES:
        assert game_ai(key).game_cls.key == key


def test_hard_overrules_easy_only_on_a_clear_and_steady_gain():
    from bot.ai.search import _clearly_better

    assert _clearly_better([0.2, 0.25, 0.3, 0.2], margin=0.05)
    assert not _clearly_better([0.2], margin=0.05)  # one round proves nothing
    assert not _clearly_better([0.03, 0.04, 0.03], margin=0.05)  # steady but below the margin
    assert not _clearly_better([1.0, -0.8, 0.9, -0.7], margin=0.05)  # big mean, mostly noise
