"""Restore: a table's game state brought back from storage, from its snapshot or a
replay of its seed, options and action log."""

from __future__ import annotations

import logging

from bot.core.clock import Clock
from bot.core.games import GameSpec
from bot.rules.engine import Game
from storage import StorageBackend, repos
from storage.db import log_failure
from storage.repos import TableRecord

log = logging.getLogger("bot.tables")  # one logger for the tables, as when they were one module


async def load_state(storage: StorageBackend, clock: Clock, guild_id: int, record: TableRecord, spec: GameSpec, *, shared: bool = False) -> Game | None:
    """The snapshot; failing that (or when its version disagrees with the action
    log, which would refuse every next move), a replay of seed + options + log.

    With other processes (``shared``) the log is not compared: they may commit
    between the two reads, and the row's snapshot and version are written in one
    statement anyway, so they always agree with each other."""
    if record.state:
        logged = record.version
        if not shared:
            async with storage.reading(guild_id) as db:
                logged = await repos.last_action_seq(db, record.id)
        if logged == record.version:
            try:
                return spec.game.from_json(record.state)
            except Exception as error:  # expected after a crash mid-write or a bad edit: the log replays it
                log_failure(log, error, "Snapshot of table %s in guild %s is unreadable (%s: %s); replaying its action log instead.",
                            record.id, guild_id, type(error).__name__, _clip(str(error), 120))
        else:
            log.error("Table %s in guild %s says version %s but logged %s actions; replaying its log", record.id, guild_id, record.version, logged)
    if record.seed is None:
        return None
    try:
        async with storage.reading(guild_id) as db:
            log_rows = await repos.actions_for(db, record.id)
        state = spec.game.new(record.players, record.options, seed=record.seed)
        for user, code, _source in log_rows:
            action = spec.game.parse_action(code)
            if action.kind == "leave":
                state.remove_player(user)
            elif action.kind == "replace":
                state.replace_player(user, int(action.arg))
            else:
                state.apply(user, action)
        if state.is_over():
            return None  # a finished game left as "playing": nothing to resume
        read_version = record.version
        record.state = state.to_json()
        record.version = len(log_rows)
        async with storage.transaction(guild_id) as db:
            # Guarded: never write an old replay over a move another process just committed.
            if not await repos.update_table_at_version(db, record.id, read_version, now=clock.now(), state=record.state, version=record.version):
                log.warning("Table %s in guild %s moved on while its log was replayed; not loaded", record.id, guild_id)
                return None
        return state
    except Exception:
        log.exception("Replay of table %s in guild %s failed", record.id, guild_id)
        return None


def _clip(text: str, limit: int) -> str:
    """As ``bot.discord_front.guard.clip``: cut with … (the core has no Discord module to borrow it from)."""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"
