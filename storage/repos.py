"""Small repositories over one guild's database. Each function takes an open
connection (inside ``storage.transaction`` or ``storage.reading``) so callers
decide what is atomic together.

Each query is written once and runs on both backends: SQLite (an aiosqlite
connection to the guild's file) and PostgreSQL (a :class:`storage.pg.PgConnection`
whose views show only the guild's rows). So keep to SQL both accept: ``?``
placeholders, ``RETURNING`` rather than ``lastrowid``, ``CASE`` rather than summing
booleans, and upserts through :func:`_upsert` (PostgreSQL's keys start with guild_id)."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union

import aiosqlite

from storage import settings_cache
from storage.db import Write, execute_count, run_writes

if TYPE_CHECKING:
    from storage.pg import PgConnection

#: What ``storage.transaction`` / ``storage.reading`` yield.
Connection = Union[aiosqlite.Connection, "PgConnection"]

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
    #: What the platform posted for this table (bot/discord_front/publish.py owns its keys).
    publish: dict[str, Any] = field(default_factory=dict)

    @property
    def place(self) -> int:
        """Where the table lives: its thread, else its channel."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    @classmethod
    def from_row(cls, row: aiosqlite.Row) -> TableRecord:
        """Decode and check a row as strictly as a new table is built: a row that a
        broken disk, a bad edit or an old bug left malformed raises :class:`BadRecord`
        here, once, instead of failing later in a view or a timer."""
        try:
            return cls(
                id=_int(row["id"], "id"),
                game=_text(row["game"], "game"),
                channel_id=_id(row["channel_id"], "channel_id"),
                host_id=_id(row["host_id"], "host_id"),
                status=_status(row["status"]),
                players=[_seat(p, "players") for p in _json(row["players"], list, "players")],
                seat_choices={_seat(_digits(k), "seat_choices"): _text(v, "seat_choices") for k, v in _json(row["seat_choices"], dict, "seat_choices").items()},
                options=_json(row["options"], dict, "options"),
                seed=_optional_text(row["seed"], "seed"),
                state=_optional_text(row["state"], "state"),
                version=_int(row["version"], "version"),
                timer_seconds=_positive(row["timer_seconds"], "timer_seconds"),
                deadline=_optional_time(row["deadline"], "deadline"),
                obligations={_text(k, "obligations"): _obligation(v) for k, v in _json(row["obligations"], dict, "obligations").items()},
                strikes={_seat(_digits(k), "strikes"): _int(v, "strikes") for k, v in _json(row["strikes"], dict, "strikes").items()},
                recent=[_text(line, "recent", empty=True) for line in _json(row["recent"], list, "recent")],
                lobby_message_id=_optional_id(row["lobby_message_id"], "lobby_message_id"),
                message_id=_optional_id(row["message_id"], "message_id"),
                message_posted_at=_optional_time(row["message_posted_at"], "message_posted_at"),
                turn_players=[_seat(p, "turn_players") for p in _json(row["turn_players"], list, "turn_players")],
                created_at=_time(row["created_at"], "created_at"),
                updated_at=_time(row["updated_at"], "updated_at"),
                thread_id=_optional_id(row["thread_id"], "thread_id"),
                publish=_json(row["publish"], dict, "publish"),
            )
        except BadRecord:
            raise
        except Exception as error:  # anything else a garbage value can raise
            raise BadRecord(f"unreadable row: {type(error).__name__}: {str(error)[:200]}") from error


class BadRecord(ValueError):
    """A stored table row that does not hold what the code writes."""


VALID_STATUSES = ("lobby", "playing", "finished", "cancelled", "broken")


def _int(value: Any, column: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadRecord(f"{column} is {str(value)[:40]!r}, not a whole number of at least 0")
    return value


def _id(value: Any, column: str) -> int:
    if _int(value, column) == 0 or value >= 1 << 63:
        raise BadRecord(f"{column} holds {value!r}, not a Discord id")
    return value


def _positive(value: Any, column: str) -> int:
    if _int(value, column) == 0:
        raise BadRecord(f"{column} is 0")
    return value


def _digits(value: Any) -> int | str:
    digits = value[1:] if isinstance(value, str) and value.startswith("-") else value
    return int(value) if isinstance(digits, str) and digits.isdigit() and len(digits) < 20 else value


#: Player ids of computer seats (bot/computer.py): small negative numbers no Discord user has.
COMPUTER_SEATS = range(-999, 0)
#: Player ids of "a former player" (someone who used /privacy forget, bot/players/privacy.py): one per
#: seat of a finished game. Below 2**22, where no Discord id can be (a snowflake's time part
#: would be Discord's first millisecond), and positive, so they read as people, not computers.
FORMER_PLAYERS = range(4_194_000, 1 << 22)


def _seat(value: Any, column: str) -> int:
    """A player: a Discord id, or a computer seat."""
    if isinstance(value, int) and not isinstance(value, bool) and value in COMPUTER_SEATS:
        return value
    return _id(value, column)


def _text(value: Any, column: str, *, empty: bool = False) -> str:
    if not isinstance(value, str) or (not value and not empty):
        raise BadRecord(f"{column} holds {str(value)[:40]!r}, not text")
    return value


def _optional_text(value: Any, column: str) -> str | None:
    return None if value is None else _text(value, column, empty=True)


def _optional_id(value: Any, column: str) -> int | None:
    return None if value is None else _id(value, column)


def _time(value: Any, column: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise BadRecord(f"{column} is {str(value)[:40]!r}, not a time")
    return float(value)


def _optional_time(value: Any, column: str) -> float | None:
    return None if value is None else _time(value, column)


def _status(value: Any) -> str:
    if value not in VALID_STATUSES:
        raise BadRecord(f"status is {str(value)[:40]!r}")
    return value


def _json(value: Any, kind: type, column: str) -> Any:
    if not isinstance(value, str):
        raise BadRecord(f"{column} is not JSON text")
    try:
        decoded = json.loads(value)
    except ValueError as error:
        raise BadRecord(f"{column} is not valid JSON: {error}") from None
    if not isinstance(decoded, kind):
        raise BadRecord(f"{column} holds a {type(decoded).__name__}, not a {kind.__name__}")
    return decoded


def _obligation(value: Any) -> list[Any]:
    if not isinstance(value, list) or len(value) != 2:
        raise BadRecord("an obligation is not [player, deadline]")
    return [_id(value[0], "obligations"), _time(value[1], "obligations")]


async def _write(db: Connection, sql: str, parameters: Sequence[Any] = ()) -> None:
    await execute_count(db, sql, parameters)


def dialect(db: Connection) -> str:
    """``"sqlite"`` or ``"postgresql"``: the backend of a connection."""
    return getattr(db, "dialect", "sqlite")


async def _upsert(db: Connection, table: str, keys: dict[str, Any], values: dict[str, Any]) -> None:
    """INSERT or, when the key exists, UPDATE ``values``: one statement on both backends
    (on PostgreSQL the guild_id, which the view fills in, leads every key)."""
    columns = [*keys, *values]
    target = ", ".join(["guild_id", *keys] if dialect(db) == "postgresql" else keys)
    updates = ", ".join(f"{c} = excluded.{c}" for c in values)
    await _write(
        db,
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)})"
        f" ON CONFLICT ({target}) DO UPDATE SET {updates}",
        (*keys.values(), *values.values()),
    )


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


# -------------------------------------------------------------------- game tables


async def insert_table(
    db: Connection, *, game: str, channel_id: int, host_id: int, options: dict[str, Any],
    timer_seconds: int, now: float, thread_id: int | None = None,
) -> int:
    async with db.execute(
        "INSERT INTO game_tables (game, channel_id, thread_id, host_id, status, players, options, timer_seconds,"
        " created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?, ?) RETURNING id",
        (game, channel_id, thread_id, host_id, _dumps([host_id]), _dumps(options), timer_seconds, now, now),
    ) as cursor:
        (table_id,) = await cursor.fetchone()
    return table_id


async def get_table(db: Connection, table_id: int) -> TableRecord | None:
    async with db.execute("SELECT * FROM game_tables WHERE id = ?", (table_id,)) as cursor:
        row = await cursor.fetchone()
    return TableRecord.from_row(row) if row else None


async def active_table_ids(db: Connection) -> list[int]:
    async with db.execute(
        "SELECT id FROM game_tables WHERE status IN ('lobby', 'playing') ORDER BY id"
    ) as cursor:
        return [row[0] for row in await cursor.fetchall()]


async def active_rows(db: Connection) -> list[aiosqlite.Row]:
    """Raw rows of unfinished tables: decoded one by one, so one bad row stays one."""
    async with db.execute(
        "SELECT * FROM game_tables WHERE status IN ('lobby', 'playing') ORDER BY id"
    ) as cursor:
        return list(await cursor.fetchall())


async def last_action_seq(db: Connection, table_id: int) -> int:
    async with db.execute("SELECT COALESCE(MAX(seq), 0) FROM actions WHERE table_id = ?", (table_id,)) as cursor:
        (seq,) = await cursor.fetchone()
    return seq


async def active_table_at(db: Connection, place: int) -> int | None:
    """The active table living in ``place`` (a thread, or a channel played in directly)."""
    async with db.execute(
        "SELECT id FROM game_tables WHERE COALESCE(thread_id, channel_id) = ? AND status IN ('lobby', 'playing')", (place,)
    ) as cursor:
        row = await cursor.fetchone()
    return row[0] if row else None


async def active_table_in_channel(db: Connection, channel_id: int) -> int | None:
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


def _set_clause(columns: dict[str, Any]) -> tuple[str, list[Any]]:
    """``SET`` assignments and their values for ``update_table``'s columns."""
    unknown = set(columns) - _UPDATABLE
    if unknown:
        raise KeyError(f"Not updatable columns: {sorted(unknown)}")
    names = sorted(columns)
    values = [(_dumps(columns[n]) if n in _JSON_COLUMNS else columns[n]) for n in names]
    return ", ".join(f"{n} = ?" for n in names), values


def table_update(table_id: int, *, now: float, **columns: Any) -> Write:
    """``update_table`` as a :class:`Write` (for ``storage.write``: one trip on SQLite)."""
    assignments, values = _set_clause(columns)
    return Write(f"UPDATE game_tables SET {assignments}, updated_at = ? WHERE id = ?", (*values, now, table_id))


async def update_table(db: Connection, table_id: int, *, now: float, **columns: Any) -> None:
    await run_writes(db, [table_update(table_id, now=now, **columns)])


def table_update_at_version(table_id: int, expected_version: int, *, now: float, **columns: Any) -> Write:
    """``update_table`` only if the row is still at ``expected_version``: the
    cross-process table lock (issue 13), as a :class:`Write` that changes one row or
    abandons the transaction (another process moved first)."""
    assignments, values = _set_clause(columns)
    return Write(
        f"UPDATE game_tables SET {assignments}, updated_at = ? WHERE id = ? AND version = ?",
        (*values, now, table_id, expected_version), rows=1,
    )


async def update_table_at_version(db: Connection, table_id: int, expected_version: int, *, now: float, **columns: Any) -> bool:
    """:func:`table_update_at_version` in an open transaction. False means another
    process moved first."""
    return await run_writes(db, [table_update_at_version(table_id, expected_version, now=now, **columns)])


async def table_version(db: Connection, table_id: int) -> tuple[int, str] | None:
    """(version, status) of a table: the cheap read that tells a process its copy is old."""
    async with db.execute("SELECT version, status FROM game_tables WHERE id = ?", (table_id,)) as cursor:
        row = await cursor.fetchone()
    return (row[0], row[1]) if row else None


def action_insert(table_id: int, seq: int, user_id: int, code: str, source: str, now: float) -> Write:
    """One action of a table's log, as a :class:`Write`."""
    return Write(
        "INSERT INTO actions (table_id, seq, user_id, code, source, at) VALUES (?, ?, ?, ?, ?, ?)",
        (table_id, seq, user_id, code, source, now),
    )


async def append_action(
    db: Connection, table_id: int, seq: int, user_id: int, code: str, source: str, now: float
) -> None:
    await run_writes(db, [action_insert(table_id, seq, user_id, code, source, now)])


async def actions_for(db: Connection, table_id: int) -> list[tuple[int, str, str]]:
    """(user_id, code, source) in order, for replaying a game from its seed."""
    async with db.execute(
        "SELECT user_id, code, source FROM actions WHERE table_id = ? ORDER BY seq", (table_id,)
    ) as cursor:
        return [(row[0], row[1], row[2]) for row in await cursor.fetchall()]


# ----------------------------------------------------------------------- settings


async def get_guild_setting(db: Connection, key: str, default: Any = None) -> Any:
    async with db.execute("SELECT value FROM guild_settings WHERE key = ?", (key,)) as cursor:
        row = await cursor.fetchone()
    return json.loads(row[0]) if row else default


async def guild_settings_with_prefix(db: Connection, prefix: str) -> dict[str, Any]:
    async with db.execute(
        "SELECT key, value FROM guild_settings WHERE substr(key, 1, ?) = ?", (len(prefix), prefix)
    ) as cursor:
        return {row[0]: json.loads(row[1]) for row in await cursor.fetchall()}


async def set_guild_setting(db: Connection, key: str, value: Any) -> None:
    await _upsert(db, "guild_settings", {"key": key}, {"value": _dumps(value)})


def _settings_cache(db: Connection) -> dict[tuple[int, str], Any] | None:
    """The file's cache of players' settings; None when there is none to use (a
    connection Storage did not register, or inside a transaction that may still roll
    back what it read)."""
    if dialect(db) != "sqlite" or db.in_transaction:
        return None
    file = settings_cache.FILE_OF.get(db)
    return settings_cache.USER_SETTINGS.setdefault(file, {}) if file is not None else None


def _forget_user_settings(db: Connection, user_id: int) -> None:
    if dialect(db) == "sqlite":
        settings_cache.forget_user(settings_cache.FILE_OF.get(db, ""), user_id)


async def get_user_setting(db: Connection, user_id: int, key: str, default: Any = None) -> Any:
    cache = _settings_cache(db)
    value = cache.get((user_id, key)) if cache is not None else None
    if value is None:
        writes = settings_cache.WRITES
        async with db.execute(
            "SELECT value FROM user_settings WHERE user_id = ? AND key = ?", (user_id, key)
        ) as cursor:
            row = await cursor.fetchone()
        value = json.loads(row[0]) if row else settings_cache.UNSET
        if cache is not None and value is not None and writes == settings_cache.WRITES:  # no write meanwhile
            cache[(user_id, key)] = value
    return default if value is settings_cache.UNSET else value


async def set_user_setting(db: Connection, user_id: int, key: str, value: Any) -> None:
    _forget_user_settings(db, user_id)
    try:
        await _upsert(db, "user_settings", {"user_id": user_id, "key": key}, {"value": _dumps(value)})
    finally:
        _forget_user_settings(db, user_id)


async def get_dm_channel(db: Connection, user_id: int) -> int | None:
    """The DM channel the bot has with this user, if it was ever opened (bot/discord_front/publish.py)."""
    async with db.execute("SELECT channel_id FROM dm_channels WHERE user_id = ?", (user_id,)) as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else None


async def set_dm_channel(db: Connection, user_id: int, channel_id: int | None) -> None:
    """Keep (or, with None, forget) the user's DM channel."""
    if channel_id is None:
        await _write(db, "DELETE FROM dm_channels WHERE user_id = ?", (user_id,))
    else:
        await _upsert(db, "dm_channels", {"user_id": user_id}, {"channel_id": channel_id})


# ------------------------------------------------------------------------ results


async def _record_placements(
    db: Connection, into: str, table_id: int, game: str, placements: Sequence[Sequence[int]], now: float
) -> None:
    # Dense ranking: a winning team shares place 1 and the other team is 2nd, not 3rd.
    players = sum(len(group) for group in placements)
    for place, group in enumerate(placements, start=1):
        for user_id in group:
            await _upsert(
                db, into, {"table_id": table_id, "user_id": user_id},
                {"game": game, "place": place, "players": players, "finished_at": now},
            )


async def record_results(
    db: Connection, table_id: int, game: str, placements: Sequence[Sequence[int]], now: float
) -> None:
    await _record_placements(db, "results", table_id, game, placements, now)


@dataclass
class Standing:
    user_id: int
    played: int
    wins: int


async def leaderboard(db: Connection, game: str, limit: int = 10, *, with_computers: bool = False) -> list[Standing]:
    """People's standings, from all-human games only, or (``with_computers``) from
    games that had a computer seat (a negative user id) apart: the two never mix."""
    which = "IN" if with_computers else "NOT IN"
    async with db.execute(
        "SELECT user_id, COUNT(*) AS played, SUM(CASE WHEN place = 1 THEN 1 ELSE 0 END) AS wins FROM results WHERE game = ? AND user_id > 0"
        " AND (user_id < ? OR user_id >= ?)"  # former players (bot/players/privacy.py) are nobody's standing
        f" AND table_id {which} (SELECT table_id FROM results WHERE user_id < 0)"
        " GROUP BY user_id ORDER BY wins DESC, played ASC, user_id LIMIT ?",
        (game, FORMER_PLAYERS.start, FORMER_PLAYERS.stop, limit),
    ) as cursor:
        return [Standing(row[0], row[1], row[2]) for row in await cursor.fetchall()]


# ---------------------------------------------------------------------- carryover


async def get_carryover(db: Connection, channel_id: int, game: str) -> dict[str, Any]:
    async with db.execute(
        "SELECT data FROM carryover WHERE channel_id = ? AND game = ?", (channel_id, game)
    ) as cursor:
        row = await cursor.fetchone()
    return json.loads(row[0]) if row else {}


async def set_carryover(db: Connection, channel_id: int, game: str, data: dict[str, Any], now: float) -> None:
    await _upsert(db, "carryover", {"channel_id": channel_id, "game": game}, {"data": _dumps(data), "updated_at": now})


async def clear_carryover(db: Connection, channel_id: int, game: str) -> None:
    await _write(db, "DELETE FROM carryover WHERE channel_id = ? AND game = ?", (channel_id, game))


async def last_host(db: Connection, channel_id: int, game: str) -> int | None:
    """The host of the newest ``game`` table opened from ``channel_id``."""
    async with db.execute(
        "SELECT host_id FROM game_tables WHERE channel_id = ? AND game = ? ORDER BY id DESC LIMIT 1", (channel_id, game)
    ) as cursor:
        row = await cursor.fetchone()
    return row[0] if row else None


# ------------------------------------------------------------------------ privacy
# What bot/players/privacy.py reads, rewrites and purges about one person (issue 25).


async def tables_of_user(db: Connection, user_id: int) -> list[aiosqlite.Row]:
    """Raw rows of every table ``user_id`` sat at or hosted (decode with TableRecord.from_row).
    The LIKE is a coarse filter on the JSON text; callers check ``players`` exactly."""
    async with db.execute(
        "SELECT * FROM game_tables WHERE host_id = ? OR players LIKE ? ORDER BY id", (user_id, f"%{int(user_id)}%")
    ) as cursor:
        return list(await cursor.fetchall())


async def actions_of_user(db: Connection, user_id: int) -> list[aiosqlite.Row]:
    async with db.execute(
        "SELECT table_id, seq, code, source, at FROM actions WHERE user_id = ? ORDER BY table_id, seq", (user_id,)
    ) as cursor:
        return list(await cursor.fetchall())


async def actions_naming(db: Connection, table_ids: Sequence[int], text: str) -> list[tuple[int, int, str]]:
    """(table_id, seq, code) of the moves at these tables whose code holds ``text`` (a
    person's id inside typed words or an obligation's id), 500 tables a statement."""
    found, ids = [], list(table_ids)
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        async with db.execute(
            f"SELECT table_id, seq, code FROM actions WHERE table_id IN ({', '.join('?' for _ in chunk)}) AND code LIKE ?"
            " ORDER BY table_id, seq",
            (*chunk, f"%{text}%"),
        ) as cursor:
            found += [(row[0], row[1], row[2]) for row in await cursor.fetchall()]
    return found


async def set_action_codes(db: Connection, rows: Sequence[tuple[int, int, str]]) -> None:
    """Rewrite moves' codes: (table_id, seq, new code) each."""
    for table_id, seq, code in rows:
        await _write(db, "UPDATE actions SET code = ? WHERE table_id = ? AND seq = ?", (code, table_id, seq))


async def results_of_user(db: Connection, user_id: int) -> list[aiosqlite.Row]:
    async with db.execute(
        "SELECT table_id, game, place, players, finished_at FROM results WHERE user_id = ? ORDER BY table_id", (user_id,)
    ) as cursor:
        return list(await cursor.fetchall())


async def user_settings_of(db: Connection, user_id: int) -> dict[str, Any]:
    async with db.execute("SELECT key, value FROM user_settings WHERE user_id = ? ORDER BY key", (user_id,)) as cursor:
        return {row[0]: json.loads(row[1]) for row in await cursor.fetchall()}


async def delete_user_settings(db: Connection, user_id: int) -> int:
    _forget_user_settings(db, user_id)
    try:
        return await execute_count(db, "DELETE FROM user_settings WHERE user_id = ?", (user_id,))
    finally:
        _forget_user_settings(db, user_id)


async def all_carryover(db: Connection, game: str | None = None) -> list[tuple[int, str, dict[str, Any], float]]:
    """(channel_id, game, data, updated_at) of every carryover row (of one game)."""
    sql, args = ("SELECT channel_id, game, data, updated_at FROM carryover", ())
    if game is not None:
        sql, args = sql + " WHERE game = ?", (game,)
    async with db.execute(sql + " ORDER BY channel_id, game", args) as cursor:
        return [(row[0], row[1], json.loads(row[2]), row[3]) for row in await cursor.fetchall()]


async def replace_carryover_data(db: Connection, channel_id: int, game: str, data: dict[str, Any]) -> None:
    """Rewrite a carryover's data and keep its time (a forget is not a game)."""
    await _write(db, "UPDATE carryover SET data = ? WHERE channel_id = ? AND game = ?", (_dumps(data), channel_id, game))


async def rewrite_tables(db: Connection, updates: Sequence[tuple[int, dict[str, Any]]]) -> None:
    """``update_table`` of many tables, without touching ``updated_at``: rewriting who sat
    at a finished game must not restart the clock its move log is kept by. Rows with the
    same columns go in one ``executemany`` (one trip to SQLite's thread or to PostgreSQL)."""
    groups: dict[tuple[str, ...], list[tuple[Any, ...]]] = {}
    for table_id, columns in updates:
        assignments, values = _set_clause(columns)
        groups.setdefault(tuple(sorted(columns)), []).append((*values, table_id))
    for names, rows in groups.items():
        sql = f"UPDATE game_tables SET {', '.join(f'{n} = ?' for n in names)} WHERE id = ?"
        if dialect(db) == "sqlite":
            await db.executemany(sql, rows)
        else:
            from storage.pg import translate  # asyncpg's executemany: one pipelined batch

            await db.raw.executemany(translate(sql), rows, timeout=60)  # a rare request; the default 2 s is per move


async def reassign_user(db: Connection, table: str, old: int, new: int, table_ids: Sequence[int]) -> int:
    """``old``'s rows of ``actions`` or ``results`` at these tables become ``new``'s, in
    statements of up to 500 ids (SQLite's and asyncpg's parameter limits are far above)."""
    if table not in ("actions", "results"):
        raise ValueError(f"not a table of players' rows: {table}")
    changed, ids = 0, list(table_ids)
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        changed += await execute_count(
            db, f"UPDATE {table} SET user_id = ? WHERE user_id = ? AND table_id IN ({', '.join('?' for _ in chunk)})",
            (new, old, *chunk),
        )
    return changed


async def has_old_actions(db: Connection, finished_before: float) -> bool:
    """Whether :func:`purge_old_actions` would delete anything (a read: no write lock)."""
    async with db.execute(
        "SELECT EXISTS (SELECT 1 FROM actions WHERE table_id IN (SELECT id FROM game_tables"
        " WHERE status NOT IN ('lobby', 'playing') AND updated_at < ?))",
        (finished_before,),
    ) as cursor:
        (found,) = await cursor.fetchone()
    return bool(found)


async def purge_old_actions(db: Connection, finished_before: float) -> int:
    """Delete the move logs of tables that ended (finished, cancelled, broken) before
    ``finished_before``; their results and final state stay. Returns the rows deleted."""
    return await execute_count(
        db,
        "DELETE FROM actions WHERE table_id IN (SELECT id FROM game_tables"
        " WHERE status NOT IN ('lobby', 'playing') AND updated_at < ?)",
        (finished_before,),
    )


# ------------------------------------------------------------------------ ratings
#
# Issue 25 (bot/players/ratings.py). The rated results of a game are ``results`` rows, or,
# for a game rated per session, ``session_results`` rows; ``ratings`` and
# ``rating_history`` are derived from them and rebuilt at will.

#: Where a game's rated results live (bot/players/ratings.py says which a game uses).
RESULT_SOURCES = ("results", "session_results")


def _source(source: str) -> str:
    if source not in RESULT_SOURCES:
        raise ValueError(f"not a results table: {source!r}")
    return source


async def record_session_results(
    db: Connection, table_id: int, game: str, placements: Sequence[Sequence[int]], now: float
) -> None:
    """A session's final standings, keyed by its last round's table (dense places, as results)."""
    await _record_placements(db, "session_results", table_id, game, placements, now)


async def finished_tables(db: Connection, game: str, limit: int = 20) -> list[tuple[int, int, float]]:
    """(table id, moves, finished at) of the newest finished ``game`` tables, newest first."""
    async with db.execute(
        "SELECT id, version, updated_at FROM game_tables WHERE game = ? AND status = 'finished' ORDER BY id DESC LIMIT ?",
        (game, limit),
    ) as cursor:
        return [(row[0], row[1], row[2]) for row in await cursor.fetchall()]


async def finished_tables_of_user(db: Connection, user_id: int, limit: int = 10) -> list[tuple[int, str, int, float]]:
    """(table id, game, moves, finished at) of the newest finished tables ``user_id`` sat
    at, newest first (``/profile``'s games to watch again). The LIKE is a coarse filter on
    the JSON text; the seats are checked exactly here."""
    found: list[tuple[int, str, int, float]] = []
    async with db.execute(
        "SELECT id, game, version, updated_at, players FROM game_tables WHERE status = 'finished' AND players LIKE ? ORDER BY id DESC LIMIT ?",
        (f"%{int(user_id)}%", 4 * limit),
    ) as cursor:
        for row in await cursor.fetchall():
            try:
                seated = json.loads(row[4]) if isinstance(row[4], str) else row[4]
            except ValueError:
                continue
            if isinstance(seated, list) and user_id in seated and len(found) < limit:
                found.append((int(row[0]), str(row[1]), int(row[2]), float(row[3])))
    return found


async def last_finished_table(db: Connection, channel_id: int, game: str) -> int | None:
    """The newest finished ``game`` table opened from ``channel_id`` (a session's last round)."""
    async with db.execute(
        "SELECT MAX(id) FROM game_tables WHERE channel_id = ? AND game = ? AND status = 'finished'", (channel_id, game)
    ) as cursor:
        row = await cursor.fetchone()
    return row[0] if row and row[0] is not None else None


async def rating_feed(db: Connection, game: str, source: str) -> list[tuple[int, float, int, int]]:
    """Every stored result of ``game``: (table_id, finished_at, user_id, place), in the
    order ratings replay them (finished_at, then table id)."""
    async with db.execute(
        f"SELECT table_id, finished_at, user_id, place FROM {_source(source)} WHERE game = ?"
        " ORDER BY finished_at, table_id, place, user_id",
        (game,),
    ) as cursor:
        return [(row[0], row[1], row[2], row[3]) for row in await cursor.fetchall()]


async def count_results(db: Connection, game: str, source: str) -> int:
    async with db.execute(f"SELECT COUNT(*) FROM {_source(source)} WHERE game = ?", (game,)) as cursor:
        (count,) = await cursor.fetchone()
    return count


#: results_mark folds user ids into this range so that its sum cannot overflow.
MARK_MODULUS = 1_000_003


async def results_mark(db: Connection, game: str, source: str) -> tuple[int, int]:
    """(rows, a checksum of who placed where) of a game's results: whether they changed
    between a read and a write (bot/players/ratings.py recompute_guild)."""
    async with db.execute(
        f"SELECT COUNT(*), COALESCE(SUM(ABS(user_id) % {MARK_MODULUS} + place), 0) FROM {_source(source)} WHERE game = ?", (game,)
    ) as cursor:
        count, total = await cursor.fetchone()
    return int(count), int(total)


@dataclass
class RatingRow:
    user_id: int
    mu: float
    sigma: float
    shown: int
    played: int
    won: int
    updated_at: float = 0.0


def _rating(row: Any) -> RatingRow:
    return RatingRow(row[0], row[1], row[2], row[3], row[4], row[5], row[6])


_RATING_COLUMNS = "user_id, mu, sigma, shown, played, won, updated_at"


async def ratings_of(db: Connection, game: str, user_ids: Sequence[int]) -> dict[int, RatingRow]:
    if not user_ids:
        return {}
    marks = ", ".join("?" for _ in user_ids)
    async with db.execute(
        f"SELECT {_RATING_COLUMNS} FROM ratings WHERE game = ? AND user_id IN ({marks})", (game, *user_ids)
    ) as cursor:
        return {row[0]: _rating(row) for row in await cursor.fetchall()}


async def last_rated(db: Connection, game: str) -> tuple[float, int] | None:
    """(finished_at, table_id) of the newest rated game of ``game``."""
    async with db.execute(
        "SELECT finished_at, table_id FROM rating_history WHERE game = ? ORDER BY finished_at DESC, table_id DESC LIMIT 1", (game,)
    ) as cursor:
        row = await cursor.fetchone()
    return (row[0], row[1]) if row else None


async def save_ratings(db: Connection, game: str, rows: Sequence[RatingRow]) -> None:
    for r in rows:
        await _upsert(
            db, "ratings", {"game": game, "user_id": r.user_id},
            {"mu": r.mu, "sigma": r.sigma, "shown": r.shown, "played": r.played, "won": r.won, "updated_at": r.updated_at},
        )


#: Rows per multi-row INSERT: under SQLite's oldest limit of 999 parameters.
_BATCH = 100


async def insert_many(db: Connection, table: str, columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Plain INSERTs in multi-row statements (a full ratings rebuild writes many rows)."""
    one = "(" + ", ".join("?" for _ in columns) + ")"
    for start in range(0, len(rows), _BATCH):
        batch = rows[start:start + _BATCH]
        await _write(
            db, f"INSERT INTO {table} ({', '.join(columns)}) VALUES {', '.join(one for _ in batch)}",
            [value for row in batch for value in row],
        )


HISTORY_COLUMNS = ("game", "table_id", "user_id", "mu", "sigma", "shown", "delta", "finished_at")


async def add_rating_history(db: Connection, rows: Sequence[Sequence[Any]]) -> None:
    """Rows of :data:`HISTORY_COLUMNS`."""
    await insert_many(db, "rating_history", HISTORY_COLUMNS, rows)


async def clear_ratings(db: Connection, game: str) -> None:
    await _write(db, "DELETE FROM rating_history WHERE game = ?", (game,))
    await _write(db, "DELETE FROM ratings WHERE game = ?", (game,))


async def rating_moves(db: Connection, game: str, table_id: int) -> dict[int, int]:
    """{user: shown rating change} of one rated game."""
    async with db.execute("SELECT user_id, delta FROM rating_history WHERE game = ? AND table_id = ?", (game, table_id)) as cursor:
        return {row[0]: row[1] for row in await cursor.fetchall()}


async def top_ratings(db: Connection, game: str, min_played: int, limit: int) -> list[RatingRow]:
    async with db.execute(
        f"SELECT {_RATING_COLUMNS} FROM ratings WHERE game = ? AND played >= ?"
        " ORDER BY shown DESC, played DESC, user_id LIMIT ?",
        (game, min_played, limit),
    ) as cursor:
        return [_rating(row) for row in await cursor.fetchall()]


async def rating_place(db: Connection, game: str, row: RatingRow, min_played: int) -> tuple[int, int]:
    """(place, everyone listed) of a listed player, in :func:`top_ratings`' order."""
    async with db.execute(
        "SELECT COUNT(*), SUM(CASE WHEN shown > ? OR (shown = ? AND (played > ? OR (played = ? AND user_id < ?))) THEN 1 ELSE 0 END)"
        " FROM ratings WHERE game = ? AND played >= ?",
        (row.shown, row.shown, row.played, row.played, row.user_id, game, min_played),
    ) as cursor:
        total, ahead = await cursor.fetchone()
    return (ahead or 0) + 1, total


async def rating_history_of(db: Connection, game: str, user_id: int) -> list[tuple[float, int, int]]:
    """(finished_at, shown, delta) after each rated game of a player, oldest first."""
    async with db.execute(
        "SELECT finished_at, shown, delta FROM rating_history WHERE game = ? AND user_id = ? ORDER BY finished_at, table_id",
        (game, user_id),
    ) as cursor:
        return [(row[0], row[1], row[2]) for row in await cursor.fetchall()]


async def player_ratings(db: Connection, user_id: int) -> dict[str, RatingRow]:
    """A player's rating in every game they have one in."""
    async with db.execute(f"SELECT game, {_RATING_COLUMNS} FROM ratings WHERE user_id = ?", (user_id,)) as cursor:
        return {row[0]: _rating(row[1:]) for row in await cursor.fetchall()}


@dataclass
class Rival:
    user_id: int
    met: int  # rated games together
    ahead: int  # games the player finished above them
    behind: int  # games they finished above the player


async def rivals(db: Connection, game: str, user_id: int, source: str) -> list[Rival]:
    """Results against each opponent over the player's rated games (teammates, who
    share a place, count as met but neither ahead nor behind)."""
    table = _source(source)
    async with db.execute(
        "SELECT o.user_id, COUNT(*), SUM(CASE WHEN m.place < o.place THEN 1 ELSE 0 END),"
        " SUM(CASE WHEN m.place > o.place THEN 1 ELSE 0 END)"
        f" FROM rating_history h JOIN {table} m ON m.table_id = h.table_id AND m.user_id = h.user_id"
        f" JOIN {table} o ON o.table_id = h.table_id AND o.user_id <> h.user_id"
        " WHERE h.game = ? AND h.user_id = ? GROUP BY o.user_id",
        (game, user_id),
    ) as cursor:
        return [Rival(row[0], row[1], row[2] or 0, row[3] or 0) for row in await cursor.fetchall()]


async def session_results_of_user(db: Connection, user_id: int) -> list[aiosqlite.Row]:
    async with db.execute(
        "SELECT table_id, game, place, players, finished_at FROM session_results WHERE user_id = ? ORDER BY table_id", (user_id,)
    ) as cursor:
        return list(await cursor.fetchall())


async def reassign_session_user(db: Connection, table_id: int, old: int, taken_from: range) -> int:
    """``old``'s standing in one session becomes the first id of ``taken_from`` (the former
    players) that nobody else in that session holds; returns that id."""
    async with db.execute("SELECT user_id FROM session_results WHERE table_id = ?", (table_id,)) as cursor:
        taken = {row[0] for row in await cursor.fetchall()}
    new = next(i for i in taken_from if i not in taken)
    await _write(db, "UPDATE session_results SET user_id = ? WHERE table_id = ? AND user_id = ?", (new, table_id, old))
    return new
