"""Enid on a bot that does not ask for the Message Content intent: the lobby says
rituals go through /say, typed chat reaches the bot without its words (so nothing is
judged), and /say carries every ritual."""

from __future__ import annotations

import pytest

from tests.conftest import make_bot
from tests.enid.test_e2e_enid import game_place, owed, play, setup_world
from tests.e2e.ui import embed_of


@pytest.fixture
def simcord_bot(data_dir):
    bot = make_bot(data_dir)
    bot._connection._intents.message_content = False  # as a deployment without the intent would run
    return bot


async def test_without_message_content_rituals_go_through_say(simcord_env, data_dir, deals):
    env = simcord_env
    guild, channel, (ada, bob, cyd) = setup_world(env)
    assert not env.bot.intents.message_content
    deals.append(([["6s", "5s", "5c"], ["5d", "3s", "4d"], ["Qs", "7s", "7c"]], ["4s"]))
    opened = await ada.slash(channel, "enid new")
    note = embed_of(opened.response).footer.text
    assert "cannot read chat" in note and "/say" in note
    for member in (bob, cyd):
        await member.click(opened.response.message, label="Join")
    await ada.click(opened.response.message, label="Start")
    table = env.bot.tables.active_in_channel(guild.id, game_place(channel).id)
    await play(ada, channel, "play:6s")
    await ada.send(game_place(channel), "Alan Turing of Sturgeon")  # the bot sees a message, not its words
    assert owed(table) == [(ada.id, "name")]
    said = await ada.slash(game_place(channel), "say", text="Alan Turing of Sturgeon")
    assert not said.ephemeral and owed(table) == [(ada.id, "first_line")]
