"""A session's rough edges, end to end through SimCord (issue 24): the end of a round
says who was beaten by what and who folded; a Next round lobby shows the carried
bankrolls; Refresh on last round's hand points to the current round; after a restart the
board picture still names everyone; a player left without the Stake by a round everybody
folded still plays the next round, whose carried Pot is its ante."""

from __future__ import annotations

from tests.conftest import restart
from tests.e2e.ui import board, button_ids, embed_of, text
from tests.e2e.world import world
from tests.onion.onion_round_helpers import codes
from tests.onion.test_e2e_onion import hand_of, play, play_out, stacked  # noqa: F401 (a fixture)


def options_of(lobby) -> list[str]:
    return next(f.value for f in embed_of(lobby).fields if f.name == "Game options").split("\n")


async def refresh(member, hand):
    refresh_id = next(cid for cid in button_ids(hand) if cid.startswith("dh:refresh:"))
    return (await member.click(hand, custom_id=refresh_id)).response.content


async def test_next_round_lobby_refresh_result_line_and_names_after_restart(simcord_env, data_dir, stacked):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("onion")
    m0, m1, m2, m3 = members = [guild.add_member(env.create_user(f"p{i}"), nick=f"Player{i}") for i in range(4)]
    # m0 deals; m2 folds in the exchange; m1 (a Double Onion) beats m0 at the showdown.
    stacked.append((0, {0: codes("2c 3s 4d 5c 9s"), 1: codes("Ac Kd Ah Qh 2u"), 2: codes("2h 3w 4w 5s 9u")}, {}))
    opened = await m0.slash(channel, "onion new")
    for member in (m1, m2):
        await member.click(opened.response.message, label="Join")
    await m0.click(opened.response.message, label="Start")
    (table,) = env.bot.tables.tables()
    old_hand = await hand_of(m1, channel)
    # Left open past its token's 15 minutes: the bot can neither delete it (when m1 opens a
    # newer hand) nor close it at the end, so it still shows its Refresh button.
    from bot.discord_front import publish

    env.bot.tables.publisher.copies[(guild.id, table.id, m1.id)][old_hand.id].since -= publish.LIVE_HAND_SECONDS + 1
    await play(m1, channel, "discard")
    await play(m2, channel, "fold")
    await play_out(env, channel, members[:3])
    assert table.state.winner == m1.id
    final = board(channel)
    said = text(final).split("\n")[0]
    assert said.startswith(f"🥇 {m1.mention} won the Cripple Mr Onion round at the showdown with Double Onion")
    assert f"Beaten: {m0.mention} — " in said and said.endswith(f"Folded: {m2.mention}.")
    assert "Standings" not in said
    banks = dict(table.state.chips)

    # Next round: the lobby shows what each player brings, not "everyone starts with 100".
    nxt = await m1.click(final, label="Next round")
    lobby = nxt.response.message
    line = options_of(lobby)[0]
    assert line.startswith("Gambling, round 2 of the session: bankrolls carry over (")
    for member in (m0, m1, m2):
        assert f"{member.mention} {banks[member.id]}" in line
    assert "a newcomer starts with 100 chips" in line and "everyone starts" not in line
    await m3.click(lobby, label="Join")
    # Refresh on last round's hand points to the next round, first in its lobby.
    assert await refresh(m1, old_hand) == (
        "That round has finished; the next round is waiting in its lobby here (press Join on it).")

    # A restart before Start: the picture must still name players who have not clicked since.
    await restart(env, data_dir)
    await m1.click(lobby, label="Start")
    (table2,) = env.bot.tables.tables()
    assert table2.state.round_no == 2
    alt = board(channel).attachments[0].description
    for i in range(4):
        assert f"Player{i}" in alt, alt
    assert await refresh(m1, old_hand) == (
        f"That round has finished; the next round is in play here (Cripple Mr Onion #{table2.id}): "
        "`/hand` shows your cards in it.")


async def test_a_player_without_the_stake_plays_the_round_the_carried_pot_antes(simcord_env, data_dir, stacked):
    env = simcord_env
    guild, channel, members = world(env, 2, channel="onion-pot", prefix="q")
    m0, m1 = members
    stacked.append((0, {0: codes("2c 3s 4d 5c 9s"), 1: codes("2h 3w 4w 5s 9u")}, {}))
    opened = await m0.slash(channel, "onion new", stake=5, chips=10)
    await m1.click(opened.response.message, label="Join")
    await m0.click(opened.response.message, label="Start")
    (table,) = env.bot.tables.tables()
    # m1 bets its last 5 chips as an extra bet; the Dealer passes, m1 passes: everybody folds.
    await play_out(env, channel, members, {m1.id: ("extra::5", "pass"), m0.id: ("pass",)})
    assert table.state.winner is None and table.state.chips[m1.id] == 0 and table.state.pot == 15
    final = board(channel)
    nxt = await m0.click(final, label="Next round")
    assert options_of(nxt.response.message)[1] == (
        "The Pot of 15 chips from the last round, which everybody folded, is this round's ante: nobody antes.")
    started = await m0.click(nxt.response.message, label="Start")
    (table2,) = env.bot.tables.tables()
    assert table2.state is not None and table2.status == "playing", started.response
    assert table2.state.pot == 15 and table2.state.out == [] and sorted(table2.state.live()) == sorted([m0.id, m1.id])
    await play_out(env, channel, members)
    assert table2.status == "finished"
    assert sum(table2.state.chips.values()) + table2.state.pot == 20


async def test_later_rounds_name_the_thread_as_the_board_names_the_round(simcord_env, stacked):
    """Issue 36: rounds 2 and 3 are played in the thread round 1 opened; the thread takes
    each round's name, so it says what the board's footer says (not "#1" under a "#2")."""
    import asyncio

    from tests.onion.test_e2e_onion import play_out

    env = simcord_env
    guild, channel, members = world(env, 2, channel="onion-names", prefix="n")
    m0, m1 = members
    opened = await m0.slash(channel, "onion new")
    await m1.click(opened.response.message, label="Join")
    await m0.click(opened.response.message, label="Start")
    (thread,) = channel.threads
    for round_no in (1, 2, 3):
        (table,) = env.bot.tables.tables()
        await asyncio.sleep(0)  # the rename runs beside the board's publish
        for _ in range(5):
            if thread.name == f"Cripple Mr Onion #{table.id}":
                break
            await asyncio.sleep(0.01)
        assert table.state.round_no == round_no and len(channel.threads) == 1
        assert thread.name == f"Cripple Mr Onion #{table.id}", (round_no, thread.name)
        assert f"Cripple Mr Onion #{table.id} · move" in text(board(channel))
        await play_out(env, channel, members)
        if round_no < 3:
            nxt = await m0.click(board(channel), label="Next round")
            await m0.click(nxt.response.message, label="Start")
