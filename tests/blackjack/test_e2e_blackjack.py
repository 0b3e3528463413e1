"""Blackjack end to end through SimCord: three members play a whole game with slash
commands and buttons, with an ephemeral hand, a DM hand, an out-of-turn click, a
timer expiry, a restart in mid-game and an injected REST failure."""

from __future__ import annotations

import json
import random
import sqlite3

from bot.words.render_util import card_text
from tests.conftest import restart
from tests.e2e.ui import _items, embed_of, game_place, has_control_for, head, select_options, text, use_control
from tests.hardening.forge import forge_component
from tests.e2e.world import world as shared_world


def world(env, n=3):
    return shared_world(env, channel="blackjack", names=("ada", "bob", "cy", "di")[:n])


async def start_table(channel, members):
    lobby = (await members[0].slash(channel, "blackjack new")).response.message
    for member in members[1:]:
        await member.click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    return lobby


def table_of(env):
    (table,) = env.bot.tables.tables()
    return table


def mover_of(table, members):
    (pid,) = table.state.current_players()
    return next(m for m in members if m.id == pid)


async def play_one_move(env, channel, members, rng, dm_players=()):
    """The current player opens their hand (ephemeral, or in DMs) and makes a random legal move."""
    table = table_of(env)
    mover = mover_of(table, members)
    legal = table.state.legal_actions(mover.id)
    code = rng.choice(legal).code()
    opened = await mover.click(game_place(channel).last_message, label="Show hand")
    if mover in dm_players:
        assert head(opened.response).startswith("Your hand") and "in your DMs" in head(opened.response)  # sent, or refreshed in place
        hand = mover.user.dm_channel.last_message
        await use_control(mover.user, hand, code)
    else:
        assert opened.ephemeral
        await use_control(mover, opened.response.message, code)
    return mover, code


async def test_three_members_play_a_whole_game(simcord_env, data_dir):
    env = simcord_env
    guild, channel, members = world(env)
    await start_table(channel, members)
    table = table_of(env)
    assert sorted(table.state.players) == sorted(m.id for m in members)
    first = mover_of(table, members)
    assert first.mention in head(game_place(channel).last_message)  # pinged on a new message
    rng = random.Random(7)
    for _ in range(800):
        if not env.bot.tables.tables():
            break
        await play_one_move(env, channel, members, rng)
    else:
        raise AssertionError("the game did not finish in 800 moves")
    assert table.status == "finished"
    assert "won the Blackjack game" in head(game_place(channel).last_message)
    with sqlite3.connect(data_dir / "guilds" / f"{guild.id}.sqlite3") as db:
        places = db.execute("SELECT user_id, place FROM results ORDER BY place").fetchall()
        logged = db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    assert len(places) == 3 and places[0][1] == 1
    assert logged == table.record.version
    stats = await members[1].slash(channel, "stats")
    assert "Blackjack" in embed_of(stats.response).fields[0].name


async def test_hand_is_private_updates_in_place_and_pages_past_25(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 2)  # two players: 26 cards each
    await start_table(channel, members)
    table = table_of(env)
    mover = mover_of(table, members)
    other = next(m for m in members if m is not mover)
    hand = await mover.slash(game_place(channel), "hand")
    assert hand.ephemeral
    message = hand.response.message
    assert len(select_options(message)) == 25  # first page of the 26 legal first plays
    page_two = await mover.click(message, label="Next ▶")
    assert len(select_options(page_two.response.message)) == 1
    # Before any card is played every card is in a hand, so no public message
    # (channel posts and edits; ephemeral replies go to interaction callbacks) may show one.
    public = json.dumps([r.json for r in env.http_requests if r.path.startswith("/channels/")], ensure_ascii=False)
    assert "Blackjack" in public
    for card in [*table.state.hands[mover.id], *table.state.hands[other.id]]:
        assert card_text(str(card)) not in public and card.display() not in public
    code = table.state.legal_actions(mover.id)[0].code()
    result = await use_control(mover, page_two.response.message, code)
    assert result.response.message.id == message.id  # the same message, edited in place
    assert table.record.version >= 1


async def test_out_of_turn_click_is_refused_and_changes_nothing(simcord_env):
    env = simcord_env
    guild, channel, members = world(env)
    await start_table(channel, members)
    table = table_of(env)
    mover = mover_of(table, members)
    waiting = next(m for m in members if m is not mover)
    # The waiting player opens a hand while it is their turn... no: it is not. Their hand has no moves.
    waiting_hand = await waiting.slash(game_place(channel), "hand")
    assert "Waiting for" in head(waiting_hand.response)
    assert select_options(waiting_hand.response.message) == []
    # A hand opened on your turn goes stale once the turn passes: clicking it is refused.
    own = await mover.slash(game_place(channel), "hand")
    rng = random.Random(1)
    before = table.record.version
    stale_code = select_options(own.response.message)[0]
    stale_select = next(item["custom_id"] for item in _items(own.response.message) if item["type"] == 3)
    hand = own.response.message
    while mover_of(table, members) is mover:  # played from that hand (a newer copy would replace it)
        hand = (await use_control(mover, hand, rng.choice(table.state.legal_actions(mover.id)).code())).response.message
    after = table.record.version
    # A client still showing the hand as it was when the turn began sends that choice.
    refused = await forge_component(mover, own.response.message, stale_select, values=[stale_code])
    # Not "stale": what is true is that it is someone else's turn now.
    now_moving = mover_of(table, members)
    assert head(refused.response) == f"⚠️ It is {now_moving.mention}'s turn, not yours, so nothing was played. You will be told when it is your move."
    assert table.record.version == after > before


async def test_dm_hand_has_the_same_controls(simcord_env):
    env = simcord_env
    guild, channel, members = world(env)
    choose = await members[1].slash(channel, "settings hands", where="dm")
    assert choose.ephemeral and "DMs" in head(choose.response)
    await start_table(channel, members)
    table = table_of(env)
    rng = random.Random(3)
    dm_moves = 0
    for _ in range(60):
        mover, code = await play_one_move(env, channel, members, rng, dm_players=(members[1],))
        if mover is members[1]:
            dm_moves += 1
            dm_hand = members[1].user.dm_channel.last_message
            assert "Blackjack" in text(dm_hand)
        if dm_moves >= 2 or not env.bot.tables.tables():
            break
    assert dm_moves >= 1
    assert table.record.version > 0


async def test_timer_expiry_draws_for_the_idle_player(simcord_env, data_dir):
    env = simcord_env
    guild, channel, members = world(env)
    await start_table(channel, members)
    table = table_of(env)
    rng = random.Random(5)
    # Play until the discard pile has a top card, so "draw" is the default.
    await play_one_move(env, channel, members, rng)
    while table.state.observation(None)["phase"] != "start":
        await play_one_move(env, channel, members, rng)
    idle = mover_of(table, members)
    version = table.record.version
    await env.advance_time(121)
    assert table.record.version > version
    assert mover_of(table, members) is not idle or table.state.observation(None)["turn_number"] > 0
    assert any("ran out of time" in line for line in table.record.recent)
    with sqlite3.connect(data_dir / "guilds" / f"{guild.id}.sqlite3") as db:
        sources = {row[0] for row in db.execute("SELECT source FROM actions")}
    assert "timer" in sources


async def test_restart_mid_game_then_the_same_game_continues(simcord_env, data_dir):
    env = simcord_env
    guild, channel, members = world(env)
    await start_table(channel, members)
    rng = random.Random(11)
    for _ in range(6):
        await play_one_move(env, channel, members, rng)
    before = table_of(env)
    snapshot, version = before.state.to_json(), before.record.version
    table_message = game_place(channel).last_message
    await restart(env, data_dir)
    after = table_of(env)
    assert after is not before
    assert after.state.to_json() == snapshot and after.record.version == version
    mover = mover_of(after, members)
    hand = await mover.click(table_message, label="Show hand")  # an old message's button, new process
    code = after.state.legal_actions(mover.id)[0].code()
    assert has_control_for(hand.response.message, code)
    await use_control(mover, hand.response.message, code)
    assert after.record.version == version + 1


async def test_injected_rest_failure_leaves_no_table_stuck(simcord_env):
    env = simcord_env
    guild, channel, members = world(env)
    await start_table(channel, members)
    table = table_of(env)
    rng = random.Random(2)
    env.inject_error("*", "/channels/*/messages*", status=503, times=2)
    await play_one_move(env, channel, members, rng)
    version = table.record.version
    assert version >= 1  # the move was committed even though the table update failed
    env.errors.clear()
    await env.advance_time(31)  # the publish retry succeeds
    assert not table.needs_publish
    # Play carries on normally.
    for _ in range(3):
        if not env.bot.tables.tables():
            break
        await play_one_move(env, channel, members, rng)
    assert table.record.version > version


async def test_second_table_and_permissions(simcord_env):
    env = simcord_env
    guild, channel, members = world(env)
    lobby = (await members[0].slash(channel, "blackjack new")).response.message
    second = await members[1].slash(channel, "blackjack new")
    assert second.ephemeral and "already has a Blackjack lobby hosted by" in head(second.response)
    await members[1].click(lobby, label="Join")
    refused = await members[1].slash(game_place(channel), "cancel")
    assert refused.ephemeral and "Only the host" in head(refused.response)
    kick = await members[1].slash(game_place(channel), "remove", player=members[0])
    assert "Only the host" in head(kick.response)
    await members[0].slash(game_place(channel), "remove", player=members[1])
    assert table_of(env).record.players == [members[0].id]
    rules = await members[2].slash(channel, "rules", game="blackjack")
    assert rules.ephemeral and "Blackjack" in head(rules.response)
