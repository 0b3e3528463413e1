"""The house rule "replace a leaver with a computer" end to end through SimCord: a
3-player Idiot game where one member leaves and a computer finishes for them (with
a restart after the swap that must replay the swap from the action log), the same
for a player removed for timing out, the rule off (today's behaviour), and a game
closed when only computers would be left. Members play through their hand messages;
the computer through the platform, never from the test."""

from __future__ import annotations

import random
import sqlite3

import pytest

from bot.core import computer
from tests.conftest import restart
from tests.e2e.ui import board, button_ids, embed_of, game_place, head, select_options, use_control
from tests.e2e.world import add_admin, add_members, db_rows, guild_with_channel

SEED = 20261123
TURN_SECONDS = 120
SEAT = computer.computer_id("easy", 1)
TOOK = f"{computer.name(SEAT)} took"


def world(env, n=3):
    """player0 may change the server's settings."""
    guild, channel = guild_with_channel(env, "games")
    host = add_admin(env, guild, "player0")
    return guild, channel, [host, *add_members(env, guild, [f"player{i}" for i in range(1, n)])]


def the_table(env):
    (table,) = env.bot.tables.tables()
    return table


async def start(env, channel, members, monkeypatch, game="idiot", rule="easy", computers=()):
    monkeypatch.setattr("bot.discord_front.tables.lobby.secrets.randbits", lambda bits: SEED)
    host = members[0]
    await host.slash(channel, "settings bot-pause", seconds=0.0)
    if rule is not None:
        chosen = await host.slash(channel, "settings house-rule", game=game, rule="replace_leavers", value=rule)
        assert f"replace_leavers is now **{rule}**" in chosen.response.content, chosen.response.content
    lobby = (await host.slash(channel, f"{game} new")).response.message
    for member in members[1:]:
        await member.click(lobby, label="Join")
    for level in computers:
        lobby = (await host.click(lobby, label=f"Add computer ({level})")).response.message or lobby
    await host.click(lobby, label="Start")
    return the_table(env)


def offered(message):
    return select_options(message) + [cid.split(":", 5)[5] for cid in button_ids(message) if cid.startswith("dh:act:")]


async def play_to_the_end(env, channel, people, rng, limit=600, until=lambda table: False):
    """The members still seated play whatever their hands offer (Ready first in the
    swap phase) until the game ends (or ``until`` holds); computers move by themselves
    in between."""
    table = the_table(env)
    for _ in range(limit):
        if table.status != "playing" or until(table):
            return table
        current = table.state.current_players()
        movers = [m for m in people if m.id in current]
        assert movers, ("only computers are due, and none moved", current)
        member = rng.choice(movers)
        shown = await member.slash(game_place(channel), "hand")
        codes = offered(shown.response.message)
        assert codes, head(shown.response)
        await use_control(member, shown.response.message, "ready" if "ready" in codes else rng.choice(codes))
    raise AssertionError("the game did not end")


async def test_a_leaver_is_replaced_and_the_computer_finishes_across_a_restart(simcord_env, data_dir, monkeypatch):
    env = simcord_env
    guild, channel, members = world(env)
    table = await start(env, channel, members, monkeypatch)
    # The lobby said so before anyone joined a game under it.
    lobby = next(m for m in channel.history() if m.embeds and (m.embeds[0].title or "") == f"Idiot #{table.id}")
    assert "replaced by an easy computer player" in " ".join(f.value for f in lobby.embeds[0].fields)
    leaver = members[1]
    seats = list(table.state.players)
    hand = list(table.state.hands[leaver.id]), list(table.state.face_up[leaver.id]), list(table.state.face_down[leaver.id])

    # Computers stopped for the swap: after it the computer is due (the swap phase's
    # Ready) with nothing playing it, and the restart must bring it back to life.
    schedule = computer.schedule
    monkeypatch.setattr(computer, "schedule", lambda manager, table: None)
    left = await leaver.slash(game_place(channel), "leave")
    assert "You left the Idiot game" in left.response.content
    assert table.state.players == [SEAT if p == leaver.id else p for p in seats]  # same position
    assert (table.state.hands[SEAT], table.state.face_up[SEAT], table.state.face_down[SEAT]) == hand  # same cards
    assert SEAT in table.state.current_players() and leaver.id not in table.state.players
    assert f"{TOOK} {leaver.mention}'s seat." in table.record.recent
    shown = embed_of(board(channel))
    assert f"{TOOK} {leaver.mention}'s seat." in (shown.description or "") + str([f for f in shown.fields])
    assert db_rows(data_dir, guild.id, "SELECT user_id, code, source FROM actions") == [(leaver.id, f"replace::{SEAT}", "removal")]
    again = await leaver.slash(game_place(channel), "leave")
    assert "You are not in this game" in again.response.content
    refused = await leaver.slash(game_place(channel), "hand")
    assert "You are not playing in this game" in refused.response.content

    # The restart replays the log (the snapshot is made unreadable), swap included.
    with sqlite3.connect(data_dir / "guilds" / f"{guild.id}.sqlite3") as con:
        con.execute("UPDATE game_tables SET state = '{' WHERE id = ?", (table.id,))
    monkeypatch.setattr(computer, "schedule", schedule)
    before = table.record.version
    await restart(env, data_dir)
    table = the_table(env)
    assert table.state.players == [SEAT if p == leaver.id else p for p in seats]
    assert table.record.version > before  # the computer readied by itself after the restart
    assert SEAT not in table.state.current_players()

    table = await play_to_the_end(env, channel, [members[0], members[2]], random.Random(3))
    assert table.status == "finished"
    sources = dict(db_rows(data_dir, guild.id, "SELECT DISTINCT user_id, source FROM actions WHERE user_id = ?", SEAT))
    assert sources == {SEAT: "computer"}
    results = {u for (u,) in db_rows(data_dir, guild.id, "SELECT user_id FROM results WHERE table_id = ?", table.id)}
    # The leaver is neither winner nor loser of the rest; the seat's result is the computer's.
    assert results == {members[0].id, members[2].id, SEAT}
    stats = await members[0].slash(channel, "stats", game="idiot")
    names = [f["name"] if isinstance(f, dict) else f.name for f in stats.response.embeds[0].fields]
    assert names == ["Idiot · with computer players"]


async def test_a_player_removed_for_timing_out_is_replaced(simcord_env, data_dir, monkeypatch):
    env = simcord_env
    guild, channel, members = world(env)
    table = await start(env, channel, members, monkeypatch, rule="hard")
    idle = members[2]
    for member in members[:2]:
        shown = await member.click(game_place(channel).last_message, label="Show hand")
        await member.click(shown.response.message, label="Ready")
    for _ in range(60):
        if idle.id not in table.state.players:
            break
        current = table.state.current_players()
        if idle.id in current:
            await env.advance_time(TURN_SECONDS + 1)  # the idle member lets every turn run out
            continue
        (mover,) = [m for m in members[:2] if m.id in current]
        shown = await mover.slash(game_place(channel), "hand")
        await use_control(mover, shown.response.message, random.Random(len(table.record.recent)).choice(offered(shown.response.message)))
    seat = computer.computer_id("hard", 1)
    assert idle.id not in table.state.players and seat in table.state.players
    assert (idle.id, f"replace::{seat}", "timer") in db_rows(data_dir, guild.id, "SELECT user_id, code, source FROM actions")
    recent = table.record.recent
    took, removed = f"{computer.name(seat)} took {idle.mention}'s seat.", f"👋 {idle.mention} was removed after 3 timeouts in a row."
    assert took in recent and removed in recent and recent.index(removed) < recent.index(took)
    table = await play_to_the_end(env, channel, members[:2], random.Random(5))
    assert table.status == "finished"
    results = {u for (u,) in db_rows(data_dir, guild.id, "SELECT user_id FROM results WHERE table_id = ?", table.id)}
    assert results == {members[0].id, members[1].id, seat}


async def test_with_the_rule_off_a_leaver_is_taken_out_as_before(simcord_env, data_dir, monkeypatch):
    env = simcord_env
    guild, channel, members = world(env)
    table = await start(env, channel, members, monkeypatch, rule=None)
    assert table.record.options.get("replace_leavers") == "off"
    await members[1].slash(game_place(channel), "leave")
    assert table.state.players == [m.id for m in members] and members[1].id in table.state.removed
    assert not any(computer.is_computer(p) for p in table.state.players)
    assert db_rows(data_dir, guild.id, "SELECT user_id, code, source FROM actions") == [(members[1].id, "leave", "removal")]


@pytest.mark.parametrize("rule", ["easy", None])
async def test_the_last_person_leaving_closes_a_game_of_computers(simcord_env, data_dir, monkeypatch, rule):
    """Whatever the house rule says: computers do not finish a game among themselves."""
    env = simcord_env
    guild, channel, members = world(env, 1)
    table = await start(env, channel, members, monkeypatch, game="blackjack", rule=rule, computers=("easy", "easy"))
    assert table.status == "playing"
    left = await members[0].slash(game_place(channel), "leave")
    assert "You left" in left.response.content
    assert table.status == "cancelled" and env.bot.tables.tables() == []
    assert not any(computer.is_computer(p) and p not in table.record.players for p in table.state.players)  # nobody stood in
    assert "Nobody but computer players was left" in (head(board(channel)) or "")
    assert db_rows(data_dir, guild.id, "SELECT COUNT(*) FROM results") == [(0,)]


async def test_engines_teams_keep_the_replacement_on_the_leavers_side(simcord_env, data_dir, monkeypatch):
    env = simcord_env
    guild, channel, members = world(env, 4)
    monkeypatch.setattr("bot.discord_front.tables.lobby.secrets.randbits", lambda bits: SEED)
    host = members[0]
    await host.slash(channel, "settings bot-pause", seconds=0.0)
    await host.slash(channel, "settings house-rule", game="engines", rule="replace_leavers", value="easy")
    lobby = (await host.slash(channel, "engines new", players=4)).response.message
    for member in members[1:]:
        await member.click(lobby, label="Join Yahoo" if member in members[2:] else "Join Google")
    await host.click(lobby, label="Start")
    table = the_table(env)
    side = table.state.side_of[members[3].id]
    partner = table.state.partner(members[3].id)
    await members[3].slash(game_place(channel), "leave")
    assert table.status == "playing"  # no forfeit: the computer plays on for the side
    assert table.state.side_of[SEAT] == side and table.state.partner(SEAT) == partner
    def computer_moves(_table):
        return db_rows(data_dir, guild.id, "SELECT COUNT(*) FROM actions WHERE user_id = ? AND source = 'computer'", SEAT)[0][0]

    table = await play_to_the_end(env, channel, members[:3], random.Random(9), until=lambda t: computer_moves(t) >= 5)
    assert computer_moves(table) >= 5 and table.state.side_of[SEAT] == side
