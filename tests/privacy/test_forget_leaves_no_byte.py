"""Forget means forgotten (issue 37, item 13): when /privacy forget answers "Done", no
byte of the server's SQLite storage (the database file, its WAL and its shared-memory
index) holds the person's id, as text or as an 8-byte integer, or their name: not in
pages from before the forget, not in the old Enid carry-over JSON, not in a WAL that a
copy or backup taken while the bot runs would hold."""

from __future__ import annotations

import pytest

from tests.e2e.ui import game_place
from tests.e2e.world import add_members, guild_with_channel
from tests.privacy.test_privacy_e2e import EXTENSIONS, play_toy_game, sessions

pytestmark = pytest.mark.extensions(*EXTENSIONS)

NAME = "Zanzibar Quokkafeather"


def traces(user_id: int, name: str) -> list[bytes]:
    """The byte patterns that would give the person away."""
    return [str(user_id).encode(), user_id.to_bytes(8, "big"), user_id.to_bytes(8, "little"),
            name.encode("utf-8"), name.encode("utf-16-le")]


def found_in_files(data_dir, guild_id: int, patterns: list[bytes]) -> dict[str, list[bytes]]:
    found = {}
    for path in sorted((data_dir / "guilds").glob(f"{guild_id}.sqlite3*")):
        data = path.read_bytes()
        hits = [p for p in patterns if p in data]
        if hits:
            found[path.name] = hits
    return found


async def test_no_byte_of_the_servers_files_holds_the_forgotten_person(simcord_env, data_dir):
    env = simcord_env
    guild, channel = guild_with_channel(env)
    a, b = add_members(env, guild, [NAME, "Bob"])
    for _ in range(2):  # games, moves, results, the table's saved names, rewritten many times
        await play_toy_game(env, channel, [a, b])
    await a.slash(channel, "settings hands", where="dm")
    await a.slash(channel, "settings my-pictures", mode="off")
    await sessions(env, guild, channel, a, b)  # Enid's chain (a's name as author) and Onion's bankrolls
    patterns = traces(a.id, NAME)
    assert found_in_files(data_dir, guild.id, patterns), "the person is in the files before"

    asked = await a.slash(game_place(channel), "privacy forget")
    done = await a.click(asked.response.message, label="Forget me")
    said = done.response.content if done.response is not None else ""
    assert "no longer keeps anything" in said, said
    assert found_in_files(data_dir, guild.id, patterns) == {}
    # The other player is still there, and the bot carries on with the same files.
    assert found_in_files(data_dir, guild.id, traces(b.id, "Bob"))
    await play_toy_game(env, channel, [b, add_members(env, guild, ["Cy"])[0]])



async def test_a_busy_file_is_said_and_not_called_done(simcord_env, data_dir, monkeypatch):
    from storage.db import GuildDataBusy

    env = simcord_env
    guild, channel = guild_with_channel(env)
    (a,) = add_members(env, guild, [NAME])
    await a.slash(channel, "settings my-pictures", mode="off")

    async def busy(guild_id):
        raise GuildDataBusy("a backup holds the WAL")

    monkeypatch.setattr(env.bot.storage, "scrub", busy)
    asked = await a.slash(channel, "privacy forget")
    done = await a.click(asked.response.message, label="Forget me")
    said = done.response.content if done.response is not None else ""
    assert "One step is left" in said and "Run /privacy forget again" in said, said
