"""Idiot's description for the table core, free of Discord: its rules, house
rules and render module (``cogs/catalog.py`` lists every game's)."""

from __future__ import annotations

from bot.core.games import GameSpec
from cogs.idiot import render
from cogs.idiot.rules import HOUSE_RULES, IdiotGame

SPEC = GameSpec(game=IdiotGame, render=render, house_rules=HOUSE_RULES)
