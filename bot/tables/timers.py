"""Timers: the turn timer (the game's default action for whoever let it run out,
and removal after too many in a row), the obligation timers (a ritual's own
deadline), and the retry of a publish Discord refused. Timers run only in the
process that holds the guild's shard."""

from __future__ import annotations

import asyncio
import logging

from bot import computer
from bot.engine import Action, Event, RuleError
from bot.tables.moves import _Checkpoint, _Outcome, _SaveFailed, _Stale
from bot.tables.table import RECENT_LINES, Table, now_ts
from storage import repos

log = logging.getLogger("bot.tables")  # one logger for the whole package, as when it was one module

IDLE_STRIKES_TO_REMOVE = 3
PUBLISH_RETRY_SECONDS = 10
PUBLISH_RETRIES = 5


class TimersMixin:
    """Part of :class:`bot.tables.TableManager`: turn, obligation and publish-retry timers."""

    def _schedule_publish_retry(self, table: Table, attempt: int = 1) -> None:
        if table.publish_retry and not table.publish_retry.done():
            return

        async def retry() -> None:
            for n in range(attempt, PUBLISH_RETRIES + 1):
                await asyncio.sleep(PUBLISH_RETRY_SECONDS * n)
                async with table.lock:
                    if table.status != "playing" or not table.needs_publish or table.record.publish.get("paused"):
                        return  # shown, closed, or paused for a closed thread (shown when it reopens)
                    await self._publish(table, ping=table.record.turn_players)
                    if not table.needs_publish:
                        return

        table.publish_retry = asyncio.create_task(retry(), name=f"deckhand-publish-{table.guild_id}-{table.id}")

    def _cancel_timers(self, table: Table, *, publish_retry: bool = True) -> None:
        current = asyncio.current_task()
        tasks = [table.timer, table.computer, *table.obligation_timers.values()]
        if publish_retry:
            tasks.append(table.publish_retry)
        for task in tasks:
            if task is not None and task is not current and not task.done():
                task.cancel()
        table.timer = None
        table.obligation_timers = {}

    def _arm_timers(self, table: Table) -> None:
        """(Re-)arm the turn timer and obligation timers from the stored deadlines."""
        if self._closing:
            return
        self._cancel_timers(table, publish_retry=False)
        record = table.record
        if record.status != "playing" or not self.owns(table.guild_id):
            return  # timers belong to the process that holds the guild's shard
        if record.publish.get("paused"):
            return  # its thread is closed (bot/tables/threads.py): nothing runs until it reopens
        if record.deadline is not None:
            table.timer = asyncio.create_task(self._turn_timer(table, record.version, record.deadline), name=f"deckhand-timer-{table.guild_id}-{table.id}")
        for obligation_id, (player, deadline) in record.obligations.items():
            table.obligation_timers[obligation_id] = asyncio.create_task(
                self._obligation_timer(table, obligation_id, int(player), float(deadline)), name=f"deckhand-obligation-{table.id}-{obligation_id}"
            )
        computer.schedule(self, table)

    async def _turn_timer(self, table: Table, version: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - now_ts()))
        async with table.lock:
            if await self._sync(table):
                return  # moved in another process; the reload re-armed the timers
            if table.status != "playing" or table.record.version != version or table.state is None:
                return  # someone moved meanwhile; their move re-armed the timer
            outcome = await self._expire_turn(table)
            if outcome is None:
                self._arm_timers(table)  # a failed save set a short retry deadline
                return
            closed = await self._close_if_only_computers(table, outcome)
        await self._after_leaving(table, outcome, closed)

    async def _expire_turn(self, table: Table) -> _Outcome | None:
        """Apply the game's default action for everyone who let the timer run out;
        remove players after too many expiries in a row. Caller holds the lock."""
        state = table.state
        assert state is not None
        checkpoint = _Checkpoint.of(table)
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
            gone, action = computer.leave_seat(table, player)  # removed, or replaced by a computer
            events.extend(gone)
            moves.append((player, action))
        if not moves:
            return None
        # Follow-up turns by the same player still deserve a fresh timer.
        try:
            outcome = await self._commit(table, moves, events, checkpoint, "timer")
        except _Stale:
            return None  # another process moved first; the reload re-armed the timers
        except _SaveFailed:
            # Try again shortly rather than leave the table stuck.
            table.record.deadline = now_ts() + PUBLISH_RETRY_SECONDS
            return None
        lines = [f"⏰ {computer.name(e.player)} ran out of time." for e in events if e.kind == "timed_out"]
        lines += [f"👋 {computer.name(e.player)} was removed after {IDLE_STRIKES_TO_REMOVE} timeouts in a row." for e in events if e.kind == "idle_removed"]
        lines += computer.seat_lines(events)
        if lines:
            table.record.recent = [*table.record.recent, *lines][-RECENT_LINES:]
        if not outcome.over and table.state is not None and table.state.current_players() and not outcome.newly_current:
            # Same players still to act after a timeout (e.g. a forced draw): give them a new turn timer.
            table.record.deadline = now_ts() + table.record.timer_seconds
            async with self.storage.transaction(table.guild_id) as db:
                await repos.update_table(db, table.id, now=now_ts(), deadline=table.record.deadline, recent=table.record.recent)
        return outcome

    async def _obligation_timer(self, table: Table, obligation_id: str, player: int, deadline: float) -> None:
        await asyncio.sleep(max(0.0, deadline - now_ts()))
        async with table.lock:
            if table.status != "playing" or table.state is None or obligation_id not in table.record.obligations:
                return
            action = Action("timeout", arg=obligation_id)
            try:
                outcome = await self._apply(table, player, action, source="timer")
            except _Stale:
                return  # reloaded from another process's move, timers re-armed
            except (RuleError, _SaveFailed):
                table.record.obligations.pop(obligation_id, None)  # fulfilled or moot meanwhile
                return
        await self._after_move(table, outcome)
