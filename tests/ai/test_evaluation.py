"""hard's position scores and playout rules (issue 12): Engines scores the hands left
for the next request, Idiot a fitted chance to beat each other player; playouts stop at quiet positions;
each game sets how clearly the search must beat easy."""

from __future__ import annotations

import random

from bot.ai import Budget, GameAI, PlayerView, decide, game_ai
from bot.ai.search import QUIET_EXTRA, playout
from bot.rules.cards import parse_card
from cogs.engines import ai as engines_ai
from cogs.engines.rules import CHOOSE, GOOGLE, YAHOO
from cogs.idiot import ai as idiot_ai
from cogs.idiot.rules import IdiotGame
from tests.ai.positions import positions
from tests.engines.helpers_engines import G, Y, two_player


def test_engines_the_hand_closer_to_the_requests_left_has_the_edge():
    # Requests left: a 5 and a 6. Google's 5 and 6 beat Yahoo's ace and 10 on both.
    game = two_player("5c 6c", "Ad Td", "Kh 5h 6h")
    assert engines_ai.next_search_edge(game, GOOGLE) == 1.0
    assert engines_ai.next_search_edge(game, YAHOO) == -1.0
    # An image request nobody can answer counts for neither side; ties go to the last winner.
    game = two_player("5c", "5d", "Kh 5h Qs", last_winner=YAHOO)
    assert engines_ai.next_search_edge(game, YAHOO) == 0.5  # wins the 5, nobody the queen
    assert engines_ai.evaluate(game, Y) > 0.5 > engines_ai.evaluate(game, G)


def test_engines_quiet_is_a_fresh_request():
    game = two_player("5c 6c", "Ad Td", "5h 6h 7h")
    assert engines_ai.quiet(game)
    game.apply(Y, game.legal_actions(Y)[0])
    assert game.phase == CHOOSE and not engines_ai.quiet(game)  # half the picks made


def _counted(game):
    """``game`` with every move's player recorded in the returned list."""
    moves: list[int] = []
    original = game._apply

    def counting(player, action):
        moves.append(player)
        return original(player, action)

    game._apply = counting
    return moves


def test_a_playout_plays_on_to_a_quiet_position_but_not_forever():
    ai = game_ai("engines")
    game = two_player("5c 6c 7c", "Ad Td 9d", "5h 6h 7h 8h 9h")
    game.apply(Y, game.legal_actions(Y)[0])  # Yahoo has picked: not quiet
    moves = _counted(game)
    playout(game, G, ai, random.Random(1), moves=0)
    assert moves == [G] and engines_ai.quiet(game)  # Google's pick settled the search
    never = GameAI(ai.game_cls, ai.easy, ai.determinize, ai.evaluate, ai.playout, quiet=lambda g: False)
    game = two_player("5c 6c 7c", "Ad Td 9d", "5h 6h 7h 8h 9h 2h 3h 4h 5s 6s 7s 8s 9s Ts 2s 3s")
    moves = _counted(game)
    playout(game, G, never, random.Random(1), moves=2)
    assert len(moves) == 2 + QUIET_EXTRA


def test_idiot_low_cards_and_a_forced_pickup_count_against_a_player():
    deal = {"hands": {1: ["3c", "4d"], 2: ["Ac", "Kd"]}, "face_up": {1: [], 2: []},
            "face_down": {1: [None] * 3, 2: [None] * 3}, "pile": ["9h"], "phase": "play", "first": 2}
    game = IdiotGame.new([1, 2], deal=deal)
    # Two players: the chances add up to one, and the low cards are the worse hand.
    assert idiot_ai.evaluate(game, 2) > 0.5 > idiot_ai.evaluate(game, 1)
    assert abs(idiot_ai.evaluate(game, 1) + idiot_ai.evaluate(game, 2) - 1) < 1e-9
    # A low card face up (played only at the end, on whatever is on the pile) weighs
    # more than the same card in hand.
    up = IdiotGame.new([1, 2], deal={**deal, "hands": {1: ["4d"], 2: ["Ac", "Kd"]}, "face_up": {1: ["3c"], 2: []}})
    assert idiot_ai.evaluate(up, 1) < idiot_ai.evaluate(game, 1)
    # Player 2 to move plays over the 9; give player 1 the turn: nothing beats the 9, so
    # player 1 carries the pile already.
    game.turn = 1
    game._legal_cache = None
    before = idiot_ai.evaluate(game, 2)
    game.pile = [parse_card("2h")]  # now the 3 goes: no pickup ahead
    game._legal_cache = None
    assert idiot_ai.evaluate(game, 2) < before


def test_idiot_a_player_out_scores_one_and_a_removed_one_zero():
    game = IdiotGame.new([1, 2, 3], {"finish": "last_idiot"}, seed=4)
    game.finished.append(1)
    game.removed.append(3)
    assert idiot_ai.evaluate(game, 1) == 1.0
    assert idiot_ai.evaluate(game, 3) == 0.0
    assert idiot_ai.evaluate(game, 2) == 0.5  # nobody left to play against


def test_each_game_sets_how_clearly_the_search_must_beat_easy():
    assert game_ai("engines").margin < game_ai("blackjack").margin
    assert Budget().margin is None  # the game's own margin unless the caller sets one
    # A huge margin from the caller means hard always plays easy's move.
    for index, (game, player) in enumerate(positions("idiot", 60, seed=11)):
        view = PlayerView.of(game, player)
        strict = Budget(iterations=60, determinizations=4, margin=2.0)
        assert decide(view, "hard", random.Random(index), budget=strict) == decide(view, "easy", random.Random(index))
