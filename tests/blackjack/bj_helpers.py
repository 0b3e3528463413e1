"""Shared helpers for the Blackjack tests (imported as a plain module, not a conftest)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.rules.engine import Action, Event
from cogs.blackjack.rules import BlackjackGame



def stacked(hands: dict[int, list[str]], **deal: Any) -> BlackjackGame:
    """A game from a stacked deal; players are the hands' keys in order."""
    options = deal.pop("options", {})
    players = deal.pop("players", list(hands))
    return BlackjackGame.new(players, options, deal={"hands": hands, **deal})


def play(game: BlackjackGame, player: int, *codes: str) -> list[Event]:
    """Apply several action codes ("9h" means play:9h) for one player; all events."""
    events: list[Event] = []
    for code in codes:
        if ":" in code or code in ("draw", "end"):
            action = Action.parse(code)
        else:
            action = Action.play(code)
        events.extend(game.apply(player, action))
    return events


def hand(game: BlackjackGame, player: int) -> set[str]:
    return {str(c) for c in game.hands[player]}


def codes(actions: Iterable[Action]) -> list[str]:
    return [a.code() for a in actions]


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]
