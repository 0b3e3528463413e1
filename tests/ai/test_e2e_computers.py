"""Computer players end to end through SimCord: one member and computer seats play a
whole game of Blackjack, Idiot and Engines, with a restart in the middle after which
the computers carry on by themselves. The member plays through their hand message
only; the computers through the platform (bot/core/computer.py), never from the test."""

from __future__ import annotations

import random

import pytest

from bot.core import computer
from tests.conftest import restart
from tests.e2e.ui import button_ids, game_place, head, select_options, use_control
from tests.e2e.world import admin_world, db_rows
from tests.hardening.forge import forge_slash, text_of


def world(env):
    guild, channel, host, _ = admin_world(env, 0, admin="host", channel="games")
    return guild, channel, host


def the_table(env):
    (table,) = env.bot.tables.tables()
    return table


def codes(message):
    return select_options(message) + [cid.split(":", 5)[5] for cid in button_ids(message) if cid.startswith("dh:act:")]


async def human_move(host, channel, rng):
    """The member opens their hand with /hand and plays one of the moves it offers
    (Ready first in Idiot's swap phase, so the game moves on)."""
    shown = await host.slash(game_place(channel), "hand")
    assert shown.ephemeral and "Your move" in head(shown.response), head(shown.response)
    offered = codes(shown.response.message)
    assert offered
    code = "ready" if "ready" in offered else rng.choice(offered)
    await use_control(host, shown.response.message, code)
    return code


SEED = 20261123  # the deal's seed, fixed so each whole game is reproducible


async def play_with_computers(env, data_dir, monkeypatch, command, levels, **options):
    monkeypatch.setattr("bot.discord_front.tables.lobby.secrets.randbits", lambda bits: SEED)
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
    schedule = computer.schedule

    restarted = False
    for step in range(400):
        if table.status != "playing":
            break
        current = table.state.current_players()
        # The computers have played everything they had to: only the member is waited for.
        assert host.id in current, (step, current)
        ping = game_place(channel).last_message
        assert all(str(p) not in (head(ping) or "") for p in seats)  # computers are never pinged
        if step >= 2 and not restarted:
            # Stop the computers before the member's move, so that after it a computer
            # seat is due with nothing playing it; then restart: the restored table
            # must play the computer seats by itself.
            monkeypatch.setattr(computer, "schedule", lambda manager, table: None)
            await human_move(host, channel, rng)
            if table.status != "playing" or not any(computer.is_computer(p) for p in table.state.current_players()):
                continue
            before = table.record.version
            monkeypatch.setattr(computer, "schedule", schedule)
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

    # /stats keeps games with computers apart from all-human games.
    key, title = command.split()[0], table.spec.title
    stats = await host.slash(channel, "stats", game=key)
    fields = {f["name"] if isinstance(f, dict) else f.name: f["value"] if isinstance(f, dict) else f.value for f in stats.response.embeds[0].fields}
    assert list(fields) == [f"{title} · with computer players"]
    assert host.mention in fields[f"{title} · with computer players"] and "game" in fields[f"{title} · with computer players"]
    return guild, channel, host


async def test_blackjack_with_two_computers_and_a_restart(simcord_env, data_dir, monkeypatch):
    await play_with_computers(simcord_env, data_dir, monkeypatch, "blackjack new", ("easy", "hard"))


async def test_idiot_with_two_computers_and_a_restart(simcord_env, data_dir, monkeypatch):
    await play_with_computers(simcord_env, data_dir, monkeypatch, "idiot new", ("easy", "hard"))


async def test_engines_with_a_computer_and_a_restart(simcord_env, data_dir, monkeypatch):
    await play_with_computers(simcord_env, data_dir, monkeypatch, "engines new", ("hard",), players=2)


async def test_lobby_computer_seats_host_only_up_to_the_limit(simcord_env):
    env = simcord_env
    guild, channel, host = world(env)
    guest = guild.add_member(env.create_user("guest"))
    lobby = (await host.slash(channel, "engines new", players=2)).response.message
    not_manager = await guest.slash(channel, "settings bot-pause", seconds=0.0)
    assert "Only members with Manage Server" in not_manager.response.content
    too_long = await host.slash(channel, "settings bot-pause", seconds=60.0)
    assert "nothing changed" in too_long.response.content
    assert await computer.pause_seconds(env.bot.tables, guild.id) == computer.DEFAULT_PAUSE
    refused = await guest.click(lobby, label="Add computer (easy)")
    assert refused.ephemeral and "Only the host" in refused.response.content
    bad = await forge_slash(host, channel, "bot-player add", level="grandmaster")  # past Discord's own choice check
    assert "no level called 'grandmaster'" in text_of(bad)
    table = the_table(env)
    assert table.record.players == [host.id]
    await host.slash(channel, "bot-player add", level="hard")
    assert table.record.players == [host.id, computer.computer_id("hard", 1)]
    full = await host.click(lobby, label="Add computer (easy)")
    assert "full" in full.response.content and len(table.record.players) == 2
    # The guest cannot join a full table; the host takes the computer out again.
    await host.slash(channel, "bot-player remove")
    assert table.record.players == [host.id]
    none_left = await host.slash(channel, "bot-player remove")
    assert "no computer player" in none_left.response.content
    # The host leaving hands the table to a person, never to a computer seat.
    await guest.click(lobby, label="Join Google")
    await host.click(lobby, label="Add computer (easy)")  # refused: full again
    await host.click(lobby, label="Leave")
    assert table.record.host_id == guest.id
    await guest.click(lobby, label="Add computer (easy)")
    await guest.click(lobby, label="Leave")
    assert table.status == "cancelled"  # only a computer left: the table closes


def test_seat_ids_carry_their_level_and_never_collide_with_people():
    seats = [computer.computer_id(level, n) for level in computer.OFFERED for n in (1, 9)]
    assert all(computer.is_computer(s) and s < 0 for s in seats)
    assert [computer.level_of(s) for s in seats] == ["easy", "easy", "hard", "hard"]
    assert not computer.is_computer(1456074443980800021)
    assert computer.name(computer.computer_id("hard", 2)) == "🤖 Deckhand 2 (hard)"
    assert computer.new_seat([5, computer.computer_id("easy", 1)], "hard") == computer.computer_id("hard", 2)
    assert computer.add_refusal("nosuchgame", [5], 6, "easy") == "This game has no computer players yet."
