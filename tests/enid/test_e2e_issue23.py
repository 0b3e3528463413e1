"""Issue 23 (what new players trip over), Enid's part, end to end through SimCord:

1. a typed ritual does not make the typist's next click on the same hand stale (the
   hand told them: type "Last card", then name the suit), while a real stale click
   (a double click) is still refused;
5. a closed vote does not leave "Your move" / "Vote on the limerick" on the last
   voter's open hand;
7. the plain-mode lobby says only what plain mode has;
8. a misnamed card says which part of the name was wrong.
"""

from __future__ import annotations

import pytest
from simcord.results import to_discord_message

from tests.e2e.ui import button_ids, embed_of, game_place, head, text, use_control
from tests.enid.test_e2e_enid import POEM, board, play, setup_world, type_, vote
from tests.hardening.forge import forge_component
from bot.words.render_util import text_cards


def fresh(env, message):
    """A message as Discord shows it now (after the bot's later edits)."""
    return to_discord_message(env, env.backend.messages[message.channel.id][message.id])


async def open_table(env, channel, members, mode):
    opened = await members[0].slash(channel, "enid new", mode=mode)
    for member in members[1:]:
        await member.click(opened.response.message, label="Join")
    await members[0].click(opened.response.message, label="Start")
    table = env.bot.tables.active_in_channel(channel.guild.id, game_place(channel).id)
    return opened, table


def suit_button(message, suit):
    return next(cid for cid in button_ids(message) if cid.startswith("dh:act:") and cid.endswith(f":suit::{suit}"))


def act_button(message, code):
    return next(cid for cid in button_ids(message) if cid.startswith("dh:act:") and cid.endswith(f":{code}"))


# ----------------------------------------------------------------- 1. typed rituals, then a click


async def test_typing_last_card_after_an_ace_does_not_stale_the_suit_buttons(simcord_env, data_dir, deals):
    """Plain mode: the Ace is the last-but-one card; the hand says to type "Last card"
    and shows the suit buttons; the player types it, then clicks a suit on that hand."""
    env = simcord_env
    guild, channel, (ada, bob, cyd) = setup_world(env)
    deals.append(([["As", "9d"], ["5c", "3c", "4d"], ["Qs", "7s", "7c"]], ["4s"]))
    _, table = await open_table(env, channel, [ada, bob, cyd], "plain")
    laid = await play(ada, channel, "play:As")
    hand = laid.response.message
    assert "Last card" in text(hand) and suit_button(hand, "d")
    assert "pick up 7. Then name a suit for your Ace." in text(hand)  # both things the hand wants, in order
    await type_(ada, channel, "Last card!")
    assert not table.state.obligations  # the call was heard
    # Clicked from what the hand shows now, and from the message as it was before the
    # typed words (a click racing the hand's redraw): both name the same move.
    clicked = await ada.click(fresh(env, hand), custom_id=suit_button(fresh(env, hand), "d"))
    assert "earlier moment" not in head(clicked.response)
    assert table.state.chosen_suit is not None and table.state.chosen_suit.value == "d"
    assert table.state.current == bob.id


async def test_a_click_racing_the_redraw_after_a_typed_call_still_counts(simcord_env, data_dir, deals, monkeypatch):
    """The stale rule on its own: the click arrives before the hand's redraw shows
    (here: no redraw at all), from the hand as it was before the typed call."""
    env = simcord_env

    async def no_redraw(*args, **kwargs):
        return None

    monkeypatch.setattr(env.bot.tables.clicks, "redraw_own_hand", no_redraw, raising=False)
    guild, channel, (ada, bob, cyd) = setup_world(env)
    deals.append(([["As", "9d"], ["5c", "3c", "4d"], ["Qs", "7s", "7c"]], ["4s"]))
    _, table = await open_table(env, channel, [ada, bob, cyd], "plain")
    laid = await play(ada, channel, "play:As")
    old_button = suit_button(laid.response.message, "h")  # the button as it was before the typing
    await type_(ada, channel, "Last card")
    clicked = await ada.click(fresh(env, laid.response.message), custom_id=old_button)
    assert "earlier moment" not in head(clicked.response)
    assert table.state.chosen_suit.value == "h"


async def test_a_real_stale_click_is_still_refused_after_a_typed_call(simcord_env, data_dir, deals, monkeypatch):
    """A card laid from the hand; "Last card" typed: the End turn (still legal) the hand
    showed before that click, sent again (a second window, a lagging client), is a click
    from before her own click, and is refused."""
    env = simcord_env

    async def no_redraw(*args, **kwargs):
        return None

    monkeypatch.setattr(env.bot.tables.clicks, "redraw_own_hand", no_redraw, raising=False)
    guild, channel, (ada, bob, cyd) = setup_world(env)
    deals.append(([["Ts", "9s", "5s"], ["5c", "3c", "4d"], ["Qc", "7d", "7c"]], ["4s"]))
    _, table = await open_table(env, channel, [ada, bob, cyd], "plain")
    first = await play(ada, channel, "play:Ts")
    end_then = next(cid for cid in button_ids(fresh(env, first.response.message)) if cid.endswith(":end"))
    await use_control(ada, fresh(env, first.response.message), "play:9s")
    await type_(ada, channel, "Last card")
    version = table.record.version
    refused = await forge_component(ada, fresh(env, first.response.message), end_then)
    assert "earlier moment" in head(refused.response) and table.record.version == version
    assert table.state.current == ada.id and table.state.phase == "ten"


@pytest.mark.parametrize(
    "hand, laid, then",
    [
        (["Ks", "9s"], "play:Ks", "play:9s"),  # a King skips round to the same player (three seats)
        (["8s", "9d"], "play:8s", "play:9d"),  # an Eight: lay any other card
        (["Ts", "9s"], "play:Ts", "end"),  # a Ten: more of its suit, or end the turn
    ],
)
async def test_typing_last_card_keeps_the_turns_next_click_live(simcord_env, data_dir, deals, hand, laid, then):
    env = simcord_env
    guild, channel, (ada, bob, cyd) = setup_world(env)
    deals.append(([hand, ["5c", "3c", "4d"], ["Qc", "7d", "7c"]], ["4s"]))
    _, table = await open_table(env, channel, [ada, bob, cyd], "plain")
    shown = await play(ada, channel, laid)
    assert table.state.current == ada.id
    await type_(ada, channel, "Last card")
    clicked = await use_control(ada, fresh(env, shown.response.message), then)
    assert "earlier moment" not in head(clicked.response)
    assert table.record.version >= 3 and (table.state.is_over() or table.state.current != ada.id)


async def test_enid_mode_last_st_francis_after_a_named_ace_keeps_the_suit_buttons_live(simcord_env, data_dir, deals):
    env = simcord_env
    guild, channel, (ada, bob, cyd) = setup_world(env)
    deals.append(([["As", "9d"], ["5c", "3c", "4d"], ["Qs", "7s", "7c"]], ["4s"]))
    _, table = await open_table(env, channel, [ada, bob, cyd], "enid")
    laid = await play(ada, channel, "play:As")
    await type_(ada, channel, "Rob McMahon of Sturgeon")
    assert table.state.phase == "suit"
    hand = fresh(env, laid.response.message)  # redrawn: her turn came back with the suit buttons
    assert "Last St. Francis" in text(hand) and suit_button(hand, "c")
    await type_(ada, channel, "Last St. Francis of Assisi")
    assert not [o for o in table.state.obligations if o["kind"] == "last"]
    hand = fresh(env, hand)
    assert "Last St. Francis" not in text(hand)  # the hand no longer asks for the call just made
    clicked = await ada.click(hand, custom_id=suit_button(hand, "c"))
    assert "earlier moment" not in head(clicked.response)
    assert table.state.chosen_suit.value == "c" and table.state.current == bob.id


@pytest.mark.parametrize("at_bob, counts", [(True, True), (False, False)])
async def test_a_typed_shout_that_draws_a_card_makes_the_older_hand_stale(simcord_env, data_dir, deals, monkeypatch, at_bob, counts):
    """What changed for the player decides: the Church's shout at the right player
    changes nothing of hers, so her open hand's Challenge still counts; at nobody it
    draws her a card, so a click from the hand shown before is refused."""
    env = simcord_env

    async def no_redraw(*args, **kwargs):
        return None

    monkeypatch.setattr(env.bot.tables.clicks, "redraw_own_hand", no_redraw, raising=False)
    guild, channel, (ada, bob, cyd) = setup_world(env)
    deals.append(([["7s", "9d", "5c"], ["5h", "3c", "4d"], ["3s", "7d", "7c"]], ["4s"]))
    _, table = await open_table(env, channel, [ada, bob, cyd], "enid")
    await play(ada, channel, "play:7s")
    await type_(ada, channel, "Alonzo Church of Sturgeon")
    assert table.state.current == cyd.id  # reversed
    await play(cyd, channel, "play:3s")
    await type_(cyd, channel, "Dennis Mungo Richie of Sturgeon")
    (middle,) = [e["id"] for e in table.state.challengeable]
    shown = await ada.click(board(channel), label="Show hand")
    shout = "Haaargh! Be Alonzo Churched! (a bit)" + (f" {bob.mention}" if at_bob else "")
    cards = len(table.state.hands[ada.id])
    await type_(ada, channel, shout)
    assert len(table.state.hands[ada.id]) == cards + (0 if at_bob else 1)
    clicked = await use_control(ada, fresh(env, shown.response.message), f"challenge::{middle}")
    assert ("earlier moment" in head(clicked.response)) is not counts
    assert (table.state.vote is not None) is counts


# ----------------------------------------------------------------- 5. a closed vote and the voter's hand


async def reach_a_limerick_vote(env, channel, members, deals):
    ada, bob, cyd = members
    deals.append(([["6s", "9s", "5s"], ["5c", "3s", "4d"], ["Qs", "7s", "7c"]], ["4s"]))
    _, table = await open_table(env, channel, members, "enid")
    await play(ada, channel, "play:6s")
    await type_(ada, channel, "Alan Turing of Sturgeon")
    await type_(ada, channel, POEM[0])
    await play(bob, channel, "recite")
    await type_(bob, channel, "\n".join(POEM[1:]))
    assert table.state.vote["about"] == "limerick"
    return table


@pytest.mark.parametrize("last", ["ada", "cyd"])
async def test_a_closed_vote_leaves_no_your_move_on_the_last_voters_hand(simcord_env, data_dir, deals, last):
    """Ada's turn does not come next (her hand must say she waits); Cyd's does (her hand
    must offer her turn, not the closed vote)."""
    env = simcord_env
    guild, channel, (ada, bob, cyd) = setup_world(env)
    table = await reach_a_limerick_vote(env, channel, [ada, bob, cyd], deals)
    voter, other = (ada, cyd) if last == "ada" else (cyd, ada)
    shown = await voter.click(board(channel), label="Show hand")
    # A vote is not a move: the hand's status says what is owed (the platform's word, from ping_task).
    assert head(shown.response.message).startswith("**Now vote on ") and "Vote on the limerick" in text(shown.response.message)
    await vote(other, channel, "yes")
    await vote(voter, channel, "yes")
    assert table.state.vote is None and table.state.current == cyd.id
    hand = text(fresh(env, shown.response.message))
    assert "Vote on the limerick" not in hand
    if voter is ada:
        assert "Your move" not in hand and "Waiting for" in hand
    else:
        assert "Your move" in hand and "Your turn: lay a card" in hand


# ----------------------------------------------------------------- 7. the plain-mode lobby


async def test_the_plain_lobby_says_only_what_plain_mode_has(simcord_env, data_dir):
    import discord

    env = simcord_env
    guild, channel, (ada, bob, cyd) = setup_world(env)
    admin = guild.add_member(env.create_user("admin"), roles=[guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))])
    # House rules away from their usual setting are listed in a lobby: Enid mode's among them.
    for rule, value in (("ritual_seconds", "15"), ("limerick_seconds", "60"), ("vote_seconds", "60"), ("beginner_names", "yes")):
        await admin.slash(channel, "settings house-rule", game="enid", rule=rule, value=value)
    opened = await ada.slash(channel, "enid new", mode="plain")
    lobby = text(opened.response.message)
    # The one typed call of plain mode is said, and nothing claims there is none.
    assert "nothing to type" not in lobby
    assert "“Last card”" in lobby and "within 15 seconds" in lobby
    # Enid mode's rituals, names, limericks and votes are not part of a plain table.
    for word in ("a card's name", "shout", "limerick", "vote", "Enid name", "seed's names"):
        assert word not in lobby, word
    # Enid mode's lobby still lists them.
    enid = text((await bob.slash(guild.create_text_channel("enid2"), "enid new")).response.message)
    assert "a card's name, a shout, a cry" in enid and "limerick" in enid


# ----------------------------------------------------------------- 8. which part of a name was wrong


async def test_a_misnamed_card_tells_the_table_which_part_was_wrong(simcord_env, data_dir, deals):
    env = simcord_env
    guild, channel, (ada, bob, cyd) = setup_world(env)
    deals.append(([["6s", "9d", "5c"], ["5s", "3c", "4d"], ["Qs", "7s", "7c"]], ["4s"]))
    _, table = await open_table(env, channel, [ada, bob, cyd], "enid")
    await play(ada, channel, "play:6s")
    await type_(ada, channel, "Alan Turing of Carp")
    shown = text(board(channel))
    assert text_cards(f"misnamed 6♠: the name was right, the fish (the suit) was wrong; its magic is void") in shown
    assert "(wrong name)" not in shown
    await play(bob, channel, "play:5s")
    await type_(bob, channel, "Tarski")
    assert text_cards("misnamed 5♠: the name was right, but “of” and the fish (the suit) were missing") in text(board(channel))
