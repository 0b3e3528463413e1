"""A live hand keeps its token, not the clicked message discord.py parsed (every
component of the hand) for the token's 15 minutes; it is still edited through it."""

from __future__ import annotations

import pytest

from tests.e2e.ui import game_place
from tests.e2e.world import TOY, world

pytestmark = pytest.mark.extensions(*TOY)


async def test_live_hands_keep_no_parsed_message_and_still_update(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 2)
    lobby = (await members[0].slash(channel, "toy new")).response.message
    await members[1].click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    board = game_place(channel).last_message
    table = env.bot.tables.tables()[0]
    hands = {m.id: (await m.click(board, label="Show hand")).response.message for m in members}
    (mover_id,) = table.state.current_players()
    mover = next(m for m in members if m.id == mover_id)
    other = next(m for m in members if m.id != mover_id)
    before = hands[other.id].content if hands[other.id].content else str(hands[other.id].components)
    await mover.select(hands[mover.id], [table.state.legal_actions(mover.id)[0].code()])

    publisher = env.bot.tables.publisher
    kept = [live.interaction for live in publisher.live.values()]
    assert kept and all(interaction.message is None for interaction in kept)
    shown = env.backend.messages[hands[other.id].channel.id][hands[other.id].id]
    assert str(shown.components) != before or shown.content != before, "the other player's live hand was edited through its token"
