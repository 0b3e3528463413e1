"""Playing fair (issue 12): a computer player decides from its observation, legal
actions and public history only. Re-deal every card hidden from it (other hands,
decks, face-down cards, buried piles) and it must decide exactly the same.

The re-deal is ``determinize`` (each game's ``ai.py``): a whole new game whose hidden
cards are shuffled among the hidden places. These tests also check that it really is
a re-deal consistent with the seat's view: the seat's observation and legal actions are
unchanged, while the hidden cards moved."""

from __future__ import annotations

import random

import pytest

from bot.ai import Budget, PlayerView, decide, game_ai
from tests.ai.positions import positions

GAMES = ("blackjack", "idiot", "engines")
SMALL = Budget(iterations=60, determinizations=3, playout_moves=10)


def _hidden(game, player) -> str:
    """The whole state; differs between re-deals only in what ``player`` cannot see."""
    return game.to_json()


@pytest.mark.parametrize("key", GAMES)
def test_redealing_the_hidden_cards_keeps_the_view(key):
    ai = game_ai(key)
    moved = 0
    for index, (game, player) in enumerate(positions(key, 400, seed=11)):
        legal = game.legal_actions(player)
        redealt = ai.determinize(game.observation(player), legal, random.Random(index))
        assert redealt.observation(player) == game.observation(player)
        assert redealt.legal_actions(player) == legal
        moved += _hidden(redealt, player) != _hidden(game, player)
    assert moved > 300  # nearly every re-deal really changed hidden cards


@pytest.mark.parametrize("level", ["easy", "hard"])
@pytest.mark.parametrize("key", GAMES)
def test_the_same_decision_whatever_the_hidden_cards(key, level):
    ai = game_ai(key)
    count = 300 if level == "easy" else 60
    for index, (game, player) in enumerate(positions(key, count, seed=12)):
        legal = game.legal_actions(player)
        chosen = decide(PlayerView.of(game, player), level, random.Random(index), budget=SMALL)
        for redeal in range(2):
            other = ai.determinize(game.observation(player), legal, random.Random(f"{index}-{redeal}"))
            again = decide(PlayerView.of(other, player), level, random.Random(index), budget=SMALL)
            assert again == chosen


def test_a_view_carries_no_game():
    game, player = next(positions("idiot", 1))
    view = PlayerView.of(game, player)
    assert not any(isinstance(value, type(game)) for value in vars(view).values())
    assert view.observation == game.observation(player)
