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
finished one again: they need no Discord.

This module is the command line's dispatch and imports no discord: running the bot is
``bot/discord_front/run.py`` (its checks, its retries, its exit codes: 0 stopped, 1 an
unexpected error with its traceback, 2 something the owner must fix first, said in one
sentence on stderr), imported only when the bot is asked for (``--help``, ``play`` and
``replay`` never import discord.py).
"""

from __future__ import annotations

import asyncio
import sys

from bot.config import EXIT_CONFIG, ConfigError, Settings, claim_data_dir, server_id

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
    from bot.discord_front.run import serve

    return serve(settings)


if __name__ == "__main__":
    sys.exit(main())
