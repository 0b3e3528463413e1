"""/profile's chart for the same data comes from a cache; a new result draws it anew (issue 40)."""

from __future__ import annotations

import pytest

from bot.pictures import rating_chart
from tests.e2e.world import world
from tests.ratings.test_ratings_e2e import EXTENSIONS, play

pytestmark = pytest.mark.extensions(*EXTENSIONS)


def chart_of(env, result) -> bytes:
    message = next(m for m in [result.response, *result.followups] if m is not None and m.attachments)
    (attachment,) = message.attachments
    return env.backend.cdn.get(attachment.url)


async def test_the_same_profile_twice_is_drawn_once_and_a_new_result_draws_it_anew(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 2)
    await play(env, channel, members)
    rating_chart._drawn.cache_clear()
    first = chart_of(env, await members[1].slash(channel, "profile", player=members[0], game="toy"))
    assert rating_chart._drawn.cache_info()[:2] == (0, 1)  # (hits, misses): drawn once
    again = chart_of(env, await members[0].slash(channel, "profile", game="toy"))
    assert rating_chart._drawn.cache_info()[:2] == (1, 1) and again == first  # the same data: from the cache
    await play(env, channel, members)  # a new result: one more point on the line
    newer = chart_of(env, await members[0].slash(channel, "profile", game="toy"))
    assert rating_chart._drawn.cache_info()[:2] == (1, 2) and newer != first


async def test_profile_past_the_members_share_of_views_is_refused_in_one_sentence_and_reads_nothing(simcord_env, monkeypatch):
    """/profile counts against the member's share of views (VIEWS_PER_MINUTE), as Show
    hand does: one member asking a hundred a second cannot take every other game's CPU."""
    from bot.discord_front.shares import Shares
    from storage import repos

    env = simcord_env
    guild, channel, members = world(env, 2)
    await play(env, channel, members)
    env.bot.tables.shares = Shares(0, 0, 1)
    chart_of(env, await members[0].slash(channel, "profile", game="toy"))  # 1 of 1
    reads = []
    real = repos.player_ratings

    async def counted(*args, **kwargs):
        reads.append(args)
        return await real(*args, **kwargs)

    monkeypatch.setattr(repos, "player_ratings", counted)
    refused = await members[0].slash(channel, "profile", game="toy")
    assert refused.response.message.flags.ephemeral
    assert refused.response.message.content == "Slow down: you asked for profiles very often, so I did not look one up again; try again in 60 s."
    assert reads == []
    other = await members[1].slash(channel, "profile", game="toy")  # another member's share is their own
    assert chart_of(env, other) and len(reads) == 1
