"""The bot's process: what ``python -m bot`` (``bot/__main__.py``, the command line's
dispatch, which imports no discord) runs when it is asked to run the bot.

:func:`serve` checks what needs no Discord first (:func:`preflight`), then logs in
(:func:`start_bot`: Discord unreachable at start is retried, each attempt with a new
client), connects, and turns what stops the start into the exit code and one sentence
(docs/owners/configuration.md): 0 stopped, 1 an unexpected error (with its traceback),
2 something the owner must fix first, said in one sentence on stderr.

Only discord.py's and aiohttp's public API (issue 38): a login that failed is retried
with a new client, the failed one closed by ``Client.close``, rather than the failed
client's HTTP state reset by hand.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import socket
import sys
from collections.abc import Awaitable, Callable
from functools import partial

import aiohttp
import discord

from bot.config import EXIT_CONFIG, TOKEN_HELP, ConfigError, Settings, claim_data_dir

log = logging.getLogger("deckhand")

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
        claim_data_dir(settings.data_dir)


def unreachable_sentence(error: BaseException) -> str | None:
    """The sentence for a failure to reach Discord that is worth retrying, else None."""
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


async def start_bot(
    make_bot: Callable[[], discord.Client], token: str, *, sleep: Callable[[float], Awaitable[object]] = asyncio.sleep
) -> None:
    """A bot from ``make_bot`` logged in with ``token`` and connected until it stops,
    the login retried while Discord cannot be reached (no network, DNS, Discord's 5xx):
    one log line per retry, waits doubling from RETRY_FIRST_SECONDS to
    RETRY_MAX_SECONDS. A refused token or intent is raised at once
    (:func:`failure_sentence`), and so is a failure once the bot's own set-up began.
    After the login, discord.py's own reconnect loop keeps the gateway connection.

    Each attempt is a new client from ``make_bot``, closed (``async with``: discord.py's
    ``Client.close``) when its login fails: discord.py's HTTP client keeps the
    connector its first login made, and closing the failed login's session closed it,
    so a closed client cannot log in again through the public API."""
    delay = RETRY_FIRST_SECONDS
    attempt = 1
    while True:
        bot = make_bot()
        async with bot:
            try:
                await bot.login(token)
            except Exception as error:
                sentence = unreachable_sentence(error)
                if sentence is None or getattr(bot, "setup_started", False):
                    raise  # not a network failure, or one inside setup_hook: not retried
                log.warning("%s Trying again in %g s (attempt %d failed).", sentence, delay, attempt)
                log.debug("Reaching Discord failed", exc_info=error)
            else:
                freezer = asyncio.create_task(freeze_after_restore(bot), name="deckhand-gc-freeze")
                try:
                    await bot.connect(reconnect=True)
                finally:
                    freezer.cancel()
                return
        await sleep(delay)
        delay = min(RETRY_MAX_SECONDS, delay * 2)
        attempt += 1


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


async def run_bot(settings: Settings) -> None:
    """Check, then run the bot until it stops."""
    from bot.discord_front.app import create_bot

    await preflight(settings)
    await start_bot(partial(create_bot, settings), settings.token)


def serve(settings: Settings) -> int:
    """Run the bot (the process's logging and collector set first); the exit code."""
    discord.utils.setup_logging(level=settings.log_level, root=True)
    quiet_reconnects()
    tune_gc()
    try:
        asyncio.run(run_bot(settings))
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
