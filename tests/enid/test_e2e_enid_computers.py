"""Enid with computer players end to end through SimCord: one member and two computer
seats (easy and hard) play a whole game, a restart in the middle after which the
computers carry on by themselves. The member types its rituals in the game's thread and
plays through its hand message; the computers play, name, shout and vote through the
platform (bot/core/computer.py), and their words show in the board's log."""

from __future__ import annotations

import random
import re

import pytest

from bot.core import computer
from cogs.enid import ai as enid_ai
from tests.conftest import restart
from tests.e2e.ui import button_ids, game_place, select_options, text, use_control
from tests.e2e.world import admin_world, world
from tests.enid.test_e2e_enid import vote

SEED = 5  # the deal's seed: a whole game with shouts both ways, the Enid and a limerick
#: The computers' choices are seeded with the guild id (bot/core/computer.py) and SimCord numbers
#: ids in creation order, after the bot's slash commands: pinned (above SimCord's counter), so
#: that a new command elsewhere does not change this seed's story.
GUILD_ID = 1456074443980900029
PLAIN_GUILD_ID = 1456074443980900018


def codes(message):
    return select_options(message) + [cid.split(":", 5)[5] for cid in button_ids(message) if cid.startswith("dh:act:")]


def member_words(table, member):
    """What the member types for each ritual it owes (read from the state: the test
    knows the right words; the member types them as a person would)."""
    state = table.state
    out = []
    for o in state.obligations:
        if o["player"] != member or o["kind"] not in enid_ai.SPOKEN:
            continue
        if o["kind"] == "church" and computer.is_computer(o["target"]):
            # A computer seat cannot be @mentioned: "@Deckhand N" addresses it.
            out.append(f"Haaargh! Be Alonzo Churched! (a bit) @Deckhand {(-o['target']) % 100}")
        elif o["kind"] == "church":
            out.append(f"Haaargh! Be Alonzo Churched! (a bit) <@{o['target']}>")
        elif o["kind"] == "limerick":
            out.append("\n".join(enid_ai.compose(o["first_line"], random.Random(0), len(o["lines"]))))
        else:
            out.append(next(a.arg for tag, a in state.ritual_answers(member) if tag == "right" and a.kind == "say"))
    return out[:1]


def computers_owe_nothing(table):
    return not any(computer.is_computer(o["player"]) and o["kind"] in enid_ai.SPOKEN for o in table.state.obligations)


async def member_step(member, channel, table, rng):
    """One thing the member does: type a ritual it owes, else its move or vote."""
    place = game_place(channel)
    words = member_words(table, member.id)
    if words:
        await member.send(place, words[0])
        return "said"
    state = table.state
    if state.vote is not None and member.id in state.vote["voters"] and str(member.id) not in state.vote["votes"]:
        await vote(member, channel, "yes")  # votes are buttons on a message of their own
        return "vote"
    shown = await member.slash(place, "hand")
    offered = [c for c in codes(shown.response.message) if not c.startswith("challenge")]
    assert offered, shown.response.content
    votes = [c for c in offered if c.startswith("vote")]
    plays = [c for c in offered if c.startswith("play")]
    code = "vote::yes" if votes else (rng.choice(plays) if plays and rng.random() < 0.9 else rng.choice(offered))
    await use_control(member, shown.response.message, code)
    return code


async def test_a_member_and_two_computers_play_enid_through_a_restart(simcord_env, data_dir, monkeypatch):
    env = simcord_env
    monkeypatch.setattr("bot.discord_front.tables.lobby.secrets.randbits", lambda bits: SEED)
    guild, channel, ada, _ = admin_world(env, 0, admin="ada", channel="enid", id=GUILD_ID)
    await ada.slash(channel, "settings bot-pause", seconds=0.0)
    lobby = (await ada.slash(channel, "enid new")).response.message
    for level in ("easy", "hard"):
        added = await ada.click(lobby, label=f"Add computer ({level})")
        lobby = added.response.message or lobby
    await ada.click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    seats = [p for p in table.record.players if computer.is_computer(p)]
    assert len(seats) == 2 and table.state.enid_mode
    place = game_place(channel)
    rng = random.Random(5)
    schedule = computer.schedule
    restarted = False
    for step in range(500):
        if table.status != "playing":
            break
        # The computers have said and played everything they owed: only the member is waited for.
        assert computers_owe_nothing(table), table.state.obligations
        assert ada.id in table.state.current_players() or member_words(table, ada.id), (step, table.state.obligations)
        if step >= 4 and not restarted:
            monkeypatch.setattr(computer, "schedule", lambda manager, table: None)
            await member_step(ada, channel, table, rng)
            due = table.status == "playing" and (
                any(computer.is_computer(p) for p in table.state.current_players()) or not computers_owe_nothing(table)
            )
            monkeypatch.setattr(computer, "schedule", schedule)
            if not due:
                continue
            before = table.record.version
            table_id = table.id
            await restart(env, data_dir)
            restarted = True
            ((version, status),) = _rows(data_dir, guild.id, "SELECT version, status FROM game_tables WHERE id = ?", table_id)
            assert version > before  # the computers moved on by themselves
            if status != "playing":
                break  # ... and even finished the game
            (table,) = env.bot.tables.tables()
            continue
        await member_step(ada, channel, table, rng)
    else:
        pytest.fail("the game did not end within 500 of the member's steps")
    assert restarted
    assert _rows(data_dir, guild.id, "SELECT status FROM game_tables WHERE id = ?", table.id) == [("finished",)]

    # Read it as a player: the thread holds what everyone said, in order; the computers'
    # words are messages of their own (by name), a computer addressed in a shout shows
    # by its name, never as a raw id, and nobody is pinged by a computer's words.
    thread = [m for m in place.history() if m.content and not m.embeds and not m.content.startswith("👉")]
    transcript = "\n".join(f"{m.author.name}: {m.content}" if m.author.id == ada.id else m.content for m in thread)
    print(transcript)
    said = [m.content for m in thread if m.content.startswith("🤖 Deckhand")]
    assert any(re.search(r" of (Carp|Sturgeon|Halibut|Dalmations)", line) for line in said)  # they named their cards
    assert not re.search(r"<@-\d+>", transcript)
    assert any("Haaargh" in line for line in said) and "ada: Haaargh! Be Alonzo Churched! (a bit) @Deckhand" in transcript
    results = {u for u, in _rows(data_dir, guild.id, "SELECT user_id FROM results WHERE table_id = ?", table.id)}
    assert results == {ada.id, *seats}
    # The final board says who won. (Not "the newest message": a closed vote may follow it.)
    final = next(m for m in place.history() if m.id == table.record.message_id)
    assert re.search(r"won the Enid game|ended in a (draw|stalemate)", text(final))


def _rows(data_dir, guild_id, sql, *args):
    import sqlite3

    with sqlite3.connect(data_dir / "guilds" / f"{guild_id}.sqlite3") as con:
        return con.execute(sql, args).fetchall()


async def test_plain_mode_with_a_computer_to_the_end(simcord_env, data_dir, monkeypatch):
    env = simcord_env
    monkeypatch.setattr("bot.discord_front.tables.lobby.secrets.randbits", lambda bits: SEED)
    guild, channel, (ada,) = world(env, channel="blackjack", names=["ada"], id=PLAIN_GUILD_ID)
    await ada.slash(channel, "settings bot-pause", seconds=0.0)
    lobby = (await ada.slash(channel, "enid new", mode="plain")).response.message
    await ada.click(lobby, label="Add computer (hard)")
    await ada.click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    assert not table.state.enid_mode
    place = game_place(channel)
    rng = random.Random(3)
    for _ in range(500):
        if table.status != "playing":
            break
        assert computers_owe_nothing(table)
        await member_step(ada, channel, table, rng)
    else:
        pytest.fail("the plain game did not end within 500 of the member's steps")
    said = [m.content for m in place.history() if (m.content or "").startswith("🤖 Deckhand")]
    assert all(line.endswith("Last card!") for line in said)  # the only words of plain mode
    seat = next(p for p in table.record.players if computer.is_computer(p))
    kinds = {code.split(":")[0] for (code,) in _rows(data_dir, guild.id, "SELECT code FROM actions WHERE table_id = ? AND user_id = ?", table.id, seat)}
    assert {"play", "draw", "say"} <= kinds  # it played and said "Last card" by itself (stored like a person's moves)
    assert {u for u, in _rows(data_dir, guild.id, "SELECT user_id FROM results WHERE table_id = ?", table.id)} == {ada.id, seat}


async def test_a_computer_says_last_card_as_it_lays_not_after_the_pause(simcord_env, data_dir, monkeypatch):
    from cogs.enid.rules import EnidGame

    real_new = EnidGame.new.__func__

    def stacked_new(cls, players, options=None, *, seed=None, deal=None):
        human, bot_seat = players
        deal = {"hands": {human: ["Kh", "Kd", "Ks"], bot_seat: ["5c", "6c"]}, "discard": ["4c"], "deck": ["3d", "3h", "3s"], "first": bot_seat}
        return real_new(cls, players, options, deal=deal)

    monkeypatch.setattr(EnidGame, "new", classmethod(stacked_new))
    env = simcord_env
    guild, channel, (ada,) = world(env, channel="blackjack", names=["ada"])
    await ada.slash(channel, "settings bot-pause", seconds=2.0)
    lobby = (await ada.slash(channel, "enid new", mode="plain")).response.message
    await ada.click(lobby, label="Add computer (easy)")
    await ada.click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    await env.advance_time(5)
    # It laid its last-but-one card after the pause and said "Last card" in the same
    # moment, before the member could move (not a second pause later).
    rows = _rows(data_dir, guild.id, "SELECT code, at FROM actions WHERE table_id = ? ORDER BY seq", table.id)
    assert [code for code, _ in rows] == ["play:5c", "say::Last card!"] and rows[0][1] == rows[1][1]
    assert ada.id in table.state.current_players() and not table.state.obligations
    assert any((m.content or "").endswith("Last card!") for m in game_place(channel).history())
