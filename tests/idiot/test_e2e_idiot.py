"""Idiot end to end through SimCord: the real bot, slash commands, button clicks
and selects. Moves are chosen from what the hand message offers (its select
options and buttons), never applied through the rules directly; the rules state
is only read, to know whose turn it is and to check what the messages show."""

from __future__ import annotations

import re

import pytest

import discord

from bot.rules.cards import parse_card
from bot.words.render_util import card_text
from cogs.idiot.rules import IdiotGame, card_value
from tests.conftest import make_bot
from tests.e2e.ui import board, button_ids, embed_of, game_place, head, text
from tests.hardening.forge import forge_component
from tests.e2e.world import db_rows, world

SEED = 20240611  # the deal's seed, fixed so the whole-game test is reproducible
TURN_SECONDS = 120  # the platform's default turn timer


@pytest.fixture
def fixed_seed(monkeypatch):
    """Start deals from a known seed (the platform draws one with secrets.randbits)."""
    monkeypatch.setattr("bot.discord_front.tables.lobby.secrets.randbits", lambda bits: SEED)


def setup_world(env, n=3):
    """A server whose boards are text only: these tests read the whole table in the
    board's text (with card pictures on, the text keeps only what the picture cannot
    show: tests/platform/test_board_face_e2e.py)."""
    guild, channel, members = world(env, n, channel="idiot", prefix="player")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = guild.add_member(env.create_user("admin"), roles=[admins])
    return guild, channel, members, admin


async def pictures_off(env, guild, channel, admin):
    await admin.slash(channel, "settings pictures", mode="off")


async def open_and_start(env, channel, members):
    host = members[0]
    opened = await host.slash(channel, "idiot new")
    assert not opened.ephemeral
    lobby = opened.response.message
    assert "Idiot" in embed_of(opened.response).title
    for member in members[1:]:
        await member.click(lobby, label="Join")
    await host.click(lobby, label="Start")
    (table,) = env.bot.tables.tables()
    return table


def offered(components):
    """(select option values, {button action code: label}) of a hand message."""
    selects, buttons = [], {}
    for row in components:
        for item in row["components"]:
            if item["type"] == 3:
                selects.extend(o["value"] for o in item["options"])
            elif item["type"] == 2 and item.get("custom_id", "").startswith("dh:act:"):
                buttons[item["custom_id"].split(":", 5)[5]] = item.get("label", "")
                # Discord refuses components whose emoji it does not know (🂠, U+1F0A0, is
                # not an emoji); the move buttons use only ✅ or none.
                assert (item.get("emoji") or {}).get("name") in (None, "✅"), item
    return selects, buttons


def has_page_buttons(components):
    return any(item.get("custom_id", "").startswith("dh:page:") for row in components for item in row["components"])


def seat_line(description: str, member) -> str:
    (line,) = [line for line in description.splitlines() if f"{member.mention}:" in line]
    return line


def check_table_message(message, state, members):
    """The public table shows each seat's face-up cards, face-down and hand counts,
    the pile's top and size, the draw pile, and the recent log; and no hidden card."""
    embed = embed_of(message)
    text = embed.description
    obs = state.observation(None)
    for member in members:
        seat = next(s for s in obs["seats"] if s["id"] == member.id)
        line = seat_line(text, member)
        if seat["finished"] or seat["removed"]:
            continue
        assert f"hand {seat['hand_count']}" in line
        for code in seat["face_up"]:
            assert card_text(code) in line
        assert f"face down {len(seat['face_down'])}" in line
    if obs["pile_size"]:
        size = obs["pile_size"]
        assert f"**Pile ({size} card{'s' if size != 1 else ''}):**" in text
        assert f"**{card_text(obs['pile_top'][-1])}**" in text
    assert f"**Draw pile:** {obs['draw_size']}" in text
    assert any(field.name == "Recent" for field in embed.fields)
    # Nothing hidden is on the table: no hand card in the description (played cards
    # may be named in the recent log, and be picked up later), no face-down card anywhere.
    everything = text + "".join(f.value for f in embed.fields)
    for player in state.players:
        for card in state.hands[player]:
            assert card_text(str(card)) not in text
        for card in state.face_down[player]:
            if card is not None:
                assert card_text(str(card)) not in everything


def choose(selects, buttons):
    """A simple player: the lowest value offered, with every copy of it held (so
    multi-card plays happen); else the first button (pick up, or a blind card)."""
    plays = [code for code in selects if code.startswith("play:")]
    if plays:
        lowest = plays[0].split(":")[1].split(".")[0][:-1]
        same = [code for code in plays if code.split(":")[1].split(".")[0][:-1] == lowest]
        return max(same, key=lambda code: code.count(".")), "select"
    return next(iter(buttons)), "button"


# ---------------------------------------------------------------------------- tests


async def test_whole_game_with_swap_phase_timer_and_restart(simcord_env, data_dir, fixed_seed):
    env = simcord_env
    guild, channel, members, admin = setup_world(env)
    await pictures_off(env, guild, channel, admin)
    table = await open_and_start(env, channel, members)
    state = table.state
    by_id = {m.id: m for m in members}

    # -- the swap phase: everyone acts at once ------------------------------------
    ping = game_place(channel).last_message
    assert all(m.mention in head(ping) for m in members)  # all three pinged in one ping
    table_msg = board(channel)
    assert "Swap phase" in embed_of(table_msg).description
    assert state.current_players() == frozenset(m.id for m in members)
    check_table_message(table_msg, state, members)

    hands = {}
    for member in members:
        shown = await member.click(ping, label="Show hand")
        assert shown.ephemeral and "Your move" in head(shown.response)
        hands[member.id] = shown
        selects, buttons = offered(shown.response.components)
        assert selects and all(code.startswith("swap:") for code in selects)
        assert set(selects) | set(buttons) == {a.code() for a in state.legal_actions(member.id)}
        assert buttons == {"ready": "Ready"}

    # Player 0 swaps: the first face-up card for the highest hand card.
    first, second, third = members
    selects, _ = offered(hands[first.id].response.components)
    swap = selects[-1]
    up, held = swap.split(":")[1].split(".")
    swapped = await first.select(hands[first.id].response.message, [swap])
    assert parse_card(held) in state.face_up[first.id] and parse_card(up) in state.hands[first.id]
    assert "Your hand" in embed_of(swapped.response).description  # the hand was re-rendered in place
    assert card_text(held) in seat_line(embed_of(board(channel)).description, first)
    # Player 1 presses Ready from a fresh hand (its earlier one is from before the swap).
    fresh = await second.slash(game_place(channel), "hand")
    await second.click(fresh.response.message, label="Ready")
    assert state.current_players() == frozenset({first.id, third.id})
    still_swapping = await first.click(game_place(channel).last_message, label="Show hand")
    assert "ready" in offered(still_swapping.response.components)[1]
    done = await second.click(game_place(channel).last_message, label="Show hand")
    assert offered(done.response.components) == ([], {})  # ready: nothing more to do
    # Both still swapping are named, as a sentence.
    assert f"Waiting for <@{first.id}> and <@{third.id}>." in head(done.response)

    # The phase timer readies whoever has not pressed Ready.
    await env.advance_time(TURN_SECONDS + 1)
    assert state.phase == "play"
    timed = db_rows(data_dir, guild.id, "SELECT user_id, code FROM actions WHERE source = 'timer' ORDER BY seq")
    assert timed == [(first.id, "ready"), (third.id, "ready")]
    assert sum("ran out of time" in line for line in table.record.recent) == 2
    assert "Play begins" in "\n".join(table.record.recent)

    # -- play, through the hand view only ------------------------------------------
    seen = {"multi": 0, "pickup": 0, "blind": 0, "face_up": 0, "paged": 0}
    restarted_at = None
    for step in range(600):
        if table.status != "playing":
            break
        ping = game_place(channel).last_message
        assert f"<@{next(iter(table.state.current_players()))}>" in head(ping)  # the ping names the mover
        table_msg = board(channel)
        check_table_message(table_msg, table.state, members)
        (mover_id,) = table.state.current_players()
        mover = by_id[mover_id]
        if step == 25:
            # Restart mid-game: the same game continues from the old table message.
            before = table.state.to_json()
            old_bot = env.bot
            await env.restart_bot(make_bot(data_dir))
            await old_bot.tables.close()  # what the old process's exit would have done
            await old_bot.storage.close()
            (table,) = env.bot.tables.tables()
            assert table.state.to_json() == before
            restarted_at = step
            assert game_place(channel).last_message.id == ping.id  # nothing new was posted
            assert board(channel).id == table_msg.id
        if step == 3:
            # A player who waits reads who they wait for once (the status line), not twice.
            idle = next(m for m in members if m.id != mover_id)
            waiting = await idle.click(ping, label="Show hand")
            assert text(waiting.response).count("Waiting for") == 1, text(waiting.response)
            assert "On your turn you will play" in text(waiting.response) or "out of cards" in text(waiting.response)
        shown = await mover.click(ping, label="Show hand")
        assert shown.ephemeral and "Your move" in head(shown.response)
        selects, buttons = offered(shown.response.components)
        legal = {a.code() for a in table.state.legal_actions(mover_id)}
        if has_page_buttons(shown.response.components):
            seen["paged"] += 1
            assert set(selects) <= legal and len(selects) == 25
        else:
            assert set(selects) | set(buttons) == legal  # the hand offers exactly the legal moves
        stage = table.state.stage(mover_id)
        if stage == "face_down":
            assert buttons and all(label.startswith("Turn face-down card") for label in buttons.values())
            assert {code.split(":")[-1] for code in buttons} == {str(p) for p in table.state.observation(mover_id)["seats"][table.state.players.index(mover_id)]["face_down"]}
        seen["multi"] += any(code.count(".") for code in selects)
        seen["pickup"] += "pickup" in buttons
        seen["blind"] += any(code.startswith("blind") for code in buttons)
        seen["face_up"] += stage == "face_up"
        code, place = choose(selects, buttons)
        version = table.record.version
        if place == "select":
            result = await mover.select(shown.response.message, [code])
        else:
            result = await mover.click(shown.response.message, custom_id=next(
                item["custom_id"] for row in shown.response.components for item in row["components"]
                if item.get("custom_id", "").endswith(f":{code}") and item["custom_id"].startswith("dh:act:")
            ))
        assert table.record.version == version + 1, head(result.response)
    else:
        pytest.fail("the game did not end within 600 moves")

    assert restarted_at is not None
    assert table.status == "finished" and not env.bot.tables.tables()
    final = game_place(channel).last_message
    (winner,) = table.state.placements()[0]
    assert f"{by_id[winner].mention} won the Idiot game" in head(final)
    assert "Game over" in embed_of(final).description
    assert not table.state._has_cards(winner)
    places = db_rows(data_dir, guild.id, "SELECT user_id, place FROM results ORDER BY place, user_id")
    assert places[0] == (winner, 1) and sorted(p for _, p in places) == [1, 2, 2]
    # Every kind of hand control was used along the way.
    assert seen["multi"] and seen["pickup"] and seen["blind"] and seen["face_up"], seen
    sources = {row[0] for row in db_rows(data_dir, guild.id, "SELECT DISTINCT source FROM actions")}
    assert sources == {"player", "timer"}


async def test_ready_from_a_hand_shown_before_others_moved_counts_at_once(simcord_env, fixed_seed):
    """In the simultaneous swap phase, other players' moves do not spoil a hand
    shown earlier: its Ready still counts on the first click. A double click does
    not: the player's own move makes the old message stale."""
    env = simcord_env
    guild, channel, members, admin = setup_world(env)
    await pictures_off(env, guild, channel, admin)
    table = await open_and_start(env, channel, members)
    early = await members[2].click(game_place(channel).last_message, label="Show hand")
    ready = next(cid for cid in button_ids(early.response.message) if cid.endswith(":ready"))
    for member in members[:2]:
        shown = await member.click(game_place(channel).last_message, label="Show hand")
        await member.click(shown.response.message, label="Ready")
    assert table.state.current_players() == frozenset({members[2].id}) and table.state.phase == "swap"
    await members[2].click(early.response.message, label="Ready")
    assert table.state.phase == "play"
    version = table.record.version
    # A double click: the client sends the Ready it showed before the first was answered.
    twice = await forge_component(members[2], early.response.message, ready)
    (first,) = table.state.current_players()
    # Refused, saying why: the button is stale, or (someone else to play) it is not their turn.
    why = "earlier moment" if first == members[2].id else f"It is <@{first}>'s turn, not yours"
    assert why in head(twice.response) and table.record.version == version
    # Play begins: the first player, whose hand is open, was told there; the board's
    # first line (edited, so no ping) says whose turn it is and what they do.
    assert head(game_place(channel).last_message).startswith(f"👉 <@{first}>: play from your hand.")


async def test_turn_timer_plays_the_lowest_card_else_picks_up(simcord_env, data_dir, fixed_seed):
    env = simcord_env
    guild, channel, members, admin = setup_world(env)
    await pictures_off(env, guild, channel, admin)
    table = await open_and_start(env, channel, members)
    for member in members:
        shown = await member.click(game_place(channel).last_message, label="Show hand")
        await member.click(shown.response.message, label="Ready")
    state = table.state
    for _ in range(4):
        (player,) = state.current_players()
        hand = list(state.hands[player])
        top = state.top_card()
        playable = sorted(
            (c for c in hand if top is None or c.rank.label in ("2", "10") or card_value(c.rank) >= card_value(top.rank)),
            key=lambda c: (c.rank.label == "10", c.rank.label == "2", card_value(c.rank)),
        )
        version = table.record.version
        await env.advance_time(TURN_SECONDS + 1)
        assert table.record.version == version + 1
        (code,) = db_rows(data_dir, guild.id, "SELECT code FROM actions WHERE seq = ?", version + 1)[0]
        if playable:
            assert code.startswith("play:") and code.count(".") == 0
            assert parse_card(code.split(":")[1]).rank == playable[0].rank
        else:
            assert code == "pickup"
        assert f"⏰ <@{player}> ran out of time." in table.record.recent


async def test_non_player_and_lobby_checks(simcord_env):
    env = simcord_env
    guild, channel, members, admin = setup_world(env, 2)
    await pictures_off(env, guild, channel, admin)
    watcher = guild.add_member(env.create_user("watcher"))
    lobby = (await members[0].slash(channel, "idiot new")).response.message
    early = await members[0].click(lobby, label="Start")
    assert "needs 2 to 8 players" in head(early.response)
    await members[1].click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    nosy = await watcher.click(game_place(channel).last_message, label="Show hand")
    assert nosy.ephemeral and "not playing" in head(nosy.response)
    rules = await watcher.slash(channel, "rules", game="idiot")
    assert rules.ephemeral and head(rules.response).startswith("# Idiot")


async def test_first_player_readying_last_gets_a_full_turn_timer(simcord_env, fixed_seed):
    env = simcord_env
    guild, channel, members, admin = setup_world(env)
    await pictures_off(env, guild, channel, admin)
    table = await open_and_start(env, channel, members)
    order = sorted(members, key=lambda m: m.id == table.state.first)  # the first player last
    for member in order[:2]:
        shown = await member.click(game_place(channel).last_message, label="Show hand")
        await member.click(shown.response.message, label="Ready")
    await env.advance_time(TURN_SECONDS - 10)
    shown = await order[2].click(game_place(channel).last_message, label="Show hand")
    await order[2].click(shown.response.message, label="Ready")
    assert table.state.phase == "play" and table.state.current_players() == frozenset({order[2].id})
    version = table.record.version
    await env.advance_time(30)
    assert table.record.version == version  # a fresh turn: the timer has not fired yet


async def test_a_hand_of_more_than_25_plays_is_paged_and_playable(simcord_env, fixed_seed):
    env = simcord_env
    guild, channel, members, admin = setup_world(env)
    await pictures_off(env, guild, channel, admin)
    table = await open_and_start(env, channel, members)
    # Scenario set-up (not a move): the first player holds two of every value, so
    # 26 plays (a single and a pair of each) are legal: more than one select holds.
    first, second, third = members
    ranks = "23456789TJQKA"
    stacked = IdiotGame.new(
        [m.id for m in members],
        deal={
            "phase": "play",
            "first": first.id,
            "hands": {first.id: [r + s for r in ranks for s in "hd"], second.id: ["3c"], third.id: ["4c"]},
            "face_down": {m.id: ["5s", "6s", "7s"][i:i + 1] for i, m in enumerate(members)},
            "pile": ["2c"],
        },
    )
    table.state = stacked
    table.record.state = stacked.to_json()
    shown = await first.click(game_place(channel).last_message, label="Show hand")
    page_one, _ = offered(shown.response.components)
    assert len(page_one) == 25 and "page 1 of 2" in str(shown.response.components)
    flipped = await first.click(shown.response.message, label="Next ▶")
    page_two, buttons = offered(flipped.response.components)
    legal = [a.code() for a in stacked.legal_actions(first.id)]
    assert page_one + page_two == legal and len(legal) == 26
    assert page_two == ["play:Ad.Ah"]  # the pair of aces, as one option
    version = table.record.version
    await first.select(flipped.response.message, page_two)
    assert table.record.version == version + 1
    assert [str(c) for c in table.state.pile] == ["2c", "Ad", "Ah"]
    assert f"{first.mention} played {card_text('Ad')} {card_text('Ah')}." in "\n".join(table.record.recent)


async def test_leaving_mid_game_takes_the_seat_out_once(simcord_env, data_dir, fixed_seed):
    env = simcord_env
    guild, channel, members, admin = setup_world(env)
    await pictures_off(env, guild, channel, admin)
    table = await open_and_start(env, channel, members)
    left = await members[2].slash(game_place(channel), "leave")
    assert "You left the Idiot game" in head(left.response)
    assert table.state.current_players() == frozenset(m.id for m in members[:2])
    again = await members[2].slash(game_place(channel), "leave")
    assert "You are not in this game" in head(again.response)
    assert db_rows(data_dir, guild.id, "SELECT user_id, code, source FROM actions") == [(members[2].id, "leave", "removal")]
    assert "left the game" in seat_line(embed_of(board(channel)).description, members[2])


async def test_a_stalemate_is_announced_and_rated_as_a_tie_nobody_won(simcord_env, data_dir, fixed_seed):
    """Issue 41: a stalemate was announced "nobody won" with standings 1st/2nd, then
    rated as a win and a loss. The players still holding cards tie: in the words, in
    the stored places and in the rating (equal newcomers move alike; nobody is counted
    a win)."""
    from cogs.idiot.rules import STALEMATE_TURNS

    env = simcord_env
    guild, channel, members, _admin = setup_world(env, n=2)
    table = await open_and_start(env, channel, members)
    first, second = members
    # Scenario set-up (not a move): the next turn without progress is the 200th; the
    # first player can only pick up the pile (then holds 2 cards, the second 3).
    stacked = IdiotGame.new(
        [m.id for m in members],
        deal={"phase": "play", "first": first.id, "hands": {first.id: ["5c"], second.id: ["4c", "3c", "Qd"]}, "pile": ["9c"]},
    )
    stacked.idle_turns = STALEMATE_TURNS - 1
    table.state = stacked
    table.record.state = stacked.to_json()
    shown = await first.click(game_place(channel).last_message, label="Show hand")
    await first.click(shown.response.message, label="Pick up the pile (1)")
    assert table.state.is_over() and table.state.stalemate
    final = text(board(channel))
    assert "ended in a stalemate: nobody won" in final
    # Both share first place, each with their rating move in the standings (issue 35's one
    # result line); nobody is second.
    standings = re.search(r"Standings and rating moves: (1st <@\d+> \([+-]\d+\) and <@\d+> \([+-]\d+\))\.", final)
    assert standings is not None, final
    assert "2nd" not in final
    changes = {int(user): int(delta) for user, delta in re.findall(r"<@(\d+)> \(([+-]\d+)\)", standings.group(1))}
    assert set(changes) == {first.id, second.id} and changes[first.id] == changes[second.id]  # a tie of equals
    assert sorted(db_rows(data_dir, guild.id, "SELECT user_id, place FROM results")) == sorted([(first.id, 1), (second.id, 1)])
    assert db_rows(data_dir, guild.id, "SELECT SUM(won) FROM ratings") == [(0,)]
    assert f"Cards left: {first.mention} 2, {second.mention} 3" in "\n".join(table.record.recent)
