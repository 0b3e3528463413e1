"""When Discord misbehaves (issue 41): every answer in time, players told the truth.

End to end: the real bot, discord.py's real request path and Discord's faults in the
stand-in (tests/e2e/standin), on SimCord's clock (``env.advance_time`` lets discord.py's
waits and the bot's timers run)."""

from __future__ import annotations

import pytest

from tests.e2e.ui import board, game_place, head, text
from tests.platform.test_table_e2e import TOY, mover_of, now, play_code, start, world

pytestmark = pytest.mark.extensions(*TOY)


def said(message) -> str:
    return (head(message) or "") + "\n" + (text(message) or "")


# ------------------------------------------------------------------ item 4: a failed answer, then a second click


@pytest.mark.parametrize("code", [10062, 40060])
async def test_a_second_click_after_a_failed_answer_is_told_the_first_was_played(discord_standin, code):
    standin = discord_standin
    env = standin.env
    guild, channel, members = world(env, 2)
    await start(channel, members)
    first, table = mover_of(env, members)
    hand = (await first.click(board(channel), label="Show hand")).response.message
    # The move's answer fails at Discord (too late, or "already acknowledged"), and so
    # does the bot's fall-back answer: the player still sees the hand they clicked.
    standin.faults.interaction_failed(code=code, times=2)
    await first.select(now(env, hand), [play_code(table, first)])
    assert table.record.version == 1
    old = now(env, hand)
    assert "Your move" in head(old)  # the click's hand as it was: nothing told them
    again = await first.select(old, [old_code(old)])
    answer = said(again.response.message)
    assert "nothing was played" not in answer
    assert "Your move was played" in answer
    assert table.record.version == 1  # and the second click played nothing


def old_code(message) -> str:
    """The first option of the hand's select (the move the player chose the first time)."""
    for row in message.components:
        for item in row.children:
            options = getattr(item, "options", None)
            if options:
                return options[0].value
    raise AssertionError("no select on the hand")
