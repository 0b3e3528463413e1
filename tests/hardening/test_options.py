"""Items 2 and 3: option values are input too (declared ranges and choices are not
enforced on receipt), every cog answers its failures, and echoed input never
pushes a reply past Discord's 2,000 characters."""

from __future__ import annotations

import pytest

from storage import repos
from tests.e2e.world import admin_world
from tests.hardening.forge import forge_component, forge_slash, text_of

TOY = ("bot.discord_front.commands", "tests.platform.toy", "cogs.engines.cog")


pytestmark = pytest.mark.extensions(*TOY)


def world(env):
    return admin_world(env, 2)


async def test_timer_outside_its_range_is_refused_and_not_stored(simcord_env):
    env = simcord_env
    guild, channel, admin, members = world(env)
    for seconds in (-100, 0, 14, 3601, 10**9):
        result = await forge_slash(admin, channel, "settings timer", seconds=seconds)
        assert result.ephemeral and "from 15 to 3600" in text_of(result)
    assert await env.bot.tables.guild_turn_seconds(guild.id) == 120
    ok = await forge_slash(admin, channel, "settings timer", seconds=15)
    assert "15 s" in text_of(ok)


async def test_hands_where_outside_its_choices_gets_a_sentence(simcord_env):
    env = simcord_env
    guild, channel, admin, members = world(env)
    result = await forge_slash(members[0], channel, "settings hands", where="bogus")
    assert "'bogus' is not a place for your hands: use here or dm." in text_of(result)
    assert not await env.bot.tables.hands_in_dm(guild.id, members[0].id)
    done = await members[0].slash(channel, "settings hands", where="dm")
    assert done.response.content.startswith("From now on your hands will be shown in your DMs.")
    here = await members[0].slash(channel, "settings hands", where="here")
    assert here.response.content == "From now on your hands will be shown here in the channel, as private messages only you can see."


async def test_server_choices_outside_their_choices_get_a_sentence_and_change_nothing(simcord_env):
    env = simcord_env
    guild, channel, admin, members = world(env)
    for name, option, allowed in (("settings threads", "mode", "on or off"), ("settings layout", "style", "classic or v2"),
                                  ("settings pictures", "mode", "on or off")):
        result = await forge_slash(admin, channel, name, **{option: "x" * 500})
        text = text_of(result)
        assert result.ephemeral and f"use {allowed}; nothing changed" in text and len(text) < 300, text
    async with env.bot.tables.storage.reading(guild.id) as db:
        assert await repos.guild_settings_with_prefix(db, "") == {}
    done = await admin.slash(channel, "settings threads", mode="off")
    assert done.response.content.startswith("New games will be played in the channel")


async def test_engines_players_outside_its_choices_gets_a_sentence(simcord_env):
    env = simcord_env
    guild, channel, admin, members = world(env)
    for players in (3, -1, 10**12):
        result = await forge_slash(members[0], channel, "engines new", players=players)
        assert result.ephemeral and "has 2 or 4 players" in text_of(result)
    assert env.bot.tables.tables() == []
    opened = await forge_slash(members[0], channel, "engines new", players=4)
    assert not opened.ephemeral and env.bot.tables.tables()[0].record.options["players"] == 4


async def test_long_echoed_values_are_clipped(simcord_env):
    env = simcord_env
    guild, channel, admin, members = world(env)
    long = "x" * 3000
    for name, options in (
        ("settings house-rule", {"game": "toy", "rule": long, "value": "5"}),
        ("settings house-rule", {"game": long, "rule": "hand", "value": "5"}),
        ("settings house-rule", {"game": "toy", "rule": "hand", "value": long}),
        ("rules", {"game": long}),
        ("stats", {"game": long}),
    ):
        result = await forge_slash(admin, channel, name, **options)
        text = text_of(result)
        assert result.response is not None and 0 < len(text) <= 2000, name
        assert "…" in text
    said = await forge_slash(members[0], channel, "say", text="y" * 5000)
    assert "between 1 and 1900 characters" in text_of(said)


async def test_a_forged_long_select_value_gets_a_short_refusal(simcord_env):
    env = simcord_env
    guild, channel, admin, members = world(env)
    lobby = (await members[0].slash(channel, "toy new")).response.message
    await members[1].click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    (pid,) = table.state.current_players()
    mover = next(m for m in members if m.id == pid)
    hand = await mover.slash(channel, "hand")
    for value in ("play:" + "Z" * 5000, "?" * 5000):
        result = await forge_component(mover, hand.response.message, f"dh:sel:{guild.id}:{table.id}:0:0", values=[value])
        text = text_of(result)
        assert result.response is not None and 0 < len(text) <= 2000
    assert table.record.version == 0
