"""Onion's description for the table core, free of Discord: its rules, house
rules and render module (``cogs/catalog.py`` lists every game's)."""

from __future__ import annotations

from bot.core.games import GameSpec
from cogs.onion import render
from cogs.onion.rules import HOUSE_RULES, OnionGame

SPEC = GameSpec(game=OnionGame, render=render, house_rules=HOUSE_RULES)
