"""Hands: a player's private hand, shown as an ephemeral message or in their DMs,
and re-rendered in place by its ↻ and page buttons."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot import i18n
from bot import views
from bot.publish import final_text, mentions, ping_task, play_again, table_unit
from bot.core.table import Table
from bot.i18n import _
from bot.discord_front import edits
from bot.discord_front.common import _reply, now_ts
from storage import repos


class HandsMixin:
    """Part of :class:`bot.tables.TableManager`: private hands."""

    async def show_hand(self, interaction: discord.Interaction, guild_id: int, table_id: int, *, in_place: bool = False, page: int = 0, version: int | None = None) -> None:
        """Show the user's private hand: a new ephemeral message (or DM), or the
        same hand message re-rendered in place (↻ and page buttons)."""
        table = await self._table_or_reply(interaction, guild_id, table_id)
        if table is None:
            return
        user = interaction.user.id
        if self.shared:
            async with table.lock:
                await self._sync(table)  # a copy another process may have moved on
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
        hand = await self.publisher.hand_message(table, user, notice=notice, page=page, dm=interaction.guild_id is None)
        if in_place:
            await edits.answer_by_editing(interaction, **hand.edit())
            self.publisher.remember_hand(table, interaction)
            return
        if interaction.guild_id is not None and await self.hands_in_dm(guild_id, user):
            publisher = self.publisher
            if not publisher.dms_closed(table, user):
                if await self._over_share(interaction):  # a hand in DMs is sent or edited with the bot's token
                    return
                # Refresh the DM hand in place rather than send another; a first one is sent.
                refreshed = await publisher.refresh_dm_hand(table, user)
                if refreshed is not None:
                    await interaction.response.send_message(_("Your hand in your DMs is up to date: {link}", link=refreshed.jump_url), ephemeral=True)
                    return
                sent = await publisher.send_dm_hand(table, user)
                await self._save_publish(table)
                if sent is not None:
                    await interaction.response.send_message(_("Your hand is in your DMs: {link}", link=sent.jump_url), ephemeral=True)
                    return
            closed = table.record.publish.setdefault("dm_closed", {})
            if not closed.get(str(user)):
                # Said once per game; from then on hands are shown here without comment.
                notice = _("I could not DM you (your DMs seem closed to this server's members), so your hands are shown here instead.")
                hand = await self.publisher.hand_message(table, user, notice=notice, page=page)
                closed[str(user)] = True
                await self._save_publish(table)
        sent = await edits.answer_with_message(interaction, **hand.send(), ephemeral=True)
        self.publisher.remember_hand(table, interaction, sent)
        await self.publisher.drop_older_copies(table, user)  # one clickable hand

    async def _save_publish(self, table: Table) -> None:
        async with self.storage.transaction(table.guild_id) as db:
            await repos.update_table(db, table.id, now=now_ts(), publish=table.record.publish)

    @i18n.for_reader
    def _hand_payload(self, table: Table, user: int, *, notice: str = "", page: int = 0, status: bool = True,
                      observation: Mapping[str, Any] | None = None) -> tuple[str, discord.Embed, list[views.PlannedControl]]:
        """The hand's status line (after ``notice``), its embed and its controls (each
        with its row, planned: ``views.hand_plan``; none once the game is over), in the
        reader's language. ``observation``: the player's, when the caller took it already."""
        state = table.state
        assert state is not None
        if table.record.publish.get("paused") and not notice:
            from bot.tables.threads import paused_sentence

            notice = "⏸️ " + paused_sentence(table)
        if observation is None:
            observation = state.observation(user)
        current = state.current_players()
        # Not only current players: Enid's Challenge and vote buttons belong to players
        # whose turn it is not (other games list nothing for a non-current player).
        legal = state.legal_actions(user) if not state.is_over() else []
        controls = table.spec.render.controls(observation, legal)
        embed = table.spec.render.hand_embed(observation, table.names())
        embed.set_footer(text=_("{title} #{id} · move {version}", title=table.spec.title, id=table.id, version=table.record.version))
        if state.is_over():
            # No controls at all (not even ↻): the game is over; the line says how, and
            # where the next one starts.
            items: list[views.PlannedControl] = []
            line = f"{final_text(table.spec.title, state, unit=table_unit(table.spec), render=table.spec.render)} {play_again(table.spec, table.guild_id, table.record)}"
        else:
            items = views.hand_plan(table.guild_id, table.id, table.record.version, controls, page)
            if user in current:
                # A vote is not a move: the game's own word for what is owed, when it has one.
                task = ping_task(table)
                line = (_("**Now {task}.**", task=task) if task else _("**Your move.**")) + (" " + _("Timer: {when}.", when=f"<t:{int(table.record.deadline)}:R>") if table.record.deadline else "")
            elif legal:
                line = _("**You may act now** (the buttons below).")
            else:
                line = waiting_line(table, user, current)
        content = "\n".join(part for part in (notice, line if status or not notice else "") if part)
        return content, embed, items


def owers(table: Table) -> list[int]:
    """Players who owe typed words now (open obligations), whoever's turn it is."""
    return sorted({int(player) for player, _ in table.record.obligations.values() if player is not None})


def waiting_line(table: Table, user: int, current: frozenset[int] | set[int]) -> str:
    """A hand's status when its player may do nothing now: whom the game waits for. With
    no turn (a ritual holds the game), those who owe words, or "you"."""
    if current:
        return _("Waiting for {players}.", players=mentions(sorted(current)))
    owing = owers(table)
    if user in owing:
        return _("**It is up to you:** type what is asked below in the game's thread.")
    if owing:
        return _("Waiting for {players} to type what they owe in the game's thread.", players=mentions(owing))
    return _("No turn until a ritual is done (see below).")
