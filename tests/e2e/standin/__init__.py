"""A stand-in for Discord's REST API with Discord's limits, and a fault layer, behind
the bot's real discord.py request path. For tests (SimCord's virtual clock) and benches
(the real clock, :func:`follow_real_time`).

SimCord is not Discord: it enforces no rate limit and replaces discord.py's
``HTTPClient.request`` whole, so discord.py's buckets, its waits on a 429 and its 5xx
retries never run under it. The stand-in puts them back: every request the bot makes
leaves discord.py through aiohttp to a local server that applies Discord's limits
(:mod:`.limits`) and any faults a test asks for (:mod:`.faults`), then lets SimCord do the
work (:mod:`.server`), so the simulated world, its gateway events and its checks stay
what every other test uses. :mod:`.wire` puts discord.py's request path back.

In a test::

    async def test_something(discord_standin):        # tests/conftest.py: env + stand-in
        standin = discord_standin
        env = standin.env
        standin.faults.rate_limited(30, "PATCH", "/channels/*/messages/*")
        ...
        await env.advance_time(31)                      # discord.py's wait and the limits move together
        assert standin.tally.global_429 == 0

Or by hand, on a running env (the bot's ``http_trace`` noted before SimCord attached it)::

    standin = StandIn(env, limits=Limits(global_per_second=5))
    standin.remember(bot)            # before simcord attaches ``bot``
    await standin.start()
    ...
    await standin.close()

Its clock is SimCord's (``env.now()``), which :func:`follow_real_time` makes the real one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import aiohttp
import discord

from tests.e2e.standin.faults import Fault, Faults
from tests.e2e.standin.limits import DISCORD_ROUTES, INTERACTION_ROUTES, DiscordLimits, Limits, RouteLimit, SharedBucket, Tally
from tests.e2e.standin.realtime import follow_real_time
from tests.e2e.standin.server import Exchange, SimcordWorld, StandInServer
from tests.e2e.standin.wire import RealRequestPath

__all__ = ["DISCORD_ROUTES", "INTERACTION_ROUTES", "Exchange", "Fault", "Faults", "Limits", "RouteLimit", "SharedBucket", "StandIn", "Tally",
           "follow_real_time"]


class StandIn:
    """Discord's limits and faults for one SimCord env (one bot token)."""

    def __init__(self, env: Any, *, limits: Limits | None = None, keep_bodies: bool = False, shared: SharedBucket | None = None) -> None:
        self.env = env
        self.clock: Callable[[], float] = lambda: env.now().timestamp()
        self.limits = DiscordLimits(limits, clock=self.clock, shared=shared)
        self.faults = Faults(self.clock)
        self.world = SimcordWorld(env)
        self.server = StandInServer(self.world, self.limits, self.faults, keep_bodies=keep_bodies)
        self.path = RealRequestPath(env, "", extra_traces=[self.faults.trace_config])

    def remember(self, bot: discord.Client, http_trace: aiohttp.TraceConfig | None = None) -> None:
        """Note ``bot``'s own ``http_trace`` before SimCord attaches it, or the one read
        off it earlier (see :mod:`.wire`)."""
        self.path.remember(bot, http_trace)

    async def start(self) -> StandIn:
        await self.server.start()
        self.path.base = self.server.base
        await self.path.install()
        return self

    async def close(self) -> None:
        await self.path.close()
        await self.server.close()

    def set_limits(self, limits: Limits) -> None:
        """Other limits from now on (e.g. tighter once a test's set-up is done)."""
        self.limits.set(limits)

    def as_bot(self, coroutine: Any) -> Any:
        """Run ``coroutine`` as a task of the bot's (SimCord tracks it, so its waits run
        on the virtual clock and ``env.advance_time`` moves them), for tests that call
        the bot's discord.py directly (``env.bot.http.request(...)``). Do not await the
        bot's requests in the test's own task: their waits would run on the real clock,
        and a connection it used may not serve the bot's tasks afterwards."""
        import asyncio

        with self.env._bot_scope():
            return asyncio.get_running_loop().create_task(coroutine)

    # ------------------------------------------------------------------ what it saw

    @property
    def tally(self) -> Tally:
        return self.limits.tally

    @property
    def log(self) -> list[Exchange]:
        return self.server.log

    @property
    def gaps(self) -> list[str]:
        """Requests SimCord does not model, answered 501 (a test should have none)."""
        return self.world.gaps

    @property
    def session(self) -> aiohttp.ClientSession | None:
        """The bot's aiohttp session (a new one after each restart)."""
        return self.path.session

    def invalid_in_window(self) -> int:
        """Invalid requests (401, 403, 429) in Discord's last 10 minutes (``Limits.invalid_window``)."""
        return self.limits.invalid_in_window()
