"""discord.py's real request path, put back into a SimCord world.

SimCord replaces ``HTTPClient.request`` (and the webhook adapter's ``request``, which
carries interaction callbacks and the edits through an interaction's token) whole: its
transports hand each request to its router. So under SimCord discord.py's own rate-limit
handling (its route buckets from the headers, the global lock, sleeping ``retry_after``
and trying again, the 5xx retries), aiohttp, and whatever the bot hooks into aiohttp
(``Client(http_trace=...)``) never run. :class:`RealRequestPath` gives them back:

- the bot's ``HTTPClient`` (SimCord's subclass) gets discord.py's own ``request`` again,
  a real aiohttp session (as ``HTTPClient.static_login`` makes it: a ``TCPConnector``
  without a connection limit, no cookies, the bot's ``http_trace``) and its global lock;
- the webhook adapter SimCord installed gets discord.py's own ``AsyncWebhookAdapter.request``;
- ``Route.BASE`` points at the stand-in's server, so every request crosses a socket.

A restart through ``env.restart_bot`` is followed: the new bot gets the same, the old
session is closed as the old process's would be.

The bot's ``http_trace`` lives on the ``HTTPClient`` discord.py made, which SimCord
replaces when the bot is attached: :meth:`remember` reads it off a bot before that.
"""

from __future__ import annotations

import asyncio
import types
from typing import Any

import aiohttp
import discord
from discord.http import HTTPClient, Route
from discord.webhook.async_ import AsyncWebhookAdapter


class RealRequestPath:
    def __init__(self, env: Any, base: str, *, extra_traces: list[aiohttp.TraceConfig] = ()) -> None:  # type: ignore[assignment]
        self.env = env
        self.base = base
        self.extra_traces = list(extra_traces)
        self._traces: dict[int, aiohttp.TraceConfig | None] = {}
        self._session: aiohttp.ClientSession | None = None
        self._old_base: str | None = None
        self._original_restart: Any = None

    def remember(self, bot: discord.Client, http_trace: aiohttp.TraceConfig | None = None) -> None:
        """Note the ``http_trace`` of a bot SimCord has not attached yet (or the one it
        was made with, read off it earlier)."""
        http = getattr(bot, "http", None)
        if http_trace is None and http is not None and not hasattr(http, "backend"):  # discord.py's own client, not SimCord's
            http_trace = http.http_trace
        self._traces[id(bot)] = http_trace

    @property
    def session(self) -> aiohttp.ClientSession | None:
        return self._session

    async def install(self) -> None:
        """Put the real request path on the bot the env runs now."""
        env = self.env
        bot = env.bot
        http = bot.http
        own = self._traces.get(id(bot))
        traces = [trace for trace in (own, *self.extra_traces) if trace is not None]
        session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0), trace_configs=traces or None,
                                        cookie_jar=aiohttp.DummyCookieJar())
        self._session = session
        http._HTTPClient__session = session  # as static_login makes it
        http._global_over = asyncio.Event()
        http._global_over.set()
        http.http_trace = own
        http.request = types.MethodType(HTTPClient.request, http)  # discord.py's own, not SimCord's override
        real_adapter = AsyncWebhookAdapter()

        async def webhook_request(route: Any, session: Any = None, **kwargs: Any) -> Any:
            # An interaction made before the install carries SimCord's empty session.
            return await AsyncWebhookAdapter.request(real_adapter, route, session or self._session, **kwargs)

        env._webhook_adapter.request = webhook_request
        if self._old_base is None:
            self._old_base = Route.BASE
        Route.BASE = self.base
        if self._original_restart is None:
            self._original_restart = env.restart_bot
            env.restart_bot = self._restart_bot

    async def _restart_bot(self, bot: discord.Client | None = None) -> None:
        if bot is not None:
            self.remember(bot)
        old = self._session
        await self._original_restart(bot)
        if old is not None:
            await old.close()  # the old process's connections, closed as its exit closes them
        await self.install()

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
        if self._old_base is not None:
            Route.BASE = self._old_base
            self._old_base = None
        if self._original_restart is not None:
            self.env.restart_bot = self._original_restart
            self._original_restart = None
