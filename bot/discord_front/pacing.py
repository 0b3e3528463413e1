"""The bot's requests to Discord, paced to the global budget and chosen by worth.

Discord lets a bot token make ``DISCORD_REQUESTS_PER_SECOND`` requests a second (50
unless Discord raised it), counted over every shard and process on the token;
interaction routes (a click's answer, a hand edited through its token) are exempt.
discord.py follows each route's bucket from Discord's headers but meets the global
limit only through a 429, and its requests waiting on one retry together after the
same short ``retry_after``: a busy bot then spends a request's five tries in a tenth of
a second and makes thousands of invalid requests (10,000 in 10 minutes and Discord
cuts the IP off for an hour).

:class:`Pacer` is handed to discord.py as ``Client(http_trace=pacer.trace_config)``:
aiohttp awaits its callbacks before every request goes out (each try of discord.py's,
every shard's, since they share one HTTP client) and after each answer. Before: a
request made with the bot's token waits until the budget has room for it. After: the
answer is counted (429s, invalid requests), and a global 429 stops every request for
its ``retry_after``. A board answered 429 is not left to discord.py's sleep inside the
table's showing (its next players' hands would wait behind it): it gives way
(:class:`Superseded`) and waits the limit out in line, like any board.

What waits is chosen by worth, set by the code that makes the request (a context
variable, so it follows the request through discord.py):

- ``URGENT`` (anything not marked): what a click or a command waits for (a DM hand
  shown, a thread opened, a lobby edited). Goes first.
- ``NOTICE``: what a table's showing sends besides its board (a DM hand telling a player
  it is their turn, the previous DM cut, the old board deleted). Never waits behind a
  board. A table's showings are made one at a time and merged (``Publisher.show``), so
  a player's notices waiting for the budget merge into the next showing.
- ``BOARD``: a table's board. Waits behind the rest, in the order the tables asked
  (:func:`board`). When a newer showing of the same table is waiting
  (:meth:`Pacer.newer`), a board still waiting for the budget gives way
  (:class:`Superseded`: nothing was sent) and the newer one keeps its place in line: a
  table's board shows its latest state, and the edits skipped are counted as merged.

Interaction routes never wait here at all (they carry no ``Authorization`` header).

The budget is counted by a :class:`Budget`: in one process aiolimiter's leaky bucket
(:class:`LocalBudget`); several processes on one token share a row in PostgreSQL
(``storage/pg_rate.py``). Either sends at the limit's pace, and after a quiet spell at
most a fifth of it at once (10 for 50: :func:`pace_for`), so Discord's bucket of a
second's worth never runs near empty. One task (the pump) hands out turns in line
order: it asks the budget once for every request waiting, and one look may take turns a
little ahead (a lease, up to ``LEASE_SECONDS``; on PostgreSQL each look waits a turn of
a busy event loop, and without it the pace fell to a look's room a look), which it
releases each at its own time, to whichever request is first in line then. Each
waiting request sleeps (``asyncio.sleep``, on the event loop's clock like the bot's
other timers) until the pump wakes it.

:meth:`Pacer.start_reports` logs what was sent, waited and merged, and the 429s, every
``REQUEST_LOG_SECONDS`` (written by the first answer after that long: no timer runs for
it); a warning comes well before the invalid-request ban could.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import contextvars
import itertools
import logging
import math
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import aiohttp
from aiolimiter import AsyncLimiter

log = logging.getLogger(__name__)

URGENT, NOTICE, BOARD = 0, 1, 2
WORTH_NAMES = {URGENT: "urgent", NOTICE: "notice", BOARD: "board"}
#: Discord's edge cuts off an IP after this many invalid requests (401, 403, 429) ...
INVALID_BAN = 10_000
#: ... within this many seconds.
INVALID_WINDOW = 600.0
#: The owner is warned at these counts within the window (well before the ban), once per crossing.
INVALID_WARN = (1_000, 5_000)
#: Positions in line kept for boards that gave way, waiting for their table's next showing.
KEPT_PLACES = 4096
#: The longest a request sleeps before it looks again (the pump wakes it sooner).
LONGEST_WAIT = 3600.0
#: One look at the budget may take turns up to this many seconds ahead (a lease), never
#: more than the requests waiting; the pacer releases each at its time. A look at a budget
#: in PostgreSQL waits a turn of the event loop, half a second in a saturated process: the
#: pace holds while a look takes less than this.
LEASE_SECONDS = 0.5
#: A leased turn not used within this long after its time is dropped (unused, it would
#: add to a later burst; with the burst a fifth of a second's budget, Discord's bucket of
#: a second's worth keeps room for it).
LEASE_KEPT = 0.5


class Superseded(Exception):
    """A board gave way, nothing sent: to a newer showing of its table (which shows the
    table as it is then), or, answered 429, to wait the limit out in line."""


@dataclass(frozen=True)
class Worth:
    kind: int = URGENT
    key: Any = None  # a board's table: a newer showing of it supersedes the waiting one
    stale: Callable[[], bool] | None = None  # whether a newer showing of that table is waiting


_WORTH: contextvars.ContextVar[Worth] = contextvars.ContextVar("deckhand_request_worth", default=Worth())


class _Scope:
    """Requests made inside a ``with`` are of ``worth`` (reusable, one ``with`` at a time)."""

    def __init__(self, worth: Worth) -> None:
        self.worth = worth
        self._token: contextvars.Token[Worth] | None = None

    def __enter__(self) -> None:
        self._token = _WORTH.set(self.worth)

    def __exit__(self, *_exc: object) -> None:
        if self._token is not None:
            _WORTH.reset(self._token)
            self._token = None


def worth(kind: int) -> _Scope:
    """``with worth(NOTICE):``: requests made inside are of this worth."""
    return _Scope(Worth(kind))


def mark_task(kind: int) -> None:
    """The rest of this task's requests are of this worth (a task's own context)."""
    _WORTH.set(Worth(kind))


def board(key: Any, stale: Callable[[], bool] | None = None) -> _Scope:
    """``with board(key, stale):``: the request made inside is ``key``'s board: it waits
    behind the rest and, while ``stale()`` says a newer showing of the same table is
    waiting, gives way to it (raises :class:`Superseded`, nothing sent) rather than
    wait longer."""
    return _Scope(Worth(BOARD, key, stale))


class Budget(Protocol):
    """What counts the requests against Discord's global limit."""

    limit: float  # Discord's requests a second

    async def try_take(self) -> float:
        """Take one request's room now (0.0), or say how many seconds to wait before asking again."""
        ...

    async def lease(self, count: int, ahead: float) -> tuple[list[float], float]:
        """Take turns for up to ``count`` requests in one look, each at its own time, up to
        ``ahead`` seconds from now (a budget may give only the room there is now): (the
        seconds from now when each turn taken may go, soonest first; if fewer than
        ``count``, how many seconds to wait before asking again)."""
        ...

    async def pause(self, seconds: float) -> None:
        """Discord answered a global 429: nobody on the token sends for ``seconds``."""
        ...

    async def close(self) -> None: ...


#: After a quiet spell, at most this share of a second's limit goes out at once (then
#: the limit's own pace): Discord's bucket, a second's worth, is never near empty, so
#: the network's jitter (requests sent apart arriving together) has room.
BURST_SHARE = 0.2


def pace_for(limit: float) -> tuple[float, float]:
    """(requests a second, requests at most at once) for Discord's ``limit`` a second:
    50 and 10 for 50."""
    return limit, max(2.0, limit * BURST_SHARE)


class LocalBudget:
    """The budget of one process: aiolimiter's leaky bucket counts what was sent, at
    :func:`pace_for` the ``limit``."""

    def __init__(self, limit: float, *, clock: Callable[[], float] | None = None) -> None:
        self.limit = limit
        self.rate, self.burst = pace_for(limit)
        self._limiter = AsyncLimiter(self.burst, self.burst / self.rate)
        self._clock = clock
        self._paused_until = 0.0

    def _now(self) -> float:
        return self._clock() if self._clock is not None else asyncio.get_running_loop().time()

    async def try_take(self) -> float:
        paused = self._paused_until - self._now()
        if paused > 0:
            return paused
        if self._limiter.has_capacity():
            await self._limiter.acquire()  # at once: there is room
            return 0.0
        # A quarter of a request's interval: the bucket drains continuously, so the next
        # look finds room at most that late (and the bucket's room makes up for it).
        return 0.25 / self.rate

    async def lease(self, count: int, ahead: float) -> tuple[list[float], float]:
        """The room there is now (a look costs nothing here: no turn is taken ahead)."""
        taken = 0
        while taken < count:
            wait = await self.try_take()
            if wait > 0:
                return [0.0] * taken, wait
            taken += 1
        return [0.0] * taken, 0.0

    async def pause(self, seconds: float) -> None:
        self._paused_until = max(self._paused_until, self._now() + seconds)

    async def close(self) -> None:
        pass


@dataclass(eq=False)
class _Ticket:
    """A request waiting for the budget."""

    worth: int
    order: int
    key: Any
    stale: Callable[[], bool] | None
    sleeper: asyncio.Task[None] | None = None
    granted: bool = False
    superseded: bool = False

    @property
    def place(self) -> tuple[int, int]:
        return (self.worth, self.order)


@dataclass
class Counts:
    """What the pacer saw since the last report (``totals`` since the start)."""

    sent: int = 0  # bot-token requests that went out (each try counts)
    exempt: int = 0  # interaction routes (not paced)
    waited: int = 0  # bot-token requests that waited for the budget
    waited_seconds: float = 0.0
    longest_wait: float = 0.0
    merged: int = 0  # board edits skipped: a newer showing of the table replaced them
    global_429: int = 0
    route_429: int = 0
    shared_429: int = 0
    server_errors: int = 0
    invalid: int = 0  # 401, 403, 429 (not the shared scope's)
    by_worth: dict[int, int] = field(default_factory=dict)  # waited, by worth
    looks: int = 0  # the pump's looks at the budget
    granted: int = 0  # turns those looks took (a lease: some for later)

    def add(self, other: Counts) -> None:
        for name in ("sent", "exempt", "waited", "waited_seconds", "merged", "global_429", "route_429", "shared_429", "server_errors", "invalid",
                     "looks", "granted"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.longest_wait = max(self.longest_wait, other.longest_wait)
        for kind, n in other.by_worth.items():
            self.by_worth[kind] = self.by_worth.get(kind, 0) + n


class Pacer:
    """Bot-token requests at most at the budget, by worth; see the module's docstring."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        #: False: requests pass unpaced (discord.py's own handling alone), still counted.
        self.enabled = True
        self.trace_config = aiohttp.TraceConfig()
        self.trace_config.on_request_start.append(self._before_request)
        self.trace_config.on_request_end.append(self._after_answer)
        self._line: list[_Ticket] = []
        self._boards: dict[Any, _Ticket] = {}  # the board waiting in line, by its table
        self._order = itertools.count()
        self._kept: OrderedDict[Any, int] = OrderedDict()
        #: Boards whose route Discord answered 429: not before this time (loop clock).
        self._not_before: dict[Any, float] = {}
        self._paused_until = 0.0
        self.counts = Counts()
        self._totals = Counts()
        self._invalid_times: deque[float] = deque()
        self._warned_at = 0
        self._report_every = 0.0
        self._reported_at = 0.0
        self._pump: asyncio.Task[None] | None = None
        self._pump_sleep: asyncio.Task[None] | None = None
        self._global_said_at = -math.inf
        #: Looks at the budget made by a request itself (the line empty) and not answered yet.
        self._looking = 0
        #: Turns the pump's looks took and not yet given (loop clock, soonest first): a lease.
        self._turns: list[float] = []
        #: The pump's look at the budget while it is out (the pump releases turns meanwhile).
        self._look: asyncio.Task[None] | None = None
        #: When the pump may look again (the budget said when it has another turn).
        self._look_after = 0.0

    # ------------------------------------------------------------------ the hooks

    async def _before_request(self, _session: Any, _context: Any, params: aiohttp.TraceRequestStartParams) -> None:
        if "Authorization" not in params.headers:
            self.counts.exempt += 1  # an interaction's callback or token route: exempt from the global limit
            return
        if self.enabled:
            await self.admit(_WORTH.get())
        self.counts.sent += 1

    async def _after_answer(self, _session: Any, _context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        self._maybe_report()
        status = params.response.status
        headers = params.response.headers
        if status >= 500:
            self.counts.server_errors += 1
        if status == 429:
            scope = headers.get("X-RateLimit-Scope", "")
            if headers.get("X-RateLimit-Global") or scope == "global":
                self.counts.global_429 += 1
                retry_after = _seconds(headers.get("Retry-After")) or _seconds(headers.get("X-RateLimit-Reset-After")) or 1.0
                if self._now() - self._global_said_at >= 60:  # once a minute at most; the report counts them all
                    self._global_said_at = self._now()
                    log.warning("Discord's global rate limit was hit (another program on this bot's token, or "
                                "DISCORD_REQUESTS_PER_SECOND above what Discord allows it): every request waits %.1f s", retry_after)
                await self.budget.pause(retry_after)
                self._paused_until = max(self._paused_until, self._now() + retry_after)
                self._turns.clear()  # turns leased before it: Discord said the token is over
            elif scope == "shared":
                self.counts.shared_429 += 1
            else:
                self.counts.route_429 += 1
        if status in (401, 403) or (status == 429 and headers.get("X-RateLimit-Scope") != "shared"):
            self._invalid()
        worth = _WORTH.get()
        if status == 429 and worth.kind == BOARD and worth.stale is not None and "Authorization" in params.headers and self.enabled:
            # Rather than discord.py sleeping out a 429 inside the table's showing (its
            # next players' hands waiting behind it), the board gives way and waits it
            # out in line, where a newer showing can replace it: a global 429 paused
            # everyone above; a limit on the board's route (a bucket the headers did not
            # announce, the old-message quota) holds that board alone.
            if not self._paused():
                retry_after = _seconds(headers.get("X-RateLimit-Reset-After")) or _seconds(headers.get("Retry-After")) or 1.0
                self._not_before[worth.key] = self._now() + retry_after
            self._give_way(worth.key, next(self._order), merged=False)
            raise Superseded

    # ------------------------------------------------------------------ waiting

    async def admit(self, worth: Worth) -> None:
        """Return when a bot-token request of this worth may go out (raises
        :class:`Superseded` for a board a newer showing replaced)."""
        loop = asyncio.get_running_loop()
        began = loop.time()
        limited = self._not_before.get(worth.key) if worth.key is not None else None
        if limited is not None and limited <= began:
            del self._not_before[worth.key]
            limited = None
        if not self._line and began >= self._paused_until and limited is None:
            if self._due_turn(began):
                return  # a turn leased for a request that no longer needs it
            if not self._looking and not self._turns and self._look is None:
                # Nothing waits: the request looks itself. While that look is out (a round
                # trip to PostgreSQL may take a while), the next requests wait in line and
                # the pump asks once for all of them: requests must not each make their own
                # look then.
                self._looking += 1
                try:
                    room = await self.budget.try_take()
                finally:
                    self._looking -= 1
                if room <= 0:
                    return
        if worth.kind == BOARD and worth.stale is not None and worth.stale():
            self._give_way(worth.key, next(self._order))
            raise Superseded
        order = self._kept.pop(worth.key, None) if worth.key is not None else None
        ticket = _Ticket(worth.kind, next(self._order) if order is None else order, worth.key, worth.stale)
        bisect.insort(self._line, ticket, key=lambda t: t.place)
        if worth.kind == BOARD and worth.key is not None:
            self._boards[worth.key] = ticket
        self._start_pump()
        # The request sleeps on a task of its own until the pump hands it its turn (and
        # cancels that sleep): a plain sleep, on the event loop's clock, that the tests'
        # simulated Discord advances like any other of the bot's timers.
        ticket.sleeper = asyncio.create_task(asyncio.sleep(LONGEST_WAIT), name="deckhand-request-waits")
        try:
            while not ticket.granted:
                if ticket.superseded:
                    raise Superseded
                await asyncio.wait((ticket.sleeper,))
                if not (ticket.granted or ticket.superseded):  # the longest wait passed: ask again
                    ticket.sleeper = asyncio.create_task(asyncio.sleep(LONGEST_WAIT), name="deckhand-request-waits")
        finally:
            ticket.sleeper.cancel()
            self._leave(ticket)
        waited = loop.time() - began
        self.counts.waited += 1
        self.counts.waited_seconds += waited
        self.counts.longest_wait = max(self.counts.longest_wait, waited)
        self.counts.by_worth[worth.kind] = self.counts.by_worth.get(worth.kind, 0) + 1

    def use(self, budget: Budget) -> None:
        """Pace to ``budget`` from now on (the waiting requests included)."""
        self.budget = budget
        self._turns.clear()  # the old budget's (a look still out on it: its turns are dropped)
        self._look_after = 0.0
        if self._pump_sleep is not None:
            self._pump_sleep.cancel()  # its sleep was reckoned on the old budget: look again

    def _leave(self, ticket: _Ticket) -> None:
        with contextlib.suppress(ValueError):
            self._line.remove(ticket)
        if ticket.key is not None and self._boards.get(ticket.key) is ticket:
            del self._boards[ticket.key]

    def _start_pump(self) -> None:
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._hand_out_turns(), name="deckhand-request-pacer")
        elif self._pump_sleep is not None:
            self._pump_sleep.cancel()  # a new request may go before the pump's next look: look now

    def _ready(self, now: float) -> tuple[list[_Ticket], float]:
        """The waiting requests that may go when the budget has room, in line order (not
        a board whose route Discord limited until later), and the soonest such limit ends."""
        ready, soonest = [], LONGEST_WAIT
        for ticket in self._line:
            limited = self._not_before.get(ticket.key, 0.0) - now if ticket.key is not None else 0.0
            if limited > 0:
                soonest = min(soonest, limited)
            else:
                ready.append(ticket)
        return ready, soonest

    def _due_turn(self, now: float) -> bool:
        """Spend the soonest leased turn if its time has come (dropping those kept too long)."""
        stale = bisect.bisect_left(self._turns, now - LEASE_KEPT)
        if stale:
            del self._turns[:stale]
        if self._turns and self._turns[0] <= now:
            del self._turns[0]
            return True
        return False

    async def _hand_out_turns(self) -> None:
        """While requests wait: give the turns the budget leased, each at its time, to the
        first requests in line (skipping a board whose route Discord limited until its
        time); look at the budget for more when fewer turns are held than requests may
        go; else sleep until the next turn, the look's answer or a new request.

        The budget is asked once for every request that may go, not once each, and one
        look may take turns up to ``LEASE_SECONDS`` ahead (:meth:`Budget.lease`): a look
        may take a while (a round trip to PostgreSQL, a busy event loop) and the pace
        must not be a look's room a look. The look runs on a task of its own, so the
        turns already held are released at their times meanwhile. A turn whose request
        gave way (a board a newer showing replaced) goes to the next request in line."""
        loop = asyncio.get_running_loop()
        while self._line:
            now = loop.time()
            wait = self._paused_until - now
            if wait <= 0:
                ready, wait = self._ready(now)
                given = 0
                while given < len(ready) and self._due_turn(now):
                    self._grant(ready[given])
                    given += 1
                if self._turns:
                    wait = min(wait, max(0.0, self._turns[0] - now))
                # Requests that came meanwhile are looked for at once (their _start_pump cut
                # this sleep short), unless the budget said when: the pump never sleeps past
                # a request it did not look at.
                wanted = len(ready) - given - len(self._turns)
                if wanted > 0 and self._look is None:
                    if now >= self._look_after:
                        self._look = asyncio.create_task(self._take(wanted), name="deckhand-request-pacer-looks")
                    else:
                        wait = min(wait, self._look_after - now)
            if self._line:
                self._pump_sleep = asyncio.create_task(asyncio.sleep(wait), name="deckhand-request-pacer-waits")
                try:
                    await asyncio.wait((self._pump_sleep,))
                finally:
                    self._pump_sleep.cancel()
                    self._pump_sleep = None

    async def _take(self, wanted: int) -> None:
        """One look at the budget for ``wanted`` turns: held until the pump gives them."""
        budget, loop = self.budget, asyncio.get_running_loop()
        try:
            times, again = await budget.lease(wanted, LEASE_SECONDS)
        except Exception:  # a budget answers, even when its database does not (it counts alone then)
            log.exception("Could not ask the request budget")
            times, again = [], 1.0
        finally:
            self._look = None
        now = loop.time()
        self.counts.looks += 1
        self.counts.granted += len(times)
        if budget is self.budget and now >= self._paused_until:  # (else taken before a global 429: dropped)
            for offset in times:
                bisect.insort(self._turns, now + offset)
            self._look_after = now + again if len(times) < wanted else now
        if self._pump_sleep is not None:
            self._pump_sleep.cancel()  # the pump gives them (or looks again)
        elif self._line:
            self._start_pump()

    def _grant(self, ticket: _Ticket) -> None:
        ticket.granted = True
        self._leave(ticket)
        if ticket.sleeper is not None:
            ticket.sleeper.cancel()

    def newer(self, key: Any, *, merged: bool = False) -> None:
        """A newer showing of ``key``'s table is waiting: its board, if it is still
        waiting for the budget, gives way (its place in line kept for the newer one).
        ``merged``: the request was merged into a showing already waiting (one board
        edit fewer)."""
        if merged:
            self.counts.merged += 1
        ticket = self._boards.get(key)
        if ticket is not None and not ticket.granted and not ticket.superseded and (ticket.stale is None or ticket.stale()):
            ticket.superseded = True
            self._leave(ticket)
            self._give_way(key, ticket.order)
            if ticket.sleeper is not None:
                ticket.sleeper.cancel()  # wake it: it raises Superseded

    def _give_way(self, key: Any, order: int, *, merged: bool = True) -> None:
        """``key``'s next board takes this place in line; ``merged``: this one was replaced."""
        if merged:
            self.counts.merged += 1
        self._kept[key] = min(order, self._kept.get(key, order))
        self._kept.move_to_end(key)
        while len(self._kept) > KEPT_PLACES:
            self._kept.popitem(last=False)

    # ------------------------------------------------------------------ counting

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    def _paused(self) -> bool:
        return self._now() < self._paused_until

    def _invalid(self) -> None:
        now = self._now()
        self.counts.invalid += 1
        self._invalid_times.append(now)
        count = self.invalid_in_window()
        crossed = [n for n in INVALID_WARN if count >= n > self._warned_at]
        if crossed:
            self._warned_at = crossed[-1]
            level = logging.ERROR if crossed[-1] >= INVALID_WARN[-1] else logging.WARNING
            log.log(level, "Discord answered %s invalid requests (401, 403, 429) from this process in the last %d minutes; at "
                    "%s it cuts this IP off from its API for about an hour (every game stops). See "
                    "docs/owners/troubleshooting.md, \"Discord is refusing many requests\".",
                    f"{count:,}", INVALID_WINDOW // 60, f"{INVALID_BAN:,}")
        elif count < self._warned_at // 2:
            self._warned_at = 0

    def invalid_in_window(self) -> int:
        now = self._now()
        while self._invalid_times and self._invalid_times[0] <= now - INVALID_WINDOW:
            self._invalid_times.popleft()
        return len(self._invalid_times)

    def take_counts(self) -> Counts:
        """The counts since the last take (the report's), added to the totals."""
        counts, self.counts = self.counts, Counts()
        self._totals.add(counts)
        return counts

    def totals(self) -> dict[str, float]:
        """Everything counted since the start (for benches and tests)."""
        total = Counts()
        total.add(self._totals)
        total.add(self.counts)
        return {name: getattr(total, name) for name in ("sent", "exempt", "waited", "waited_seconds", "longest_wait", "merged",
                                                       "global_429", "route_429", "shared_429", "server_errors", "invalid", "looks", "granted")}

    @property
    def waiting(self) -> int:
        return len(self._line)

    # ------------------------------------------------------------------ the owner's view

    @property
    def budget_name(self) -> str:
        """What the report calls the budget: "50/s", "50/s shared through PostgreSQL"."""
        return f"{self.budget.limit:g}/s" + ("" if isinstance(self.budget, LocalBudget) else " shared through PostgreSQL")

    def report_line(self, counts: Counts, seconds: float) -> str:
        waited = ""
        if counts.waited:
            kinds = ", ".join(f"{n:,} {WORTH_NAMES[k]}" for k, n in sorted(counts.by_worth.items()))
            waited = f" ({kinds}; longest {counts.longest_wait:.1f} s)"
        period = f"{seconds / 60:.0f} min" if seconds >= 120 else f"{seconds:.0f} s"
        return (f"Discord requests in the last {period}: {counts.sent:,} sent with the bot's token "
                f"({counts.sent / max(seconds, 1e-9):.1f}/s of {self.budget_name}), {counts.exempt:,} through interactions; "
                f"{counts.waited:,} waited for the budget{waited}, {counts.merged:,} board edits merged; "
                f"429s: {counts.global_429:,} global, {counts.route_429:,} per route, {counts.shared_429:,} shared; "
                f"5xx: {counts.server_errors:,}; invalid requests in the last {INVALID_WINDOW / 60:.0f} min: "
                f"{self.invalid_in_window():,} of Discord's {INVALID_BAN:,}")

    def start_reports(self, every: float) -> None:
        """Log :meth:`report_line` every ``every`` seconds (0: never). The line is written
        by the first request answered once ``every`` has passed (so a bot with nothing
        to report has no timer running; a quiet spell is reported with its length)."""
        self._report_every = every
        self._reported_at = self._now()

    def _maybe_report(self) -> None:
        now = self._now()
        if not self._report_every or now - self._reported_at < self._report_every:
            return
        seconds, self._reported_at = now - self._reported_at, now
        counts = self.take_counts()
        troubled = counts.global_429 or self.invalid_in_window() >= INVALID_WARN[0]
        log.log(logging.WARNING if troubled else logging.INFO, "%s", self.report_line(counts, seconds))

    async def close(self) -> None:
        for task in (self._pump, self._look):
            if task is not None:
                task.cancel()
        self._turns.clear()  # turns leased and not used: lost to the other processes (a lease's worth at most)
        await self.budget.close()


def budget_for(limit: float, token: str, storage: Any) -> Budget:
    """The budget of a process: its own, or (on PostgreSQL, where several processes may
    share the token) a row of the database every process asks (storage/pg_rate.py)."""
    local = LocalBudget(limit)
    if getattr(storage, "dialect", None) != "postgresql":
        return local
    from bot.discord_front.common import now_ts
    from storage.pg_rate import SharedRate, budget_name

    rate, burst = pace_for(limit)
    return SharedRate(storage.start, budget_name(token), limit, rate, burst, clock=now_ts, fallback=local)


def _seconds(value: str | None) -> float | None:
    try:
        return float(value) if value else None
    except ValueError:
        return None
