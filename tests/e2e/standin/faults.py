"""Faults the stand-in can put on the bot's requests, on top of Discord's limits.

Two places, one list of rules:

- **at Discord** (the stand-in's server): a request is answered with a status of the
  rule's choosing, either instead of the work (``after_work=False``: a 5xx burst, a
  403, a failed interaction callback, a 429 with a long ``retry_after``) or after
  Discord did the work (``after_work=True``: the board was posted, the answer is lost
  as a 502);
- **on the way** (an aiohttp ``TraceConfig`` the stand-in puts on the bot's session):
  latency, before the request reaches Discord (``on="request"``) or after Discord did
  the work, before the bot reads the answer (``on="answer"``). It is slept in the
  bot's own request, so on the clock the bot's timers run on (SimCord's virtual clock
  in a test: ``env.advance_time`` lets it pass).

A rule matches a method (``"*"``: any), a path (fnmatch on the API path, e.g.
``/channels/*/messages/*``) and whose request it is (``who``: ``"bot"`` for the bot's
token, ``"interaction"`` for an interaction's callback and token routes, None: both);
it fires ``times`` times (None: until removed or ``until`` on the stand-in's clock).
The first matching rule of each kind wins. To add a kind of fault, add a method that
makes a :class:`Fault` (the server and the trace read only its fields).
"""

from __future__ import annotations

import asyncio
import fnmatch
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp

from tests.e2e.standin.limits import RATE_LIMITED, VIA


@dataclass
class Fault:
    method: str = "*"
    path: str = "*"
    who: str | None = None  # "bot", "interaction" or None (both)
    times: int | None = None
    until: float | None = None
    # an answer of the rule's choosing
    status: int | None = None
    body: Any = None
    headers: dict[str, str] | None = None
    after_work: bool = False
    # latency
    seconds: float = 0.0
    on: str = "request"  # "request" or "answer"
    fired: int = 0

    @property
    def is_latency(self) -> bool:
        return self.status is None

    def matches(self, method: str, path: str, who: str, now: float) -> bool:
        if self.times is not None and self.fired >= self.times:
            return False
        if self.until is not None and now >= self.until:
            return False
        if self.who is not None and self.who != who:
            return False
        return self.method in ("*", method) and fnmatch.fnmatchcase(path, self.path)


def api_path(url: Any) -> str:
    """The API path of a URL discord.py requests (``/api/v10`` and the query dropped)."""
    path = str(url.path if hasattr(url, "path") else url).split("?", 1)[0]
    marker = path.find("/api/v")
    if marker != -1:
        path = path[marker + len("/api/v"):]
        path = path[path.find("/"):]
    return path


def who_sent(path: str, has_token: bool) -> str:
    if path.startswith("/interactions/") or (path.startswith("/webhooks/") and path.count("/") >= 3 and not has_token):
        return "interaction"
    return "bot" if has_token else "other"


class Faults:
    """The rules, and the trace that applies the latency ones to the bot's requests."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.rules: list[Fault] = []
        self.trace_config = aiohttp.TraceConfig()
        self.trace_config.on_request_start.append(self._on_request_start)
        self.trace_config.on_request_end.append(self._on_request_end)

    # ------------------------------------------------------------------ making rules

    def add(self, fault: Fault, *, for_seconds: float | None = None) -> Fault:
        if for_seconds is not None:
            fault.until = self.clock() + for_seconds
        self.rules.append(fault)
        return fault

    def remove(self, fault: Fault) -> None:
        if fault in self.rules:
            self.rules.remove(fault)

    def clear(self) -> None:
        self.rules.clear()

    def answer(self, status: int, method: str = "*", path: str = "*", *, body: Any = None, headers: dict[str, str] | None = None,
               after_work: bool = False, who: str | None = None, times: int | None = None, for_seconds: float | None = None) -> Fault:
        """Matching requests answered ``status`` (with Discord's JSON error ``body``),
        instead of the work or, ``after_work``, after it."""
        if body is None and status >= 400:
            body = {"message": f"{status}: stand-in fault", "code": 0}
        return self.add(Fault(method, path, who, times, status=status, body=body, headers=headers, after_work=after_work), for_seconds=for_seconds)

    def server_errors(self, method: str = "*", path: str = "*", *, status: int = 502, times: int | None = None,
                      for_seconds: float | None = None, who: str | None = None) -> Fault:
        """A burst of 5xx (``times`` requests, or every one for ``for_seconds``): nothing done."""
        return self.answer(status, method, path, body={"message": "Bad Gateway", "code": 0}, times=times, for_seconds=for_seconds, who=who)

    def lost_answer(self, method: str = "*", path: str = "*", *, status: int = 502, times: int | None = 1, who: str | None = None) -> Fault:
        """Discord does the work, then the answer is lost (a 5xx reaches the bot)."""
        return self.answer(status, method, path, body={"message": "Bad Gateway", "code": 0}, after_work=True, times=times, who=who)

    def forbidden(self, method: str = "*", path: str = "*", *, code: int = 50001, times: int | None = None,
                  for_seconds: float | None = None) -> Fault:
        """403 (50001 Missing Access, 50013 Missing Permissions): counts as invalid."""
        message = "Missing Access" if code == 50001 else "Missing Permissions"
        return self.answer(403, method, path, body={"message": message, "code": code}, times=times, for_seconds=for_seconds)

    def interaction_failed(self, path: str = "/interactions/*/callback", *, code: int = 10062, times: int | None = 1) -> Fault:
        """An interaction's callback refused: 10062 Unknown interaction (too late), 40060 already acknowledged."""
        status, message = (404, "Unknown interaction") if code == 10062 else (400, "Interaction has already been acknowledged.")
        return self.answer(status, "POST", path, body={"message": message, "code": code}, who="interaction", times=times)

    def rate_limited(self, retry_after: float, method: str = "*", path: str = "*", *, scope: str = "user", times: int | None = 1,
                     who: str | None = None) -> Fault:
        """A 429 of Discord's (with ``Via``), e.g. a 300 s ``retry_after`` on one board."""
        headers = {"Via": VIA, "Retry-After": str(max(1, round(retry_after))), "X-RateLimit-Scope": scope}
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        body = {"message": RATE_LIMITED, "retry_after": retry_after, "global": scope == "global", "code": 0}
        return self.answer(429, method, path, body=body, headers=headers, times=times, who=who)

    def latency(self, seconds: float, method: str = "*", path: str = "*", *, on: str = "request", who: str | None = None,
                times: int | None = None, for_seconds: float | None = None) -> Fault:
        """Each matching request takes ``seconds`` more, before Discord sees it
        (``on="request"``) or after Discord did the work (``on="answer"``)."""
        if on not in ("request", "answer"):
            raise ValueError("on: 'request' or 'answer'")
        return self.add(Fault(method, path, who, times, seconds=seconds, on=on), for_seconds=for_seconds)

    # ------------------------------------------------------------------ applying them

    def take_answer(self, method: str, path: str, who: str, *, after_work: bool) -> Fault | None:
        """The answer rule for this request at this stage (counted as fired), if any."""
        now = self.clock()
        for rule in self.rules:
            if not rule.is_latency and rule.after_work == after_work and rule.matches(method, path, who, now):
                rule.fired += 1
                return rule
        return None

    def _latency(self, method: str, url: Any, headers: Any, on: str) -> float:
        path = api_path(url)
        who = who_sent(path, "Authorization" in headers)
        now = self.clock()
        for rule in self.rules:
            if rule.is_latency and rule.on == on and rule.matches(method, path, who, now):
                rule.fired += 1
                return rule.seconds
        return 0.0

    async def _on_request_start(self, _session: Any, _context: Any, params: aiohttp.TraceRequestStartParams) -> None:
        seconds = self._latency(params.method, params.url, params.headers, "request")
        if seconds > 0:
            await asyncio.sleep(seconds)

    async def _on_request_end(self, _session: Any, _context: Any, params: aiohttp.TraceRequestEndParams) -> None:
        seconds = self._latency(params.method, params.url, params.headers, "answer")
        if seconds > 0:
            await asyncio.sleep(seconds)
