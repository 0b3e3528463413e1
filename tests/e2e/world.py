"""The SimCord world the end-to-end tests build again and again: a server with a channel,
members named in order, an admin who may change the server's settings, and a look into a
server's SQLite file. Which cogs the bot loads is chosen with the ``extensions`` marker read
by the ``simcord_bot`` fixture in tests/conftest.py::

    pytestmark = pytest.mark.extensions(*TOY)

    async def test_something(simcord_env):
        guild, channel, members = world(simcord_env, 2)

Everything is created in the order given here, so the ids SimCord hands out (and so seat
orders and digests) stay what they were when each test built its world by hand."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

import discord

from bot.discord_front.app import EXTENSIONS

TOY = ("bot.discord_front.commands", "tests.platform.toy")  # the platform with only the tiny test game
ALL_EXTENSIONS = EXTENSIONS  # what a deployment loads: every game and every command


def numbered(prefix: str, n: int) -> list[str]:
    return [f"{prefix}{i}" for i in range(n)]


def guild_with_channel(env, channel: str = "cards", *, overwrites=None, **guild_options):
    """A new server (``id=``/``shard_id=`` go to SimCord) with one text channel."""
    guild = env.create_guild(**guild_options)
    return guild, guild.create_text_channel(channel, overwrites=overwrites)


def add_members(env, guild, names: Iterable[str], **member_options) -> list:
    return [guild.add_member(env.create_user(name), **member_options) for name in names]


def add_admin(env, guild, name: str = "admin"):
    """A member holding a role with Manage Server, as the settings commands require."""
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user(name), roles=[admins])


def world(env, n: int = 3, *, channel: str = "cards", prefix: str = "p", names: Iterable[str] | None = None,
          overwrites=None, **guild_options):
    """(guild, channel, members): ``n`` members named ``p0``, ``p1``... (or ``names``)."""
    guild, text_channel = guild_with_channel(env, channel, overwrites=overwrites, **guild_options)
    return guild, text_channel, add_members(env, guild, numbered(prefix, n) if names is None else names)


def admin_world(env, n: int = 3, *, admin: str = "admin", channel: str = "cards", prefix: str = "p", **guild_options):
    """(guild, channel, admin, members): the admin joins first, then ``n`` members."""
    guild, text_channel = guild_with_channel(env, channel, **guild_options)
    admin_member = add_admin(env, guild, admin)
    return guild, text_channel, admin_member, add_members(env, guild, numbered(prefix, n))


def db_rows(data_dir: Path, guild_id: int, sql: str, *args) -> list[tuple]:
    """Rows of a query on one server's SQLite file, read as another process would."""
    with sqlite3.connect(data_dir / "guilds" / f"{guild_id}.sqlite3") as con:
        return con.execute(sql, args).fetchall()
