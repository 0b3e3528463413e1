"""Helpers for the round tests: stacked packs and driving a round with the timer defaults."""

from __future__ import annotations

from collections import Counter
from typing import Any

from bot.rules.engine import Action, Event
from cogs.onion.rules import DECLARE, OnionGame
from cogs.onion.scoring import onion_deck, parse_card

FULL_PACK = Counter(onion_deck())


def elder_order(players: list[int], dealer: int) -> list[int]:
    i = players.index(dealer)
    return players[i + 1:] + players[:i]


def stack(players: list[int], dealer: int, first: dict[int, list[str]],
          exchange: dict[int, list[str]] | None = None, second: dict[int, list[str]] | None = None,
          after: list[str] | None = None) -> list[str]:
    """The pack, top first, that deals ``first`` (five each), then the exchange
    replacements in exchange order (Elder..Younger, Dealer), then the second deal
    (the Dealer's five, then each player's bought cards followed by face-up ones),
    then ``after`` (for the Lady's and Fate's replacements)."""
    exchange, second = exchange or {}, second or {}
    order = elder_order(players, dealer)
    deck: list[str] = []
    deck += first[dealer][:2]
    for p in order:
        deck += first[p][:3]
    deck += first[dealer][2:]
    for p in order:
        deck += first[p][3:]
    for p in order + [dealer]:
        deck += exchange.get(p, [])
    for p in [dealer] + order:
        deck += second.get(p, [])
    deck += after or []
    return deck


def new_round(players: list[int], dealer: int, first, exchange=None, second=None, after=None,
              **options: Any) -> OnionGame:
    deck = stack(players, dealer, first, exchange, second, after)
    return OnionGame.new(players, options, deal={"deck": deck, "dealer": dealer})


def default_step(game: OnionGame) -> list[Event]:
    """One move by the timer's default for the (first) player to act."""
    p = sorted(game.current_players())[0]
    return game.apply(p, game.timeout_action(p))


def advance(game: OnionGame, phase: str, limit: int = 200) -> list[Event]:
    """Apply timer defaults until ``phase`` is reached (or the round ends)."""
    events: list[Event] = []
    for _ in range(limit):
        if game.phase == phase or game.is_over():
            return events
        events += default_step(game)
    raise AssertionError(f"did not reach {phase}")


def act(game: OnionGame, player: int, code: str) -> list[Event]:
    return game.apply(player, OnionGame.parse_action(code))


def all_cards(game: OnionGame) -> Counter:
    cards = list(game.deck) + list(game.discard)
    for p in game.players:
        cards += game.down[p] + game.up[p] + game.aside[p]
    for task in game.tasks:
        if task["kind"] == "pick":
            cards += [parse_card(c) for c in task["cards"]]
    return Counter(cards)


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def codes(text: str) -> list[str]:
    return text.split()


__all__ = ["Action", "FULL_PACK", "act", "advance", "all_cards", "codes", "default_step", "elder_order",
           "kinds", "new_round", "stack"]


def lady_round() -> OnionGame:
    """Dealer 1; Bob holds the Lady face down, Cy gets Death (K⚔) face up in the second
    deal; the round waits at the declarations (the render tests in English and Spanish)."""
    game = new_round([1, 2, 3], 1, {1: codes("2c 3s 4d 5c 9s"), 2: codes("Qs 2s 3h 4s 7c"),
                                    3: codes("2h 3c 4h 5h 7h")},
                     second={1: codes("Jh Kh 6h 9c 5s"), 2: codes("Tc Th 9h Ts 6s"), 3: codes("Kw 3w 4w 5w 7w")},
                     after=codes("Ad Kc"))
    advance(game, DECLARE)
    assert game.phase == DECLARE
    return game
