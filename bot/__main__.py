"""``python -m bot`` (or the ``deckhand`` console script): run Deckhand.

``python -m bot quarantine <guild_id>`` sets aside a server's database file that
cannot be read (see Troubleshooting in the README); the server then starts afresh.

``python -m bot migrate <guild_id>... | --all`` (or ``deckhand migrate``) copies
servers' SQLite files under DATA_DIR into the PostgreSQL database of DATABASE_URL
(idempotent; never overwrites a server that has other data there).
"""

from __future__ import annotations

import asyncio
import logging
import sys

import discord

from bot.app import create_bot
from bot.config import TOKEN_HELP, ConfigError, Settings

log = logging.getLogger("deckhand")

USAGE = """\
Usage: deckhand [command]      (or: python -m bot [command])

  (no command)                  run the bot: reads DISCORD_TOKEN and the other settings
                                from the environment or from .env in this folder
  quarantine <server id>        set aside a server's database file that cannot be read
  migrate <server id>... | --all
                                copy servers' SQLite files under DATA_DIR into DATABASE_URL
  --help                        show this and exit (connects nowhere)
"""


async def _run(settings: Settings) -> None:
    bot = create_bot(settings)
    async with bot:
        await bot.start(settings.token)


def quarantine_command(args: list[str]) -> int:
    import os
    from pathlib import Path

    from dotenv import load_dotenv

    from storage.maintenance import MaintenanceError, quarantine

    if len(args) != 1 or not args[0].isdigit():
        print("Usage: python -m bot quarantine <server id>", file=sys.stderr)
        return 2
    load_dotenv(Path.cwd() / ".env", override=False)
    data_dir = Path(os.environ.get("DATA_DIR", "").strip() or "./data")
    try:
        moved = quarantine(data_dir, int(args[0]))
    except (MaintenanceError, OSError) as error:
        print(f"Nothing was moved: {error}", file=sys.stderr)
        return 1
    print(f"Moved server {args[0]}'s database to {moved}. Restart Deckhand; that server starts with empty data.")
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
    if not args or (not every and not all(a.isdigit() for a in args)):
        print(MIGRATE_USAGE, file=sys.stderr)
        return 2
    load_dotenv(Path.cwd() / ".env", override=False)
    data_dir = Path(os.environ.get("DATA_DIR", "").strip() or "./data")
    url = os.environ.get("DATABASE_URL", "").strip()
    if not is_postgres_url(url):
        print("Nothing was copied: set DATABASE_URL to the PostgreSQL database to copy into (postgresql://...).", file=sys.stderr)
        return 2
    if every and not (data_dir / "guilds").is_dir():
        print(f"Nothing was copied: there are no server databases under {data_dir / 'guilds'}.", file=sys.stderr)
        return 1
    try:
        done, refused = asyncio.run(copy_guilds(data_dir, url, None if every else [int(a) for a in args]))
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
    if sys.argv[1:2] == ["quarantine"]:
        return quarantine_command(sys.argv[2:])
    if sys.argv[1:2] == ["migrate"]:
        return migrate_command(sys.argv[2:])
    try:
        settings = Settings.from_env()
    except ConfigError as error:
        print(f"Deckhand cannot start: {error}", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=settings.log_level, root=True)
    try:
        asyncio.run(_run(settings))
    except ConfigError as error:  # found at start-up, e.g. a second process on one DATA_DIR of SQLite files
        print(f"Deckhand cannot start: {error}", file=sys.stderr)
        return 2
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
