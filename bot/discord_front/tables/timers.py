"""The retry of a publish Discord refused, and the front end's door to the core's
turn and obligation timers (bot/core/timers.py). Timers run only in the process
that holds the guild's shard."""

from __future__ import annotations

import asyncio
import logging

from collections.abc import Awaitable, Callable

from bot.core.table import Table
from bot.core.timers import IDLE_STRIKES_TO_REMOVE, Timers

log = logging.getLogger("bot.tables")  # one logger for the whole package, as when it was one module

__all__ = ["IDLE_STRIKES_TO_REMOVE", "PUBLISH_RETRIES", "PUBLISH_RETRY_SECONDS", "TableTimers"]
PUBLISH_RETRY_SECONDS = 10
PUBLISH_RETRIES = 5


class TableTimers:
    """The publish retry; turn and obligation timers through the core's
    :class:`bot.core.timers.Timers`. Handed the core's timers and ``show(table,
    ping=...)``, the publisher's show task (``Publisher.show``)."""

    def __init__(self, timers: Timers, show: Callable[..., Awaitable[None]]) -> None:
        self.timers, self._show = timers, show

    def schedule_publish_retry(self, table: Table, attempt: int = 1) -> None:
        if table.publish_retry and not table.publish_retry.done():
            return

        async def retry() -> None:
            for n in range(attempt, PUBLISH_RETRIES + 1):
                await asyncio.sleep(PUBLISH_RETRY_SECONDS * n)
                if table.status != "playing" or not table.needs_publish or table.record.publish.get("paused"):
                    return  # shown, closed, or paused for a closed thread (shown when it reopens)
                # Through the show task, outside the lock. Pinged: only those the refused
                # board was to ping (the others were told through their hands already,
                # so no DM is sent twice); after a restart, everyone it names.
                ping = table.unpinged if table.unpinged is not None else table.record.turn_players
                await self._show(table, ping=ping)
                if not table.needs_publish:
                    return

        table.publish_retry = asyncio.create_task(retry(), name=f"deckhand-publish-{table.guild_id}-{table.id}")

    def cancel(self, table: Table, *, publish_retry: bool = True) -> None:
        self.timers.cancel(table)
        task = table.publish_retry
        if publish_retry and task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    def arm(self, table: Table) -> None:
        """(Re-)arm the turn timer and obligation timers from the stored deadlines."""
        self.timers.arm(table)
