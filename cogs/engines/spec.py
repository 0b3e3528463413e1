"""Engines's description for the table core, free of Discord: its rules, house
rules and render module (``cogs/catalog.py`` lists every game's)."""

from __future__ import annotations

from bot.core.games import GameSpec
from cogs.engines import render
from cogs.engines.rules import HOUSE_RULES, SEAT_CHOICES, EnginesGame, prepare_table_options

SPEC = GameSpec(
    game=EnginesGame,
    render=render,
    house_rules=HOUSE_RULES,
    seat_choices=SEAT_CHOICES,
    prepare_options=prepare_table_options,
)
