"""/privacy show, export and forget end to end (issue 25), on the Toy game with an Enid
session and an Onion session carried in the channel (as their games leave them)."""

from __future__ import annotations

import json

import pytest

from bot.players.privacy import FORMER_NAME, is_former
from storage import repos
from storage.repos import FORMER_PLAYERS

from tests.e2e.ui import game_place
from tests.e2e.world import db_rows as rows, world as shared_world
from tests.hardening.forge import forge_component, text_of

EXTENSIONS = ("bot.discord_front.commands", "bot.discord_front.privacy_commands", "tests.platform.toy")
pytestmark = pytest.mark.extensions(*EXTENSIONS)


async def play_toy_game(env, channel, members):
    """A whole Toy game (it ends with a winner and results)."""
    host = members[0]
    lobby = (await host.slash(channel, "toy new")).response.message
    for m in members[1:]:
        await m.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    for _ in range(20):
        tables = env.bot.tables.tables()
        if not tables:
            return
        table = tables[0]
        (pid,) = table.state.current_players()
        mover = next(m for m in members if m.id == pid)
        hand = await mover.click(game_place(channel).last_message, label="Show hand")
        await mover.select(hand.response.message, [table.state.legal_actions(mover.id)[0].code()])
    raise AssertionError("the Toy game did not finish")


async def sessions(env, guild, channel, a, b):
    """An Enid session with a chain name by each player, and an Onion session's bankrolls,
    in the shapes Enid's and Onion's carry_out() write."""
    async with env.bot.storage.transaction(guild.id) as db:
        await repos.set_carryover(db, channel.id, "enid", {
            "chain": [{"words": ["marmalade"], "author": a.id, "heard_by": [a.id, b.id]},
                      {"words": ["tuppence"], "author": b.id, "heard_by": [a.id, b.id]}],
            "middle_names": [],
            "results": [{"winner": a.id, "placements": [[a.id], [b.id]]}],
        }, 1.0)
        await repos.set_carryover(db, channel.id, "onion", {
            "round": 3, "variant": "gambling", "bankrolls": {str(a.id): 140, str(b.id): 60},
            "wins": {str(a.id): 2, str(b.id): 1}, "rebuys": {}, "dealer": 0, "pot": 0, "eights_wild": False, "out": [],
        }, 1.0)


async def world(env, n=2):
    return shared_world(env, n)


async def export_of(env, member, channel) -> dict:
    result = await member.slash(channel, "privacy export")
    assert result.ephemeral
    sent = [m for m in member.user.dm_channel.history() if m.author.bot and m.attachments]
    assert sent, "the export was not sent by DM"
    return json.loads(await sent[-1].attachments[0].read())


def everything_else(data: dict) -> str:
    return json.dumps({k: v for k, v in data.items() if k not in ("you",)})


async def test_show_lists_and_export_holds_it_and_nobody_else(simcord_env, data_dir):
    env = simcord_env
    guild, channel, (a, b) = await world(env)
    await play_toy_game(env, channel, [a, b])
    await a.slash(channel, "settings my-pictures", mode="off")
    await sessions(env, guild, channel, a, b)

    shown = await a.slash(channel, "privacy show")
    assert shown.ephemeral
    text = shown.response.content
    for title in ("Your settings", "Your moves", "Your results", "Names you added to Enid's chain", "Your Onion bankrolls", "Games you played"):
        assert f"**{title}:**" in text
    assert "90 days" in text and "30 days" in text  # the move logs' and the leave grace's defaults

    data = await export_of(env, a, channel)
    # What show listed is in the file, and the other player's id nowhere in it.
    assert data["settings"] == {"pictures": "off"}
    assert data["moves"] and {m["table"] for m in data["moves"]} == {1}
    assert data["results"][0]["game"] == "toy" and data["results"][0]["players"] == 2
    assert [e["name"] for e in data["enid_chain"]] == ["marmalade"]
    assert data["bankrolls"] == [{"channel": str(channel.id), "chips": 140, "rounds_won": 2, "rebuys": 0, "round": 3}]
    (game,) = data["games"]
    assert sorted(game["seats"]) == ["seat 2", "you"] or sorted(game["seats"]) == ["seat 1", "you"]
    assert str(b.id) not in json.dumps(data)
    assert data["you"] == str(a.id)


async def test_export_with_closed_dms_is_an_ephemeral_file(simcord_env):
    env = simcord_env
    guild, channel, (a, b) = await world(env)
    await play_toy_game(env, channel, [a, b])
    env.inject_error("POST", "/users/@me/channels", status=403, code=50007, message="Cannot send messages to this user", times=None)
    result = await a.slash(channel, "privacy export")
    (followup,) = [m for m in [result.response, *result.followups] if m is not None and m.attachments]
    assert followup.ephemeral and "DMs are closed" in followup.content
    data = json.loads(await followup.attachments[0].read())
    assert data["results"] and str(b.id) not in json.dumps(data)


async def test_forget_erases_keeps_others_and_the_chain(simcord_env, data_dir):
    env = simcord_env
    guild, channel, (a, b) = await world(env)
    await play_toy_game(env, channel, [a, b])
    await a.slash(channel, "settings hands", where="dm")
    await sessions(env, guild, channel, a, b)
    before_b = await export_of(env, b, channel)

    asked = await a.slash(channel, "privacy forget")
    assert asked.ephemeral and "cannot be undone" in asked.response.content
    # Only the person who asked can confirm, and only in this server (forged clicks).
    public = game_place(channel).last_message
    nosy = await forge_component(b, public, f"dh:forget:{guild.id}:{a.id}")
    assert "someone else's" in text_of(nosy)
    elsewhere, other_channel, (intruder,) = await world(env, 1)
    own = (await intruder.slash(other_channel, "privacy show")).response.message
    foreign = await forge_component(intruder, own, f"dh:forget:{guild.id}:{intruder.id}")
    assert "another server" in text_of(foreign)
    assert rows(data_dir, guild.id, "SELECT COUNT(*) FROM results WHERE user_id = ?", a.id) == [(1,)]
    done = await a.click(asked.response.message, label="Forget me")
    assert "no longer keeps anything" in (done.response.content if done.response else asked.response.content)

    # Nothing names them any more: not a row, not a JSON blob, not a log line.
    for table, column in (("results", "user_id"), ("actions", "user_id"), ("user_settings", "user_id"), ("game_tables", "host_id")):
        assert rows(data_dir, guild.id, f"SELECT COUNT(*) FROM {table} WHERE {column} = ?", a.id) == [(0,)]
    for (blob,) in rows(data_dir, guild.id, "SELECT players || state || recent || publish || seat_choices FROM game_tables"):
        assert str(a.id) not in blob
    for (blob,) in rows(data_dir, guild.id, "SELECT data FROM carryover"):
        assert str(a.id) not in blob
    # The game keeps its shape: two results, one a former player's.
    places = rows(data_dir, guild.id, "SELECT user_id, place FROM results ORDER BY place")
    assert len(places) == 2 and sum(is_former(u) for u, _ in places) == 1 and b.id in {u for u, _ in places}

    # Enid's chain keeps both names; the forgotten one has no author.
    async with env.bot.storage.reading(guild.id) as db:
        enid = await repos.get_carryover(db, channel.id, "enid")
    assert [e["words"] for e in enid["chain"]] == [["marmalade"], ["tuppence"]]
    assert enid["chain"][0]["author"] is None and enid["chain"][1]["author"] == b.id

    # Their export is empty; the other player's is unchanged.
    after_a = await export_of(env, a, channel)
    for key in ("settings", "moves", "results", "enid_chain", "bankrolls", "games"):
        assert not after_a[key], key
    after_b = await export_of(env, b, channel)
    assert {k: v for k, v in after_b.items() if k != "exported_at"} == {k: v for k, v in before_b.items() if k != "exported_at"}
    shown = await a.slash(channel, "privacy show")
    assert "keeps nothing about you" in shown.response.content

    # /stats counts the other player's game against nobody's name, and never mentions the former player.
    stats = await b.slash(channel, "stats")
    words = " ".join(f.value for e in stats.response.embeds for f in e.fields)
    assert f"<@{b.id}>" in words and "<@419" not in words


async def test_forget_is_refused_while_seated_at_a_game_in_play(simcord_env, data_dir):
    env = simcord_env
    guild, channel, (a, b) = await world(env)
    await a.slash(channel, "settings hands", where="dm")
    lobby = (await a.slash(channel, "toy new")).response.message
    await b.click(lobby, label="Join")
    refused = await b.slash(channel, "privacy forget")
    assert refused.ephemeral and "finish or leave your game first" in refused.response.content
    assert not refused.response.components  # no button to press
    # A confirmation asked before sitting down is refused too once they sit.
    asked = await a.slash(game_place(channel), "privacy forget")
    assert "finish or leave your game first" in asked.response.content
    assert rows(data_dir, guild.id, "SELECT COUNT(*) FROM user_settings WHERE user_id = ?", a.id) == [(1,)]


async def test_a_confirmation_from_before_sitting_down_is_refused(simcord_env, data_dir):
    env = simcord_env
    guild, channel, (a, b) = await world(env)
    await a.slash(channel, "settings hands", where="dm")
    asked = await a.slash(channel, "privacy forget")
    lobby = (await b.slash(channel, "toy new")).response.message
    await a.click(lobby, label="Join")
    late = await a.click(asked.response.message, label="Forget me")
    text = late.response.content if late.response else ""
    assert "finish or leave your game first" in text
    assert rows(data_dir, guild.id, "SELECT COUNT(*) FROM user_settings WHERE user_id = ?", a.id) == [(1,)]


def test_former_players_are_never_mentions():
    from bot.core import computer
    from bot.discord_front.publish import standings

    former = FORMER_PLAYERS.start + 1
    assert computer.name(former) == FORMER_NAME
    assert "<@" not in standings([[former], [-101]])
