"""Sessions of rounds: games whose tables are single rounds (Onion) keep what outlives a
round in the channel's carryover (``Game.carry_out`` -> ``options["carry"]`` at Start).

``end_session`` is the generic ``/<game> session end``: the host of the channel's last
table of that game, or anyone with Manage Server, sees the final standings (the game's
render hook ``session_summary(carry) -> str``) and the carryover is cleared, so the next
``/<game> new`` starts a fresh session.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot import guard
from storage import repos

if TYPE_CHECKING:
    from bot.games import GameSpec
    from bot.tables import TableManager


def has_sessions(spec: GameSpec) -> bool:
    """A game opts into sessions by giving its render module ``session_summary``."""
    return callable(getattr(spec.render, "session_summary", None))


def parent_channel_id(interaction: discord.Interaction) -> int | None:
    """Carryovers are keyed by the channel a table was opened from, also when typed in its thread."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id:
        return channel.parent_id
    return interaction.channel_id


async def end_session(interaction: discord.Interaction, manager: TableManager, spec: GameSpec) -> None:
    guild_id, channel_id = interaction.guild_id, parent_channel_id(interaction)
    if guild_id is None or channel_id is None:
        await guard.answer(interaction, "Sessions belong to a server channel, not to DMs.")
        return
    async with manager.storage.reading(guild_id) as db:
        carry = await repos.get_carryover(db, channel_id, spec.key)
        host = await repos.last_host(db, channel_id, spec.key)
        active_id = await repos.active_table_in_channel(db, channel_id)
        active = await repos.get_table(db, active_id) if active_id is not None else None
    if not carry:
        await guard.answer(interaction, f"This channel has no {spec.title} session to end: no round has finished here since the last one ended.")
        return
    permissions = interaction.permissions
    if interaction.user.id != host and not (permissions and permissions.manage_guild):
        await guard.answer(interaction, f"Only the host of the last round, <@{host}>, or someone with Manage Server can end this session.")
        return
    if active is not None and active.game == spec.key and active.status == "playing":
        await guard.answer(interaction, "A round is still in play here; end the session when it is over.")
        return
    async with manager.storage.transaction(guild_id) as db:
        await repos.clear_carryover(db, channel_id, spec.key)
    summary = spec.render.session_summary(carry)  # type: ignore[attr-defined]
    await guard.answer(interaction, guard.fit(f"**{spec.title}: the session is over.**\n{summary}"), ephemeral=False,
                       allowed_mentions=discord.AllowedMentions.none())
