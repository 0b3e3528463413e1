"""Blackjack's description for the table core, free of Discord: its rules, house
rules and render module (``cogs/catalog.py`` lists every game's)."""

from __future__ import annotations

from bot.core.games import GameSpec
from cogs.blackjack import render
from cogs.blackjack.rules import HOUSE_RULES, BlackjackGame

SPEC = GameSpec(game=BlackjackGame, render=render, house_rules=HOUSE_RULES)
