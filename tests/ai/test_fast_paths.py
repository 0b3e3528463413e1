"""The engines' fast paths (issue 12) against plain reference versions of the same
rule, on many random hands: the memoised Idiot plays, Engines picks and search
distances, Blackjack's matching tables, the one legal-actions cache drop, and
``new_event`` against the Event class."""

from __future__ import annotations

import random

import pytest

from bot.rules.cards import CODE_BY_KEY, SUIT_RANK_INDEX, Card, Rank, card_codes, standard_deck
from bot.rules.engine import Action, Event, Game, changes_state, new_event
from cogs.blackjack.rules import PICKUP_RANKS, BlackjackGame
from cogs.engines.rules import DISTANCE_FROM, EnginesGame, distance
from cogs.enid import rules as enid_rules
from cogs.enid.rules import EnidGame
from cogs.idiot.rules import IdiotGame, card_value, sorted_cards


def _idiot_plays_reference(cards: list[Card], top: Card | None) -> list[Action]:
    """One action per (value, count), copies in suit order, values ascending."""
    lowest = card_value(top.rank) if top is not None else 0
    playable = [c for c in sorted_cards(cards) if c.rank in (Rank.TWO, Rank.TEN) or card_value(c.rank) >= lowest]
    actions = []
    for value in sorted({card_value(c.rank) for c in playable}):
        run = [c for c in playable if card_value(c.rank) == value]
        actions.extend(Action("play", tuple(run[:count])) for count in range(1, len(run) + 1))
    return actions


@pytest.mark.parametrize("decks", [1, 2])
def test_idiot_plays_match_the_plain_rule_on_random_hands(decks):
    rng = random.Random(decks)
    game = IdiotGame.new([1, 2, 3, 4, 5] if decks == 2 else [1, 2], seed=1)
    deck = standard_deck(decks)
    for _ in range(3000):
        hand = rng.sample(deck, rng.randint(1, 20))
        game.pile = [rng.choice(deck)] if rng.random() < 0.8 else []
        top = game.pile[-1] if game.pile else None
        assert game._plays_from(hand) == _idiot_plays_reference(hand, top), (hand, top)


def test_engines_distances_and_picks_match_the_plain_rule():
    for request in standard_deck():
        for card in standard_deck():
            assert DISTANCE_FROM[request._key][card._key] == distance(request, card)
    rng = random.Random(4)
    game = EnginesGame.new([1, 2], {"teams": {"google": [1], "yahoo": [2]}}, seed=2)
    for _ in range(2000):
        # Two decks, so equal cards come up; the engine keeps every hand sorted.
        hand = sorted(rng.sample(standard_deck(2), rng.randint(1, 9)), key=lambda c: c._key)
        game.hands[1] = hand
        game._legal_cache = None
        picks = [a for a in game.legal_actions(1) if a.kind == "play"]
        assert picks == [Action("play", (c,)) for c in sorted(set(hand), key=lambda c: (int(c.rank), c.suit.value))]


def test_blackjack_playable_cards_match_the_plain_rule():
    rng = random.Random(5)
    game = BlackjackGame.new([1, 2], seed=3)
    deck = standard_deck()
    for _ in range(3000):
        game.phase = "start"
        game.current = 1
        game.hands[1] = rng.sample(deck, rng.randint(1, 12))
        game.discard = [rng.choice(deck)]
        top = game.discard[-1]
        game.chosen_suit = rng.choice(deck).suit if top.rank is Rank.ACE and rng.random() < 0.7 else None
        game.pickup = rng.choice([0, 0, 2, 5])
        suit = game.chosen_suit if top.rank is Rank.ACE and game.chosen_suit is not None else top.suit

        def fits(c: Card) -> bool:
            return c.rank is Rank.ACE or c.suit is suit or c.rank is top.rank

        if game.pickup:
            expected = [c for c in game.hands[1] if c.rank is Rank.ACE or (c.rank in PICKUP_RANKS and fits(c))]
        else:
            expected = [c for c in game.hands[1] if fits(c)]
        assert game.playable_cards() == expected


class _Counter(Game):
    """A toy game whose legal list is cached until a state change."""

    key = "counter"
    title = "Counter"
    min_players = max_players = 1

    def __init__(self) -> None:
        self.players = [1]
        self.value = 0
        self.listed = 0

    @classmethod
    def new(cls, players, options=None, *, seed=None, deal=None):
        return cls()

    def current_players(self):
        return frozenset({1})

    def legal_actions(self, player):
        if self._legal_cache is None:
            self.listed += 1
            self._legal_cache = [Action("add", arg=str(self.value))]
        return list(self._legal_cache)

    def is_over(self):
        return False

    def placements(self):
        return [[1]]

    def observation(self, player):
        return {"value": self.value}

    def timeout_action(self, player):
        return self.legal_actions(player)[0]

    @changes_state
    def remove_player(self, player):
        return []

    @changes_state
    def _apply(self, player, action):
        self.legal_actions(player)  # something listed mid-move must not survive it
        if action.arg == "boom":
            raise RuntimeError("boom")
        self.value += 1
        return [Event("added", player)]

    def to_dict(self):
        return {"value": self.value}

    @classmethod
    def from_dict(cls, data):
        game = cls()
        game.value = data["value"]
        return game


def test_changes_state_drops_the_legal_cache_on_entry_and_exit_even_on_error():
    game = _Counter()
    assert game.legal_actions(1) == [Action("add", arg="0")]
    game.legal_actions(1)
    assert game.listed == 1  # cached
    game.apply(1, Action("add", arg="0"))
    assert game.legal_actions(1) == [Action("add", arg="1")]  # not the stale one
    with pytest.raises(RuntimeError):
        game._apply(1, Action("add", arg="boom"))
    assert game._legal_cache is None
    game.legal_actions(1)
    game.remove_player(1)
    assert game._legal_cache is None


@pytest.mark.parametrize(
    "args",
    [
        ("turn",),
        ("turn", 7),
        ("turn", 7, {"player": 7}),
        ("chosen", 7, {"player": 7, "card": "9h"}, True, {"player": 7}),
        ("reveal", None, {"plays": []}, False),
    ],
)
def test_new_event_builds_the_same_event_as_the_class(args):
    fast, plain = new_event(*args), Event(*args)
    assert type(fast) is Event
    assert fast == plain and repr(fast) == repr(plain)
    for name in ("kind", "player", "data", "private", "public_data"):
        assert getattr(fast, name) == getattr(plain, name)
    # Left-out dicts are fresh, never shared between events (as the field defaults are).
    assert new_event("turn").data is not new_event("turn").data
    assert new_event("turn").public_data is not new_event("turn").public_data


@pytest.mark.parametrize("game_cls, players", [(EnginesGame, 2), (EnginesGame, 4), (IdiotGame, 3), (BlackjackGame, 3), (EnidGame, 3)])
def test_games_keep_few_enough_instance_attributes_for_fast_lookups(game_cls, players):
    # CPython 3.11 keeps an instance's attributes in the shared-key layout, where
    # attribute and method lookups specialise, only up to 29 names; past that every
    # self.method() on a playout's path is a slow lookup (Engines keeps its seating
    # in slots for this).
    rng = random.Random(6)
    game = game_cls.new(list(range(1, players + 1)), seed=6)
    seen = [game, game.clone(), game_cls.from_dict(game.to_dict())]
    while game.current_players():
        player = rng.choice(sorted(game.current_players()))
        game.apply(player, rng.choice(game.legal_actions(player)))
    seen += [game, game.clone(), game_cls.from_dict(game.to_dict())]
    for state in seen:
        assert len(vars(state)) < 30, sorted(vars(state))


def test_card_tables_by_key_match_the_cards():
    deck = standard_deck()
    assert card_codes(deck) == [str(c) for c in deck]
    assert [CODE_BY_KEY[c._key] for c in deck] == [str(c) for c in deck]
    by_suit = sorted(deck, key=lambda c: ("cdhs".index(c.suit.value), int(c.rank)))
    assert sorted(deck, key=lambda c: SUIT_RANK_INDEX[c._key]) == by_suit


def test_enid_follow_table_and_listing_match_the_plain_rule():
    rng = random.Random(7)
    game = EnidGame.new([1, 2], {"mode": "plain"}, seed=7)
    deck = standard_deck()
    for _ in range(3000):
        hand = rng.sample(deck, rng.randint(1, 12))
        top = rng.choice([c for c in deck if c not in hand])
        game.hands[game.current] = hand
        game.discard = [top]
        game.phase, game.pickup, game.limerick = enid_rules.PLAY, 0, None
        game.chosen_suit = rng.choice(list(enid_rules.SUIT_ORDER)) if top.rank is Rank.ACE and rng.random() < 0.5 else None
        suit = game.suit_to_match()
        assert game.playable_cards() == [c for c in hand if c.suit is suit or c.rank is top.rank]
        game._legal_cache = None
        plays = [a for a in game.legal_actions(game.current) if a.kind == "play"]
        assert plays == [Action("play", (c,)) for c in enid_rules.sorted_cards(game.playable_cards())]
