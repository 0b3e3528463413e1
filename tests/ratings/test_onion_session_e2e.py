"""An Onion session is one rated game (SimCord): its rounds rate nothing, and
`/onion session end` rates the final standings once and says how ratings moved."""

from __future__ import annotations

from bot.players import ratings
from storage import repos
from tests.e2e.ui import board, text
from tests.e2e.world import world
from tests.onion.test_e2e_onion import play_out


async def test_rounds_do_not_rate_and_the_session_end_does(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 3, channel="onion", prefix="o")
    opened = await members[0].slash(channel, "onion new", variant="plain")
    for member in members[1:]:
        await member.click(opened.response.message, label="Join")
    await members[0].click(opened.response.message, label="Start")
    await play_out(env, channel, members)
    assert "📈 Ratings" not in text(board(channel))  # a round is not a rated game
    nxt = await members[0].click(board(channel), label="Next round")
    await members[0].click(nxt.response.message, label="Start")
    await play_out(env, channel, members)
    async with env.bot.tables.storage.reading(guild.id) as db:
        assert await repos.ratings_of(db, "onion", [m.id for m in members]) == {}
        assert sum(s.played for s in await repos.leaderboard(db, "onion")) == 6  # /stats counts rounds
    ended = await members[0].slash(channel, "onion session end")
    summary = ended.response.content
    assert "the session is over" in summary and "📈 Ratings:" in summary
    async with env.bot.tables.storage.reading(guild.id) as db:
        rows = await repos.ratings_of(db, "onion", [m.id for m in members])
        feed = await repos.rating_feed(db, "onion", "session_results")
    assert set(rows) == {m.id for m in members} and all(r.played == 1 for r in rows.values())
    assert len({row[0] for row in feed}) == 1  # one session, one rated game
    top = max(rows.values(), key=lambda r: r.shown)
    assert f"<@{top.user_id}> +" in summary and top.won == 1
    assert ratings.source_of("onion") == "session_results"
