"""Property tests for Idiot: random legal play from seeded deals."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rules.cards import Card, Rank, Suit, card_counter, standard_deck
from bot.rules.engine import Action, RuleError
from cogs.idiot.rules import HAND_SIZE, STALEMATE_TURNS, TABLE_SLOTS, IdiotGame

PROPERTY_SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

player_counts = st.integers(min_value=2, max_value=8)
one_deck_counts = st.integers(min_value=2, max_value=4)
seeds = st.integers(min_value=0, max_value=10**9)
options = st.fixed_dictionaries(
    {"finish": st.sampled_from(["first_out", "last_idiot"]), "voluntary_pickup": st.sampled_from(["off", "on"])}
)

@st.composite
def choices(draw) -> list[int]:
    """A long plan of choices: drawn from a seeded generator so walks reach deep into
    the game (hypothesis lists of hundreds of ints would be slow to generate)."""
    plan_seed = draw(st.integers(min_value=0, max_value=2**32))
    length = draw(st.integers(min_value=0, max_value=400))
    rng = random.Random(plan_seed)
    return [rng.randrange(10**6) for _ in range(length)]


#: A player swaps at most this many times in random play; the real swap phase is
#: bounded by the platform's timer, not by the rules.
MAX_SWAPS = 3


def new_game(count: int, seed: int, opts: dict) -> IdiotGame:
    return IdiotGame.new(list(range(101, 101 + count)), opts, seed=seed)


def pick(game: IdiotGame, choice: int, swaps: dict[int, int]) -> tuple[int, Action]:
    """A legal (player, action) chosen by ``choice``."""
    current = sorted(game.current_players())
    player = current[choice % len(current)]
    legal = game.legal_actions(player)
    assert legal, "a current player always has a legal action"
    if game.phase == "swap" and swaps.get(player, 0) >= MAX_SWAPS:
        return player, Action("ready")
    action = legal[(choice // 8) % len(legal)]
    if action.kind == "swap":
        swaps[player] = swaps.get(player, 0) + 1
    return player, action


def walk(game: IdiotGame, plan: list[int]) -> Iterator[tuple[int, Action, list]]:
    swaps: dict[int, int] = {}
    for choice in plan:
        if game.is_over():
            return
        player, action = pick(game, choice, swaps)
        events = game.apply(player, action)
        yield player, action, events


def all_strings(value) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, inner in value.items():
            yield from all_strings(key)
            yield from all_strings(inner)
    elif isinstance(value, list | tuple):
        for inner in value:
            yield from all_strings(inner)


# --------------------------------------------------------------------------- properties


@PROPERTY_SETTINGS
@given(player_counts, seeds, options, choices())
def test_cards_are_conserved(count, seed, opts, plan):
    game = new_game(count, seed, opts)
    deck = card_counter([standard_deck(game.decks)])
    for _ in walk(game, plan):
        assert card_counter(game.all_zones()) == deck
        for p in game.players:
            assert len(game.face_up[p]) <= TABLE_SLOTS
            if game.draw:
                assert game.phase == "over" or p in game.removed or len(game.hands[p]) >= HAND_SIZE


@PROPERTY_SETTINGS
@given(player_counts, seeds, options, choices())
def test_same_seed_and_actions_give_the_same_state(count, seed, opts, plan):
    first = new_game(count, seed, opts)
    played = [(player, action.code()) for player, action, _ in walk(first, plan)]
    second = new_game(count, seed, opts)
    for player, code in played:
        second.apply(player, Action.parse(code))
    assert second.to_dict() == first.to_dict()


@PROPERTY_SETTINGS
@given(player_counts, seeds, options, choices(), choices())
def test_json_round_trip_mid_game_and_identical_behaviour(count, seed, opts, before, after):
    game = new_game(count, seed, opts)
    for _ in walk(game, before):
        pass
    copy = IdiotGame.from_dict(json.loads(json.dumps(game.to_dict())))
    assert copy.to_dict() == game.to_dict()
    assert copy.to_json() == game.to_json()
    swaps: dict[int, int] = {}
    for choice in after:
        if game.is_over():
            break
        player, action = pick(game, choice, swaps)
        assert copy.legal_actions(player) == game.legal_actions(player)
        assert copy.observation(player) == game.observation(player)
        events = game.apply(player, action)
        assert copy.apply(player, action) == events
    assert copy.to_dict() == game.to_dict()
    assert copy.placements() == game.placements()


@PROPERTY_SETTINGS
@given(one_deck_counts, seeds, options, choices())
def test_no_observation_shows_a_hidden_card(count, seed, opts, plan):
    """One deck, so each code names one card: no other player's hand card and no
    face-down card (not even the owner's) appears in an observation; each event
    shows other players only its public part."""
    game = new_game(count, seed, opts)

    def check() -> None:
        face_down = {str(c) for p in game.players for c in game.face_down[p] if c is not None}
        for viewer in [None, *game.players]:
            observation = game.observation(viewer)
            json.dumps(observation)  # JSON-safe
            hidden = set(face_down)
            for p in game.players:
                if p != viewer:
                    hidden |= {str(c) for c in game.hands[p]}
            shown = set(all_strings(observation))
            assert not shown & hidden, (viewer, shown & hidden)
            if viewer is not None:
                assert sorted(observation["hand"]) == sorted(str(c) for c in game.hands[viewer])

    check()
    for player, _action, events in walk(game, plan):
        check()
        for event in events:
            if event.private:
                for viewer in [None, *(p for p in game.players if p != event.player)]:
                    assert "cards" not in event.visible_to(viewer)


@PROPERTY_SETTINGS
@given(player_counts, seeds, options, choices(), st.randoms(use_true_random=False))
def test_refused_actions_leave_the_state_unchanged(count, seed, opts, plan, rnd):
    game = new_game(count, seed, opts)
    suits = list(Suit)
    for _ in walk(game, plan):
        if game.is_over():
            break
        player = rnd.choice([*game.players, 999])  # 999: not in the game (as a replaced seat's old holder)
        cards = tuple(Card(rnd.choice(list(Rank)), rnd.choice(suits)) for _ in range(rnd.randint(0, 3)))
        kind = rnd.choice(["play", "pickup", "blind", "swap", "ready", "draw"])
        action = Action(kind, cards, rnd.choice(["", "1", "2", "3", "4"]))
        legal = game.legal_actions(player)
        before = game.to_dict()
        try:
            game.apply(player, action)
        except RuleError as error:
            assert game.to_dict() == before
            assert str(error) and "(" + action.code() + ")" not in str(error)  # a specific sentence
        else:
            # Only legal moves go through (a play may name other copies of a legal value).
            assert action in legal or (action.kind == "play" and action.cards[0].rank in {a.cards[0].rank for a in legal if a.kind == "play"})
            return


@PROPERTY_SETTINGS
@given(player_counts, seeds, options, choices())
def test_legal_actions_are_unique_stable_and_the_timeout_action_is_legal(count, seed, opts, plan):
    game = new_game(count, seed, opts)
    for _ in walk(game, plan):
        for player in game.current_players():
            legal = game.legal_actions(player)
            assert len(set(legal)) == len(legal)
            assert game.legal_actions(player) == legal
            assert game.timeout_action(player) in legal
        for player in set(game.players) - game.current_players():
            assert game.legal_actions(player) == []


@settings(max_examples=40, deadline=None)
@given(player_counts, seeds, options)
def test_random_play_ends_within_the_stalemate_bound(count, seed, opts):
    game = new_game(count, seed, opts)
    rng = random.Random(seed)
    # Every play-phase action within STALEMATE_TURNS makes progress, and progress is
    # finite: each draw-pile card is drawn once, each table card leaves once, each
    # burn removes at least one card, each player goes out once.
    progress_events = len(game.draw) + 2 * TABLE_SLOTS * count + 52 * game.decks + count
    bound = count * (MAX_SWAPS + 1) + (progress_events + 1) * STALEMATE_TURNS
    swaps: dict[int, int] = {}
    steps = 0
    while not game.is_over():
        player, action = pick(game, rng.randrange(10**6), swaps)
        game.apply(player, action)
        steps += 1
        assert steps <= bound
    placed = [p for group in game.placements() for p in group]
    assert sorted(placed) == sorted(game.players)
    if opts["finish"] == "last_idiot" and not game.stalemate:
        assert len(game.placements()) == count  # a strict order down to the Idiot


@settings(max_examples=30, deadline=None)
@given(player_counts, seeds, options, choices(), st.integers(min_value=0, max_value=7))
def test_removing_players_conserves_cards_and_keeps_the_game_playable(count, seed, opts, plan, leaver):
    game = new_game(count, seed, opts)
    deck = card_counter([standard_deck(game.decks)])
    half = len(plan) // 2
    for _ in walk(game, plan[:half]):
        pass
    game.remove_player(game.players[leaver % count])
    assert card_counter(game.all_zones()) == deck
    if not game.is_over():
        assert game.current_players()
        assert game.players[leaver % count] not in game.current_players()
    for _ in walk(game, plan[half:]):
        assert card_counter(game.all_zones()) == deck
