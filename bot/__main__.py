"""``python -m bot`` (or the ``deckhand`` console script): run Deckhand.

``python -m bot quarantine <guild_id>`` sets aside a server's database file that
cannot be read (see docs/owners/troubleshooting.md); the server then starts afresh.

``python -m bot purge <guild_id>`` deletes everything kept for a server at once (its
SQLite file, or its rows in PostgreSQL), without waiting for the grace period after the
bot leaves it.

``python -m bot migrate <guild_id>... | --all`` (or ``deckhand migrate``) copies
servers' SQLite files under DATA_DIR into the PostgreSQL database of DATABASE_URL
(idempotent; never overwrites a server that has other data there).

``deckhand play <game>`` (or ``python -m bot play``) plays a game in the terminal
against computer players (``bot/terminal/``), and ``deckhand replay <game>`` shows a
finished one again: they need no Discord, so this module imports discord.py only once
it is running the bot (``--help``, ``play`` and ``replay`` never do themselves).

Exit codes (docs/owners/configuration.md): 0 stopped, 1 an unexpected error (with its traceback),
2 something the owner must fix first, said in one sentence on stderr. The database and
the data directory are checked before connecting to Discord; Discord unreachable at
start is retried, not an exit.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import socket
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.config import EXIT_CONFIG, TOKEN_HELP, ConfigError, Settings, server_id

if TYPE_CHECKING:
    import discord

log = logging.getLogger("deckhand")

USAGE = """\
Usage: deckhand [command]      (or: python -m bot [command])

  (no command)                  run the bot: reads DISCORD_TOKEN and the other settings
                                from the environment or from .env in this folder
  quarantine <server id>        set aside a server's database file that cannot be read
  purge <server id>             delete everything Deckhand kept for a server, at once
  migrate <server id>... | --all
                                copy servers' SQLite files under DATA_DIR into DATABASE_URL
  play <game> [options]         play a game in this terminal against computer players,
                                no Discord needed (deckhand play --help for the options)
  replay <game> [options]       watch a finished terminal game again, step by step
                                (deckhand replay --help for the options)
  --help                        show this and exit (connects nowhere)
"""


INTENT_HELP = (
    "enable the Message Content Intent for your bot in the Developer Portal "
    "(your application → Bot → Privileged Gateway Intents), then start it again."
)

#: Discord unreachable at start: the first retry after this many seconds, doubling up to the cap.
RETRY_FIRST_SECONDS = 2.0
RETRY_MAX_SECONDS = 60.0


async def preflight(settings: Settings) -> None:
    """What needs no Discord is checked before connecting to it: the data directory,
    and the database of DATABASE_URL (one connection and ``SELECT 1``). A problem is
    a ConfigError with one sentence, so nothing logs in to Discord with a bad setting."""
    try:
        settings.data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ConfigError(
            f"DATA_DIR {settings.data_dir} cannot be created ({error.strerror or error}): "
            "point DATA_DIR at a directory the bot's user may write."
        ) from None
    if settings.database_url:
        from storage.pg import check_database

        problem = await check_database(settings.database_url)
        if problem is not None:
            raise ConfigError(problem)
    else:
        from bot.discord_front.app import claim_data_dir

        claim_data_dir(settings.data_dir)


def unreachable_sentence(error: BaseException) -> str | None:
    """The sentence for a failure to reach Discord that is worth retrying, else None."""
    import aiohttp
    import discord

    if isinstance(error, discord.DiscordServerError):
        return f"Discord answered {error.status} ({error.text or 'a server error'}): it may be having an outage (https://discordstatus.com)."
    if isinstance(error, aiohttp.ClientConnectorDNSError) or isinstance(error, socket.gaierror):
        host = getattr(error, "host", "discord.com")
        return f"Cannot reach Discord: {host} could not be looked up; check this machine's network connection and DNS."
    if isinstance(error, aiohttp.ClientConnectorError):
        return f"Cannot reach Discord at {error.host}:{error.port} ({error.os_error.strerror or error.os_error}); check this machine's network connection."
    if isinstance(error, (TimeoutError, asyncio.TimeoutError)):
        return "Cannot reach Discord: it did not answer in time; check this machine's network connection."
    if isinstance(error, (OSError, aiohttp.ClientError, discord.GatewayNotFound)):
        return f"Cannot reach Discord ({type(error).__name__}: {error}); check this machine's network connection."
    return None


def failure_sentence(error: BaseException) -> str | None:
    """The one sentence (exit code 2) for a start that cannot succeed until the owner
    changes something, else None (an unexpected crash, which keeps its traceback)."""
    import discord

    if isinstance(error, ConfigError):
        return str(error)
    if isinstance(error, discord.LoginFailure) or (isinstance(error, discord.HTTPException) and error.status == 401):
        return f"Discord rejected DISCORD_TOKEN. {TOKEN_HELP}"
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return INTENT_HELP[0].upper() + INTENT_HELP[1:]
    if isinstance(error, discord.ConnectionClosed):
        if error.code == 4004:  # the gateway's "authentication failed"
            return f"Discord rejected DISCORD_TOKEN. {TOKEN_HELP}"
        if error.code == 4014:
            return INTENT_HELP[0].upper() + INTENT_HELP[1:]
        if error.code == 4011:
            return "Discord requires this bot to use shards (it is in too many servers for one connection): set SHARD_COUNT (see docs/owners/postgresql.md)."
        if error.code == 4010:
            return "Discord refused the shard settings: check that SHARD_IDS lists numbers below SHARD_COUNT, and that SHARD_COUNT is the same in every process."
    return None


async def start_bot(bot: discord.Client, token: str, *, sleep: Callable[[float], Awaitable[object]] = asyncio.sleep) -> None:
    """``bot.start(token)``, with the login retried while Discord cannot be reached
    (no network, DNS, Discord's 5xx): one log line per retry, waits doubling from
    RETRY_FIRST_SECONDS to RETRY_MAX_SECONDS. A refused token or intent is raised at
    once (``failure_sentence``). After the login, discord.py's own reconnect loop
    keeps the gateway connection."""
    delay = RETRY_FIRST_SECONDS
    attempt = 1
    while True:
        try:
            await bot.login(token)
            break
        except Exception as error:
            sentence = unreachable_sentence(error)
            if sentence is None or getattr(bot, "setup_started", False):
                raise  # not a network failure, or one inside setup_hook: not retried
            log.warning("%s Trying again in %g s (attempt %d failed).", sentence, delay, attempt)
            log.debug("Reaching Discord failed", exc_info=error)
            await _reset_http(bot)
            await sleep(delay)
            delay = min(RETRY_MAX_SECONDS, delay * 2)
            attempt += 1
    await bot.connect(reconnect=True)


async def _reset_http(bot: discord.Client) -> None:
    """Close the failed login's HTTP session; the next login opens a new one
    (discord.py makes a connector only when it has none, and closing the session closed it)."""
    import discord

    try:
        await bot.http.close()
    finally:
        bot.http.connector = discord.utils.MISSING


#: The collector's thresholds (allocations for a young pass; young passes per middle
#: pass; middle passes per full pass). A full pass walks every object the process holds
#: (hundreds of tables' states) and stopped the event loop for hundreds of ms at a time;
#: Python's default of 10 middle passes per full pass ran one every few seconds under
#: load. bench/load.py measures this (bench/README.md).
GC_THRESHOLDS = (700, 10, 100)


def tune_gc() -> None:
    """The collector set for a long-running bot (``GC_THRESHOLDS``)."""
    gc.set_threshold(*GC_THRESHOLDS)


def freeze_heap() -> None:
    """Collect once, then set every object alive now (modules, the restored tables) aside
    for good (``gc.freeze``): the collector's passes then walk only what was made since.
    A frozen object is still freed by reference counting when it is dropped; only a
    cycle among frozen objects stays."""
    gc.collect()
    gc.freeze()


async def freeze_after_restore(bot: discord.Client) -> None:
    """:func:`freeze_heap` once the unfinished tables are back (they are most of what a
    start creates, and they live long)."""
    await bot.wait_until_ready()
    restore = getattr(bot, "restore_task", None)
    if restore is not None:
        await asyncio.wait([restore])  # it logs its own failure; the heap is frozen either way
    freeze_heap()


async def _run(settings: Settings) -> None:
    from bot.discord_front.app import create_bot

    await preflight(settings)
    bot = create_bot(settings)
    async with bot:
        freezer = asyncio.create_task(freeze_after_restore(bot), name="deckhand-gc-freeze")
        try:
            await start_bot(bot, settings.token)
        finally:
            freezer.cancel()


def quarantine_command(args: list[str]) -> int:
    import os
    from pathlib import Path

    from dotenv import load_dotenv

    from storage.maintenance import MaintenanceError, quarantine

    guild_id = server_id(args[0]) if len(args) == 1 else None
    if guild_id is None:
        print("Usage: python -m bot quarantine <server id>   (the id in the digits 0-9)", file=sys.stderr)
        return EXIT_CONFIG
    load_dotenv(Path.cwd() / ".env", override=False)
    data_dir = Path(os.environ.get("DATA_DIR", "").strip() or "./data")
    try:
        moved = quarantine(data_dir, guild_id)
    except (MaintenanceError, OSError) as error:
        print(f"Nothing was moved: {error}", file=sys.stderr)
        return 1
    print(f"Moved server {guild_id}'s database to {moved}. Restart Deckhand; that server starts with empty data.")
    return 0


PURGE_USAGE = "Usage: python -m bot purge <server id>   (deletes everything Deckhand kept for that server, at once)"


def purge_command(args: list[str]) -> int:
    """Delete one server's data now (the owner's shortcut past the grace period after the
    bot leaves it): its SQLite file under DATA_DIR, or its rows in DATABASE_URL's database."""
    import os
    from pathlib import Path

    from dotenv import load_dotenv

    from storage import is_postgres_url, open_storage
    from storage.db import StorageError
    from storage.purge import purge_guild

    guild_id = server_id(args[0]) if len(args) == 1 else None
    if guild_id is None:
        print(PURGE_USAGE, file=sys.stderr)
        return EXIT_CONFIG
    load_dotenv(Path.cwd() / ".env", override=False)
    data_dir = Path(os.environ.get("DATA_DIR", "").strip() or "./data")
    url = os.environ.get("DATABASE_URL", "").strip() or None
    if url is not None and not is_postgres_url(url):
        print("Nothing was deleted: DATABASE_URL must start with postgresql:// (or be left unset for SQLite files).", file=sys.stderr)
        return EXIT_CONFIG
    if url is None:
        from bot.discord_front.app import claim_data_dir

        try:
            data_dir.mkdir(parents=True, exist_ok=True)
            claim_data_dir(data_dir)  # a running bot holds the files open: it must stop first
        except ConfigError:
            print(f"Nothing was deleted: Deckhand is running on {data_dir}. Stop it first, then run this again.", file=sys.stderr)
            return EXIT_CONFIG
        except OSError as error:
            print(f"Nothing was deleted: {data_dir} cannot be used ({error.strerror or error}).", file=sys.stderr)
            return 1

    async def run() -> str:
        storage = open_storage(data_dir, url)
        try:
            return await purge_guild(storage, guild_id)
        finally:
            await storage.close()

    try:
        print(asyncio.run(run()))
    except StorageError as error:
        print(f"Nothing was deleted: {error.sentence} ({error})", file=sys.stderr)
        return 1
    return 0


MIGRATE_USAGE = "Usage: deckhand migrate <server id> [<server id>...] | --all   (copies DATA_DIR's SQLite files into DATABASE_URL)"


def migrate_command(args: list[str]) -> int:
    import os
    from pathlib import Path

    from dotenv import load_dotenv

    from storage import is_postgres_url
    from storage.db import StorageError
    from storage.transfer import copy_guilds

    every = args == ["--all"]
    guild_ids = [server_id(a) for a in args]
    if not args or (not every and None in guild_ids):
        print(MIGRATE_USAGE, file=sys.stderr)
        return EXIT_CONFIG
    load_dotenv(Path.cwd() / ".env", override=False)
    data_dir = Path(os.environ.get("DATA_DIR", "").strip() or "./data")
    url = os.environ.get("DATABASE_URL", "").strip()
    if not is_postgres_url(url):
        print("Nothing was copied: set DATABASE_URL to the PostgreSQL database to copy into (postgresql://...).", file=sys.stderr)
        return EXIT_CONFIG
    if every and not (data_dir / "guilds").is_dir():
        print(f"Nothing was copied: there are no server databases under {data_dir / 'guilds'}.", file=sys.stderr)
        return 1
    try:
        done, refused = asyncio.run(copy_guilds(data_dir, url, None if every else guild_ids))
    except StorageError as error:
        print(f"Nothing was copied: {error.sentence} ({error})", file=sys.stderr)
        return 1
    for outcome in done:
        print(outcome.describe())
    for sentence in refused:
        print(sentence, file=sys.stderr)
    copied = sum(o.copied for o in done)
    print(f"{copied} server(s) copied, {len(done) - copied} already there, {len(refused)} not copied.")
    return 1 if refused else 0


def main() -> int:
    if sys.argv[1:2] in (["--help"], ["-h"], ["help"]):
        print(USAGE, end="")
        return 0
    if sys.argv[1:2] == ["play"]:
        from bot.terminal.cli import main as play

        return play(sys.argv[2:])
    if sys.argv[1:2] == ["replay"]:
        from bot.terminal.replay import main as replay

        return replay(sys.argv[2:])
    if sys.argv[1:2] == ["quarantine"]:
        return quarantine_command(sys.argv[2:])
    if sys.argv[1:2] == ["migrate"]:
        return migrate_command(sys.argv[2:])
    if sys.argv[1:2] == ["purge"]:
        return purge_command(sys.argv[2:])
    try:
        settings = Settings.from_env()
    except ConfigError as error:
        print(f"Deckhand cannot start: {error}", file=sys.stderr)
        return EXIT_CONFIG
    import discord

    discord.utils.setup_logging(level=settings.log_level, root=True)
    quiet_reconnects()
    tune_gc()
    try:
        asyncio.run(_run(settings))
    except KeyboardInterrupt:
        log.info("Stopped.")
    except Exception as error:
        sentence = failure_sentence(error)
        if sentence is None:
            raise  # unexpected: the traceback is the report (exit code 1)
        print(f"Deckhand cannot start: {sentence}", file=sys.stderr)
        return EXIT_CONFIG
    return 0


class _OneLineReconnects(logging.Filter):
    """discord.py logs each gateway reconnect with a full traceback of the network
    error. Unless the log is at DEBUG (which keeps it whole), the record becomes one
    line naming the cause."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and record.getMessage().startswith("Attempting a reconnect") and not logging.getLogger().isEnabledFor(logging.DEBUG):
            error = record.exc_info[1]
            record.msg = f"{record.getMessage()} ({type(error).__name__}: {error})"
            record.args = ()
            record.exc_info = None
            record.exc_text = None
        return True


def quiet_reconnects() -> None:
    for name in ("discord.client", "discord.shard"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _OneLineReconnects) for f in logger.filters):
            logger.addFilter(_OneLineReconnects())


if __name__ == "__main__":
    sys.exit(main())
