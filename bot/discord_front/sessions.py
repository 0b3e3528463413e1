"""Sessions: state that outlives one game in a channel (Onion's bankrolls and Dealer,
Enid's name chain and used middle names) lives in the channel's carryover
(``Game.carry_out`` -> ``options["carry"]`` at Start).

``end_session`` is the one ``/<game> session end`` of every game with sessions: the
host of the channel's last table of that game, or anyone with Manage Server, sees the
session's story (the game's render hook ``session_summary(carry) -> str``) and the
carryover is cleared, so the next ``/<game> new`` starts a fresh session. It is
refused while a game of it is in play from that channel (its end would write the
old session back).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

import discord

from bot.discord_front import guard
from bot.players import ratings
from bot.core.sessions import has_sessions, next_label, rate_session
from bot.discord_front.common import now_ts
from bot.words.i18n import _
from storage import repos

if TYPE_CHECKING:
    from bot.core.games import GameSpec
    from bot.core.table import Table
    from storage.db import Storage


class HeldTables(Protocol):
    """What ending a session reads: the tables this process holds, and the storage."""

    storage: Storage

    def tables(self) -> list[Table]: ...


__all__ = ["chunks", "end_session", "has_sessions", "next_label", "parent_channel_id"]

#: Discord's limit for one message's content.
MESSAGE_LIMIT = 2000


def parent_channel_id(interaction: discord.Interaction) -> int | None:
    """Carryovers are keyed by the channel a table was opened from, also when typed in its thread."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id:
        return channel.parent_id
    return interaction.channel_id


def chunks(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """``text`` in messages of at most ``limit`` characters, cut between lines (a
    long session's chain is never clipped away)."""
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:  # one very long line: cut it hard
            if current:
                parts.append(current)
                current = ""
            parts.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            parts.append(current)
            current = line
        else:
            current = candidate
    if current:
        parts.append(current)
    return parts or [""]


async def end_session(interaction: discord.Interaction, manager: HeldTables, spec: GameSpec, *, unit: str = "game") -> None:
    """``unit`` is what one table of the game is called: "round" for Onion, "game" for Enid."""
    guild_id, channel_id = interaction.guild_id, parent_channel_id(interaction)
    if guild_id is None or channel_id is None:
        await guard.answer(interaction, _("Sessions belong to a server channel, not to DMs."))
        return
    in_play = [
        t for t in manager.tables()
        if t.guild_id == guild_id and t.spec.key == spec.key and t.record.channel_id == channel_id and t.status == "playing"
    ]
    if in_play:
        where = f"<#{in_play[0].record.thread_id}>" if in_play[0].record.thread_id else ""
        await guard.answer(interaction, _("A {unit} is still in play here (in {thread}); end the session when it is over.", unit=_(unit), thread=where) if where
                           else _("A {unit} is still in play here; end the session when it is over.", unit=_(unit)))
        return
    async with manager.storage.reading(guild_id) as db:
        carry = await repos.get_carryover(db, channel_id, spec.key)
        host = await repos.last_host(db, channel_id, spec.key)
    if not carry:
        await guard.answer(interaction, _("This channel has no {title} session to end: no {unit} has finished here since the last one ended.", title=spec.title, unit=_(unit)))
        return
    permissions = interaction.permissions
    if interaction.user.id != host and not (permissions and permissions.manage_guild):
        await guard.answer(interaction, _("Only the host of the last {unit}, {host}, or someone with Manage Server can end this session.", unit=_(unit), host=f"<@{host}>"))
        return
    moves: dict[int, int] = {}
    async with manager.storage.transaction(guild_id) as db:
        await repos.clear_carryover(db, channel_id, spec.key)
        moves = await rate_session(db, spec, channel_id, carry, now_ts())
    summary = spec.render.session_summary(carry)  # type: ignore[attr-defined]
    if moves:
        summary += "\n" + ratings.moves_text(moves)
    for part in chunks(_("**{title}: the session is over.**", title=spec.title) + f"\n{summary}"):
        # The first part answers the command; a long story continues in follow-ups.
        await guard.answer(interaction, part, ephemeral=False, allowed_mentions=discord.AllowedMentions.none())
