"""Computer players end to end through SimCord: one member and computer seats play a
whole game of Blackjack, Idiot and Engines, with a restart in the middle after which
the computers carry on by themselves. The member plays through their hand message
only; the computers through the platform (bot/computer.py), never from the test."""

from __future__ import annotations

import random
import sqlite3

import discord
import pytest

from bot import computer
from tests.conftest import restart
from tests.e2e.ui import game_place, select_options, button_ids, use_control


def world(env):
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    host = guild.add_member(env.create_user("host"), roles=[admins])
    return guild, channel, host


def db_rows(data_dir, guild_id, sql, *args):
    with sqlite3.connect(data_dir / "guilds" / f"{guild_id}.sqlite3") as con:
        return con.execute(sql, args).fetchall()


def the_table(env):
    (table,) = env.bot.tables.tables()
    return table


def codes(message):
    return select_options(message) + [cid.split(":", 5)[5] for cid in button_ids(message) if cid.startswith("dh:act:")]


async def human_move(host, channel, rng):
    """The member opens their hand with /hand and plays one of the moves it offers
    (Ready first in Idiot's swap phase, so the game moves on)."""
    shown = await host.slash(game_place(channel), "hand")
    assert shown.ephemeral and "Your move" in shown.response.content, shown.response.content
    offered = codes(shown.response.message)
    assert offered
    code = "ready" if "ready" in offered else rng.choice(offered)
    await use_control(host, shown.response.message, code)
    return code


async def play_with_computers(env, data_dir, monkeypatch, command, levels, **options):
    guild, channel, host = world(env)
    await host.slash(channel, "settings bot-pause", seconds=0.0)
    opened = await host.slash(channel, command, **options)
    lobby = opened.response.message
    for level in levels:
        added = await host.click(lobby, label=f"Add computer ({level})")
        lobby = added.response.message or lobby
    seats = [p for p in env.bot.tables.tables()[0].record.players if computer.is_computer(p)]
    assert [computer.level_of(p) for p in seats] == list(levels)
    shown = "\n".join(f["value"] for f in added.response.embeds[0].fields) if isinstance(added.response.embeds[0].fields[0], dict) else "\n".join(f.value for f in added.response.embeds[0].fields)
    assert all(computer.name(p) in shown for p in seats)
    await host.click(lobby, label="Start")
    table = the_table(env)
    rng = random.Random(7)

    restarted = False
    for step in range(400):
        if table.status != "playing":
            break
        current = table.state.current_players()
        # The computers have played everything they had to: only the member is waited for.
        assert host.id in current, (step, current)
        ping = game_place(channel).last_message
        assert all(str(p) not in (ping.content or "") for p in seats)  # computers are never pinged
        if step >= 3 and not restarted:
            # Stop the computers before the member's move, so that after it a computer
            # seat is due with nothing playing it; then restart: the restored table
            # must play the computer seats by itself.
            monkeypatch.setattr(computer, "schedule", lambda manager, table: None)
            await human_move(host, channel, rng)
            if table.status != "playing" or not any(computer.is_computer(p) for p in table.state.current_players()):
                continue
            before = table.record.version
            monkeypatch.undo()
            await restart(env, data_dir)
            table = the_table(env)
            restarted = True
            if table.status == "playing":
                assert host.id in table.state.current_players()
            assert table.record.version > before  # moves made after the restart by computers alone
            continue
        await human_move(host, channel, rng)
    else:
        pytest.fail("the game did not end within 400 of the member's moves")
    assert restarted
    assert table.status == "finished"

    sources = db_rows(data_dir, guild.id, "SELECT DISTINCT user_id, source FROM actions WHERE table_id = ?", table.id)
    assert {u for u, s in sources if s == "computer"} == set(seats)
    assert {u for u, s in sources if s == "player"} == {host.id}
    results = db_rows(data_dir, guild.id, "SELECT user_id FROM results WHERE table_id = ?", table.id)
    assert {u for (u,) in results} == {host.id, *seats}
    return guild, channel, host


async def test_blackjack_with_two_computers_and_a_restart(simcord_env, data_dir, monkeypatch):
    await play_with_computers(simcord_env, data_dir, monkeypatch, "blackjack new", ("easy", "hard"))


async def test_idiot_with_two_computers_and_a_restart(simcord_env, data_dir, monkeypatch):
    await play_with_computers(simcord_env, data_dir, monkeypatch, "idiot new", ("easy", "hard"))


async def test_engines_with_a_computer_and_a_restart(simcord_env, data_dir, monkeypatch):
    await play_with_computers(simcord_env, data_dir, monkeypatch, "engines new", ("hard",), players=2)
