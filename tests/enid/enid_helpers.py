"""Shared helpers for the Enid tests (imported as a plain module, not a conftest)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from bot.rules.engine import Action, Event
from cogs.enid.rules import EnidGame



def stacked(hands: dict[int, list[str]], *, discard: list[str], deck: list[str] | None = None, options: dict | None = None,
            first: int | None = None, carry: dict | None = None) -> EnidGame:
    """A game from a stacked deal; players are the hands' keys in seat order.
    ``deck`` is bottom..top; a default deck of low clubs/spades is used so draws work."""
    opts = dict(options or {})
    if carry is not None:
        opts["carry"] = carry
    deal: dict[str, Any] = {"hands": hands, "discard": discard, "deck": deck if deck is not None else DEFAULT_DECK}
    if first is not None:
        deal["first"] = first
    return EnidGame.new(list(hands), opts, deal=deal)


# Cards nobody holds in the scenarios below (bottom..top).
DEFAULT_DECK = ["5s", "5d", "4s", "4d", "3s", "3d", "5h", "4h", "3h", "5c", "4c", "3c"]


def act(game: EnidGame, player: int, *codes: str) -> list[Event]:
    """Apply action codes for one player ("9h" means play:9h, "say:<text>" says text)."""
    events: list[Event] = []
    for code in codes:
        if code.startswith("say:"):
            action = Action("say", arg=code[4:])
        elif ":" in code or code in ("draw", "end", "recite"):
            action = Action.parse(code)
        else:
            action = Action.play(code)
        events.extend(game.apply(player, action))
    return events


def say(game: EnidGame, player: int, text: str) -> list[Event]:
    return game.apply(player, Action("say", arg=text))


def timeout(game: EnidGame, kind: str) -> list[Event]:
    """Fire the timer of the first open obligation of ``kind``, as the platform would."""
    o = next(o for o in game.obligations if o["kind"] == kind)
    return game.apply(o["player"], Action("timeout", arg=o["id"]))


def hand(game: EnidGame, player: int) -> list[str]:
    return sorted(str(c) for c in game.hands[player])


def kinds(events: Iterable[Event]) -> list[str]:
    return [e.kind for e in events]


def drawn(events: Iterable[Event], player: int) -> int:
    return sum(e.data["count"] for e in events if e.kind == "draw" and e.player == player)


def owed(game: EnidGame, player: int) -> list[str]:
    return [o["kind"] for o in game.obligations if o["player"] == player]


def random_step(game: EnidGame, rng: random.Random) -> tuple[int, Action, list[Event]]:
    """One random move (see ``EnidGame.random_move``): rituals right, wrong or late."""
    player, action = game.random_move(rng)
    return player, action, game.apply(player, action)


def sensible_step(game: EnidGame, rng: random.Random, choose_draw: float = 0.1) -> tuple[int, Action, list[Event]]:
    """Like :func:`random_step`, but under the voluntary-draw house rule a player who
    could lay a card draws by choice only with probability ``choose_draw`` (a uniformly
    random player mostly draws, a walk of tens of thousands of moves no table plays)."""
    player, action = game.random_move(rng)
    if action.kind == "draw" and not action.arg and player == game.current and game.options["voluntary_draw"] == "yes":
        plays = [a for a in game.legal_actions(player) if a.kind == "play"]
        if plays and game.facing() is None and rng.random() >= choose_draw:
            action = rng.choice(plays)
    return player, action, game.apply(player, action)
