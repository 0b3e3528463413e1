"""Millard's showdown end to end through SimCord (issue 24): the duel (the default house
rule); a session of three rounds where, in round 1, the Younger answers the
Elder's laid Double Onion with Death from their hand's buttons, after a restart in the
middle of the showdown."""

from __future__ import annotations

import discord

from bot.words.render_util import text_cards
from tests.conftest import restart
from tests.e2e.ui import board, labels, text
from tests.onion.onion_round_helpers import codes
from tests.onion.test_e2e_onion import hand_of, play, play_out, stacked  # noqa: F401 (a fixture)


async def test_three_rounds_of_the_duel_with_a_modifier_in_answer_and_a_restart(simcord_env, data_dir, stacked):
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("onion-duel")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[admins])
    m0, m1, m2 = members = [guild.add_member(env.create_user(f"d{i}"), nick=f"Duellist{i}") for i in range(3)]
    # The duel is the default; a server that chose quick switches back to it.
    await admin.slash(channel, "settings house-rule", game="onion", rule="showdown", value="quick")
    await admin.slash(channel, "settings house-rule", game="onion", rule="showdown", value="millard")
    # This test reads the whole table in the board's text: card pictures off (with them on,
    # the board over the picture keeps only what the picture cannot show).
    await admin.slash(channel, "settings pictures", mode="off")

    # m0 deals: the Elder m1 holds a Double Onion, the Younger m2 Death (face down) and a
    # seven-card onion; the second five of m1 and m2 are dealt face up (nobody buys).
    stacked.append((0, {0: codes("2c 3s 4d 5c 9s"), 1: codes("Ac Kd Ah Qh 2u"), 2: codes("Kw 2h 2s 4u 5h")}, {},
                    {0: codes("2d 3d 4c 6c 9d"), 1: codes("Tc Ts 9u 6h 7u"), 2: codes("6s As Aw 9c 7c")}))
    opened = await m0.slash(channel, "onion new")
    lobby = opened.response.message
    assert "15 house rules are at their usual setting" in text(lobby)
    for member in (m1, m2):
        await member.click(lobby, label="Join")
    await m0.click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    await play_out_until_duel(env, channel, members)
    state = table.state
    assert state.phase == "duel" and state.current_players() == {m2.id}
    shown = text(board(channel))
    assert "The showdown" in shown and "Double Onion" in shown and f"**{m2.mention} is brought in** against" in shown

    # A restart in the middle of the showdown: the duel goes on from storage.
    before = state.to_json()
    await restart(env, data_dir)
    (table,) = env.bot.tables.tables()
    assert table.state.to_json() == before
    hand = await hand_of(m2, channel)
    assert "Declare Death: one picture out of every Double Onion" in labels(hand) and "Concede" in labels(hand)
    # Laid face up, the K⚔ is visible and acts (docs/rules/onion.md): the hand may be shown, and says why.
    assert "Show my hand" in labels(hand)
    assert text_cards(f"Laid face up, your K⚔✦ Death would act on every hand: {m1.mention}'s Double Onion, flush, bagel → "
            "five-card onion, bagel.") in text(hand)
    await play(m2, channel, "declare:Kw:death")
    assert table.status == "finished" and table.state.winner == m2.id
    recent = "\n".join(table.record.recent)
    assert f"{m1.mention} has no answer left: {m2.mention} holds the better cards" in recent
    laid = {s["player"]: s for s in table.state.showdown}
    assert laid[m1.id]["groupings"][0] != "Double Onion"  # re-formed after Death
    final = text(board(channel)).split("\n")[0]
    assert final.startswith(f"🥇 {m2.mention} won the Cripple Mr Onion round at the showdown with seven-card onion")

    # Rounds 2 and 3, dealt from seeds: the duel plays to its end each time.
    for round_no in (2, 3):
        nxt = await m2.click(board(channel), label="Next round")
        await m2.click(nxt.response.message, label="Start")
        (current,) = env.bot.tables.tables()
        assert current.state.round_no == round_no and current.state.options["showdown"] == "millard"
        await play_out(env, channel, members)
        assert current.status == "finished"
        assert sum(current.state.chips.values()) + current.state.pot == 300


async def play_out_until_duel(env, channel, members):
    """Calm moves (no discards, zero bets, nothing bought, done) up to the duel."""
    from tests.onion.test_e2e_onion import choice

    by_id = {m.id: m for m in members}
    for _ in range(100):
        (table,) = env.bot.tables.tables()
        if table.state.phase == "duel":
            return
        player = min(table.state.current_players(), key=table.state.players.index)
        await play(by_id[player], channel, choice(table.state, player))
    raise AssertionError("the duel never came")


async def test_a_hand_laid_otherwise_from_its_buttons_escapes_a_cripple_and_re_forms_once(simcord_env, stacked):
    """The Elder lays a ten-card running flush; the next player's Lesser Onion would be
    crippled, so their hand offers to lay a Triple Onion first; the Dealer's Lesser Onion then
    beats that, and the hand re-forms at its best, once, and wins."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("onion-dodge")
    m0, m1, m2 = members = [guild.add_member(env.create_user(f"r{i}"), nick=f"Runner{i}") for i in range(3)]
    stacked.append((0, {0: codes("Kc Ac Qw Aw Kt"), 1: codes("3c 4c 5w 6w 7c"), 2: codes("Kh Ah Qd Ad Ks")}, {},
                    {0: codes("At Ko Ao 2s 3d"), 1: codes("8c 9w Tc Jw Qc"), 2: codes("As Qu Au Th Td")}))
    opened = await m0.slash(channel, "onion new")
    for member in (m1, m2):
        await member.click(opened.response.message, label="Join")
    await m0.click(opened.response.message, label="Start")
    (table,) = env.bot.tables.tables()
    await play_out_until_duel(env, channel, members)
    assert table.state.current_players() == {m2.id}
    hand = await hand_of(m2, channel)
    assert "Lay a Triple Onion first (escapes the cripple)" in labels(hand)
    assert "Show my hand" in labels(hand) and "Concede" in labels(hand)
    # Shown at its best the Lesser Onion would be crippled: the hand says so, beside the offer.
    assert "but shown as it is it would lose (see above)" in text(hand)
    (dodge,) = [a.code() for a in table.state.legal_actions(m2.id) if a.kind == "rearrange"]
    await play(m2, channel, dodge)
    assert table.state.current_players() == {m2.id}  # the Dealer's Lesser Onion beats it
    hand = await hand_of(m2, channel)
    assert "Re-form my hand at its best (once)" in labels(hand)
    await play(m2, channel, "rearrange::best")
    assert table.status == "finished" and table.state.winner == m2.id
    recent = "\n".join(table.record.recent)
    assert f"{m2.mention} re-forms their hand at its best (once): Triple Onion, flush → Lesser Onion" in recent
