"""Helpers the games' ``ai.py`` share: dealing the unseen cards of a determinization,
and scoring an unfinished position."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Hashable

from bot.rules.cards import Card, parse_card


class InconsistentObservation(ValueError):
    """The counts in an observation do not add up to the cards there are."""


def unseen_cards(full: Iterable[Card], seen: Iterable[Card | str]) -> list[Card]:
    """``full`` minus every seen card (a multiset difference), in ``full``'s order."""
    left = Counter(full)
    for card in seen:
        card = parse_card(card) if isinstance(card, str) else card
        if left[card] <= 0:
            raise InconsistentObservation(f"{card} is seen more often than the decks hold it.")
        left[card] -= 1
    return list(left.elements())


def deal_unseen(
    unseen: Sequence[Card], places: Sequence[tuple[Hashable, int]], rng: random.Random
) -> dict[Hashable, list[Card]]:
    """Shuffle ``unseen`` and deal each place its count, in order. The counts must use
    up every unseen card exactly: otherwise the observation was misread."""
    wanted = sum(count for _, count in places)
    if wanted != len(unseen):
        raise InconsistentObservation(f"{len(unseen)} unseen cards for {wanted} unseen places.")
    cards = list(unseen)
    rng.shuffle(cards)
    dealt: dict[Hashable, list[Card]] = {}
    start = 0
    for key, count in places:
        dealt[key] = cards[start : start + count]
        start += count
    return dealt


def standing(values: Mapping[int, float], player: int, scale: float) -> float:
    """How far ahead ``player`` is, in [0, 1]: the mean over the others of a logistic
    of (their value - ``player``'s) / scale. Lower values are better (cards left)."""
    mine = values[player]
    others = [v for p, v in values.items() if p != player]
    if not others:
        return 0.5
    return sum(1.0 / (1.0 + math.exp(-(v - mine) / scale)) for v in others) / len(others)
