"""Private hands (issue 9), end to end through SimCord: the picture of the player's own
cards rides on every hand message (Show hand, a move's answer, the live hand, the DM),
the per-player text-only preference, the Components V2 hand, the leak scan of hand
pictures in a real game, and the card pictures' warm-up at start-up."""

from __future__ import annotations

import random
import threading

import discord
import pytest
import simcord

import bot.pictures.cardart as cardart
import bot.core.games as games
from bot.pictures.cardart import CardRow
from tests.cardcodes import card_codes_in
from tests.conftest import make_bot
from tests.e2e.ui import board, game_place, head, image_urls, text, use_control
from tests.e2e.world import ALL_EXTENSIONS
from tests.platform.test_table_e2e import TOY, mover_of, now, play_code, start, world


pytestmark = pytest.mark.extensions(*TOY)


@pytest.fixture
def toy_hand_cards(simcord_env, monkeypatch):
    """The toy game draws its hand as a picture; every call's observation is kept.
    (After the bot started: loading the extension made a fresh ``tests.platform.toy``.)"""
    from tests.platform.toy import TOY_SPEC

    seen = []

    def hand_cards(observation):
        seen.append(observation)
        return [CardRow("Your hand", tuple(observation["hand"]))]

    monkeypatch.setattr(TOY_SPEC.render, "hand_cards", hand_cards, raising=False)
    return seen


def attached(env, message):
    return [a.filename for a in now(env, message).attachments]


async def test_every_hand_message_carries_the_picture_of_the_players_own_cards(simcord_env, toy_hand_cards):
    env = simcord_env
    guild, channel, members = world(env, 2)
    await start(channel, members)
    (table,) = env.bot.tables.tables()
    hands = {}
    for m in members:
        shown = await m.click(board(channel), label="Show hand")
        hands[m.id] = shown.response.message
        assert shown.ephemeral and attached(env, hands[m.id]) == [f"hand-{table.id}.png"]
        (url,) = image_urls(now(env, hands[m.id]))
        assert url.endswith(f"hand-{table.id}.png")
        assert toy_hand_cards[-1] == table.state.observation(m.id)  # drawn from this player's own view only
    mover, _ = mover_of(env, members)
    other = next(m for m in members if m is not mover)
    since = len(env.http_requests)
    result = await mover.select(now(env, hands[mover.id]), [play_code(table, mover)])
    answer = [r for r in env.http_requests[since:] if r.path.startswith("/interactions/")]
    assert len(answer) == 1  # the answer to the click carried the new picture: no second call
    assert attached(env, result.response.message) == [f"hand-{table.id}.png"]
    # The other player's open hand was edited to "Your move", with its picture, in one call.
    live = now(env, hands[other.id])
    assert "Your move" in head(live) and len(live.attachments) == 1
    assert live.attachments[0].description.startswith("Card picture. Your hand:")  # alt text for screen readers


async def test_my_pictures_off_gives_that_player_text_only_hands(simcord_env, toy_hand_cards):
    env = simcord_env
    guild, channel, members = world(env, 2)
    reader = members[1]
    told = await reader.slash(channel, "settings my-pictures", mode="off")
    assert "text only" in told.response.content
    shown = await reader.slash(channel, "settings show")
    assert "text only" in shown.response.content and "/settings my-pictures" in shown.response.content
    await start(channel, members)
    (table,) = env.bot.tables.tables()
    plain = await reader.click(board(channel), label="Show hand")
    assert attached(env, plain.response.message) == [] and not image_urls(now(env, plain.response.message))
    assert " ".join(str(c) for c in table.state.hands[reader.id]) in text(now(env, plain.response.message))
    pictured = await members[0].click(board(channel), label="Show hand")
    assert len(attached(env, pictured.response.message)) == 1  # the others keep theirs
    await reader.slash(channel, "settings my-pictures", mode="on")
    again = await reader.click(board(channel), label="Show hand")
    assert len(attached(env, again.response.message)) == 1


async def test_dm_hand_carries_the_picture(simcord_env, toy_hand_cards):
    env = simcord_env
    guild, channel, members = world(env, 2)
    dm_player = members[1]
    await dm_player.slash(channel, "settings hands", where="dm")
    await start(channel, members)
    await dm_player.click(board(channel), label="Show hand")
    (dm,) = [m for m in dm_player.user.dm_channel.history() if m.author.bot]
    assert len(dm.attachments) == 1 and image_urls(dm)


async def test_v2_layout_hand_is_one_layout_with_text_picture_and_controls(simcord_env, toy_hand_cards):
    """The default layout."""
    env = simcord_env
    guild, channel, members = world(env, 2)
    await start(channel, members)
    mover, table = mover_of(env, members)
    shown = await mover.click(board(channel), label="Show hand")
    hand = now(env, shown.response.message)
    assert hand.flags.components_v2 and not hand.content and not hand.embeds
    container = hand.components[0]
    texts = [c.content for c in container.children if isinstance(c, discord.TextDisplay)]
    assert "Your move" in texts[0] and "Your hand" in texts[1]
    assert any(isinstance(c, discord.MediaGalleryComponent) for c in container.children) and len(hand.attachments) == 1
    version = table.record.version
    await mover.select(hand, [play_code(table, mover)])
    assert table.record.version == version + 1


@pytest.mark.extensions(*ALL_EXTENSIONS)
async def test_hand_pictures_never_show_a_card_hidden_from_their_player(simcord_env, monkeypatch):
    """A whole 3-player Idiot game: every hand picture's rows are built from one player's
    observation, and no card code in them is in another player's hand, anyone's
    face-down cards or the draw pile at that moment."""
    drawn = []
    original = games.card_rows

    def spy(render, name, observation, names=None):
        rows = original(render, name, observation, names)
        if name == "hand_cards":
            (table,) = env.bot.tables.tables()
            state = table.state
            viewer = observation["viewer"]
            hidden = {str(c) for p, cards in state.hands.items() if p != viewer for c in cards}
            hidden |= {str(c) for cards in state.face_down.values() for c in cards if c is not None}
            hidden |= {str(c) for c in state.draw}
            drawn.append((viewer, card_codes_in([list(r.cards) for r in rows]), hidden, observation == state.observation(viewer)))
        return rows

    monkeypatch.setattr(games, "card_rows", spy)
    env = simcord_env
    guild, channel, members = world(env, 3)
    await start(channel, members, "idiot new")
    (table,) = env.bot.tables.tables()
    hands = {}
    moves = 0
    rng = random.Random(7)
    while env.bot.tables.tables() and moves < 400:
        pid = rng.choice(sorted(table.state.current_players()))
        member = next(m for m in members if m.id == pid)
        legal = table.state.legal_actions(pid)
        code = next((a.code() for a in legal if a.kind == "ready"), None) or rng.choice(legal).code()
        if pid not in hands:
            hands[pid] = (await member.click(board(channel), label="Show hand")).response.message
        result = await use_control(member, now(env, hands[pid]), code)
        hands[pid] = result.response.message
        moves += 1
    thread = game_place(channel)
    assert thread is not channel
    assert moves > 30 and len({viewer for viewer, *_ in drawn}) == 3
    assert all(own_view for *_, own_view in drawn)
    leaks = [(viewer, codes & hidden) for viewer, codes, hidden, _ in drawn if codes & hidden]
    assert leaks == []
    assert sum(1 for _, codes, _, _ in drawn if codes) > 30  # the pictures did show cards


async def test_card_pictures_are_warmed_up_at_start_off_the_event_loop(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(cardart, "warm_up", lambda deck="french": calls.append((deck, threading.current_thread() is threading.main_thread())) or 0)
    bot = make_bot(tmp_path / "data", TOY)
    try:
        async with simcord.run(bot) as env:
            await env.bot.warm_task
            assert calls == [("french", False), ("onion", False)]  # both decks, in a worker thread
    finally:
        await bot.storage.close()


async def test_classic_layout_hand_is_an_embed_with_picture_and_controls(simcord_env, toy_hand_cards):
    """``/settings layout classic``: the hand is an embed carrying the picture, with the same controls."""
    env = simcord_env
    guild, channel, members = world(env, 2)
    admin = guild.add_member(env.create_user("admin"), roles=[guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))])
    await admin.slash(channel, "settings layout", style="classic")
    await start(channel, members)
    mover, table = mover_of(env, members)
    shown = await mover.click(board(channel), label="Show hand")
    hand = now(env, shown.response.message)
    assert not hand.flags.components_v2 and "Your move" in hand.content
    (embed,) = hand.embeds
    assert embed.title == "Your hand" and embed.image.url.endswith(f"hand-{table.id}.png") and len(hand.attachments) == 1
    version = table.record.version
    await mover.select(hand, [play_code(table, mover)])
    assert table.record.version == version + 1
    assert not board(channel).flags.components_v2 and board(channel).embeds  # the board is classic too


@pytest.mark.extensions(*ALL_EXTENSIONS)
async def test_table_picture_names_the_players_by_their_display_names(simcord_env):
    """The public picture's row labels carry each player's server display name (plain
    text: an image cannot resolve a mention), cut when long, emoji left out; a name the
    font cannot draw at all falls back to the seat number."""
    long_name = "Bartholomew-Maximilian Featherstonehaugh the Third"
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("cards")
    members = [
        guild.add_member(env.create_user("ann"), nick="Ann 🎲"),
        guild.add_member(env.create_user("bob"), nick=long_name),
        guild.add_member(env.create_user("cy"), nick="🃏🃏🃏"),
    ]
    await start(channel, members, "idiot new")
    (picture,) = board(channel).attachments
    alt = picture.description
    # The alt text says each row as a sentence: "Ann, in seat 1, has 3 cards in hand; ...".
    assert "Ann, in seat 1, has" in alt  # the emoji is not drawn
    assert f"{long_name[:24].strip()}, in seat 2, has" in alt and long_name not in alt  # cut
    assert "Seat 3 has" in alt and "🃏" not in alt  # nothing drawable: the seat alone
    assert "<@" not in alt


async def test_every_interaction_notes_its_clickers_name_and_a_failing_hook_loses_no_click(simcord_env, caplog):
    """The bot's interaction hooks run with each interaction (one listener): the
    clicker's display name is noted for pictures; a hook that raises is logged and the
    click is played all the same."""
    env = simcord_env
    guild, channel, members = world(env, 2)
    await start(channel, members)
    names = env.bot.tables.publisher.display_names
    assert {(guild.id, m.id) for m in members} <= set(names)

    def broken(interaction):
        raise RuntimeError("hook broken on purpose")

    env.bot.interaction_hooks.insert(0, broken)
    mover, table = mover_of(env, members)
    shown = await mover.click(board(channel), label="Show hand")
    await mover.select(now(env, shown.response.message), [play_code(table, mover)])
    assert table.record.version == 1
    assert "Interaction hook" in caplog.text and "hook broken on purpose" in caplog.text
