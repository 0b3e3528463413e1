"""Timers: the turn timer (the game's default action for whoever let it run out,
and removal after too many in a row) and the obligation timers (a ritual's own
deadline). They fire into the moves (bot/core/moves.py) and report what they did
through ``after_move`` / ``after_leaving``. Timers run only in the process that
holds the guild's shard; computer seats are scheduled whenever timers are armed."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable, Coroutine, Generator
from typing import Any

from bot.words import i18n
from bot.core import computer, leavers
from bot.core.clock import Clock
from bot.core.moves import Checkpoint, Moves, Outcome, SaveFailed, Stale
from bot.core.table import RECENT_LINES, Table
from bot.rules.engine import Action, Event, RuleError
from bot.words.i18n import _, ngettext
from storage import repos

log = logging.getLogger("bot.tables")  # one logger for the tables, as when they were one module

IDLE_STRIKES_TO_REMOVE = 3
#: After a failed save, the turn timer tries again this soon.
RETRY_SECONDS = 10


class Alarm:
    """A coroutine started at a deadline. Until then it is only a timer on the event loop,
    so re-arming a table's turn timer on every move costs no task, and cancelling it
    raises nothing (a sleeping task cancelled at each move left a task, its coroutine and
    a CancelledError with its traceback behind, for the collector). Once due, it runs as a
    task. Like a task, it can be cancelled, asked whether it is done, and awaited."""

    def __init__(self, delay: float, start: Callable[[], Coroutine[Any, Any, None]], name: str) -> None:
        self._start, self._name = start, name
        self.task: asyncio.Task[None] | None = None
        self._handle = asyncio.get_running_loop().call_later(max(0.0, delay), self._fire)

    def _fire(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._start(), name=self._name)

    def cancel(self) -> None:
        self._handle.cancel()
        if self.task is not None:
            self.task.cancel()

    def done(self) -> bool:
        return self.task.done() if self.task is not None else self._handle.cancelled()

    def __await__(self) -> Generator[Any, None, None]:
        """Awaiting it waits for its task, if it started (``TableCore.close``)."""
        if self.task is None:
            return iter(())  # type: ignore[return-value]
        return self.task.__await__()


class Timers:
    """Collaborators: the moves, the clock, ``owns`` (this process holds the guild's
    shard), ``closing`` (the host is shutting down: arm nothing), ``seats`` (what
    computer players move through, bot/core/computer.py), ``close_if_only_computers``
    (after a removal; True if it closed the table) and the two reports."""

    def __init__(
        self, *, moves: Moves, clock: Clock, owns: Callable[[int | None], bool], closing: Callable[[], bool],
        seats: computer.Seats, close_if_only_computers: Callable[[Table, Outcome], Awaitable[bool]],
        after_move: Callable[[Table, Outcome], Awaitable[None]], after_leaving: Callable[[Table, Outcome, bool], Awaitable[None]],
    ) -> None:
        self.moves, self.clock, self.owns, self.closing, self.seats = moves, clock, owns, closing, seats
        self.close_if_only_computers, self.after_move, self.after_leaving = close_if_only_computers, after_move, after_leaving

    def cancel(self, table: Table, *, computer_too: bool = True) -> None:
        current = asyncio.current_task()
        thinking = [table.computer] if computer_too else []
        for task in [table.timer, *thinking, *table.obligation_timers.values()]:
            running = task.task if isinstance(task, Alarm) else task
            if task is not None and running is not current and not task.done():
                task.cancel()
        table.timer = None
        table.obligation_timers = {}

    def arm(self, table: Table) -> None:
        """(Re-)arm the turn timer and obligation timers from the stored deadlines,
        and let the computer seats move."""
        if self.closing():
            return
        # A computer still thinking is left to finish: it sees the position moved on and
        # decides again. (Cancelling it left a task that was not done yet in its place,
        # so ``schedule`` started none and the seat waited for the turn timer.)
        self.cancel(table, computer_too=False)
        record = table.record
        if record.status != "playing" or not self.owns(table.guild_id):
            return  # timers belong to the process that holds the guild's shard
        if record.publish.get("paused"):
            return  # a front end paused it (a closed Discord thread): nothing runs until it reopens
        now = self.clock.now()
        if record.deadline is not None:
            table.timer = Alarm(record.deadline - now, functools.partial(self._turn_timer, table, record.version),
                                f"deckhand-timer-{table.guild_id}-{table.id}")
        for obligation_id, (player, deadline) in record.obligations.items():
            table.obligation_timers[obligation_id] = Alarm(
                float(deadline) - now, functools.partial(self._obligation_timer, table, obligation_id, int(player)),
                f"deckhand-obligation-{table.id}-{obligation_id}",
            )
        computer.schedule(self.seats, table)

    async def _turn_timer(self, table: Table, version: int) -> None:
        """The turn timer ran out (started by its :class:`Alarm` at the deadline)."""
        async with table.lock:
            if await self.moves.sync.sync(table):
                return  # moved in another process; the reload re-armed the timers
            if table.status != "playing" or table.record.version != version or table.state is None:
                return  # someone moved meanwhile; their move re-armed the timer
            outcome = await self.expire_turn(table)
            if outcome is None:
                self.arm(table)  # a failed save set a short retry deadline
                return
            closed = await self.close_if_only_computers(table, outcome)
        await self.after_leaving(table, outcome, closed)

    @i18n.for_everyone
    async def expire_turn(self, table: Table) -> Outcome | None:
        """Apply the game's default action for everyone who let the timer run out;
        remove players after too many expiries in a row. Caller holds the lock."""
        state = table.state
        assert state is not None
        checkpoint = Checkpoint.of(table)
        moves: list[tuple[int, Action]] = []
        events: list[Event] = []
        removals: list[int] = []
        for player in sorted(checkpoint.current):
            if state.is_over() or player not in state.current_players():
                continue
            strikes = table.record.strikes.get(player, 0) + 1
            table.record.strikes[player] = strikes
            if strikes >= IDLE_STRIKES_TO_REMOVE:
                removals.append(player)
                continue
            action = state.timeout_action(player)
            try:
                events.extend(state.apply(player, action))
            except RuleError:
                log.exception("Timeout action %s refused at table %s; removing the player instead", action, table.id)
                removals.append(player)
                continue
            moves.append((player, action))
            events.append(Event("timed_out", player, {"action": action.code()}))
        for player in removals:
            if state.is_over():
                break
            table.record.strikes.pop(player, None)
            events.append(Event("idle_removed", player, {"strikes": IDLE_STRIKES_TO_REMOVE}))
            gone, action = leavers.leave_seat(table, player)  # removed, or replaced by a computer
            events.extend(gone)
            moves.append((player, action))
        if not moves:
            return None
        # Follow-up turns by the same player still deserve a fresh timer.
        try:
            outcome = await self.moves.commit(table, moves, events, checkpoint, "timer")
        except Stale:
            return None  # another process moved first; the reload re-armed the timers
        except SaveFailed:
            # Try again shortly rather than leave the table stuck.
            table.record.deadline = self.clock.now() + RETRY_SECONDS
            return None
        lines = [_("⏰ {player} ran out of time.", player=computer.name(e.player)) for e in events if e.kind == "timed_out"]
        lines += [ngettext("👋 {player} was removed after {n} timeout in a row.", "👋 {player} was removed after {n} timeouts in a row.", IDLE_STRIKES_TO_REMOVE, player=computer.name(e.player)) for e in events if e.kind == "idle_removed"]
        lines += leavers.seat_lines(events)
        if lines:
            table.record.recent = [*table.record.recent, *lines][-RECENT_LINES:]
        if not outcome.over and table.state is not None and table.state.current_players() and not outcome.newly_current:
            # Same players still to act after a timeout (e.g. a forced draw): give them a new turn timer.
            table.record.deadline = self.clock.now() + table.record.timer_seconds
            async with self.moves.storage.transaction(table.guild_id) as db:
                await repos.update_table(db, table.id, now=self.clock.now(), deadline=table.record.deadline, recent=table.record.recent)
        return outcome

    async def _obligation_timer(self, table: Table, obligation_id: str, player: int) -> None:
        """An obligation's own deadline passed (started by its :class:`Alarm`)."""
        async with table.lock:
            if table.status != "playing" or table.state is None or obligation_id not in table.record.obligations:
                return
            action = Action("timeout", arg=obligation_id)
            try:
                outcome = await self.moves.apply(table, player, action, source="timer")
            except Stale:
                return  # reloaded from another process's move, timers re-armed
            except (RuleError, SaveFailed):
                table.record.obligations.pop(obligation_id, None)  # fulfilled or moot meanwhile
                return
        await self.after_move(table, outcome)
