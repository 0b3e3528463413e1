"""Every game Deckhand runs, as Discord-free :class:`bot.core.games.GameSpec` values
(``cogs/<game>/spec.py``): what a front end registers with the table core. Each
game's ``cog.py`` (Discord's slash commands) uses the same spec."""

from __future__ import annotations

import importlib

from bot.core.games import GameRegistry, GameSpec

#: The games, by key, in the order a menu lists them.
GAMES = ("blackjack", "idiot", "engines", "onion", "enid")


def spec(key: str) -> GameSpec:
    """One game's spec by its key; KeyError for an unknown game."""
    if key not in GAMES:
        raise KeyError(key)
    return importlib.import_module(f"cogs.{key}.spec").SPEC


def registry(keys: tuple[str, ...] = GAMES) -> GameRegistry:
    """A registry of these games, as the core takes it (with the platform's own house rules)."""
    games = GameRegistry()
    for key in keys:
        games.add(spec(key))
    return games
