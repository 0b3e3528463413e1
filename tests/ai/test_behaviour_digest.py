"""The engines were sped up for search (issue 12); behaviour must not change. These
digests of whole fixed-seed random games (every legal list, action, event, the mover's
observation after each step, and the final saved state) were recorded with the engines
as they were before that work (commit 566a48f) and must never change."""

from __future__ import annotations

import hashlib

import pytest

from cogs.blackjack.rules import BlackjackGame
from cogs.engines.rules import EnginesGame
from cogs.idiot.rules import IdiotGame
from tests.ai.trace import game_digest

CASES = [
    (BlackjackGame, [1, 2], {}, 1, "101223037f0414d99255b57b"),
    (BlackjackGame, [1, 2, 3, 4], {"pickup_shortfall": "debt", "voluntary_draw": "yes"}, 2, "b23273f74c2409e4435f0c0b"),
    (BlackjackGame, [5, 6, 7], {}, 3, "74708615fd8b10db3ea857d1"),
    (IdiotGame, [1, 2], {}, 1, "8b5ad6e9f573c343ec84d159"),
    (IdiotGame, [1, 2, 3, 4, 5], {"finish": "last_idiot", "voluntary_pickup": "on"}, 2, "fad755c004df6225bae45fcb"),
    (IdiotGame, [1, 2, 3], {"finish": "last_idiot"}, 3, "0f677871284ea25828b7572a"),
    (EnginesGame, [1, 2], {}, 1, "9c2cb0bffa2c522b4f708535"),
    (EnginesGame, [1, 2, 3, 4], {}, 2, "1ecca636d221173cb5248869"),
    (EnginesGame, [1, 2, 3, 4], {"yahoo_tiebreak": "auto"}, 3, "e336a9baf656e0173d014b28"),
    (EnginesGame, [1, 2], {"yahoo_tiebreak": "auto"}, 4, "79f6a893f085c7d5786736e8"),
]


@pytest.mark.parametrize("game_cls, players, options, seed, expected", CASES)
def test_a_fixed_seed_random_game_plays_out_exactly_as_before(game_cls, players, options, seed, expected):
    assert game_digest(game_cls, players, options, seed) == expected


MANY = [
    (BlackjackGame, 3, "30bbae29f30f02545092432f"),
    (IdiotGame, 3, "901b45151824219e1c5fde99"),
    (EnginesGame, 4, "49b8c261102289f3d6fd9607"),
    (EnginesGame, 2, "251a7dce3039457de3e0c18a"),
]


@pytest.mark.parametrize("game_cls, count, expected", MANY)
def test_thirty_more_seeds_play_out_exactly_as_before(game_cls, count, expected):
    h = hashlib.sha256()
    for seed in range(100, 130):
        h.update(game_digest(game_cls, list(range(1, count + 1)), {}, seed).encode())
    assert h.hexdigest()[:24] == expected
