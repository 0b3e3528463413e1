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
    waiting: asyncio.Future[Any] | None = None  # what the waiting edit's askers await
    make: Callable[[], Awaitable[Any]] | None = None  # the waiting edit (the newest asked)
    driver: asyncio.Task[None] | None = None  # sends the edits, one at a time
    in_flight: bool = False


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
        self._tasks: set[asyncio.Task[None]] = set()

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
            slot.waiting = asyncio.get_running_loop().create_future()
            slot.waiting.add_done_callback(_retrieved)  # an asker cancelled meanwhile leaves no warning
        slot.make = make
        waiting = slot.waiting
        if slot.driver is None:
            # The first asker's context (its request's worth, its language) goes with the task.
            slot.driver = asyncio.create_task(self._drive(key, slot), name="deckhand-latest-edit")
            self._tasks.add(slot.driver)
            slot.driver.add_done_callback(self._tasks.discard)
        return await asyncio.shield(waiting)

    async def _drive(self, key: Hashable, slot: _Slot) -> None:
        try:
            while slot.waiting is not None and slot.make is not None:
                waiting, make = slot.waiting, slot.make
                slot.waiting = slot.make = None
                slot.in_flight = True
                try:
                    result = await make()
                except asyncio.CancelledError:
                    if not waiting.done():
                        waiting.cancel()
                    raise
                except Exception as error:  # the askers get it
                    if not waiting.done():
                        waiting.set_exception(error)
                else:
                    if not waiting.done():
                        waiting.set_result(result)
                finally:
                    slot.in_flight = False
                    self.counts.sent += 1
        finally:
            if slot.waiting is not None and not slot.waiting.done():
                slot.waiting.cancel()
            if self._slots.get(key) is slot:
                del self._slots[key]

    def waiting(self, key: Hashable) -> int:
        """Edits of ``key`` waiting (0 or 1)."""
        slot = self._slots.get(key)
        return 1 if slot is not None and slot.waiting is not None else 0

    def in_flight(self, key: Hashable) -> int:
        slot = self._slots.get(key)
        return 1 if slot is not None and slot.in_flight else 0

    @property
    def messages(self) -> int:
        """Messages with an edit in flight or waiting."""
        return len(self._slots)


def _retrieved(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()
