"""Small repositories over one guild's database. Each function takes an open
connection (inside ``Storage.transaction`` or ``Storage.reading``) so callers
decide what is atomic together."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

ACTIVE = ("lobby", "playing")


@dataclass
class TableRecord:
    """A row of ``game_tables`` with its JSON columns decoded."""

    id: int
    game: str
    channel_id: int
    host_id: int
    status: str
    players: list[int]
    seat_choices: dict[int, str]
    options: dict[str, Any]
    seed: str | None
    state: str | None
    version: int
    timer_seconds: int
    deadline: float | None
    obligations: dict[str, list[Any]]
    strikes: dict[int, int]
    recent: list[str]
    lobby_message_id: int | None
    message_id: int | None
    message_posted_at: float | None
    turn_players: list[int]
    created_at: float
    updated_at: float
    extra: dict[str, Any] = field(default_factory=dict)
    #: The thread the game is played in (None: in the channel itself).
    thread_id: int | None = None
    #: What the platform posted for this table (bot/publish.py owns its keys).
    publish: dict[str, Any] = field(default_factory=dict)

    @property
    def place(self) -> int:
        """Where the table lives: its thread, else its channel."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    @classmethod
    def from_row(cls, row: aiosqlite.Row) -> TableRecord:
        return cls(
            id=row["id"],
            game=row["game"],
            channel_id=row["channel_id"],
            host_id=row["host_id"],
            status=row["status"],
            players=[int(p) for p in json.loads(row["players"])],
            seat_choices={int(k): v for k, v in json.loads(row["seat_choices"]).items()},
            options=json.loads(row["options"]),
            seed=row["seed"],
            state=row["state"],
            version=row["version"],
            timer_seconds=row["timer_seconds"],
            deadline=row["deadline"],
            obligations=json.loads(row["obligations"]),
            strikes={int(k): v for k, v in json.loads(row["strikes"]).items()},
            recent=list(json.loads(row["recent"])),
            lobby_message_id=row["lobby_message_id"],
            message_id=row["message_id"],
            message_posted_at=row["message_posted_at"],
            turn_players=[int(p) for p in json.loads(row["turn_players"])],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            thread_id=row["thread_id"],
            publish=json.loads(row["publish"]),
        )


async def _write(db: aiosqlite.Connection, sql: str, parameters: Sequence[Any] = ()) -> None:
    cursor = await db.execute(sql, parameters)
    await cursor.close()


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


# -------------------------------------------------------------------- game tables


async def insert_table(
    db: aiosqlite.Connection, *, game: str, channel_id: int, host_id: int, options: dict[str, Any],
    timer_seconds: int, now: float, thread_id: int | None = None,
) -> int:
    cursor = await db.execute(
        "INSERT INTO game_tables (game, channel_id, thread_id, host_id, status, players, options, timer_seconds,"
        " created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?)",
        (game, channel_id, thread_id, host_id, _dumps([host_id]), _dumps(options), timer_seconds, now, now),
    )
    table_id = cursor.lastrowid
    await cursor.close()
    return table_id


async def get_table(db: aiosqlite.Connection, table_id: int) -> TableRecord | None:
    async with db.execute("SELECT * FROM game_tables WHERE id = ?", (table_id,)) as cursor:
        row = await cursor.fetchone()
    return TableRecord.from_row(row) if row else None


async def active_table_ids(db: aiosqlite.Connection) -> list[int]:
    async with db.execute(
        "SELECT id FROM game_tables WHERE status IN ('lobby', 'playing') ORDER BY id"
    ) as cursor:
        return [row[0] for row in await cursor.fetchall()]


async def active_table_at(db: aiosqlite.Connection, place: int) -> int | None:
    """The active table living in ``place`` (a thread, or a channel played in directly)."""
    async with db.execute(
        "SELECT id FROM game_tables WHERE COALESCE(thread_id, channel_id) = ? AND status IN ('lobby', 'playing')", (place,)
    ) as cursor:
        row = await cursor.fetchone()
    return row[0] if row else None


async def active_table_in_channel(db: aiosqlite.Connection, channel_id: int) -> int | None:
    async with db.execute(
        "SELECT id FROM game_tables WHERE channel_id = ? AND status IN ('lobby', 'playing')", (channel_id,)
    ) as cursor:
        row = await cursor.fetchone()
    return row[0] if row else None


_UPDATABLE = {
    "status", "host_id", "players", "seat_choices", "options", "seed", "state", "version", "timer_seconds",
    "deadline", "obligations", "strikes", "recent", "lobby_message_id", "message_id", "message_posted_at",
    "turn_players", "thread_id", "publish",
}
_JSON_COLUMNS = {"players", "seat_choices", "options", "obligations", "strikes", "recent", "turn_players", "publish"}


async def update_table(db: aiosqlite.Connection, table_id: int, *, now: float, **columns: Any) -> None:
    unknown = set(columns) - _UPDATABLE
    if unknown:
        raise KeyError(f"Not updatable columns: {sorted(unknown)}")
    names = sorted(columns)
    values = [(_dumps(columns[n]) if n in _JSON_COLUMNS else columns[n]) for n in names]
    assignments = ", ".join(f"{n} = ?" for n in names)
    await _write(db, 
        f"UPDATE game_tables SET {assignments}, updated_at = ? WHERE id = ?", (*values, now, table_id)
    )


async def append_action(
    db: aiosqlite.Connection, table_id: int, seq: int, user_id: int, code: str, source: str, now: float
) -> None:
    await _write(db, 
        "INSERT INTO actions (table_id, seq, user_id, code, source, at) VALUES (?, ?, ?, ?, ?, ?)",
        (table_id, seq, user_id, code, source, now),
    )


async def actions_for(db: aiosqlite.Connection, table_id: int) -> list[tuple[int, str, str]]:
    """(user_id, code, source) in order, for replaying a game from its seed."""
    async with db.execute(
        "SELECT user_id, code, source FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
    ) as cursor:
        return [(row[0], row[1], row[2]) for row in await cursor.fetchall()]


# ----------------------------------------------------------------------- settings


async def get_guild_setting(db: aiosqlite.Connection, key: str, default: Any = None) -> Any:
    async with db.execute("SELECT value FROM guild_settings WHERE key = ?", (key,)) as cursor:
        row = await cursor.fetchone()
    return json.loads(row[0]) if row else default


async def guild_settings_with_prefix(db: aiosqlite.Connection, prefix: str) -> dict[str, Any]:
    async with db.execute(
        "SELECT key, value FROM guild_settings WHERE substr(key, 1, ?) = ?", (len(prefix), prefix)
    ) as cursor:
        return {row[0]: json.loads(row[1]) for row in await cursor.fetchall()}


async def set_guild_setting(db: aiosqlite.Connection, key: str, value: Any) -> None:
    await _write(db, 
        "INSERT INTO guild_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, _dumps(value)),
    )


async def get_user_setting(db: aiosqlite.Connection, user_id: int, key: str, default: Any = None) -> Any:
    async with db.execute(
        "SELECT value FROM user_settings WHERE user_id = ? AND key = ?", (user_id, key)
    ) as cursor:
        row = await cursor.fetchone()
    return json.loads(row[0]) if row else default


async def set_user_setting(db: aiosqlite.Connection, user_id: int, key: str, value: Any) -> None:
    await _write(db, 
        "INSERT INTO user_settings (user_id, key, value) VALUES (?, ?, ?)"
        " ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value",
        (user_id, key, _dumps(value)),
    )


# ------------------------------------------------------------------------ results


async def record_results(
    db: aiosqlite.Connection, table_id: int, game: str, placements: Sequence[Sequence[int]], now: float
) -> None:
    # Dense ranking: a winning team shares place 1 and the other team is 2nd, not 3rd.
    players = sum(len(group) for group in placements)
    for place, group in enumerate(placements, start=1):
        for user_id in group:
            await _write(db, 
                "INSERT OR REPLACE INTO results (table_id, game, user_id, place, players, finished_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, game, user_id, place, players, now),
            )


@dataclass
class Standing:
    user_id: int
    played: int
    wins: int


async def leaderboard(db: aiosqlite.Connection, game: str, limit: int = 10) -> list[Standing]:
    async with db.execute(
        "SELECT user_id, COUNT(*) AS played, SUM(place = 1) AS wins FROM results WHERE game = ?"
        " GROUP BY user_id ORDER BY wins DESC, played ASC, user_id LIMIT ?",
        (game, limit),
    ) as cursor:
        return [Standing(row[0], row[1], row[2]) for row in await cursor.fetchall()]


# ---------------------------------------------------------------------- carryover


async def get_carryover(db: aiosqlite.Connection, channel_id: int, game: str) -> dict[str, Any]:
    async with db.execute(
        "SELECT data FROM carryover WHERE channel_id = ? AND game = ?", (channel_id, game)
    ) as cursor:
        row = await cursor.fetchone()
    return json.loads(row[0]) if row else {}


async def set_carryover(db: aiosqlite.Connection, channel_id: int, game: str, data: dict[str, Any], now: float) -> None:
    await _write(db, 
        "INSERT INTO carryover (channel_id, game, data, updated_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (channel_id, game) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at",
        (channel_id, game, _dumps(data), now),
    )
