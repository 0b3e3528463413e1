"""``python -m bot`` (or the ``deckhand`` console script): run Deckhand."""

from __future__ import annotations

import asyncio
import logging
import sys

import discord

from bot.app import create_bot
from bot.config import TOKEN_HELP, ConfigError, Settings

log = logging.getLogger("deckhand")


async def _run(settings: Settings) -> None:
    bot = create_bot(settings)
    async with bot:
        await bot.start(settings.token)


def main() -> int:
    try:
        settings = Settings.from_env()
    except ConfigError as error:
        print(f"Deckhand cannot start: {error}", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=settings.log_level, root=True)
    try:
        asyncio.run(_run(settings))
    except discord.LoginFailure:
        print(f"Deckhand cannot start: Discord rejected DISCORD_TOKEN. {TOKEN_HELP}", file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print(
            "Deckhand cannot start: enable the Message Content Intent for your bot in the Developer Portal "
            "(your application → Bot → Privileged Gateway Intents), then start it again.",
            file=sys.stderr,
        )
        return 2
    except KeyboardInterrupt:
        log.info("Stopped.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
