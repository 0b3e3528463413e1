"""A forged "Forget me" click on a message whose form cannot carry the answer (a
Components V2 board: Discord refuses an edit that gives it plain content, 50035) is still
answered (issue 37, item 6): every refusal of an edit in place falls back to a new
ephemeral answer."""

from __future__ import annotations

import pytest

from tests.e2e.ui import game_place, text
from tests.e2e.world import db_rows as rows
from tests.hardening.forge import forge_component, text_of
from tests.privacy.test_privacy_e2e import EXTENSIONS, play_toy_game, world

pytestmark = pytest.mark.extensions(*EXTENSIONS)


async def test_a_forget_click_forged_on_a_v2_board_is_answered(simcord_env, data_dir):
    env = simcord_env
    guild, channel, (a, b) = await world(env)
    await play_toy_game(env, channel, [a, b])
    await a.slash(channel, "settings hands", where="dm")
    board = game_place(channel).last_message
    assert board.flags.components_v2, "the finished board is a Components V2 message"
    clicked = await forge_component(a, board, f"dh:forget:{guild.id}:{a.id}")
    said = text_of(clicked)
    assert "no longer keeps anything" in said, said
    assert clicked.ephemeral or (clicked.response is not None and clicked.response.flags.ephemeral)
    assert rows(data_dir, guild.id, "SELECT COUNT(*) FROM user_settings WHERE user_id = ?", a.id) == [(0,)]
    # The board itself is untouched (still the game's result, not the answer).
    (after,) = [m for m in game_place(channel).history() if m.id == board.id]
    assert "no longer keeps anything" not in text(after) and text(after) == text(board)


async def test_an_edit_in_place_discord_refuses_is_answered_anew(simcord_env, data_dir):
    """Any refusal of the edit (here an injected 400 on the click's callback) is
    followed by the same answer as a new ephemeral message."""
    env = simcord_env
    guild, channel, (a, b) = await world(env)
    asked = await a.slash(channel, "privacy forget")
    env.inject_error("POST", "/interactions/*/callback", status=400, code=50035, message="Invalid Form Body", times=1)
    done = await a.click(asked.response.message, label="Forget me")
    assert "no longer keeps anything" in text_of(done), text_of(done)
