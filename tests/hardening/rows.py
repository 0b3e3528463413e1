"""Storage-level helpers for the restore tests: a stand-in bot that records what
the table manager says in channels, and rows written straight into a guild file."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from bot.core.games import GameRegistry
from bot.discord_front.tables import TableManager
from storage import repos
from storage.db import Storage
from tests.platform.toy import TOY_SPEC, ToyGame

COLUMNS = (
    "game", "channel_id", "host_id", "status", "players", "seat_choices", "options", "seed", "state", "version",
    "timer_seconds", "deadline", "obligations", "strikes", "recent", "lobby_message_id", "message_id",
    "message_posted_at", "turn_players", "created_at", "updated_at",
)


class _Channel:
    def __init__(self, bot: StubBot, channel_id: int) -> None:
        self.bot, self.id = bot, channel_id

    async def send(self, content: str | None = None, **_: Any) -> Any:
        self.bot.sent.append((self.id, content or ""))
        return type("Sent", (), {"id": 1})()

    def get_partial_message(self, message_id: int) -> Any:
        channel = self

        class _Message:
            async def edit(self, **_: Any) -> None:
                channel.bot.sent.append((channel.id, "(edit)"))

        return _Message()


class StubBot:
    def __init__(self) -> None:
        self.sent: list[tuple[int, str]] = []

    def get_partial_messageable(self, channel_id: int, guild_id: int | None = None) -> _Channel:
        return _Channel(self, channel_id)

    def get_guild(self, guild_id: int) -> None:
        return None  # no server cached: its language is the default (bot/discord_front/languages.py)


def manager(data_dir: Path) -> tuple[TableManager, StubBot]:
    games = GameRegistry()
    games.add(TOY_SPEC)
    bot = StubBot()
    return TableManager(bot, Storage(data_dir), games), bot  # type: ignore[arg-type]


async def playing_toy_table(storage: Storage, guild_id: int, channel_id: int, players=(11, 12)) -> int:
    """A good table in play, as Start leaves it."""
    state = ToyGame.new(list(players), {}, seed="7")
    async with storage.transaction(guild_id) as db:
        table_id = await repos.insert_table(db, game="toy", channel_id=channel_id, host_id=players[0], options={}, timer_seconds=60, now=1.0)
        await repos.update_table(db, table_id, now=1.0, status="playing", players=list(players), seed="7", state=state.to_json(), version=0, deadline=10**10)
    return table_id


def write_raw(data_dir: Path, guild_id: int, table_id: int, values: dict[str, Any]) -> None:
    """Overwrite columns with any values at all (CHECK constraints off, as a bad edit could)."""
    with sqlite3.connect(data_dir / "guilds" / f"{guild_id}.sqlite3") as con:
        con.execute("PRAGMA ignore_check_constraints=ON")
        for column, value in values.items():
            con.execute(f"UPDATE game_tables SET {column} = ? WHERE id = ?", (value, table_id))


def db_active(data_dir: Path, guild_id: int) -> dict[Any, int]:
    with sqlite3.connect(data_dir / "guilds" / f"{guild_id}.sqlite3") as con:
        rows = con.execute("SELECT channel_id, id FROM game_tables WHERE status IN ('lobby', 'playing')").fetchall()
    return {channel: table_id for channel, table_id in rows}


def as_json(value: Any) -> str:
    return json.dumps(value)
