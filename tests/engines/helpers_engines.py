"""Shared helpers for the Engines of Discrimination tests (stacked deals, checks)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.rules.cards import standard_deck
from bot.rules.engine import Action
from cogs.engines.rules import GOOGLE, SEARCH, YAHOO, EnginesGame

G, Y = 1, 2  # two-player ids
# Four players: Google 1 & 3, Yahoo 2 & 4; seats 1, 2, 3, 4 (partners across).
TEAMS_4 = {GOOGLE: [1, 3], YAHOO: [2, 4]}


def cards(text: str) -> list[str]:
    return text.split()


def two_player(
    google: str,
    yahoo: str,
    search: str,
    *,
    google_deck: str = "2c 3c 4c 5c 6c 7c 8c 9c",
    yahoo_deck: str = "2d 3d 4d 5d 6d 7d 8d 9d",
    last_winner: str | None = None,
    options: dict[str, Any] | None = None,
) -> EnginesGame:
    """A stacked two-player game: Google is player 1, Yahoo player 2; Yahoo holds the
    first turn and the first card of ``search`` is already turned as the request."""
    deal = {
        "teams": {GOOGLE: [G], YAHOO: [Y]},
        "hands": {G: cards(google), Y: cards(yahoo)},
        "decks": {GOOGLE: cards(google_deck), YAHOO: cards(yahoo_deck), SEARCH: cards(search)},
        "last_winner": last_winner,
        "seed": "test",
    }
    return EnginesGame.new([G, Y], options or {}, deal=deal)


def four_player(
    hands: dict[int, str],
    search: str,
    *,
    google_deck: str = "2c 3c 4c 5c 6c 7c 8c 9c",
    yahoo_deck: str = "2d 3d 4d 5d 6d 7d 8d 9d",
    first: int = 2,
    last_winner: str | None = None,
    options: dict[str, Any] | None = None,
) -> EnginesGame:
    deal = {
        "teams": TEAMS_4,
        "hands": {p: cards(h) for p, h in hands.items()},
        "decks": {GOOGLE: cards(google_deck), YAHOO: cards(yahoo_deck), SEARCH: cards(search)},
        "first": first,
        "last_winner": last_winner,
        "seed": "test4",
    }
    return EnginesGame.new([1, 2, 3, 4], options or {}, deal=deal)


def play(game: EnginesGame, player: int, code: str):
    return game.apply(player, Action.play(code))


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def zones_by_deck(game: EnginesGame) -> dict[str, Counter[str]]:
    """Every card (as its code), grouped by the physical deck it belongs to. Codes
    rather than Cards because Counter equality hashes every key, and a str hash is
    much cheaper than a Card's, which matters inside property tests."""
    out = {}
    for side in (GOOGLE, YAHOO):
        players = game.teams[side]
        out[side] = _codes(
            [game.decks[side], game.put_aside[side]]
            + [game.hands[p] for p in players]
            + [[game.choices[p]] for p in players if p in game.choices]
        )
    request = [game.request] if game.request is not None else []
    out[SEARCH] = _codes([game.decks[SEARCH], game.search_discard, request])
    return out


def _codes(groups) -> Counter[str]:
    return Counter(str(card) for group in groups for card in group)


FULL_DECK = Counter(str(card) for card in standard_deck())
