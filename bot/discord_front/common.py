"""What the Discord side of the tables shares: its clock (discord.py's, which SimCord
moves), and the short answer to an interaction."""

from __future__ import annotations

import discord

from bot import guard


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
