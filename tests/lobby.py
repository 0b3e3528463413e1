"""The lobby's option lines for a game, as ``bot.discord_front.tables.lobby`` writes them, without
Discord: the same function on a stand-in table holding only what it reads."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.core.games import GameSpec
from bot.discord_front.tables.lobby import _option_lines


def lobby_option_lines(spec: GameSpec, options: dict[str, Any]) -> list[str]:
    table = SimpleNamespace(spec=spec, record=SimpleNamespace(publish={"lobby_options": options}, options=options))
    return _option_lines(table)


def spec_of(game_cls: type, render: Any, house_rules: tuple) -> GameSpec:
    return GameSpec(game=game_cls, render=render, house_rules=tuple(house_rules))
