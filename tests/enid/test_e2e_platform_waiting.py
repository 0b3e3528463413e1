"""The platform's hand status while a ritual holds the game (no turn): the player who
owes the words is told it is up to them, and the others whom the game waits for (issue 23, left for the platform by Enid's part)."""

from __future__ import annotations

from tests.e2e.ui import head
from tests.enid.test_e2e_enid import board, play, setup_world
from tests.enid.test_e2e_issue23 import open_table


async def test_a_ritual_owed_is_up_to_its_player_and_the_others_are_told_whom_the_game_waits_for(simcord_env, data_dir, deals):
    env = simcord_env
    guild, channel, (ada, bob, cyd) = setup_world(env)
    deals.append(([["7s", "9d", "5c"], ["5h", "3c", "4d"], ["3s", "7d", "7c"]], ["4s"]))
    _, table = await open_table(env, channel, [ada, bob, cyd], "enid")
    laid = await play(ada, channel, "play:7s")  # Enid mode: now she must name it
    assert not table.state.current_players() and ada.id in {p for p, _ in table.record.obligations.values()}
    assert head(laid.response) == "**It is up to you:** type what is asked below in the game's thread."
    shown = await cyd.click(board(channel), label="Show hand")
    assert head(shown.response) == f"Waiting for {ada.mention} to type what they owe in the game's thread."


async def test_words_owed_while_another_player_has_the_turn_are_up_to_their_player(simcord_env, data_dir, deals):
    """Ada named her Seven right and owes its Church shout while the turn goes on: her
    hand said "Waiting for Cyd." above "Now shout ...", the opposite of what she must do."""
    from bot.rules.cards import parse_card
    from tests.enid.test_e2e_enid import type_

    env = simcord_env
    guild, channel, (ada, bob, cyd) = setup_world(env)
    deals.append(([["7s", "9d", "5c"], ["5h", "3c", "4d"], ["3s", "7d", "7c"]], ["4s"]))
    _, table = await open_table(env, channel, [ada, bob, cyd], "enid")
    await play(ada, channel, "play:7s")
    await type_(ada, channel, table.state.names.display(parse_card("7s")))
    owing = {p for p, _ in table.record.obligations.values()}
    assert table.state.current_players() and ada.id not in table.state.current_players() and ada.id in owing
    shown = await ada.click(board(channel), label="Show hand")
    assert head(shown.response) == "**It is up to you:** type what is asked below in the game's thread."
    others = await bob.click(board(channel), label="Show hand")
    assert head(others.response).startswith(("Waiting for", "**Your move.**"))
