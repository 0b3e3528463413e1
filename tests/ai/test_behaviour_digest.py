"""The engines were sped up for search (issue 12); behaviour must not change. These
digests of whole fixed-seed random games (every legal list, action, event, the mover's
observation after each step, and the final saved state) were recorded with the engines
as they were before that work (commit 566a48f) and must never change."""

from __future__ import annotations

import hashlib

import pytest

from cogs.blackjack.rules import BlackjackGame
from cogs.enid.rules import EnidGame
from cogs.engines.rules import EnginesGame
from cogs.idiot.rules import IdiotGame
from tests.ai.trace import game_digest

CASES = [
    (BlackjackGame, [1, 2], {}, 1, "101223037f0414d99255b57b"),
    (BlackjackGame, [1, 2, 3, 4], {"pickup_shortfall": "debt", "voluntary_draw": "yes"}, 2, "b23273f74c2409e4435f0c0b"),
    (BlackjackGame, [5, 6, 7], {}, 3, "74708615fd8b10db3ea857d1"),
    (IdiotGame, [1, 2], {}, 1, "0054c2487bf0eb7fcbdbfaa2"),  # a stalemate: see IDIOT_STALEMATES
    (IdiotGame, [1, 2, 3, 4, 5], {"finish": "last_idiot", "voluntary_pickup": "on"}, 2, "fad755c004df6225bae45fcb"),
    (IdiotGame, [1, 2, 3], {"finish": "last_idiot"}, 3, "0f677871284ea25828b7572a"),
    (EnginesGame, [1, 2], {}, 1, "9c2cb0bffa2c522b4f708535"),
    (EnginesGame, [1, 2, 3, 4], {}, 2, "1ecca636d221173cb5248869"),
    (EnginesGame, [1, 2, 3, 4], {"yahoo_tiebreak": "auto"}, 3, "e336a9baf656e0173d014b28"),
    (EnginesGame, [1, 2], {"yahoo_tiebreak": "auto"}, 4, "79f6a893f085c7d5786736e8"),
]


# IDIOT_STALEMATES: recorded again for issue 41. A stalemate used to rank the players still
# holding cards by fewest cards (a win and a loss in the rating); they now tie, and the
# game-over event and the final observation say how many cards each held. The games end
# at the same move as before; only their stalemate endings changed (the other Idiot
# digests, with no stalemate, are those of 566a48f).


@pytest.mark.parametrize("game_cls, players, options, seed, expected", CASES)
def test_a_fixed_seed_random_game_plays_out_exactly_as_before(game_cls, players, options, seed, expected):
    assert game_digest(game_cls, players, options, seed) == expected


MANY = [
    (BlackjackGame, 3, "30bbae29f30f02545092432f"),
    (IdiotGame, 3, "34d43720c76a5174ffdc8faa"),  # three stalemates: see IDIOT_STALEMATES
    (EnginesGame, 4, "49b8c261102289f3d6fd9607"),
    (EnginesGame, 2, "251a7dce3039457de3e0c18a"),
]


@pytest.mark.parametrize("game_cls, count, expected", MANY)
def test_thirty_more_seeds_play_out_exactly_as_before(game_cls, count, expected):
    h = hashlib.sha256()
    for seed in range(100, 130):
        h.update(game_digest(game_cls, list(range(1, count + 1)), {}, seed).encode())
    assert h.hexdigest()[:24] == expected


# Enid (issue 12, later): recorded with Enid as it was before its speed work (commit
# d9b450f). Enid mode's rituals are typed words and timers that ``legal_actions``
# cannot list, so those games are driven by ``EnidGame.random_move`` (as
# bench/enid_selfplay.py plays them): names right, wrong and late, shouts, limericks,
# votes and challenges. Plain mode is digested both ways.
# The Enid digests were recorded again for issue 37, which listed a new legal action, "no
# limerick" (the layer of a black Turing declining the first line they may force), and
# made "naming" the default of the house rule beginner_names (in every observation's and
# saved state's options). With that action left out of the digested lists and "naming"
# read as the old default "no", every game hashed to the digests of d9b450f: the games
# themselves play out as before.


def _enid_mover(game, rng):
    return game.random_move(rng)


_RENAMED = {
    "mode": "enid",
    "renames": {"queen": "Pat Smith", "black_ace": ["Bob Dobbs", "The Boss"]},
    "builtin_names": "drop",
    "beginner_names": "yes",
}

ENID_CASES = [
    ([1, 2], {"mode": "plain"}, 1, None, "5dfe6cd2f99d53db26930ef4"),
    ([1, 2, 3, 4], {"mode": "plain", "voluntary_draw": "yes"}, 2, None, "00871c9dd765dbb8b99c9090"),
    ([1, 2, 3, 4, 5], {"mode": "plain"}, 3, _enid_mover, "e68d57e7c53b595eb2a0e173"),
    ([1, 2, 3], {"mode": "plain", "voluntary_draw": "yes"}, 4, _enid_mover, "e0b33833504c9155da05407b"),
    ([1, 2], {"mode": "enid"}, 1, _enid_mover, "053a8b4075e2dc87c1f1959d"),
    ([1, 2, 3], {"mode": "enid"}, 2, _enid_mover, "1f8f77800fa2da1ecb04e9f3"),
    ([1, 2, 3, 4], {"mode": "enid", "voluntary_draw": "yes"}, 3, _enid_mover, "a885dbf2776bde08ca96b540"),
    ([1, 2, 3, 4, 5], {"mode": "enid"}, 4, _enid_mover, "626b06397e0ee0fee27e1ac5"),
    ([1, 2, 3], _RENAMED, 5, _enid_mover, "f0f5aa59dd0397f9dcda4ec6"),
]


@pytest.mark.parametrize("players, options, seed, mover, expected", ENID_CASES)
def test_a_fixed_seed_random_enid_game_plays_out_exactly_as_before(players, options, seed, mover, expected):
    assert game_digest(EnidGame, players, options, seed, mover=mover) == expected


ENID_MANY = [
    (3, {"mode": "plain"}, None, "01f3773cd5b16f1746f1e0ac"),
    (3, {"mode": "plain"}, _enid_mover, "72a575bb51896fd72aeaadcb"),
    (3, {"mode": "enid"}, _enid_mover, "71aae8053f910716a8ecc9dd"),
    (4, {"mode": "enid", "voluntary_draw": "yes"}, _enid_mover, "ce5c89008f674e3d1ba374d8"),
]


@pytest.mark.parametrize("count, options, mover, expected", ENID_MANY)
def test_thirty_more_enid_seeds_play_out_exactly_as_before(count, options, mover, expected):
    h = hashlib.sha256()
    for seed in range(100, 130):
        h.update(game_digest(EnidGame, list(range(1, count + 1)), options, seed, mover=mover).encode())
    assert h.hexdigest()[:24] == expected
