"""Two processes splitting two shards on one database (issue 13), end to end
through SimCord (see harness.py for how two processes share one simulated
Discord). The guild lives on shard 1, so process 1 owns its tables and timers;
DMs arrive at shard 0, so a DM-hand click is handled by process 0."""

from __future__ import annotations

import asyncio

import pytest

from bot.config import shard_of
from bot.discord_front.tables.moves import _Stale
from storage import repos
from tests.e2e.ui import game_place, head
from tests.e2e.world import world as shared_world
from tests.multiprocess.harness import SHARDS, TwoProcessBot, close_all, kill, new_process

pytestmark = pytest.mark.simcord(shard_count=SHARDS)


@pytest.fixture
def dsn(backend_name, request):
    """None: SQLite files in one DATA_DIR (two bots in one process may share them);
    else a fresh PostgreSQL database (tests/pg.py), with LISTEN/NOTIFY between processes."""
    return request.getfixturevalue("postgres_dsn") if backend_name == "postgresql" else None


@pytest.fixture
async def simcord_bot(data_dir, dsn):
    yield TwoProcessBot(data_dir, dsn=dsn)
    await close_all()  # after SimCord's shutdown: every process's connections


async def eventually(check, seconds=5.0):
    """Notifications over PostgreSQL arrive on their own time: wait (bounded) for them."""
    for _ in range(int(seconds / 0.02)):
        if check():
            return True
        await asyncio.sleep(0.02)
    return check()


def world(env):
    guild, channel, members = shared_world(env, 3, shard_id=1)
    assert shard_of(guild.id, SHARDS) == 1
    return guild, channel, members


async def start_game(env, channel, members, dm_player):
    await dm_player.slash(channel, "settings hands", where="dm")
    lobby = (await members[0].slash(channel, "toy new")).response.message
    for m in members[1:]:
        await m.click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    (table,) = env.bot.process(1).tables()
    return table


def dms(member):
    return [m for m in member.user.dm_channel.history() if m.author.bot]


def mover(table, members):
    (pid,) = table.state.current_players()
    return next(m for m in members if m.id == pid)


def a_card(table, member, *, other_than=None):
    return next(a.code() for a in table.state.legal_actions(member.id) if a.kind == "play" and a.code() != other_than)


async def logged(manager, guild_id, table_id):
    async with manager.storage.reading(guild_id) as db:
        return await repos.actions_for(db, table_id)


async def play_until_dm_turn(env, table, members, dm_player, thread):
    """Guild players move through their ephemeral hands (process 1) until the DM player must act."""
    while mover(table, members) is not dm_player:
        who = mover(table, members)
        hand = await who.click(thread.last_message, label="Show hand")
        await who.select(hand.response.message, [a_card(table, who)])


async def test_dm_hand_clicks_are_handled_by_the_other_process_and_the_owner_follows(simcord_env):
    env = simcord_env
    guild, channel, members = world(env)
    dm_player = members[1]
    owner, other = env.bot.process(1), env.bot.process(0)
    table = await start_game(env, channel, members, dm_player)
    thread = game_place(channel)
    dm_moves = 0
    while owner.tables():
        who = mover(table, members)
        if who is dm_player:
            await dm_player.click(thread.last_message, label="Show hand")  # process 1 sends or refreshes the DM hand
            version = table.record.version
            result = await dm_player.user.select(dms(dm_player)[-1], [a_card(table, dm_player)])
            assert result.response is not None and "earlier moment" not in (result.response.content or "")
            dm_moves += 1
            # Process 0 handled it: it loaded the table from the database, and never runs its timers.
            theirs = other.registry.tables.get((guild.id, table.id))
            if theirs is not None:
                assert theirs.timer is None and theirs.computer is None
            if not owner.tables():
                break
            # The owner heard of it on the bus: same version, its turn timer re-armed for the next player.
            await env.settle()
            assert await eventually(lambda: table.record.version == version + 1 and table.timer is not None)
            assert table.timer is not None and not table.timer.done()
            assert table.record.deadline is not None
        else:
            hand = await who.click(thread.last_message, label="Show hand")
            await who.select(hand.response.message, [a_card(table, who)])
    assert dm_moves >= 1
    log = await logged(owner, guild.id, table.id)
    assert len(log) == table.record.version  # every move logged once, in order
    assert {user for user, _code, _source in log} == {m.id for m in members}


async def test_simultaneous_conflicting_moves_in_both_processes_apply_once(simcord_env):
    """The DM player's click reaches process 0; at the same instant (while process 0
    is between applying the move and committing it) process 1 commits a move for
    the same turn. Exactly one commits; process 0's click gets the stale-click
    sentence and its copy is reloaded."""
    env = simcord_env
    guild, channel, members = world(env)
    dm_player = members[1]
    owner, other = env.bot.process(1), env.bot.process(0)
    table = await start_game(env, channel, members, dm_player)
    thread = game_place(channel)
    await play_until_dm_turn(env, table, members, dm_player, thread)
    await dm_player.click(thread.last_message, label="Show hand")
    version = table.record.version
    clicked = a_card(table, dm_player)
    rival = a_card(table, dm_player, other_than=clicked)

    original = other.storage.write
    raced = []

    async def write(guild_id, writes):
        # Process 0 saves its move (one ``storage.write``): process 1 commits its move for this same turn first.
        if not raced:
            raced.append(True)
            await owner.play_as(table, dm_player.id, table.spec.game.parse_action(rival), source="player")
        return await original(guild_id, writes)

    other.storage.write = write
    result = await dm_player.user.select(dms(dm_player)[-1], [clicked])
    other.storage.write = original
    assert raced
    assert "turn, not yours, so nothing was played" in head(result.response)  # the rival played their move: the turn passed
    log = await logged(owner, guild.id, table.id)
    assert len(log) == version + 1 and log[-1][1] == rival  # applied exactly once: the rival's move
    # Both copies agree with the database.
    theirs = other.registry.tables.get((guild.id, table.id))
    assert table.record.version == version + 1
    assert theirs is None or theirs.record.version == version + 1
    # The clicked card is still in the player's hand (the stale click played nothing).
    assert clicked in [a.code() for a in table.state.legal_actions(dm_player.id) if a.kind == "play"] or mover(table, members) is not dm_player


async def test_killed_owner_is_taken_over_and_its_timer_fires(simcord_env, data_dir):
    env = simcord_env
    guild, channel, members = world(env)
    dm_player = members[1]
    bot = env.bot
    table = await start_game(env, channel, members, dm_player)
    thread = game_place(channel)
    first = mover(table, members)
    hand = await first.click(thread.last_message, label="Show hand")
    await first.select(hand.response.message, [a_card(table, first)])
    version = table.record.version
    # Process 1 dies mid-game: its timers die with it.
    await kill(bot.process(1))
    # Process 0 is restarted configured with both shards (SHARD_IDS=0,1): it restores shard 1's tables too.
    await env.restart_bot(TwoProcessBot(data_dir, processes=((0, 1),), dsn=bot.settings.database_url))
    await kill(bot.process(0))
    survivor = env.bot.process(1)
    assert survivor is env.bot.process(0)
    (restored,) = survivor.tables()
    assert restored is not table
    assert restored.record.version == version and restored.timer is not None and not restored.timer.done()
    late = mover(restored, members)
    await env.advance_time(restored.record.timer_seconds + 1)
    assert restored.record.version == version + 1  # the re-armed turn timer fired
    log = await logged(survivor, guild.id, table.id)
    assert log[-1][0] == late.id and log[-1][2] == "timer"
    assert any("ran out of time" in line for line in restored.record.recent)
    assert late.mention not in thread.last_message.content or "ran out" in "".join(restored.record.recent)


async def test_restore_takes_only_the_process_own_shards(simcord_env, data_dir):
    env = simcord_env
    guild, channel, members = world(env)
    table = await start_game(env, channel, members, members[1])
    assert table.timer is not None
    bot = env.bot
    zero_only = new_process(bot, data_dir, (0,), bot.settings.database_url)
    assert await zero_only.restore_all() == 0 and zero_only.tables() == []
    both = new_process(bot, data_dir, (0, 1), bot.settings.database_url)
    assert await both.restore_all() == 1
    for manager in (zero_only, both):
        await kill(manager)


async def test_moves_racing_in_both_processes_commit_exactly_once(simcord_env):
    """Both processes apply a move for the same turn at the same instant (neither
    waits for the other in memory): the database's version check lets exactly one
    commit; the other is told it was stale and reloads."""
    env = simcord_env
    guild, channel, members = world(env)
    dm_player = members[1]
    owner, other = env.bot.process(1), env.bot.process(0)
    table = await start_game(env, channel, members, dm_player)
    thread = game_place(channel)
    for rounds in range(2):
        await play_until_dm_turn(env, table, members, dm_player, thread)
        copy = await other.finder.get(guild.id, table.id)
        version = table.record.version
        first = a_card(table, dm_player)
        second = a_card(table, dm_player, other_than=first)
        parse = table.spec.game.parse_action
        racers = [owner.play_as(table, dm_player.id, parse(first), source="player"), other.play_as(copy, dm_player.id, parse(second), source="player")]
        if rounds:
            racers.reverse()  # the other process starts first this time
        results = await asyncio.gather(*racers, return_exceptions=True)
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(refused) == 1 and isinstance(refused[0], _Stale), results
        await env.settle()
        log = await logged(owner, guild.id, table.id)
        assert len(log) == version + 1 and log[-1][1] in (first, second)  # exactly one of the two
        assert table.record.version == version + 1
        await eventually(lambda: (guild.id, table.id) not in other.registry.tables)
        if (guild.id, table.id) in other.registry.tables:
            assert other.registry.tables[(guild.id, table.id)].record.version == version + 1


async def test_a_stale_copy_is_reloaded_before_a_move(simcord_env):
    """Process 0 holds an old copy (it missed a notification); a DM click reads the
    version first, reloads, and plays on the current state."""
    env = simcord_env
    guild, channel, members = world(env)
    dm_player = members[1]
    owner, other = env.bot.process(1), env.bot.process(0)
    table = await start_game(env, channel, members, dm_player)
    thread = game_place(channel)
    await play_until_dm_turn(env, table, members, dm_player, thread)
    await dm_player.click(thread.last_message, label="Show hand")
    copy = await other.finder.get(guild.id, table.id)  # process 0 loads a copy now
    assert copy is not table and copy.record.version == table.record.version
    other.bus._on_change = None  # process 0 stops hearing the bus, as if notifications were lost
    await dm_player.user.select(dms(dm_player)[-1], [a_card(table, dm_player)])
    assert await eventually(lambda: copy.record.version == table.record.version)  # its own move: the owner follows
    await play_until_dm_turn(env, table, members, dm_player, thread)  # the other two move in process 1
    assert owner.tables() and copy.record.version < table.record.version  # process 0's copy is behind
    await dm_player.click(thread.last_message, label="Show hand")
    version = table.record.version
    result = await dm_player.user.select(dms(dm_player)[-1], [a_card(table, dm_player)])
    assert "earlier moment" not in (result.response.content or "")
    assert copy.record.version == version + 1  # reloaded first, then played once
    assert await eventually(lambda: table.record.version == version + 1)
    assert len(await logged(owner, guild.id, table.id)) == version + 1
