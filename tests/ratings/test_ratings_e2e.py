"""Ratings through Discord (SimCord): a series of games moves the players' ratings,
the finished board says by how much, /leaderboard lists them with the caller's own
place, /profile shows a record, rivals and a picture of the rating with alt text."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.players import ratings
from tests.e2e.ui import game_place, head
from tests.e2e.world import world

EXTENSIONS = ("bot.discord_front.commands", "bot.discord_front.profile_commands", "tests.platform.toy")


pytestmark = pytest.mark.extensions(*EXTENSIONS)


async def play(env, channel, members) -> str:
    """One toy game, everyone discarding in turn until one has no cards (the host
    moves first, so the host wins); returns the finished board's text."""
    lobby = (await members[0].slash(channel, "toy new")).response.message
    for m in members[1:]:
        await m.click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    for _ in range(40):
        tables = env.bot.tables.tables()
        if not tables:
            break
        (table,) = tables
        (pid,) = table.state.current_players()
        mover = next(m for m in members if m.id == pid)
        board = game_place(channel).last_message
        hand = await mover.click(board, label="Show hand")
        legal = [a for a in table.state.legal_actions(pid) if a.kind == "play"]
        await mover.select(hand.response.message, [legal[0].code()])
    assert not env.bot.tables.tables()
    return head(game_place(channel).last_message)


async def test_a_series_of_games_then_leaderboard_and_profile(simcord_env, data_dir):
    env = simcord_env
    guild, channel, members = world(env, 3)
    texts = []
    for _ in range(ratings.MIN_GAMES):
        texts.append(await play(env, channel, members))
    # The host moves first and everyone holds three cards: the host goes out first every time.
    assert all("won the Toy game" in t for t in texts)
    first = texts[0]
    # The rating moves are in the standings (each person named once there), not on a line of their own.
    assert "📈 Ratings:" not in first and f"Standings and rating moves: 1st <@{members[0].id}> (+" in first
    async with env.bot.tables.storage.reading(guild.id) as db:
        rows = await ratings.repos.ratings_of(db, "toy", [m.id for m in members])
    assert {m.id for m in members} == set(rows) and all(r.played == ratings.MIN_GAMES for r in rows.values())
    assert rows[members[0].id].shown > rows[members[2].id].shown

    board = await members[2].slash(channel, "leaderboard", game="toy")
    embed = board.response.message.embeds[0]
    assert not board.ephemeral
    lines = embed.description.splitlines()
    assert lines[0].startswith(f"1. <@{members[0].id}> — **{rows[members[0].id].shown}**")
    assert len(lines) == 3
    assert embed.fields[0].value.startswith("You are 3rd of 3")
    # One leaderboard (issue 35): without a game, the games-won table; /stats is its older name.
    wins = (await members[2].slash(channel, "leaderboard")).response.message.embeds[0]
    assert wins.title == "Leaderboard" and wins.fields[0].name == "Toy"
    assert wins.fields[0].value.startswith(f"1. <@{members[0].id}> — {ratings.MIN_GAMES} wins in {ratings.MIN_GAMES} games")
    assert "/leaderboard with a game" in wins.footer.text
    alias = (await members[2].slash(channel, "stats")).response.message.embeds[0]
    assert [(f.name, f.value) for f in alias.fields] == [(f.name, f.value) for f in wins.fields]

    # Someone with no games sees where they stand, and an unknown game is refused.
    newcomer = guild.add_member(env.create_user("new"))
    mine = await newcomer.slash(channel, "leaderboard", game="toy")
    assert "no rated Toy games yet" in mine.response.message.embeds[0].fields[0].value
    bad = await newcomer.slash(channel, "leaderboard", game="chess")
    assert bad.ephemeral and "I don't know a game called 'chess'" in head(bad.response)

    shown = await members[1].slash(channel, "profile", player=members[0], game="toy")
    messages = [shown.response, *shown.followups]
    message = next(m for m in messages if m is not None and m.attachments)
    assert f"rating is {rows[members[0].id].shown} after 5 rated games" in message.content
    embed = message.embeds[0]
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Record"].startswith("5 rated games, 5 won (100%)")
    assert fields["Best against"].startswith(f"<@{members[2].id}>") or fields["Best against"].startswith(f"<@{members[1].id}>")
    assert fields["Toughest opponent"] == "Nobody yet"
    (attachment,) = message.attachments
    assert attachment.filename == "rating.png" and embed.image.url.endswith("rating.png")
    png = env.backend.cdn.get(attachment.url)
    picture = Image.open(io.BytesIO(png))
    picture.load()
    assert picture.format == "PNG" and picture.size == (800, 360)
    alt = attachment.description
    assert alt.startswith("Line chart of") and "over 5 rated games" in alt and len(alt) <= 1024

    # Without options: the caller's own profile in the game they played most.
    own = await members[2].slash(channel, "profile")
    message = next(m for m in [own.response, *own.followups] if m is not None and m.embeds)
    assert message.embeds[0].title.endswith("· Toy")
    assert message.embeds[0].fields[3].name == "Toughest opponent" and f"<@{members[0].id}>" in message.embeds[0].fields[3].value
    nothing = await newcomer.slash(channel, "profile")
    assert "has no rated games" in head([nothing.response, *nothing.followups][-1])


async def test_a_server_from_before_ratings_is_replayed_by_leaderboard(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 2)
    async with env.bot.tables.storage.transaction(guild.id) as db:
        for n in range(ratings.MIN_GAMES):
            table_id = await ratings.repos.insert_table(db, game="toy", channel_id=channel.id, host_id=members[0].id, options={}, timer_seconds=60, now=float(n))
            await ratings.repos.update_table(db, table_id, now=float(n), status="finished")
            await ratings.repos.record_results(db, table_id, "toy", [[members[1].id], [members[0].id]], float(n))
    shown = await members[0].slash(channel, "leaderboard", game="toy")
    message = next(m for m in [shown.response, *shown.followups] if m is not None and m.embeds)
    lines = message.embeds[0].description.splitlines()
    assert lines[0].startswith(f"1. <@{members[1].id}>") and f"{ratings.MIN_GAMES} games, {ratings.MIN_GAMES} won" in lines[0]
    assert message.embeds[0].fields[0].value.startswith("You are 2nd of 2")
    async with env.bot.tables.storage.reading(guild.id) as db:
        assert await ratings.is_current(db, "toy")
