"""Hands: a player's private hand, shown as an ephemeral message or in their DMs,
and re-rendered in place by its ↻ and page buttons."""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from bot.core.settings import GuildSettings
from bot.core.sync import Sync
from bot.core.table import Table
from bot.discord_front import edits, guard
from bot.discord_front.common import _reply
from bot.discord_front.publish import BOARD_BEHIND_SECONDS, HandMessage, Publisher, board_behind, owers, waiting_line
from bot.words.i18n import _

if TYPE_CHECKING:
    from bot.discord_front.tables.finder import Finder

__all__ = ["BOARD_BEHIND_SECONDS", "Hands", "board_behind", "owers", "waiting_line"]

log = logging.getLogger("bot.tables")  # one logger for the whole package, as when it was one module


class Hands:
    """Show hand (and its ↻ and page buttons): a player's private hand. Handed the
    finder (lookups, shares), the core's :class:`bot.core.sync.Sync` (a copy another
    process moved on), the server settings (hands in DMs) and the publisher (the hand
    itself, its DM, the live hands)."""

    def __init__(self, *, finder: Finder, sync: Sync, settings: GuildSettings, publisher: Publisher) -> None:
        self.finder, self.sync, self.settings, self.publisher = finder, sync, settings, publisher

    async def show_hand(self, interaction: discord.Interaction, guild_id: int, table_id: int, *, in_place: bool = False, page: int = 0, version: int | None = None) -> None:
        """Show the user's private hand: a new ephemeral message (or DM), or the
        same hand message re-rendered in place (↻ and page buttons)."""
        if await self.finder.over_hand_views(interaction):
            return
        table = await self.finder.table_or_reply(interaction, guild_id, table_id)
        if table is None:
            return
        user = interaction.user.id
        if self.sync.shared:
            async with table.lock:
                await self.sync.sync(table)  # a copy another process may have moved on
        if table.status != "playing" or table.state is None:
            await _reply(interaction, _("The game has not started yet."))
            return
        if user not in table.state.players:
            await _reply(interaction, _("You are not playing in this game, so you have no hand here. Spectators can follow the game on its board."))
            return
        notice = ""
        if version is not None and version != table.record.version:
            notice = _("The game moved on since that page was shown; here is your hand now.")
            page = 0
        if not in_place and interaction.guild_id is not None and await self.settings.hands_in_dm(guild_id, user):
            # The DM is a bot-token request, as slow as Discord is: deferred within 3 s.
            async with guard.in_time(interaction):
                hand = await self._dm_hand(interaction, table, user, page, notice)
            if hand is None:
                return
            if interaction.response.is_done():
                # Deferred while the DM failed: the hand goes as a follow-up (not a live
                # hand: the deferred click's original message is the board).
                with contextlib.suppress(discord.HTTPException):
                    await interaction.followup.send(**hand.send(), ephemeral=True)
                return
        else:
            hand = await self.publisher.hand_message(table, user, notice=notice, page=page, dm=interaction.guild_id is None)
            if in_place:
                await edits.answer_by_editing(interaction, **hand.edit())
                self.publisher.remember_hand(table, interaction)
                return
        try:
            sent = await edits.answer_with_message(interaction, **hand.send(), ephemeral=True)
        except discord.HTTPException as error:
            if guard.late_refusal(error) is None:
                raise
            # Delivered late (a gateway RESUME's replay): nothing can answer it; nothing changed.
            log.info("Show hand on table %s reached me %.1f s after it was made and can no longer be answered: %s", table.id, guard.age(interaction), error)
            return
        self.publisher.remember_hand(table, interaction, sent)
        await self.publisher.drop_older_copies(table, user)  # one clickable hand

    async def _dm_hand(self, interaction: discord.Interaction, table: Table, user: int, page: int, notice: str) -> HandMessage | None:
        """Show hand for a player whose hands go to their DMs: the DM refreshed in place
        (or a first one sent) and the click answered with its link; None once answered
        (a refusal by the member's share too: checked before anything is drawn). Else
        (their DMs are closed) the hand to show here, said once per game."""
        publisher = self.publisher
        if not publisher.dms_closed(table, user):
            if await self.finder.over_share(interaction):  # a hand in DMs is sent or edited with the bot's token
                return None
            # Refresh the DM hand in place rather than send another; a first one is sent.
            refreshed = await publisher.refresh_dm_hand(table, user)
            if refreshed is not None:
                await _reply(interaction, _("Your hand in your DMs is up to date: {link}", link=refreshed.jump_url))
                return None
            sent = await publisher.send_dm_hand(table, user)
            await self.publisher.save_publish(table)
            if sent is not None:
                await _reply(interaction, _("Your hand is in your DMs: {link}", link=sent.jump_url))
                return None
        closed = table.record.publish.setdefault("dm_closed", {})
        if not closed.get(str(user)):
            # Said once per game; from then on hands are shown here without comment.
            notice = _("I could not DM you (your DMs seem closed to this server's members), so your hands are shown here instead.")
            closed[str(user)] = True
            await self.publisher.save_publish(table)
        return await publisher.hand_message(table, user, notice=notice, page=page)
