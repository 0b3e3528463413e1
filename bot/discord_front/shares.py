"""Fair shares of the bot's global budget: no member and no server spends more than its part.

Discord gives the bot's token one global budget (50 requests a second, every server
together: bot/discord_front/pacing.py). Some requests are asked for by one member: a
lobby message edited after a typed ``/join``, ``/leave`` or ``/cancel``, a lobby opened
with ``/<game> new``, a game started (its thread and first board), a hand refreshed in
their DMs. Without a share, one member spreading lobbies over fifty channels spends the
whole bot's budget, and every server's boards fall behind.

:class:`Shares` gives each member (a Discord user, whichever server they ask from) and
each server a leaky bucket of aiolimiter's: ``member_per_minute`` (resp.
``server_per_minute``) requests a minute, as many of them at once after a quiet
spell. An action that would cost more than what is left of either is refused before it
changes anything: the member is answered at once (an interaction's answer is exempt
from the global budget) with one sentence saying how long to wait. 0 turns a share off.

The defaults (``MEMBER_REQUESTS_PER_MINUTE=20``, ``SERVER_REQUESTS_PER_MINUTE=120``,
docs/owners/configuration.md) are far above what a game needs (a lobby, its joins, a
Start, a few Show hands a minute), so normal play never meets them; a move is never
counted (a table's board edits are merged into one at a time by its showing).

Some things a member asks to see are made anew each time, whether or not they cost a
bot-token request: a hand (Show hand, ↻ Refresh, a page button: its text and picture;
a hand in DMs counts against the member's share above as well) and ``/profile`` (the
member's results read, the chart sent).
``views_per_minute`` (60 by default) is each member's share of those, so one member
clicking Refresh a hundred times a second cannot take the process's CPU from everyone
else's games; a player never needs more than a few a minute.

Memory is bounded: the buckets of the ``KEPT`` members and servers seen last are kept
(an idle bucket is empty again after a minute, so forgetting one loses nothing).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass

from aiolimiter import AsyncLimiter

from bot.words.i18n import _

#: Buckets kept (members and servers each), the least recently used forgotten first.
KEPT = 50_000
MINUTE = 60.0


@dataclass
class ShareCounts:
    taken: int = 0  # actions allowed (their cost counted)
    refused_member: int = 0
    refused_server: int = 0
    refused_views: int = 0  # views (hands, profiles) past the member's share

    @property
    def refused(self) -> int:
        return self.refused_member + self.refused_server + self.refused_views


class _Buckets:
    """One aiolimiter bucket per key, ``per_minute`` of capacity each, the last ``KEPT`` kept."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._buckets: OrderedDict[int, AsyncLimiter] = OrderedDict()

    def get(self, key: int) -> AsyncLimiter:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = AsyncLimiter(self.per_minute, MINUTE)
            while len(self._buckets) > KEPT:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        return bucket

    def wait_for(self, cost: float) -> int:
        """Seconds (whole, at least 1) after which a full bucket has room for ``cost``:
        the bucket drains ``per_minute`` a minute, so that long at most."""
        return max(1, math.ceil(cost * MINUTE / self.per_minute))


class Shares:
    """Each member's and each server's share of the bot's global budget (see the module)."""

    def __init__(self, member_per_minute: int, server_per_minute: int, views_per_minute: int = 0) -> None:
        self.members = _Buckets(member_per_minute) if member_per_minute > 0 else None
        self.servers = _Buckets(server_per_minute) if server_per_minute > 0 else None
        self.views = _Buckets(views_per_minute) if views_per_minute > 0 else None
        self.counts = ShareCounts()

    async def take_view(self, user_id: int) -> int | None:
        """Count one view made for ``user_id`` (a hand drawn, a profile), or, past their
        share of those, count nothing and return the seconds to wait (the caller words it)."""
        if self.views is None:
            return None
        bucket = self.views.get(user_id)
        if not bucket.has_capacity(1):
            self.counts.refused_views += 1
            return self.views.wait_for(1)
        await bucket.acquire(1)  # (room was checked: no wait)
        return None

    async def take(self, guild_id: int | None, user_id: int, cost: int = 1) -> str | None:
        """Count an action of ``user_id`` in ``guild_id`` costing ``cost`` requests, or,
        past either share, count nothing and return the sentence that refuses it."""
        member = self.members.get(user_id) if self.members is not None else None
        server = self.servers.get(guild_id) if self.servers is not None and guild_id is not None else None
        # Over a share: a cost above a whole share is counted as the whole share.
        if member is not None and not member.has_capacity(min(cost, member.max_rate)):
            self.counts.refused_member += 1
            assert self.members is not None
            return _("Slow down: you have used your share of the bot's messages for now, so nothing changed; try again in {seconds} s.",
                     seconds=self.members.wait_for(cost))
        if server is not None and not server.has_capacity(min(cost, server.max_rate)):
            self.counts.refused_server += 1
            assert self.servers is not None
            return _("Slow down: this server has used its share of the bot's messages for now, so nothing changed; try again in {seconds} s.",
                     seconds=self.servers.wait_for(cost))
        # Both have room: taking it does not wait (no other task runs in between).
        if member is not None:
            await member.acquire(min(cost, member.max_rate))
        if server is not None:
            await server.acquire(min(cost, server.max_rate))
        self.counts.taken += 1
        return None
