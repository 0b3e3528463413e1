"""When Discord misbehaves (issue 41): every answer in time, players told the truth.

End to end: the real bot, discord.py's real request path and Discord's faults in the
stand-in (tests/e2e/standin), on SimCord's clock (``env.advance_time`` lets discord.py's
waits and the bot's timers run)."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.ui import board, game_place, head, text
from tests.platform.test_table_e2e import TOY, mover_of, now, play_code, start, world

pytestmark = pytest.mark.extensions(*TOY)


def said(message) -> str:
    return (head(message) or "") + "\n" + (text(message) or "")


async def game_with_open_hands(env, n: int = 2):
    """A toy game started in its thread, every player looking at their hand: (channel,
    thread, members, the first mover, the table, {player id: hand message})."""
    guild, channel, members = world(env, n)
    await start(channel, members)
    first, table = mover_of(env, members)
    hands = {m.id: (await m.click(board(channel), label="Show hand")).response.message for m in members}
    return channel, game_place(channel), members, first, table, hands


# ------------------------------------------------------------------ item 4: a failed answer, then a second click


@pytest.mark.parametrize("code", [10062, 40060])
async def test_a_second_click_after_a_failed_answer_is_told_the_first_was_played(discord_standin, code):
    standin = discord_standin
    env = standin.env
    channel, thread, members, first, table, hands = await game_with_open_hands(env)
    hand = hands[first.id]
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


async def advance(env, seconds: float, step: float = 10.0) -> None:
    while seconds > 0:
        await env.advance_time(min(step, seconds))
        seconds -= step


async def open_lobby(channel, members):
    lobby = (await members[0].slash(channel, "toy new")).response.message
    for m in members[1:]:
        await m.click(lobby, label="Join")
    return lobby


# ------------------------------------------------------------------ item 7: thread creation


THREADS = "/channels/*/messages/*/threads"


async def test_a_thread_creation_whose_answer_was_lost_keeps_the_game_in_its_thread(discord_standin):
    """Discord made the thread, the answer was lost (502): discord.py tries again and
    Discord says the message has its thread already (160004). The game is played in
    that thread, not moved to the channel."""
    standin = discord_standin
    env = standin.env
    guild, channel, members = world(env, 2)
    lobby = await open_lobby(channel, members)
    standin.faults.lost_answer("POST", THREADS, times=1)

    def refuse_the_second(exchange) -> None:  # Discord's answer to a second thread from one message
        if exchange.path.endswith("/threads") and exchange.status == 502:
            standin.faults.answer(400, "POST", THREADS, body={"message": "A thread has already been created for this message", "code": 160004}, times=1)

    standin.server.observers.append(refuse_the_second)
    await members[0].click(lobby, label="Start")
    await advance(env, 5)
    (table,) = env.bot.tables.tables()
    assert table.record.thread_id == lobby.id  # a thread started from a message has its id
    assert "could not open a thread" not in (now(env, lobby).embeds[0].footer.text or "")
    assert game_place(channel).id == lobby.id and "your move" in text(board(channel)).lower()


async def test_a_burst_of_server_errors_on_thread_creation_is_tried_again_not_final(discord_standin):
    standin = discord_standin
    env = standin.env
    guild, channel, members = world(env, 2)
    lobby = await open_lobby(channel, members)
    standin.faults.server_errors("POST", THREADS, times=6)  # discord.py's five tries and more (25 s)
    started = await members[0].click(lobby, label="Start")
    assert started.acknowledged  # the host is answered at once
    await advance(env, 90)
    (table,) = env.bot.tables.tables()
    assert table.record.thread_id is not None
    assert "could not open a thread" not in (now(env, lobby).embeds[0].footer.text or "")
    threads = [e for e in standin.log if e.path.endswith("/threads")]
    assert [e.status for e in threads][-1] == 200 and len(threads) == 7


async def test_a_refused_thread_creation_falls_back_to_the_channel_at_once(discord_standin):
    standin = discord_standin
    env = standin.env
    guild, channel, members = world(env, 2)
    lobby = await open_lobby(channel, members)
    standin.faults.answer(400, "POST", THREADS, body={"message": "Maximum number of active threads reached", "code": 160006}, times=1)
    await members[0].click(lobby, label="Start")
    await advance(env, 2)
    (table,) = env.bot.tables.tables()
    assert table.record.thread_id is None
    assert "I could not open a thread for this game (Discord refused)" in (now(env, lobby).embeds[0].footer.text or "")
    assert len([e for e in standin.log if e.path.endswith("/threads")]) == 1


# ------------------------------------------------------------------ item 1 and issue 40's item 3: every answer in time


@pytest.mark.parametrize("seconds", [5, 20, 60])
async def test_start_is_answered_in_time_whatever_the_bot_token_latency(discord_standin, seconds):
    standin = discord_standin
    env = standin.env
    guild, channel, members = world(env, 2)
    lobby = await open_lobby(channel, members)
    standin.faults.latency(seconds, who="bot")
    started = await members[0].click(lobby, label="Start")
    assert started.acknowledged  # within SimCord's 3 s (its callback refuses a later answer with 10062)
    await advance(env, 4 * seconds + 10)
    (table,) = env.bot.tables.tables()
    assert table.status == "playing" and table.record.thread_id == lobby.id
    assert "In play in" in (now(env, lobby).embeds[0].description or "")
    assert "your move" in text(board(channel)).lower()


async def test_show_hand_with_dm_hands_is_answered_in_time_whatever_the_dm_takes(discord_standin):
    standin = discord_standin
    env = standin.env
    guild, channel, members = world(env, 2)
    dm_player = members[1]
    await dm_player.slash(channel, "settings hands", where="dm")
    await start(channel, members)
    standin.faults.latency(20, who="bot")
    pressed = await dm_player.click(board(channel), label="Show hand")
    await env.advance_time(2.5)
    assert pressed.acknowledged  # deferred within 3 s, while the DM is on its way
    await advance(env, 45)
    told = [said(m) for m in pressed.followups] + ([said(pressed.response)] if pressed.response is not None else [])
    assert any("in your DMs" in t for t in told), told
    dms = [m for m in dm_player.user.dm_channel.history() if m.author.bot]
    assert dms and "Your hand" in text(dms[-1])


@pytest.mark.parametrize("how", ["Join button", "/join"])
async def test_join_is_answered_in_time_while_start_opens_the_thread(discord_standin, how):
    """Start holds the table while Discord (20 s a request) opens the game's thread: a
    Join clicked (on the lobby as it was) or typed meanwhile is answered at once. (A
    click that must wait for the table, such as Leave, is deferred first and waits its
    turn: ``lock_or_busy``, tested in test_rate_limits_e2e.py; SimCord cannot hold a
    table's lock from outside the bot.)"""
    from tests.hardening.forge import forge_component

    standin = discord_standin
    env = standin.env
    guild, channel, members = world(env, 3)
    host, second, third = members
    lobby = (await host.slash(channel, "toy new")).response.message
    await second.click(lobby, label="Join")
    join_id = next(c.custom_id for row in now(env, lobby).components for c in row.children if getattr(c, "label", "") == "Join")
    standin.faults.latency(20, who="bot")
    started = await host.click(lobby, label="Start")
    assert started.acknowledged
    if how == "Join button":
        asked = await forge_component(third, lobby, join_id)  # pressed before the lobby lost its buttons
    else:
        asked = await third.slash(channel, "join")
    assert asked.acknowledged and "already started" in said(asked.response)
    await advance(env, 60)
    (table,) = env.bot.tables.tables()
    assert third.id not in table.record.players and table.record.thread_id == lobby.id


# ------------------------------------------------------------------ item 3: ghost moves


class HeldBack:
    """The gateway holds back the next INTERACTION_CREATE (a connection lost just then);
    :meth:`replay` delivers it as a RESUME does, late: Discord's 3 s for its first answer
    have passed by then, so it can no longer be answered (SimCord answers 10062)."""

    def __init__(self, env, monkeypatch) -> None:
        self.env = env
        self.held: list[tuple[str, dict]] = []
        real = env.backend.emit

        def emit(event, payload, *args, **kwargs):
            if event == "INTERACTION_CREATE" and not self.held:
                self.held.append((event, payload))
                return None
            return real(event, payload, *args, **kwargs)

        self.real = real
        monkeypatch.setattr(env.backend, "emit", emit)

    async def replay(self, late: float) -> None:
        await self.env.advance_time(late)
        (event, payload), = self.held
        self.real(event, payload)
        await self.env.advance_time(0.1)


async def test_a_click_replayed_late_changes_nothing_and_logs_no_traceback(discord_standin, monkeypatch, caplog):
    import logging

    standin = discord_standin
    env = standin.env
    channel, thread, members, first, table, hands = await game_with_open_hands(env)
    hand = hands[first.id]
    held = HeldBack(env, monkeypatch)
    lost = await first.select(now(env, hand), [play_code(table, first)])
    assert not lost.acknowledged and table.record.version == 0  # the bot has not seen it yet
    caplog.set_level(logging.INFO)
    await held.replay(10)
    assert not lost.acknowledged  # "This interaction failed" is what the player saw
    assert table.record.version == 0 and first.id in table.state.current_players()  # no ghost move
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("can no longer be answered: not played" in r.getMessage() for r in caplog.records)
    # The player clicks again, in time: played, and told so.
    again = await first.select(now(env, hand), [play_code(table, first)])
    assert again.acknowledged and table.record.version == 1


async def test_a_hand_command_replayed_late_logs_no_error_traceback(discord_standin, monkeypatch, caplog):
    import logging

    standin = discord_standin
    env = standin.env
    guild, channel, members = world(env, 2)
    await start(channel, members)
    held = HeldBack(env, monkeypatch)
    lost = await members[0].slash(game_place(channel), "hand")
    caplog.set_level(logging.INFO)
    await held.replay(10)
    assert not lost.acknowledged
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("can no longer be answered" in r.getMessage() for r in caplog.records)


# ------------------------------------------------------------------ item 5: a permission taken away


@pytest.mark.parametrize("code", [50001, 50013])
async def test_a_permission_taken_on_the_games_thread_pauses_it_with_one_note_and_it_resumes_when_back(discord_standin, code):
    standin = discord_standin
    env = standin.env
    channel, thread, members, first, table, hands = await game_with_open_hands(env)
    # View Channel (or Send Messages in Threads) taken from the bot on the game's thread.
    taken = standin.faults.forbidden("*", f"/channels/{thread.id}*", code=code)
    await first.select(now(env, hands[first.id]), [play_code(table, first)])
    assert table.record.version == 1 and shown_move(thread) == 0
    notes = [m for m in channel.history() if m.author.bot and "is paused" in (m.content or "")]
    assert len(notes) == 1
    permission = "View Channel" if code == 50001 else "Send Messages in Threads"
    assert permission in notes[0].content and thread.mention in notes[0].content
    second = next(m for m in members if m.id != first.id)
    assert permission in head(now(env, hands[second.id]))  # their open hand says so too
    # No turn timer runs, nothing is tried more than every 30 s, and no second note.
    refused_before = standin.invalid_in_window()
    await advance(env, table.record.timer_seconds + 60)
    assert table.record.version == 1
    assert standin.invalid_in_window() - refused_before <= (table.record.timer_seconds + 60) / 30 + 1
    # One probe for the table however often it was refused (a refused probe used to start another).
    assert len([t for t in asyncio.all_tasks() if t.get_name().startswith("deckhand-access-") and not t.done()]) == 1
    assert len([m for m in channel.history() if m.author.bot and "is paused" in (m.content or "")]) == 1
    refused = await second.select(now(env, hands[second.id]), [play_code(table, second)])
    assert "paused" in said(refused.response) and table.record.version == 1
    # The permission is given back: the board catches up and the game goes on.
    standin.faults.remove(taken)
    await advance(env, 31)
    assert shown_move(thread) == 1 and "it goes on" in text(board(channel)).lower()
    await advance(env, table.record.timer_seconds + 1)
    assert table.record.version == 2  # the turn timer runs again


def shown_move(place) -> int:
    import re

    boards = [m for m in place.history() if m.author.bot and re.search(r"move (\d+)", text(m) or "")]
    return max(int(n) for n in re.findall(r"move (\d+)", text(boards[-1])))


# ------------------------------------------------------------------ item 2: one board, whatever the network does


def boards_in(place) -> list:
    import re

    return [m for m in place.history() if m.author.bot and re.search(r"move \d+", text(m) or "")]


async def test_a_board_post_whose_answer_was_lost_leaves_one_board(discord_standin):
    """Discord posts the board, the answer is lost (502): discord.py posts it again. With
    the board's nonce enforced, Discord hands back the same message: one board."""
    standin = discord_standin
    env = standin.env
    guild, channel, members = world(env, 2)
    lobby = await open_lobby(channel, members)
    standin.faults.lost_answer("POST", "/channels/*/messages", times=1, who="bot")
    await members[0].click(lobby, label="Start")
    await advance(env, 3)
    thread = game_place(channel)
    assert len(boards_in(thread)) == 1
    (table,) = env.bot.tables.tables()
    assert table.record.message_id == boards_in(thread)[0].id
    # A board posted anew later (a ping) whose answer is lost: still one board.
    first, _ = mover_of(env, members)
    standin.faults.lost_answer("POST", f"/channels/{thread.id}/messages", times=1, who="bot")
    await advance(env, table.record.timer_seconds + 3)  # the timer plays for them; the next player is pinged anew
    assert table.record.version == 1
    assert len(boards_in(thread)) == 1 and boards_in(thread)[0].id == table.record.message_id
    assert [e.status for e in standin.log if e.method == "POST" and e.path == f"/channels/{thread.id}/messages" and e.who == "bot"].count(502) >= 1
    # Every answer of a post lost (discord.py's five tries): the bot's own retry of the
    # publish carries the same nonce, so it too gets that board back.
    standin.faults.lost_answer("POST", f"/channels/{thread.id}/messages", times=5, who="bot")
    await advance(env, table.record.timer_seconds + 1)  # the timer plays; the next player is pinged anew
    await advance(env, 1 + 3 + 5 + 7 + 9 + 10 + 5)  # discord.py's waits, then the publish retry (10 s)
    assert table.record.version == 2
    assert len(boards_in(thread)) == 1 and boards_in(thread)[0].id == table.record.message_id
    assert "move 2" in text(boards_in(thread)[0])


# ------------------------------------------------------------------ item 6: a board behind, said


async def test_a_board_held_back_by_discord_is_said_to_be_behind_in_hands_until_it_catches_up(discord_standin):
    standin = discord_standin
    env = standin.env
    channel, thread, members, first, table, hands = await game_with_open_hands(env)
    # A 300 s retry_after on this board's edits.
    standin.faults.rate_limited(300, "PATCH", f"/channels/{thread.id}/messages/*", times=1, who="bot")
    await first.select(now(env, hands[first.id]), [play_code(table, first)])
    assert table.record.version == 1 and shown_move(thread) == 0
    second = next(m for m in members if m.id != first.id)
    fresh = await second.click(board(channel), label="Show hand")
    assert "board is behind" not in said(fresh.response)  # a moment's lag is not news
    await advance(env, 10)
    asked = await second.click(board(channel), label="Show hand")
    assert "The board is behind" in said(asked.response) and "asks me to wait" in said(asked.response)
    await second.select(asked.response.message, [play_code(table, second)])  # the answer to their click says it too
    assert table.record.version == 2 and "The board is behind" in said(now(env, asked.response.message))
    await advance(env, 300)
    assert shown_move(thread) == table.record.version  # caught up (the turn timers played on meanwhile)
    caught_up = await first.click(board(channel), label="Show hand")
    assert "board is behind" not in said(caught_up.response)


async def test_a_board_failing_with_server_errors_is_said_to_be_behind_and_why(discord_standin):
    standin = discord_standin
    env = standin.env
    channel, thread, members, first, table, hands = await game_with_open_hands(env)
    standin.faults.server_errors("PATCH", f"/channels/{thread.id}/messages/*", for_seconds=40, who="bot")
    await first.select(now(env, hands[first.id]), [play_code(table, first)])
    await advance(env, 30)  # discord.py's five tries (25 s) spent
    second = next(m for m in members if m.id != first.id)
    asked = await second.click(board(channel), label="Show hand")
    assert "The board is behind (Discord is answering with server errors)" in said(asked.response)
    await advance(env, 60)  # the publish retry after the burst
    assert shown_move(thread) == 1
    assert "board is behind" not in said((await second.click(board(channel), label="Show hand")).response)


async def test_a_permission_taken_on_a_games_channel_pauses_it_and_the_hands_say_so(discord_standin):
    """A game played in its channel (threads off): nowhere else to post, so the note is
    in each player's open hand; the game goes on when the permission is back."""
    from tests.platform.test_table_e2e import set_by_admin

    standin = discord_standin
    env = standin.env
    guild, channel, members = world(env, 2)
    await set_by_admin(env, guild, channel, "settings threads", mode="off")
    await start(channel, members)
    first, table = mover_of(env, members)
    hands = {m.id: (await m.click(board(channel), label="Show hand")).response.message for m in members}
    taken = standin.faults.forbidden("*", f"/channels/{channel.id}/messages*", code=50001)
    await first.select(now(env, hands[first.id]), [play_code(table, first)])
    assert table.record.version == 1 and table.record.publish.get("paused")
    second = next(m for m in members if m.id != first.id)
    assert "View Channel" in head(now(env, hands[second.id])) and channel.mention in head(now(env, hands[second.id]))
    await advance(env, table.record.timer_seconds + 30)
    assert table.record.version == 1  # no turn timer while paused
    standin.faults.remove(taken)
    await advance(env, 31)
    assert not table.record.publish.get("paused") and shown_move(channel) == 1
