"""A request rate shared by several processes through PostgreSQL.

Several Deckhand processes on one bot token share Discord's global budget (50 requests a
second unless Discord raised it). Each process asks one row of this database before a
request goes out. The row holds GCRA's one number (the generic cell rate algorithm: a
leaky bucket written as the *theoretical arrival time* ``tat``): a request may go when
``max(tat, now) + interval - burst * interval <= now``, and then moves ``tat`` to
``max(tat, now) + interval``. The test and the move are one ``INSERT ... ON CONFLICT DO
UPDATE ... WHERE``, under the row's lock, so two processes never take the same room,
and a refusal says how long until there is room, in the same round trip.

Time is the callers' clock in seconds since the epoch, which must agree between the
processes (machines kept by NTP agree within milliseconds, far inside the burst's
slack). The table is ``UNLOGGED``: a budget needs no crash safety, and writes to it
cost no WAL. If the database cannot be asked (down, slow), the process counts alone
(the ``fallback`` given by the caller: the pacer's ``LocalBudget``) and says so once in
the log.

**Leases.** The pacer asks once for all the requests waiting (:meth:`SharedRate.lease`),
and one look may take turns a little into the future: turn ``k`` of a look (from 1) is
the one GCRA gives at ``base + k * interval - burst * interval`` (``base`` the row's
``max(tat, now)``), and a look takes every turn whose time is within ``ahead`` seconds
(the pacer's ``LEASE_SECONDS``), never more than the requests it has waiting. ``tat``
moves past the turns taken as for any turn, so no other process takes the same room and
the global rate stays exact; the process releases each turn at its own time (the look
answers how many seconds from now each may go). A look without a lease could take at
most the burst (a fifth of a second's budget): when a process was saturated and each
look waited a turn of its busy event loop (half a second), the pace fell to a fraction
of the budget exactly when play was heaviest (bench/README.md). With a lease a look
takes up to ``ahead`` seconds of the budget, so the pace holds while a look takes less
than that. Turns a process took and could not use (its requests superseded and none
waiting, the process stopped) are lost to the others: at most ``ahead`` seconds of the
budget, now and then.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)

TABLE = "deckhand.request_budget"
CREATE = f"CREATE SCHEMA IF NOT EXISTS deckhand; CREATE UNLOGGED TABLE IF NOT EXISTS {TABLE} (name TEXT PRIMARY KEY, tat DOUBLE PRECISION NOT NULL)"
# $1 name, $2 now, $3 interval, $4 burst * interval. One row: 0.0 (taken) or the seconds until there is room.
TAKE = f"""
WITH taken AS (
    INSERT INTO {TABLE} AS b (name, tat) VALUES ($1, $2::float8 + $3::float8)
    ON CONFLICT (name) DO UPDATE SET tat = GREATEST(b.tat, $2::float8) + $3::float8
        WHERE GREATEST(b.tat, $2::float8) + $3::float8 - $4::float8 <= $2::float8
    RETURNING 0.0::float8 AS wait
)
SELECT wait FROM taken
UNION ALL
SELECT b.tat + $3::float8 - $4::float8 - $2::float8 FROM {TABLE} b WHERE b.name = $1 AND NOT EXISTS (SELECT 1 FROM taken)
"""
# $1 name, $2 now, $3 interval, $4 burst * interval, $5 how many turns are asked for, $6 how far ahead (seconds) they
# may be taken (0: only the room there is now). One row: (taken; the row's max(tat, now) before them, whence each
# turn's time; the seconds until the first turn not taken comes within $6). The row is locked first (FOR UPDATE: under
# READ COMMITTED the latest version, once another process's update has committed), so the room counted is the room
# taken. A name's first look makes its row (full: nothing taken yet) and takes nothing; the next look finds it.
LEASE = f"""
WITH made AS (
    INSERT INTO {TABLE} (name, tat) VALUES ($1, $2::float8) ON CONFLICT (name) DO NOTHING
), counted AS (
    SELECT base, LEAST($5::int, GREATEST(0, floor(($2::float8 + $6::float8 + $4::float8 - base) / $3::float8 + 1e-9)))::int AS n
    FROM (SELECT GREATEST(tat, $2::float8) AS base FROM {TABLE} WHERE name = $1 FOR UPDATE) AS was
), moved AS (
    UPDATE {TABLE} b SET tat = counted.base + counted.n * $3::float8 FROM counted WHERE b.name = $1 AND counted.n > 0
    RETURNING counted.n
)
SELECT COALESCE((SELECT n FROM moved), 0) AS taken, (SELECT base FROM counted) AS base,
       (SELECT base + (n + 1) * $3::float8 - $4::float8 - $2::float8 - $6::float8 FROM counted) AS wait
"""
# $1 name, $2 the time before which nobody may send, $3 interval, $4 burst * interval.
PAUSE = f"UPDATE {TABLE} SET tat = GREATEST(tat, $2::float8 + $4::float8 - $3::float8) WHERE name = $1"


class Fallback(Protocol):
    async def try_take(self) -> float: ...

    async def lease(self, count: int, ahead: float) -> tuple[list[float], float]: ...

    async def pause(self, seconds: float) -> None: ...


def budget_name(token: str) -> str:
    """The row of one bot token: a digest, never the token itself."""
    return "discord:" + hashlib.sha256(token.encode()).hexdigest()[:16]


class SharedRate:
    """``rate`` requests a second, ``burst`` at most at once, for every process asking
    the row ``name`` of the database ``pool_of()`` reaches (``limit``: the limit they
    keep under, for reports)."""

    def __init__(self, pool_of: Callable[[], Awaitable[Any]], name: str, limit: float, rate: float, burst: float, *,
                 clock: Callable[[], float], fallback: Fallback) -> None:
        self.limit = limit
        self.rate = rate
        self.burst = burst
        self.name = name
        self._pool_of = pool_of
        self._clock = clock
        self._fallback = fallback
        self._ready = False
        self._failing = False

    @property
    def interval(self) -> float:
        return 1.0 / self.rate

    async def _pool(self) -> Any:
        pool = await self._pool_of()
        if not self._ready:
            try:
                await pool.execute(CREATE)
            except Exception as error:  # two processes creating it at once: one of them loses the race
                if "already exists" not in str(error) and "duplicate key" not in str(error):
                    raise
            self._ready = True
        return pool

    async def try_take(self) -> float:
        try:
            pool = await self._pool()
            wait = await pool.fetchval(TAKE, self.name, self._clock(), self.interval, self.burst * self.interval)
        except Exception as error:
            return await self._alone(error)
        if self._failing:
            self._failing = False
            log.warning("The shared request budget in PostgreSQL answers again: the processes on this bot token count together again")
        return max(0.0, float(wait or 0.0))

    async def lease(self, count: int, ahead: float) -> tuple[list[float], float]:
        """Turns for up to ``count`` requests, in one round trip: every turn the budget
        gives within ``ahead`` seconds (0: only those it gives now). Answers (the seconds
        from now when each turn taken may go, soonest first; if fewer than ``count``, the
        seconds until asking again finds another turn)."""
        try:
            pool = await self._pool()
            row = await pool.fetchrow(LEASE, self.name, self._clock(), self.interval, self.burst * self.interval, count, ahead)
        except Exception as error:
            await self._alone(error, take=False)
            return await self._fallback.lease(count, ahead)
        if self._failing:
            self._failing = False
            log.warning("The shared request budget in PostgreSQL answers again: the processes on this bot token count together again")
        # From now, not from when the look was asked: the round trip (a busy event loop)
        # may have taken a while, and a turn must not go before its time.
        now = self._clock()
        taken, base = int(row["taken"]), float(row["base"] or 0.0)  # (no base: the row was just made, nothing taken)
        first = base - self.burst * self.interval - now
        times = [max(0.0, first + k * self.interval) for k in range(1, taken + 1)]
        return times, (0.0 if taken >= count else max(1e-3, float(row["wait"] or 0.0)))

    async def pause(self, seconds: float) -> None:
        await self._fallback.pause(seconds)
        try:
            pool = await self._pool()
            await pool.execute(PAUSE, self.name, self._clock() + seconds, self.interval, self.burst * self.interval)
        except Exception as error:
            await self._alone(error)

    async def _alone(self, error: Exception, *, take: bool = True) -> float:
        if not self._failing:
            self._failing = True
            log.warning("Could not ask the shared request budget in PostgreSQL (%s: %s); this process paces its requests alone "
                        "until it answers", type(error).__name__, error)
        return await self._fallback.try_take() if take else 0.0

    async def close(self) -> None:
        pass
