"""``/privacy show|export|forget`` (issue 25), the move-log purge that runs on its own,
and deleting a server's data some time after the bot leaves it.

The words and the data come from :mod:`bot.privacy` (no Discord there); this module
answers interactions, sends the export file, and runs the periodic purge.
"""

from __future__ import annotations

import asyncio
import gzip
import io
import json
import logging
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_front import languages
from bot.discord_front import guard
from bot.players import privacy
from bot.discord_front.gamecog import PlatformCog
from bot.words.i18n import N_, _, pgettext
from bot.discord_front.tables.restore import until_restored
from bot.discord_front.common import now_ts
from storage import purge as guild_purge
from storage import repos
from storage.db import StorageError, log_failure

log = logging.getLogger(__name__)

#: How often the purge runs (it also runs once at start-up, after the restore).
PURGE_EVERY_SECONDS = 6 * 3600
#: An export larger than this is sent gzipped (Discord's smallest upload limit is 10 MB).
EXPORT_PLAIN_LIMIT = 8 * 1024 * 1024
DMS_CLOSED = 50007

FORGET_WARNING = N_(
    "**Forget me on this server?** This cannot be undone. Your settings go; in the records of "
    "finished games you become \"a former player\" (the games, and other players' results, stay); "
    "names you added to Enid's chain stay, without your name on them; your Onion bankrolls become "
    "a former player's. Other servers are not touched. Export your data first if you want a copy "
    "(`/privacy export`)."
)


def _where(records: list[repos.TableRecord]) -> str:
    return ", ".join(_("a {game} game in {place}", game=r.game, place=f"<#{r.place}>") for r in records[:3])


class ForgetButton(discord.ui.DynamicItem[discord.ui.Button], template=r"dh:forget:(?P<g>\d+):(?P<u>\d+)"):
    """The confirmation: bound to the server (checked like every component) and to the
    person who asked (nobody else can forget them)."""

    def __init__(self, guild_id: int, user_id: int) -> None:
        super().__init__(discord.ui.Button(label=pgettext("button", "Forget me"), style=discord.ButtonStyle.danger, custom_id=f"dh:forget:{guild_id}:{user_id}"))
        self.guild_id, self.user_id = guild_id, user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]) -> ForgetButton:
        return cls(int(match["g"]), int(match["u"]))

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        await languages.enter(interaction)
        if not await guard.component_allowed(interaction, self.guild_id):
            return False
        if interaction.guild_id is None:
            await guard.answer(interaction, _("Use /privacy forget in the server whose data you want erased."))
            return False
        if interaction.user.id != self.user_id:
            await guard.answer(interaction, _("That button belongs to someone else's request, so nothing happened."))
            return False
        return True

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("Privacy")  # type: ignore[union-attr]
        await cog.confirm_forget(interaction, self.guild_id, self.user_id)


class Privacy(PlatformCog):
    def __init__(self, bot: commands.Bot) -> None:
        super().__init__(bot)
        self.purge_task: asyncio.Task[None] | None = None

    @property
    def storage(self):
        return self.bot.storage  # type: ignore[attr-defined]

    async def cog_load(self) -> None:
        self.purge_task = asyncio.create_task(self._purge_loop(), name="deckhand-privacy-purge")

    async def cog_unload(self) -> None:
        if self.purge_task is not None:
            self.purge_task.cancel()

    group = app_commands.Group(name="privacy", description=N_("See, export or erase what Deckhand keeps about you on this server."), guild_only=True)

    @group.command(name="show", description=N_("What Deckhand keeps about you on this server, and for how long."))
    async def show(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        guard.Deadline.start(interaction)  # a long history on a slow disk is still answered in time
        async with self.storage.reading(interaction.guild_id) as db:
            shown = await privacy.show(db, interaction.user.id)
            rules = await privacy.policy(db)
        if not shown:
            lines = [_("**Deckhand keeps nothing about you on this server.**")]
        else:
            lines = [_("**What Deckhand keeps about you on this server:**")] + [f"• **{title}:** {sentence}" for title, sentence in shown]
        lines.append(
            _("If Deckhand leaves this server, everything it kept here is deleted {days} days later. "
              "`/privacy export` sends you a copy (a JSON file); `/privacy forget` erases you from this server's data.", days=rules.leave_grace_days)
        )
        await guard.answer(interaction, "\n".join(lines))

    @group.command(name="export", description=N_("Get a file (JSON) of everything Deckhand keeps about you on this server."))
    async def export(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        await interaction.response.defer(ephemeral=True, thinking=True)
        async with self.storage.reading(interaction.guild_id) as db:
            data = await privacy.export(db, interaction.user.id, interaction.guild_id, now_ts())
        raw = json.dumps(data, indent=1, ensure_ascii=False).encode("utf-8")
        name = f"deckhand-{interaction.guild_id}-my-data.json"
        if len(raw) > EXPORT_PLAIN_LIMIT:
            raw, name = await asyncio.to_thread(gzip.compress, raw), name + ".gz"
        note = _("Everything Deckhand keeps about you on this server. Other people at your games are named by their seat, never by their id.")
        try:
            await interaction.user.send(note, file=discord.File(io.BytesIO(raw), filename=name))
        except discord.HTTPException as error:
            if error.code != DMS_CLOSED and not isinstance(error, discord.Forbidden):
                raise
            await interaction.followup.send(
                _("Your DMs are closed to me, so here it is (only you can see this message). {note}", note=note),
                file=discord.File(io.BytesIO(raw), filename=name), ephemeral=True,
            )
            return
        await interaction.followup.send(_("I sent you the file in a direct message."), ephemeral=True)

    @group.command(name="forget", description=N_("Erase yourself from this server's data (asks you to confirm first)."))
    async def forget(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        guard.Deadline.start(interaction)
        async with self.storage.reading(interaction.guild_id) as db:
            seated = await privacy.seated_in_play(db, interaction.user.id)
        if seated:
            await guard.answer(interaction, privacy.REFUSED_WHILE_SEATED.format(where=_where(seated)))
            return
        view = discord.ui.View(timeout=None)
        view.add_item(ForgetButton(interaction.guild_id, interaction.user.id))
        await guard.answer(interaction, _(FORGET_WARNING), view=view)

    async def confirm_forget(self, interaction: discord.Interaction, guild_id: int, user_id: int) -> None:
        guard.Deadline.start(interaction)  # rewriting many games' records may take a while
        async with self.storage.transaction(guild_id) as db:
            outcome = await privacy.forget(db, user_id, now_ts())
        if isinstance(outcome, list):
            await guard.answer(interaction, privacy.REFUSED_WHILE_SEATED.format(where=_where(outcome)))
            return
        log.info("Forgot a user in guild %s (%d game kind(s) touched)", guild_id, len(outcome))
        try:
            # The rows are gone from every query; now their old bytes leave the files too.
            await self.storage.scrub(guild_id)
        except StorageError as error:
            log_failure(log, error, "Forgot a user in guild %s, but could not yet clear the old copies from its storage.", guild_id)
            await guard.edit_in_place(interaction, view=None, content=_(
                "Done: Deckhand no longer keeps anything that names you on this server. One step is left: old copies "
                "of the erased data are still in this server's database file because it is busy (a backup may be "
                "running). Run /privacy forget again in a minute to clear them."))
            return
        await guard.edit_in_place(
            interaction, view=None,
            content=_("Done: Deckhand no longer keeps anything that names you on this server. "
                      "If you play again here, it starts keeping your games afresh."),
        )

    # ------------------------------------------------------------ leaving a server

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        if not self.bot.settings.owns(guild.id) or not self.storage.has_database(guild.id):  # type: ignore[attr-defined]
            return
        now = now_ts()
        try:
            async with self.storage.reading(guild.id) as db:
                grace = (await privacy.policy(db)).leave_grace_days
            await guild_purge.record_departure(self.storage, guild.id, now + grace * privacy.DAY)
        except (StorageError, OSError) as error:
            log_failure(log, error, "Could not note that the bot left server %s; its data is kept until `python -m bot purge %s`.", guild.id, guild.id)
            return
        log.info("Left server %s: its data will be deleted in %d day(s) unless the bot is added back.", guild.id, grace)
        if grace == 0:
            await self.purge_departed(now)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        if await guild_purge.cancel_departure(self.storage, guild.id):
            log.info("Back in server %s: its data is kept; the deletion planned when the bot left is cancelled.", guild.id)

    async def purge_departed(self, now: float) -> list[int]:
        """Delete the data of servers left longer ago than their grace period."""
        purged = []
        for guild_id, purge_at in sorted((await guild_purge.departures(self.storage)).items()):
            if not self.bot.settings.owns(guild_id):  # type: ignore[attr-defined]
                continue
            if self.bot.is_ready() and self.bot.get_guild(guild_id) is not None:
                await guild_purge.cancel_departure(self.storage, guild_id)  # added back while we were offline
                continue
            if now < purge_at:
                continue
            manager = self.bot.tables  # type: ignore[attr-defined]
            for table in [t for t in manager.tables() if t.guild_id == guild_id]:
                manager.registry.untrack(table)  # nothing of that server may be written again
            log.info("%s (the bot left it and its grace period is over)", await guild_purge.purge_guild(self.storage, guild_id))
            purged.append(guild_id)
        return purged

    # ------------------------------------------------------------ move-log retention

    async def purge_moves(self, now: float) -> int:
        """Delete move logs older than each server keeps them; one server at a time."""
        deleted = 0
        for guild_id in await guild_purge.guilds_with_data(self.storage):
            if not self.bot.settings.owns(guild_id):  # type: ignore[attr-defined]
                continue
            try:
                async with self.storage.reading(guild_id) as db:
                    before = await privacy.moves_to_purge(db, now)
                if before is not None:
                    async with self.storage.transaction(guild_id) as db:
                        deleted += await privacy.purge_moves(db, before)
            except StorageError as error:
                log_failure(log, error, "Could not purge old move logs of server %s; trying again next time.", guild_id)
            await asyncio.sleep(0)  # let moves in play go first
        return deleted

    async def run_purge(self) -> None:
        now = now_ts()
        await self.purge_departed(now)
        deleted = await self.purge_moves(now)
        if deleted:
            log.info("Deleted %d old move(s) of finished games (retention)", deleted)

    async def _purge_loop(self) -> None:
        await self.bot.wait_until_ready()
        await until_restored(self.bot)
        while True:
            try:
                await self.run_purge()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("The privacy purge failed; it runs again in %d s", PURGE_EVERY_SECONDS)
            await asyncio.sleep(PURGE_EVERY_SECONDS)


async def setup(bot: commands.Bot) -> None:
    guard.answer_component_failures((ForgetButton,))
    bot.add_dynamic_items(ForgetButton)
    await bot.add_cog(Privacy(bot))
