"""bot.core.timers.Alarm: a coroutine started at its deadline, a plain loop timer until then."""

from __future__ import annotations

import asyncio

from bot.core.timers import Alarm


async def test_it_starts_its_coroutine_when_due_and_can_be_awaited():
    ran = []

    async def ring():
        ran.append(asyncio.current_task())

    alarm = Alarm(0.01, ring, "test-alarm")
    assert alarm.task is None and not alarm.done() and not ran
    await asyncio.sleep(0.05)
    await alarm
    assert ran == [alarm.task] and alarm.done()


async def test_cancelled_before_it_is_due_it_never_runs_and_made_no_task():
    ran = []

    async def ring():
        ran.append(1)

    alarm = Alarm(0.01, ring, "test-alarm")
    alarm.cancel()
    assert alarm.done() and alarm.task is None
    await alarm  # nothing to wait for
    await asyncio.sleep(0.05)
    assert not ran and alarm.task is None


async def test_cancelled_while_running_its_task_is_cancelled():
    started = asyncio.Event()

    async def ring():
        started.set()
        await asyncio.sleep(10)

    alarm = Alarm(0, ring, "test-alarm")
    await started.wait()
    alarm.cancel()
    try:
        await alarm
    except asyncio.CancelledError:
        pass
    assert alarm.done() and alarm.task.cancelled()
