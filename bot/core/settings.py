"""Per-server settings a table reads from its server's database: the turn timer,
house rules, hands in DMs, the board layout, card pictures, threads."""

from __future__ import annotations

from typing import Any

from bot.core.games import GameSpec
from storage import StorageBackend
from storage import repos, settings_cache
from storage.db import GuildDataMissing

DEFAULT_TURN_SECONDS = 120
MIN_TURN_SECONDS, MAX_TURN_SECONDS = 15, 3600


class GuildSettings:
    """The server's settings, read from its database (``storage``)."""

    def __init__(self, storage: StorageBackend) -> None:
        self.storage = storage

    async def guild_turn_seconds(self, guild_id: int) -> int:
        async with self.storage.reading(guild_id) as db:
            value = await repos.get_guild_setting(db, "turn_timer", DEFAULT_TURN_SECONDS)
        return int(value) if isinstance(value, int) else DEFAULT_TURN_SECONDS

    async def house_rules(self, guild_id: int, spec: GameSpec) -> dict[str, str]:
        async with self.storage.reading(guild_id) as db:
            stored = await repos.guild_settings_with_prefix(db, f"house:{spec.key}:")
        chosen = {}
        for rule in spec.house_rules:
            value = stored.get(f"house:{spec.key}:{rule.key}", rule.default)
            chosen[rule.key] = value if value in rule.choices else rule.default
        return chosen

    async def user_setting(self, guild_id: int, user_id: int, key: str, default: Any = None) -> Any:
        """A player's own setting (``/settings hands``, ``pictures-mine``): from memory
        when the storage keeps it (asked per move and per hand: no trip to the database
        then), else read."""
        known = self.storage.known_user_setting(guild_id, user_id, key)
        if known is settings_cache.UNKNOWN:
            async with self.storage.reading(guild_id) as db:
                return await repos.get_user_setting(db, user_id, key, default)
        return default if known is settings_cache.UNSET else known

    async def hands_in_dm(self, guild_id: int, user_id: int) -> bool:
        return await self.user_setting(guild_id, user_id, "hands", "here") == "dm"

    async def pictures_mine(self, guild_id: int, user_id: int) -> bool:
        """The player's own choice: card pictures in their hand (the default), or text only."""
        return await self.user_setting(guild_id, user_id, "pictures", "on") != "off"

    async def board_layout(self, guild_id: int) -> str:
        """Per server: the board in Components V2 ("v2", the default) or as an embed ("classic")."""
        async with self.storage.reading(guild_id) as db:
            return "classic" if await repos.get_guild_setting(db, "layout", "v2") == "classic" else "v2"

    async def pictures_on(self, guild_id: int) -> bool:
        """Per server: card pictures on the board (the default), or text only."""
        async with self.storage.reading(guild_id) as db:
            return await repos.get_guild_setting(db, "pictures", "on") != "off"

    async def threads_on(self, guild_id: int) -> bool:
        """Per server: each game in its own thread (the default), or in the channel."""
        async with self.storage.reading(guild_id) as db:
            return await repos.get_guild_setting(db, "threads", "on") != "off"

    async def language(self, guild_id: int) -> str:
        """Per server: the language everyone at its tables reads ("auto", the default,
        means the server's preferred locale; the front end resolves it). Read at every
        interaction's start: a server with no database yet gets none made for it."""
        try:
            async with self.storage.reading(guild_id, create=False) as db:
                value = await repos.get_guild_setting(db, "language", "auto")
        except GuildDataMissing:
            return "auto"
        return value if isinstance(value, str) else "auto"
