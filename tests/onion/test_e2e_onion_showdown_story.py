"""Cripple Mr Onion's showdown told so players can follow it (issue 36), end to end
through SimCord: the board names who holds the better cards now and why; the one
answering sees the hand they face and what each answer would do; the final board tells
the whole showdown in order, hands as they were laid, with each modifier and what it
did, a cripple where it happens, and forced concessions as what they are; the marks
in a hand ("A♦=1", "8♠=0") are explained, and J🪄 laid in a grouping does not read as
"played".

Three members: m0 deals, m1 is the Elder, m2 the Younger. Every round is stacked: the
first five (face down), then the second five (face up: nobody buys); calm moves up to the
duel (no discards, zero bets, done)."""

from __future__ import annotations

import re

import discord

from tests.e2e.ui import board, labels, text
from tests.onion.onion_round_helpers import codes
from tests.onion.test_e2e_onion import choice, hand_of, play, stacked  # noqa: F401 (a fixture)
from bot.words.render_util import text_cards

#: The Dealer's cards: a six-card onion and a three-card onion, which nobody's hand fears.
DEALER = (codes("2c 3s 4d 5c 9s"), codes("2d 3d 4c 6c 9d"))
#: The Elder holds Great A'Tuin (Q🪙) face down: laid at its best, a five-card onion and a
#: double bagel; with A'Tuin's shift (10 -> 2, 3 -> 11), a Double Onion.
ATUIN = (codes("Qo Kt Ad 3w 4o"), codes("Tw To 6d 7u 5s"))
#: The Younger: a seven-card onion, which beats the five-card onion and loses to the Double Onion.
SEVEN = (codes("Ac Ah 2u 2w 4t"), codes("5t 6h Tc Ts 9u"))


def deal(stacked, elder, younger, dealer=DEALER):
    stacked.append((0, {0: dealer[0], 1: elder[0], 2: younger[0]}, {}, {0: dealer[1], 1: elder[1], 2: younger[1]}))


async def start(env, channel, members):
    m0, m1, m2 = members
    # These tests read the whole table in the board's text: a server with card pictures
    # off (with them on, the board over the picture keeps only what the picture cannot
    # show: the showdown's last lines).
    await m0.slash(channel, "settings pictures", mode="off")
    opened = await m0.slash(channel, "onion new")
    for member in (m1, m2):
        await member.click(opened.response.message, label="Join")
    await m0.click(opened.response.message, label="Start")
    (table,) = env.bot.tables.tables()
    by_id = {m.id: m for m in members}
    while table.status == "playing" and table.state.phase != "duel":  # calm moves up to the duel
        player = min(table.state.current_players(), key=table.state.players.index)
        await play(by_id[player], channel, choice(table.state, player))
    return table


def seat(env, prefix):
    guild = env.create_guild()
    channel = guild.create_text_channel(f"onion-{prefix}")
    hosts = guild.create_role("Hosts", permissions=discord.Permissions(manage_guild=True))
    return channel, [guild.add_member(env.create_user(f"{prefix}{i}"), nick=f"{prefix.title()}{i}", roles=[hosts] if i == 0 else [])
                     for i in range(3)]


def holder(said: str) -> str | None:
    """Whom the board names as holding the better cards now."""
    match = re.search(r"\*\*(<@\d+>) holds the better cards\*\*", said) or re.search(
        r"\*\*Holds the better cards:\*\* (<@\d+>)", said)
    return match.group(1) if match else None


def story(said: str) -> list[str]:
    """The board's showdown summary, line by line."""
    lines = said.split("\n")
    start = next(i for i, line in enumerate(lines) if "Showdown, as it happened" in line)
    out = []
    for line in lines[start + 1:]:
        if "Showdown, continued" in line:
            continue
        if not line.strip() or line.startswith(("Recent", "-#", "Cripple Mr Onion #")):
            break
        out.append(line)
    return out


async def test_the_board_names_who_holds_the_better_cards_and_the_one_answering_sees_what_they_face(
        simcord_env, stacked):
    """Items 1 and 3: the Younger's seven-card onion beats the Elder's five-card onion, and the
    Elder, who holds Great A'Tuin, must answer."""
    env = simcord_env
    channel, members = seat(env, "ahead")
    m0, m1, m2 = members
    deal(stacked, ATUIN, SEVEN)
    table = await start(env, channel, members)
    assert table.state.current_players() == {m1.id}
    said = text(board(channel))
    # The one whose turn it is to answer is the one beaten: the board says the other leads, and why.
    # (The board's first line says whose turn it is and what to do; no Turn line repeats it.)
    assert f"👉 {m1.mention}: answer the better hand" in said and "**Turn:**" not in said
    assert holder(said) == m2.mention, said
    assert "(seven-card onion against five-card onion)" in said and "still to come: " + m0.mention in said
    # The Elder sees the hand they face, their own, and what A'Tuin would do to both.
    hand = text(await hand_of(m1, channel))
    assert text_cards(f"**You face {m2.mention}'s hand:** seven-card onion A♣=1 A♥=1 2🏆 2⚔ 4🪄 5🪄 6♥") in hand, hand
    assert "**Yours, as laid:** five-card onion" in hand and f"Now {m2.mention} holds the better cards." in hand
    assert (f"• **Declare Great A'Tuin: shift 8 points**: {m2.mention}'s hand unchanged (seven-card onion, bagel); "
            "yours five-card onion, double bagel → Double Onion, four-card onion; you would hold the better cards") in hand
    # The one brought in, before they answer, sees the Elder's hand as laid.
    await play(m1, channel, "declare:Qo:atuin")
    said = text(board(channel))
    assert holder(said) is None and table.status == "finished"


async def test_the_final_board_tells_the_showdown_in_order_with_hands_as_laid(simcord_env, stacked):
    """Items 2 and 6: after the Elder answers with Great A'Tuin and wins, the final board says
    the whole showdown in order, past the Recent window: the Elder's hand as it was laid
    (not as it was re-formed), the modifier and what it did, and the Dealer, who never
    acted, as a hand that could not equal or beat, not as a player who conceded."""
    env = simcord_env
    channel, members = seat(env, "story")
    m0, m1, m2 = members
    deal(stacked, ATUIN, SEVEN)
    table = await start(env, channel, members)
    await play(m1, channel, "declare:Qo:atuin")
    assert table.status == "finished" and table.state.winner == m1.id
    said = text(board(channel))
    lines = story(said)
    expected = [
        text_cards(f"{m1.mention} lays their hand first, as the Elder: five-card onion A♦=1 3⚔ 4🪙 6♦ 7🏆 · double bagel"),
        f"{m2.mention} is brought in against {m1.mention}",
        f"{m2.mention} shows their hand: seven-card onion",
        f"{m2.mention}'s hand beats {m1.mention}'s: seven-card onion against five-card onion",
        text_cards(f"{m1.mention} declares Q🪙✦ Great A'Tuin: 8 points shift from one of their cards to another"),
        text_cards(f"{m1.mention}'s hand re-forms under Q🪙✦ Great A'Tuin, played by {m1.mention}: five-card onion, double bagel → "
                   "Double Onion"),
        f"{m1.mention}'s hand beats {m2.mention}'s: Double Onion against seven-card onion",
        f"{m2.mention} has no answer left: {m1.mention} holds the better cards",
        f"{m0.mention} is brought in against {m1.mention}",
        f"{m0.mention}'s hand cannot equal or beat it, so it is out: six-card onion",
        f"💰 {m1.mention} takes the Pot of 3",
    ]
    assert [line[:len(want)] for line, want in zip(lines, expected)] == expected, lines
    assert "concedes" not in said  # nobody chose to concede
    assert "*How to read the hands: A♦=1: an ace counts 1 or 11; 3⚔→11: a card whose value a modifier " \
           "shifted" in said
    # The record kept for the summary is the hand as laid; the hand's own record is re-formed.
    first = table.state.story[0]
    assert first["kind"] == "showdown" and first["explanation"].startswith("five-card onion")
    assert next(s for s in table.state.showdown if s["player"] == m1.id)["groupings"][0] == "Double Onion"


async def test_a_cripple_is_told_where_it_happens(simcord_env, stacked):
    """Item 2: the Younger's ten-card running flush cripples the Elder's Greater Onion: the
    line that says who leads says so, not only the round's last line."""
    env = simcord_env
    channel, members = seat(env, "cripple")
    m0, m1, m2 = members
    deal(stacked, (codes("Ac As Ah Ad Aw"), codes("Kc Ks Kh Kd Qc")), (codes("2h 3h 4h 5h 6h"), codes("7h 8u 9u Tu Ju")))
    table = await start(env, channel, members)
    assert table.status == "finished" and table.state.winner == m2.id
    lines = story(text(board(channel)))
    assert lines[0].startswith(f"{m1.mention} lays their hand first, as the Elder: Greater Onion")
    assert lines[3].startswith(text_cards(f"🧅 {m2.mention}'s ten-card running flush 2♥ 3♥ 4♥ 5♥ 6♥ 7♥ 8🏆 9🏆 10🏆 J🏆 cripples "
                                          f"{m1.mention}'s Greater Onion")), lines
    assert lines[4] == f"{m1.mention}'s crippled Onion may not be retracted: {m2.mention} holds the better cards"
    assert sum("cripples" in line for line in lines) == 1  # said once, where it happened


async def test_the_marks_in_a_hand_are_explained_and_j_staves_in_a_grouping_is_not_played(simcord_env, stacked):
    """Item 4: the Elder's hand lays J🪄 in a bagel and an eight at 0 (a null eight) in a
    seven-card onion. The board says what "=0" and "=1" mean, and that J🪄 is laid in a
    grouping (so no eight counts 8), not that the Archchancellor was played: it was not
    declared."""
    env = simcord_env
    channel, members = seat(env, "marks")
    m0, m1, m2 = members
    deal(stacked, (codes("Jt 8h 3c 8s 2d"), codes("Kh Ad 5c 6c 4d")), SEVEN,
         dealer=(codes("2s 3h 4s 5d 9c"), codes("2t 3t 4w 6w 9w")))
    table = await start(env, channel, members)
    assert not table.state.declared  # nobody declared the Archchancellor
    said = text(board(channel))
    assert text_cards("seven-card onion (1 null eight) 3♣ 8♠=0 2♦ A♦=1 5♣ 6♣ 4♦ · bagel J🪄 K♥") in said, said
    assert "the Archchancellor played" not in said
    assert text_cards("(J🪄 is laid in a grouping, so by the Archchancellor's rule no eight counts 8)") in said
    # Each mark is told on a card the board shows (an invented example could read as a card in play).
    assert ("How to read the hands: A♦=1: an ace counts 1 or 11; 8♠=0: a null eight, counted 0 to make an "
            "onion longer (of two onions as long, the one with fewer null eights wins)") in said
    assert "Show hand" in labels(board(channel))
