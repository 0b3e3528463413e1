"""Settings from the environment or a ``.env`` file in the working directory."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import load_dotenv

TOKEN_HELP = (
    "Create a bot at https://discord.com/developers/applications (your application → Bot → Reset Token), "
    "then put DISCORD_TOKEN=<the token> in the environment or in a .env file next to where you run Deckhand."
)


class ConfigError(Exception):
    """A setting that stops the bot from starting; the message is one clear sentence."""


@dataclass(frozen=True)
class Settings:
    token: str
    data_dir: Path
    log_level: int
    dev_guild_id: int | None = None
    #: Unset: one SQLite file per server under data_dir. postgresql://...: one PostgreSQL database.
    database_url: str | None = None
    max_open_databases: int = 256
    #: Shards (issue 13): None runs one unsharded bot; else the total count, and the
    #: shards this process runs (all of them when SHARD_IDS is empty).
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None

    @property
    def runs_every_shard(self) -> bool:
        return self.shard_ids is None or self.shard_count is None or len(self.shard_ids) == self.shard_count

    def owns(self, guild_id: int | None) -> bool:
        """Whether this process holds ``guild_id``'s shard (None: a DM, which arrives at shard 0)."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, *, load_dotenv_file: bool = True) -> Settings:
        if env is None:
            if load_dotenv_file:
                load_dotenv(Path.cwd() / ".env", override=False)
            env = dict(os.environ)
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(f"DISCORD_TOKEN is not set. {TOKEN_HELP}")
        level_name = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        level = logging.getLevelName(level_name)
        if not isinstance(level, int):
            raise ConfigError(f"LOG_LEVEL '{level_name}' is not a level: use DEBUG, INFO, WARNING or ERROR.")
        guild_text = env.get("DEV_GUILD_ID", "").strip()
        if guild_text and not guild_text.isdigit():
            raise ConfigError(f"DEV_GUILD_ID '{guild_text}' is not a server id (a long number; leave it empty for global commands).")
        database_url = env.get("DATABASE_URL", "").strip() or None
        if database_url and database_url.split("://", 1)[0] not in ("postgresql", "postgres"):
            raise ConfigError(
                "DATABASE_URL must start with postgresql:// (for example postgresql://deckhand:secret@db:5432/deckhand), "
                "or be left unset to keep one SQLite file per server under DATA_DIR."
            )
        max_open_text = env.get("MAX_OPEN_DATABASES", "256").strip() or "256"
        if not max_open_text.isdigit() or int(max_open_text) < 1:
            raise ConfigError("MAX_OPEN_DATABASES must be a whole number of at least 1.")
        shard_count, shard_ids = _shards(env)
        if shard_count is not None and not database_url:
            if shard_ids is not None and len(shard_ids) < shard_count:
                raise ConfigError(
                    f"SHARD_IDS {','.join(map(str, shard_ids))} runs only some of the {shard_count} shards, so other "
                    "processes run the rest, and processes cannot share the SQLite files in DATA_DIR: "
                    "set DATABASE_URL to a PostgreSQL database for all of them (see Several processes in the README)."
                )
        return cls(
            token=token,
            data_dir=Path(env.get("DATA_DIR", "").strip() or "./data"),
            log_level=level,
            dev_guild_id=int(guild_text) if guild_text else None,
            database_url=database_url,
            max_open_databases=int(max_open_text),
            shard_count=shard_count,
            shard_ids=shard_ids,
        )


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends a guild's events to; events without a guild (DMs) go to shard 0."""
    if guild_id is None:
        return 0
    return (int(guild_id) >> 22) % shard_count


def _shards(env: dict[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    count_text = env.get("SHARD_COUNT", "").strip()
    ids_text = env.get("SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise ConfigError("SHARD_IDS is set but SHARD_COUNT is not: set SHARD_COUNT to the total number of shards of all processes.")
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ConfigError(f"SHARD_COUNT '{count_text[:20]}' must be a whole number of at least 1 (the total number of shards of all processes).")
    count = int(count_text)
    if not ids_text:
        return count, None
    ids: list[int] = []
    for part in ids_text.split(","):
        part = part.strip()
        if not part.isdigit() or int(part) >= count:
            raise ConfigError(
                f"SHARD_IDS '{ids_text[:60]}' must list shard numbers from 0 to {count - 1} separated by commas, e.g. SHARD_IDS=0,1."
            )
        if int(part) in ids:
            raise ConfigError(f"SHARD_IDS lists shard {part} twice.")
        ids.append(int(part))
    return count, tuple(sorted(ids))
