"""Hands: a player's private hand, shown as an ephemeral message or in their DMs,
and re-rendered in place by its ↻ and page buttons."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Mapping
from typing import Any

import discord

from bot.discord_front import guard
from bot.words import i18n
from bot.discord_front import views
from bot.discord_front.publish import HandMessage, final_text, mentions, ping_task, play_again, table_unit
from bot.core.table import Table
from bot.words.i18n import _
from bot.discord_front import edits
from bot.discord_front.common import _reply, now_ts
from storage import repos

log = logging.getLogger("bot.tables")  # one logger for the whole package, as when it was one module


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
            # The DM is a bot-token request, as slow as Discord is: deferred within 3 s.
            async with guard.in_time(interaction):
                hand = await self._dm_hand(interaction, table, user, page, hand)
            if hand is None:
                return
            if interaction.response.is_done():
                # Deferred while the DM failed: the hand goes as a follow-up (not a live
                # hand: the deferred click's original message is the board).
                with contextlib.suppress(discord.HTTPException):
                    await interaction.followup.send(**hand.send(), ephemeral=True)
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

    async def _dm_hand(self, interaction: discord.Interaction, table: Table, user: int, page: int, hand: HandMessage) -> HandMessage | None:
        """Show hand for a player whose hands go to their DMs: the DM refreshed in place
        (or a first one sent) and the click answered with its link; None once answered.
        Else (their DMs are closed) the hand to show here, said once per game."""
        publisher = self.publisher
        if not publisher.dms_closed(table, user):
            if await self._over_share(interaction):  # a hand in DMs is sent or edited with the bot's token
                return None
            # Refresh the DM hand in place rather than send another; a first one is sent.
            refreshed = await publisher.refresh_dm_hand(table, user)
            if refreshed is not None:
                await _reply(interaction, _("Your hand in your DMs is up to date: {link}", link=refreshed.jump_url))
                return None
            sent = await publisher.send_dm_hand(table, user)
            await self._save_publish(table)
            if sent is not None:
                await _reply(interaction, _("Your hand is in your DMs: {link}", link=sent.jump_url))
                return None
        closed = table.record.publish.setdefault("dm_closed", {})
        if not closed.get(str(user)):
            # Said once per game; from then on hands are shown here without comment.
            notice = _("I could not DM you (your DMs seem closed to this server's members), so your hands are shown here instead.")
            closed[str(user)] = True
            await self._save_publish(table)
            return await publisher.hand_message(table, user, notice=notice, page=page)
        return hand

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
            from bot.discord_front.tables.threads import paused_sentence

            notice = "⏸️ " + paused_sentence(table)
        elif (behind := board_behind(table)) is not None:
            notice = "\n".join(part for part in (notice, behind) if part)
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


#: A board that has not caught up with the play for this long is said to be behind in
#: what players see next (their hand, the answer to their click).
BOARD_BEHIND_SECONDS = 5.0


def board_behind(table: Table) -> str | None:
    """The sentence saying the board lags, and why, while it does for more than
    :data:`BOARD_BEHIND_SECONDS`; None when it is up to date (or nearly)."""
    since = table.behind_since
    if (since is None or now_ts() - since < BOARD_BEHIND_SECONDS or table.state is None or table.state.is_over()
            or table.record.publish.get("paused")):  # a paused game's hands say why it is paused instead
        return None
    error = table.board_error
    status = getattr(error, "status", 0) or 0
    if status >= 500:
        why = _("Discord is answering with server errors")
    elif status == 429:
        why = _("Discord is limiting how often I may update it")
    elif error is not None:
        why = _("Discord refused the update")
    else:
        why = _("Discord is slow to take the update or asks me to wait")
    return _("⚠️ The board is behind ({why}); it catches up by itself. Your hand here is up to date.", why=why)


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
