"""`python -m bot` (bot/discord_front/run.py) sets the garbage collector for a long-running bot (issue 22): its
thresholds at start, and the heap frozen once the unfinished tables are restored."""

from __future__ import annotations

import asyncio
import gc

import pytest

from bot.discord_front import run as entry


@pytest.fixture
def collector():
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_tune_gc_sets_the_thresholds(collector):
    gc.set_threshold(700, 10, 10)
    entry.tune_gc()
    assert gc.get_threshold() == entry.GC_THRESHOLDS
    assert entry.GC_THRESHOLDS[2] > 10  # full passes rarer than Python's default


class Starting:
    """What freeze_after_restore reads of the bot: its readiness and its restore task."""

    def __init__(self) -> None:
        self.ready = asyncio.Event()
        self.restored = asyncio.Event()
        self.restore_task = asyncio.create_task(self.restored.wait())

    async def wait_until_ready(self) -> None:
        await self.ready.wait()


async def test_the_heap_is_frozen_only_once_the_tables_are_restored(collector):
    gc.unfreeze()
    bot = Starting()
    freezer = asyncio.create_task(entry.freeze_after_restore(bot))
    await asyncio.sleep(0.01)
    assert gc.get_freeze_count() == 0  # not ready yet
    bot.ready.set()
    await asyncio.sleep(0.01)
    assert gc.get_freeze_count() == 0  # ready, tables still coming back
    bot.restored.set()
    await asyncio.wait_for(freezer, 5)
    assert gc.get_freeze_count() > 0
