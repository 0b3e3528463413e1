"""Discord's REST rate limits as a model the stand-in applies to every request.

What Discord documents (https://discord.com/developers/docs/topics/rate-limits) and
what the bot meets, on one clock handed in (SimCord's virtual clock in tests, the real
one in benches), so that the bot's own timers and these limits run on the same time:

- **the global limit**: requests made with the bot's token (``Authorization: Bot``)
  share ``global_per_second`` a second (50 unless Discord raised it for the bot), a
  token bucket of that many; interaction routes (an interaction's callback and the
  webhook routes of its token) are exempt;
- **per-route buckets**: each route has its own limit per major parameter (a channel,
  an interaction token); the values below are what Discord answered such routes with
  at the time of writing (``5 / 5 s`` for a channel's message writes); Discord may change
  them, so the bot must follow the headers, never these numbers;
- **edits of messages older than an hour** (error 30046) have their own, tighter quota
  per channel, on top of the route's bucket;
- **invalid requests**: 401, 403 and 429 answers (but not a 429 of the ``shared``
  scope) are counted over a sliding ``invalid_window``; at ``invalid_limit`` Discord's
  edge (Cloudflare) bans the IP for about an hour. The model counts them and says when
  the ban would have begun; with ``enforce_ban`` it then answers everything as the
  edge does (429, no ``Via`` header, a text body), which discord.py never retries.

Every answer carries Discord's headers: ``X-RateLimit-Limit``, ``-Remaining``,
``-Reset``, ``-Reset-After``, ``-Bucket``; a 429 also ``Retry-After``,
``X-RateLimit-Scope`` (and ``X-RateLimit-Global`` for the global limit) and the body
``{"message", "retry_after", "global", "code"}``; and ``Via``, which tells discord.py
the 429 came from Discord and not from its edge.

Nothing here does I/O: :meth:`DiscordLimits.admit` decides a request's fate,
:meth:`DiscordLimits.answered` counts how it was answered.
"""

from __future__ import annotations

import math
import re
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: Discord's API answers carry this; discord.py treats a 429 without it as its edge's (Cloudflare's).
VIA = "1.1 google"
RATE_LIMITED = "You are being rate limited."
OLD_EDITS = "Maximum number of edits to messages older than 1 hour reached. Try again later."
INVALID_STATUSES = (401, 403, 429)


@dataclass(frozen=True)
class RouteLimit:
    """A per-route bucket: ``limit`` requests per ``per`` seconds for each value of the
    path's ``major`` parameter (None: one bucket for the route)."""

    method: str
    template: str  # "/channels/{channel_id}/messages"
    limit: int
    per: float
    bucket: str  # the X-RateLimit-Bucket hash Discord sends
    major: str | None = "channel_id"
    scope: str = "user"  # the scope of its 429: "user" (counts as invalid) or "shared" (does not)

    def matches(self, method: str, path: str) -> dict[str, str] | None:
        if method != self.method and self.method != "*":
            return None
        match = _pattern(self.template).fullmatch(path)
        return match.groupdict() if match else None


_PATTERNS: dict[str, re.Pattern[str]] = {}


def _pattern(template: str) -> re.Pattern[str]:
    pattern = _PATTERNS.get(template)
    if pattern is None:
        pattern = _PATTERNS[template] = re.compile(re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)))
    return pattern


#: The buckets of the routes the bot uses most (what Discord answered them with when
#: this was written). Routes not listed get ``Limits.other_routes``.
DISCORD_ROUTES: tuple[RouteLimit, ...] = (
    RouteLimit("POST", "/channels/{channel_id}/messages", 5, 5.0, "c1a0e5b1d3f04f6b9e2a7c8d0b1e2f30"),
    RouteLimit("PATCH", "/channels/{channel_id}/messages/{message_id}", 5, 5.0, "9d2c7e41a0b84c3f8e6d5a4b3c2d1e0f"),
    RouteLimit("DELETE", "/channels/{channel_id}/messages/{message_id}", 5, 1.0, "4b8e2f6a1c9d4e7f8a0b3c5d7e9f1a2b"),
    RouteLimit("POST", "/channels/{channel_id}/messages/{message_id}/threads", 5, 5.0, "7e1f3a5c9b2d4f6e8a0c1b3d5f7e9a1c"),
    RouteLimit("POST", "/users/@me/channels", 10, 10.0, "2d4f6a8c0e1b3d5f7a9c1e3b5d7f9a0c", major=None),
)
#: An interaction's callback and the webhook routes of its token (exempt from the global
#: limit). Discord does not publish their buckets; this one is generous.
INTERACTION_ROUTES: tuple[RouteLimit, ...] = (
    RouteLimit("*", "/interactions/{interaction_id}/{token}/callback", 5, 1.0, "5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b", major="token"),
    RouteLimit("*", "/webhooks/{application_id}/{token}", 5, 1.0, "6b8d0f2a4c6e8b0d2f4a6c8e0b2d4f6a", major="token"),
    RouteLimit("*", "/webhooks/{application_id}/{token}/messages/{message_id}", 5, 1.0, "6b8d0f2a4c6e8b0d2f4a6c8e0b2d4f6a", major="token"),
)


@dataclass(frozen=True)
class Limits:
    """What the stand-in enforces. The defaults are Discord's as the bot meets them."""

    #: Requests a second on the bot's token (50 unless Discord raised it for the bot).
    global_per_second: float = 50.0
    #: The global bucket's size (Discord's is a second's worth).
    global_burst: float | None = None
    routes: tuple[RouteLimit, ...] = DISCORD_ROUTES
    interaction_routes: tuple[RouteLimit, ...] = INTERACTION_ROUTES
    #: Any other bot-token route: this many a second per route and first id in its path.
    other_routes: tuple[int, float] = (50, 1.0)
    #: Edits of a message older than ``old_message_after`` seconds: ``old_edits`` per
    #: ``old_edits_per`` seconds per channel (error 30046); Discord does not publish the
    #: numbers.
    old_message_after: float = 3600.0
    old_edits: int = 10
    old_edits_per: float = 60.0
    #: Discord's edge bans an IP that made ``invalid_limit`` invalid requests (401, 403,
    #: 429 but the ``shared`` scope's) within ``invalid_window`` seconds, for ``ban_seconds``.
    invalid_limit: int = 10_000
    invalid_window: float = 600.0
    ban_seconds: float = 3600.0
    #: Answer as the edge does once the ban would begin (off: only say when it would have).
    enforce_ban: bool = False

    @property
    def burst(self) -> float:
        return self.global_burst if self.global_burst is not None else self.global_per_second


@dataclass
class _Window:
    """A per-route bucket's current window: it opens at its first request and resets
    ``per`` seconds later, as Discord's ``X-RateLimit-Reset-After`` counts down."""

    opened: float
    used: int = 0


@dataclass
class Admission:
    """The limits' decision on one request: go ahead (``status`` None, then answer with
    ``headers``), or be answered at once with ``status``, ``body``, ``headers``."""

    kind: str  # "bot" (the bot's token), "interaction" or "other" (no token, not an interaction)
    headers: dict[str, str]
    status: int | None = None
    body: Any = None
    scope: str | None = None  # of a 429: "global", "user" or "shared"; "edge" for the ban's answers


@dataclass
class Tally:
    """What the limits saw, for the tests' and the benches' reports."""

    requests: Counter[str] = field(default_factory=Counter)  # by kind
    answered: Counter[int] = field(default_factory=Counter)  # by status
    global_429: int = 0
    route_429: int = 0
    old_edit_429: int = 0
    edge_answers: int = 0
    invalid: int = 0
    #: The clock's time the invalid requests of the last window first reached the limit (None: never).
    ban_began: float | None = None
    most_invalid_in_window: int = 0


class SharedBucket:
    """The global bucket of one token kept in shared memory, for several stand-ins in
    several processes (a bench running several bot processes on one token: Discord
    counts the token's requests together, whichever process sends them). Made by the
    parent process and handed to each child (``multiprocessing``'s spawn context); the
    processes' clocks must agree (the real clock, aligned by ``follow_real_time``)."""

    def __init__(self, context: Any = None) -> None:
        import multiprocessing

        context = context or multiprocessing.get_context("spawn")
        self._cell = context.Array("d", [math.nan, 0.0])  # tokens (nan: full), when last filled

    def take(self, now: float, rate: float, burst: float) -> float:
        """As :meth:`DiscordLimits._take_global`, under the shared memory's lock."""
        with self._cell.get_lock():
            tokens, filled_at = self._cell[0], self._cell[1]
            tokens = burst if math.isnan(tokens) else min(burst, tokens + max(0.0, now - filled_at) * rate)
            self._cell[1] = max(now, filled_at)
            if tokens >= 1.0 - 1e-9:
                self._cell[0] = tokens - 1.0
                return 0.0
            self._cell[0] = tokens
            return (1.0 - tokens) / rate

    def fill(self) -> None:
        with self._cell.get_lock():
            self._cell[0] = math.nan


class DiscordLimits:
    """The rate limits of one bot token, on ``clock`` (seconds, any origin). With
    ``shared``, the global bucket is the one several processes' stand-ins share."""

    def __init__(self, limits: Limits | None = None, *, clock: Callable[[], float], shared: SharedBucket | None = None) -> None:
        self.limits = limits or Limits()
        self.clock = clock
        self.shared = shared
        self.tally = Tally()
        self._tokens = self.limits.burst
        self._filled_at: float | None = None
        self._windows: dict[tuple[str, str], _Window] = {}
        self._invalid_times: deque[float] = deque()
        self._banned_until: float | None = None

    def set(self, limits: Limits) -> None:
        """Other limits from now on (the global bucket full of the new size)."""
        self.limits = limits
        self._tokens = limits.burst
        self._filled_at = None
        if self.shared is not None:
            self.shared.fill()

    # ------------------------------------------------------------------ deciding

    def admit(self, method: str, path: str, *, bot_token: bool, message_age: float | None = None) -> Admission:
        """Whether a request goes ahead now. ``message_age``: for an edit of a message,
        how old that message is (seconds), when known."""
        now = self.clock()
        interaction = _is_interaction(path)
        kind = "bot" if bot_token and not interaction else "interaction" if interaction else "other"
        self.tally.requests[kind] += 1
        if self._banned_until is not None and now < self._banned_until:
            self.tally.edge_answers += 1
            return Admission(kind, {"Retry-After": str(math.ceil(self._banned_until - now))}, 429,
                             "error code: 1015", "edge")
        if kind == "bot":
            wait = self._take_global(now)
            if wait > 0:
                self.tally.global_429 += 1
                return self._limited(kind, wait, scope="global", headers={"X-RateLimit-Global": "true"})
        rule, args = self._rule_of(method, path, interaction)
        key = (rule.bucket, args.get(rule.major, "") if rule.major else "")
        window = self._window(key, rule, now)
        reset_after = max(0.0, window.opened + rule.per - now)
        headers = _bucket_headers(rule, remaining=rule.limit - window.used, reset_after=reset_after, now=now)
        if window.used >= rule.limit:
            self.tally.route_429 += 1
            return self._limited(kind, reset_after, scope=rule.scope, headers={**headers, "X-RateLimit-Remaining": "0"})
        if method == "PATCH" and message_age is not None and message_age > self.limits.old_message_after and kind == "bot":
            old = self._window(("old-edits", args.get("channel_id", "")), None, now)
            if old.used >= self.limits.old_edits:
                self.tally.old_edit_429 += 1
                wait = max(0.0, old.opened + self.limits.old_edits_per - now)
                return self._limited(kind, wait, scope="user", headers=headers, code=30046, message=OLD_EDITS)
            old.used += 1
        window.used += 1
        headers["X-RateLimit-Remaining"] = str(rule.limit - window.used)
        return Admission(kind, headers)

    def answered(self, admission: Admission, status: int) -> None:
        """Count how a request was answered (by the limits or by the work behind them)."""
        self.tally.answered[status] += 1
        if status in INVALID_STATUSES and admission.scope not in ("shared", "edge"):
            self._count_invalid()

    def invalid_in_window(self) -> int:
        self._forget_old_invalid(self.clock())
        return len(self._invalid_times)

    # ------------------------------------------------------------------ the parts

    def _take_global(self, now: float) -> float:
        """Take one of the global bucket's tokens: 0, or how long until one is there."""
        rate, burst = self.limits.global_per_second, self.limits.burst
        if self.shared is not None:
            return self.shared.take(now, rate, burst)
        if self._filled_at is not None:
            self._tokens = min(burst, self._tokens + (now - self._filled_at) * rate)
        self._filled_at = now
        if self._tokens >= 1.0 - 1e-9:  # (float arithmetic on clock readings)
            self._tokens -= 1.0
            return 0.0
        return (1.0 - self._tokens) / rate

    def _rule_of(self, method: str, path: str, interaction: bool) -> tuple[RouteLimit, dict[str, str]]:
        for rule in self.limits.interaction_routes if interaction else self.limits.routes:
            args = rule.matches(method, path)
            if args is not None:
                return rule, args
        limit, per = self.limits.other_routes
        route = re.sub(r"/\d+", "/{id}", path)
        first = re.search(r"/(\d+)", path)
        return RouteLimit(method, route, limit, per, f"other:{method} {route}", major="id"), {"id": first.group(1) if first else ""}

    def _window(self, key: tuple[str, str], rule: RouteLimit | None, now: float) -> _Window:
        per = rule.per if rule is not None else self.limits.old_edits_per
        window = self._windows.get(key)
        if window is None or now >= window.opened + per:
            window = self._windows[key] = _Window(now)
        return window

    def _limited(self, kind: str, retry_after: float, *, scope: str, headers: dict[str, str], code: int = 0,
                 message: str = RATE_LIMITED) -> Admission:
        retry_after = max(retry_after, 0.001)
        headers = {**headers, "Via": VIA, "Retry-After": str(math.ceil(retry_after)), "X-RateLimit-Scope": scope}
        body = {"message": message, "retry_after": round(retry_after, 3), "global": scope == "global", "code": code}
        return Admission(kind, headers, 429, body, scope)

    def _count_invalid(self) -> None:
        now = self.clock()
        self.tally.invalid += 1
        self._invalid_times.append(now)
        self._forget_old_invalid(now)
        count = len(self._invalid_times)
        self.tally.most_invalid_in_window = max(self.tally.most_invalid_in_window, count)
        if count >= self.limits.invalid_limit and self.tally.ban_began is None:
            self.tally.ban_began = now
        if count >= self.limits.invalid_limit and self.limits.enforce_ban:
            self._banned_until = now + self.limits.ban_seconds

    def _forget_old_invalid(self, now: float) -> None:
        while self._invalid_times and self._invalid_times[0] <= now - self.limits.invalid_window:
            self._invalid_times.popleft()


def _is_interaction(path: str) -> bool:
    """An interaction's callback or a webhook route of its token (exempt from the global limit)."""
    return path.startswith("/interactions/") or (path.startswith("/webhooks/") and path.count("/") >= 3)


def _bucket_headers(rule: RouteLimit, *, remaining: int, reset_after: float, now: float) -> dict[str, str]:
    return {
        "Via": VIA,
        "X-RateLimit-Limit": str(rule.limit),
        "X-RateLimit-Remaining": str(max(0, remaining)),
        "X-RateLimit-Reset": f"{now + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{reset_after:.3f}",
        "X-RateLimit-Bucket": rule.bucket,
    }
