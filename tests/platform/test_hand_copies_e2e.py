"""Hands that pile up and the last move's bill (issue 37, items 3 and 4).

- A DM-hand player's DM channel holds at most one hand per game: each turn's new DM
  (what notifies them) replaces the previous one, which is deleted rather than cut to
  a stub (88 stubs in one game of Idiot before).
- Ending a game closes what each player can still click, their newest hand, in no more
  calls than any move may spend (players + 2): every copy of every hand was edited
  (7-13 calls for the last move)."""

from __future__ import annotations

import pytest

from tests.e2e.ui import board, head, labels
from tests.e2e.world import TOY, world
from tests.platform.test_table_e2e import mover_of, now, play_code, start

pytestmark = pytest.mark.extensions(*TOY)


def dm_hands(member):
    channel = member.user.dm_channel
    return [m for m in channel.history() if m.author.bot] if channel is not None else []


async def test_a_dm_players_channel_holds_one_hand_per_game(simcord_env):
    env = simcord_env
    _guild, channel, members = world(env, 2)
    dm_player = members[1]
    await dm_player.slash(channel, "settings hands", where="dm")
    await start(channel, members)
    turns = 0
    while env.bot.tables.tables():
        mover, table = mover_of(env, members)
        if mover is dm_player:
            turns += 1
            (hand,) = dm_hands(dm_player)  # one message, the current hand
            assert "Your move" in head(hand)
            await dm_player.user.select(hand, [play_code(table, dm_player)])
        else:
            shown = await mover.click(board(channel), label="Show hand")
            await mover.select(shown.response.message, [play_code(table, mover)])
        assert len(dm_hands(dm_player)) <= 1
    assert turns >= 2
    (last,) = dm_hands(dm_player)
    assert "won the Toy game" in head(last) and not [label for label in labels(last) if label != "Rematch"]


async def test_the_last_move_closes_the_newest_hands_within_the_budget_of_a_move(simcord_env):
    env = simcord_env
    _guild, channel, members = world(env, 4)
    dm_player = members[3]
    await dm_player.slash(channel, "settings hands", where="dm")
    await start(channel, members)
    newest = {}
    for member in members[:3]:  # everyone opens their hand three times (three copies each)
        for _ in range(3):
            newest[member.id] = (await member.click(board(channel), label="Show hand")).response.message
    last_move = None
    while env.bot.tables.tables():
        mover, table = mover_of(env, members)
        since = len(env.http_requests)
        if mover is dm_player:
            await dm_player.user.select(dm_hands(dm_player)[-1], [play_code(table, dm_player)])
        else:
            result = await mover.select(now(env, newest[mover.id]), [play_code(table, mover)])
            newest[mover.id] = result.response.message
        last_move = env.http_requests[since:]
    calls = [(r.method, r.path) for r in last_move]
    assert len(calls) <= len(members) + 2, calls
    for member in members[:3]:  # what each can still click is closed: their newest hand
        assert "won the Toy game" in head(now(env, newest[member.id])), head(now(env, newest[member.id]))
        assert not labels(now(env, newest[member.id]))
    assert not labels(dm_hands(dm_player)[-1])
