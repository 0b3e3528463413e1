"""A SimCord world that runs on the real clock, for benches.

SimCord's clock is virtual: it moves only when a test calls ``env.advance_time`` or when
SimCord settles, and the bot's timers (``asyncio.sleep``, ``call_later``) fire only as it
moves. A bench that never settles (bench/load.py) therefore runs with the clock standing
still: the bot's deferrals, retries and turn timers never fire, and neither would
discord.py's waits on a 429. :func:`follow_real_time` ends that for the rest of the run:

- SimCord's clock is made to read the real monotonic clock from now on (its date goes on
  from where the set-up left it, so what the bot stamped during the set-up keeps its age);
- the event loop's own scheduling is given back (SimCord's tracking of every callback and
  timer the bot makes is taken off), so the bot's timers fire on that same clock, as in
  production.

The stand-in's limits read SimCord's clock, so they, the bot's timers and discord.py's
waits all run on real time. Timers the bot armed before the switch stay SimCord's and
never fire (the turn timers of the set-up: a bench's moves re-arm them).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from simcord import _dpy_internals


class RealTimeClock:
    """SimCord's backend clock, reading the real monotonic clock (``elapsed``) and going
    on from the date ``previous`` had reached; or, with ``origin`` (a date and a reading
    of the monotonic clock), reading ``date + (monotonic now - reading)``, so that
    several processes' worlds tell the same time (the machine's monotonic clock is one
    for all its processes): a bench with several bot processes on one token, whose
    shared budgets compare their clocks."""

    def __init__(self, previous: Any, origin: tuple[Any, float] | None = None) -> None:
        self._real = _dpy_internals.real_monotonic
        if origin is None:
            self._epoch = previous.now() - timedelta(seconds=self._real())
        else:
            date, reading = origin
            self._epoch = date - timedelta(seconds=reading)
            if self.now() < previous.now():
                raise ValueError(f"the common clock ({self.now()}) would take this world back from {previous.now()}: choose a later date")

    @property
    def elapsed(self) -> float:
        return self._real()

    def now(self) -> Any:
        return self._epoch + timedelta(seconds=self._real())

    def advance(self, seconds: float) -> None:
        """Real time is not moved by anyone (SimCord's own advances do nothing here)."""


def follow_real_time(env: Any, origin: tuple[Any, float] | None = None) -> None:
    """From now on ``env`` runs on the real clock (see the module's docstring; ``origin``:
    see :class:`RealTimeClock`)."""
    backend = env.backend
    backend.clock = RealTimeClock(backend.clock, origin)
    runtime = env._runtime
    loop = env._loop
    if runtime is None or loop is None:
        return
    loop.create_task = runtime.create_task
    loop.call_soon = runtime.call_soon
    loop.call_later = runtime.call_later
    loop.call_at = runtime.call_at
    loop.call_soon_threadsafe = runtime.call_soon_threadsafe
    loop.run_in_executor = runtime.run_in_executor
