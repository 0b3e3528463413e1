"""Build the bot: ``create_bot(settings)`` returns a ready-to-start ``commands.Bot``."""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import pkgutil

import discord
from discord.ext import commands

from bot import guard
from bot.config import Settings
from bot.games import GameRegistry
from bot.tables import TableManager
from bot.views import DYNAMIC_ITEMS, on_modal_submit
from storage import open_storage

log = logging.getLogger(__name__)

def game_extensions() -> tuple[str, ...]:
    """Every ``cogs/<game>/cog.py``: a game is switched on by adding its folder."""
    import cogs

    found = []
    for package in pkgutil.iter_modules(cogs.__path__):
        if package.ispkg and importlib.util.find_spec(f"cogs.{package.name}.cog") is not None:
            found.append(f"cogs.{package.name}.cog")
    return tuple(sorted(found))


#: Extensions loaded in setup_hook: the shared commands, then one cog per game.
EXTENSIONS = ("bot.commands", *game_extensions())


class DeckhandBot(commands.Bot):
    def __init__(self, settings: Settings, *, extensions: tuple[str, ...] = EXTENSIONS) -> None:
        intents = discord.Intents.default()
        # Enid's rituals are typed in chat. Privileged: enable it in the Developer Portal.
        intents.message_content = True
        super().__init__(
            command_prefix=commands.when_mentioned,  # slash commands only; no prefix commands
            intents=intents,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            help_command=None,
        )
        self.settings = settings
        self.extension_names = extensions
        self.games = GameRegistry()
        self.storage = open_storage(settings.data_dir, settings.database_url, max_open=settings.max_open_databases)
        self.tables = TableManager(self, self.storage, self.games)
        self.restore_task: asyncio.Task[None] | None = None
        self.warm_task: asyncio.Task[None] | None = None

    async def setup_hook(self) -> None:
        self.settings.data_dir.mkdir(parents=True, exist_ok=True)
        guard.answer_component_failures(DYNAMIC_ITEMS)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        self.add_listener(on_modal_submit, "on_interaction")  # the amount form (see bot/views.py)
        for name in self.extension_names:
            try:
                await self.load_extension(name)
            except Exception:
                log.exception("Failed to load extension %s", name)
        # Connect first: unfinished tables come back in the background (only servers
        # the storage index lists are read); a lookup meanwhile waits for them.
        self.restore_task = asyncio.create_task(self._restore_tables(), name="deckhand-restore")
        # Card faces and fonts drawn once, in a worker thread: the first picture is then
        # as quick as the rest (bench/card_images.py: cold vs warm).
        self.warm_task = asyncio.create_task(self._warm_card_pictures(), name="deckhand-warm-up")
        await self.sync_commands()

    async def _warm_card_pictures(self) -> None:
        from bot import cardart

        for deck in ("french", "onion"):
            try:
                await asyncio.to_thread(cardart.warm_up, deck)
            except Exception:
                log.exception("Warming up the %s card pictures failed; the first pictures will be slower", deck)

    async def _restore_tables(self) -> None:
        try:
            restored = await self.tables.restore_all()
        except Exception:
            log.exception("Restoring unfinished tables failed")
            return
        log.info("Restored %d unfinished table(s)", restored)

    async def sync_commands(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d commands to the development server %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("Synced %d global commands (Discord may take a while to show new ones)", len(synced))

    async def close(self) -> None:
        if self.warm_task is not None and not self.warm_task.done():
            self.warm_task.cancel()  # the worker thread finishes its face on its own
        await self.tables.close()
        await super().close()
        await self.storage.close()


def create_bot(settings: Settings) -> DeckhandBot:
    return DeckhandBot(settings)
