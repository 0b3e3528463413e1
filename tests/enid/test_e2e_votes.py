"""Votes on a message of their own (``bot/discord_front/votes.py``), a reply as the Church's address,
and how the lobby words Message Content, end to end through SimCord with stacked deals."""

from __future__ import annotations

import discord

from tests.enid.test_e2e_enid import (
    POEM,
    board,
    is_vote,
    open_and_start,
    owed,
    play,
    setup_world,
    type_,
    vote,
    vote_message,
)
from tests.e2e.ui import button_ids, embed_of, game_place, head, text
from tests.hardening.forge import forge_component, text_of


def vote_messages(channel):
    return [m for m in game_place(channel).history() if is_vote(m)]


async def limerick_vote(env, channel, ada, bob, cyd, deals):
    """Ada sets a limerick, Bob recites it: a vote opens for Ada and Cyd."""
    deals.append(([["6s", "5s", "5c"], ["5d", "3s", "4d"], ["Qs", "7s", "7c"]], ["4s"]))
    table = await open_and_start(env, channel, [ada, bob, cyd])
    await play(ada, channel, "play:6s")
    await type_(ada, channel, "Alan Turing of Sturgeon")
    await type_(ada, channel, POEM[0])
    await play(bob, channel, "recite")
    await type_(bob, channel, "\n".join(POEM[1:]))
    assert table.state.vote["about"] == "limerick"
    return table


async def test_a_limerick_vote_on_its_own_message(simcord_env, data_dir, deals):
    env = simcord_env
    guild, channel, (ada, bob, cyd) = setup_world(env)
    table = await limerick_vote(env, channel, ada, bob, cyd, deals)

    # One public message of its own: the poem, the hint, who votes, the deadline, two buttons.
    (message,) = vote_messages(channel)
    embed = embed_of(message)
    assert "limerick scan and rhyme" in embed.title
    assert POEM[4] in embed.description and "syllables" in embed.description and "a hint, not the verdict" in embed.description
    voters = embed.fields[0].value
    assert f"⏳ to vote: {ada.mention}" in voters and f"⏳ to vote: {cyd.mention}" in voters and bob.mention not in voters
    assert "Closes <t:" in embed.fields[1].value
    assert sorted(cid.rsplit(":", 1)[1] for cid in button_ids(message)) == ["no", "yes"]
    # The board posted anew pings the voter with no open hand (ada's open hand is redrawn to
    # tell her); its first line names both voters
    # and says what for; the board's vote line names both; hands carry no vote buttons.
    ping = [m for m in game_place(channel).history() if head(m) and head(m).startswith("👉")][-1]
    assert head(ping).startswith(f"👉 {ada.mention} and {cyd.mention}: vote on the limerick")  # everyone who must vote (issue 37)
    # (The vote line under the first line counts the votes and names nobody again.)
    assert "**Vote on the limerick:** 0/2 voted" in text(ping) and "waiting for" not in text(ping)
    shown = await ada.click(board(channel), label="Show hand")
    assert not [cid for cid in button_ids(shown.response.message) if ":vote:" in cid]
    assert "vote message" in embed_of(shown.response).description

    version = table.record.version
    # The poet does not vote on their own limerick.
    refused = await vote(bob, channel, "yes")
    assert refused.response.ephemeral and "Only" in head(refused.response) and table.record.version == version
    # Ada votes: the message is edited in place by her click, her vote stays secret.
    voted = await vote(ada, channel, "yes")
    assert voted.response.message.id == message.id
    assert f"✅ voted: {ada.mention}" in embed_of(vote_message(channel)).fields[0].value
    assert "yes" not in embed_of(vote_message(channel)).fields[0].value
    assert table.record.version == version + 1
    # One vote each: a second click is refused.
    again = await vote(ada, channel, "no")
    assert "already voted" in head(again.response) and table.record.version == version + 1
    # A forged choice, and a click from another server, change nothing.
    forged = await forge_component(cyd, vote_message(channel), f"dh:vote:{guild.id}:{table.id}:{table.state.vote['id']}:vote::maybe")
    assert "not one of this vote's choices" in text_of(forged)
    other = env.create_guild()
    stranger = other.add_member(env.create_user("eve"))
    elsewhere = other.create_text_channel("elsewhere")
    decoy = await stranger.send(elsewhere, "hello")
    outside = await forge_component(stranger, decoy, f"dh:vote:{guild.id}:{table.id}:{table.state.vote['id']}:vote::no")
    assert "another server" in text_of(outside) and table.record.version == version + 1

    # Cyd votes No: a tie lets the limerick stand; the message closes with the verdict.
    vote_id = table.state.vote["id"]
    await vote(cyd, channel, "no")
    assert table.state.vote is None and len(table.state.hands[bob.id]) == 3
    closed = vote_messages(channel)[0]
    assert closed.id == message.id and not button_ids(closed)
    assert "Closed" in embed_of(closed).title and "stands** (1 yes, 1 no)" in embed_of(closed).fields[0].value
    # Cyd voted last and it is now her turn: the ping that asked her to vote says so.
    ping = [m for m in game_place(channel).history() if head(m) and head(m).startswith("👉")][-1]
    assert head(ping).startswith(f"👉 {cyd.mention}: lay a card")  # (Enid's turn_task: what her move is)
    # A click on the closed vote (a forged copy of its old button) is refused.
    late = await forge_component(ada, closed, f"dh:vote:{guild.id}:{table.id}:{vote_id}:vote::yes")
    assert "has closed" in text_of(late)
    assert len(vote_messages(channel)) == 1


async def test_a_challenge_vote_closed_by_its_timer(simcord_env, data_dir, deals):
    env = simcord_env
    guild, channel, (ada, bob, cyd) = setup_world(env)
    deals.append(([["3s", "5s", "5c"], ["5d", "4s", "4d"], ["Qs", "7s", "7c"]], ["4s"]))
    table = await open_and_start(env, channel, [ada, bob, cyd])
    await play(ada, channel, "play:3s")
    await type_(ada, channel, "Dennis Mississippi Richie of Sturgeon")
    (middle,) = [e["id"] for e in table.state.challengeable]
    await play(cyd, channel, f"challenge::{middle}")
    (message,) = vote_messages(channel)
    assert "“mississippi” stand" in embed_of(message).title and "proper nouns" in embed_of(message).description
    await vote(bob, channel, "no")
    await env.advance_time(31)  # Cyd never votes: the vote's timer closes it
    assert table.state.vote is None
    closed = vote_messages(channel)[0]
    assert not button_ids(closed) and "**Voted down** (0 yes, 1 no)" in embed_of(closed).fields[0].value
    assert len(table.state.hands[ada.id]) == 2 + 1


async def test_a_reply_addresses_the_churchs_target(simcord_env, data_dir, deals):
    env = simcord_env
    guild, channel, (ada, bob, cyd) = setup_world(env)
    deals.append(([["7s", "5s", "5c"], ["5d", "4s", "4d"], ["7c", "9h", "Kd"]], ["4s"]))
    table = await open_and_start(env, channel, [ada, bob, cyd])
    place = game_place(channel)
    hello_bob = await bob.send(place, "good luck all")
    hello_cyd = await cyd.send(place, "and to you")
    # Ada's Church skips Bob (who was next): replying to Cyd's message addresses the wrong player.
    await play(ada, channel, "play:7s")
    await type_(ada, channel, "Alonzo Church of Sturgeon")
    await ada.send(place, "Haaargh! Be Alonzo Churched! (a bit)", reply_to=hello_cyd)
    assert not owed(table) and len(table.state.hands[ada.id]) == 2 + 1  # the wrong player: she draws one
    # Cyd (next, the direction reversed) lays the 7♣: Bob would have been next; a reply to Bob is right.
    await play(cyd, channel, "play:7c")
    await type_(cyd, channel, "Alonzo Church of Carp")
    before = len(table.state.hands[cyd.id])
    await cyd.send(place, "Haaargh! Be Alonzo Churched! (a bit)", reply_to=hello_bob)
    assert not owed(table) and len(table.state.hands[cyd.id]) == before
    recent = "\n".join(table.record.recent)
    assert f"↪ {bob.mention} Haaargh!" in recent  # the log shows whom it was said to


async def test_the_lobby_reads_message_content_from_the_application_flags(simcord_env, data_dir, monkeypatch):
    env = simcord_env
    guild, channel, (ada, bob, cyd) = setup_world(env)
    # The Developer Portal's switch is off: no flag, so rituals go through /say.
    monkeypatch.setattr(discord.AppInfo, "flags", property(lambda self: discord.ApplicationFlags()))
    opened = await ada.slash(channel, "enid new")
    assert "cannot read chat" in embed_of(opened.response).footer.text and "/say" in embed_of(opened.response).footer.text
    await ada.click(opened.response.message, label="Cancel")
    # A verified bot's flag counts as well as the limited one.
    monkeypatch.setattr(discord.AppInfo, "flags", property(lambda self: discord.ApplicationFlags(gateway_message_content=True)))
    opened = await ada.slash(channel, "enid new")
    assert "typing its name in the game's thread" in embed_of(opened.response).footer.text
