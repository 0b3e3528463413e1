"""The core's clock: an object with ``now() -> float`` (unix seconds), passed in.

The Discord front end passes one that reads ``discord.utils.utcnow()`` (the clock
discord.py itself uses, and the one SimCord's ``advance_time`` moves); a terminal uses
:class:`SystemClock`; a test passes its own fake. Timers still sleep in real time:
a deadline is compared with this clock when it fires.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Unix time in seconds."""


class SystemClock:
    """The machine's clock."""

    def now(self) -> float:
        return time.time()
