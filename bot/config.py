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
        return cls(
            token=token,
            data_dir=Path(env.get("DATA_DIR", "").strip() or "./data"),
            log_level=level,
            dev_guild_id=int(guild_text) if guild_text else None,
            database_url=database_url,
            max_open_databases=int(max_open_text),
        )
