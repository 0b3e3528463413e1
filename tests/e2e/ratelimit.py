"""Rate limits in SimCord, as discord.py lives them.

SimCord's ``env.inject_error(..., status=429)`` makes a call fail with a 429 at once:
that is discord.py giving up (its retries ran out, or a Cloudflare 429 without a
``Via`` header, which it never retries). What discord.py does first on a 429 with
``retry_after`` is sleep that long inside the call and try again (``HTTPClient.request``
for REST, ``AsyncWebhookAdapter.request`` for interaction follow-ups and their edits),
but SimCord's transports replace those loops. :func:`rate_limit` puts the wait back:
a matching call is logged as a ``429`` in ``env.http_requests`` (SimCord's own log
then records the retry that succeeds), sleeps ``retry_after`` (SimCord's virtual
clock: ``env.advance_time`` lets it go on) and is then sent."""

from __future__ import annotations

import asyncio
import copy
import fnmatch
from dataclasses import dataclass
from typing import Any

from simcord.http.client import _path_of
from simcord.types import HttpLogEntry


@dataclass
class _Rule:
    method: str
    path: str
    retry_after: float
    times: int


def rate_limit(env: Any, method: str, path: str, *, retry_after: float, times: int = 1) -> None:
    """The next ``times`` calls matching ``method`` and ``path`` (fnmatch, as
    ``inject_error``) are answered 429 with ``retry_after`` and retried after it."""
    rules: list[_Rule] = _install(env)
    rules.append(_Rule(method, path, retry_after, times))


def _install(env: Any) -> list[_Rule]:
    existing = getattr(env, "_deckhand_rate_limits", None)
    if existing is not None:
        return existing
    rules: list[_Rule] = []
    env._deckhand_rate_limits = rules

    async def wait_if_limited(method: str, path: str, body: Any) -> None:
        for rule in rules:
            if rule.times > 0 and rule.method in (method, "*") and fnmatch.fnmatch(path, rule.path):
                rule.times -= 1
                env.backend.http_requests.append(HttpLogEntry(method, path, {}, copy.deepcopy(body), "429"))
                await asyncio.sleep(rule.retry_after)  # discord.py: sleep retry_after, then try again
                return

    http = env.bot.http
    request = http.request

    async def limited_request(route: Any, **kwargs: Any) -> Any:
        await wait_if_limited(route.method, _path_of(route.url), kwargs.get("json"))
        return await request(route, **kwargs)

    http.request = limited_request
    adapter = env._webhook_adapter  # interaction responses, follow-ups and their edits
    adapter_request = adapter.request

    async def limited_adapter_request(route: Any, session: Any, **kwargs: Any) -> Any:
        await wait_if_limited(route.method, _path_of(route.url), kwargs.get("payload"))
        return await adapter_request(route, session, **kwargs)

    adapter.request = limited_adapter_request
    return rules
