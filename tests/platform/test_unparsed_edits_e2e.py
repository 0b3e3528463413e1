"""The edits whose answer the bot does not read (bot/discord_front/edits.py), and Show
hand's answer, of which it reads only the new message's id: each sends
exactly the request discord.py's own method sends (same method, path, query and body,
pictures included), leaves the message as discord.py's method leaves it, and raises
discord.py's errors. Each case runs twice on the same message: discord.py's method
(``_PRIVATE_OK`` off: the fallback), then the unparsed edit."""

from __future__ import annotations

import json
import re

import discord
import pytest

from bot.discord_front import edits
from tests.e2e.ui import board
from tests.platform.test_hands_e2e import toy_hand_cards  # noqa: F401 (a fixture: hands carry a picture)
from tests.platform.test_table_e2e import TOY, mover_of, now, start, world

pytestmark = pytest.mark.extensions(*TOY)


def sent(env, since):
    """The requests since ``since``: method, path (an interaction's id and token made
    generic: each click has its own), query and body."""
    return [(r.method, re.sub(r"^/webhooks/(\d+)/[^/]+/", r"/webhooks/\1/TOKEN/", re.sub(r"^/interactions/\d+/[^/]+/", "/interactions/ID/TOKEN/", r.path)), r.params, r.json)
            for r in env.http_requests[since:]]


async def both_ways(env, monkeypatch, action, message):
    """The requests ``action`` sends and ``message`` as it is afterwards: first through
    discord.py's methods, then through the unparsed edits."""
    seen = []
    for unparsed in (False, True):
        monkeypatch.setattr(edits, "_PRIVATE_OK", unparsed)
        since = len(env.http_requests)
        await action()
        after = now(env, message)
        # (each upload is a new attachment, with an address of its own)
        components = re.sub(r"/attachments/\d+/\d+/", "/attachments/", json.dumps([c.to_dict() for c in after.components]))
        seen.append((sent(env, since), after.content, [e.to_dict() for e in after.embeds], components, [a.filename for a in after.attachments]))
    return seen


async def a_game_with_an_open_hand(env, layout="v2"):
    guild, channel, members = world(env, 2)
    if layout == "classic":
        admin = guild.add_member(env.create_user("admin"), roles=[guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))])
        await admin.slash(channel, "settings layout", style="classic")
    await start(channel, members)
    mover, table = mover_of(env, members)
    hand = (await mover.click(board(channel), label="Show hand")).response.message
    return channel, mover, table, hand


@pytest.mark.parametrize("layout", ["v2", "classic"])
async def test_each_edit_sends_what_discord_py_sends(simcord_env, monkeypatch, toy_hand_cards, layout):  # noqa: F811
    env = simcord_env
    channel, mover, table, hand = await a_game_with_an_open_hand(env, layout)
    assert table.record.publish.get("layout", "classic") == layout
    publisher = env.bot.tables.publisher

    async def refresh():  # a click answered by editing its own message (↻)
        await mover.click(now(env, hand), label="Refresh")

    async def live_hand():  # the hand edited through its token
        assert await publisher._update_live_hand(table, mover.id)

    async def board_edit():  # the board edited in place, its picture attached
        await publisher.publish(table)

    async def show_hand():  # a new hand message (its id is all the bot reads of the answer; the older copy is deleted)
        message = (await mover.click(board(channel), label="Show hand")).response.message
        shown.append(now(env, message))
        assert list(publisher.copies[(table.guild_id, table.id, mover.id)]) == [message.id]

    shown: list = []
    (old_requests, *_), (new_requests, *_) = await both_ways(env, monkeypatch, show_hand, board(channel))
    assert old_requests and new_requests == old_requests
    first, second = shown
    assert (second.content, len(second.attachments), second.flags.ephemeral) == (first.content, len(first.attachments), True)
    hand = second  # the copy a player can still click
    for action, message in ((refresh, hand), (live_hand, hand), (board_edit, board(channel))):
        (old_requests, *old_message), (new_requests, *new_message) = await both_ways(env, monkeypatch, action, message)
        assert old_requests and new_requests == old_requests, action.__name__
        assert new_message == old_message, action.__name__


async def test_errors_are_discord_pys(simcord_env, toy_hand_cards):  # noqa: F811
    env = simcord_env
    channel, mover, table, hand = await a_game_with_an_open_hand(env)
    live = env.bot.tables.publisher.live[(table.guild_id, table.id, mover.id)]
    env.inject_error("PATCH", "/channels/*/messages/*", status=404, code=10008, message="Unknown Message")
    with pytest.raises(discord.NotFound) as missing:
        await edits.edit_message(env.bot.get_partial_messageable(table.record.place).get_partial_message(table.record.message_id), attachments=[])
    assert missing.value.code == 10008
    env.inject_error("PATCH", "/webhooks/*/*/messages/@original", status=403, code=50027, message="Invalid Webhook Token")
    with pytest.raises(discord.Forbidden):
        await edits.edit_original(live.interaction, attachments=[])
    with pytest.raises(discord.InteractionResponded):  # its click was answered already
        await edits.answer_by_editing(live.interaction, attachments=[])
