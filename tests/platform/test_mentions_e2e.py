"""Mentions are never parsed from anything a user typed (issue 20): every message the
bot creates or edits carries an explicit ``allowed_mentions`` (bot/discord_front/mentions.py), and
only a board posted anew to ping names users. ``tests/e2e/mentions.py`` checks this
after every SimCord test; here, the check itself and the cases it was written for."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from tests.e2e.mentions import problems
from tests.e2e.ui import board, game_place
from tests.platform.test_table_e2e import TOY, mover_of, play_code, start, world


pytestmark = pytest.mark.extensions(*TOY)


def request(method, path, json):
    return SimpleNamespace(method=method, path=path, json=json)


def test_the_check_names_the_route_and_what_is_wrong():
    v2_edit = {"components": [{"type": 10, "content": "@everyone typed by a player"}], "flags": 32768}
    found = problems([
        request("PATCH", "/channels/1/messages/2", v2_edit),  # what discord.py sent for a V2 edit
        request("POST", "/channels/1/messages", {"content": "hi", "allowed_mentions": {"parse": ["everyone", "users"]}}),
        request("POST", "/interactions/5/tok/callback", {"type": 7, "data": {"content": "x", "allowed_mentions": {"parse": [], "roles": ["9"]}}}),
        request("PATCH", "/webhooks/1/tok/messages/@original", {"content": "<@3>", "allowed_mentions": {"parse": [], "users": ["3"]}}),
        request("POST", "/channels/1/messages", {"content": "<@3>", "allowed_mentions": {"parse": [], "users": ["3", "4"]}}),
    ])
    assert found == [
        "PATCH /channels/1/messages/2: no allowed_mentions (Discord would parse @everyone, roles and users)",
        "POST /channels/1/messages: allowed_mentions.parse allows everyone",
        "POST /channels/1/messages: allowed_mentions.parse allows users",
        "POST /interactions/5/tok/callback: allowed_mentions.roles ['9']",
        "PATCH /webhooks/1/tok/messages/@original: allowed_mentions.users ['3'] on an edit (an edit notifies nobody)",
        "POST /channels/1/messages: allowed_mentions.users ['4'] not mentioned in the message",
    ]
    fine = [
        request("POST", "/interactions/5/tok/callback", {"type": 5, "data": {"flags": 64}}),  # a deferral has no message
        request("DELETE", "/channels/1/messages/2", None),
        request("POST", "/channels/1/messages", {"content": "👉 <@3>: your move.", "allowed_mentions": {"parse": [], "users": ["3"]}}),
    ]
    assert problems(fine) == []


async def test_v2_board_and_dm_edits_say_they_ping_nobody_and_only_a_new_board_pings(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 3)
    await members[2].slash(channel, "settings hands", where="dm")
    await start(channel, members)
    hands = {}
    while env.bot.tables.tables():
        mover, table = mover_of(env, members)
        if mover is members[2]:
            dms = [m for m in mover.user.dm_channel.history() if m.author.bot]
            await mover.user.select(dms[-1], [play_code(table, mover)])
            continue
        if mover.id not in hands:
            hands[mover.id] = (await mover.click(board(channel), label="Show hand")).response.message
        result = await mover.select(hands[mover.id], [play_code(table, mover)])
        hands[mover.id] = result.response.message
    place = game_place(channel).id
    edits = [r for r in env.http_requests if r.method == "PATCH" and re.fullmatch(rf"/channels/{place}/messages/\d+", r.path)]
    assert edits and all(r.json["allowed_mentions"] == {"parse": []} for r in edits)
    dm = members[2].user.dm_channel.id
    dm_edits = [r for r in env.http_requests if r.method == "PATCH" and r.path.startswith(f"/channels/{dm}/messages/")]
    assert dm_edits and all(r.json["allowed_mentions"] == {"parse": []} for r in dm_edits)
    posts = [r for r in env.http_requests if r.method == "POST" and r.path == f"/channels/{place}/messages"]
    assert any(r.json["allowed_mentions"].get("users") for r in posts)  # the board that pings names whom
    assert problems(env.http_requests) == []
