"""Bounded queues, newest wins: at most one edit of a message in flight and one waiting.

A message the bot keeps up to date (a lobby, a hand in a player's DMs) is edited
through the bot's token, and Discord lets a channel take 5 writes in 5 s: edits asked
faster than that used to wait in discord.py's line for the channel's bucket, each
carrying the state of its moment, without bound (a member typing ``/join`` and
``/leave`` ten times a second queued hundreds, and the lobby was minutes behind).

:class:`Latest` keeps, per message, one edit in flight and one waiting. An edit asked
while another waits replaces it (the waiting one was older: it is never sent), and its
asker waits for the replacement, which shows at least as new a state. So nothing queues
without bound, and once the asking stops the message ends on the newest state.

A table's board is bounded the same way by its showing (``Publisher.show``: one round
in flight, the requests meanwhile merged into one waiting round).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any


@dataclass(eq=False)
class _Slot:
    running: asyncio.Task[Any] | None = None  # the edit in flight
    waiting: asyncio.Task[Any] | None = None  # the edit waiting for it (started once that one ends)
    make: Callable[[], Awaitable[Any]] | None = None  # what the waiting edit will send: the newest asked


@dataclass
class LatestCounts:
    asked: int = 0
    sent: int = 0  # edits made (each awaited to its end)
    replaced: int = 0  # waiting edits a newer one replaced (never sent)


class Latest:
    """Per key (a message), one edit in flight and one waiting, the newest (see the module)."""

    def __init__(self) -> None:
        self._slots: dict[Hashable, _Slot] = {}
        self.counts = LatestCounts()

    async def edit(self, key: Hashable, make: Callable[[], Awaitable[Any]]) -> Any:
        """Run ``make()`` (an edit of ``key``'s message) after the one in flight, unless a
        newer edit replaces it first; return what the edit that ran for it returned (the
        newest one's), or raise what it raised."""
        self.counts.asked += 1
        slot = self._slots.get(key)
        if slot is None:
            slot = self._slots[key] = _Slot()
        if slot.waiting is not None:
            self.counts.replaced += 1  # the waiting edit is older: this one goes instead
        else:
            # Its own task (the asker's context, so its request's worth and language, goes
            # with it), which waits for the edit in flight and then sends the newest asked.
            slot.waiting = asyncio.create_task(self._round(key, slot, slot.running), name="deckhand-latest-edit")
        slot.make = make
        task = slot.waiting
        # Waiting on the task, not in it: an asker cancelled leaves the edit to the others.
        await asyncio.wait((task,))
        return task.result()

    async def _round(self, key: Hashable, slot: _Slot, previous: asyncio.Task[Any] | None) -> Any:
        me = asyncio.current_task()
        try:
            if previous is not None:
                await asyncio.wait((previous,))
            slot.running, slot.waiting = me, None
            make, slot.make = slot.make, None
            assert make is not None
            try:
                return await make()
            finally:
                self.counts.sent += 1
        finally:
            if slot.running is me:
                slot.running = None
            if slot.running is None and slot.waiting is None and self._slots.get(key) is slot:
                del self._slots[key]

    def waiting(self, key: Hashable) -> int:
        """Edits of ``key`` waiting (0 or 1)."""
        slot = self._slots.get(key)
        return 1 if slot is not None and slot.waiting is not None else 0

    def in_flight(self, key: Hashable) -> int:
        slot = self._slots.get(key)
        return 1 if slot is not None and slot.running is not None else 0

    @property
    def messages(self) -> int:
        """Messages with an edit in flight or waiting."""
        return len(self._slots)
