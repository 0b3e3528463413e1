"""What the Discord side of the tables shares: its clock (discord.py's, which SimCord
moves), and the short answer to an interaction."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_front import guard


def now_ts() -> float:
    # discord.utils.utcnow is the clock discord.py itself uses (and the one tests control).
    return discord.utils.utcnow().timestamp()


class DiscordClock:
    """The core's clock (bot/core/clock.py) as the Discord front end reads it."""

    def now(self) -> float:
        return now_ts()


async def _reply(interaction: discord.Interaction, text: str, *, ephemeral: bool = True) -> None:
    """Answer once: a new message if the interaction is unanswered, else a follow-up;
    clipped to Discord's limit (refusals may echo what a user typed)."""
    await guard.answer(interaction, text, ephemeral=ephemeral)


def field_value(components: Any, custom_id: str) -> str | None:
    """A text field's value in a modal submit's component tree (rows or labels)."""
    for component in components or ():
        if not isinstance(component, dict):
            continue
        if component.get("custom_id") == custom_id and "value" in component:
            return str(component["value"])
        for child in (*component.get("components", ()), *([component["component"]] if "component" in component else [])):
            found = field_value([child], custom_id)
            if found is not None:
                return found
    return None
