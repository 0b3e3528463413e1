"""Enid end to end through SimCord: the real bot, ``/enid new``, hand buttons, rituals
typed in the game's thread or said with ``/say``, timers, a restart mid-game, the
session carried into the next game in the channel and ``/enid session end``.

Deals are stacked (``EnidGame.new`` is given a deal instead of the platform's seed) so
every ritual comes up in a short game; moves are made through the messages, the rules
state is only read."""

from __future__ import annotations

from tests.conftest import restart
from tests.e2e.ui import button_ids, embed_of, game_place, head, is_v2, labels, use_control
from tests.e2e.world import world

POEM = [
    "There once was a coder from Warwick",
    "Whose programs were rather historic",
    "She laid down a nine",
    "And named it just fine",
    "And her chain of names grew euphoric",
]
def setup_world(env):
    return world(env, channel="enid", names=("ada", "bob", "cyd"))


async def open_and_start(env, channel, members, **options):
    opened = await members[0].slash(channel, "enid new", **options)
    lobby = opened.response.message
    assert "Enid" in embed_of(opened.response).title
    assert "typing its name in the game's thread" in embed_of(opened.response).footer.text  # how rituals are said
    for member in members[1:]:
        await member.click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    return env.bot.tables.active_in_channel(channel.guild.id, game_place(channel).id)


async def play(member, channel, code):
    """Open the member's hand from the board and use the control for ``code``."""
    shown = await member.click(board(channel), label="Show hand")
    return await use_control(member, shown.response.message, code)


async def type_(member, channel, text):
    await member.send(game_place(channel), text)


def is_vote(message):
    return any(cid.startswith("dh:vote:") for cid in button_ids(message)) or any((e.title or "").startswith("🗳️") for e in message.embeds)


def board(channel):
    """The game's board: the newest message with an embed (or a V2 layout) that is not a vote message."""
    return next(m for m in reversed(game_place(channel).history()) if (m.embeds or is_v2(m)) and not is_vote(m))


def vote_message(channel):
    """The newest vote message (buttons ``dh:vote:``) where the game is played."""
    return next(m for m in reversed(game_place(channel).history()) if any(cid.startswith("dh:vote:") for cid in button_ids(m)))


async def vote(member, channel, choice):
    """Click Yes or No on the open vote's message."""
    message = vote_message(channel)
    custom_id = next(cid for cid in button_ids(message) if cid.endswith(f":vote::{choice}"))
    return await member.click(message, custom_id=custom_id)


def owed(table):
    return [(o["player"], o["kind"]) for o in table.state.obligations]


async def test_a_whole_game_with_every_ritual_a_restart_and_the_session_carried_on(simcord_env, data_dir, deals):
    env = simcord_env
    guild, channel, (ada, bob, cyd) = setup_world(env)
    deals.append(([["6s", "9s", "5s"], ["5c", "3s", "4d"], ["Qs", "7s", "7c"]], ["4s"]))  # the Enid is the 9♠
    table = await open_and_start(env, channel, [ada, bob, cyd])
    assert table.state.enid_mode and table.state.players == [ada.id, bob.id, cyd.id]

    # Ada lays Alan Turing: while she owes its name nobody is current and the board says
    # who owes what until when.
    await play(ada, channel, "play:6s")
    assert owed(table) == [(ada.id, "name")] and not table.state.current_players()
    assert f"{ada.mention} must name their card · time runs out <t:" in embed_of(board(channel)).description
    await type_(bob, channel, "Alan Turing of Sturgeon")  # Bob owes nothing: just chat
    assert owed(table) == [(ada.id, "name")]
    await type_(ada, channel, "Alan Turing of Sturgeon")
    await type_(ada, channel, POEM[0])
    assert table.state.limerick == {"first_line": POEM[0], "by": ada.id}

    # Bob must recite: all five lines typed in one message, then the others vote.
    await play(bob, channel, "recite")
    await type_(bob, channel, "\n".join(POEM[1:]))
    assert table.state.vote["about"] == "limerick"
    assert "Vote on the limerick" in embed_of(board(channel)).description
    await vote(ada, channel, "yes")
    await vote(cyd, channel, "yes")
    assert table.state.current == cyd.id and len(table.state.hands[bob.id]) == 3  # a good limerick costs nothing

    # Cyd lays a Queen and says nothing: the ritual timer draws her a card.
    await play(cyd, channel, "play:Qs")
    await env.advance_time(31)
    assert len(table.state.hands[cyd.id]) == 3 and table.state.current == ada.id

    # Ada lays the Enid, names it (starting the chain) and owes Last St. Francis.
    await play(ada, channel, "play:9s")
    await type_(ada, channel, "Enid Zebedee Blyton!")
    await type_(ada, channel, "Last St. Francis of Assisi")
    assert not owed(table) and [e["words"] for e in table.state.chain] == [["zebedee"]]

    # Bob names a Dennis * Richie with a middle name; Ada, whose turn it is not, challenges it.
    await play(bob, channel, "play:3s")
    await type_(bob, channel, "Dennis Marmoset Richie of Sturgeon")
    (middle,) = [e["id"] for e in table.state.challengeable]
    assert table.state.current == cyd.id
    await play(ada, channel, f"challenge::{middle}")
    assert table.state.vote["about"] == "middle"

    # A restart mid-vote: the table comes back with its open vote and timers.
    before = table.state.to_json()
    await restart(env, data_dir)
    table = env.bot.tables.active_in_channel(guild.id, game_place(channel).id)
    assert table.state.to_json() == before
    await vote(ada, channel, "no")
    await vote(cyd, channel, "no")
    assert len(table.state.hands[bob.id]) == 4  # the middle name fell: Bob drew one
    # The vote message posted before the restart was closed after it, with the verdict.
    closed = next(m for m in reversed(game_place(channel).history()) if is_vote(m))
    assert not button_ids(closed) and "**Voted down** (0 yes, 2 no)" in embed_of(closed).fields[0].value

    # Cyd lays Alonzo Church: the shout must name (mention) the player who was next.
    await play(cyd, channel, "play:7s")
    await type_(cyd, channel, "Alonzo Church of Sturgeon")
    assert owed(table) == [(cyd.id, "church")] and table.state.direction == -1
    await type_(cyd, channel, f"Haaargh! Be Alonzo Churched! (a bit) {ada.mention}")
    assert not owed(table)
    hand_before = len(table.state.hands[cyd.id])

    # Bob cannot lay on the 7♠ and draws; Ada goes out with the Tarski.
    await play(bob, channel, "draw")
    await play(ada, channel, "play:5s")
    await type_(ada, channel, "Tarski of Sturgeon")
    assert table.status == "finished" and table.state.winner == ada.id
    assert len(table.state.hands[cyd.id]) == hand_before
    final = head(board(channel))
    assert ada.mention in final and "won" in final
    # The same players' next game in the session: "Next game" (Onion's is "Next round").
    assert labels(board(channel)) == ["Next game", "Replay"]

    # -- a second game in the same channel: its Enid is named with the first game's chain --
    deals.append(([["9s", "5s"], ["5c", "4d"], ["7c", "2h"]], ["4s"]))
    table = await open_and_start(env, channel, [ada, bob, cyd])
    assert "chain of 1 middle name" in embed_of(board(channel)).description  # its length, never its names
    assert "zebedee" not in embed_of(board(channel)).description.lower()
    await play(ada, channel, "play:9s")
    await type_(ada, channel, "Enid Zebedee Quokka Blyton!")  # the chain in order, then a new name
    await type_(ada, channel, "Last St. Francis of Assisi")
    assert [e["words"] for e in table.state.chain] == [["zebedee"], ["quokka"]]
    assert len(table.state.hands[bob.id]) == 3 and len(table.state.hands[cyd.id]) == 3  # everyone else drew one
    await finish_with_tarski(table, channel, (ada, bob, cyd))
    assert table.state.winner == ada.id

    # -- a third game: the chain in the wrong order, through /say, draws the chain's length --
    deals.append(([["9s", "5s"], ["5c", "4d"], ["7c", "2h"]], ["4s"]))
    table = await open_and_start(env, channel, [ada, bob, cyd])
    await play(ada, channel, "play:9s")
    wrong = await ada.slash(game_place(channel), "say", text="Enid Quokka Zebedee Blyton")
    assert not wrong.ephemeral  # it counted (as a wrong chain)
    assert len(table.state.hands[ada.id]) == 1 + 2 and [e["words"] for e in table.state.chain] == [["zebedee"], ["quokka"]]
    # An unrelated /say is refused with a reason, and nothing changes.
    refused = await bob.slash(game_place(channel), "say", text="hello there")
    assert refused.ephemeral and head(refused.response)


async def finish_with_tarski(table, channel, members):
    """Play on: Ada lays her 5♠ (naming it) as soon as she can; the others draw."""
    while not table.state.is_over():
        current = table.state.current
        member = next(m for m in members if m.id == current)
        if current == members[0].id and "play:5s" in [a.code() for a in table.state.legal_actions(current)]:
            await play(member, channel, "play:5s")
            await type_(member, channel, "Tarski of Sturgeon")
        else:
            await play(member, channel, "draw")


async def test_rituals_through_say_and_the_session_end(simcord_env, data_dir, deals):
    env = simcord_env
    guild, channel, (ada, bob, cyd) = setup_world(env)
    deals.append(([["9s", "5s"], ["5c", "4d"], ["7c", "2h"]], ["4s"]))
    table = await open_and_start(env, channel, [ada, bob, cyd])
    await play(ada, channel, "play:9s")
    said = await ada.slash(game_place(channel), "say", text="Enid Zebedee Blyton")
    assert not said.ephemeral and "Enid Zebedee Blyton" in head(said.response)
    await ada.slash(game_place(channel), "say", text="Last St. Francis of Assisi")
    assert not owed(table) and [e["words"] for e in table.state.chain] == [["zebedee"]]
    # Ending the session while its game is open is refused.
    early = await bob.slash(channel, "enid session end")
    assert early.ephemeral and "still in play" in head(early.response)
    # Bob and Cyd have nothing on the 9♠ but draw; Ada goes out with the Tarski.
    while not table.state.is_over():
        current = table.state.current
        member = next(m for m in (ada, bob, cyd) if m.id == current)
        legal = [a.code() for a in table.state.legal_actions(current)]
        if current == ada.id and "play:5s" in legal:
            await play(ada, channel, "play:5s")
            await ada.slash(game_place(channel), "say", text="Tarski of Sturgeon")
        else:
            await play(member, channel, "draw")
    assert table.state.winner == ada.id

    # Only the host of the last game (or Manage Server) ends the session.
    refused = await bob.slash(channel, "enid session end")
    assert refused.ephemeral and ada.mention in head(refused.response)
    ended = await ada.slash(game_place(channel), "enid session end")  # from the game's thread: same session
    assert not ended.ephemeral
    text = head(ended.response)  # the same shape as Onion's: the story in the message itself
    assert text.startswith("**Enid: the session is over.**")
    assert f"1. Zebedee — by {ada.mention}" in text and f"Game 1: {ada.mention} won" in text
    again = await ada.slash(channel, "enid session end")
    assert again.ephemeral and "no Enid session" in head(again.response)
