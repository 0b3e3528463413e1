"""Property tests: random play from random seeds in both modes, rituals answered at
random right, wrong or late (``EnidGame.random_move``), sessions carried over."""

from __future__ import annotations

import random
from collections import Counter

from enid_helpers import random_step, sensible_step

from tests.cardcodes import card_codes_in
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.rules.cards import Suit, card_counter, standard_deck
from bot.rules.engine import Action, RuleError
from cogs.enid.rules import EnidGame

FULL_DECK = Counter(standard_deck())
SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])

options = st.fixed_dictionaries(
    {
        "mode": st.sampled_from(["enid", "plain"]),
        "voluntary_draw": st.sampled_from(["no", "yes"]),
        "beginner_names": st.sampled_from(["no", "yes"]),
    }
)
games = st.tuples(st.integers(0, 10**9), st.integers(2, 5), options)
moves = st.tuples(st.integers(0, 2**32), st.integers(0, 600))

# Things a client could send, legal or not.
ACTION_POOL = (
    [Action("play", (c,)) for c in standard_deck()]
    + [Action("draw"), Action("end"), Action("recite"), Action("draw", arg="timeout"), Action("pass")]
    + [Action("suit", arg=s.value) for s in Suit]
    + [Action("vote", arg="yes"), Action("vote", arg="no"), Action("challenge", arg="middle-1"), Action("timeout", arg="name-999")]
    + [Action("say", arg=t) for t in ["lol", "Alonzo Church of Carp", "Last St. Francis of Assisi", "Last card", ""]]
)


def start(game_args) -> EnidGame:
    seed, count, opts = game_args
    return EnidGame.new(list(range(1, count + 1)), opts, seed=seed)


def assert_no_leak(game: EnidGame) -> None:
    hands = {p: {str(c) for c in h} for p, h in game.hands.items()}
    held = set().union(*hands.values())
    spectator = game.observation(None)
    assert "hand" not in spectator and not card_codes_in(spectator) & held
    for viewer in game.players:
        seen = game.observation(viewer)
        assert set(seen["hand"]) == hands[viewer]
        assert not card_codes_in(seen) & (held - hands[viewer]), f"player {viewer} sees another player's card"


@SETTINGS
@given(games, moves)
def test_random_play_keeps_cards_and_secrets(game_args, move_args):
    game = start(game_args)
    rng_seed, count = move_args
    rng = random.Random(rng_seed)
    assert_no_leak(game)
    for i in range(count):
        if game.is_over():
            assert game.current_players() == frozenset() and game.obligations == []
            break
        player, action, events = random_step(game, rng)
        assert card_counter([*game.hands.values(), game.deck, game.discard]) == FULL_DECK
        for event in events:
            if event.private:
                public = event.visible_to(None)
                assert "cards" not in public and not card_codes_in(public)
                for other in game.players:
                    if other != event.player:
                        assert not card_codes_in(event.visible_to(other))
        # The chain's names never appear in public data (only in what players said).
        chain_words = {w for e in game.chain for w in e["words"]}
        public_text = repr([e.visible_to(None) for e in events if e.kind != "said"]) + repr(game.observation(None))
        for word in chain_words:
            assert f"'{word}'" not in public_text and f" {word} " not in public_text
        if i % 7 == 0:
            assert_no_leak(game)


@SETTINGS
@given(games, moves, st.integers(0, 600))
def test_same_seed_and_moves_give_the_same_game_and_json_round_trips(game_args, move_args, cut):
    first, second = start(game_args), start(game_args)
    assert first.to_json() == second.to_json()
    rng_seed, count = move_args
    rng = random.Random(rng_seed)
    restored = None
    for i in range(count):
        if first.is_over():
            break
        if i == cut:
            snapshot = first.to_json()
            restored = EnidGame.from_json(snapshot)
            assert restored.to_json() == snapshot
            assert restored.observation(None) == first.observation(None)
        player, action, events = random_step(first, rng)
        again = second.apply(player, action)
        assert [(e.kind, e.player, dict(e.data)) for e in again] == [(e.kind, e.player, dict(e.data)) for e in events]
        if restored is not None:
            restored.apply(player, action)
            assert restored.to_json() == first.to_json()
    assert first.to_json() == second.to_json()


@SETTINGS
@given(games, moves, st.lists(st.integers(0, len(ACTION_POOL) - 1), min_size=1, max_size=6))
def test_refused_actions_leave_the_state_exactly_unchanged(game_args, move_args, tries):
    game = start(game_args)
    rng_seed, count = move_args
    rng = random.Random(rng_seed)
    for _ in range(count):
        if game.is_over():
            break
        random_step(game, rng)
    players = game.players + [999]
    for n, index in enumerate(tries):
        action = ACTION_POOL[index]
        player = players[n % len(players)]
        before = game.to_json()
        try:
            game.apply(player, action)
        except RuleError as error:
            assert str(error)  # a sentence for the player
            assert game.to_json() == before
        else:
            # Accepted: it must have been something the rules allow this player now.
            assert action.kind in ("say", "timeout", "draw") or action in EnidGame.from_json(before).legal_actions(player)


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 2**32))
@example((423, 5, {"mode": "enid", "voluntary_draw": "yes"}), 10)
def test_random_play_ends_with_rituals_answered_at_random(game_args, rng_seed):
    # Rituals right 80% / wrong 10% / late 10%: in 400 games the longest took
    # about 2,100 moves (enid mode) and 240 (plain). With the voluntary-draw house
    # rule (drawn by the strategy, as every option) a uniformly random player draws so
    # often that games can run past 30,000 moves (as in Blackjack); so there a player
    # who could lay a card draws by choice one time in ten (``sensible_step``): in 300
    # such games the longest took 1,739 moves.
    game = start(game_args)
    rng = random.Random(rng_seed)
    for _ in range(30_000):
        if game.is_over():
            break
        sensible_step(game, rng)
    assert game.is_over()
    assert game.placements()[0] == [game.winner]
    assert sorted(p for group in game.placements() for p in group) == sorted(game.players)


@settings(max_examples=30, deadline=None)
@given(games, st.integers(0, 2**32), st.integers(0, 300), st.integers(1, 5))
def test_timeouts_and_removals_never_break_the_game(game_args, rng_seed, count, leaver_seat):
    game = start(game_args)
    rng = random.Random(rng_seed)
    for i in range(count):
        if game.is_over():
            break
        current = sorted(game.current_players())
        if i % 4 == 0 and current:
            player = current[0]
            game.apply(player, game.timeout_action(player))  # the turn timer's move is always accepted
        else:
            random_step(game, rng)
    leaver = game.players[(leaver_seat - 1) % len(game.players)]
    game.remove_player(leaver)
    assert leaver not in game.players and leaver not in game.current_players()
    assert all(o["player"] != leaver for o in game.obligations)
    assert card_counter([*game.hands.values(), game.deck, game.discard]) == FULL_DECK
    # The game can still be played to its end (voluntary draws one time in ten: see above).
    for _ in range(30_000):
        if game.is_over():
            break
        sensible_step(game, rng)
    assert game.is_over()


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6))
def test_a_session_carries_its_chain_and_middle_names_through_several_games(seed):
    carry: dict = {}
    rng = random.Random(seed)
    for number in range(3):
        game = EnidGame.new([1, 2, 3], {"carry": carry}, seed=f"{seed}-{number}")
        assert [e["words"] for e in game.chain] == [e["words"] for e in carry.get("chain", [])]
        while not game.is_over():
            random_step(game, rng)
        out = game.carry_out()
        assert out["chain"][: len(carry.get("chain", []))] == carry.get("chain", [])  # never reset, only grows
        keys = [m["key"] for m in out["middle_names"]]
        assert len(keys) == len(set(keys))  # never reused in the session
        assert len(out["results"]) == number + 1
        carry = out
