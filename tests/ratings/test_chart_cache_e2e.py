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
