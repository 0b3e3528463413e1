"""How a game is shown (issue 9), end to end through SimCord with the toy game:
a thread per game with one parent message, one board carrying who must act (edited in
place; posted anew only to ping someone who cannot be told through an open hand),
hands that update on their own, DM hands, Rematch, and the fallbacks when Discord
refuses (thread creation, an edit, a DM)."""

from __future__ import annotations

import json
import re

import discord
import pytest
from simcord.results import to_discord_message

from tests.conftest import restart
from tests.e2e.ui import board, game_place, head, image_urls, labels, text
from tests.e2e.world import ALL_EXTENSIONS, TOY, world

pytestmark = pytest.mark.extensions(*TOY)


async def start(channel, members, game="toy new"):
    lobby = (await members[0].slash(channel, game)).response.message
    for m in members[1:]:
        await m.click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    return lobby


async def set_by_admin(env, guild, channel, command, **options):
    """A server setting chosen by a member allowed to manage the server."""
    admin = guild.add_member(env.create_user("admin"), roles=[guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))])
    await admin.slash(channel, command, **options)


def now(env, message):
    """The message as it is now (an ephemeral edited through its token changes under us)."""
    return to_discord_message(env, env.backend.messages[message.channel.id][message.id])


def bot_posts(channel):
    """Messages the bot itself posted there (not Discord's own "started a thread" notice)."""
    return [m for m in channel.history() if m.author.bot and m.type in (discord.MessageType.default, discord.MessageType.chat_input_command, discord.MessageType.reply)]


def pinged(env, since=0):
    """Users notified by the bot's new messages since request ``since``: mentioned in
    the content and allowed by the message's allowed_mentions (edits notify nobody)."""
    users = set()
    for request in env.http_requests[since:]:
        if request.method == "POST" and re.fullmatch(r"/channels/\d+/messages", request.path):
            payload = request.json or {}
            allowed = {int(u) for u in (payload.get("allowed_mentions") or {}).get("users", [])}
            words = (payload.get("content") or "") + json.dumps(payload.get("components") or [])  # a V2 board's TextDisplays
            users |= {int(u) for u in re.findall(r"<@(\d+)>", words)} & allowed
    return users


def turn_lines(place):
    """Messages in ``place`` that tell someone it is their move (the board's first line)."""
    return [m for m in place.history() if "your move" in (head(m) or "") or "your picks" in (head(m) or "")]


def mover_of(env, members):
    (table,) = env.bot.tables.tables()
    (pid,) = table.state.current_players()
    return next(m for m in members if m.id == pid), table


def play_code(table, member):
    return next(a.code() for a in table.state.legal_actions(member.id) if a.kind == "play")


async def test_whole_game_in_a_thread_with_one_parent_message_and_live_hands(simcord_env, data_dir):
    env = simcord_env
    guild, channel, members = world(env)
    since = len(env.http_requests)
    lobby = await start(channel, members)
    (thread,) = channel.threads
    assert [m.id for m in bot_posts(channel)] == [lobby.id]
    assert f"In play in <#{thread.id}>" in now(env, lobby).embeds[0].description
    first, _ = mover_of(env, members)
    assert pinged(env, since) == {first.id}  # the first board pings the first player
    hands = {}  # each player's one hand message, opened once
    moves = 0
    while env.bot.tables.tables():
        mover, table = mover_of(env, members)
        shown = board(channel)
        assert head(shown).startswith(f"👉 {mover.mention}: your move.")  # exactly who must act
        assert [m.id for m in turn_lines(thread)] == [shown.id]  # the board is the only "your move"
        if mover.id not in hands:
            hands[mover.id] = (await mover.click(shown, label="Show hand")).response.message
        else:
            # Nobody clicked Show hand: the open hand updated itself when the turn came.
            assert "Your move" in head(now(env, hands[mover.id]))
        hand = now(env, hands[mover.id])
        since = len(env.http_requests)
        result = await mover.select(hand, [play_code(table, mover)])
        hands[mover.id] = result.response.message
        moves += 1
        if env.bot.tables.tables():
            following, _ = mover_of(env, members)
            if following.id in hands:
                # They are looking at their hand: it tells them; the board is edited, nobody pinged.
                assert board(channel).id == shown.id and pinged(env, since) == set()
                assert len(env.http_requests) - since == 3  # the answer, the board edit, their hand
            else:
                # No hand open: the board is posted anew to ping them, the old one deleted.
                assert board(channel).id != shown.id and pinged(env, since) == {following.id}
                assert shown.id not in {m.id for m in thread.history()}
    assert len(hands) == 3 and moves > 3
    # The parent channel still has one message from the bot: the lobby, now the result.
    assert [m.id for m in bot_posts(channel)] == [lobby.id]
    parent = now(env, lobby).embeds[0].description
    assert "won the Toy game" in parent and "/leaderboard" in parent and f"<#{thread.id}>" in parent
    final = board(channel)
    assert "won the Toy game" in head(final) and "/leaderboard" in head(final) and "your move" not in head(final)
    assert labels(final) == ["Rematch", "Replay"]
    assert [m.id for m in bot_posts(thread)] == [final.id]  # one board in the thread, nothing stale
    for hand in hands.values():  # every open hand says so too, not a stale "Waiting for"
        shown = now(env, hand)
        # How it ended, and where the next game starts; no control left to click.
        assert head(shown).startswith("🥇") and "won the Toy game" in head(shown) and labels(shown) == []
        # A short labelled link (a raw address wrapped mid-number on a narrow hand).
        assert f"press **Rematch** on [the board](https://discord.com/channels/{guild.id}/{thread.id}/{final.id})." in head(shown)
    assert not any("turn" in line for line in table.record.recent)


async def test_a_hand_left_alone_for_minutes_gets_a_ping_again(simcord_env, monkeypatch):
    """An open hand is the notice only while its player is plausibly looking at it: once
    their last click is LOOKING_SECONDS old, the hand is still updated and they are pinged."""
    from bot.discord_front import publish

    env = simcord_env
    guild, channel, members = world(env, 2)
    await start(channel, members)
    thread = game_place(channel)
    a, table = mover_of(env, members)
    hand_a = (await a.click(board(channel), label="Show hand")).response.message
    await a.select(hand_a, [play_code(table, a)])
    b, _ = mover_of(env, members)
    hand_b = (await b.click(board(channel), label="Show hand")).response.message
    for live in env.bot.tables.publisher.live.values():
        live.since -= publish.LOOKING_SECONDS + 1
    since = len(env.http_requests)
    await b.select(hand_b, [play_code(table, b)])
    assert pinged(env, since) == {a.id}
    assert "Your move" in head(now(env, hand_a))  # updated too, for when they come back
    assert [m.id for m in turn_lines(thread)] == [board(channel).id]


async def test_rematch_opens_a_lobby_in_the_thread_with_the_same_players(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 2)
    await start(channel, members)
    (thread,) = channel.threads
    while env.bot.tables.tables():
        mover, table = mover_of(env, members)
        hand = await mover.click(thread.last_message, label="Show hand")
        await mover.select(hand.response.message, [play_code(table, mover)])
    outsider = guild.add_member(env.create_user("watcher"))
    refused = await outsider.click(board(channel), label="Rematch")
    assert refused.ephemeral and "Only the players" in head(refused.response)
    again = await members[1].click(board(channel), label="Rematch")
    assert not again.ephemeral
    (table,) = env.bot.tables.tables()
    assert table.record.players == [members[1].id, members[0].id] and table.record.thread_id == thread.id
    await members[1].click(again.response.message, label="Start")
    assert table.status == "playing" and [t.id for t in channel.threads] == [thread.id]  # played in the same thread
    assert head(thread.last_message).startswith("👉")


async def test_thread_creation_refused_falls_back_to_the_channel_with_a_note(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 2)
    env.inject_error("POST", "/channels/*/messages/*/threads", status=403, code=50013, message="Missing Permissions")
    lobby = await start(channel, members)
    assert channel.threads == []
    (table,) = env.bot.tables.tables()
    assert table.record.thread_id is None
    note = now(env, lobby).embeds[0].footer.text
    assert "could not open a thread" in note and "played in this channel" in note
    mover, _ = mover_of(env, members)
    assert head(channel.last_message) == f"👉 {mover.mention}: your move."
    hand = await mover.click(channel.last_message, label="Show hand")
    await mover.select(hand.response.message, [play_code(table, mover)])
    assert table.record.version == 1


async def test_threads_off_keeps_games_in_the_channel(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 2)
    admin = guild.add_member(env.create_user("admin"), roles=[guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))])
    refused = await members[0].slash(channel, "settings threads", mode="off")
    assert "Manage Server" in head(refused.response)
    await admin.slash(channel, "settings threads", mode="off")
    await start(channel, members)
    assert channel.threads == []
    second = await members[1].slash(channel, "toy new")
    assert second.ephemeral and "already has a Toy game" in head(second.response)


async def test_several_games_from_one_channel_each_in_its_thread(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 4)
    await start(channel, members[:2])
    await start(channel, members[2:])
    first, second = channel.threads
    tables = env.bot.tables
    assert tables.active_in_channel(guild.id, first.id) is not tables.active_in_channel(guild.id, second.id)
    # /hand typed in a thread finds that thread's table; in the parent, it says where to go.
    mover, _ = next((m, t) for t in tables.tables() for m in members[2:] if m.id in t.state.current_players())
    shown = await mover.slash(second, "hand")
    assert "Your move" in head(shown.response)
    lost = await mover.slash(channel, "hand")
    assert lost.ephemeral and f"<#{second.id}>" in head(lost.response)


async def test_dm_hand_player_is_told_in_dms_and_show_hand_refreshes_it(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 2)
    dm_player = members[1]
    await dm_player.slash(channel, "settings hands", where="dm")
    await start(channel, members)
    thread = game_place(channel)
    dms = lambda: [m for m in dm_player.user.dm_channel.history() if m.author.bot]  # noqa: E731
    turns_seen = 0
    while env.bot.tables.tables():
        mover, table = mover_of(env, members)
        if mover is dm_player:
            latest = dms()[-1]
            if table.record.version > 0:
                # Their turn came: a new DM with the hand, the previous one deleted.
                assert "Your move" in head(latest)
                turns_seen += 1
                assert len(dms()) == 1
            count = len(dms())
            pressed = await mover.click(thread.last_message, label="Show hand")
            assert pressed.ephemeral and "in your DMs" in head(pressed.response)
            assert len(dms()) == count or count == 0  # refreshed in place, not sent again
            result = await mover.user.select(dms()[-1], [play_code(table, mover)])
            assert table.record.version and result.response is not None
        else:
            hand = await mover.click(thread.last_message, label="Show hand")
            await mover.select(hand.response.message, [play_code(table, mover)])
    assert turns_seen >= 1


async def test_closed_dms_are_said_once_and_hands_fall_back_to_ephemeral(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 2)
    await members[0].slash(channel, "settings hands", where="dm")
    await members[1].slash(channel, "settings hands", where="dm")
    env.inject_error("POST", "/users/@me/channels", status=403, code=50007, message="Cannot send messages to this user", times=None)
    await start(channel, members)
    mover, table = mover_of(env, members)
    thread = game_place(channel)
    first = await mover.click(thread.last_message, label="Show hand")
    assert first.ephemeral and "could not DM you" in head(first.response)
    second = await mover.click(thread.last_message, label="Show hand")
    assert second.ephemeral and "could not DM you" not in head(second.response) and "Your move" in head(second.response)


async def test_restart_mid_game_board_pings_and_hands_carry_on(simcord_env, data_dir):
    env = simcord_env
    guild, channel, members = world(env, 3)
    await start(channel, members)
    thread = game_place(channel)
    mover, table = mover_of(env, members)
    hand = await mover.click(board(channel), label="Show hand")
    await mover.select(hand.response.message, [play_code(table, mover)])
    board_id = board(channel).id
    await restart(env, data_dir, TOY)
    mover, table = mover_of(env, members)
    hand = await mover.click(board(channel), label="Show hand")  # the board's button, posted before the restart
    assert "Your move" in head(hand.response)
    since = len(env.http_requests)
    await mover.select(hand.response.message, [play_code(table, mover)])
    # Open hands are not remembered across a restart: the next player is pinged by a new board.
    following, _ = mover_of(env, members)
    assert pinged(env, since) == {following.id}
    assert board(channel).id != board_id and board_id not in {m.id for m in thread.history()}
    assert [m.id for m in turn_lines(thread)] == [board(channel).id]  # no stale "your move" after the restart
    assert head(board(channel)).startswith(f"👉 {following.mention}: your move.")


async def test_a_ping_message_stored_before_the_board_carried_the_turn_is_deleted(simcord_env):
    """Tables saved by the previous version had a separate ping message: the next
    publish deletes it, so no stale "your move" stays behind after the upgrade."""
    env = simcord_env
    guild, channel, members = world(env, 2)
    await start(channel, members)
    thread = game_place(channel)
    mover, table = mover_of(env, members)
    old = await env.bot.get_partial_messageable(thread.id).send(f"👉 {mover.mention}: your move.")
    table.record.publish["ping"] = {"id": old.id, "players": [mover.id]}
    hand = await mover.click(board(channel), label="Show hand")
    await mover.select(hand.response.message, [play_code(table, mover)])
    assert old.id not in {m.id for m in thread.history()} and "ping" not in table.record.publish
    assert [m.id for m in turn_lines(thread)] == [board(channel).id]


async def test_board_is_reposted_when_about_an_hour_old(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 2)
    await start(channel, members)
    thread = game_place(channel)
    mover, table = mover_of(env, members)
    old = board(channel).id
    table.record.message_posted_at -= 51 * 60
    hand = await mover.click(thread.last_message, label="Show hand")
    await mover.select(hand.response.message, [play_code(table, mover)])
    assert board(channel).id != old and old not in {m.id for m in thread.history()}


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.extensions(*ALL_EXTENSIONS)
async def test_engines_ping_names_everyone_still_to_pick(players, simcord_env):
    env = simcord_env
    guild, channel, members = world(env, players)
    lobby = (await members[0].slash(channel, "engines new", players=players)).response.message
    for m in members[1:]:
        await m.click(lobby, label="Join either side")
    await members[0].click(lobby, label="Start")
    assert "2 to 4" not in now(env, lobby).embeds[0].description
    thread = game_place(channel)
    (table,) = env.bot.tables.tables()
    waiting = sorted(table.state.current_players())
    assert len(waiting) == players
    ping = thread.last_message
    assert all(f"<@{p}>" in head(ping) for p in waiting)
    picker = next(m for m in members if m.id == waiting[0])
    hand = await picker.click(ping, label="Show hand")
    code = next(a.code() for a in table.state.legal_actions(picker.id) if a.kind == "play")
    await picker.select(hand.response.message, [code])
    still = sorted(table.state.current_players())
    assert picker.id not in still
    edited = now(env, ping)
    assert edited.id == thread.last_message.id  # the same ping, edited: no new notice
    assert f"<@{picker.id}>" not in head(edited) and all(f"<@{p}>" in head(edited) for p in still)


@pytest.mark.extensions(*ALL_EXTENSIONS)
async def test_idiot_swap_ping(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 3)
    await start(channel, members, "idiot new")
    thread = game_place(channel)
    (table,) = env.bot.tables.tables()
    shown = board(channel)
    assert all(m.mention in head(shown) for m in members) and "then press Ready" in head(shown)  # the game's own task
    first = members[0]
    hand = await first.click(shown, label="Show hand")
    since = len(env.http_requests)
    await first.click(hand.response.message, label="Ready")
    edited = now(env, shown)
    assert edited.id == board(channel).id and pinged(env, since) == set()  # the same board, edited: no new notice
    # Edited, it notifies nobody, yet its first line still names everyone who must act
    # (issue 37): the two still swapping, not the one who is ready.
    line = head(edited).split("\n")[0]
    assert line.startswith("👉") and first.mention not in line and all(m.mention in line for m in members[1:])
    for m in members[1:]:
        hand = await m.click(board(channel), label="Show hand")
        await m.click(hand.response.message, label="Ready")
    assert table.state.phase == "play"
    (current,) = table.state.current_players()
    # Their hand, open since the swap, told them (no ping): the edited board's first line
    # says the turn, once.
    assert head(board(channel)).startswith(f"👉 <@{current}>: play from your hand.") and "▶" not in text(board(channel))
    assert "**Turn:**" not in text(board(channel))


async def test_leak_scan_no_hidden_card_in_any_public_message(simcord_env):
    """Every public payload of a whole game (channel and thread posts and edits, public
    interaction answers) is scanned for the cards that stayed hidden to the end: the
    losers' hands and the undealt cards, by code and by face."""
    env = simcord_env
    guild, channel, members = world(env, 3)
    await start(channel, members)
    thread = game_place(channel)
    (table,) = env.bot.tables.tables()
    while env.bot.tables.tables():
        mover, _ = mover_of(env, members)
        hand = await mover.click(thread.last_message, label="Show hand")
        await mover.select(hand.response.message, [play_code(table, mover)])
    hidden = [c for hand in table.state.hands.values() for c in hand] + list(table.state.spare)
    assert len(hidden) > 10
    dms = {m.user.dm_channel.id for m in members if m.user.dm_channel is not None}
    public = []
    for request in env.http_requests:
        payload = request.json or {}
        if request.path.startswith("/channels/") and not any(request.path.startswith(f"/channels/{d}/") for d in dms):
            public.append(json.dumps(payload, ensure_ascii=False))
        elif request.path.startswith("/interactions/") and not int((payload.get("data") or {}).get("flags") or 0) & 64:
            data = payload.get("data") or {}
            # A click's answer updating the clicker's own (ephemeral) hand: an embed titled
            # "Your hand", or the same title as the heading of a V2 hand's text.
            own_hand = any((e.get("title") or "") == "Your hand" for e in data.get("embeds", [])) or "### Your hand" in json.dumps(data.get("components") or [], ensure_ascii=False)
            if not own_hand:
                public.append(json.dumps(data, ensure_ascii=False))
    assert len(public) > 10
    text = "\n".join(public)
    for card in hidden:
        assert not re.search(rf"(?<![0-9A-Za-z]){re.escape(str(card))}(?![0-9A-Za-z])", text), card
        assert card.display() not in text, card


async def test_board_is_reposted_when_chat_scrolled_it_far_up(simcord_env):
    env = simcord_env
    guild, channel, members = world(env, 2)
    await start(channel, members)
    thread = game_place(channel)
    old = board(channel).id
    for n in range(30):
        await members[1].send(thread, f"chat {n}")
    mover, table = mover_of(env, members)
    # Both hands open: nobody needs a ping, so only the scrolling makes the board move down.
    hands = {m.id: (await m.click(board(channel), label="Show hand")).response.message for m in members}
    await mover.select(now(env, hands[mover.id]), [play_code(table, mover)])
    history = thread.history()
    assert board(channel).id != old and old not in {m.id for m in history}
    assert history[-1].id == board(channel).id and head(history[-1]).startswith("👉")  # the board, at the bottom


async def test_v2_layout_board_is_played_and_edited_in_place(simcord_env):
    """Components V2 is the default layout: no setting needed."""
    env = simcord_env
    guild, channel, members = world(env, 2)
    await start(channel, members)
    thread = game_place(channel)
    (first,) = [m for m in thread.history() if m.flags.components_v2]
    texts = [c.content for c in first.components[0].children if isinstance(c, discord.TextDisplay)]
    assert texts[0].startswith("👉") and texts[1].startswith("### Toy") and any("move 0" in t for t in texts)
    assert sum(len(t) for t in texts) <= 4000
    hands = {m.id: (await m.click(first, label="Show hand")).response.message for m in members}
    while env.bot.tables.tables():
        mover, table = mover_of(env, members)
        result = await mover.select(now(env, hands[mover.id]), [play_code(table, mover)])
        hands[mover.id] = result.response.message
    final = now(env, first)
    texts = [c.content for c in final.components[0].children if isinstance(c, discord.TextDisplay)]
    assert "won the Toy game" in texts[0]
    assert final.components[-1].children[0].label == "Rematch"


async def test_classic_layout_is_the_switch_back_and_plays_a_whole_game(simcord_env):
    """``/settings layout classic``: the board and the hands are embeds with message
    content, a whole game long; games started before the switch keep their layout."""
    env = simcord_env
    guild, channel, members = world(env, 2)
    admin = guild.add_member(env.create_user("admin"), roles=[guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))])
    told = await admin.slash(channel, "settings layout", style="classic")
    assert "as an embed" in told.response.content
    await start(channel, members)
    first = board(channel)
    assert not first.flags.components_v2 and first.content.startswith("👉") and first.embeds[0].title.startswith("Toy")
    hands = {m.id: (await m.click(first, label="Show hand")).response.message for m in members}
    assert all(not now(env, h).flags.components_v2 and now(env, h).embeds for h in hands.values())
    while env.bot.tables.tables():
        mover, table = mover_of(env, members)
        assert "Your move" in now(env, hands[mover.id]).content
        result = await mover.select(now(env, hands[mover.id]), [play_code(table, mover)])
        hands[mover.id] = result.response.message
    final = now(env, first)
    assert not final.flags.components_v2 and "won the Toy game" in final.content
    assert [c.label for row in final.components for c in row.children] == ["Rematch", "Replay"]


async def test_card_picture_is_drawn_from_the_spectator_view_and_rides_on_the_board_edit(simcord_env, monkeypatch):
    """A public picture's only input is the spectator observation (no hand in it), it is
    attached to the board edit that happens anyway, and turning pictures off leaves text."""
    import io

    from PIL import Image

    import bot.pictures.cardart as cardart
    from bot.pictures.cardart import CardRow
    from tests.platform.toy import TOY_SPEC

    seen_observations, seen_rows = [], []

    def table_cards(observation):
        seen_observations.append(observation)
        return [CardRow("Cards held", face_down=sum(observation["counts"].values()))]

    def render_rows(rows, *, title=""):
        seen_rows.append(list(rows))
        buffer = io.BytesIO()
        Image.new("RGB", (4, 4)).save(buffer, format="PNG")
        return buffer.getvalue()

    monkeypatch.setattr(TOY_SPEC.render, "table_cards", table_cards, raising=False)
    monkeypatch.setattr(cardart, "render_rows", render_rows, raising=False)
    env = simcord_env
    guild, channel, members = world(env, 2)
    await start(channel, members)
    thread = game_place(channel)
    mover, table = mover_of(env, members)
    first = board(channel)
    assert len(first.attachments) == 1 and [u.rsplit("/", 1)[-1] for u in image_urls(first)] == ["table-1.png"]
    hands = {m.id: (await m.click(first, label="Show hand")).response.message for m in members}
    start_at = len(env.http_requests)
    await mover.select(now(env, hands[mover.id]), [play_code(table, mover)])
    board_calls = [r for r in env.http_requests[start_at:] if r.path == f"/channels/{thread.id}/messages/{first.id}"]
    assert len(board_calls) == 1  # one edit carried text and picture together
    assert len(now(env, first).attachments) == 1
    assert seen_observations and all("hand" not in o for o in seen_observations)
    assert all(o == table.state.observation(None) for o in seen_observations[-1:])
    assert all(not row.cards for rows in seen_rows for row in rows)  # the toy shows no face-up card


async def test_pictures_off_keeps_the_board_text_only(simcord_env, monkeypatch):
    import bot.pictures.cardart as cardart
    from bot.pictures.cardart import CardRow
    from tests.platform.toy import TOY_SPEC

    calls = []
    monkeypatch.setattr(TOY_SPEC.render, "table_cards", lambda o: [CardRow("x", face_down=1)], raising=False)
    monkeypatch.setattr(cardart, "render_rows", lambda rows, *, title="": calls.append(rows) or b"", raising=False)
    env = simcord_env
    guild, channel, members = world(env, 2)
    await set_by_admin(env, guild, channel, "settings pictures", mode="off")
    await start(channel, members)
    assert not board(channel).attachments and not calls


@pytest.mark.parametrize("layout", ["classic", "v2"])
async def test_a_picture_that_cannot_be_drawn_leaves_the_board_text_only(simcord_env, monkeypatch, layout):
    """The board's text is built before its picture is drawn: when drawing fails, the
    board goes out with that same text and no picture, nor any reference to one."""
    import bot.pictures.cardart as cardart
    from bot.pictures.cardart import CardRow
    from tests.platform.toy import TOY_SPEC

    def cannot_draw(rows, **layout):
        raise ValueError("no such card")

    monkeypatch.setattr(TOY_SPEC.render, "table_cards", lambda o: [CardRow("x", face_down=1)], raising=False)
    monkeypatch.setattr(cardart, "render_rows", cannot_draw, raising=False)
    cardart._PNG_CACHE.clear()
    env = simcord_env
    guild, channel, members = world(env, 2)
    await set_by_admin(env, guild, channel, "settings layout", style=layout)
    await start(channel, members)
    shown = board(channel)
    assert not shown.attachments and image_urls(shown) == []
    assert "move" in text(shown), "the board's text is all there"


@pytest.mark.parametrize("layout", ["classic", "v2"])
async def test_cancel_mid_game_leaves_no_stale_turn_on_the_board_or_in_open_hands(simcord_env, layout):
    env = simcord_env
    guild, channel, members = world(env, 2)
    await set_by_admin(env, guild, channel, "settings layout", style=layout)
    await start(channel, members)
    thread = game_place(channel)
    shown = board(channel)
    hands = [(await m.click(shown, label="Show hand")).response.message for m in members]
    await members[0].slash(thread, "cancel")
    final = now(env, shown)
    if layout == "v2":
        texts = [c.content for c in final.components[0].children if isinstance(c, discord.TextDisplay)]
        assert texts[0].startswith("This game was cancelled.") and len(final.components) == 1  # no buttons left
    else:
        assert head(final).startswith("This game was cancelled.") and not final.components
    assert turn_lines(thread) == [] and not final.attachments
    for hand in hands:
        cut = now(env, hand)
        words = cut.content or cut.components[0].content
        assert "Toy #1 was cancelled" in words and not cut.attachments and not cut.embeds


def test_a_publish_map_changed_at_any_depth_is_told_from_its_snapshot():
    """What a publish compares to decide whether to save the table: a copy deep enough
    that an edit inside a nested map or list shows (the DM hands' ids, a pause)."""
    from bot.discord_front.publish import _snapshot

    publish = {"names": {"1": "Ann"}, "dm": {"1": [10, 20]}, "paused": {"since": 5, "locked": False}, "after_board": 2}
    before = _snapshot(publish)
    assert before == publish and before is not publish
    for change in (lambda p: p["dm"]["1"].__setitem__(1, 21), lambda p: p["paused"].__setitem__("locked", True),
                   lambda p: p["names"].__setitem__("2", "Bob"), lambda p: p.__setitem__("after_board", 0)):
        edited = _snapshot(publish)
        change(edited)
        assert edited != _snapshot(publish)
    publish["dm"]["1"].append(30)
    assert publish != before
