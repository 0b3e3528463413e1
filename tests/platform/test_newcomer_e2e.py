"""What new players tripped over (issue 23, items 3, 4, 6, 9, 10, 11 and 12), end to end
through SimCord: each test reads what a player is shown, as the issue quotes it."""

from __future__ import annotations

import re

import pytest

import bot.discord_front.publish as publish
from tests.e2e.ui import _items, board, button_ids, game_place, head, labels, select_options, text
from tests.hardening.forge import forge_component
from tests.e2e.world import ALL_EXTENSIONS
from tests.platform.test_table_e2e import TOY, mover_of, now, play_code, start, world

OUT_OF_TURN = "⚠️ It is {who}'s turn, not yours, so nothing was played. You will be told when it is your move."


pytestmark = pytest.mark.extensions(*TOY)


async def play_toy_to_the_end(env, channel, members, hands):
    """Each mover plays from their latest hand, opening a new one with Show hand when it
    offers no move (never opened, or not updated when their turn came)."""
    while env.bot.tables.tables():
        mover, table = mover_of(env, members)
        code = play_code(table, mover)
        if mover.id not in hands or code not in select_options(now(env, hands[mover.id][-1])):
            hands.setdefault(mover.id, []).append((await mover.click(board(channel), label="Show hand")).response.message)
        result = await mover.select(now(env, hands[mover.id][-1]), [code])
        hands[mover.id][-1] = result.response.message


# ------------------------------------------------------------------ item 3


async def test_3_an_out_of_turn_click_says_whose_turn_it_is_not_that_the_button_is_stale(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 2)
    await start(channel, members)
    mover, table = mover_of(env, members)
    other = next(m for m in members if m is not mover)
    hand = (await mover.click(board(channel), label="Show hand")).response.message
    codes = select_options(hand)
    shown_select = next(item["custom_id"] for item in _items(hand) if item["type"] == 3)
    await mover.select(hand, [codes[0]])
    version = table.record.version
    # A second click from a client still showing the hand as it was (a second window, a
    # double click): the choice it showed then.
    refused = await forge_component(mover, hand, shown_select, values=[codes[1]])
    shown = head(refused.response)
    assert shown == OUT_OF_TURN.format(who=other.mention)  # said once, no "Waiting for" under it
    assert "earlier moment" not in text(refused.response) and table.record.version == version


@pytest.mark.extensions(*ALL_EXTENSIONS)
async def test_3_in_a_phase_where_all_choose_at_once_it_names_everyone_still_to_move(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 3)
    await start(channel, members, "idiot new")
    (table,) = env.bot.tables.tables()
    hand = (await members[0].click(board(channel), label="Show hand")).response.message
    ready = next(cid for cid in button_ids(hand) if cid.endswith(":ready"))
    await members[0].click(hand, label="Ready")
    refused = await forge_component(members[0], hand, ready)  # Ready clicked again, as it was shown
    others = f"{members[1].mention} and {members[2].mention}"
    assert head(refused.response) == (f"⚠️ Nothing was played: {others} still have to move, not you. "
                                      "You will be told when it is your move.")
    assert table.state.phase == "swap"


# ------------------------------------------------------------------ item 4


async def test_4_at_the_end_every_hand_says_how_it_ended_and_where_rematch_is(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 3)
    dm_player = members[2]
    await dm_player.slash(channel, "settings hands", where="dm")
    await start(channel, members)
    thread = game_place(channel)
    hands: dict[int, list] = {}
    for member in members[:2]:  # two copies each: Show hand on the board, then /hand
        hands[member.id] = [(await member.click(board(channel), label="Show hand")).response.message,
                            (await member.slash(thread, "hand")).response.message]
        older = hands[member.id].pop(0)  # a newer copy deletes the older one: one hand to click (issue 37)
        assert older.id not in env.backend.messages[older.channel.id]
    dms = lambda: [m for m in dm_player.user.dm_channel.history() if m.author.bot]  # noqa: E731
    while env.bot.tables.tables():
        mover, table = mover_of(env, members)
        if mover is dm_player:
            if not dms():
                await mover.click(board(channel), label="Show hand")
            await mover.user.select(dms()[-1], [play_code(table, mover)])
        else:
            result = await mover.select(now(env, hands[mover.id][-1]), [play_code(table, mover)])
            hands[mover.id][-1] = result.response.message
    final = board(channel)
    link = f"https://discord.com/channels/{guild.id}/{thread.id}/{final.id}"
    copies = [now(env, m) for ms in hands.values() for m in ms] + [dms()[-1]]
    assert len(copies) == 3 and len(dms()) == 1
    for shown in copies:
        words = text(shown)
        assert "won the Toy game" in words and f"To play again, press **Rematch** on [the board]({link})." in words
        assert labels(shown) == [] and select_options(shown) == []  # nothing left to click


async def test_4_a_late_click_on_a_hand_the_bot_could_not_close_points_to_rematch(simcord_env, monkeypatch):
    env = simcord_env
    guild, channel, members = world(env, 2)
    await start(channel, members)
    mover, table = mover_of(env, members)
    stale = (await mover.click(board(channel), label="Show hand")).response.message
    hands: dict[int, list] = {}
    # Its token is taken to have expired by the end: the bot can no longer edit it.
    monkeypatch.setattr(publish, "LIVE_HAND_SECONDS", -1)
    await play_toy_to_the_end(env, channel, members, hands)
    assert select_options(now(env, stale))  # still shows its old menu
    late = await mover.select(now(env, stale), [select_options(now(env, stale))[0]])
    final = board(channel)
    assert head(late.response) == ("That game has finished. To play again, press **Rematch** on [the board]("
                                   f"https://discord.com/channels/{guild.id}/{game_place(channel).id}/{final.id}).")
    assert labels(final) == ["Rematch", "Replay"]


# ------------------------------------------------------------------ item 6


@pytest.mark.extensions(*ALL_EXTENSIONS)
async def test_6_an_engines_rematch_keeps_the_side_each_player_played(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 2)
    ada, bob = members
    lobby = (await ada.slash(channel, "engines new")).response.message
    await bob.click(lobby, label="Join either side")
    await ada.click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    played = {p: table.state.seat_choice(p) for p in (ada.id, bob.id)}
    await bob.slash(game_place(channel), "leave")  # Engines: a leaver forfeits, the game ends
    assert table.status == "finished"
    again = await ada.click(board(channel), label="Rematch")
    (rematch,) = env.bot.tables.tables()
    assert rematch.record.seat_choices == played
    seats = next(f.value for f in again.response.message.embeds[0].fields if f.name.startswith("Players"))
    title = {"google": "Google", "yahoo": "Yahoo"}
    assert f"{ada.mention} — {title[played[ada.id]]} (host)" in seats and "either side" not in seats
    assert f"{bob.mention} — {title[played[bob.id]]}" in seats


# ------------------------------------------------------------------ item 9


async def test_9_a_dm_hand_names_the_game_with_a_link_the_same_way_before_and_after_a_click(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 2)
    dm_player = members[1]
    await dm_player.slash(channel, "settings hands", where="dm")
    await start(channel, members)
    thread = game_place(channel)
    (table,) = env.bot.tables.tables()
    header = f"[Toy #{table.id}](https://discord.com/channels/{guild.id}/{thread.id}): "
    dms = lambda: [m for m in dm_player.user.dm_channel.history() if m.author.bot]  # noqa: E731
    seen = 0
    while env.bot.tables.tables() and seen < 2:
        mover, table = mover_of(env, members)
        if mover is dm_player:
            if not dms():
                await mover.click(board(channel), label="Show hand")
            notice = head(dms()[-1])
            assert notice == f"{header}**Your move.**" + notice.split("**Your move.**", 1)[1]
            assert "in <#" not in notice  # not "Toy #1 in #Toy #1"
            answered = await mover.user.select(dms()[-1], [play_code(table, mover)])
            assert head(answered.response).startswith(header)  # the answer to a click keeps the same form
            seen += 1
        else:
            hand = await mover.click(board(channel), label="Show hand")
            await mover.select(hand.response.message, [play_code(table, mover)])
    assert seen == 2


# ------------------------------------------------------------------ item 10


@pytest.mark.extensions(*ALL_EXTENSIONS)
async def test_10_alt_text_reads_as_sentences(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 3)
    await start(channel, members, "idiot new")
    board_alt = board(channel).attachments[0].description
    hand = (await members[0].click(board(channel), label="Show hand")).response.message
    hand_alt = now(env, hand).attachments[0].description
    for alt in (board_alt, hand_alt):
        assert alt.startswith("Card picture. ") and " · " not in alt and "; " not in alt.split(" has ")[0]
    # Not "Seat 1 · p0 · 3 in hand · to play: 2 of Clubs, ..., 3 face down": a sentence per seat.
    assert re.search(r"p0, in seat 1, has 3 cards in hand; face up: [^.]+ and [^.]+; and 3 face down\.", board_alt)
    # Not "Your face-down cards: 1, 2, 3: 3 face down."
    assert hand_alt.endswith("You have 3 face-down cards, unseen even by you, numbered 1, 2 and 3.")


# ------------------------------------------------------------------ item 11


async def test_11_one_name_for_one_thing_lobby_board_hand_game(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 2)
    outsider = guild.add_member(env.create_user("watcher"))
    said = []
    opened = await members[0].slash(channel, "toy new")
    lobby = opened.response.message
    said.append(text(now(env, lobby)))
    said.append(head((await members[1].slash(channel, "toy new")).response))  # a second lobby here
    await members[1].click(lobby, label="Join")
    said.append(head((await members[1].click(lobby, label="Join")).response))  # already in it
    await members[0].click(lobby, label="Start")
    said.append(text(now(env, lobby)))
    said.append(head((await outsider.click(board(channel), label="Show hand")).response))
    said.append(text(board(channel)))
    assert now(env, lobby).embeds[0].title == "Toy #1"
    assert "the board, your turns and your hand are there" in said[3]
    assert said[4] == "You are not playing in this game, so you have no hand here. Spectators can follow the game on its board."
    for words in said:
        assert not re.search(r"\btables?\b", words, re.IGNORECASE), words


# ------------------------------------------------------------------ item 12


@pytest.mark.extensions(*ALL_EXTENSIONS)
async def test_12_the_board_says_whose_turn_it_is_once(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 2)
    await start(channel, members, "blackjack new")
    (table,) = env.bot.tables.tables()
    (first,) = table.state.current_players()
    # The first board is a new message that notifies: it carries the ping line.
    assert head(board(channel)).startswith(f"👉 <@{first}>: play any card.")
    hands = {m.id: (await m.click(board(channel), label="Show hand")).response.message for m in members}
    for _ in range(6):  # everyone's hand is open: the turn passes by editing the board
        if not env.bot.tables.tables():
            break
        (pid,) = table.state.current_players()
        mover = next(m for m in members if m.id == pid)
        code = table.state.legal_actions(pid)[0].code()
        from tests.e2e.ui import use_control

        hands[pid] = (await use_control(mover, now(env, hands[pid]), code)).response.message
        if env.bot.tables.tables():
            (pid,) = table.state.current_players()
            words = text(board(channel))
            # Once: the first line, on an edited board too (issue 37); no Turn line
            # beside the card picture, no ▶ on their seat.
            assert words.startswith(f"👉 <@{pid}>: ") and words.count("👉") == 1
            assert "▶" not in words and "**Turn:**" not in words
