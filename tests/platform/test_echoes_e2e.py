"""The gateway's echo of the bot's own messages is dropped before discord.py parses it
(bot/discord_front/echoes.py); people's messages still reach the bot, parsed."""

from __future__ import annotations

import pytest

from bot.discord_front.echoes import ignore_bot_messages
from tests.e2e.ui import game_place
from tests.e2e.world import TOY, world

pytestmark = pytest.mark.extensions(*TOY)


async def test_the_bots_messages_are_not_parsed_and_peoples_are(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 2)
    host = members[0]
    lobby = (await host.slash(channel, "toy new")).response.message
    await members[1].click(lobby, label="Join")
    await host.click(lobby, label="Start")
    place = game_place(channel)
    board = place.last_message
    assert board.author.id == env.bot.user.id  # the bot posted (and edits) the board
    said = await host.send(place, "good luck")

    cached = {m.id: m.author.id for m in env.bot.cached_messages}
    assert said.id in cached, "a person's message is parsed and cached as before"
    assert board.id not in cached and env.bot.user.id not in cached.values(), "the bot's own messages are dropped unparsed"


async def test_installed_once(simcord_env):
    state = simcord_env.bot._connection
    wrapped = state.parsers["MESSAGE_UPDATE"]
    assert getattr(wrapped, "drops_bot_messages", False)
    ignore_bot_messages(state)  # a second call (a reconnect's setup) does not wrap it again
    assert state.parsers["MESSAGE_UPDATE"] is wrapped
