"""Cripple Mr Onion with computer players end to end through SimCord (issue 12): one
member and two computer seats (easy and hard) play whole rounds; a restart comes while a
computer is due, and the computers carry on by themselves. The member plays only through
their hand message; the computers only through the platform (bot/core/computer.py)."""

from __future__ import annotations

import pytest

from bot.core import computer

from tests.ai.test_e2e_computers import db_rows, the_table
from tests.conftest import restart
from tests.e2e.embeds import embed_text
from tests.e2e.ui import board, embed_of, game_place, head, use_control
from tests.e2e.world import admin_world
from tests.onion.test_e2e_onion import choice, hand_of

SEED = 20261123
#: The computers' choices are seeded with the guild id (bot/core/computer.py) and SimCord numbers
#: ids in creation order, after the bot's slash commands: pinned (above SimCord's counter), so
#: that a new command elsewhere does not change this seed's story (with it, the round below
#: goes to a showdown).
GUILD_ID = 1456074443980900018


def world(env):
    guild, channel, host, _ = admin_world(env, 0, admin="host", channel="games", id=GUILD_ID)
    return guild, channel, host


async def member_move(host, channel, table):
    """The member opens their hand and plays a calm move it offers (keep, match, check)."""
    hand = await hand_of(host, channel)
    assert "Your move" in (head(hand) or ""), head(hand)
    code = choice(table.state, host.id)
    await use_control(host, hand, code)
    return code


async def play_round(env, data_dir, monkeypatch, host, channel, table, restart_at=None):
    schedule = computer.schedule
    seats = [p for p in table.state.players if computer.is_computer(p)]
    restarted = False
    for step in range(200):
        if table.status != "playing":
            return table, restarted
        # The computers have played everything they had to: only the member is waited for.
        assert table.state.current_players() == {host.id}, (step, table.state.current_players())
        ping = game_place(channel).last_message
        assert all(str(p) not in (head(ping) or "") for p in seats)  # computers are never pinged
        if restart_at is not None and step >= restart_at and not restarted:
            # Stop the computers before the member's move, so that after it a computer
            # seat is due with nothing playing it; then restart.
            monkeypatch.setattr(computer, "schedule", lambda manager, table: None)
            await member_move(host, channel, table)
            if table.status != "playing" or not any(computer.is_computer(p) for p in table.state.current_players()):
                monkeypatch.setattr(computer, "schedule", schedule)
                continue
            due = next(p for p in table.state.current_players() if computer.is_computer(p))
            shown = embed_text(embed_of(board(channel)))
            # (The board's first line says who is awaited: "⏳ Waiting for 🤖 Deckhand 1 (easy).")
            assert f"⏳ Waiting for {computer.name(due)}" in head(board(channel)) and "**Turn:**" not in shown
            before = table.record.version
            monkeypatch.setattr(computer, "schedule", schedule)
            await restart(env, data_dir)
            table = the_table(env)
            restarted = True
            assert table.record.version > before  # moves made after the restart by the computers alone
            continue
        await member_move(host, channel, table)
    pytest.fail("the round did not end within 200 of the member's moves")


async def test_a_member_and_two_computers_play_rounds_with_a_restart(simcord_env, data_dir, monkeypatch):
    env = simcord_env
    monkeypatch.setattr("bot.discord_front.tables.lobby.secrets.randbits", lambda bits: SEED)
    guild, channel, host = world(env)
    await host.slash(channel, "settings bot-pause", seconds=0.0)
    lobby = (await host.slash(channel, "onion new")).response.message
    for level in ("easy", "hard"):
        added = await host.click(lobby, label=f"Add computer ({level})")
        lobby = added.response.message or lobby
    await host.click(lobby, label="Start")
    table = the_table(env)
    seats = [p for p in table.state.players if computer.is_computer(p)]
    assert [computer.level_of(p) for p in seats] == ["easy", "hard"]

    table, restarted = await play_round(env, data_dir, monkeypatch, host, channel, table, restart_at=1)
    assert restarted and table.status == "finished"
    sources = db_rows(data_dir, guild.id, "SELECT DISTINCT user_id, source FROM actions WHERE table_id = ?", table.id)
    assert {u for u, s in sources if s == "computer"} == set(seats)
    assert {u for u, s in sources if s == "player"} == {host.id}
    assert table.state.outcome == "showdown"  # this seed's round goes all the way
    assert sum(table.state.chips.values()) + table.state.pot == 300

    # The next round, with the same seats: the computers keep playing from the session.
    nxt = await host.click(board(channel), label="Next round")
    await host.click(nxt.response.message, label="Start")
    table = the_table(env)
    assert table.state.round_no == 2 and set(seats) <= set(table.state.players)
    table, _ = await play_round(env, data_dir, monkeypatch, host, channel, table)
    assert table.status == "finished"
    assert sum(table.state.chips.values()) + table.state.pot == 300
    ended = await host.slash(channel, "onion session end")
    assert "2 rounds played" in head(ended.response) and "🤖 Deckhand 2 (hard)" in head(ended.response)
