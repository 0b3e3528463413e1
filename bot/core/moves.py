"""Moves in the core: apply one action through the rules and commit it, in the
fixed order that keeps games safe (the caller holds the table's lock):

1. validate and apply through the rules (an illegal move raises a readable
   :class:`RuleError` and changes nothing);
2. commit the new snapshot and the action to storage, guarded by the version the
   move was applied to (of two processes, exactly one commits; the other reloads);
3. return an :class:`Outcome`; what players see follows from it, in a front end,
   after the lock is released.

Nothing here knows how a move is shown.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.words import i18n
from bot.players import ratings
from bot.core import leavers
from bot.core.seats import humans, seated
from bot.core.clock import Clock
from bot.core.errors import SaveFailed, Stale
from bot.core.table import RECENT_LINES, Table
from bot.rules.engine import Action, Event, Game, RuleError
from storage import StorageBackend, repos
from storage.db import StorageError, log_failure
from storage.repos import TableRecord

log = logging.getLogger("bot.tables")  # one logger for the tables, as when they were one module


@dataclass
class Outcome:
    """What one committed move did: its events, who must act now that did not
    before (they get a ping and a fresh turn timer), whether the game ended, who
    must act now, and the table's version after it."""

    events: list[Event]
    newly_current: frozenset[int]
    over: bool
    current: frozenset[int] = frozenset()
    version: int = 0


class Syncing(Protocol):
    """Keeping up with other processes (bot/core/sync.py)."""

    async def sync(self, table: Table) -> bool: ...

    async def reload(self, table: Table) -> None: ...


class Moves:
    """Apply, commit and remove, for one process's tables. Collaborators: the
    storage, the clock, the sync with other processes, ``untrack`` (a finished table
    is forgotten), ``rolled_back`` (told when a save failed and the table went back,
    so a front end that showed the unsaved move shows it again), and ``paused`` (a
    sentence when the table takes no moves now, e.g. its Discord thread is closed)."""

    def __init__(
        self, *, storage: StorageBackend, clock: Clock, sync: Syncing, untrack: Callable[[Table], None],
        rolled_back: Callable[[Table], Any] = lambda table: None, paused: Callable[[Table], str | None] = lambda table: None,
    ) -> None:
        self.storage, self.clock, self.sync = storage, clock, sync
        self.untrack, self.rolled_back, self.paused = untrack, rolled_back, paused

    async def apply(self, table: Table, user: int, action: Action, *, source: str, synced: bool = False, away: bool = False) -> Outcome:
        """Apply and commit one action (caller holds the lock). Raises RuleError
        (nothing changed), Stale (another process moved first: the table was
        reloaded) or SaveFailed (state rolled back). ``away``: the move was not made
        from the player's hand (typed words, a vote message's button); see
        :class:`AwayMove`."""
        if not synced and await self.sync.sync(table):
            raise Stale()  # decided on an older copy: the caller re-decides or says so
        assert table.state is not None
        refusal = self.paused(table)
        if refusal is not None:
            raise RuleError(refusal)
        checkpoint = Checkpoint.of(table)
        away_move = AwayMove.of(table, user) if away else None
        events = table.state.apply(user, action)  # raises RuleError with the state untouched
        outcome = await self.commit(table, [(user, action)], events, checkpoint, source)
        if away_move is not None:
            away_move.committed(table)
        return outcome

    @i18n.for_everyone
    async def remove(self, table: Table, user: int, *, source: str) -> Outcome:
        """A player leaves a running game, or is removed (caller holds the lock)."""
        if await self.sync.sync(table):
            raise Stale()
        assert table.state is not None
        checkpoint = Checkpoint.of(table)
        # Taken out, or replaced by a computer under the house rule (bot/core/leavers.py).
        events, action = leavers.leave_seat(table, user)
        table.record.recent = [*table.record.recent, *leavers.seat_lines(events)]  # committed with the move
        return await self.commit(table, [(user, action)], events, checkpoint, source)

    @i18n.for_everyone
    async def commit(
        self, table: Table, moves: Sequence[tuple[int, Action]], events: list[Event], checkpoint: Checkpoint, source: str,
    ) -> Outcome:
        state = table.state
        assert state is not None
        record = table.record
        now = self.clock.now()
        current = state.current_players() if not state.is_over() else frozenset()
        # Newly current: players who must act now and did not before, and anyone a
        # ``turn`` event names (a burn's "play again", a first player who was busy
        # swapping): both get a ping and a fresh turn timer.
        turned = {e.player for e in events if e.kind == "turn" and e.player is not None}
        newly_current = frozenset((current - checkpoint.current) | (turned & current))
        lines = table.spec.render.event_lines(logged_events(events), table.names())
        record.recent = [*record.recent, *lines][-RECENT_LINES:]
        if source == "player":
            for user, _ in moves:
                record.strikes.pop(user, None)
        if not current:
            record.deadline = None
        elif newly_current or record.deadline is None:
            record.deadline = now + record.timer_seconds
        for event in events:
            if event.kind == "obligation" and "id" in event.data:
                record.obligations[str(event.data["id"])] = [event.player, now + float(event.data.get("seconds", 30))]
            elif event.kind == "obligation_closed" and "id" in event.data:
                record.obligations.pop(str(event.data["id"]), None)
        over = state.is_over()
        if over:
            record.status = "finished"
            record.deadline = None
            record.obligations = {}
        start_version = record.version
        rating_moves: dict[int, int] = {}
        record.version += len(moves)
        record.state = state.to_json()
        # Who the publish will name (and a retry ping): saved with the move, so the
        # publish that follows needs no second transaction of its own (issue 22).
        record.turn_players = humans(sorted(current))
        try:
            # The table lock across processes: only the version this move was applied to.
            writes = [
                repos.table_update_at_version(
                    table.id, start_version, now=now, status=record.status, state=record.state, version=record.version,
                    deadline=record.deadline, strikes=record.strikes, recent=record.recent, obligations=record.obligations,
                    turn_players=record.turn_players,
                ),
                *(repos.action_insert(table.id, start_version + offset, user, action.code(), source, now)
                  for offset, (user, action) in enumerate(moves, start=1)),
            ]
            if not over:
                # One transaction in one call (on SQLite one trip to the database's thread; issue 22).
                if not await self.storage.write(table.guild_id, writes):
                    raise Stale()
            else:  # the results and ratings are read and written with it
                async with self.storage.transaction(table.guild_id) as db:
                    if not await repos.run_writes(db, writes):
                        raise Stale()
                    await repos.record_results(db, table.id, table.spec.key, state.placements(), now)
                    rating_moves = await ratings.record_game(db, table.spec.key, table.id, state.placements(), now)
                    await repos.set_carryover(db, record.channel_id, table.spec.key, state.carry_out(), now)
        except Stale:
            log.info("Table %s in guild %s moved on in another process; reloading it", table.id, table.guild_id)
            table.state = table.spec.game.from_json(checkpoint.state_json)
            table.record = checkpoint.restored(record)
            await self.sync.reload(table)
            raise
        except Exception as error:
            if isinstance(error, StorageError):  # expected (a locked, read-only or full disk): one line
                log_failure(log, error, "Could not save a move at table %s in guild %s (%s); nothing changed and the player was told.",
                            table.id, table.guild_id, error)
            else:
                log.exception("Could not save a move at table %s in guild %s", table.id, table.guild_id)
            table.state = table.spec.game.from_json(checkpoint.state_json)
            table.record = checkpoint.restored(record)
            # A front end may have shown the unsaved move already: it shows the table as it is.
            self.rolled_back(table)
            raise SaveFailed() from error
        for user, _ in moves:
            table.last_moved[user] = record.version
        if over:
            table.rating_moves = rating_moves
            self.untrack(table)
        return Outcome(events, newly_current, over, frozenset(current), record.version)


def logged_events(events: Sequence[Event]) -> list[Event]:
    """The events of a move that the table's log tells (a replay tells the same): its
    plays; whose turn it is shows on the board and in the ping, so a "turn" event is
    kept only when it says something more, e.g. "plays again"."""
    return [e for e in events if e.kind != "turn" or (e.data or {}).get("again")]


class AwayMove:
    """A move made away from the player's hand (typed words, a vote message's
    button) cannot be a second click on that hand, so it does not make the player's
    open hands stale (:func:`is_stale`) unless it changed what only they can see
    (their cards: a wrong name that drew one). Their next click on the hand they were
    told to use (type “Last card”, then pick the Ace's suit) then counts, if still legal."""

    def __init__(self, user: int, before: dict[str, Any], last_moved: int | None) -> None:
        self.user, self.before, self.last_moved = user, before, last_moved

    @classmethod
    def of(cls, table: Table, user: int) -> AwayMove | None:
        state = table.state
        if state is None or user not in state.players:
            return None
        return cls(user, _own_view(state, user), table.last_moved.get(user))

    def committed(self, table: Table) -> None:
        if table.state is None or _own_view(table.state, self.user) != self.before:
            return  # their own view changed: their older hands stay stale
        if self.last_moved is None:
            table.last_moved.pop(self.user, None)
        else:
            table.last_moved[self.user] = self.last_moved


def _own_view(state: Game, user: int) -> dict[str, Any]:
    """What only ``user`` sees: their observation where it differs from a
    spectator's (their cards; not the turn, the pile or anyone's obligations)."""
    public = state.observation(None)
    return {key: value for key, value in state.observation(user).items() if key not in public or public[key] != value}


def is_stale(table: Table, user: int, version: int, action: Action) -> bool:
    """A move chosen at an older ``version``. Other players' moves in
    a simultaneous phase must not spoil it, so it still counts when this player
    has not moved since it was shown and the move is still legal; a double click
    (the player's own move came in between) never counts twice."""
    assert table.state is not None
    if table.last_moved.get(user, -1) > version:
        return True
    try:
        table.state.validate(user, action)  # not only listed moves: a typed amount in range counts too
    except RuleError:
        return True
    return False


@dataclass(frozen=True)
class Checkpoint:
    """What a move restores if its commit fails."""

    current: frozenset[int]
    state_json: str
    record: TableRecord

    @classmethod
    def of(cls, table: Table) -> Checkpoint:
        assert table.state is not None
        return cls(table.state.current_players(), table.record.state or table.state.to_json(), _record_copy(table.record))

    def restored(self, live: TableRecord) -> TableRecord:
        """The record as before the move, keeping what a front end posted meanwhile
        (it runs outside the lock): the board's id and the publish keys."""
        record = _record_copy(self.record)
        record.message_id, record.message_posted_at = live.message_id, live.message_posted_at
        record.publish = live.publish
        return record


def _record_copy(record: TableRecord) -> TableRecord:
    """The record as it was before a move, for a failed commit to put back: a copy of
    the row and of its containers one level down (a move replaces or edits ``recent``,
    ``strikes``, ``obligations``, ``turn_players``; the values inside them are numbers,
    strings or lists replaced whole). ``publish`` is not copied: a record put back
    takes the live one (:meth:`Checkpoint.restored`), as a front end may have posted
    meanwhile. No ``deepcopy``, nor ``copy.copy``'s pickling protocol: this was the
    largest single cost of saving a move (issue 22)."""
    fields = {}
    for name, value in vars(record).items():
        if name == "publish":
            pass
        elif isinstance(value, list):
            value = list(value)
        elif isinstance(value, dict):
            value = {k: dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v for k, v in value.items()}
        fields[name] = value
    copied = object.__new__(type(record))
    vars(copied).update(fields)
    return copied


__all__ = ["AwayMove", "Checkpoint", "Moves", "Outcome", "SaveFailed", "Stale", "is_stale", "logged_events", "seated"]
