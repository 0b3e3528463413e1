"""Build the bot: ``create_bot(settings)`` returns a ready-to-start ``commands.Bot``."""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import pkgutil
from collections.abc import Callable

import aiohttp
import discord
from discord.ext import commands

from bot.discord_front import guard, mentions
from bot.bus import bus_for
from bot.discord_front import languages, pacing, replay_view
from bot.pictures import picture_pool
from bot.pictures.picture_pool import PictureDrawer
from bot.config import Settings, claim_data_dir
from bot.core.games import GameRegistry
from bot.discord_front.tables import TableManager
from bot.discord_front.translator import CatalogTranslator
from bot.discord_front.views import DYNAMIC_ITEMS, start_amount_form
from storage import open_storage
from storage.db import StorageError, log_failure

log = logging.getLogger(__name__)

def game_extensions() -> tuple[str, ...]:
    """Every ``cogs/<game>/cog.py``: a game is switched on by adding its folder."""
    import cogs

    found = []
    for package in pkgutil.iter_modules(cogs.__path__):
        if package.ispkg and importlib.util.find_spec(f"cogs.{package.name}.cog") is not None:
            found.append(f"cogs.{package.name}.cog")
    return tuple(sorted(found))


#: Extensions loaded in setup_hook: the shared commands, /privacy, /leaderboard and /profile,
#: then one cog per game.
EXTENSIONS = ("bot.discord_front.commands", "bot.discord_front.privacy_commands", "bot.discord_front.profile_commands", *game_extensions())


class _Deckhand:
    """Deckhand's bot, as ``commands.Bot`` or (with SHARD_COUNT) ``commands.AutoShardedBot``."""

    def __init__(self, settings: Settings, *, extensions: tuple[str, ...] = EXTENSIONS) -> None:
        intents = discord.Intents.default()
        # Enid's rituals are typed in chat. Privileged: enable it in the Developer Portal.
        intents.message_content = True
        shards = {}
        if isinstance(self, commands.AutoShardedBot):
            shards = {"shard_count": settings.shard_count, "shard_ids": list(settings.shard_ids) if settings.shard_ids is not None else None}
        storage = open_storage(settings.data_dir, settings.database_url, max_open=settings.max_open_databases)
        #: Every request with the bot's token (all shards' and, on PostgreSQL, all
        #: processes') at most at Discord's global budget, clicks' before boards.
        self.pacer = pacing.Pacer(pacing.budget_for(settings.requests_per_second, settings.token, storage))
        super().__init__(  # type: ignore[call-arg]
            command_prefix=commands.when_mentioned,  # slash commands only; no prefix commands
            intents=intents,
            allowed_mentions=mentions.NONE,  # a message that pings says whom (bot/discord_front/mentions.py)
            help_command=None,
            # No message cache: nothing here reads it, and with one every board edit's echo
            # (MESSAGE_UPDATE) searched the last 1,000 messages, copied the one found and
            # parsed the edit into it a second time; the cached messages' trees also kept the
            # collector's full passes long (bench/README.md, eighth round).
            max_messages=None,
            http_trace=self.pacer.trace_config,  # aiohttp awaits it before every request (bot/discord_front/pacing.py)
            **shards,
        )
        self.settings = settings
        self.extension_names = extensions
        self.games = GameRegistry()
        self.storage = storage
        #: Card pictures drawn in a worker process or a thread (PICTURE_PROCESS, bot/pictures/picture_pool.py).
        #: Before the TableManager, which draws with it.
        self.pictures = PictureDrawer(settings.picture_process)
        #: Run with every interaction (see :meth:`run_interaction_hooks`). Before the
        #: TableManager, which adds one.
        self.interaction_hooks: list[Callable[[discord.Interaction], None]] = []
        self.add_listener(self.run_interaction_hooks, "on_interaction")
        #: Replays of finished games (bot/discord_front/replay_view.py).
        self.replays = replay_view.Replays(self)
        self.tables = TableManager(self, self.storage, self.games, bus=bus_for(settings.database_url, str(settings.data_dir.resolve())))
        self.restore_task: asyncio.Task[None] | None = None
        self.warm_task: asyncio.Task[None] | None = None
        #: Set once setup_hook runs: a failure after it is not retried as "Discord unreachable".
        self.setup_started = False
        #: Whether this start's command sync succeeded (False: Discord's existing commands serve).
        self.commands_synced = False

    async def setup_hook(self) -> None:
        self.setup_started = True
        self.pacer.start_reports(self.settings.request_log_seconds)
        languages.reset()
        self.settings.data_dir.mkdir(parents=True, exist_ok=True)
        if not self.settings.database_url:
            claim_data_dir(self.settings.data_dir)
        await self.tables.listen()
        guard.answer_component_failures(DYNAMIC_ITEMS + replay_view.REPLAY_ITEMS)
        self.add_dynamic_items(*DYNAMIC_ITEMS, *replay_view.REPLAY_ITEMS)
        self.interaction_hooks.append(start_amount_form)  # the amount form (see bot/discord_front/views.py)
        self.interaction_hooks.append(replay_view.start_jump_form)  # a replay's Go to move… form
        # Descriptions and choices in each user's client language (bot/discord_front/translator.py).
        await self.tree.set_translator(CatalogTranslator())
        for name in self.extension_names:
            try:
                await self.load_extension(name)
            except Exception:
                log.exception("Failed to load extension %s", name)
        # Connect first: unfinished tables come back in the background (only servers
        # the storage index lists are read); a lookup meanwhile waits for them.
        self.restore_task = asyncio.create_task(self._restore_tables(), name="deckhand-restore")
        # Card faces and fonts drawn once, in the picture worker or a thread: the first
        # picture is then as quick as the rest (bench/card_images.py: cold vs warm).
        if self.pictures.in_process:
            self.pictures.start()
        else:
            self.warm_task = asyncio.create_task(self._warm_card_pictures(), name="deckhand-warm-up")
        await self.sync_commands()

    async def run_interaction_hooks(self, interaction: discord.Interaction) -> None:
        """``on_interaction``: every hook in :attr:`interaction_hooks`, in one task (discord.py
        starts one for each listener, and a hook is work of microseconds). A hook that fails
        is logged; the interaction goes on."""
        for hook in self.interaction_hooks:
            try:
                hook(interaction)
            except Exception:
                log.exception("Interaction hook %r failed", hook)

    async def _warm_card_pictures(self) -> None:
        for deck in picture_pool.DECKS:  # a deck per trip: a stop meanwhile waits for one deck at most
            await asyncio.to_thread(picture_pool.warm_decks, (deck,))

    async def _restore_tables(self) -> None:
        try:
            restored = await self.tables.restore_all()
        except StorageError as error:  # the database cannot be reached or read: one line, said by the storage too
            log_failure(log, error, "Unfinished tables were not restored (%s): restart the bot once its database answers to bring them back.",
                        type(error).__name__, level=logging.ERROR)
            return
        except Exception:
            log.exception("Restoring unfinished tables failed")
            return
        log.info("Restored %d unfinished table(s)", restored)

    async def on_guild_update(self, before: discord.Guild, after: discord.Guild) -> None:
        if before.preferred_locale != after.preferred_locale:
            languages.forget_server(after.id)  # "auto" follows the new locale from the next message

    async def sync_commands(self) -> None:
        """Register the slash commands with Discord. A refusal (a 400 naming a field) or
        an outage is logged with Discord's answer and the bot starts anyway: Discord keeps
        the commands of the last sync that succeeded, and those go on working."""
        guild_id = self.settings.dev_guild_id
        where = f"the development server {guild_id}" if guild_id else "every server (global commands)"
        try:
            if guild_id:
                guild = discord.Object(id=guild_id)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
            else:
                synced = await self.tree.sync()
        except discord.HTTPException as error:
            body = " ".join(str(error.text or "").split())
            reason = getattr(error.response, "reason", "") or ""
            log.error(
                "Discord refused the slash commands for %s (HTTP %s %s, error code %s: %s). Starting anyway with the commands "
                "Discord already has from the last sync that worked: commands added or changed since are missing until a sync "
                "succeeds (see docs/owners/troubleshooting.md).", where, error.status, reason, error.code, body,
            )
            return
        except (OSError, aiohttp.ClientError, asyncio.TimeoutError) as error:
            log.error(
                "Could not send the slash commands to Discord for %s (%s: %s). Starting anyway with the commands Discord "
                "already has; they are sent again at the next start.", where, type(error).__name__, error,
            )
            return
        self.commands_synced = True
        if guild_id:
            log.info("Synced %d commands to the development server %s", len(synced), guild_id)
        else:
            log.info("Synced %d global commands (Discord may take a while to show new ones)", len(synced))

    async def close(self) -> None:
        if self.warm_task is not None and not self.warm_task.done():
            self.warm_task.cancel()  # the worker thread finishes its face on its own
        try:
            await self.tables.close()
            await super().close()
            await self.pacer.close()
        finally:
            # Always: an open SQLite connection's thread keeps the process from exiting.
            self.pictures.close()
            await self.storage.close()


class DeckhandBot(_Deckhand, commands.Bot):
    pass


class ShardedDeckhandBot(_Deckhand, commands.AutoShardedBot):
    """SHARD_COUNT is set: this process runs SHARD_IDS (or every shard) of it."""


def create_bot(settings: Settings) -> DeckhandBot | ShardedDeckhandBot:
    if settings.shard_count is not None:
        return ShardedDeckhandBot(settings)
    return DeckhandBot(settings)
