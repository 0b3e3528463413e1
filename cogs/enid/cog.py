"""Enid in Discord: the platform runs the lobby, thread, hands, timers and restore;
this file names the game, adds ``mode`` to ``/enid new`` and ``/enid session end``.

- Rituals are typed in the game's thread (``GameSpec.accepts_chat``: the table manager
  passes every message there to the rules as ``say``), or with ``/say`` where the bot
  cannot read chat. The Church's shout must mention its target (``@name``).
- A session is per parent channel: every game's chain, middle names and results are
  stored under the table's ``channel_id`` (threads opened from one channel share it)
  and carried into the next Enid game there until ``/enid session end``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import guard
from bot.gamecog import GameCog
from bot.games import GameSpec
from bot.render_util import clip
from bot.tables import now_ts
from cogs.enid import render
from cogs.enid.rules import ENID, HOUSE_RULES, MODES, EnidGame
from storage import repos

GAME = EnidGame.key


def lobby_note(reads_chat: bool) -> str:
    """The lobby's word on how rituals are said."""
    if reads_chat:
        return "Rituals are typed in the game's thread (or with /say). The Church's shout must @mention its target."
    return "This bot cannot read chat (Message Content is off): say every ritual with /say, and @mention the Church's target."


def session_text(carry: Mapping[str, Any]) -> str:
    """A session's whole story: the Enid chain with its authors and each game's result."""
    chain = carry.get("chain") or []
    results = carry.get("results") or []
    lines = [f"**The Enid chain** ({len(chain)} name{'s' if len(chain) != 1 else ''}):"]
    if chain:
        lines += [f"{n}. {' '.join(str(w) for w in entry.get('words', []))} — by <@{entry.get('author')}>" for n, entry in enumerate(chain, 1)]
    else:
        lines.append("Nobody named the Enid Blyton this session.")
    middle = carry.get("middle_names") or []
    if middle:
        lines.append(f"Middle names used: {len(middle)}.")
    lines.append(f"**Results** ({len(results)} game{'s' if len(results) != 1 else ''}):")
    for n, result in enumerate(results, 1):
        placements = result.get("placements") or []
        order = ", then ".join(" and ".join(f"<@{p}>" for p in place) for place in placements)
        winner = result.get("winner")
        lines.append(f"Game {n}: " + (f"<@{winner}> won" if winner is not None else "no winner") + (f" ({order})" if order else "") + ".")
    return "\n".join(lines)


async def end_session(tables: Any, guild_id: int, channel_id: int, user: int, can_manage_server: bool, game: str = GAME) -> tuple[bool, str]:
    """End ``game``'s session in a (parent) channel: (ended, what to say). Only the host of
    the channel's last table of the game or a member with Manage Server may, and not
    while a game of it is open there (its end would write the old session back)."""
    for table in tables.tables():
        if table.guild_id == guild_id and table.spec.key == game and table.record.channel_id == channel_id:
            return False, f"Finish or `/cancel` {table.describe()} first: its end would carry the session on."
    async with tables.storage.reading(guild_id) as db:
        carry = await repos.get_carryover(db, channel_id, game)
        async with db.execute(
            "SELECT host_id FROM game_tables WHERE channel_id = ? AND game = ? ORDER BY id DESC LIMIT 1", (channel_id, game)
        ) as cursor:
            row = await cursor.fetchone()
    if not carry:
        return False, "There is no session to end here: no game has finished in this channel since the last one ended."
    host = int(row[0]) if row else None
    if user != host and not can_manage_server:
        who = f"<@{host}>, who hosted the last game here," if host is not None else "the host of the last game"
        return False, f"Only {who} or someone with Manage Server can end this session."
    async with tables.storage.transaction(guild_id) as db:
        await repos.set_carryover(db, channel_id, game, {}, now_ts())
    return True, session_text(carry) + "\n\nThe session is over: the next game here starts a new chain."


class EnidCog(GameCog, group_name="enid", group_description="Enid: Blackjack with computer scientists, fish and rituals."):
    spec = GameSpec(game=EnidGame, render=render, house_rules=HOUSE_RULES, accepts_chat=True)

    session = app_commands.Group(name="session", description="The channel's Enid session: its chain and results.")

    @app_commands.command(name="new", description="Open an Enid table: rituals typed in the thread, or plain Blackjack.")
    @app_commands.guild_only()
    @app_commands.describe(mode="enid: names and rituals (the default); plain: Mike Taylor's Blackjack without them")
    @app_commands.choices(
        mode=[
            app_commands.Choice(name="enid: name every card, limericks, the Enid chain", value="enid"),
            app_commands.Choice(name="plain: Blackjack with its magic cards, nothing to type", value="plain"),
        ]
    )
    async def new(self, interaction: discord.Interaction, mode: str | None = None) -> None:
        # A plain str: a forged value outside the choices is refused here with a sentence.
        chosen = ENID if mode is None else mode
        if chosen not in MODES:
            await guard.answer(interaction, f"Enid is played in mode enid or plain, not {guard.clip(chosen, 20)}.")
            return
        note = lobby_note(self.bot.intents.message_content) if chosen == ENID else "Plain Blackjack: nothing to type, the buttons do it all."
        await self.open_table(interaction, note=note, mode=chosen)

    @session.command(name="end", description="End this channel's Enid session: show the chain and results, then start afresh.")
    @app_commands.guild_only()
    async def session_end(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            await guard.answer(interaction, "Sessions belong to server channels; use this command there.")
            return
        channel = interaction.channel
        # The session is the parent channel's: a game's thread shares it.
        channel_id = channel.parent_id if isinstance(channel, discord.Thread) and channel.parent_id else interaction.channel_id
        permissions = interaction.permissions
        ended, text = await end_session(
            self.bot.tables, interaction.guild_id, channel_id, interaction.user.id, bool(permissions and permissions.manage_guild),  # type: ignore[attr-defined]
        )
        if not ended:
            await guard.answer(interaction, text)
            return
        embed = discord.Embed(title="Enid: the session ends", description=clip(text, 4096), colour=render.COLOUR)
        await guard.answer(interaction, "The Enid session here has ended.", ephemeral=False, embed=embed, allowed_mentions=discord.AllowedMentions.none())


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(EnidCog(bot))
