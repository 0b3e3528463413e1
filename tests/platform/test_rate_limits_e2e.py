"""Rate limits (issue 20). On a 429 discord.py sleeps ``retry_after`` inside the call and
tries again (tests/e2e/ratelimit.py puts that wait into SimCord); after its last try,
or on a Cloudflare 429, it raises (SimCord's ``inject_error(status=429)``). Either way:
the table's lock is never held through the wait (other moves and the timers go on), no
move is shown twice, no timer fires twice, and the board ends showing the latest state."""

from __future__ import annotations

import pytest

from storage import repos
from tests.e2e.ratelimit import rate_limit
from tests.e2e.ui import board, embed_of, game_place, head
from tests.platform.test_table_e2e import TOY, bot_posts, mover_of, now, play_code, start, world


pytestmark = pytest.mark.extensions(*TOY)


async def open_hands(channel, members):
    return {m.id: (await m.click(board(channel), label="Show hand")).response.message for m in members}


def footer(message):
    return embed_of(message).footer.text or ""


async def actions(env, guild, table):
    async with env.bot.storage.reading(guild.id) as db:
        return await repos.actions_for(db, table.id)


async def test_a_board_edit_sleeping_through_a_rate_limit_holds_up_no_move_and_ends_on_the_latest_state(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 3)
    await start(channel, members)
    thread = game_place(channel)
    hands = await open_hands(channel, members)  # everyone looking: each turn is told by the hand, the board edited
    shown = board(channel)
    rate_limit(env, "PATCH", f"/channels/{thread.id}/messages/{shown.id}", retry_after=30)
    first, table = mover_of(env, members)
    await first.select(now(env, hands[first.id]), [play_code(table, first)])
    assert table.record.version == 1 and not table.lock.locked()  # the edit waits; the table does not
    second, _ = mover_of(env, members)
    assert "Your move" in head(now(env, hands[second.id]))  # told through their hand meanwhile
    result = await second.select(now(env, hands[second.id]), [play_code(table, second)])
    assert table.record.version == 2 and "busy" not in head(result.response)
    assert "move 0" in footer(board(channel))  # still waiting for Discord
    await env.advance_time(31)
    # The delayed edit is followed by the table as it is now; no board posted anew.
    assert "move 2" in footer(board(channel)) and [m.id for m in bot_posts(thread)] == [shown.id]
    edits = [r for r in env.http_requests if r.method == "PATCH" and r.path == f"/channels/{thread.id}/messages/{shown.id}"]
    assert len(edits) == 3  # the 429, its retry (move 1), then one edit for move 2
    assert len(table.record.recent) == len(set(table.record.recent))  # each move logged once


async def test_a_turn_timer_running_out_during_a_long_retry_fires_once(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 2)
    await start(channel, members)
    thread = game_place(channel)
    hands = await open_hands(channel, members)
    shown = board(channel)
    rate_limit(env, "PATCH", f"/channels/{thread.id}/messages/{shown.id}", retry_after=200)
    first, table = mover_of(env, members)
    await first.select(now(env, hands[first.id]), [play_code(table, first)])
    await env.advance_time(table.record.timer_seconds + 10)  # the second player's timer runs out mid-retry
    assert [source for _, _, source in await actions(env, guild, table)] == ["player", "timer"]
    await env.advance_time(200 - table.record.timer_seconds)  # the retry goes through; the next timer is not due yet
    assert [source for _, _, source in await actions(env, guild, table)] == ["player", "timer"]
    assert "move 2" in footer(board(channel))
    assert sum("ran out of time" in line for line in table.record.recent) == 1


async def test_a_board_refused_with_429_is_retried_without_telling_a_dm_player_twice(simcord_env):
    """discord.py gave up (or Cloudflare): the publish retry posts the board, and pings
    only whoever the refused board was to ping; the DM-hand player, told by their DM
    already, gets no second DM for the same turn."""
    env = simcord_env
    guild, channel, members = world(env, 2)
    dm_player = members[1]
    await dm_player.slash(channel, "settings hands", where="dm")
    await start(channel, members)
    thread = game_place(channel)
    mover, table = mover_of(env, members)
    assert mover is not dm_player
    hand = await mover.click(board(channel), label="Show hand")
    env.inject_error("PATCH", f"/channels/{thread.id}/messages/*", status=429, code=0, message="You are being rate limited.")
    await mover.select(hand.response.message, [play_code(table, mover)])
    assert table.needs_publish and "move 0" in footer(board(channel))
    await env.advance_time(11)  # PUBLISH_RETRY_SECONDS
    assert not table.needs_publish and "move 1" in footer(board(channel))
    dms = [m for m in dm_player.user.dm_channel.history() if m.author.bot]
    assert len(dms) == 1 and "Your move" in head(dms[0])


async def test_a_live_hand_update_sleeping_through_a_rate_limit_holds_up_nothing(simcord_env):
    """The follow-up that updates the next player's open hand waits out its 429: the
    player can still open a fresh hand from the board and move, and the board then
    shows both moves, each once."""
    env = simcord_env
    guild, channel, members = world(env, 3)
    await start(channel, members)
    thread = game_place(channel)
    hands = await open_hands(channel, members)
    first, table = mover_of(env, members)
    rate_limit(env, "PATCH", "/webhooks/*/messages/@original", retry_after=30)
    await first.select(now(env, hands[first.id]), [play_code(table, first)])
    second, _ = mover_of(env, members)
    assert not table.lock.locked()
    fresh = await second.click(board(channel), label="Show hand")
    assert "Your move" in head(fresh.response)
    await second.select(fresh.response.message, [play_code(table, second)])
    assert table.record.version == 2
    await env.advance_time(31)
    assert "move 2" in footer(board(channel)) and len(bot_posts(thread)) == 1
    third, _ = mover_of(env, members)
    assert "Your move" in head(now(env, hands[third.id]))
    assert len(table.record.recent) == len(set(table.record.recent))



async def test_a_click_waiting_past_the_bound_for_a_held_table_is_answered_busy_and_takes_no_lock(monkeypatch):
    """A table held longer than a click may wait (``MAX_WAIT_FOR_LOCK``; here its
    deferral failed, so the short bound holds): the click is answered "busy" and leaves
    the lock as it found it; once the table is free a click takes the lock. (SimCord
    cannot hold a table's lock from outside the bot, so the wait is driven directly.)"""
    import asyncio
    from types import SimpleNamespace

    from bot.discord_front.tables import moves

    answered = []

    async def reply(interaction, text):
        answered.append(text)

    async def deferral_failed(interaction):
        return False

    monkeypatch.setattr(moves, "_reply", reply)
    monkeypatch.setattr(moves.guard, "defer_now", deferral_failed)
    monkeypatch.setattr(moves, "MAX_WAIT_FOR_LOCK", 0.05)
    table = SimpleNamespace(lock=asyncio.Lock(), clicks_in_line=0)
    await table.lock.acquire()  # another move in progress, for longer than the bound
    assert await moves.Clicks.lock_or_busy(None, None, table) is False
    assert ["busy" in text for text in answered] == [True]
    assert table.lock.locked() and table.clicks_in_line == 0
    table.lock.release()
    assert await moves.Clicks.lock_or_busy(None, None, table) is True
    assert table.lock.locked() and table.clicks_in_line == 0 and len(answered) == 1


async def test_a_free_table_is_taken_at_once_and_a_waited_one_through_the_bounded_wait(monkeypatch):
    """A click on a free table takes its lock at once (no wait_for: no task a move); a
    lock someone holds is waited for with the bound, in arrival order, and so is any
    lock while the process is behind."""
    import asyncio
    from types import SimpleNamespace

    from bot.discord_front.tables import moves

    bounded = []
    real_wait_for = asyncio.wait_for

    async def counting_wait_for(awaitable, timeout):
        bounded.append(timeout)
        return await real_wait_for(awaitable, timeout)

    async def deferred(interaction):
        return True

    behind = False
    monkeypatch.setattr(moves.asyncio, "wait_for", counting_wait_for)
    monkeypatch.setattr(moves.guard, "defer_now", deferred)
    monkeypatch.setattr(moves.guard, "behind", lambda: behind)
    table = SimpleNamespace(lock=asyncio.Lock(), clicks_in_line=0)
    assert await moves.Clicks.lock_or_busy(None, None, table) is True
    assert table.lock.locked() and bounded == []  # taken at once
    second = asyncio.create_task(moves.Clicks.lock_or_busy(None, None, table))
    third = asyncio.create_task(moves.Clicks.lock_or_busy(None, None, table))
    await asyncio.sleep(0.01)
    assert bounded == [moves.MAX_WAIT_IN_QUEUE] * 2  # queued behind the move in progress, deferred first
    table.lock.release()
    assert await second is True and not third.done()
    table.lock.release()
    assert await third is True
    table.lock.release()
    behind = True  # the loop is behind: a free lock too is taken through the bounded wait (a turn of the loop)
    assert await moves.Clicks.lock_or_busy(None, None, table) is True
    assert bounded == [moves.MAX_WAIT_IN_QUEUE] * 2 + [moves.MAX_WAIT_FOR_LOCK]
