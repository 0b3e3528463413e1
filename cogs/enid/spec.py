"""Enid's description for the table core, free of Discord: its rules, house
rules and render module (``cogs/catalog.py`` lists every game's)."""

from __future__ import annotations

from bot.core.games import GameSpec
from cogs.enid import render
from cogs.enid.rules import HOUSE_RULES, EnidGame

SPEC = GameSpec(game=EnidGame, render=render, house_rules=HOUSE_RULES, accepts_chat=True)
