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
# Recorded again when the "suit" and "ten" events began to say which mode named the suit
# ({"enid": true/false}: plain mode's log named Enid's fish). With that field dropped from
# those events, every game hashed to the digests recorded before it.


def _enid_mover(game, rng):
    return game.random_move(rng)


_RENAMED = {
    "mode": "enid",
    "renames": {"queen": "Pat Smith", "black_ace": ["Bob Dobbs", "The Boss"]},
    "builtin_names": "drop",
    "beginner_names": "yes",
}

ENID_CASES = [
    ([1, 2], {"mode": "plain"}, 1, None, "57f4916aee0e5cd6966a424d"),
    ([1, 2, 3, 4], {"mode": "plain", "voluntary_draw": "yes"}, 2, None, "0ff1de78e392575c96e06ab8"),
    ([1, 2, 3, 4, 5], {"mode": "plain"}, 3, _enid_mover, "fda5e3bcb436ea2d92542360"),
    ([1, 2, 3], {"mode": "plain", "voluntary_draw": "yes"}, 4, _enid_mover, "456ead8c2506e281ad7a9dbb"),
    ([1, 2], {"mode": "enid"}, 1, _enid_mover, "494ccf46b14eb99cc5376483"),
    ([1, 2, 3], {"mode": "enid"}, 2, _enid_mover, "a35a92e10ffcecff09a4532e"),
    ([1, 2, 3, 4], {"mode": "enid", "voluntary_draw": "yes"}, 3, _enid_mover, "14825ce060327c0799b256f1"),
    ([1, 2, 3, 4, 5], {"mode": "enid"}, 4, _enid_mover, "cc54f36abe32132cd5bb0aaa"),
    ([1, 2, 3], _RENAMED, 5, _enid_mover, "691fe4f6b4c5d450f771e3df"),
]


@pytest.mark.parametrize("players, options, seed, mover, expected", ENID_CASES)
def test_a_fixed_seed_random_enid_game_plays_out_exactly_as_before(players, options, seed, mover, expected):
    assert game_digest(EnidGame, players, options, seed, mover=mover) == expected


ENID_MANY = [
    (3, {"mode": "plain"}, None, "6365ad457781b98f48162cea"),
    (3, {"mode": "plain"}, _enid_mover, "e6d419f7e4584c656d9f10ff"),
    (3, {"mode": "enid"}, _enid_mover, "a380e7ef5ec1704f37f2d0b9"),
    (4, {"mode": "enid", "voluntary_draw": "yes"}, _enid_mover, "029d9fa071e1a547ae1858c5"),
]


@pytest.mark.parametrize("count, options, mover, expected", ENID_MANY)
def test_thirty_more_enid_seeds_play_out_exactly_as_before(count, options, mover, expected):
    h = hashlib.sha256()
    for seed in range(100, 130):
        h.update(game_digest(EnidGame, list(range(1, count + 1)), options, seed, mover=mover).encode())
    assert h.hexdigest()[:24] == expected
