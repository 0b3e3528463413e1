"""Property tests for Engines of Discrimination: random legal play from random seeds,
two and four players, both tie-breaker house rules."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rules.cards import Card, Rank
from bot.rules.engine import Action, RuleError
from cogs.engines.rules import CHOOSE, GOOGLE, SEARCH, YAHOO, EnginesGame
from helpers_engines import FULL_DECK, zones_by_deck

PROPERTY_SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

games = st.fixed_dictionaries(
    {
        "players": st.sampled_from([2, 4]),
        "seed": st.integers(min_value=0, max_value=2**31),
        "chooser": st.integers(min_value=0, max_value=2**31),
        "tiebreak": st.sampled_from(["ask", "auto"]),
    }
)


def new_game(spec) -> EnginesGame:
    players = [101, 102] if spec["players"] == 2 else [101, 102, 103, 104]
    return EnginesGame.new(players, {"yahoo_tiebreak": spec["tiebreak"]}, seed=spec["seed"])


def random_play(game: EnginesGame, rng: random.Random, max_steps: int, on_step=None):
    log = []
    while not game.is_over() and len(log) < max_steps:
        player = rng.choice(sorted(game.current_players()))
        action = rng.choice(game.legal_actions(player))
        events = game.apply(player, action)
        log.append((player, action))
        if on_step is not None:
            on_step(game, player, action, events)
    return log


def other_rank(card: Card) -> Card:
    """A different card (next rank, same suit): used to rewrite hidden information."""
    return Card(Rank(card.rank % 13 + 1), card.suit)


def hide_from(game: EnginesGame, viewer: int | None, rng: random.Random) -> EnginesGame:
    """A copy of ``game`` where everything ``viewer`` may not see is different."""
    twin = EnginesGame.from_dict(game.to_dict())
    for p in twin.seats:
        if p == viewer:
            continue
        twin.hands[p] = [other_rank(card) for card in twin.hands[p]]
        if twin.phase == CHOOSE and p in twin.choices:  # picks are hidden until the reveal
            twin.choices[p] = other_rank(twin.choices[p])
    for name in (GOOGLE, YAHOO, SEARCH):
        deck = [other_rank(card) for card in twin.decks[name]]
        rng.shuffle(deck)
        twin.decks[name] = deck
    return twin


@PROPERTY_SETTINGS
@given(games)
def test_every_card_stays_in_its_own_deck(spec):
    game = new_game(spec)
    rng = random.Random(spec["chooser"])
    checked = 0

    def conserved(game, player, action, events):
        nonlocal checked
        # Every reveal and every set change, plus a sample of the other steps.
        if len(events) > 1 or rng.random() < 0.2:
            assert all(counter == FULL_DECK for counter in zones_by_deck(game).values()), action
            checked += 1

    conserved(game, None, None, [None, None])
    random_play(game, rng, 700, conserved)
    assert all(counter == FULL_DECK for counter in zones_by_deck(game).values())
    assert checked > 1


@PROPERTY_SETTINGS
@given(games)
def test_same_seed_and_actions_give_the_same_state(spec):
    game = new_game(spec)
    log = random_play(game, random.Random(spec["chooser"]), 400)
    replay = new_game(spec)
    for player, action in log:
        replay.apply(player, action)
    assert replay.to_json() == game.to_json()


@PROPERTY_SETTINGS
@given(games, st.integers(min_value=0, max_value=400))
def test_json_round_trip_mid_game_behaves_identically(spec, cut):
    game = new_game(spec)
    rng = random.Random(spec["chooser"])
    random_play(game, rng, cut)
    copy = EnginesGame.from_json(game.to_json())
    assert copy.to_dict() == game.to_dict()
    for player in game.seats + [None]:
        assert copy.observation(player) == game.observation(player)
    # Carry on with the same choices in both: they stay identical.
    log = random_play(game, rng, 150)
    for player, action in log:
        copy.apply(player, action)
    assert copy.to_json() == game.to_json()


@PROPERTY_SETTINGS
@given(games)
def test_observations_never_show_hidden_cards(spec):
    """An observation is a function of what its viewer may see: rewriting every other
    hand, every unrevealed pick and every deck leaves it unchanged."""
    game = new_game(spec)
    rng = random.Random(spec["chooser"])
    checks = 0

    def unchanged(game, player, action, events):
        nonlocal checks
        if rng.random() < 0.12:
            for viewer in game.seats + [None]:
                twin = hide_from(game, viewer, rng)
                assert twin.observation(viewer) == game.observation(viewer)
            checks += 1

    random_play(game, rng, 250, unchanged)
    assert checks > 0 or game.is_over()


@PROPERTY_SETTINGS
@given(games)
def test_no_pick_is_visible_to_anyone_before_the_reveal(spec):
    game = new_game(spec)
    rng = random.Random(spec["chooser"])
    hidden_picks = 0

    def pick_is_secret(game, player, action, events):
        nonlocal hidden_picks
        for event in events:
            if event.private:  # draws, IPO cards, picks, blind takes: counts only
                for viewer in [None] + [p for p in game.seats if p != event.player]:
                    seen = event.visible_to(viewer)
                    assert "card" not in seen and "cards" not in seen, event
        if action.kind == "play" and events[-1].kind == "chosen":  # not the last pick
            hidden_picks += 1
            assert [e.kind for e in events] == ["chosen"]
            for viewer in [None] + [p for p in game.seats if p != player]:
                assert events[0].visible_to(viewer) == {"player": player}
            assert game.observation(player)["my_choice"] == str(action.cards[0])
            assert all(game.observation(v)["chosen"] == game.observation(player)["chosen"]
                       for v in game.seats + [None])

    random_play(game, rng, 300, pick_is_secret)
    assert hidden_picks > 0


@PROPERTY_SETTINGS
@given(games)
def test_refused_actions_change_nothing_and_legal_lists_are_clean(spec):
    game = new_game(spec)
    rng = random.Random(spec["chooser"])

    def refusals(game, player, action, events):
        if game.is_over():
            return
        for p in game.seats:
            legal = game.legal_actions(p)
            assert len(set(legal)) == len(legal) and legal == game.legal_actions(p)
            assert bool(legal) == (p in game.current_players())
        if rng.random() < 0.3:
            p = rng.choice(game.seats)
            attempt = rng.choice([Action.play("Kh"), Action("ipo"), Action("decline"),
                                  Action("refill", arg="partner"), Action("tiebreak", (Card(Rank.TWO, game.hands[p][0].suit),)) if game.hands[p] else Action("ipo")])
            if attempt in game.legal_actions(p):
                return
            before = game.to_json()
            try:
                game.apply(p, attempt)
            except RuleError as error:
                assert str(error) and str(error)[-1] in ".!?"
            else:
                raise AssertionError(f"{attempt} was accepted for {p}")
            assert game.to_json() == before

    random_play(game, rng, 300, refusals)


@settings(max_examples=25, deadline=None)
@given(games)
def test_random_play_finishes(spec):
    game = new_game(spec)
    # Two players: at most 52 requests of about 3 actions each. Four players: a set
    # rarely needs 100 searches of about 6 actions, and there are at most 3 sets.
    bound = 600 if spec["players"] == 2 else 6000
    random_play(game, random.Random(spec["chooser"]), bound)
    assert game.is_over()
    placed = [p for group in game.placements() for p in group]
    assert sorted(placed) == sorted(game.players)
    if spec["players"] == 4:
        assert max(game.set_wins.values()) == 2
