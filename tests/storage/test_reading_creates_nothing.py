"""Reading never creates storage (issue 37, item 7): on a server with no games, the
commands that only read (/leaderboard, /profile, /stats, /privacy show, /settings show)
answer from nothing and leave no database file behind; the first write creates it."""

from __future__ import annotations

import pytest

from storage import repos
from storage.db import GuildDataMissing, Storage
from tests.e2e.world import world

EXTENSIONS = ("bot.discord_front.commands", "bot.discord_front.profile_commands", "bot.discord_front.privacy_commands", "tests.platform.toy")


@pytest.mark.extensions(*EXTENSIONS)
async def test_read_only_commands_on_a_server_with_no_games_create_no_file(simcord_env, data_dir):
    guild, channel, (ann,) = world(simcord_env, 1)
    answers = [
        await ann.slash(channel, "leaderboard", game="toy"),
        await ann.slash(channel, "profile"),
        await ann.slash(channel, "profile", game="toy"),
        await ann.slash(channel, "stats"),
        await ann.slash(channel, "privacy show"),
    ]
    for answer in answers:
        assert answer.response is not None  # each was answered
    assert not (data_dir / "guilds" / f"{guild.id}.sqlite3").exists()
    assert not list((data_dir / "guilds").glob(f"{guild.id}*")) if (data_dir / "guilds").exists() else True
    assert "keeps nothing about you" in answers[-1].response.content


async def test_reading_a_missing_guild_reads_nothing_and_writing_creates_it(tmp_path):
    storage = Storage(tmp_path)
    try:
        async with storage.reading(7) as db:
            assert await repos.get_guild_setting(db, "language") is None
            async with db.execute("SELECT COUNT(*) FROM game_tables") as cursor:
                assert (await cursor.fetchone())[0] == 0
        assert not storage.has_database(7) and not (tmp_path / "guilds").exists()
        with pytest.raises(GuildDataMissing):
            async with storage.reading(7, create=False):
                pass
        async with storage.transaction(7) as db:
            await repos.set_guild_setting(db, "language", "es")
        assert storage.has_database(7)
        async with storage.reading(7) as db:
            assert await repos.get_guild_setting(db, "language") == "es"
        async with storage.reading(8) as db:  # another, still missing: still nothing
            assert await repos.get_guild_setting(db, "language") is None
        assert not storage.has_database(8)
    finally:
        await storage.close()
