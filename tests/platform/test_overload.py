"""Overload never fails a click (issue 22): with the event loop made slow on purpose
(every move's rules block it), clicks arriving together on several tables are all
answered, a click that must wait behind another move at its table is deferred before
it waits, once the process is behind every click is deferred before any work is done
for it, and no move is lost or played twice.

The clicks are emitted on SimCord's gateway together, as a burst of real clicks
arrives, and SimCord settles only after the whole burst."""

from __future__ import annotations

import time

import pytest
from simcord import interactions as sim_interactions
from simcord.backend import serializers

from bot.discord_front import guard

PRODUCTION_BEHIND_AFTER = guard.BEHIND_AFTER  # read at import, before any test's fixture changes it
from tests.e2e.ui import _items
from tests.e2e.world import TOY, world

SLOW_MOVE = 0.6  # seconds each move's rules hold the event loop (more than guard.BEHIND_AFTER)


pytestmark = pytest.mark.extensions(*TOY)


@pytest.fixture(autouse=True)
def _production_threshold(monkeypatch):
    """tests/conftest.py turns the lag threshold off for every other test: here it is
    what production uses."""
    monkeypatch.setattr(guard, "BEHIND_AFTER", PRODUCTION_BEHIND_AFTER)


def emit(env, member, guild_id, message, custom_id, values=None):
    """One click on ``message``, delivered like Discord's gateway does, without settling."""
    data = {"custom_id": custom_id, "component_type": 3 if values else 2}
    if values:
        data["values"] = values
    record, payload = sim_interactions.base_payload(
        env.backend, type=3, channel_id=message.channel_id, guild_id=guild_id, user_id=member.id, data=data)
    payload["message"] = dict(serializers.message_payload(env.backend, message))
    record.source_message_id = message.id
    env._notify_dispatch_observers(record)
    env.backend.emit("INTERACTION_CREATE", payload)
    return record


def stored(env, message):
    return env.backend.messages[message.channel.id][message.id]


def move_control(message, code):
    for item in _items(message):
        if item.get("type") == 3 and code in {o["value"] for o in item.get("options", [])}:
            return item["custom_id"], [code]
    raise AssertionError(f"no control for {code}")


async def tables_with_hands(env, count):
    made = []
    for n in range(count):
        guild, channel, members = world(env, 2, channel=f"cards{n}", prefix=f"p{n}x")
        lobby = (await members[0].slash(channel, "toy new")).response.message
        await members[1].click(lobby, label="Join")
        await members[0].click(lobby, label="Start")
        table = next(t for t in env.bot.tables.tables() if t.guild_id == guild.id)
        place = channel.threads[-1] if channel.threads else channel
        board = place.last_message
        hands = {m.id: (await m.click(board, label="Show hand")).response.message for m in members}
        made.append((guild, members, table, hands))
    return made


def key(table):
    """A table's key across servers: every server numbers its tables from 1."""
    return table.guild_id, table.id


def http_index(env, record):
    """Where the click's first answer is in SimCord's request log, and its kind."""
    for index, request in enumerate(env.http_requests):
        if request.method == "POST" and request.path.startswith(f"/interactions/{record.id}/"):
            return index, request.json["type"]
    raise AssertionError(f"interaction {record.id} was never answered")


async def test_a_slow_loop_answers_every_click_defers_before_waiting_and_loses_no_move(simcord_env, monkeypatch):
    env = simcord_env
    tables = await tables_with_hands(env, 4)
    applied: list[tuple[tuple[int, int], int]] = []  # (table key, http log length) per move, in the order played
    game = type(tables[0][2].state)  # the bot's own class (discord.py loads an extension afresh)
    original = game.apply

    def slow_apply(self, player, action):
        time.sleep(SLOW_MOVE)  # the loop is held: nothing else runs meanwhile
        events = original(self, player, action)
        table = next(t for _, _, t, _ in tables if t.state is self)
        applied.append((key(table), len(env.http_requests)))
        return events

    monkeypatch.setattr(game, "apply", slow_apply)
    monkeypatch.setattr(guard, "BEHIND_FOR", 3600.0)  # the measure of burst 1 still holds for burst 2

    # Burst 1: every current player moves at once; at the first table the same control
    # is clicked twice (a double click), the second waiting behind the first.
    versions = {key(t): t.record.version for _, _, t, _ in tables}
    first, double = [], None
    for guild, members, table, hands in tables:
        (pid,) = table.state.current_players()
        mover = next(m for m in members if m.id == pid)
        code = table.state.legal_actions(pid)[0].code()
        custom_id, values = move_control(stored(env, hands[pid]), code)
        first.append(emit(env, mover, guild.id, stored(env, hands[pid]), custom_id, values))
        if double is None:
            double = emit(env, mover, guild.id, stored(env, hands[pid]), custom_id, values)
    await env.settle()
    assert all(r.responded for r in [*first, double])
    # The double click was deferred before the move ahead of it at its table was answered ...
    assert http_index(env, double)[1] == 6 and http_index(env, double)[0] < http_index(env, first[0])[0]
    # ... and was not played again: one move per table, each exactly once.
    assert {key(t): t.record.version - versions[key(t)] for _, _, t, _ in tables} == {key(t): 1 for _, _, t, _ in tables}
    assert sorted(k for k, _ in applied) == sorted(key(t) for _, _, t, _ in tables)
    double_hand = env.backend.messages[double.channel_id][double.message_id]
    assert "turn, not yours" in str(double_hand.components)  # told (the turn has passed), with the hand as it is now

    # Burst 2: the loop was measured behind (each move held it SLOW_MOVE s), so every
    # click is deferred before anything is done for it, then finished by an edit.
    applied.clear()
    start = len(env.http_requests)
    versions = {key(t): t.record.version for _, _, t, _ in tables}
    second = []
    for guild, members, table, hands in tables:
        (pid,) = table.state.current_players()
        mover = next(m for m in members if m.id == pid)
        hand = stored(env, hands[pid])
        custom_id, values = move_control(hand, table.state.legal_actions(pid)[0].code())
        second.append((key(table), emit(env, mover, guild.id, hand, custom_id, values)))
    await env.settle()
    for table_key, record in second:
        index, kind = http_index(env, record)
        assert kind == 6 and index >= start  # deferred ...
        assert index < next(at for k, at in applied if k == table_key)  # ... before its move was played
        assert any(r.method == "PATCH" and r.path.endswith(f"/{record.token}/messages/@original") for r in env.http_requests[index:])
    assert {key(t): t.record.version - versions[key(t)] for _, _, t, _ in tables} == {key(t): 1 for _, _, t, _ in tables}
