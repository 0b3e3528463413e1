"""Blackjack's computer player (pure): the easy heuristic, determinization, evaluation.

easy, in order:
- naming a suit: the suit it holds most of (Aces aside), ties to the suit on top;
- facing a pickup: pass it on with a 2 or Jack (the biggest), else cancel it with an
  Ace, else take it;
- with a choice of cards: a card that empties the hand without being a power card
  (a power card last means drawing one, step 8); otherwise the card scoring best on
  "keeps me going": same-value partners held (chains shed cards), the suit it holds
  most, a 2/Jack/8/King when the next player is close to going out, and never an Ace
  while anything else will do (an Ace matches anything: it is the way out later);
- mid-turn it keeps playing while it has a non-Ace card that may go, else ends; it
  draws only when drawing is all that is left (never the voluntary draw).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from bot.ai import GameAI, PlayerView
from bot.ai.deal import deal_unseen, standing, unseen_cards
from bot.rules.cards import Card, Rank, Suit, parse_card, standard_deck
from bot.rules.engine import Action
from cogs.blackjack.rules import (
    ANY_CARD,
    CHAIN,
    FREE,
    MUST_PLAY,
    PICKUP_RANKS,
    START,
    SUIT,
    BlackjackGame,
    is_power,
    pickup_value,
)

ATTACK_RANKS = frozenset({Rank.TWO, Rank.JACK, Rank.EIGHT, Rank.KING})


def _next_seat(obs: Mapping[str, Any], player: int) -> Mapping[str, Any]:
    seats = obs["seats"]
    index = next(i for i, s in enumerate(seats) if s["player"] == player)
    step = 1 if obs["direction"] >= 0 else -1
    return seats[(index + step) % len(seats)]


def choose(
    phase: str, hand: Sequence[Card], legal: Sequence[Action], pickup: int, next_count: int, top_suit: str | None
) -> Action:
    """easy's choice from plain facts: shared by ``easy`` (from an observation) and
    ``playout`` (from a game the search imagined)."""
    if phase == SUIT:
        counts = Counter(c.suit for c in hand if c.rank is not Rank.ACE)
        return max(legal, key=lambda a: (counts[Suit(a.arg)], a.arg == top_suit))
    plays = [a for a in legal if a.kind == "play"]
    if not plays:
        return next((a for a in legal if a.kind == "end"), legal[0])
    if phase == START and pickup > 0:
        passes = [a for a in plays if a.cards[0].rank in PICKUP_RANKS]
        if passes:
            return max(passes, key=lambda a: pickup_value(a.cards[0]))
        return plays[0]  # only Aces remain among the plays
    if len(hand) == 1 and not is_power(hand[0]):
        return plays[0]  # the last card, and not a power card: out
    suits = Counter(c.suit for c in hand)
    ranks = Counter(c.rank for c in hand)
    threat = next_count <= 2

    def score(action: Action) -> float:
        card = action.cards[0]
        value = 3.0 * (ranks[card.rank] - 1) + suits[card.suit] * 0.5
        if card.rank is Rank.ACE:
            value -= 20
        if threat and card.rank in ATTACK_RANKS:
            value += 6
        if card.rank in (Rank.THREE, Rank.QUEEN):
            value += 1  # play again at once: sheds an extra card
        return value

    best = max(plays, key=score)
    mid_turn = phase in (CHAIN, FREE) and any(a.kind == "end" for a in legal)
    if mid_turn and best.cards[0].rank is Rank.ACE:
        return next(a for a in legal if a.kind == "end")
    return best


def easy(view: PlayerView, rng: random.Random) -> Action:
    obs = view.observation
    hand = [parse_card(c) for c in obs.get("hand", [])]
    return choose(obs["phase"], hand, view.legal, obs["pickup"], _next_seat(obs, view.player)["cards"], obs["suit"])


def playout(game: BlackjackGame, player: int) -> Action:
    """easy's move in a game the search imagined (no observation to build: fast)."""
    seat = game.players.index(player)
    step = 1 if game.offset >= 0 else -1
    following = game.players[(seat + step) % len(game.players)]
    top = game.suit_to_match()
    return choose(
        game.phase, game.hands[player], game.legal_actions(player), game.pickup,
        len(game.hands[following]), top.value if top is not None else None,
    )


# --------------------------------------------------------------------------- determinization


def _turn_phases(turn_cards: Sequence[Card]) -> tuple[str, Rank | None]:
    """Replay the phase machine of ``BlackjackGame._play`` over this turn's cards:
    the phase after the last one (where an Ace's turn resumes) and the chain value."""
    phase, chain = START, None
    for card in turn_cards:
        rank = card.rank
        if rank is Rank.THREE:
            phase = MUST_PLAY
        elif rank is Rank.QUEEN:
            phase = ANY_CARD
        elif phase == CHAIN:
            phase = FREE if rank in PICKUP_RANKS else MUST_PLAY
        elif phase in (FREE, MUST_PLAY) and rank is chain:
            phase = FREE
        else:
            phase = CHAIN
        chain = rank
    return phase, chain


def determinize(observation: Mapping[str, Any], legal: Sequence[Action], rng: random.Random) -> BlackjackGame:
    """A game consistent with ``observation``: the seat's own hand, the top of the
    discard and this turn's cards as seen; every other card (other hands, the deck,
    the discard below) dealt at random with the right counts."""
    obs = observation
    me = obs["viewer"]
    turn_cards = [parse_card(c) for c in obs["turn_cards"]]
    top_part = turn_cards if turn_cards else ([parse_card(obs["top"])] if obs["top"] else [])
    unseen = unseen_cards(standard_deck(), [*obs.get("hand", []), *top_part])
    places = [(s["player"], s["cards"]) for s in obs["seats"] if s["player"] != me]
    places += [("deck", obs["deck_size"]), ("discard", obs["discard_size"] - len(top_part))]
    dealt = deal_unseen(unseen, places, rng)
    resume, chain = _turn_phases(turn_cards)
    hands = {str(p): [str(c) for c in dealt[p]] for p, _ in places if isinstance(p, int)}
    if me is not None:
        hands[str(me)] = list(obs["hand"])
    data = {
        "players": obs["players"],
        "options": obs["rules"],
        "seed": rng.randrange(1 << 30),
        "hands": hands,
        "deck": [str(c) for c in dealt["deck"]],
        "discard": [str(c) for c in [*dealt["discard"], *top_part]],
        "chosen_suit": obs["chosen_suit"],
        "pickup": obs["pickup"],
        "offset": obs["offset"],
        "current": obs["current"][0] if obs["current"] else obs["players"][0],
        "phase": obs["phase"],
        "resume_phase": resume,
        "chain_rank": int(chain) if chain is not None else None,
        "turn_cards": obs["turn_cards"],
        "reshuffles": obs["reshuffles"],
        "debts": {str(s["player"]): s["debt"] for s in obs["seats"]},
        "winner": obs["winner"],
        "turn_number": obs["turn_number"],
    }
    return BlackjackGame.from_dict(data)


def evaluate(game: BlackjackGame, player: int) -> float:
    """Fewer cards (owed ones included) than the others is better."""
    cards = {p: len(game.hands[p]) + game.debts.get(p, 0) for p in game.players}
    return standing(cards, player, scale=3.0) if player in cards else 0.0


AI = GameAI(BlackjackGame, easy, determinize, evaluate, playout=playout)
