"""/settings: per-user hands, per-server timer and house rules (Manage Server only),
and a hand message older than its 15-minute token still works."""

from __future__ import annotations

import pytest

from tests.e2e.ui import game_place, head
from tests.e2e.world import TOY, admin_world as world

pytestmark = pytest.mark.extensions(*TOY)


async def test_server_settings_need_manage_server_and_apply_to_new_tables(simcord_env):
    env = simcord_env
    guild, channel, admin, members = world(env)
    refused = await members[0].slash(channel, "settings timer", seconds=45)
    assert refused.ephemeral and "Manage Server" in head(refused.response)
    refused_rule = await members[0].slash(channel, "settings house-rule", game="toy", rule="hand", value="5")
    assert "Manage Server" in head(refused_rule.response)
    await admin.slash(channel, "settings timer", seconds=45)
    bad = await admin.slash(channel, "settings house-rule", game="toy", rule="hand", value="7")
    assert "not a choice" in head(bad.response)
    unknown = await admin.slash(channel, "settings house-rule", game="toy", rule="jokers", value="on")
    assert "no house rule 'jokers'" in head(unknown.response)
    await admin.slash(channel, "settings house-rule", game="toy", rule="hand", value="5")
    shown = await members[1].slash(channel, "settings show")
    assert "45 s" in head(shown.response) and "hand:** 5" in head(shown.response)
    lobby = (await members[0].slash(channel, "toy new")).response.message
    await members[1].click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    assert table.record.timer_seconds == 45
    assert all(len(hand) == 5 for hand in table.state.hands.values())
    version = table.record.version
    await env.advance_time(46)
    assert table.record.version == version + 1  # the 45 s timer fired


async def test_a_hand_older_than_its_token_still_works_and_catches_up(simcord_env):
    env = simcord_env
    guild, channel, admin, members = world(env, 2)
    await admin.slash(channel, "settings timer", seconds=3600)
    lobby = (await members[0].slash(channel, "toy new")).response.message
    await members[1].click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    (pid,) = table.state.current_players()
    mover = next(m for m in members if m.id == pid)
    hand = await mover.slash(game_place(channel), "hand")
    await env.advance_time(16 * 60)  # the ephemeral message's interaction token has expired
    refreshed = await mover.click(hand.response.message, label="Refresh")
    assert refreshed.response.message.id == hand.response.message.id
    code = table.state.legal_actions(mover.id)[0].code()
    played = await mover.select(refreshed.response.message, [code])
    assert table.record.version == 1 and "Waiting for" in head(played.response)


async def test_three_players_idle_one_is_removed_and_the_game_carries_on(simcord_env):
    env = simcord_env
    guild, channel, admin, members = world(env, 3)
    lobby = (await members[0].slash(channel, "toy new")).response.message
    for m in members[1:]:
        await m.click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    # Everyone but the first idle player keeps playing; the idle one times out three times.
    (idle,) = table.state.current_players()
    for _ in range(12):
        if idle not in table.state.players or table.status != "playing":
            break
        (pid,) = table.state.current_players()
        if pid == idle:
            await env.advance_time(121)
        else:
            actor = next(m for m in members if m.id == pid)
            hand = await actor.slash(game_place(channel), "hand")
            await actor.select(hand.response.message, [table.state.legal_actions(pid)[0].code()])
    assert idle not in table.state.players
    assert table.status == "playing" and len(table.state.players) == 2  # the game carries on
    assert any("removed after 3 timeouts" in line for line in table.record.recent)
