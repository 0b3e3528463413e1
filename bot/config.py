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


#: The exit codes of ``python -m bot`` (docs/owners/configuration.md): 0 stopped, 1 an unexpected
#: crash (Python's own), 2 a setting to fix (restarting will not help; the systemd unit
#: does not restart on it).
EXIT_OK, EXIT_CRASH, EXIT_CONFIG = 0, 1, 2

#: The largest id SQLite and PostgreSQL's BIGINT hold (Discord's ids are well below it).
MAX_ID = (1 << 63) - 1


def whole_number(text: str) -> int | None:
    """The number ``text`` spells in the ASCII digits 0-9, else None. Every number in the
    configuration and the maintenance commands is read here: ``str.isdigit`` also says
    yes to '²' (which ``int`` then refuses) and ``int`` also reads '٣' as 3."""
    text = text.strip()
    if not text or not text.isascii() or not text.isdigit():
        return None
    return int(text)


def server_id(text: str) -> int | None:
    """A Discord server (guild) id written in ASCII digits, else None."""
    number = whole_number(text)
    return number if number is not None and 0 < number <= MAX_ID else None


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
    #: Where card pictures are drawn (bot/pictures/picture_pool.py): "off" (a thread, the default),
    #: "on" (a worker process), "auto" (a worker process when two cores or more are usable).
    picture_process: str = "off"
    #: Requests a second Discord allows the bot's token (its global rate limit: 50 unless
    #: Discord raised it for the bot); every process on the token shares it.
    requests_per_second: float = 50
    #: How often the log says what was sent to Discord, waited and merged (0: never).
    request_log_seconds: int = 300
    #: Fair shares of that budget (bot/discord_front/shares.py): what one member, and one
    #: server, may ask that costs bot-token requests (lobby messages and edits, a game's
    #: start, a hand refreshed in DMs), in requests a minute; 0: no share.
    member_requests_per_minute: int = 20
    server_requests_per_minute: int = 120
    #: One member's share of views (a hand drawn: Show hand, Refresh, a page; /profile), a minute; 0: no share.
    views_per_minute: int = 60

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
        dev_guild_id = server_id(guild_text) if guild_text else None
        if guild_text and dev_guild_id is None:
            raise ConfigError(
                f"DEV_GUILD_ID '{guild_text[:30]}' is not a server id (a long number in the digits 0-9; leave it empty for global commands)."
            )
        database_url = env.get("DATABASE_URL", "").strip() or None
        if database_url:
            check_database_url(database_url)
        max_open_text = env.get("MAX_OPEN_DATABASES", "256").strip() or "256"
        max_open = whole_number(max_open_text)
        if max_open is None or max_open < 1:
            raise ConfigError(f"MAX_OPEN_DATABASES '{max_open_text[:20]}' must be a whole number of at least 1, in the digits 0-9.")
        picture_process = env.get("PICTURE_PROCESS", "off").strip().lower() or "off"
        if picture_process not in ("auto", "on", "off"):
            raise ConfigError(f"PICTURE_PROCESS '{picture_process[:20]}' must be auto, on or off.")
        rate_text = env.get("DISCORD_REQUESTS_PER_SECOND", "50").strip() or "50"
        requests_per_second = whole_number(rate_text)
        if requests_per_second is None or requests_per_second < 1:
            raise ConfigError(
                f"DISCORD_REQUESTS_PER_SECOND '{rate_text[:20]}' must be a whole number of at least 1, in the digits 0-9 "
                "(Discord's global rate limit for this bot: 50 unless Discord raised it)."
            )
        log_text = env.get("REQUEST_LOG_SECONDS", "300").strip() or "300"
        request_log_seconds = whole_number(log_text)
        if request_log_seconds is None:
            raise ConfigError(f"REQUEST_LOG_SECONDS '{log_text[:20]}' must be a whole number of seconds, in the digits 0-9 (0: no report).")
        member_share = _share(env, "MEMBER_REQUESTS_PER_MINUTE", 20, "one member")
        server_share = _share(env, "SERVER_REQUESTS_PER_MINUTE", 120, "one server")
        views = _share(env, "VIEWS_PER_MINUTE", 60, "one member", what="views")
        shard_count, shard_ids = _shards(env)
        if shard_count is not None and not database_url:
            if shard_ids is not None and len(shard_ids) < shard_count:
                raise ConfigError(
                    f"SHARD_IDS {','.join(map(str, shard_ids))} runs only some of the {shard_count} shards, so other "
                    "processes run the rest, and processes cannot share the SQLite files in DATA_DIR: "
                    "set DATABASE_URL to a PostgreSQL database for all of them (see docs/owners/postgresql.md)."
                )
        return cls(
            token=token,
            data_dir=Path(env.get("DATA_DIR", "").strip() or "./data"),
            log_level=level,
            dev_guild_id=dev_guild_id,
            database_url=database_url,
            max_open_databases=max_open,
            shard_count=shard_count,
            shard_ids=shard_ids,
            picture_process=picture_process,
            requests_per_second=requests_per_second,
            request_log_seconds=request_log_seconds,
            member_requests_per_minute=member_share,
            server_requests_per_minute=server_share,
            views_per_minute=views,
        )


def _share(env: dict[str, str], name: str, default: int, whose: str, *, what: str = "requests") -> int:
    text = env.get(name, str(default)).strip() or str(default)
    value = whole_number(text)
    if value is None:
        raise ConfigError(f"{name} '{text[:20]}' must be a whole number of {what} a minute {whose} may cost the bot, "
                          "in the digits 0-9 (0: no limit).")
    return value


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
    count = whole_number(count_text)
    if count is None or count < 1:
        raise ConfigError(
            f"SHARD_COUNT '{count_text[:20]}' must be a whole number of at least 1, in the digits 0-9 (the total number of shards of all processes)."
        )
    if not ids_text:
        return count, None
    ids: list[int] = []
    for part in ids_text.split(","):
        shard = whole_number(part)
        if shard is None or shard >= count:
            raise ConfigError(
                f"SHARD_IDS '{ids_text[:60]}' must list shard numbers from 0 to {count - 1} separated by commas, e.g. SHARD_IDS=0,1 (digits 0-9 only)."
            )
        if shard in ids:
            raise ConfigError(f"SHARD_IDS lists shard {shard} twice.")
        ids.append(shard)
    return count, tuple(sorted(ids))


_URL_EXAMPLE = "postgresql://deckhand:secret@db:5432/deckhand"


def check_database_url(url: str) -> None:
    """Refuse a DATABASE_URL whose shape is wrong, naming the part: the scheme, a host's
    port, an unclosed [IPv6] bracket. Whether the server answers is checked at start
    (``storage.pg.check_database``), before the bot connects to Discord."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme not in ("postgresql", "postgres"):
        raise ConfigError(
            f"DATABASE_URL must start with postgresql:// (for example {_URL_EXAMPLE}), "
            "or be left unset to keep one SQLite file per server under DATA_DIR."
        )
    netloc = rest.split("/", 1)[0].split("?", 1)[0]
    hosts = netloc.rpartition("@")[2]
    for host in hosts.split(",") if hosts else ():
        if host.startswith("["):
            address, bracket, tail = host[1:].partition("]")
            name = f"[{address}]"
            if not bracket or not address:
                raise ConfigError(f"DATABASE_URL's host '{host[:60]}' opens a [ without closing it: write an IPv6 address as [::1]:5432.")
            port_text = tail[1:] if tail.startswith(":") else None
            if tail and port_text is None:
                raise ConfigError(f"DATABASE_URL's host '{host[:60]}' has text after its ]: write an IPv6 address as [::1]:5432.")
        else:
            name, colon, port_text = host.partition(":")
            port_text = port_text if colon else None
            if not name and colon:
                raise ConfigError(f"DATABASE_URL has a port but no host before it: write the host as in {_URL_EXAMPLE}.")
        if port_text is not None:
            port = whole_number(port_text)
            if port is None or not 0 < port < 65536:
                raise ConfigError(
                    f"DATABASE_URL's port '{port_text[:20]}' (after the host '{name[:40]}') is not a port number: "
                    f"use digits 0-9 from 1 to 65535, usually 5432, as in {_URL_EXAMPLE}."
                )


#: Open lock files, one per data directory, held for the process's life (POSIX
#: record locks belong to the process: closing any handle of the file drops them).
_DATA_DIR_LOCKS: dict[Path, int] = {}


def claim_data_dir(data_dir: Path) -> None:
    """Refuse a second process on one DATA_DIR of SQLite files: their table locks,
    timers and restore live in one process's memory. Bots in one process share it."""
    path = (data_dir / "deckhand.lock").resolve()
    if path in _DATA_DIR_LOCKS:
        return
    try:
        import fcntl
    except ImportError:  # not POSIX: nothing to check with
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise ConfigError(
            f"Another Deckhand process is already running on the data directory {data_dir}. Several processes cannot "
            "share SQLite files: set DATABASE_URL to a PostgreSQL database for all of them (see docs/owners/postgresql.md)."
        ) from None
    _DATA_DIR_LOCKS[path] = fd
